"""Fit verdicts for every quantization of a spec, for the model browser.

File stats and (memoized) GGUF headers only, never the network: blocking, so the browser calls
it on an operations worker. The KV cache does not depend on the weight quantization, so one
downloaded quantization's header gives it for all of them; a quantization that is not downloaded
gets its weights from a cached hub listing, else an estimate from the parameter count (said so in
its notes). A spec that declares a drafter counts it too (the recommended drafter quantization,
or the one already on disk): its file and its own KV cache, or its listed size.

Notes (codes the GUI turns into sentences): ``estimated`` (weights from the parameter count),
``listing`` (weights from the hub listing), ``registry`` (weights from the file size the registry
recorded when the entry was checked), ``drafter-unknown`` (a drafter is declared but its
size is not known before it is listed or downloaded; counted as 0).
"""

from __future__ import annotations

import functools
from pathlib import Path

from app.core import assets
from app.core.cache import CacheError, CacheManager, make_plan
from app.core.catalog import fit, sizes
from app.core.registry import Family, GGUFSpec
from app.core.registry.store import AnySpec

#: unquantized drafters first (the launch dialog's recommendation), then the registry's order
_UNQUANTIZED = ("F32", "BF16", "F16")


def file_on_disk(mgr: CacheManager) -> Path | None:
    """The model file when it is on disk, read-only (never derives, downloads or adopts)."""
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


@functools.lru_cache(maxsize=256)
def _file_parts(path: str, _mtime: float, _size: int, ctx: int) -> tuple[int, int | None]:
    """(weights, KV cache at ``ctx`` or None when the header is unreadable) of a file on disk,
    memoized per file version and context."""
    p = Path(path)
    weights = fit.weights_bytes(p)
    try:
        return weights, fit.file_kv_shape(p).bytes(ctx)
    except fit.FitError:
        return weights, None


def file_parts(path: Path, ctx: int) -> tuple[int, int | None]:
    try:
        st = path.stat()
    except OSError as exc:
        raise fit.FitError(f"{path}: {exc.strerror or exc}") from None
    return _file_parts(str(path), st.st_mtime, st.st_size, ctx)


def _drafter_bytes(family: Family, spec: GGUFSpec, quant: str, hub: str, ctx: int) -> tuple[int, bool]:
    """(bytes, known) of the drafter the spec declares for ``quant``: the first drafter
    quantization on disk, else the recommended one's listed size."""
    declared = spec.draft_quantizations(hub)
    ordered: list[str | None] = [
        *sorted(declared, key=lambda q: (q not in _UNQUANTIZED, declared.index(q)))
    ] or [None]
    for dq in ordered:
        try:
            path = file_on_disk(CacheManager(family, spec, "drafter", quant, hub, draft_quantization=dq))
        except CacheError:
            continue
        if path is not None:
            try:
                weights, kv = file_parts(path, ctx)
            except fit.FitError:
                continue
            return weights + (kv or 0), True
    try:
        listed = sizes.plan_bytes(make_plan(family, spec, "drafter", quant, hub, ordered[0]))
    except ValueError:
        listed = None
    return (listed or 0), listed is not None


def shared_kv_bytes(
    family: Family, spec: GGUFSpec, hub: str, ctx: int, cache_type: str = "f16"
) -> int | None:
    """The KV cache at ``ctx`` from the header of any quantization of ``spec`` on disk: every
    quantization of a spec has the same layers, KV heads and head dims (an embedded F32 derived on
    first use is measured from the Q4_1 it is made from)."""
    for q in spec.quantizations:
        try:
            path = file_on_disk(CacheManager(family, spec, "target", q, hub))
        except CacheError:
            continue
        if path is None:
            continue
        try:
            return fit.file_kv_shape(path).bytes(ctx, cache_type)
        except fit.FitError:
            continue
    return None


def spec_estimates(
    family: Family,
    spec: AnySpec,
    hub: str | None = None,
    ctx: int = 4096,
    available: int | None = None,
    drafter: bool = True,
) -> dict[str, fit.FitEstimate]:
    """quantization -> estimate (GGUF specs; an empty dict for MLX). ``drafter``: count the
    drafter the spec declares."""
    if not isinstance(spec, GGUFSpec):
        return {}
    chosen = hub or (sizes.spec_hubs(spec) or ["local"])[0]
    avail = fit.available_memory() if available is None else available
    files: dict[str, Path | None] = {}
    for q in spec.quantizations:
        try:
            files[q] = file_on_disk(CacheManager(family, spec, "target", q, chosen))
        except CacheError:
            files[q] = None
    parts: dict[str, tuple[int, int | None]] = {}
    for q, p in files.items():
        if p is not None:
            try:
                parts[q] = file_parts(p, ctx)
            except fit.FitError:
                files[q] = None  # gone meanwhile: estimated like a missing file
    # the KV cache is the same for every quantization of the spec: any header gives it
    shared_kv = next((kv for _w, kv in parts.values() if kv is not None), None)
    with_drafter = drafter and spec.declares_drafter(chosen)
    out: dict[str, fit.FitEstimate] = {}
    for q in spec.quantizations:
        notes: list[str] = []
        weights: int | None
        kv: int | None
        if q in parts:
            weights, kv = parts[q]
            kv = shared_kv if kv is None else kv
        else:
            kv = shared_kv
            try:
                weights = sizes.plan_bytes(make_plan(family, spec, "target", q, chosen))
            except ValueError:
                weights = None
            recorded = (spec.file_sizes or {}).get(q)
            if weights is not None:
                notes.append("listing")
            elif recorded is not None:
                weights = recorded
                notes.append("registry")
            else:
                weights = fit.estimated_weights(spec.size_in_billions, q)
                notes.append("estimated")
        dbytes = 0
        if with_drafter:
            dbytes, known = _drafter_bytes(family, spec, q, chosen, ctx)
            if not known:
                notes.append("drafter-unknown")
        out[q] = fit.estimate(weights, kv, ctx=ctx, drafter=dbytes, available=avail, notes=notes)
    return out


def family_estimates(
    family: Family, hubs: list[str | None], ctx: int, available: int | None = None
) -> list[dict[str, fit.FitEstimate]]:
    """:func:`spec_estimates` for every spec of the family (``hubs[i]`` for ``family.specs[i]``),
    with one reading of the available memory."""
    avail = fit.available_memory() if available is None else available
    return [
        spec_estimates(family, spec, hub, ctx=ctx, available=avail)
        for spec, hub in zip(family.specs, hubs, strict=True)
    ]
