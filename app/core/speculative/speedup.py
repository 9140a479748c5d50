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
  at least :data:`MIN_PLAIN_PASSES` of them, their median time; in an engine pool divided by what
  that configuration's plain passes cost over plain decoding's (:meth:`PlainSteps.overhead`), an
  engine without a pool takes them as they are;
* ``cost-model``: the answer's passes priced in plain steps by what a pass of that configuration
  and depth costs on this machine, learned from earlier answers (:class:`PlainSteps` keeps those
  ratios of a pass's time to the plain step measured beside it): the answer's own acceptance, and
  a price that another program taking a core does not move;
* ``recent-steps``: plain decoding's steps in other answers of the same model and thread count a
  moment before (:meth:`PlainSteps.recent`), while a pass has no price yet;
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
#: plain steps of other answers count for this long before an answer began decoding (seconds)
RECENT_S = 60.0
#: a pass's price is learned against plain decoding's step only when the two answers are at most this
#: far apart, from the end of the first to the start of the second's decoding: both sides of the ratio
#: then ran under the same load, however long each answer took (seconds)
PRICE_S = 20.0
#: plain-step samples and pass ratios kept
KEPT = 256
#: the configuration that decodes plainly (a pool's "off")
PLAIN = "off"


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


def _decode_s(passes: Sequence[Pass]) -> float:
    """How long ``passes`` decoded (seconds): an answer observed now began decoding that long ago."""
    return sum(p.ms for p in passes) / 1000.0


def _measured(passes: Sequence[Pass] | None) -> tuple[int, float] | None:
    """An answer's tokens and decode time over its passes, None when there is nothing to divide."""
    if not passes:
        return None
    tokens = sum(p.tokens for p in passes)
    spent = sum(p.ms for p in passes)
    return (tokens, spent) if tokens > 0 and spent > 0 else None


def _nothing_drafted(passes: Sequence[Pass], drafted_total: int) -> Speedup | None:
    """The answer's figure when it drafted nothing (it was plain decoding), else None."""
    if drafted_total == 0 and all(p.drafted == 0 for p in passes):
        return Speedup(1.0, "nothing-drafted", own_plain_step(passes))
    return None


def speedup_of(passes: Sequence[Pass] | None, drafted_total: int) -> Speedup:
    """The speedup of an answer from its passes alone (an engine without a pool): nothing drafted,
    else its own plain passes as they are, else no claim (:class:`PlainSteps` knows more)."""
    measured = _measured(passes)
    if passes is None or measured is None:
        return Speedup(None)
    plain = _nothing_drafted(passes, drafted_total)
    if plain is not None:
        return plain
    tokens, spent = measured
    own = own_plain_step(passes)
    return Speedup(tokens * own / spent, "own-steps", own) if own is not None else Speedup(None)


class PlainSteps:
    """What the target's plain step costs now, and what each kind of pass costs in plain steps,
    from the timings of every answer of one model at one thread count (a pool keeps one per
    thread count of its children).

    The plain step that prices a counterfactual is plain decoding's (the ``off`` configuration's).
    A speculative child's own plain passes cost more than that (it tried to draft, and its memory
    holds what a rejected draft left): so an answer's own plain step is divided by what that
    configuration's plain passes are learned to cost over plain decoding's, measured a moment
    apart (:meth:`overhead`, a ratio that another program's load does not move)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        #: per configuration, its plain single-token passes: (when, ms)
        self._plain: dict[str, deque[tuple[float, float]]] = {}
        #: per configuration, its plain passes' cost over plain decoding's
        self._overheads: dict[str, deque[float]] = {}
        #: (configuration, drafted) -> ratios of a pass's time to plain decoding's step beside it
        self._ratios: dict[tuple[str, int], deque[float]] = {}
        #: plain decoding's latest answer's step: (when, ms)
        self._step: tuple[float, float] | None = None
        #: configurations whose answer was already priced against that step
        self._paired: set[str] = set()
        #: per configuration, its latest answer not yet priced: (when, passes)
        self._waiting: dict[str, tuple[float, tuple[Pass, ...]]] = {}

    def recent(
        self, label: str = PLAIN, within: float = RECENT_S, since: float | None = None
    ) -> float | None:
        """The median plain step of ``label`` (plain decoding by default) over the ``within``
        seconds before ``since`` (a clock time: when the answer being judged began decoding; now by
        default), None without :data:`MIN_PLAIN_PASSES` of them."""
        now = self._clock() if since is None else since
        steps = [ms for at, ms in self._plain.get(label, ()) if now - at <= within]
        return statistics.median(steps) if len(steps) >= MIN_PLAIN_PASSES else None

    def overhead(self, label: str) -> float | None:
        """What ``label``'s plain passes cost over plain decoding's step (1.0 for plain decoding),
        None before it was measured."""
        if label == PLAIN:
            return 1.0
        found = self._overheads.get(label)
        return statistics.median(found) if found else None

    def plain_step(self, label: str, passes: Sequence[Pass]) -> tuple[float, Basis] | None:
        """Plain decoding's step for an answer of ``label``: its own plain passes over the learned
        overhead (``own-steps``), else plain decoding's steps a moment before (``recent-steps``)."""
        own = own_plain_step(passes)
        factor = self.overhead(label)
        if own is not None and factor is not None:
            return own / factor, "own-steps"
        recent = self.recent(since=self._clock() - _decode_s(passes))
        if recent is not None:
            return recent, "recent-steps"
        return None

    def ratio(self, label: str, drafted: int) -> float | None:
        """What a pass of ``label`` drafting ``drafted`` tokens costs in plain steps (learned at
        that depth), None when never measured."""
        found = self._ratios.get((label, drafted))
        return statistics.median(found) if found else None

    def price(self, label: str, drafted: int) -> float | None:
        """What a pass of ``label`` drafting ``drafted`` tokens costs in plain steps: its learned
        price at that depth, else on the line through ``label``'s prices at the depths it did draft
        (:meth:`fitted`); None before ``label`` has a price."""
        found = self.ratio(label, drafted)
        return found if found is not None else self.fitted(drafted, [label])

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

    def _priced(self, label: str, passes: Sequence[Pass]) -> float | None:
        """What ``passes`` of ``label`` cost in plain steps at their learned prices (a plain pass
        costs one; a depth not drafted yet: on the line through ``label``'s prices at the depths it
        did draft), None before ``label`` has a price."""
        costs = [self.price(label, p.drafted) if p.drafted else 1.0 for p in passes]
        known = [c for c in costs if c is not None]
        return sum(known) if passes and len(known) == len(costs) else None

    def plain_step_of(self, label: str, passes: Sequence[Pass]) -> float | None:
        """Plain decoding's step an answer's passes imply (:meth:`plain_step`), else its time over
        its passes' learned price (None when none of these is known)."""
        found = self.plain_step(label, passes)
        if found is not None:
            return found[0]
        priced = self._priced(label, passes)
        return sum(p.ms for p in passes) / priced if priced else None

    def observe(self, label: str, passes: Sequence[Pass]) -> None:
        """Learn from one answer's passes: its plain steps, and what its passes cost in plain
        decoding's steps.

        A price is a ratio of two measurements, so both sides must run under the same load: a
        speculative answer is priced against plain decoding's answer next to it (the one before
        it or the one after it, at most :data:`PRICE_S` apart), one answer per configuration per plain
        answer; the answers between two plain ones teach no price, so asking the same thing again
        shows the same figure. An answer with its own plain passes is its own pair."""
        now = self._clock()
        began = now - _decode_s(passes)
        own = plain_passes(passes)
        mine = self._plain.setdefault(label, deque(maxlen=KEPT))
        for ms in own:
            mine.append((now, ms))
        if label == PLAIN:
            step = own_plain_step(passes)
            if step is None:
                return
            self._step, self._paired = (now, step), set()
            for other, (at, waiting) in self._waiting.items():
                if began - at <= PRICE_S:
                    self._pair(other, waiting, step)
                    self._paired.add(other)
            self._waiting.clear()
            return
        found = self.plain_step(label, passes)
        if found is not None and found[1] == "own-steps":
            self._learn(label, passes, found[0])
        elif self._step is not None and began - self._step[0] <= PRICE_S and label not in self._paired:
            self._pair(label, passes, self._step[1])
            self._paired.add(label)
        else:
            self._waiting[label] = (now, tuple(passes))

    def _pair(self, label: str, passes: Sequence[Pass], step: float) -> None:
        """Learn ``label``'s plain-pass overhead and pass prices against plain decoding's ``step``
        measured beside ``passes``."""
        own = plain_passes(passes)
        if len(own) >= MIN_PLAIN_PASSES:
            self._overheads.setdefault(label, deque(maxlen=KEPT)).append(statistics.median(own) / step)
        self._learn(label, passes, step)

    def _learn(self, label: str, passes: Sequence[Pass], step: float) -> None:
        """Each drafting pass's time against plain decoding's ``step`` of the same moment."""
        if step <= 0:
            return
        for p in passes:
            if p.drafted > 0 and p.ms > 0:
                self._ratios.setdefault((label, p.drafted), deque(maxlen=KEPT)).append(p.ms / step)

    def speedup(self, label: str, passes: Sequence[Pass] | None, drafted_total: int) -> Speedup:
        """This answer against plain decoding of its tokens: at plain decoding's step measured in
        the answer itself (``own-steps``), else priced pass by pass (``cost-model``), else at plain
        decoding's step a moment before (``recent-steps``); see the module docstring."""
        measured = _measured(passes)
        if passes is None or measured is None:
            return Speedup(None)
        plain = _nothing_drafted(passes, drafted_total)
        if plain is not None:
            return plain
        tokens, spent = measured
        found = self.plain_step(label, passes)
        if found is not None and found[1] == "own-steps":
            return Speedup(tokens * found[0] / spent, "own-steps", found[0])
        priced = self._priced(label, passes)
        if priced:
            return Speedup(tokens / priced, "cost-model")
        if found is not None:
            return Speedup(tokens * found[0] / spent, found[1], found[0])
        return Speedup(None)
