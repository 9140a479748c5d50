"""Engine-neutral speculative decoding options, validated in one place.

Every engine and every engine-native depth key goes through :func:`parse_num_speculative_tokens`
so a UI string, a CLI flag and a config file are judged by the same rule.
"""

from __future__ import annotations

import math
import re
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
    "suffix",
    "prompt-lookup",
]
METHODS: tuple[str, ...] = get_args(Method)
#: Methods that need a drafter checkpoint.
DRAFTER_METHODS = frozenset({"draft", "mtp", "eagle3", "dflash"})
#: llama.cpp's own model-free methods (its n-gram drafters).
NGRAM_METHODS = frozenset(m for m in METHODS if m.startswith("ngram-"))
#: Model-free methods Tandem runs in its own decode loop (the MLX engine): suffix
#: decoding over prompts and earlier answers, and prompt lookup within one request.
SUFFIX_METHODS = frozenset({"suffix", "prompt-lookup"})
#: Model-free methods: the engine drafts from the prompt and earlier output, no drafter model.
MODEL_FREE_METHODS = NGRAM_METHODS | SUFFIX_METHODS


def method_parts(method: str) -> tuple[str, ...]:
    """``"mtp+ngram-mod"`` -> ``("mtp", "ngram-mod")``; a single method -> a 1-tuple."""
    return tuple(p.strip() for p in method.split("+") if p.strip())


def drafter_part(method: str) -> str | None:
    """The drafter method of a (possibly chained) method, or None for a model-free one."""
    return next((p for p in method_parts(method) if p in DRAFTER_METHODS), None)


def chain_problem(method: str) -> str | None:
    """Why ``method`` is not a valid chain (one drafter method + one llama.cpp n-gram method), or
    None (also for a single method)."""
    parts = method_parts(method)
    if len(parts) < 2:
        return None
    drafters = [p for p in parts if p in DRAFTER_METHODS]
    free = [p for p in parts if p in NGRAM_METHODS]
    if len(parts) != 2 or len(drafters) != 1 or len(free) != 1:
        return (
            f"method {method!r}: a chain is one drafter method (draft, mtp, eagle3, dflash) and one "
            "llama.cpp n-gram method, e.g. mtp+ngram-mod"
        )
    return None


#: Upper bound for tokens per round: far above any useful depth (n-gram methods default to 64),
#: far below values that overflow or stall the engines.
MAX_SPECULATIVE_TOKENS = 256


class SpeculationError(ValueError):
    """Invalid speculation settings; the message is meant for the user."""


#: A whole number as users type it: ASCII digits with an optional '+'. ``str.isdigit`` is not used
#: on purpose: it accepts '²', '٣' and fullwidth digits, which ``int()`` then refuses or misreads.
_WHOLE_NUMBER = re.compile(r"\+?[0-9]+")
_SIGNED_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
#: Longer digit strings are refused before ``int()`` (which has its own limit of 4300 digits).
_MAX_DIGITS = 18


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, for messages that quote what the user typed."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def parse_whole_number(value: object, field_name: str, *, minimum: int | None = 0, noun: str = "") -> int:
    """A whole number >= ``minimum`` from an int, an integral float or a string of ASCII digits.

    Every refusal is a :class:`SpeculationError` naming ``field_name``: booleans, other types,
    non-integral or non-finite floats, signs other than one leading '+', unicode digits, exponents,
    underscores, hex, and numbers below ``minimum``.
    """
    bound = noun or (
        "a whole number"
        if minimum is None
        else "a positive whole number"
        if minimum == 1
        else f"a whole number >= {minimum}"
    )
    if isinstance(value, bool):
        raise SpeculationError(f"{field_name}: expected {bound}, got {shown(value)}")
    if isinstance(value, str):
        text = value.strip()
        pattern = _SIGNED_WHOLE_NUMBER if minimum is None or minimum < 0 else _WHOLE_NUMBER
        if not pattern.fullmatch(text) or len(text.lstrip("+-")) > _MAX_DIGITS:
            raise SpeculationError(f"{field_name}: {shown(value)} is not {bound}")
        number = int(text)
    elif isinstance(value, int):
        number = value
    elif isinstance(value, float):
        if not value.is_integer():
            raise SpeculationError(f"{field_name}: {shown(value)} is not a whole number")
        number = int(value)
    else:
        raise SpeculationError(f"{field_name}: expected {bound}, got {type(value).__name__}")
    if minimum is not None and number < minimum:
        raise SpeculationError(f"{field_name}: must be at least {minimum} (got {shown(number)})")
    return number


def parse_number(value: object, field_name: str) -> float:
    """A finite number from an int, a float or a plain decimal string (no NaN, no infinity)."""
    if isinstance(value, bool):
        raise SpeculationError(f"{field_name}: expected a number, got {shown(value)}")
    if isinstance(value, str):
        text = value.strip()
        if not _DECIMAL.fullmatch(text):
            raise SpeculationError(f"{field_name}: {shown(value)} is not a number")
        number = float(text)
    elif isinstance(value, int | float):
        try:
            number = float(value)
        except OverflowError:
            number = math.inf
    else:
        raise SpeculationError(f"{field_name}: expected a number, got {type(value).__name__}")
    if not math.isfinite(number):
        raise SpeculationError(f"{field_name}: {shown(value)} is not a finite number")
    return number


_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")


