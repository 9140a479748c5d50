"""An answer's speedup from the answer itself: its time against the same tokens decoded plainly.

Greedy or not, a speculative answer's tokens are what they are; decoded without speculation, each
of them would have cost one plain step of the target. So the answer's own counterfactual is its
token count times the target's plain step, and the speedup is that against the answer's measured
decode time. Both sides come from the same answer, measured under the same load, so another
program taking a core moves them together, and no answer is divided by another answer's speed.

Where the plain step comes from (:attr:`Speedup.basis`):

* ``nothing-drafted``: the answer drafted nothing; every pass was a plain step, so it *is* its own
  counterfactual: 1.0, and no claim is shown for it;
* ``own-steps``: the answer's own plain passes (rounds where the method found nothing to draft),
  at least :data:`MIN_PLAIN_PASSES` of them, their median time;
* ``cost-model``: the answer's passes priced in plain steps by what a pass of that configuration
  and depth costs on this machine, learned from earlier answers (:class:`PlainSteps` keeps those
  ratios of a pass's time to the plain step measured beside it): the answer's own acceptance, and
  a price that another program taking a core does not move;
* ``recent-steps``: plain passes of other answers of the same model and thread count a moment
  before (the caller gives the figure, see :class:`PlainSteps`), while no ratio is known yet;
* none (``value`` None): nothing to compare with: no claim.
"""

from __future__ import annotations

import statistics
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from app.core.speculative.rounds import Pass

Basis = Literal["nothing-drafted", "own-steps", "recent-steps", "cost-model", ""]

#: plain passes an answer needs for its own median plain step
MIN_PLAIN_PASSES = 3
#: plain steps of other answers count for this long (seconds)
RECENT_S = 60.0
#: plain-step samples and pass ratios kept
KEPT = 256


@dataclass(frozen=True)
class Speedup:
    """One answer's speedup against plain decoding of the same tokens (None: no claim)."""

    value: float | None
    basis: Basis = ""
    #: the plain step the counterfactual used (ms)
    plain_step_ms: float | None = None

    @property
    def claimed(self) -> float | None:
        """The figure a window shows: none for an answer that drafted nothing."""
        return None if self.basis == "nothing-drafted" else self.value


def plain_passes(passes: Iterable[Pass]) -> list[float]:
    """The times of the plain single-token steps among ``passes``."""
    return [p.ms for p in passes if p.drafted == 0 and p.tokens == 1 and p.ms > 0]


def own_plain_step(passes: Sequence[Pass]) -> float | None:
    """The median plain step of an answer, when it has :data:`MIN_PLAIN_PASSES` plain passes."""
    steps = plain_passes(passes)
    return statistics.median(steps) if len(steps) >= MIN_PLAIN_PASSES else None


def speedup_of(
    passes: Sequence[Pass] | None,
    drafted_total: int,
    plain_step_ms: float | None = None,
    basis: Basis = "recent-steps",
    steps_of: Callable[[Pass], float | None] | None = None,
) -> Speedup:
    """The speedup of an answer with ``passes`` (see the module docstring for the bases, tried in
    that order). ``plain_step_ms``: a recent plain step of the same model (``basis`` names where it
    came from); ``steps_of``: a pass's cost in plain steps, as learned (the cost model)."""
    if not passes:
        return Speedup(None)
    tokens = sum(p.tokens for p in passes)
    spent = sum(p.ms for p in passes)
    if spent <= 0 or tokens <= 0:
        return Speedup(None)
    if drafted_total == 0 and all(p.drafted == 0 for p in passes):
        return Speedup(1.0, "nothing-drafted", own_plain_step(passes))
    own = own_plain_step(passes)
    if own is not None:
        return Speedup(tokens * own / spent, "own-steps", own)
    if steps_of is not None:
        costs = [steps_of(p) if p.drafted else 1.0 for p in passes]
        known = [c for c in costs if c is not None]
        if len(known) == len(costs):
            return Speedup(tokens / sum(known), "cost-model")
    if plain_step_ms is not None and plain_step_ms > 0:
        return Speedup(tokens * plain_step_ms / spent, basis, plain_step_ms)
    return Speedup(None)


