"""Sizes per quantization and the hubs of each spec, for ``tandem models --json`` and the browser.

Offline: a size comes from the cache entry's manifest (downloaded), a local file, or a repository
listing cached earlier (:mod:`app.core.cache.listing`); ``None`` when none of these knows it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.core import assets
from app.core.cache import listing
from app.core.cache.manager import Manifest, entries_root
from app.core.cache.plan import Plan, make_plan
from app.core.registry import Family, Registry
from app.core.registry.store import AnySpec

MOE_NOTE = (
    "mixture of experts: only part of the weights run per token, so verifying a draft costs "
    "almost as much as generating; a drafter often slows MoE models down"
)


def spec_hubs(spec: AnySpec) -> list[str]:
    """Every source the spec can come from (hubs first, then ``local``)."""
    return [*spec.sources.hubs(), *(["local"] if spec.sources.local is not None else [])]


def plan_bytes(plan: Plan) -> int | None:
    if plan.kind == "local":
        if assets.is_embedded(plan.local_path):
            if assets.needs_preparation(plan.local_path):
                return None  # never derive or assemble a model for a listing
            try:
                p = assets.resolve(plan.local_path)
            except (OSError, ValueError):  # a missing package (AssetMissing) or an unknown file
                return None
        else:
            p = Path(plan.local_path).expanduser()
        try:
            return p.stat().st_size if p.is_file() else None
        except OSError:
            return None
    man = Manifest.read(entries_root() / plan.entry_name)
    if man is not None and man.complete and man.repo_id == plan.repo_id:
        return sum(int(f["size"]) for f in man.files)
    return listing.plan_size(plan)  # resolves the registry's names through the same cached listing


def quant_sizes(family: Family, spec: AnySpec, hub: str, role: str = "target") -> dict[str, int | None]:
    """Bytes per quantization (``role`` target), per drafter quantization (``drafter``) or per
    projector precision (``projector``: a vision target's mmproj, downloaded with it)."""
    out: dict[str, int | None] = {}
    if role == "target":
        for q in spec.quantizations:
            try:
                out[q] = plan_bytes(make_plan(family, spec, "target", q, hub))
            except ValueError:
                out[q] = None
        return out
    if role == "projector":
        if not spec.declares_projector(hub):
            return out
        pqs: list[str | None] = [*spec.mmproj_quantizations(hub)] or [None]
        for pq in pqs:
            try:
                first = spec.quantizations[0]
                plan = make_plan(family, spec, "projector", first, hub, mmproj_quantization=pq)
                out[pq or "default"] = plan_bytes(plan)
            except ValueError:
                out[pq or "default"] = None
        return out
    if not spec.declares_drafter(hub):
        return out
    dqs: list[str | None] = [*spec.draft_quantizations(hub)] or [None]
    for dq in dqs:
        key = dq or "default"
        try:
            plan = make_plan(family, spec, "drafter", spec.quantizations[0], hub, dq)
            out[key] = plan_bytes(plan)
        except ValueError:
            out[key] = None
    return out


def annotate(registry: Registry, statuses: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Add ``hubs``, ``size_bytes`` (and ``draft_size_bytes``, ``mmproj_size_bytes``, ``moe``) to
    each spec entry of :func:`app.core.cache.registry_status`'s list, in place; returns it."""
    for fam_entry in statuses:
        fam = registry.families.get(fam_entry.get("name", ""))
        if fam is None:
            continue
        for entry, spec in zip(fam_entry.get("specs", []), fam.specs, strict=False):
            hub = entry.get("hub") or (spec_hubs(spec) or ["local"])[0]
            entry["hubs"] = spec_hubs(spec)
            entry["size_bytes"] = quant_sizes(fam, spec, hub)
            if "draft_quantizations" in entry:
                entry["draft_size_bytes"] = quant_sizes(fam, spec, hub, "drafter")
            if "mmproj_quantizations" in entry:
                entry["mmproj_size_bytes"] = quant_sizes(fam, spec, hub, "projector")
            entry["moe"] = spec.activated_size_in_billions is not None
            if entry["moe"]:
                entry["activated_size_in_billions"] = spec.activated_size_in_billions
    return statuses
