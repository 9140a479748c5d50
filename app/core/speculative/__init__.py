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
from app.core.speculative.rounds import RoundAccountant, RoundStats, is_drafting_round, mean_accepted_length

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
    "is_drafting_round",
    "mean_accepted_length",
    "parse_bool",
    "parse_num_speculative_tokens",
]
