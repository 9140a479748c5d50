"""The calibration's re-measuring of ties, on engines with scripted speeds and noise.

The engine layer is scripted here (each configuration's true speed per workload, times a random
factor per answer); the calibration loop, its figures and its rule are the real ones. The real
engines' calibration is tested in tests/integration/test_calibrate.py.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

import pytest

from app.core.engines.base import Event, Finished, LoadRequest, TextDelta
from app.core.launch import auto
from app.core.launch.auto import OFF, Candidate, runner
from app.core.launch.auto.decide import START_MARGIN
from app.core.launch.auto.policy import WORKLOADS, figure, pair_noise
from app.devtools.scripted import ScriptedStream

DRAFTER = "/models/drafter.gguf"
CANDS = auto.candidates("llama.cpp", "draft", ["ngram-mod"])
DRAFT4, DRAFT8, DRAFT2, NGRAM, CHAIN = CANDS[1:]
KEY = auto.CalibrationKey(None, None, "llama.cpp", "test", 2, {"cpu": "scripted"})

Speeds = Mapping[str, Mapping[str, float]]  # configuration label -> workload -> speedup


class _Scripted(ScriptedStream):
    """One loaded configuration: 40 tokens per answer at ``plain x speedup x noise`` tokens/s; a
    configuration that remembers (model-free) answers the code edit sent again at its repeat speed."""

    spec_kind: str | None = None

    def __init__(
        self, speeds: Mapping[str, float], rng: random.Random, noise: float, remembers: bool
    ) -> None:
        self.speeds, self.rng, self.noise, self.remembers = speeds, rng, noise, remembers
        self.seen: set[str] = set()

    def script(self, messages: Any, sampling: Any, cancel: Any = None, **_kw: Any) -> Iterator[Event]:
        prompt = messages[-1]["content"]
        if prompt in runner.CODE_PROMPTS:
            workload = "repeat" if self.remembers and prompt in self.seen else "code"
        else:
            workload = "prose"
        self.seen.add(prompt)
        tps = 20.0 * self.speeds.get(workload, 1.0) * math.exp(self.rng.gauss(0.0, self.noise))
        tokens = sampling.max_tokens or 40
        for _ in range(tokens):
            yield TextDelta("x", 1, False)
        yield Finished("stop", 5, tokens, 1.0, tokens / tps * 1000.0, 0, 0)

    def close(self) -> None:
        pass


def _calibrate(
    speeds: Speeds, seed: int, noise: float = 0.05, refine_seconds: float = 60.0
) -> auto.CalibrationResult:
    rng = random.Random(seed)
    by_options = {c.label: c.options(DRAFTER) for c in CANDS}

    def load(request: LoadRequest) -> _Scripted:
        label = next((name for name, o in by_options.items() if o == request.speculation), "off")
        cand = next(c for c in CANDS if c.label == label)
        remembers = cand != OFF and (not cand.uses_drafter or "+" in cand.method)
        return _Scripted(speeds.get(label, {}), rng, noise, remembers)

    return auto.calibrate(
        KEY, LoadRequest(model_path="m"), DRAFTER, CANDS, load, refine_seconds=refine_seconds
    )


def _m(result: auto.CalibrationResult, cand: Candidate) -> auto.Measurement:
    found = [m for m in result.measurements if m.candidate.label == cand.label]
    assert found, f"{cand.label} not measured"
    return found[0]


# depth 4 and depth 8 alike (1.30x), the chain alike on prose and better on repeats
EQUAL_DEPTHS: Speeds = {
    DRAFT4.label: dict.fromkeys(WORKLOADS, 1.30),
    DRAFT8.label: dict.fromkeys(WORKLOADS, 1.30),
    NGRAM.label: {"prose": 1.0, "code": 1.0, "repeat": 1.0},
    replace(CHAIN, tokens_per_round=4).label: {"prose": 1.30, "code": 1.30, "repeat": 1.30},
}


def test_a_tie_is_measured_again_and_goes_to_the_cheaper() -> None:
    result = _calibrate(EQUAL_DEPTHS, seed=1)
    four, eight = _m(result, DRAFT4), _m(result, DRAFT8)
    # the tie between the depths (and the chain) was measured again, up to the cap
    assert len(four.pairs("prose")) > 1 and len(eight.pairs("prose")) > 1
    assert max(len(four.pairs(w)) for w in WORKLOADS) <= runner.MAX_PAIRS
    # equal configurations never separate: the cheapest of the tie runs
    assert result.choice.candidate == DRAFT4
    verdict = dict(result.choice.verdicts)[DRAFT4.label]
    assert verdict.startswith("chosen") and "the cheapest of a tie" in verdict
    assert "[" in verdict  # the interval, not a single ratio
    # every pair is kept, and stored
    stored = auto.Measurement.from_json(four.to_json())
    assert stored.samples == four.samples and stored.ratios == four.ratios


def test_clear_differences_are_confirmed_once_not_measured_to_the_cap() -> None:
    speeds: Speeds = {
        DRAFT4.label: dict.fromkeys(WORKLOADS, 1.8),
        DRAFT8.label: dict.fromkeys(WORKLOADS, 2.6),
        NGRAM.label: {"prose": 1.0, "code": 1.0, "repeat": 1.0},
        replace(CHAIN, tokens_per_round=8).label: {"prose": 1.5, "code": 1.5, "repeat": 1.5},
    }
    result = _calibrate(speeds, seed=2, noise=0.01)
    assert result.choice.candidate == DRAFT8
    assert runner.contested(result.measurements) == {}
    # the decision's two sides got a second pair (one pair can be an outlier), and no more
    assert len(_m(result, DRAFT8).pairs("prose")) == runner.MIN_PAIRS
    assert all(len(m.pairs(w)) <= runner.MIN_PAIRS for m in result.measurements for w in WORKLOADS)


def test_the_budget_ends_the_measuring_again() -> None:
    result = _calibrate(EQUAL_DEPTHS, seed=3, refine_seconds=0.0)
    assert all(len(m.pairs("prose")) <= 1 for m in result.measurements if m.candidate != OFF)
    assert result.choice.candidate in (OFF, DRAFT4)  # a tie left: the cheaper


def _clearly_faster(
    result: auto.CalibrationResult, a: Candidate, b: Candidate, kind: auto.RequestKind
) -> bool:
    """Whether ``result`` finds ``a`` more than 5% faster than ``b`` on ``kind``, beyond its noise."""
    from app.core.launch.auto.policy import apart
    from app.core.launch.auto.routing import WORKLOAD_OF

    noise = pair_noise(result.measurements)
    by_label = {m.candidate.label: m for m in result.measurements}
    fa = figure(by_label[a.label], WORKLOAD_OF[kind], noise)
    fb = figure(by_label[b.label], WORKLOAD_OF[kind], noise)
    return fa is not None and fb is not None and apart(fa, fb, math.log(1.05))


@pytest.mark.parametrize("seed", range(30))
def test_two_calibrations_in_a_row_never_contradict(seed: int) -> None:
    """Close configurations (4% apart) under the answer-to-answer noise of real answers: two
    calibrations may pick differently only within a tie, never each finding its own pick clearly
    (>5%) faster than the other's."""
    close: Speeds = {
        DRAFT4.label: {"prose": 1.40, "code": 1.35, "repeat": 1.35},
        DRAFT8.label: {"prose": 1.46, "code": 1.40, "repeat": 1.40},
        NGRAM.label: {"prose": 1.0, "code": 1.2, "repeat": 3.0},
        replace(CHAIN, tokens_per_round=8).label: {"prose": 1.42, "code": 1.45, "repeat": 2.0},
    }
    first, second = _calibrate(close, seed * 2, noise=0.12), _calibrate(close, seed * 2 + 1, noise=0.12)
    for kind in auto.RequestKind:
        a, b = first.routes[kind], second.routes[kind]
        if a != b and a != OFF and b != OFF:
            assert not (_clearly_faster(first, a, b, kind) and _clearly_faster(second, b, a, kind)), kind


def test_a_kind_moves_off_the_launched_configuration_only_beyond_a_start() -> None:
    """The start margin is part of the rule the re-measuring aims at: a configuration that could
    beat the launch's by more than a start is measured until it does or does not."""
    assert START_MARGIN > 0
    speeds: Speeds = {
        DRAFT4.label: {"prose": 1.5, "code": 1.5, "repeat": 1.5},
        DRAFT8.label: {"prose": 1.6, "code": 1.4, "repeat": 1.4},
        NGRAM.label: {"prose": 1.0, "code": 1.3, "repeat": 4.0},
        replace(CHAIN, tokens_per_round=4).label: {"prose": 1.45, "code": 1.7, "repeat": 2.5},
    }
    result = _calibrate(speeds, seed=7, noise=0.03)
    assert result.routes[auto.RequestKind.REPEAT] == NGRAM  # 4x: worth a start whatever runs
    assert result.choice.candidate in (NGRAM, replace(CHAIN, tokens_per_round=4))
