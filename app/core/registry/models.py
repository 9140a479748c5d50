"""Family and spec models of the model registry.

One JSON schema serves the builtin registry and user registration (``tandem register FILE``), so a
user can copy a builtin entry and edit it. Every rule is checked when the object is constructed,
which is when a family is loaded or registered: a malformed spec never reaches a download or an
engine. Error messages name the field and the fix, because users write these files by hand.

The sources a spec names are in :mod:`app.core.registry.sources`, and the field checks the models
share in :mod:`app.core.registry.checks`.
"""

from __future__ import annotations

import math
import re
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from app.core.registry.checks import (
    DATE_RE,
    StrictModel,
    check_list,
    check_placeholders,
    check_relative_file,
    format_template,
    one_target_for_all,
    placeholders,
)
from app.core.registry.sources import HubName, HubSource, Sources, check_local

_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


class _SpecBase(StrictModel):
    size_in_billions: float
    activated_size_in_billions: float | None = None
    label: str | None = None
    quantizations: list[str]
    sources: Sources
    #: the target's own weights carry next-token (MTP) heads (GGUF ``<arch>.nextn_predict_layers``):
    #: speculation needs no drafter file
    builtin_mtp: bool = False
    #: bytes of each target quantization's file(s) as the hub listing showed them when the
    #: entry was checked: what the browser shows until a listing is fetched or a file is on disk
    file_sizes: dict[str, int] | None = None

    @model_validator(mode="after")
    def _check_common(self) -> _SpecBase:
        if not math.isfinite(self.size_in_billions) or self.size_in_billions <= 0:
            raise ValueError("size_in_billions: must be a positive number of billions of parameters")
        a = self.activated_size_in_billions
        if a is not None and not (math.isfinite(a) and 0 < a <= self.size_in_billions):
            raise ValueError(
                "activated_size_in_billions: must be positive and not larger than size_in_billions"
            )
        check_list(self.quantizations, "quantizations", required=True)
        if self.file_sizes:
            unknown = sorted(set(self.file_sizes) - set(self.quantizations))
            if unknown:
                raise ValueError(f"file_sizes: {unknown} are not in quantizations")
            bad = sorted(q for q, n in self.file_sizes.items() if n <= 0)
            if bad:
                raise ValueError(f"file_sizes: {bad} must be positive byte counts")
        if not (self.sources.hubs() or self.sources.local):
            raise ValueError("sources: declare at least one of huggingface, modelscope, local")
        return self

    @property
    def size_label(self) -> str:
        """The size as the CLI's ``--size`` takes it: the label, else the number of billions."""
        if self.label:
            return self.label
        s = self.size_in_billions
        return str(int(s)) if float(s).is_integer() else f"{s:g}"

    @property
    def size_text(self) -> str:
        """The size as people write it: ``135M``, ``4B``, ``E4B``, ``30B-A3B`` (mixture of experts)."""
        if self.label:
            return f"{self.label}B" if self.label[-1:].isdigit() else self.label
        text = params_text(self.size_in_billions)
        if self.activated_size_in_billions:
            text += f"-A{params_text(self.activated_size_in_billions)}"
        return text

    def unverified_hubs(self) -> list[HubName]:
        """The hubs whose source no stored public page confirms (marked ``unverified``)."""
        return [h for h in self.sources.hubs() if self.source(h).unverified]

    def source(self, hub: str) -> HubSource:
        src = getattr(self.sources, hub, None)
        if not isinstance(src, HubSource):
            raise ValueError(f"this spec has no source on hub {hub!r}; available: {self.sources.hubs()}")
        return src

    def declares_drafter(self, hub: str | None = None) -> bool:
        names = [hub] if hub else [*self.sources.hubs(), "local"]
        for name in names:
            src = getattr(self.sources, name, None)
            if src is not None and src.declares_drafter:
                return True
        return False

    def draft_method(self, hub: str | None = None) -> str | None:
        """The declared kind of the drafter (``draft``/``mtp``/``eagle3``/``dflash``), if stated."""
        for name in [hub] if hub else self.sources.hubs():
            src = getattr(self.sources, name, None)
            if isinstance(src, HubSource) and src.declares_drafter and src.draft_method:
                return src.draft_method
        return None

    def declares_projector(self, hub: str | None = None) -> bool:
        """A vision projector (``mmproj``) is declared on ``hub`` (None: on any hub) to download."""
        return self.projector_source(hub) is not None

    @property
    def local_projector(self) -> str | None:
        """The vision projector file on this machine (``sources.local.mmproj_path``), if named."""
        local = self.sources.local
        return local.mmproj_path if local is not None and local.mmproj_path else None

    def projector_source(self, hub: str | None = None) -> HubSource | None:
        """The hub source declaring the projector (``hub``'s, or the first hub's that does)."""
        for name in [hub] if hub else self.sources.hubs():
            src = getattr(self.sources, name, None)
            if isinstance(src, HubSource) and src.declares_projector:
                return src
        return None

    def mmproj_quantizations(self, hub: str | None = None) -> list[str]:
        """The projector's precisions on ``hub`` (empty: none declared, or a single file)."""
        src = self.projector_source(hub)
        return list(src.mmproj_quantizations or []) if src is not None else []

    def draft_quantizations(self, hub: str | None = None) -> list[str]:
        names = [hub] if hub else [*self.sources.hubs(), "local"]
        for name in names:
            src = getattr(self.sources, name, None)
            if src is not None and src.declares_drafter:
                return list(src.draft_quantizations or [])
        return []


