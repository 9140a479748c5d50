"""Where a spec's files come from: one source per hub, and files on this machine.

A :class:`HubSource` names the target's repository on one hub (``huggingface`` or
``modelscope``), with its drafter (:class:`DrafterFields`: repo ids differ between hubs) and, for a
vision GGUF target, its projector (:class:`ProjectorFields`), and the public pages that confirm
them (:class:`Evidence`) or an ``unverified`` mark, never both. A :class:`LocalSource` names files
on this machine. A hub source checks its repo id and its evidence when it is constructed; the
drafter, projector and local checks (:meth:`DrafterFields._check_drafter`,
:meth:`ProjectorFields._check_projector`, :func:`check_local`) are run by the spec that holds the
source, beside the rules of its format.
"""

from __future__ import annotations

from typing import Literal

from pydantic import field_validator, model_validator

from app.core.registry.checks import (
    DATE_RE,
    REPO_RE,
    StrictModel,
    check_list,
    check_placeholders,
    check_relative_file,
    one_target_for_all,
)

__all__ = [
    "HUBS",
    "DrafterFields",
    "Evidence",
    "HubName",
    "HubSource",
    "LocalSource",
    "ProjectorFields",
    "Sources",
    "check_local",
]

HubName = Literal["huggingface", "modelscope"]
HUBS: tuple[HubName, ...] = ("huggingface", "modelscope")


class DrafterFields(StrictModel):
    """Drafter declaration, per source because repo ids differ between hubs."""

    draft_model_id: str | None = None
    draft_quantizations: list[str] | None = None
    draft_model_file_name_template: str | None = None
    draft_model_revision: str | None = None
    #: what kind of drafter it is: a small model of the same vocabulary (``draft``), a Gemma 4
    #: assistant (``mtp``), an EAGLE-3 head (``eagle3``) or a DFlash block drafter (``dflash``);
    #: absent: told from the family (Gemma 4: ``mtp``) or the file's architecture at load
    draft_method: Literal["draft", "mtp", "eagle3", "dflash"] | None = None

    @property
    def declares_drafter(self) -> bool:
        return self.draft_model_id is not None or self.draft_model_file_name_template is not None

    def _check_drafter(self, where: str) -> None:
        check_list(self.draft_quantizations, f"{where}.draft_quantizations", required=False)
        used: set[str] = set()
        for field in ("draft_model_id", "draft_model_file_name_template", "draft_model_revision"):
            used |= check_placeholders(getattr(self, field), f"{where}.{field}", {"draft_quantization"})
        if self.draft_method is not None and not self.declares_drafter:
            raise ValueError(
                f"{where}.draft_method: given but no drafter is declared; "
                "add draft_model_id or draft_model_file_name_template"
            )
        if self.draft_quantizations is not None and not self.declares_drafter:
            raise ValueError(
                f"{where}.draft_quantizations: given but no drafter is declared; "
                "add draft_model_id or draft_model_file_name_template"
            )
        if "draft_quantization" in used and not self.draft_quantizations:
            raise ValueError(
                f"{where}: drafter fields use {{draft_quantization}} but draft_quantizations is missing; "
                "list the drafter's quantizations"
            )
        if (
            self.draft_quantizations
            and len(self.draft_quantizations) > 1
            and "draft_quantization" not in used
        ):
            raise ValueError(
                f"{where}: {len(self.draft_quantizations)} draft_quantizations are listed but no drafter "
                "field uses {draft_quantization}, so every one resolves to the same drafter; put "
                "{draft_quantization} in draft_model_file_name_template or draft_model_id"
            )
        if self.draft_model_id is not None and not REPO_RE.match(self.draft_model_id):
            raise ValueError(f"{where}.draft_model_id: {self.draft_model_id!r} is not an 'org/name' repo id")


class Evidence(StrictModel):
    """Where a hub source's repo ids and file names were confirmed: a public page (a
    ``/tree/main`` listing, a model card, a discussion), the day it was read, and what it shows."""

    url: str
    checked: str
    shows: str = ""

    @field_validator("url")
    @classmethod
    def _url(cls, v: str) -> str:
        if not v.startswith("https://"):
            raise ValueError(f"evidence.url: {v!r} must be an https:// page address")
        return v

    @field_validator("checked")
    @classmethod
    def _checked(cls, v: str) -> str:
        if not DATE_RE.match(v):
            raise ValueError(f"evidence.checked: {v!r} must be a date, YYYY-MM-DD")
        return v


