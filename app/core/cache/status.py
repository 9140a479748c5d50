"""Cache status of the whole registry, for the model browser and ``tandem models --json``.

Offline and cheap (file stats, no network), and one bad spec never breaks the listing: it is
reported as ``invalid`` with its reason.

JSON shape (``registry_status``)::

    [{"name": "gemma-4", "specs": [
        {"format": "gguf", "size": "E2B", "size_in_billions": 2.0, "hub": "huggingface",
         "quantizations": {"Q4_K_M": "cached", "Q8_0": "partial", "BF16": "absent"},
         "draft_quantizations": {"Q8_0": "absent"},
         "details": {"quantizations": {"Q4_K_M": {"bytes": 3100000000, "source": "entry"},
                                       "Q8_0": {"bytes": 1200, "total": 5000}},
                     "draft_quantizations": {}}}]},
     {"name": "broken-user-family", "specs": [], "status": "invalid", "reason": "..."}]

A vision GGUF spec that declares its projector on that hub also carries
``"mmproj_quantizations": {"F16": "cached", "BF16": "absent"}`` (and their ``details``): the
projector's cached marker, keyed ``default`` when it lists no precisions.

``quantizations`` and ``draft_quantizations`` map each quantization to its status, one of
``cached|partial|absent|invalid``. A spec with an ``invalid`` entry carries ``reason`` (and each
invalid entry's own reason is in ``details``); ``partial`` details carry ``bytes`` and ``total``
(0 when unknown). ``draft_quantizations`` is present only when the spec declares a drafter on that
hub; a drafter without quantizations is keyed ``default``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.core.cache.errors import CacheError
from app.core.cache.manager import CacheManager, EntryStatus, entries_root
from app.core.cache.plan import default_hub, drafter_entry_name, projector_entry_name
from app.core.registry import Family, Registry
from app.core.registry.store import AnySpec

log = logging.getLogger(__name__)

DEFAULT_DRAFT_KEY = "default"
_RANK = {"cached": 3, "partial": 2, "absent": 1, "invalid": 0}


@dataclass(frozen=True)
class SpecStatus:
    """Typed status of one spec on one hub."""

    family: str
    format: str
    size: str
    size_in_billions: float
    hub: str
    quantizations: dict[str, EntryStatus]
    draft_quantizations: dict[str, EntryStatus] | None = None
    notes: list[str] = field(default_factory=list)
    #: the size as people write it (``135M``, ``26B-A4B``); ``size`` is what ``--size`` takes
    size_text: str = ""
    #: the vision projector's precisions and their statuses; None when none is declared here
    mmproj_quantizations: dict[str, EntryStatus] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": self.format,
            "size": self.size,
            "size_text": self.size_text,
            "size_in_billions": self.size_in_billions,
            "hub": self.hub,
            "quantizations": {q: s.state for q, s in self.quantizations.items()},
        }
        details: dict[str, dict[str, Any]] = {"quantizations": _details(self.quantizations)}
        entries = list(self.quantizations.values())
        if self.draft_quantizations is not None:
            out["draft_quantizations"] = {q: s.state for q, s in self.draft_quantizations.items()}
            details["draft_quantizations"] = _details(self.draft_quantizations)
            entries += list(self.draft_quantizations.values())
        if self.mmproj_quantizations is not None:
            out["mmproj_quantizations"] = {q: s.state for q, s in self.mmproj_quantizations.items()}
            details["mmproj_quantizations"] = _details(self.mmproj_quantizations)
            entries += list(self.mmproj_quantizations.values())
        reasons = sorted({e.reason for e in entries if e.state == "invalid" and e.reason})
        if reasons:
            out["reason"] = "; ".join(reasons)
        out["details"] = details
        return out


def _details(statuses: dict[str, EntryStatus]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for q, st in statuses.items():
        d = st.to_json()
        d.pop("status")
        if d:
            out[q] = d
    return out


def choose_hub(spec: AnySpec, hub: str | None) -> str:
    """``hub`` when the spec has that source, else the spec's own default (first hub, or local)."""
    if hub == "local" and spec.sources.local is not None:
        return "local"
    if hub in spec.sources.hubs():
        return hub
    return default_hub(spec)