def params_text(billions: float) -> str:
    """``0.135`` -> ``135M``, ``1.7`` -> ``1.7B``, ``3.6`` -> ``3.6B``."""
    if billions < 1:
        return f"{billions * 1000:.4g}M"
    return f"{billions:.4g}B"


class GGUFSpec(_SpecBase):
    format: Literal["gguf"]
    model_file_name_template: str | None = None
    #: split GGUF files: the parts of each split quantization, named by ``{part}`` in the split
    #: template (quantizations not listed here are single files named by the main template)
    quantization_parts: dict[str, list[str]] | None = None
    model_file_name_split_template: str | None = None

    @model_validator(mode="after")
    def _check_gguf(self) -> GGUFSpec:
        split = self.model_file_name_split_template
        # Without a split template the main template may carry {part} (then every quantization is split).
        main_allowed = {"quantization", "part"} if self.quantization_parts and not split else {"quantization"}
        used = check_placeholders(self.model_file_name_template, "model_file_name_template", main_allowed)
        check_relative_file(self.model_file_name_template, "model_file_name_template")
        if split is not None:
            if not self.quantization_parts:
                raise ValueError(
                    "model_file_name_split_template: given but quantization_parts is missing; "
                    "list the parts of each split quantization"
                )
            split_used = check_placeholders(split, "model_file_name_split_template", {"quantization", "part"})
            check_relative_file(split, "model_file_name_split_template")
            if "part" not in split_used:
                raise ValueError(
                    "model_file_name_split_template: must use {part}, e.g. '{quantization}-{part}.gguf'"
                )
        if self.quantization_parts:
            unknown = sorted(set(self.quantization_parts) - set(self.quantizations))
            if unknown:
                raise ValueError(f"quantization_parts: {unknown} are not in quantizations")
            empty = sorted(q for q, parts in self.quantization_parts.items() if not parts)
            if empty:
                raise ValueError(f"quantization_parts: empty part list for {empty}; list the split files")
        for hub in self.sources.hubs():
            src = self.source(hub)
            where = f"sources.{hub}"
            check_placeholders(src.model_id, f"{where}.model_id", set())
            used |= check_placeholders(
                src.model_file_name_template, f"{where}.model_file_name_template", main_allowed
            )
            check_relative_file(src.model_file_name_template, f"{where}.model_file_name_template")
            check_relative_file(src.draft_model_file_name_template, f"{where}.draft_model_file_name_template")
            if (src.model_file_name_template or self.model_file_name_template) is None:
                raise ValueError(
                    f"{where}: gguf needs model_file_name_template, e.g. 'model-{{quantization}}.gguf'"
                )
            if src.draft_model_id is not None and src.draft_model_file_name_template is None:
                raise ValueError(
                    f"{where}.draft_model_file_name_template: required for a gguf drafter "
                    "(gguf drafters are downloaded as one file), e.g. 'drafter-{draft_quantization}.gguf'"
                )
            src._check_drafter(where)
            src._check_projector(where)
        if self.quantization_parts and not split:
            if "part" not in used:
                raise ValueError(
                    "quantization_parts: split parts are declared, so add model_file_name_split_template "
                    "with {part} (or use {part} in model_file_name_template when every quantization is split)"
                )
            missing = [q for q in self.quantizations if not self.quantization_parts.get(q)]
            if missing:
                raise ValueError(
                    f"quantization_parts: no parts listed for {missing}; model_file_name_template uses "
                    "{part}, so every quantization is split (or add model_file_name_split_template)"
                )
        self._check_distinct_files()
        check_local(self.sources.local, self.quantizations)
        return self

    def _check_distinct_files(self) -> None:
        """Every quantization must resolve to its own files on every hub (no two share a file)."""
        for hub in self.sources.hubs():
            owner: dict[str, str] = {}
            for q in self.quantizations:
                template, field = self.file_template(hub, q)
                parts = (self.quantization_parts or {}).get(q)
                if parts and len(set(parts)) != len(parts):
                    raise ValueError(f"quantization_parts: {q} lists a part twice")
                names = (
                    [format_template(template, field, quantization=q, part=part) for part in parts]
                    if parts
                    else [format_template(template, field, quantization=q)]
                )
                for name in names:
                    other = owner.setdefault(name, q)
                    if other != q:
                        raise ValueError(
                            f"{field}: quantizations {other} and {q} both resolve to {name!r}; "
                            "use {quantization} in the template so each names its own file"
                        )
            src = self.source(hub)
            if src.mmproj_file_name_template is not None:
                field = f"sources.{hub}.mmproj_file_name_template"
                for pq in src.mmproj_quantizations or [""]:
                    name = format_template(src.mmproj_file_name_template, field, mmproj_quantization=pq)
                    if name in owner:
                        raise ValueError(
                            f"{field}: the projector {name!r} is the file of quantization {owner[name]}; "
                            "name the mmproj file itself"
                        )

    def file_template(self, hub: str, quantization: str | None = None) -> tuple[str, str]:
        """(template, field name) naming the files of ``quantization`` on ``hub``."""
        if (
            quantization is not None
            and self.model_file_name_split_template
            and ((self.quantization_parts or {}).get(quantization))
        ):
            return self.model_file_name_split_template, "model_file_name_split_template"
        src = self.source(hub)
        if src.model_file_name_template:
            return src.model_file_name_template, f"sources.{hub}.model_file_name_template"
        assert self.model_file_name_template is not None  # guaranteed by validation
        return self.model_file_name_template, "model_file_name_template"


