"""Auto's decision rule with scripted speeds: it switches on a real 15% difference and seldom
between equal configurations, with the answer-to-answer noise of real answers (MEASURED_NOISE).

Each trial is one kind's answers as Auto routes them: the rule picks a configuration (exploring
now and then), that configuration's "answer" runs at its true speedup times a log-normal noise,
and the learner is told. The random numbers are seeded: the figures are the same on every run.
"""

from __future__ import annotations

import math
import random

import pytest

from app.core.launch.auto import OFF, Candidate, Measurement, RequestKind, RouteLearner, routes
from app.core.launch.auto import decide as rule

#: one answer's noise (sd of its log decode speed over different prose requests of one
#: configuration) on the realistic-cost pair: the larger of off's and the drafter's at 8 per round
#: (whose acceptance varies from request to request), as benchmarks/bench_answer_noise.py
#: measures it (docs/benchmarks.md, "Auto's noise")
MEASURED_NOISE = 0.123
PROSE = RequestKind.PROSE
A = Candidate("draft", 8, None, 0.2)
B = Candidate("draft+ngram-mod", 8, 64, 0.2)
TRIALS = 400
#: answers per trial: the challenger gets one in EXPLORE_EVERY of them while it is uncertain
ANSWERS = 150


def _calibrated(a: float, b: float) -> RouteLearner:
    """A learner whose calibration measured ``a`` for A and ``b`` for B on prose (A ahead)."""
    workloads = ("prose", "code", "repeat")
    measured = [
        Measurement(OFF, dict.fromkeys(workloads, 1.0)),
        Measurement(A, dict.fromkeys(workloads, a)),
        Measurement(B, dict.fromkeys(workloads, b)),
    ]
    return RouteLearner(routes(measured))


def _trial(
    rng: random.Random, true: dict[Candidate, float], prior: tuple[float, float], noise: float
) -> int | None:
    """The answer at which the route first moved away from A (None: it never did)."""
    learner = _calibrated(*prior)
    assert learner.explain(PROSE).candidate == A  # (explain counts no answer)
    for n in range(1, ANSWERS + 1):
        chosen = learner.route(PROSE)
        if learner.explain(PROSE).candidate != A:
            return n
        learner.observe(PROSE, chosen, true.get(chosen, 1.0) * math.exp(rng.gauss(0.0, noise)))
    return None


@pytest.mark.parametrize("noise", [MEASURED_NOISE, 1.5 * MEASURED_NOISE])
def test_equal_configurations_switch_in_at_most_5_percent_of_trials(noise: float) -> None:
    rng = random.Random(51)
    switched = sum(_trial(rng, {A: 1.3, B: 1.3}, (1.3, 1.29), noise) is not None for _ in range(TRIALS))
    assert switched / TRIALS <= 0.05, f"{switched} of {TRIALS} trials switched"


def test_a_real_15_percent_difference_switches() -> None:
    rng = random.Random(15)
    moved = [_trial(rng, {A: 1.3, B: 1.3 * 1.15}, (1.3, 1.29), MEASURED_NOISE) for _ in range(TRIALS)]
    within = sum(m is not None for m in moved)
    assert within / TRIALS >= 0.95, f"only {within} of {TRIALS} trials switched within {ANSWERS} answers"
    assert sorted(m for m in moved if m is not None)[within // 2] <= 60  # the median trial moves by then


def test_a_route_slower_than_off_moves_and_the_calibration_is_the_prior() -> None:
    """A calibration that measured 1.3x where the answers run at 0.8x: the route leaves within 20
    answers (a median of 4); the same answers at 1.25x (within the noise of 1.3x) never move it."""
    rng = random.Random(8)
    moved = [_trial(rng, {A: 0.8, B: 0.8}, (1.3, 1.29), MEASURED_NOISE) for _ in range(100)]
    assert all(m is not None and m <= 20 for m in moved)
    kept = [_trial(rng, {A: 1.25, B: 1.2}, (1.3, 1.29), MEASURED_NOISE) for _ in range(100)]
    assert sum(m is not None for m in kept) <= 5


def test_figures_noise_and_intervals() -> None:
    samples = {A: [1.3, 1.3 * math.exp(0.1), 1.3 * math.exp(-0.1)]}
    assert rule.noise_of({}) == rule.NOISE_DEFAULT
    assert rule.noise_of({A: [1.2, 1.2]}) == rule.NOISE_FLOOR  # equal answers: the floor, not zero
    assert rule.noise_of(samples) == pytest.approx(0.1)
    table = rule.figures([A, B, OFF], {A: 1.3}, samples, 0.1)
    assert table[A].answers == 3 and table[A].speedup == pytest.approx(1.3)
    assert table[A].se == pytest.approx((1 / rule.PRIOR_SD**2 + 3 / 0.1**2) ** -0.5)
    assert table[B].answers == 0 and table[B].speedup == 1.0 and table[B].se == rule.UNKNOWN_SD
    assert table[OFF].speedup == 1.0 and table[OFF].se < 0.01  # plain speed, by definition
    lo, hi = table[A].interval()
    assert lo < 1.3 < hi and "1.30x" in table[A].describe() and "on 3 answers" in table[A].describe()


def test_estimates_weigh_less_than_answers_and_never_take_a_route_alone() -> None:
    table = rule.figures([A, OFF], {}, {}, 0.1, {A: [1.5] * 6})
    assert table[A].answers == 0 and table[A].estimates == 6 and not table[A].may_take_a_route
    answered = rule.figures([A, OFF], {}, {A: [1.5] * 6}, 0.1)[A]
    assert answered.se < table[A].se  # an answer is worth more than an estimate of it
    assert "6 estimates" in table[A].describe()
    assert rule.decide(OFF, table).candidate == OFF  # estimates alone move nothing
    one = rule.figures([A, OFF], {}, {A: [1.5]}, 0.1, {A: [1.5] * (rule.MIN_ANSWERS - 1)})
    assert one[A].may_take_a_route
    assert rule.decide(OFF, one).candidate == A  # one answer and estimates beside it do


def test_an_exploration_of_a_configuration_that_is_not_running_is_deferred_to_the_next_answer() -> None:
    """The first answers of a kind: the first one's exploration starts the configuration (the route
    answers meanwhile, in the pool), the next answer explores it once it runs."""
    measured = [Measurement(OFF, {"prose": 1.0}), Measurement(A, {"prose": 0.9})]
    learner = RouteLearner(routes(measured))
    running = [OFF]
    learner.running = lambda: running
    assert learner.explain(PROSE).candidate == OFF
    assert learner.route(PROSE) == A  # the exploring choice: the pool starts it, off answers
    assert learner.route(PROSE) == A  # deferred: explored now
    running.append(A)
    assert learner.route(PROSE) == A  # still deferred while it was not running at the last turn
    assert learner.route(PROSE) == OFF  # explored: the route again until the next turn to explore
