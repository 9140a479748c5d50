"""Engine-neutral speculative decoding options, validated in one place.

Every engine and every engine-native depth key goes through :func:`parse_num_speculative_tokens`
so a UI string, a CLI flag and a config file are judged by the same rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal, get_args

Method = Literal[
    "draft",
    "mtp",
    "eagle3",
    "dflash",
    "ngram-simple",
    "ngram-map-k",
    "ngram-map-k4v",
    "ngram-mod",
    "ngram-cache",
]
METHODS: tuple[str, ...] = get_args(Method)
#: Methods that need a drafter checkpoint.
DRAFTER_METHODS = frozenset({"draft", "mtp", "eagle3", "dflash"})
#: Model-free methods: the engine drafts from n-grams of the prompt and earlier output.
MODEL_FREE_METHODS = frozenset(m for m in METHODS if m.startswith("ngram-"))


#: Upper bound for tokens per round: far above any useful depth (n-gram methods default to 64),
#: far below values that overflow or stall the engines.
MAX_SPECULATIVE_TOKENS = 256


class SpeculationError(ValueError):
    """Invalid speculation settings; the message is meant for the user."""


def parse_num_speculative_tokens(value: object, field_name: str = "num_speculative_tokens") -> int | None:
    """Tokens per round: ``None``/empty means the engine default, otherwise a positive integer.

    Strings from a UI are trimmed and coerced; integral floats are accepted. Zero, negatives,
    non-integral numbers, booleans and anything else are rejected: a default must never silently
    replace what the user asked for.
    """
    if value is None:
        return None
    if isinstance(value, bool):
        raise SpeculationError(f"{field_name}: expected a positive whole number, got {value!r}")
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return None
        if not text.lstrip("+").isdigit():
            raise SpeculationError(f"{field_name}: {value!r} is not a positive whole number")
        number = int(text)
    elif isinstance(value, int):
        number = value
    elif isinstance(value, float):
        if not value.is_integer():
            raise SpeculationError(f"{field_name}: {value!r} is not a whole number")
        number = int(value)
    else:
        raise SpeculationError(f"{field_name}: expected a positive whole number, got {type(value).__name__}")
    if number <= 0:
        raise SpeculationError(
            f"{field_name}: must be at least 1 (got {number}); turn speculation off instead of using 0"
        )
    if number > MAX_SPECULATIVE_TOKENS:
        raise SpeculationError(
            f"{field_name}: {number} is more than {MAX_SPECULATIVE_TOKENS} tokens per round; "
            "long drafts are almost never accepted whole, use a smaller value"
        )
    return number


def parse_bool(value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1", "yes", "on")
    if isinstance(value, int):
        return value != 0
    return False


@dataclass(frozen=True)
class SpeculationOptions:
    enabled: bool = False
    method: str = "draft"
    draft_quantization: str | None = None
    num_speculative_tokens: int | None = None
    draft_model_path: str | None = None
    #: Engine-native settings (dotted keys, e.g. ``speculative.types``); an explicit selector wins.
    engine_native: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def build(
        cls,
        *,
        enabled: object = False,
        method: str | None = None,
        draft_quantization: str | None = None,
        num_speculative_tokens: object = None,
        draft_model_path: str | None = None,
        engine_native: dict[str, Any] | None = None,
    ) -> SpeculationOptions:
        on = parse_bool(enabled) or bool(draft_model_path)
        chosen = (method or "draft").strip().lower()
        if chosen not in METHODS:
            raise SpeculationError(f"method: unknown {method!r}; choose one of {', '.join(METHODS)}")
        return cls(
            enabled=on,
            method=chosen,
            draft_quantization=draft_quantization or None,
            num_speculative_tokens=parse_num_speculative_tokens(num_speculative_tokens),
            draft_model_path=draft_model_path or None,
            engine_native=dict(engine_native or {}),
        )

    @property
    def needs_drafter(self) -> bool:
        return self.enabled and self.method in DRAFTER_METHODS

    def with_drafter(self, path: str) -> SpeculationOptions:
        return replace(self, draft_model_path=path)


OFF = SpeculationOptions()


# --- defaults and their provenance ---------------------------------------------------------

#: Gemma 4 tokens per round by size (billions), from the shared registry facts.
GEMMA4_TOKENS_BY_SIZE: dict[float, int] = {2: 2, 4: 4, 12: 4, 26: 4, 31: 4}
#: Drafted tokens per round of mlx-vlm drafters at their trained depth. The Gemma 4 assistant is
#: trained on blocks of 4 that include the verified token, i.e. 3 drafts. Tandem's "tokens per
#: round" counts drafted tokens on every engine (llama.cpp ``n_max`` has the same meaning).
MLX_DRAFTER_TRAINED_DEPTH = 3
#: llama.cpp's own default (``CommonParams().speculative.draft.n_max``), checked by a test.
LLAMACPP_DRAFT_N_MAX_DEFAULT = 3
LLAMACPP_NGRAM_MOD_N_MAX_DEFAULT = 64
LLAMACPP_NGRAM_SIZE_M_DEFAULT = 48


@dataclass(frozen=True)
class DefaultDepth:
    value: int | None
    source: str


def default_tokens(
    engine: str, family_name: str, size_in_billions: float, method: str = "draft"
) -> DefaultDepth:
    """The tokens-per-round an engine uses when the user leaves the field empty, with why."""
    if engine == "mlx":
        if method in MODEL_FREE_METHODS:
            return DefaultDepth(None, "not offered by this engine")
        return DefaultDepth(MLX_DRAFTER_TRAINED_DEPTH, "the drafter's trained depth (mlx-vlm block of 4)")
    if method == "ngram-mod":
        return DefaultDepth(LLAMACPP_NGRAM_MOD_N_MAX_DEFAULT, "llama.cpp ngram_mod.n_max")
    if method in ("ngram-simple", "ngram-map-k", "ngram-map-k4v"):
        return DefaultDepth(LLAMACPP_NGRAM_SIZE_M_DEFAULT, "llama.cpp ngram size_m")
    if method == "ngram-cache":
        return DefaultDepth(LLAMACPP_DRAFT_N_MAX_DEFAULT, "llama.cpp draft.n_max")
    if family_name == "gemma-4" and size_in_billions in GEMMA4_TOKENS_BY_SIZE:
        return DefaultDepth(GEMMA4_TOKENS_BY_SIZE[size_in_billions], "Gemma 4 size table")
    return DefaultDepth(LLAMACPP_DRAFT_N_MAX_DEFAULT, "llama.cpp draft.n_max")