class MLXSpec(_SpecBase):
    format: Literal["mlx"]

    @model_validator(mode="after")
    def _check_mlx(self) -> MLXSpec:
        for hub in self.sources.hubs():
            src = self.source(hub)
            where = f"sources.{hub}"
            check_placeholders(src.model_id, f"{where}.model_id", {"quantization"})
            if src.model_file_name_template is not None:
                raise ValueError(
                    f"{where}.model_file_name_template: mlx models are repo snapshots; remove it"
                )
            if src.draft_model_file_name_template is not None:
                raise ValueError(
                    f"{where}.draft_model_file_name_template: mlx drafters are repo snapshots; "
                    "use draft_model_id instead"
                )
            if src.mmproj_file_name_template is not None or src.mmproj_quantizations is not None:
                raise ValueError(
                    f"{where}.mmproj_file_name_template: mlx checkpoints carry their vision tower; "
                    "remove the projector fields (the family's 'vision' ability says it reads images)"
                )
            if "quantization" not in placeholders(src.model_id, f"{where}.model_id"):
                one_target_for_all(self.quantizations, f"{where}.model_id", src.model_id)
            src._check_drafter(where)
        check_local(self.sources.local, self.quantizations)
        if self.sources.local is not None and self.sources.local.mmproj_path is not None:
            raise ValueError(
                "sources.local.mmproj_path: mlx checkpoints carry their vision tower; remove it "
                "(the family's 'vision' ability says it reads images)"
            )
        return self


Spec = Annotated[GGUFSpec | MLXSpec, Field(discriminator="format")]


VISION_ABILITY = "vision"


def reads_images(family: Family, spec: GGUFSpec | MLXSpec, hub: str | None = None) -> bool:
    """Whether ``spec`` can read images: the one rule.

    A GGUF spec reads images when it declares its projector (``mmproj_file_name_template``, on
    ``hub`` when given): llama.cpp cannot see without that file, whatever the family says. An MLX
    spec reads images when its family lists the ``vision`` ability: the vision tower is inside the
    checkpoint. No separate flag, so the two can never disagree.
    """
    if isinstance(spec, GGUFSpec):
        local = hub in (None, "local") and spec.local_projector is not None
        return local or spec.declares_projector(hub)
    return VISION_ABILITY in family.abilities


class SamplingDefaults(StrictModel):
    """Recommended sampling from the family's model card (as Ollama's Modelfiles carry them).

    The launch dialog and the CLI start from these; every field is optional (absent: Tandem's own
    default). ``source`` names where the numbers come from (a model card URL or "Tandem").
    """

    temperature: float | None = None
    top_p: float | None = None
    top_k: int | None = None
    repeat_penalty: float | None = None
    source: str = ""

    @model_validator(mode="after")
    def _ranges(self) -> SamplingDefaults:
        t, p, k, r = self.temperature, self.top_p, self.top_k, self.repeat_penalty
        if t is not None and not (math.isfinite(t) and 0 <= t <= 5):
            raise ValueError(f"sampling.temperature: {t} is outside 0..5")
        if p is not None and not (math.isfinite(p) and 0 < p <= 1):
            raise ValueError(f"sampling.top_p: {p} must be more than 0 and at most 1")
        if k is not None and k < 0:
            raise ValueError(f"sampling.top_k: {k} must be 0 (off) or positive")
        if r is not None and not (math.isfinite(r) and 0 < r <= 5):
            raise ValueError(f"sampling.repeat_penalty: {r} must be more than 0 and at most 5")
        return self


