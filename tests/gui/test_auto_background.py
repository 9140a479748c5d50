"""Auto never makes you wait. A launch answers at once with the stored choice or the
pair's prior, Auto measures in the background while the chat is idle, yields to every message,
switches between answers when the measurement says so, and demotes a choice that loses on the
user's own answers.

Real engine: the embedded SmolLM2 Q4_1 on llama.cpp (its declared drafter is the target file
itself, so Auto's prior is ngram-mod and it measures off against ngram-mod). The assertions are
about the order of events, never about timings.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.core.chat import AnswerStats
from app.core.launch import auto
from app.core.launch.plan import plan_auto
from app.gui.cache_bridge import CacheBridge
from app.gui.engine import AutoPick, ModelInfo
from tests.gui.test_launch_auto import store_fake_choice

PRIOR = "ngram-mod 64/round"


def _short_answers(w: Any) -> None:
    w.chat.sampling = replace(w.chat.sampling, max_tokens=24, temperature=0.0)


def _record(w: Any) -> list[str]:
    events: list[str] = []
    tuner = w.auto_tuner
    tuner.calibrationStarted.connect(lambda: events.append("calibration started"))
    tuner.calibrationCancelled.connect(lambda: events.append("calibration cancelled"))
    tuner.calibrationFinished.connect(lambda _r: events.append("calibration finished"))
    w.chat.answerFinished.connect(lambda _s: events.append("answer"))
    w.modelLoaded.connect(lambda _i: events.append("loaded"))
    return events


@pytest.mark.auto_tuning
@pytest.mark.usefixtures("smollm2_q4")
def test_first_start_answers_at_once_then_measures_and_the_next_start_uses_it(
    make_window: Any, qtbot: Any
) -> None:
    w = make_window()
    w.auto_tuner.idle_ms = 200
    events = _record(w)
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000) as loaded:
        w.load_default_model()
    info = loaded.args[0]
    assert info.auto is not None and not info.auto.measured  # nothing stored: the prior runs
    assert info.speculation == f"Auto: {PRIOR}"
    assert w.engine.current_engine.spec_kind == "ngram-mod"
    assert w.status_spec.text() == f"Speculation: Auto: {PRIOR} while measuring"
    assert "while you are idle" in w.status_spec.toolTip()

    _short_answers(w)
    with qtbot.waitSignal(w.chat.answerFinished, timeout=120_000) as answered:
        w.chat.send("Name three colours.")
    assert answered.args[0].completion_tokens > 0
    with qtbot.waitSignal(w.auto_tuner.calibrationFinished, timeout=400_000) as measured:
        pass  # the chat is idle now: Auto measures
    result: auto.CalibrationResult = measured.args[0]
    # the first answer came before the measurement even started
    assert events.index("answer") < events.index("calibration started") < events.index("calibration finished")
    key = plan_auto(w.launcher.default_choice(), CacheBridge().resolve).key
    stored = auto.load_result(key)
    assert stored is not None and stored.stored_path == result.stored_path
    chosen = result.choice.candidate.label
    if chosen != PRIOR:  # Auto changed its mind: it reloads between answers and says why
        qtbot.waitUntil(
            lambda: w.engine.info is not None and w.engine.info.auto.label == chosen, timeout=120_000
        )
        assert w.status_spec.text() == (
            f"Speculation: Auto: {chosen} (changed from {PRIOR}: measured on this machine)"
        )
    else:
        assert w.status_spec.text() == f"Speculation: Auto: {PRIOR}"
    assert w.auto_tuner.pick is not None and w.auto_tuner.pick.measured
    assert not w.auto_tuner.measuring
    # the calibration's plain runs are this machine's plain speed of the file
    assert w.chat.baselines.get(w.engine.info.baseline_key) is not None

    # the next start answers with the stored choice and measures nothing
    w2 = make_window()
    w2.auto_tuner.idle_ms = 0
    started: list[bool] = []
    w2.auto_tuner.calibrationStarted.connect(lambda: started.append(True))
    with qtbot.waitSignal(w2.modelLoaded, timeout=120_000) as loaded2:
        w2.load_default_model()
    info2 = loaded2.args[0]
    assert info2.auto.measured and info2.speculation == f"Auto: {chosen}"
    assert w2.status_spec.text() == f"Speculation: Auto: {chosen}"
    assert not w2.auto_tuner.needs_measuring()
    qtbot.wait(300)  # longer than the idle delay: still nothing measured
    assert started == []


@pytest.mark.auto_tuning
@pytest.mark.usefixtures("smollm2_q4")
def test_a_message_sent_while_auto_measures_stops_the_measurement_and_is_answered(
    make_window: Any, qtbot: Any
) -> None:
    w = make_window()
    tuner = w.auto_tuner
    tuner.idle_ms = 0
    events = _record(w)
    with qtbot.waitSignal(tuner.calibrationStarted, timeout=120_000):
        w.load_default_model()
    steps: list[str] = []
    tuner.progress.connect(lambda _f, code: steps.append(code))
    # wait until the calibration generates (its plain engine measures prose)
    qtbot.waitUntil(lambda: "prose-off" in steps or "prose" in steps, timeout=180_000)
    assert tuner.measuring
    _short_answers(w)
    with qtbot.waitSignal(w.chat.answerFinished, timeout=120_000) as answered:
        w.chat.send("Name three colours.")
        events.append("sent")
        assert w.chat.generating  # the answer started at once: it did not queue behind Auto
    assert answered.args[0].completion_tokens > 0 and answered.args[0].finish_reason != "cancelled"
    qtbot.waitUntil(lambda: "calibration cancelled" in events, timeout=60_000)
    assert events.index("sent") < events.index("calibration cancelled")
    assert "calibration finished" not in events  # it yielded, it did not finish behind the answer
    # idle again: it resumes (from what it had measured) and the window's end stops it
    qtbot.waitUntil(lambda: events.count("calibration started") == 2, timeout=60_000)
    assert events.index("answer") < len(events) - 1 - events[::-1].index("calibration started")


def test_the_strip_says_what_auto_runs_and_a_losing_choice_is_demoted(
    make_window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No engine loads here: the tuner follows a published Auto launch and the chat's answers."""
    w = make_window()
    choice = w.launcher.default_choice()
    plan = plan_auto(choice, CacheBridge().resolve)
    prior = plan.prior()
    assert prior.label == PRIOR
    info = ModelInfo(
        engine="llama.cpp",
        speculation=f"Auto: {PRIOR}",
        auto=AutoPick(PRIOR, "", "", False, prior, plan),
        label="SmolLM2",
    )
    w.engine.info = info
    w.engine.loaded.emit(info)
    assert w.auto_tuner.text() == f"Auto: {PRIOR} while measuring"
    w.set_language("ja")
    assert w.auto_tuner.text() == f"Auto: {PRIOR}（測定中）"
    w.set_language("en")

    reloads: list[Any] = []
    monkeypatch.setattr(w.launcher, "start_load", reloads.append)
    w.launcher.current = choice

    # the launch dialog's Re-measure stored a result for this launch: Auto uses it (same choice:
    # no reload)
    store_fake_choice(choice)
    w.auto_tuner.hold(True)
    w.auto_tuner.adopt(auto.load_result(plan.key))
    w.auto_tuner.hold(False)
    assert w.auto_tuner.pick is not None and w.auto_tuner.pick.measured and not w.auto_tuner.needs_measuring()
    assert w.auto_tuner.text() == f"Auto: {PRIOR}" and reloads == []

    def answer(speedup: float) -> None:
        stats = AnswerStats(completion_tokens=40, decode_tps=100.0 * speedup, baseline_tps=100.0)
        w.auto_tuner.on_answer(replace(stats, speculation=info.speculation))

    for ratio in (0.8, 1.1, 0.7):
        answer(ratio)
    assert reloads == [] and auto.load_demoted(plan.key) == {}  # two losses of three: kept
    # the losing answer ends while the chat is still busy (a question waits): no reload mid-answer
    busy = True
    monkeypatch.setattr(w.auto_tuner, "_is_busy", lambda: busy)
    answer(0.6)
    assert auto.load_demoted(plan.key) == {prior: 0.75}  # kept across restarts
    assert reloads == []
    busy = False
    w.auto_tuner.on_chat_busy(False)  # the chat is idle: now it switches
    assert len(reloads) == 1 and reloads[0] is choice  # reloaded with the next best: off
    stored = auto.load_result(plan.key)
    assert stored is not None and stored.choice.candidate == auto.OFF  # the next start too
    auto.forget(plan.key)  # made-up answers: not shared with later tests (tests/gui/conftest.py)
    assert w.auto_tuner.text() == f"Auto: off (changed from {PRIOR}: 0.75x vs plain on your answers)"