def drafter_status(family: Family, spec: AnySpec, hub: str, draft_quantization: str | None) -> EntryStatus:
    """Status of one drafter quantization, whatever target quantization it was fetched with.

    Drafter entries are per target quantization but share the hub files, so the best status among
    the entries that exist (or the hub-cache probe when none does) is the drafter's status.
    """
    root = entries_root()
    quants = [
        q
        for q in spec.quantizations
        if (root / drafter_entry_name(family, spec, q, draft_quantization)).exists()
    ] or spec.quantizations[:1]
    best: EntryStatus | None = None
    for q in quants:
        st = CacheManager(family, spec, "drafter", q, hub, draft_quantization=draft_quantization).status()
        if best is None or _RANK[st.state] > _RANK[best.state]:
            best = st
    assert best is not None
    return best


def projector_status(family: Family, spec: AnySpec, hub: str, mmproj_quantization: str | None) -> EntryStatus:
    """Status of one projector precision, whatever target quantization it was fetched with
    (like :func:`drafter_status`: the entries are per target quantization, the file is shared)."""
    root = entries_root()
    quants = [
        q
        for q in spec.quantizations
        if (root / projector_entry_name(family, spec, q, mmproj_quantization)).exists()
    ] or spec.quantizations[:1]
    best: EntryStatus | None = None
    for q in quants:
        st = CacheManager(family, spec, "projector", q, hub, mmproj_quantization=mmproj_quantization).status()
        if best is None or _RANK[st.state] > _RANK[best.state]:
            best = st
    assert best is not None
    return best


def projector_on_disk(
    family: Family, spec: AnySpec, quantization: str, hub: str | None = None
) -> Path | None:
    """The projector file a launch of this target quantization loads, when it is on disk (its
    entry, or the hub cache, e.g. fetched with another quantization); None when none is declared
    or none is downloaded. File stats only, never the network; a hub-cache find is linked into
    the entry on the way, as :meth:`CacheEntry.resolve_path` does."""
    hubs = [hub] if hub else [h for h in spec.sources.hubs() if spec.declares_projector(h)]
    for name in hubs:
        entry = CacheManager(family, spec, "target", quantization, name).projector()
        if entry is None:
            continue
        try:
            found = entry.local_resolution()
        except (OSError, CacheError) as exc:  # an unreadable entry: reported as not there
            log.warning("projector of %s: %s", entry.entry_name, exc)
            continue
        if found is not None:
            return found
    return None


def spec_status(family: Family, spec: AnySpec, hub: str | None = None) -> SpecStatus:
    chosen = choose_hub(spec, hub)
    quants = {q: CacheManager(family, spec, "target", q, chosen).status() for q in spec.quantizations}
    drafts: dict[str, EntryStatus] | None = None
    if spec.declares_drafter(chosen):  # "local" names the local source, like a hub
        dqs = spec.draft_quantizations(chosen)
        drafts = {}
        keys: list[str | None] = [*dqs] or [None]
        for dq in keys:
            drafts[dq or DEFAULT_DRAFT_KEY] = drafter_status(family, spec, chosen, dq)
    projectors: dict[str, EntryStatus] | None = None
    if spec.declares_projector(chosen):
        pkeys: list[str | None] = [*spec.mmproj_quantizations(chosen)] or [None]
        projectors = {pq or DEFAULT_DRAFT_KEY: projector_status(family, spec, chosen, pq) for pq in pkeys}
    return SpecStatus(
        family.name,
        spec.format,
        spec.size_label,
        float(spec.size_in_billions),
        chosen,
        quants,
        drafts,
        size_text=spec.size_text,
        mmproj_quantizations=projectors,
    )


def family_status(family: Family, hub: str | None = None) -> dict[str, Any]:
    specs: list[dict[str, Any]] = []
    for spec in family.specs:
        try:
            specs.append(spec_status(family, spec, hub).to_json())
        except Exception as exc:  # never let one spec break the listing
            reason = f"{type(exc).__name__}: {exc}"
            specs.append(
                {
                    "format": spec.format,
                    "size": spec.size_label,
                    "size_text": spec.size_text,
                    "size_in_billions": float(spec.size_in_billions),
                    "hub": hub or "",
                    "quantizations": dict.fromkeys(spec.quantizations, "invalid"),
                    "reason": reason,
                    "details": {"quantizations": {q: {"reason": reason} for q in spec.quantizations}},
                }
            )
    return {"name": family.name, "specs": specs}


def registry_status(registry: Registry, hub: str | None = None) -> list[dict[str, Any]]:
    """Every family with every spec's target and drafter statuses (shape in the module doc)."""
    out = [family_status(fam, hub) for fam in registry.by_use()]  # the browser's order
    for bad in registry.invalid:
        out.append({"name": bad.name, "specs": [], "status": "invalid", "reason": bad.reason})
    return out
