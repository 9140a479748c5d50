"""Fit verdicts for every quantization of a spec, for the model browser (issue 10, item 4).

File stats and (memoized) GGUF headers only, never the network. The KV cache does not depend on
the weight quantization, so one downloaded quantization's header gives it for all of them; a
quantization that is not downloaded gets its weights from a cached hub listing, else an estimate
from the parameter count (said so in its notes).
"""

from __future__ import annotations

from pathlib import Path

from app.core import assets
from app.core.cache import CacheError, CacheManager, make_plan
from app.core.catalog import fit, sizes
from app.core.registry import Family, GGUFSpec
from app.core.registry.store import AnySpec


def _on_disk(mgr: CacheManager) -> Path | None:
    plan = mgr.plan
    if plan.kind == "local":
        if assets.is_embedded(plan.local_path) and assets.needs_preparation(plan.local_path):
            return None
        try:
            p = assets.resolve(plan.local_path)
        except (OSError, ValueError):
            return None
        return p if p.is_file() else None
    # read-only: resolve_path() would adopt hub-cache files into a Tandem entry (a probe
    # brought back entries the user had just deleted)
    found = mgr.path_on_disk()
    return found if found is not None and found.is_file() else None


def spec_estimates(
    family: Family, spec: AnySpec, hub: str | None = None, ctx: int = 4096, available: int | None = None
) -> dict[str, fit.FitEstimate]:
    """quantization -> estimate (GGUF specs; an empty dict for MLX)."""
    if not isinstance(spec, GGUFSpec):
        return {}
    chosen = hub or (sizes.spec_hubs(spec) or ["local"])[0]
    avail = fit.available_memory() if available is None else available
    files: dict[str, Path | None] = {}
    for q in spec.quantizations:
        try:
            files[q] = _on_disk(CacheManager(family, spec, "target", q, chosen))
        except CacheError:
            files[q] = None
    shape: fit.KVShape | None = None
    for p in files.values():
        if p is not None:
            try:
                shape = fit.file_kv_shape(p)
                break
            except fit.FitError:
                continue
    out: dict[str, fit.FitEstimate] = {}
    for q in spec.quantizations:
        notes: list[str] = []
        path = files[q]
        weights: int | None
        if path is not None:
            weights = fit.weights_bytes(path)
        else:
            try:
                weights = sizes.plan_bytes(make_plan(family, spec, "target", q, chosen))
            except ValueError:
                weights = None
            if weights is None:
                weights = fit.estimated_weights(spec.size_in_billions, q)
                notes.append("estimated")
        kv = shape.bytes(ctx) if shape is not None else None
        out[q] = fit.estimate(weights, kv, ctx=ctx, available=avail, notes=notes)
    return out