def parse_num_speculative_tokens(value: object, field_name: str = "num_speculative_tokens") -> int | None:
    """Tokens per round: ``None``/empty means the engine default, otherwise a positive integer.

    Strings from a UI are trimmed and must be ASCII digits (an optional leading '+'); integral
    floats are accepted. Zero, negatives, non-integral numbers, booleans and anything else raise
    :class:`SpeculationError`: a default must never silently replace what the user asked for.
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    negative = isinstance(value, int | float) and not isinstance(value, bool) and value < 0
    number = (
        0 if negative else parse_whole_number(value, field_name, minimum=0, noun="a positive whole number")
    )
    if number <= 0:
        raise SpeculationError(
            f"{field_name}: must be at least 1 (got {shown(value if negative else number)}); "
            "turn speculation off instead of using 0"
        )
    if number > MAX_SPECULATIVE_TOKENS:
        raise SpeculationError(
            f"{field_name}: {shown(number)} is more than {MAX_SPECULATIVE_TOKENS} tokens per round; "
            "long drafts are almost never accepted whole, use a smaller value"
        )
    return number


_TRUE = frozenset({"true", "1", "yes", "on"})
_FALSE = frozenset({"false", "0", "no", "off", ""})


def parse_bool(value: object, field_name: str = "enabled") -> bool:
    """True/False from a bool, 0/1 or the usual words; anything else is refused, not read as False."""
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        word = value.strip().lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
    elif isinstance(value, int) and value in (0, 1):
        return value == 1
    raise SpeculationError(f"{field_name}: expected true or false, got {shown(value)}")


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
        chosen = "+".join(method_parts((method or "draft").strip().lower())) or "draft"
        unknown = [p for p in method_parts(chosen) if p not in METHODS]
        if unknown:
            raise SpeculationError(
                f"method: unknown {method!r}; choose one of {', '.join(METHODS)}, or a drafter method "
                "chained with an n-gram one (e.g. mtp+ngram-mod)"
            )
        problem = chain_problem(chosen)
        if problem:
            raise SpeculationError(problem)
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
        return self.enabled and drafter_part(self.method) is not None

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
#: Longest draft per round of suffix decoding: the tree proposes less when it is less sure (its
#: draft is bounded by the match length and a minimum token probability), so this is a ceiling.
SUFFIX_DEFAULT_TOKENS = 16
#: Longest draft per round of a classic drafter on MLX: Tandem's loop picks each round's depth from
#: the measured acceptance and costs (app.core.speculative.depth), so this is a ceiling.
MLX_CLASSIC_DEFAULT_TOKENS = 8
#: Longest draft per round of prompt lookup (Hugging Face's ``prompt_lookup_num_tokens`` is 10).
PROMPT_LOOKUP_DEFAULT_TOKENS = 10


#: Why a default depth is what it is: a code the GUI translates (core returns codes).
DepthSource = Literal[
    "not-offered",
    "trained-depth",
    "gemma4-size-table",
    "llamacpp-default",
    "model-free-ceiling",
    "adaptive-ceiling",
]


@dataclass(frozen=True)
class DefaultDepth:
    value: int | None
    #: English detail for logs and the CLI (names the engine setting)
    source: str
    code: DepthSource = "llamacpp-default"


def default_tokens(
    engine: str, family_name: str, size_in_billions: float, method: str = "draft"
) -> DefaultDepth:
    """The tokens-per-round an engine uses when the user leaves the field empty, with why."""
    if engine == "mlx":
        if method == "suffix":
            return DefaultDepth(
                SUFFIX_DEFAULT_TOKENS, "suffix decoding's longest draft", "model-free-ceiling"
            )
        if method == "prompt-lookup":
            return DefaultDepth(
                PROMPT_LOOKUP_DEFAULT_TOKENS, "prompt lookup's longest draft", "model-free-ceiling"
            )
        if method in MODEL_FREE_METHODS:
            return DefaultDepth(None, "not offered by this engine", "not-offered")
        if method == "draft":
            return DefaultDepth(
                MLX_CLASSIC_DEFAULT_TOKENS,
                "Tandem's longest draft for a classic drafter (the depth adapts per round)",
                "adaptive-ceiling",
            )
        return DefaultDepth(
            MLX_DRAFTER_TRAINED_DEPTH, "the drafter's trained depth (mlx-vlm block of 4)", "trained-depth"
        )
    if method == "ngram-mod":
        return DefaultDepth(LLAMACPP_NGRAM_MOD_N_MAX_DEFAULT, "llama.cpp ngram_mod.n_max")
    if method in ("ngram-simple", "ngram-map-k", "ngram-map-k4v"):
        return DefaultDepth(LLAMACPP_NGRAM_SIZE_M_DEFAULT, "llama.cpp ngram size_m")
    if method == "ngram-cache":
        return DefaultDepth(LLAMACPP_DRAFT_N_MAX_DEFAULT, "llama.cpp draft.n_max")
    if family_name == "gemma-4" and size_in_billions in GEMMA4_TOKENS_BY_SIZE:
        depth = GEMMA4_TOKENS_BY_SIZE[size_in_billions]
        return DefaultDepth(depth, "Gemma 4 size table", "gemma4-size-table")
    return DefaultDepth(LLAMACPP_DRAFT_N_MAX_DEFAULT, "llama.cpp draft.n_max")