#: The languages besides English a family's description may be given in (the app's own UI
#: languages); English is ``description`` itself.
DESCRIPTION_LOCALES: tuple[str, ...] = ("zh_CN", "ja", "ko")


def check_description_i18n(value: Any) -> Any:
    """``description_i18n`` maps a UI language to the description in it: the keys are
    ``DESCRIPTION_LOCALES``, the values non-blank text. Anything else is refused with the fix."""
    if value is None:
        return None
    field = "description_i18n"
    allowed = ", ".join(DESCRIPTION_LOCALES)
    if not isinstance(value, dict):
        raise ValueError(
            f"{field}: must be an object mapping a language to the description in it, "
            f'e.g. {{"ja": "..."}}; languages: {allowed}'
        )
    for key, text in value.items():
        if key == "en":
            raise ValueError(f"{field}: 'en' is not needed; the English text is 'description'")
        if key not in DESCRIPTION_LOCALES:
            hint = (
                " (use 'zh_CN')" if str(key).lower().replace("-", "_") in ("zh", "zh_cn", "zh_hans") else ""
            )
            raise ValueError(f"{field}: unknown language {key!r}{hint}; use one of {allowed}")
        if not isinstance(text, str):
            raise ValueError(f"{field}.{key}: must be text (a JSON string), not {type(text).__name__}")
        if not text.strip():
            raise ValueError(f"{field}.{key}: is blank; remove it to show the English description")
    return value


class Family(StrictModel):
    name: str
    #: the English description; shown in every language without a translation below
    description: str = ""
    #: the description in other UI languages (``DESCRIPTION_LOCALES``), e.g. ``{"ja": "..."}``
    description_i18n: dict[str, str] | None = None
    context_length: int = 2048
    abilities: list[str] = Field(default_factory=lambda: ["chat"])
    architectures: list[str] = Field(default_factory=list)
    stop: list[str] = Field(default_factory=list)
    stop_token_ids: list[int] = Field(default_factory=list)
    chat_template: str | None = None
    tool_parser: str | None = None
    license: str | None = None
    #: recommended sampling defaults (model card); absent means Tandem's defaults
    sampling: SamplingDefaults = Field(default_factory=SamplingDefaults)
    #: when the family was released (YYYY-MM or YYYY-MM-DD) and the download count the hub showed
    #: for its most used repository when checked: the browser lists what people run first
    released: str | None = None
    downloads: int | None = None
    specs: list[Spec]

    @field_validator("description_i18n", mode="before")
    @classmethod
    def _description_i18n(cls, v: Any) -> Any:
        return check_description_i18n(v)

    def description_in(self, language: str) -> str:
        """The description in ``language`` (a UI language code such as ``ja``), else English."""
        return (self.description_i18n or {}).get(language) or self.description

    @field_validator("released")
    @classmethod
    def _released(cls, v: str | None) -> str | None:
        if v is not None and not DATE_RE.match(v):
            raise ValueError(f"released: {v!r} must be a date, YYYY-MM or YYYY-MM-DD")
        return v

    @field_validator("downloads")
    @classmethod
    def _downloads(cls, v: int | None) -> int | None:
        if v is not None and v < 0:
            raise ValueError("downloads: must be a count, 0 or more")
        return v

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if not _NAME_RE.match(v):
            raise ValueError(
                f"name: {v!r} must start with a letter or digit and use only letters, digits, '.', '_', '-'"
            )
        return v

    @field_validator("context_length")
    @classmethod
    def _ctx(cls, v: int) -> int:
        if v <= 0:
            raise ValueError("context_length: must be a positive number of tokens")
        return v

    @model_validator(mode="after")
    def _specs(self) -> Family:
        if self.description_i18n and not self.description.strip():
            raise ValueError(
                "description_i18n: given without the English 'description'; add it (it is shown "
                "in English and in every language the map leaves out)"
            )
        if not self.specs:
            raise ValueError("specs: list at least one spec")
        seen: set[tuple[str, float]] = set()
        for spec in self.specs:
            key = (spec.format, spec.size_in_billions)
            if key in seen:
                raise ValueError(f"specs: two {spec.format} specs of size {spec.size_label}B; merge them")
            seen.add(key)
        return self


def parse_family(data: Any) -> Family:
    return Family.model_validate(data)
