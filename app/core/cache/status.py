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

``quantizations`` and ``draft_quantizations`` map each quantization to its status, one of
``cached|partial|absent|invalid``. A spec with an ``invalid`` entry carries ``reason`` (and each
invalid entry's own reason is in ``details``); ``partial`` details carry ``bytes`` and ``total``
(0 when unknown). ``draft_quantizations`` is present only when the spec declares a drafter on that
hub; a drafter without quantizations is keyed ``default``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.core.cache.manager import CacheManager, EntryStatus, entries_root
from app.core.cache.plan import default_hub, drafter_entry_name
from app.core.registry import Family, Registry
from app.core.registry.store import AnySpec

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
    return SpecStatus(
        family.name,
        spec.format,
        spec.size_label,
        float(spec.size_in_billions),
        chosen,
        quants,
        drafts,
        size_text=spec.size_text,
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
