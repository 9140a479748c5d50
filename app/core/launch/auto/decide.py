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

* **Predictions count, less than answers.** Every answer predicts what the other configurations
  would have done with it (:mod:`app.core.speculative.predict`). A replayed prediction (a
  model-free method's exact drafts over the answer, priced by the cost model) is as good as an
  answer of that configuration; an estimated one (a drafter that did not run, from its acceptance
  by position on the answers it drafted) carries the estimate's own error besides the answer's
  noise (:data:`ESTIMATE_SD`), and is counted apart (:attr:`Figure.estimates`).
* **Keep what runs unless another is clearly better.** A challenger replaces the route only when
  it rests on :data:`MIN_ANSWERS` answers or estimates, one of them at least a real answer (an
  estimate extends what the configuration did on other prompts; it does not replace that), and
  its mean beats the route's by more than
  :data:`Z` standard errors of the difference (one-sided, about 0.13% per look), and, when the
  challenger is not running, by :data:`START_MARGIN` more: starting a configuration costs a
  child's load (in the background, but on the cores the answering child uses), its memory, and a
  cold prompt cache for its first answers, so it must pay for itself over the answers that follow.
  A tie keeps the route.
* **Never slower than off.** Off is always one of the configurations (exactly plain speed, known
  from the plain baseline), so a route measured slower than off beyond the noise moves (to off, or
  to whatever is clearly better).
* **Explore a little, and stop.** When another configuration could still be better (the top of its
  interval lies above the route's mean), at most one answer in :data:`EXPLORE_EVERY` of the kind
  (the first of them the :data:`EXPLORE_FIRST`-th; when the configuration is not running, it
  starts in the background and the next answer explores) goes to the most promising one (the
  highest top of interval), so its figure rests on real
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
Z = 3.0
#: real answers a challenger needs before it can take a route (off, exact by definition, needs none)
MIN_ANSWERS = 3
#: what a configuration that is not running must win by besides (log: 5%): its load (beside the
#: answering child, on the same cores), its memory and its cold prompt cache
START_MARGIN = math.log(1.05)
#: at most one answer in this many of a kind explores another configuration
EXPLORE_EVERY = 5
#: the first exploring answer of a kind (a configuration that is not running starts then, in the
#: background, and the answer after it explores: the learner defers it)
EXPLORE_FIRST = 1
#: what an estimated prediction may be off by besides one answer's noise (sd of its log): a
#: drafter's acceptance on one prompt carried over to another
ESTIMATE_SD = 0.15
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
    #: estimated predictions it also rests on (see the module docstring)
    estimates: int = 0

    @property
    def speedup(self) -> float:
        return math.exp(self.mean)

    def interval(self, z: float = Z) -> tuple[float, float]:
        """The speedup's interval (``z`` standard errors either side)."""
        return math.exp(self.mean - z * self.se), math.exp(self.mean + z * self.se)

    def describe(self) -> str:
        lo, hi = self.interval()
        rests = f"{self.answers} answers" + (f" and {self.estimates} estimates" if self.estimates else "")
        return f"{self.candidate.label} {self.speedup:.2f}x [{lo:.2f}-{hi:.2f}] on {rests}"

    @property
    def may_take_a_route(self) -> bool:
        """Enough evidence to replace a route (see the module docstring)."""
        return self.answers >= 1 and self.answers + self.estimates >= MIN_ANSWERS


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
    estimates: Mapping[Candidate, Sequence[float]] | None = None,
) -> dict[Candidate, Figure]:
    """Each candidate's :class:`Figure`: the calibration's ``prior`` ratio (sd :data:`PRIOR_SD`; a
    candidate without one: plain speed, sd :data:`UNKNOWN_SD`) updated by the real answers'
    ``samples`` (ratios), each with sd ``noise``, and by the estimated predictions' ``estimates``,
    each with sd ``noise`` and :data:`ESTIMATE_SD` together."""
    out: dict[Candidate, Figure] = {}
    guessed_sd2 = noise**2 + ESTIMATE_SD**2
    for c in candidates:
        logs = [math.log(r) for r in samples.get(c, ()) if r > 0]
        if c == OFF:
            out[c] = Figure(c, 0.0, OFF_SE, len(logs))
            continue
        guesses = [math.log(r) for r in (estimates or {}).get(c, ()) if r > 0]
        measured = prior.get(c)
        mean0, sd0 = (math.log(measured), PRIOR_SD) if measured and measured > 0 else (0.0, UNKNOWN_SD)
        precision = 1 / sd0**2 + len(logs) / noise**2 + len(guesses) / guessed_sd2
        mean = (mean0 / sd0**2 + sum(logs) / noise**2 + sum(guesses) / guessed_sd2) / precision
        out[c] = Figure(c, mean, 1 / math.sqrt(precision), len(logs), len(guesses))
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
        if c == route or (c != OFF and not f.may_take_a_route):
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
