"""Auto's calibration knows about threads: with an automatic thread count it measures the counts
that can win on this machine side by side, measures the configurations with the fastest, and the
launch it picks computes with at most that many (real llama.cpp, the embedded model)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from app.core.engines import threads
from app.core.engines.base import LoadRequest
from app.core.engines.llamacpp.host import live_processes
from app.core.launch import auto
from app.core.launch.auto import runner
from app.core.launch.plan import load_engine

pytestmark = pytest.mark.timeout(600)
COUNTS = runner.thread_counts(threads.machine_layout())


def test_the_counts_that_can_win_are_one_the_math_cores_and_all() -> None:
    assert runner.thread_counts(threads.CpuLayout(logical=2, physical=2)) == [1, 2]
    assert runner.thread_counts(threads.CpuLayout(logical=16, physical=8)) == [1, 8, 16]
    assert runner.thread_counts(threads.CpuLayout(logical=12, physical=8, performance=4)) == [1, 4, 12]
    assert runner.thread_counts(threads.CpuLayout(logical=1, physical=1)) == [1]
    assert runner.fastest_threads({1: 100.0, 2: 103.0}) == 1  # within the tie: fewer threads
    assert runner.fastest_threads({1: 60.0, 2: 103.0, 4: 101.0}) == 2


@pytest.mark.skipif(len(COUNTS) < 2, reason="one CPU: one thread count to measure")
def test_an_automatic_count_is_measured_and_the_fastest_caps_the_launch(smollm2_q4: Path) -> None:
    base = LoadRequest(str(smollm2_q4), n_ctx=512)
    key = auto.CalibrationKey.for_launch("llama.cpp", base, None)
    assert key.threads == threads.math_cores(threads.machine_layout())
    steps: list[str] = []
    result = auto.calibrate(
        key,
        base,
        None,
        auto.candidates("llama.cpp", None, ["ngram-mod"]),
        lambda r: load_engine("llama.cpp", r),
        progress=lambda _f, step: steps.append(step.text),
        max_tokens=8,
        refine_seconds=0,
    )
    assert sorted(result.thread_speeds) == COUNTS
    assert all(v > 0 for v in result.thread_speeds.values())
    assert result.threads == runner.fastest_threads(result.thread_speeds)
    assert [s for s in steps if "speed without speculation" in s] == [
        f"{n} thread{'s' if n != 1 else ''}: speed without speculation" for n in COUNTS
    ]
    assert not live_processes()  # every engine it loaded is closed
    auto.store_result(result)
    stored = auto.load_result(key)
    assert stored is not None and stored.threads == result.threads
    assert stored.thread_speeds == pytest.approx(result.thread_speeds, abs=0.01)


@pytest.mark.skipif(len(COUNTS) < 2, reason="one CPU: one thread count to measure")
def test_spec_auto_launches_with_at_most_the_calibrated_count(
    smollm2_q4: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = ["--model-path", str(smollm2_q4)]
    assert main(["calibrate", *model, "--json"]) == 0
    calibrated = json.loads(capsys.readouterr().out)
    assert sorted(int(n) for n in calibrated["thread_speeds"]) == COUNTS
    cap = calibrated["threads"]
    assert (
        main(["generate", *model, "--spec", "auto", "--prompt", "Say hi.", "--max-tokens", "4", "--json"])
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert 1 <= out["threads"] <= cap
