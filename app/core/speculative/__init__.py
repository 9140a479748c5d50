"""Engine-neutral speculation options, depth parsing, defaults and round accounting."""

from app.core.speculative.options import (
    DRAFTER_METHODS,
    METHODS,
    MODEL_FREE_METHODS,
    OFF,
    DefaultDepth,
    SpeculationError,
    SpeculationOptions,
    default_tokens,
    parse_bool,
    parse_num_speculative_tokens,
)
from app.core.speculative.rounds import RoundAccountant, RoundStats

__all__ = [
    "DRAFTER_METHODS",
    "METHODS",
    "MODEL_FREE_METHODS",
    "OFF",
    "DefaultDepth",
    "RoundAccountant",
    "RoundStats",
    "SpeculationError",
    "SpeculationOptions",
    "default_tokens",
    "parse_bool",
    "parse_num_speculative_tokens",
]
