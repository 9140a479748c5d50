"""Auto's decision rule for one kind of request: move a route only on evidence larger than the noise.

What is known of a configuration for a kind is its speedup over plain decoding, kept in log space
(speeds vary by a factor, so their noise adds up there). The calibration's figure is the prior,
as uncertain as a calibration is (:data:`PRIOR_SD`: two calibrations in a row have measured 0.99x
and 1.34x for the same configuration); every real answer of that kind then sharpens it (a normal
prior updated by normal answers). The noise of one answer (:func:`noise_of`) is measured from the
answers themselves: the pooled standard deviation of the log speedups of every configuration with
two answers or more, never below :data:`NOISE_FLOOR`, and :data:`NOISE_DEFAULT` before there are
any. Each configuration's :class:`Figure` is then a mean with a standard error, and an interval
(:meth:`Figure.interval`).

The rule (:func:`decide`):

* **Keep what runs unless another is clearly better.** A challenger replaces the route only when
  it rests on :data:`MIN_ANSWERS` real answers and its mean beats the route's by more than
  :data:`Z` standard errors of the difference (one-sided, about 0.3% per look), and, when the
  challenger is not running, by :data:`START_MARGIN` more: starting a configuration costs a
  child's load (in the background, but on the cores the answering child uses), its memory, and a
  cold prompt cache for its first answers, so it must pay for itself over the answers that follow.
  A tie keeps the route.
* **Never slower than off.** Off is always one of the configurations (exactly plain speed, known
  from the plain baseline), so a route measured slower than off beyond the noise moves (to off, or
  to whatever is clearly better).
* **Explore a little, and stop.** When another configuration could still be better (the top of its
  interval lies above the route's mean), at most one answer in :data:`EXPLORE_EVERY` of the kind
  goes to the most promising one (the highest top of interval), so its figure rests on real
  answers. Exploration ends by itself once every alternative's interval lies below the route's
  mean; off, exact by definition, is never explored. Bound: at most 1/:data:`EXPLORE_EVERY` (20%)
  of a kind's answers explore while it lasts, and an exploring answer runs at the explored
  configuration's speed (at worst the bottom of its interval): if that is half the route's, the
  kind loses at most 20% x 50% = 10% of its time while exploring lasts, and nothing after.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from app.core.launch.auto.candidates import OFF, Candidate

#: how far off a calibration's figure may be (sd of its log): two calibrations in a row can disagree
#: by a third for one configuration on prose (docs/benchmarks.md)
PRIOR_SD = 0.15
#: a configuration nothing was measured for: plain speed, this uncertain
UNKNOWN_SD = 0.30
#: one answer's noise (standard deviation of its log speedup) before any is measured: about 10%
NOISE_DEFAULT = 0.10
#: the measured noise is never taken below this (a few equal answers do not make a sure figure)
NOISE_FLOOR = 0.03
#: standard errors a challenger must win by (one-sided)
Z = 2.8
#: real answers a challenger needs before it can take a route (off, exact by definition, needs none)
MIN_ANSWERS = 2
#: what a configuration that is not running must win by besides (log: 5%): its load (beside the
#: answering child, on the same cores), its memory and its cold prompt cache
START_MARGIN = math.log(1.05)
#: at most one answer in this many of a kind explores another configuration
EXPLORE_EVERY = 5
#: off is plain speed by definition: its figure's standard error
OFF_SE = 0.002


@dataclass(frozen=True)
class Figure:
    """One configuration's speedup for a kind: mean log speedup, its standard error, and the real
    answers it rests on (the calibration's prior aside)."""

    candidate: Candidate
    mean: float
    se: float
    answers: int

    @property
    def speedup(self) -> float:
        return math.exp(self.mean)

    def interval(self, z: float = Z) -> tuple[float, float]:
        """The speedup's interval (``z`` standard errors either side)."""
        return math.exp(self.mean - z * self.se), math.exp(self.mean + z * self.se)

    def describe(self) -> str:
        lo, hi = self.interval()
        return f"{self.candidate.label} {self.speedup:.2f}x [{lo:.2f}-{hi:.2f}] on {self.answers} answers"


@dataclass(frozen=True)
class Decision:
    """Which configuration answers, whether it is an exploring answer, and why."""

    candidate: Candidate
    exploring: bool
    why: str


def noise_of(samples: Mapping[Candidate, Sequence[float]]) -> float:
    """One answer's noise: the pooled standard deviation of the log speedups (see the module doc)."""
    squares, freedom = 0.0, 0
    for ratios in samples.values():
        logs = [math.log(r) for r in ratios if r > 0]
        if len(logs) >= 2:
            mean = statistics.fmean(logs)
            squares += sum((x - mean) ** 2 for x in logs)
            freedom += len(logs) - 1
    if freedom == 0:
        return NOISE_DEFAULT
    return max(NOISE_FLOOR, math.sqrt(squares / freedom))


def figures(
    candidates: Collection[Candidate],
    prior: Mapping[Candidate, float],
    samples: Mapping[Candidate, Sequence[float]],
    noise: float,
) -> dict[Candidate, Figure]:
    """Each candidate's :class:`Figure`: the calibration's ``prior`` ratio (sd :data:`PRIOR_SD`; a
    candidate without one: plain speed, sd :data:`UNKNOWN_SD`) updated by the real answers'
    ``samples`` (ratios), each with sd ``noise``."""
    out: dict[Candidate, Figure] = {}
    for c in candidates:
        logs = [math.log(r) for r in samples.get(c, ()) if r > 0]
        if c == OFF:
            out[c] = Figure(c, 0.0, OFF_SE, len(logs))
            continue
        measured = prior.get(c)
        mean0, sd0 = (math.log(measured), PRIOR_SD) if measured and measured > 0 else (0.0, UNKNOWN_SD)
        precision = 1 / sd0**2 + len(logs) / noise**2
        mean = (mean0 / sd0**2 + sum(logs) / noise**2) / precision
        out[c] = Figure(c, mean, 1 / math.sqrt(precision), len(logs))
    return out


def decide(
    route: Candidate,
    table: Mapping[Candidate, Figure],
    running: Collection[Candidate] | None = None,
    explore_turn: bool = False,
) -> Decision:
    """The configuration for the next answer of a kind whose route is ``route`` (see the module
    docstring); ``running``: the configurations running now (None: all of them); ``explore_turn``:
    this answer may explore."""
    here = table[route]

    def is_running(c: Candidate) -> bool:
        return running is None or c in running or c == route

    best, best_margin = route, 0.0
    for c, f in table.items():
        if c == route or (c != OFF and f.answers < MIN_ANSWERS):
            continue
        gap = f.mean - here.mean
        needed = Z * math.sqrt(f.se**2 + here.se**2) + (0.0 if is_running(c) else START_MARGIN)
        if gap > needed and gap - needed > best_margin:
            best, best_margin = c, gap - needed
    if best != route:
        return Decision(best, False, f"{table[best].describe()} beats {here.describe()} beyond the noise")
    if explore_turn:
        hopeful = [
            (f.mean + Z * f.se, c)
            for c, f in table.items()
            if c != route and f.mean + Z * f.se > here.mean + (0.0 if is_running(c) else START_MARGIN)
        ]
        if hopeful:
            _top, c = max(hopeful, key=lambda t: (t[0], t[1].label))
            return Decision(c, True, f"exploring {table[c].describe()} beside {here.describe()}")
    return Decision(route, False, here.describe())
