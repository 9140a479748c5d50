"""From (family, spec, role, quantization) to what exactly lives where.

This is the one place registry templates are formatted for the cache (through
``registry.format_template``, so a formatting error is a ValueError naming the field). The result
is a :class:`Plan`: the hub repo and the files (gguf) or the whole snapshot (mlx) to fetch, or the
local file for ``sources.local`` specs, plus the name of the app's cache entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from app.core.registry import Family, GGUFSpec, LocalSource, format_template
from app.core.registry.store import AnySpec

#: ``projector``: a vision target's ``mmproj`` file, fetched with the target
Role = Literal["target", "drafter", "projector"]
HubChoice = Literal["huggingface", "modelscope", "local"]

DEFAULT_REVISION = {"huggingface": "main", "modelscope": "master"}
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def _safe(part: str) -> str:
    return _UNSAFE.sub("_", part)


def size_tag(spec: AnySpec) -> str:
    s = spec.size_in_billions
    return f"{int(s)}" if float(s).is_integer() else f"{s:g}"


def target_entry_name(family: Family, spec: AnySpec, quantization: str) -> str:
    """``<name>-<format>-<size>b-<quant>``, the app cache entry of a target."""
    return f"{family.name}-{spec.format}-{size_tag(spec)}b-{_safe(quantization)}"


def drafter_entry_name(
    family: Family, spec: AnySpec, quantization: str, draft_quantization: str | None
) -> str:
    """The target's entry name plus ``-draft-<draft_quant>`` (``-draft`` without quantizations)."""
    base = target_entry_name(family, spec, quantization)
    return f"{base}-draft-{_safe(draft_quantization)}" if draft_quantization else f"{base}-draft"


def projector_entry_name(
    family: Family, spec: AnySpec, quantization: str, mmproj_quantization: str | None
) -> str:
    """The target's entry name plus ``-mmproj-<precision>`` (``-mmproj`` without precisions)."""
    base = target_entry_name(family, spec, quantization)
    return f"{base}-mmproj-{_safe(mmproj_quantization)}" if mmproj_quantization else f"{base}-mmproj"


#: the suffixes of the entries that belong to a target entry (deleted with it)
COMPANION_SUFFIXES = ("-draft", "-mmproj")


def default_hub(spec: AnySpec) -> HubChoice:
    hubs = spec.sources.hubs()
    if hubs:
        return hubs[0]
    return "local"


@dataclass(frozen=True)
class Plan:
    """What one cache entry consists of.

    ``kind``: ``files`` (listed repo files: gguf), ``snapshot`` (whole repo: mlx) or ``local``
    (``local_path``, never downloaded). ``revision`` is what the user asked for (branch, tag or
    commit); the commit it resolved to is recorded in the entry's manifest. ``files`` are what the
    registry names (literal names or patterns) until :func:`app.core.cache.listing.resolve_plan`
    replaces them with the repository's own names.
    """

    hub: HubChoice
    kind: Literal["files", "snapshot", "local"]
    entry_name: str
    repo_id: str = ""
    revision: str = ""
    files: tuple[str, ...] = ()
    local_path: str = ""
    #: which role and quantization the files are for (the drafter's quantization for a drafter):
    #: what the listing is searched for when the registry's file name is not in the repository
    role: Role = "target"
    quantization: str = ""
    #: the registry's names or patterns (``files`` before any resolution): what every resolution
    #: starts from, so resolving twice (offline through a cached listing, then online) says the same
    declared: tuple[str, ...] = ()
    #: set when the repository's listing named the file differently from the registry
    #: ("the registry names X, the repository has Y: using Y"); shown with the download
    note: str = ""


def _check_quant(value: str | None, allowed: list[str], field: str) -> None:
    if value is not None and value not in allowed:
        raise ValueError(f"{field}: {value!r} is not one of {allowed}")


def make_plan(
    family: Family,
    spec: AnySpec,
    role: Role,
    quantization: str,
    hub: str | None = None,
    draft_quantization: str | None = None,
    mmproj_quantization: str | None = None,
) -> Plan:
    """Resolve one cache entry. Any problem raises ValueError naming the field."""
    _check_quant(quantization, spec.quantizations, "quantization")
    chosen = hub or default_hub(spec)
    if role == "projector":
        return _projector_plan(family, spec, chosen, quantization, mmproj_quantization)
    if role == "drafter":
        if not spec.declares_drafter(chosen):
            raise ValueError(f"drafter: this {spec.format} spec declares no drafter on {chosen!r}")
        dqs = spec.draft_quantizations(chosen)
        if draft_quantization is None and dqs:
            draft_quantization = dqs[0]
        if dqs:
            _check_quant(draft_quantization, dqs, "draft_quantization")
        elif draft_quantization is not None:
            raise ValueError(
                f"draft_quantization: the drafter has no quantizations, got {draft_quantization!r}"
            )
        name = drafter_entry_name(family, spec, quantization, draft_quantization)
    else:
        name = target_entry_name(family, spec, quantization)

    if chosen == "local":
        local = spec.sources.local
        if local is None:
            raise ValueError(f"hub: this spec has no local source; available: {spec.sources.hubs()}")
        return Plan(
            "local",
            "local",
            name,
            local_path=_local_path(local, role, quantization, draft_quantization),
            role=role,
            quantization=(draft_quantization or "") if role == "drafter" else quantization,
        )
    if chosen == "huggingface":
        return _hub_plan(spec, role, "huggingface", name, quantization, draft_quantization)
    if chosen == "modelscope":
        return _hub_plan(spec, role, "modelscope", name, quantization, draft_quantization)
    raise ValueError(f"hub: unknown hub {chosen!r}; use huggingface, modelscope or local")