@pytest.mark.usefixtures("smollm2_q4")
def test_a_stored_choice_of_off_is_used_at_once(make_window: Any, qtbot: Any) -> None:
    w = make_window()
    stored = store_fake_choice(w.launcher.default_choice())
    # the same key, now measured as losing everywhere: Auto chose off
    choice = w.launcher.default_choice()
    plan = plan_auto(choice, CacheBridge().resolve)
    measurements = [
        auto.Measurement(auto.OFF, dict.fromkeys(auto.WORKLOADS, 1.0)),
        auto.Measurement(auto.Candidate("ngram-mod", 64), {"prose": 0.9, "code": 0.95, "repeat": 1.2}),
    ]
    assert auto.store_result(auto.CalibrationResult(plan.key, measurements, 4.0)) == stored
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000) as loaded:
        w.load_default_model()
    assert loaded.args[0].speculation == "Auto: off" and loaded.args[0].auto.measured
    assert w.status_spec.text() == "Speculation: Auto: off"
    assert not w.auto_tuner.needs_measuring()
    auto.forget(plan.key)  # a made-up result: not shared with later tests (tests/gui/conftest.py)


@pytest.mark.auto_tuning
@pytest.mark.usefixtures("smollm2_q4")
def test_too_little_free_memory_keeps_the_prior_and_says_why(
    make_window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Measuring loads the model twice more beside the chat: with less free memory than that,
    Auto does not measure (a big model must not push the machine into swap) and the strip says
    why; once memory is free again, it measures at the next idle moment."""
    from app.gui.controllers import auto_tuner

    monkeypatch.setattr(auto_tuner, "NO_ROOM_RETRY_MS", 300)  # look again soon (30 s in the app)
    w = make_window()
    tuner = w.auto_tuner
    tuner.idle_ms = 100
    free = [1024]  # bytes: far too little
    tuner.available_memory = lambda: free[0]
    started: list[bool] = []
    tuner.calibrationStarted.connect(lambda: started.append(True))
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000):
        w.load_default_model()
    qtbot.waitUntil(lambda: "too little free memory" in w.status_spec.text(), timeout=30_000)
    assert w.status_spec.text() == f"Speculation: Auto: {PRIOR} (not measured: too little free memory)"
    tip = w.status_spec.toolTip()
    assert "GB is free" in tip and "Re-measure" in tip
    need = tuner.pick.plan.measuring_bytes()
    assert need > 2 * 100 * 2**20  # twice the 135M model file, at least
    qtbot.wait(1000)  # several retries: still too little
    assert started == [] and not tuner.measuring
    free[0] = 10 * need  # memory freed: the next look measures
    with qtbot.waitSignal(tuner.calibrationStarted, timeout=30_000):
        pass
    assert "while measuring" in w.status_spec.text()
    tuner.pause()
    qtbot.waitUntil(lambda: not tuner.measuring, timeout=120_000)
