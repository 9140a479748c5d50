"""The one table of sampling limits.

:class:`app.core.engines.base.Sampling` checks every request against it, the settings schema
validates stored defaults with it, and every dialog's fields take their ranges from it, so a value
one place accepts is never refused by another (the launch dialog allowed top-k up to 100 000 and
the conversation settings 1 000; temperature was capped at 5 in the dialogs but not in Sampling).
"""

from __future__ import annotations

from dataclasses import dataclass

#: Upper bound for max new tokens of one answer (far above any context Tandem launches with).
MAX_NEW_TOKENS = 1_000_000
#: requests a llama.cpp model answers at once, each in a slot of its own (the KV cache is shared:
#: more slots cost no more memory for it); llama-server's own default
LLAMACPP_SLOTS = 4


@dataclass(frozen=True)
class Bound:
    """The allowed range of one setting; ``exclusive_minimum``: a value must be more than it."""

    minimum: float
    maximum: float
    step: float
    exclusive_minimum: bool = False

    @property
    def smallest(self) -> float:
        """The smallest value a field offers (a step above an excluded minimum, at most 0.01)."""
        return self.minimum + min(self.step, 0.01) if self.exclusive_minimum else self.minimum

    def admits(self, value: float) -> bool:
        low_ok = value > self.minimum if self.exclusive_minimum else value >= self.minimum
        return low_ok and value <= self.maximum


TEMPERATURE = Bound(0.0, 5.0, 0.1)
TOP_P = Bound(0.0, 1.0, 0.05, exclusive_minimum=True)
TOP_K = Bound(0, 1000, 1)  # 0 is off; beyond 1000 candidates top-k no longer changes a sample
REPEAT_PENALTY = Bound(0.0, 5.0, 0.05, exclusive_minimum=True)  # 1.0 is off
MAX_TOKENS = Bound(1, MAX_NEW_TOKENS, 1)