def _hub_plan(
    spec: AnySpec,
    role: Role,
    chosen: Literal["huggingface", "modelscope"],
    name: str,
    quantization: str,
    draft_quantization: str | None,
) -> Plan:
    src = spec.source(chosen)  # raises ValueError naming the hub
    where = f"sources.{chosen}"
    dq = draft_quantization or ""
    if role == "target":
        revision = src.revision or DEFAULT_REVISION[chosen]
        if isinstance(spec, GGUFSpec):
            template, field = spec.file_template(chosen, quantization)
            parts = (spec.quantization_parts or {}).get(quantization)
            if parts:
                files = tuple(
                    format_template(template, field, quantization=quantization, part=p) for p in parts
                )
            else:
                files = (format_template(template, field, quantization=quantization),)
            repo = format_template(src.model_id, f"{where}.model_id")
            return Plan(
                chosen, "files", name, repo, revision, files, quantization=quantization, declared=files
            )
        repo = format_template(src.model_id, f"{where}.model_id", quantization=quantization)
        return Plan(chosen, "snapshot", name, repo, revision, quantization=quantization)
    # drafter: same hub as the target
    if src.draft_model_id is not None:
        repo = format_template(src.draft_model_id, f"{where}.draft_model_id", draft_quantization=dq)
    else:
        repo = format_template(src.model_id, f"{where}.model_id")
    if src.draft_model_revision is not None:
        revision = format_template(
            src.draft_model_revision, f"{where}.draft_model_revision", draft_quantization=dq
        )
    elif repo == src.model_id and src.revision:
        revision = src.revision
    else:
        revision = DEFAULT_REVISION[chosen]
    if isinstance(spec, GGUFSpec):
        if src.draft_model_file_name_template is None:
            raise ValueError(f"{where}.draft_model_file_name_template: required for a gguf drafter")
        file = format_template(
            src.draft_model_file_name_template,
            f"{where}.draft_model_file_name_template",
            draft_quantization=dq,
        )
        return Plan(
            chosen, "files", name, repo, revision, (file,), role="drafter", quantization=dq, declared=(file,)
        )
    return Plan(chosen, "snapshot", name, repo, revision, role="drafter", quantization=dq)


def _projector_plan(family: Family, spec: AnySpec, chosen: str, quantization: str, pq: str | None) -> Plan:
    """The projector of a target: one file of the target's own repository and revision."""
    if chosen not in ("huggingface", "modelscope") or not spec.declares_projector(chosen):
        raise ValueError(f"projector: this {spec.format} spec declares no mmproj file on {chosen!r}")
    hub: Literal["huggingface", "modelscope"] = "huggingface" if chosen == "huggingface" else "modelscope"
    src = spec.source(hub)
    where = f"sources.{hub}"
    pqs = list(src.mmproj_quantizations or [])
    if pq is None and pqs:
        pq = pqs[0]
    if pqs:
        _check_quant(pq, pqs, "mmproj_quantization")
    elif pq is not None:
        raise ValueError(f"mmproj_quantization: the projector has no precisions listed, got {pq!r}")
    assert src.mmproj_file_name_template is not None  # declares_projector
    file = format_template(
        src.mmproj_file_name_template, f"{where}.mmproj_file_name_template", mmproj_quantization=pq or ""
    )
    return Plan(
        hub,
        "files",
        projector_entry_name(family, spec, quantization, pq),
        format_template(src.model_id, f"{where}.model_id"),
        src.revision or DEFAULT_REVISION[hub],
        (file,),
        role="projector",
        quantization=pq or "",
        declared=(file,),
    )


def _local_path(local: LocalSource, role: Role, quantization: str, dq: str | None) -> str:
    if role == "target":
        return format_template(local.path, "sources.local.path", quantization=quantization)
    if local.draft_path is None:
        raise ValueError("sources.local.draft_path: no local drafter declared")
    return format_template(local.draft_path, "sources.local.draft_path", draft_quantization=dq or "")
