"""What a spec can do, as data: the one place ``tandem models --json`` and ``/v1/models`` read.

Built from what the registry already records per family (``abilities``, ``context_length``,
``tool_parser``) and per spec (a declared projector, built-in MTP heads, the drafter's method),
so a listing can never claim more than the model entry that loads it.
"""

from __future__ import annotations

from typing import Any

from app.core.registry.models import Family, GGUFSpec, MLXSpec, reads_images

#: the registry's drafter methods, named for people and programs reading a listing
DRAFTER_KINDS = {"draft": "classic", "mtp": "assistant-mtp", "eagle3": "eagle-3", "dflash": "dflash"}
#: the abilities a listing reports (the registry's other tags, e.g. ``audio``, stay in the entry);
#: ``generate`` is a base model's: it continues text (a family may say both, e.g. a chat model
#: that also completes raw text)
LISTED = ("chat", "generate", "vision", "tools", "reasoning", "mtp-heads")


def spec_abilities(family: Family, spec: GGUFSpec | MLXSpec) -> dict[str, Any]:
    """``abilities``, ``context_length``, ``drafter_kind`` and, for a GGUF vision spec, its
    ``projector`` file name template."""
    have = set(family.abilities)
    abilities: list[str] = [a for a in ("chat", "generate", "tools", "reasoning") if a in have]
    if "tools" not in abilities and family.tool_parser:
        abilities.append("tools")
    if reads_images(family, spec):
        abilities.append("vision")
    if spec.builtin_mtp:
        abilities.append("mtp-heads")
    out: dict[str, Any] = {
        "abilities": [a for a in LISTED if a in abilities],
        "context_length": family.context_length,
        "drafter_kind": None,
    }
    if spec.declares_drafter():
        method = spec.draft_method()
        if method is None and family.name.startswith("gemma-4"):
            method = "mtp"  # Gemma 4's assistants, as the engines tell them apart
        out["drafter_kind"] = DRAFTER_KINDS.get(method or "draft", method)
    if isinstance(spec, GGUFSpec):
        src = spec.projector_source()
        if src is not None:
            out["projector"] = src.mmproj_file_name_template
    return out


def served_abilities(model_id: str, reads_images: bool, context_length: int | None = None) -> dict[str, Any]:
    """``abilities`` and ``context_length`` of a model the local server serves under ``model_id``
    (its family's name). ``vision`` follows what the loaded engine can do (a GGUF loaded without
    its projector cannot read images, whatever its family says); an id that names no family
    gets ``chat`` alone."""
    from app.core.registry.store import Registry

    family = Registry.load().families.get(model_id)
    listed: set[str] = {"chat"}
    ctx = context_length
    if family is not None:
        for spec in family.specs:
            listed.update(a for a in spec_abilities(family, spec)["abilities"] if a != "vision")
        ctx = ctx or family.context_length
    if reads_images:
        listed.add("vision")
    return {"abilities": [a for a in LISTED if a in listed], "context_length": ctx}
