"""Auto on real engines: a calibration of the embedded SmolLM2 pair, reuse by --spec auto, cancel.

Speed is not asserted (docs/benchmarks.md measures it); these tests check that a real calibration
runs every step, stores its result where the key says, is reused without measuring again, and
that a cancel leaves nothing stored and no engine thread behind.
"""

from __future__ import annotations

import json
import math
import threading
from pathlib import Path

import pytest

from app.cli import main
from app.core.cancel import CancelToken
from app.core.engines.base import LoadRequest
from app.core.engines.llamacpp.host import live_processes
from app.core.launch import auto
from app.core.launch.auto import policy, runner
from app.core.launch.plan import load_engine


def _engine_threads() -> list[int]:
    """The llama.cpp children still running (an engine has no thread of its own)."""
    return live_processes()


# A full real calibration of the F32/Q4_1 pair: it ran past the suite's 300 s bound on a machine busy
# with other processes (load average 5-6 on 2 cores); the bound only catches a hang.
@pytest.mark.timeout(900)
def test_calibrate_real_pair_then_spec_auto_reuses_it(
    smollm2_f32: Path, smollm2_q4: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runner, "MAX_TOKENS", 16)  # short answers: this test runs on 2 shared cores
    pair = ["--model-path", str(smollm2_f32), "--draft-model-path", str(smollm2_q4), "--threads", "2"]
    assert main(["calibrate", *pair, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    methods = [c["method"] for c in out["candidates"]]
    assert methods[0] == "draft" and out["candidates"][0]["tokens_per_round"] == 4
    assert any(c["tokens_per_round"] in (2, 8) for c in out["candidates"][1:] if c["method"] == "draft")
    assert "ngram-mod" in methods
    for cand in out["candidates"]:
        if "error" in cand["details"]:
            continue
        assert set(cand["ratios"]) == {"prose", "code", "repeat"}
        assert all(r is not None and r > 0 for r in cand["ratios"].values()), cand
        assert cand["details"]["prose"]["tokens"] >= 2
    ngram = next(c for c in out["candidates"] if c["method"] == "ngram-mod")
    assert ngram["tokens_per_round"] == auto.NGRAM_DEPTH == 64
    repeat = ngram["details"]["repeat"]
    assert repeat["on_tps"] is not None  # the repeat was measured, not copied
    # ... and it drafted: with llama.cpp's n_min (16 at depth 16, 48 at 64) a 16-token answer
    # never leaves room for a draft, so the repeat measured nothing but plain decoding
    assert repeat["acceptance"] is not None and repeat["tokens_per_drafting_round"] > 2, repeat
    assert out["chosen"]["method"] in {"off", *methods} and out["chosen"]["why"]
    # every pair is kept and each workload has its interval; the decisions' sides were measured again
    measured = [c for c in out["candidates"] if "error" not in c["details"]]
    assert any(len(pairs) >= runner.MIN_PAIRS for c in measured for pairs in c["samples"].values())
    for cand in measured:
        for w, f in cand["figures"].items():
            low, high = f["interval"]
            assert low <= f["speedup"] <= high and f["pairs"] >= 1, (cand["method"], w, f)
    assert set(out["routes"]) == {k.value for k in auto.RequestKind}
    assert out["measured_now"] is True and out["seconds"] > 0
    stored = Path(out["stored_path"])
    assert stored.is_file() and stored.parent == auto.store_dir()
    assert out["key"]["engine"] == "llama.cpp" and out["key"]["threads"] == 2
    assert out["key"]["model"]["size"] == smollm2_f32.stat().st_size
    assert not _engine_threads()

    # a second Auto launch reuses the stored result: measuring again would fail this test
    def no_measuring(*_a: object, **_k: object) -> None:
        raise AssertionError("calibrated again although a result is stored")

    monkeypatch.setattr(auto, "calibrate", no_measuring)
    assert main(["calibrate", *pair, "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["measured_now"] is False and again["chosen"] == out["chosen"]
    args = ["generate", *pair, "--spec", "auto", "--prompt", "Say hi.", "--max-tokens", "4", "--json"]
    assert main(args) == 0
    captured = capsys.readouterr()
    gen = json.loads(captured.out)
    chosen = out["chosen"]["method"]
    assert gen["speculation"] is (chosen != "off")
    assert gen["method"] == (None if chosen == "off" else chosen)  # what the engine runs
    assert captured.err == ""  # --json: quiet
    assert main(args[:-1]) == 0  # without --json: says what Auto chose and that it was stored
    err = capsys.readouterr().err
    assert f"auto: {out['chosen']['label']} (stored in {stored})" in err


def test_spec_auto_answers_at_once_with_autos_prior_when_nothing_is_stored(
    smollm2_q4: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`generate --spec auto` on a fresh home does not run the calibration before answering (it takes
    many times the time of an answer): the prior answers, one line says so and how to measure."""

    def no_measuring(*_a: object, **_k: object) -> None:
        raise AssertionError("generate calibrated before answering")

    monkeypatch.setattr(auto, "calibrate", no_measuring)
    args = ["generate", "--model-path", str(smollm2_q4), "--threads", "2", "--spec", "auto"]
    assert main([*args, "--prompt", "Say hi.", "--max-tokens", "4", "--json"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["method"] == "ngram-mod" and captured.err == ""  # the prior: no drafter, ngram-mod
    assert main([*args, "--prompt", "Say hi.", "--max-tokens", "4"]) == 0
    err = capsys.readouterr().err
    assert "auto: ngram-mod" in err and "`tandem calibrate`" in err
    assert not list(auto.store_dir().glob("*.json"))  # nothing measured, nothing stored


def _quick(smollm2_q4: Path) -> tuple[auto.CalibrationKey, LoadRequest, list[auto.Candidate]]:
    base = LoadRequest(str(smollm2_q4), n_ctx=512, n_threads=2)
    key = auto.CalibrationKey.for_launch("llama.cpp", base, str(smollm2_q4))
    return key, base, auto.candidates("llama.cpp", "draft", ["ngram-mod"])


@pytest.mark.parametrize("when", ["between steps", "during a generation"])
def test_cancel_mid_calibration_stores_nothing_and_leaves_no_thread(smollm2_q4: Path, when: str) -> None:
    key, base, cands = _quick(smollm2_q4)
    cancel = CancelToken()
    seen: list[str] = []
    timers: list[threading.Timer] = []

    def progress(_fraction: float, step: auto.Step) -> None:
        seen.append(step.text)
        if step == auto.Step("code", "draft 4/round"):  # the candidate and the off engine are both loaded
            if when == "between steps":
                cancel.cancel()
            else:
                timer = threading.Timer(0.05, cancel.cancel)
                timers.append(timer)
                timer.start()

    with pytest.raises(auto.CalibrationCancelled):
        auto.calibrate(
            key,
            base,
            str(smollm2_q4),
            cands,
            lambda r: load_engine("llama.cpp", r),
            cancel,
            progress,
            max_tokens=8,
        )
    for t in timers:
        t.join()
    assert "draft 4/round: code edit" in seen and not any("ngram-mod" in s for s in seen)
    assert auto.load_result(key) is None
    assert not list(auto.store_dir().glob("*"))
    assert not _engine_threads()


def test_prose_recheck_measures_another_first_request(
    smollm2_q4: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A prose pair below the floor of an otherwise winning candidate is measured once more, on
    another prompt: ngram-mod remembers the first prose answer, so the same prompt again would be
    a repeat and overstate prose. Forced here with an unreachable floor."""
    monkeypatch.setattr(runner, "PROSE_FLOOR", 50.0)  # the re-check's rule
    monkeypatch.setattr(policy, "PROSE_FLOOR", 50.0)  # the choice's
    key, base, _cands = _quick(smollm2_q4)
    seen: list[str] = []
    result = auto.calibrate(
        key,
        base,
        None,
        auto.candidates("llama.cpp", None, ["ngram-mod"]),
        lambda r: load_engine("llama.cpp", r),
        CancelToken(),
        lambda _f, step: seen.append(step.text),
        max_tokens=12,
        refine_seconds=0,  # the two prose pairs only: a tie re-measured would add more
    )
    assert "ngram-mod 64/round: prose again" in seen and seen[-1] == "measured"
    ngram = result.measurements[1]
    prose = ngram.details["prose"]
    assert len(prose["pairs"]) == 2 and all(r is not None and r > 0 for r in prose["pairs"])
    assert ngram.ratios["prose"] == pytest.approx(math.sqrt(prose["pairs"][0] * prose["pairs"][1]), rel=1e-2)
    assert prose["again"]["acceptance"] is None  # a first request: nothing remembered to draft from
    assert result.choice.candidate == auto.OFF  # nothing reaches a floor of 50x
    assert not _engine_threads()