class PlainSteps:
    """What the target's plain step costs now, and what each kind of pass costs in plain steps,
    from the timings of every answer of one model at one thread count (a pool keeps one per
    thread count of its children)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._steps: deque[tuple[float, float]] = deque(maxlen=KEPT)
        #: (configuration, drafted) -> ratios of a pass's time to a plain step measured with it
        self._ratios: dict[tuple[str, int], deque[float]] = {}

    def recent(self) -> float | None:
        """The median plain step of the last :data:`RECENT_S` seconds, None without one."""
        now = self._clock()
        steps = [ms for at, ms in self._steps if now - at <= RECENT_S]
        return statistics.median(steps) if len(steps) >= MIN_PLAIN_PASSES else None

    def ratio(self, label: str, p: Pass) -> float | None:
        """What a pass of ``label`` drafting ``p.drafted`` costs in plain steps (learned), None
        when never measured."""
        found = self._ratios.get((label, p.drafted))
        return statistics.median(found) if found else None

    def fitted(self, drafted: int, labels: Iterable[str]) -> float | None:
        """What a pass drafting ``drafted`` tokens costs in plain steps for a model-free method
        (drafting is nearly free, so the price is the target's verification of ``drafted + 1``
        tokens, which the methods share): a line through the median learned price at each depth
        seen for ``labels``, each depth weighted by its samples; None before any was learned."""
        wanted = set(labels)
        per_depth: dict[int, list[float]] = {}
        for (lab, k), v in self._ratios.items():
            if lab in wanted:
                per_depth.setdefault(k, []).extend(v)
        points = [(k, statistics.median(v), len(v)) for k, v in per_depth.items() if v]
        if not points:
            return None
        if len(points) == 1:
            k0, r0, _ = points[0]
            return max(1.0, 1.0 + (r0 - 1.0) * drafted / k0)
        total = sum(w for _, _, w in points)
        mean_k = sum(k * w for k, _, w in points) / total
        mean_r = sum(r * w for _, r, w in points) / total
        var = sum(w * (k - mean_k) ** 2 for k, _, w in points)
        slope = sum(w * (k - mean_k) * (r - mean_r) for k, r, w in points) / var
        return max(1.0, mean_r + slope * (drafted - mean_k))

    def plain_step_of(self, label: str, passes: Sequence[Pass], drafted_total: int) -> float | None:
        """The plain step an answer's passes imply: its own, else the recent one, else its time over
        its passes' learned price (None when none of these is known)."""
        own = own_plain_step(passes)
        if own is not None:
            return own
        recent = self.recent()
        if recent is not None:
            return recent
        priced = [1.0 if not p.drafted else self.ratio(label, p) for p in passes]
        if not passes or any(c is None for c in priced):
            return None
        return sum(p.ms for p in passes) / sum(c for c in priced if c is not None)

    def observe(self, label: str, passes: Sequence[Pass]) -> None:
        """Learn from one answer's passes: its plain steps, and each drafting pass's time against
        the plain step measured beside it (its own, else the recent one)."""
        now = self._clock()
        own = plain_passes(passes)
        for ms in own:
            self._steps.append((now, ms))
        step = statistics.median(own) if len(own) >= MIN_PLAIN_PASSES else self.recent()
        if step is None or step <= 0:
            return
        for p in passes:
            if p.drafted > 0 and p.ms > 0:
                self._ratios.setdefault((label, p.drafted), deque(maxlen=KEPT)).append(p.ms / step)

    def speedup(self, label: str, passes: Sequence[Pass] | None, drafted_total: int) -> Speedup:
        """:func:`speedup_of` with this model's recent plain step and learned pass costs."""
        return speedup_of(
            passes, drafted_total, self.recent(), "recent-steps", lambda p: self.ratio(label, p)
        )