class ProjectorFields(StrictModel):
    """The multimodal projector (``mmproj``) of a vision GGUF target, per source like a drafter.

    llama.cpp reads images only with the projector file loaded beside the target (``--mmproj``);
    it lives in the target's repository, and quantizers publish it in a few precisions
    (``mmproj-F16.gguf``, ``mmproj-BF16.gguf``, ``mmproj-F32.gguf``): ``{mmproj_quantization}``
    names the precision, listed in ``mmproj_quantizations`` (the first is the one downloaded
    with the target). MLX checkpoints carry their vision tower inside: no projector field there.
    """

    mmproj_file_name_template: str | None = None
    mmproj_quantizations: list[str] | None = None

    @property
    def declares_projector(self) -> bool:
        return self.mmproj_file_name_template is not None

    def _check_projector(self, where: str) -> None:
        field = f"{where}.mmproj_file_name_template"
        template = self.mmproj_file_name_template
        check_list(self.mmproj_quantizations, f"{where}.mmproj_quantizations", required=False)
        if template is None:
            if self.mmproj_quantizations is not None:
                raise ValueError(
                    f"{where}.mmproj_quantizations: given but no projector is declared; "
                    "add mmproj_file_name_template, e.g. 'mmproj-{mmproj_quantization}.gguf'"
                )
            return
        used = check_placeholders(template, field, {"mmproj_quantization"})
        check_relative_file(template, field)
        if any(c in template for c in "*?["):
            raise ValueError(
                f"{field}: {template!r} must name the projector file exactly (no * ? [ patterns)"
            )
        if not template.lower().endswith(".gguf"):
            raise ValueError(f"{field}: {template!r} must name a .gguf file")
        if "mmproj_quantization" in used and not self.mmproj_quantizations:
            raise ValueError(
                f"{field}: uses {{mmproj_quantization}} but mmproj_quantizations is missing; "
                'list the projector\'s precisions, e.g. ["F16", "BF16"]'
            )
        n = len(self.mmproj_quantizations or [])
        if n > 1 and "mmproj_quantization" not in used:
            raise ValueError(
                f"{field}: {n} mmproj_quantizations are listed but {template!r} has no "
                "{mmproj_quantization}, so every one names the same file; add it"
            )


class HubSource(DrafterFields, ProjectorFields):
    model_id: str
    revision: str | None = None
    model_file_name_template: str | None = None
    #: the public page the repo id (and the drafter's) was taken from, e.g. the hub's model page;
    #: file templates containing ``*``/``?`` are patterns, resolved against the repository listing
    #: at download time (``app.core.cache.listing``)
    page: str | None = None
    draft_page: str | None = None
    #: the pages that confirm the repo ids, file names and quantizations of this source
    evidence: list[Evidence] | None = None
    #: no stored public page confirms or contradicts this source: shown as "unverified"
    unverified: bool = False

    @field_validator("model_id")
    @classmethod
    def _repo(cls, v: str) -> str:
        if not REPO_RE.match(v):
            raise ValueError(f"model_id: {v!r} is not an 'org/name' repo id")
        return v

    @model_validator(mode="after")
    def _evidence_or_not(self) -> HubSource:
        if self.unverified and self.evidence:
            raise ValueError("unverified: the source lists evidence; remove one of the two")
        if self.evidence is not None and not self.evidence:
            raise ValueError("evidence: must not be empty; list the pages or remove the field")
        return self


class LocalSource(StrictModel):
    """Files on this machine. ``embedded://`` paths name models shipped inside Python packages."""

    path: str
    draft_path: str | None = None
    draft_quantizations: list[str] | None = None
    #: a GGUF target's vision projector on this machine; MLX checkpoints carry theirs
    mmproj_path: str | None = None

    @property
    def declares_drafter(self) -> bool:
        return self.draft_path is not None


class Sources(StrictModel):
    huggingface: HubSource | None = None
    modelscope: HubSource | None = None
    local: LocalSource | None = None

    def hubs(self) -> list[HubName]:
        return [h for h in HUBS if getattr(self, h) is not None]


def check_local(local: LocalSource | None, quantizations: list[str]) -> None:
    if local is None:
        return
    if "quantization" not in check_placeholders(local.path, "sources.local.path", {"quantization"}):
        one_target_for_all(quantizations, "sources.local.path", local.path)
    check_list(local.draft_quantizations, "sources.local.draft_quantizations", required=False)
    used = check_placeholders(local.draft_path, "sources.local.draft_path", {"draft_quantization"})
    if "draft_quantization" in used and not local.draft_quantizations:
        raise ValueError(
            "sources.local.draft_path uses {draft_quantization} but draft_quantizations is missing"
        )
    if local.draft_quantizations and len(local.draft_quantizations) > 1 and "draft_quantization" not in used:
        raise ValueError(
            f"sources.local.draft_path: {local.draft_path!r} has no {{draft_quantization}}, so all "
            f"{len(local.draft_quantizations)} draft_quantizations would be the same file; add it"
        )
    if local.draft_quantizations and not local.draft_path:
        raise ValueError("sources.local.draft_quantizations: given but no draft_path is declared")
    if local.mmproj_path is not None and not local.mmproj_path.strip():
        raise ValueError("sources.local.mmproj_path: must name the projector file (or be left out)")
