"""The launch form's drafter offer: which engines run a found drafter, which found drafters are
offered, what the finder says, and the order of a declared drafter's quantizations.

A GGUF spec that declares no drafter (and has no built-in MTP heads) may get one from the
compatible-drafter finder, which compares the GGUF headers of local files: only an installed engine
that runs ``draft`` drafters of the GGUF format runs a found one. Only compatible candidates with a
local path are offered, never an incompatible one; the finder's progress, its failure, or finding
none is a :class:`~app.core.launch.form_state.Note` outside the panel. A declared drafter's
quantizations are offered unquantized first (recommended), then in the registry's order.
"""

from __future__ import annotations

from app.core.catalog.drafters import Candidate
from app.core.engines import capability
from app.core.engines.capability import ENGINES
from app.core.launch.form_state import FormValues, Note, NoteCode
from app.core.registry import AnySpec

__all__ = ["compatible", "finder_note", "ordered_draft_quants", "runs_found_drafter"]

_UNQUANTIZED = ("F32", "BF16", "F16", "FP16", "bf16", "fp16", "f16", "f32")


def ordered_draft_quants(quants: list[str]) -> list[str]:
    """Unquantized drafters first (recommended), then the registry's order."""
    return sorted(quants, key=lambda q: (q not in _UNQUANTIZED, quants.index(q)))


def compatible(found: tuple[Candidate, ...] | None) -> tuple[Candidate, ...]:
    """The candidates to offer: compatible ones with a local path (never an incompatible one)."""
    return tuple(c for c in found or () if c.compatible and c.path)


def runs_found_drafter(spec: AnySpec, engine: str) -> bool:
    """An installed engine that runs ``draft`` drafters of a GGUF spec's format (the finder
    reads GGUF headers; an MLX spec's drafter search is not offered here)."""
    info = ENGINES.get(engine)
    if info is None or spec.format != "gguf" or spec.format not in info.formats:
        return False
    return "draft" in info.drafter_methods and capability.engine_availability(engine).ok


def finder_note(v: FormValues, offered: tuple[Candidate, ...]) -> Note | None:
    """What the finder says outside the panel: searching, failed, or none compatible found."""
    if v.finding:
        return Note(NoteCode.FINDING_DRAFTERS, "info")
    if v.find_error:
        return Note(NoteCode.DRAFTER_SEARCH_FAILED, "warn", {"detail": v.find_error})
    if v.found is not None and not offered:
        return Note(NoteCode.NO_COMPATIBLE_DRAFTER, "info", {"rejected": len(v.found)})
    return None
