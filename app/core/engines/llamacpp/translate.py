"""Translation of engine-neutral speculation options to xllamacpp ``CommonParams``.

:func:`plan` is pure (testable without loading anything); :func:`apply` writes a plan onto a
``CommonParams``. An explicit engine-native selector (``speculative.types`` or
``speculative.draft.mparams.path``) makes the configuration user-driven: Tandem's own method and
drafter are then ignored. Tuning knobs (``speculative.draft.n_min``, ``...p_min``) never disable it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.core.speculative.options import (
    DRAFTER_METHODS,
    SpeculationError,
    SpeculationOptions,
    default_tokens,
    drafter_part,
    method_parts,
    parse_bool,
    parse_num_speculative_tokens,
    parse_number,
    parse_whole_number,
)

#: Tandem method -> llama.cpp ``common_speculative_type`` member suffix.
TYPE_BY_METHOD: dict[str, str] = {
    "draft": "DRAFT_SIMPLE",
    "mtp": "DRAFT_MTP",
    "eagle3": "DRAFT_EAGLE3",
    "dflash": "DRAFT_DFLASH",
    "ngram-simple": "NGRAM_SIMPLE",
    "ngram-map-k": "NGRAM_MAP_K",
    "ngram-map-k4v": "NGRAM_MAP_K4V",
    "ngram-mod": "NGRAM_MOD",
    "ngram-cache": "NGRAM_CACHE",
}
#: Tandem's method name of each native type (the reverse of :data:`TYPE_BY_METHOD`)
METHOD_BY_TYPE: dict[str, str] = {t: m for m, t in TYPE_BY_METHOD.items()}
#: llama.cpp's own CLI spellings (``--spec-type draft-mtp``) are accepted in engine-native config.
_NATIVE_ALIASES = {
    "draft-simple": "DRAFT_SIMPLE",
    "draft-mtp": "DRAFT_MTP",
    "draft-eagle3": "DRAFT_EAGLE3",
    "draft-dflash": "DRAFT_DFLASH",
    "none": "NONE",
    **TYPE_BY_METHOD,
}
#: Where the tokens-per-round value goes for each method.
DEPTH_KEY_BY_METHOD: dict[str, str] = {
    "draft": "speculative.draft.n_max",
    "mtp": "speculative.draft.n_max",
    "eagle3": "speculative.draft.n_max",
    "dflash": "speculative.draft.n_max",
    "ngram-cache": "speculative.draft.n_max",
    "ngram-mod": "speculative.ngram_mod.n_max",
    "ngram-simple": "speculative.ngram_simple.size_m",
    "ngram-map-k": "speculative.ngram_map_k.size_m",
    "ngram-map-k4v": "speculative.ngram_map_k4v.size_m",
}
DEPTH_KEYS = frozenset(DEPTH_KEY_BY_METHOD.values())
SELECTOR_KEYS = frozenset({"speculative.types", "speculative.draft.mparams.path"})
_NON_NEGATIVE_INT_KEYS = frozenset(
    {
        "speculative.draft.n_min",
        "speculative.ngram_mod.n_min",
        "speculative.ngram_mod.n_match",
        "speculative.ngram_simple.size_n",
        "speculative.ngram_simple.min_hits",
        "speculative.ngram_map_k.size_n",
        "speculative.ngram_map_k.min_hits",
        "speculative.ngram_map_k4v.size_n",
        "speculative.ngram_map_k4v.min_hits",
    }
)
#: Probabilities (0..1) among the tuning knobs.
_PROBABILITY_KEYS = frozenset({"speculative.draft.p_min", "speculative.draft.p_split"})


@dataclass(frozen=True)
class LlamaCppPlan:
    types: list[str] = field(default_factory=list)  # member suffixes, e.g. ["DRAFT_SIMPLE"]
    draft_path: str | None = None
    settings: dict[str, Any] = field(default_factory=dict)  # dotted CommonParams paths -> values
    user_driven: bool = False
    depth: int | None = None
    depth_source: str = ""

    @property
    def speculative(self) -> bool:
        return bool(self.types) and self.types != ["NONE"]

    @property
    def uses_drafter(self) -> bool:
        return self.draft_path is not None


#: ngram-mod's shortest draft (``speculative.ngram_mod.n_min``) unless the user sets one. llama.cpp's
#: default (48) drops every draft shorter than that, and drafts nothing once fewer than 49 tokens
#: are left to generate: the last 48 tokens of every answer were decoded one by one, a short answer
#: never drafted, and a short span copied from the prompt was never proposed (docs/benchmarks.md,
#: "Auto").
NGRAM_MOD_MIN_DRAFT = 2


def _short_ngram_drafts(types: list[str], settings: dict[str, Any]) -> None:
    """Let ngram-mod propose short drafts (:data:`NGRAM_MOD_MIN_DRAFT`), whichever way it was chosen
    (Tandem's method, engine-native ``speculative.types``, Auto), unless ``n_min`` is set."""
    if "NGRAM_MOD" not in types or "speculative.ngram_mod.n_min" in settings:
        return
    n_max = settings.get("speculative.ngram_mod.n_max")
    cap = n_max if isinstance(n_max, int) and not isinstance(n_max, bool) and n_max > 0 else None
    settings["speculative.ngram_mod.n_min"] = min(NGRAM_MOD_MIN_DRAFT, cap or NGRAM_MOD_MIN_DRAFT)


def _native_type(value: object) -> str:
    text = str(value).strip()
    key = text.removeprefix("common_speculative_type.").removeprefix("COMMON_SPECULATIVE_TYPE_")
    if key.upper() in set(TYPE_BY_METHOD.values()) | {"NONE"}:
        return key.upper()
    alias = _NATIVE_ALIASES.get(text.lower())
    if alias:
        return alias
    raise SpeculationError(
        f"speculative.types: unknown type {value!r}; use one of {', '.join(sorted(_NATIVE_ALIASES))}"
    )


def plan(options: SpeculationOptions, family_name: str = "", size_in_billions: float = 0.0) -> LlamaCppPlan:
    native = dict(options.engine_native)
    settings: dict[str, Any] = {}
    for key, value in native.items():
        if not key.startswith("speculative."):
            raise SpeculationError(f"{key}: only speculative.* keys are accepted here")
        if key in DEPTH_KEYS:
            settings[key] = parse_num_speculative_tokens(value, key)
            if settings[key] is None:
                del settings[key]
        elif key in _NON_NEGATIVE_INT_KEYS:
            settings[key] = parse_whole_number(value, key, minimum=0)
        elif key in _PROBABILITY_KEYS:
            number = parse_number(value, key)
            if not 0 <= number <= 1:
                raise SpeculationError(f"{key}: must be between 0 and 1 (got {number:g})")
            settings[key] = number
        elif key not in SELECTOR_KEYS:
            settings[key] = value  # other knobs: coerced to the setting's own type in apply()

    if SELECTOR_KEYS & native.keys():
        raw = native.get("speculative.types", [])
        raw_list = raw if isinstance(raw, list | tuple) else [s for s in str(raw).split(",") if s.strip()]
        types = [_native_type(t) for t in raw_list]
        path = native.get("speculative.draft.mparams.path")
        if path and not types:
            types = ["DRAFT_SIMPLE"]
        _short_ngram_drafts(types, settings)
        return LlamaCppPlan(
            types=types, draft_path=str(path) if path else None, settings=settings, user_driven=True
        )

    if not options.enabled:
        return LlamaCppPlan(settings=settings)
    parts = method_parts(options.method)
    method = drafter_part(options.method) or parts[0]
    draft_path = None
    if method in DRAFTER_METHODS:
        # mtp alone may run on the target's own MTP heads (the engine checks the target has them)
        if not options.draft_model_path and method != "mtp":
            raise SpeculationError(
                f"speculation with method {method!r} needs a drafter; download the declared drafter or "
                "pass a drafter path"
            )
        draft_path = options.draft_model_path
    for part in parts:
        if part not in DEPTH_KEY_BY_METHOD:  # suffix / prompt-lookup: Tandem's MLX decode loop only
            raise SpeculationError(
                f"llama.cpp does not offer the method {part!r}; it runs on the MLX engine "
                "(use ngram-mod here)"
            )
    depth_key = DEPTH_KEY_BY_METHOD[method]
    depth = options.num_speculative_tokens
    source = "your setting"
    if depth is None and depth_key not in settings:
        default = default_tokens("llama.cpp", family_name, size_in_billions, method)
        depth, source = default.value, default.source
    if depth_key in settings:  # an explicit engine-native depth wins over the neutral one
        depth, source = settings[depth_key], depth_key
    if depth is not None:
        settings[depth_key] = depth
    types = [TYPE_BY_METHOD[p] for p in parts]
    _short_ngram_drafts(types, settings)
    return LlamaCppPlan(
        types=types,
        draft_path=draft_path,
        settings=settings,
        depth=depth,
        depth_source=source,
    )


def apply(params: Any, p: LlamaCppPlan) -> None:
    """Write ``p`` onto an ``xllamacpp.CommonParams``."""
    import xllamacpp

    members = xllamacpp.common_speculative_type
    if p.types:
        missing = [t for t in p.types if not hasattr(members, f"COMMON_SPECULATIVE_TYPE_{t}")]
        if missing:
            raise SpeculationError(
                f"this xllamacpp build has no speculative type {', '.join(missing)}; upgrade xllamacpp"
            )
        params.speculative.types = [getattr(members, f"COMMON_SPECULATIVE_TYPE_{t}") for t in p.types]
    if p.draft_path:
        params.speculative.draft.mparams.path = p.draft_path
    for dotted, value in p.settings.items():
        _set_dotted(params, dotted, value)


def _set_dotted(obj: Any, dotted: str, value: Any) -> None:
    parts = dotted.split(".")
    target = obj
    for name in parts[:-1]:
        if not hasattr(target, name):
            raise SpeculationError(f"{dotted}: unknown setting {name!r}")
        target = getattr(target, name)
    if not hasattr(target, parts[-1]):
        raise SpeculationError(f"{dotted}: unknown setting {parts[-1]!r}")
    setattr(target, parts[-1], coerce_native(dotted, getattr(target, parts[-1]), value))
    # xllamacpp sub-structs are references: the value is set in place


def coerce_native(dotted: str, current: object, value: object) -> object:
    """``value`` converted to the type of the setting's current value, or a SpeculationError.

    Booleans, whole numbers and numbers go through the same parsers as Tandem's own fields, so
    ``"²"``, ``"++3"`` or ``"maybe"`` are refused with the setting's name instead of ending in a
    ``TypeError`` from the extension or being read as something else.
    """
    if isinstance(current, bool):
        return parse_bool(value, dotted)
    if isinstance(current, int) and type(current) is int:
        return parse_whole_number(value, dotted, minimum=None)
    if isinstance(current, float):
        return parse_number(value, dotted)
    if isinstance(current, str):
        if not isinstance(value, str):
            raise SpeculationError(f"{dotted}: expected text, got {type(value).__name__}")
        return value
    return value
