"""Measure an answer: the stats strip's Measure reruns the prompt without speculation
on a plain engine of the same model file and shows the direct ratio; the ratio feeds the baseline.

Real engines: the embedded SmolLM2 F32 target with the Q4_1 drafter (the same vocabulary), through
the window's own launch path and the real llama.cpp engine, greedy.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

import pytest

from app.core.chat import AnswerStats
from app.core.engines.base import Sampling
from app.core.measure.baselines import BaselineStore
from app.core.speculative import SpeculationOptions
from app.gui.engine import AutoPick, ModelInfo
from app.gui.views.launch_dialog import LaunchChoice


def _load_spec(w: Any, qtbot: Any) -> dict[str, Any]:
    family, spec, _q = w.registry.match("smollm2-135m-instruct", "gguf", None, "F32")
    options = SpeculationOptions.build(enabled=True, method="draft", draft_quantization="Q4_1")
    choice = LaunchChoice(family, spec, "F32", "llama.cpp", options, 2048, 2, Sampling(temperature=0.0))
    with qtbot.waitSignal(w.modelLoaded, timeout=240_000) as blocker:
        w.start_load(choice)
    info: dict[str, Any] = blocker.args[0]
    return info


@pytest.mark.usefixtures("smollm2_f32")
def test_measure_fills_a_real_ratio_and_feeds_the_baseline(make_window: Any, qtbot: Any) -> None:
    w = make_window()
    info = _load_spec(w, qtbot)
    w.chat.sampling = Sampling(temperature=0.0, max_tokens=32)
    # generous: a loaded 2-core machine decodes this F32 pair at a few tokens per second
    with qtbot.waitSignal(w.chat.answerFinished, timeout=240_000) as done:
        w.chat.send("Write two sentences about the sea.")
    stats: AnswerStats = done.args[0]
    assert stats.speculation and stats.completion_tokens >= 16
    assert BaselineStore().get(info.baseline_key) is None
    bubble = w.chat_view.bubbles[-1]
    strip = bubble.stats_strip
    assert strip.speedup.text() == "speedup: not measured"
    assert strip.measure_btn.isVisible() and strip.measure_btn.isEnabled()

    threads_before = {t.name for t in threading.enumerate()}
    with qtbot.waitSignal(w.chat.measured, timeout=300_000) as measured:
        strip.measure_btn.click()
        assert w.chat.measuring and strip.measure_btn.text() == "Measuring…"
        n = len(w.chat_view.bubbles)
        w.chat.send("a question while measuring waits")  # ignored: the run needs the CPU alone
        assert len(w.chat_view.bubbles) == n
    message_id, new = measured.args
    assert message_id == bubble.message_id
    # a real plain run of the same prompt: a positive speed, and the ratio is decode/plain
    assert new.measured_tps is not None and new.measured_tps > 0
    assert new.speedup == pytest.approx(new.decode_tps / new.measured_tps)
    assert new.decode_tps == stats.decode_tps
    assert strip.speedup.text() == f"{new.speedup:.2f}× vs plain, measured"
    assert not strip.measure_btn.isVisible() and not w.chat.measuring
    # stored with the message, and fed to the per-model baseline
    stored = w.store.messages(w.chat.conversation_id)[-1].stats
    assert stored is not None and stored.measured_tps == new.measured_tps
    base = BaselineStore().get(info.baseline_key)
    assert base is not None and base.samples == 1
    assert base.tokens_per_second == pytest.approx(new.measured_tps, rel=1e-3)
    # the speculative engine is still the loaded one and answers again
    assert w.engine.is_loaded and w.engine.info.speculation
    with qtbot.waitSignal(w.chat.answerFinished, timeout=240_000) as again:
        w.chat.send("And one about the sky.")
    later: AnswerStats = again.args[0]
    assert later.baseline_tps == pytest.approx(new.measured_tps, rel=1e-3)
    # the plain engine was closed: no engine thread of it is left
    qtbot.waitUntil(
        lambda: len({t.name for t in threading.enumerate()} - threads_before) == 0, timeout=10_000
    )


def test_auto_losing_on_real_answers_is_said_with_two_ways_out(make_window: Any, qtbot: Any) -> None:
    """Three answers below 1.0x under Auto's choice: the chat says so and offers off / re-measure.

    In the window the Auto tuner demotes a losing choice by itself
    (tests/gui/test_auto_background.py), so the notice stays hidden there; a chat controller
    without a tuner still says it."""
    w = make_window()
    chat = w.chat
    w.engine.info = ModelInfo(label="m", auto=AutoPick("draft 4/round"))
    slow = AnswerStats(completion_tokens=40, decode_tps=50.0, speculation="Auto: draft 4/round")
    info = w.engine.info
    assert chat.speeds.auto_demotes  # the window's tuner handles it
    for i in range(3):
        chat.speeds.note(100 + i, replace(slow, measured_tps=60.0), info)
    assert not w.chat_view.auto_notice.isVisible()
    chat._on_engine_loaded(ModelInfo())
    chat.speeds.auto_demotes = False  # no tuner: the notice
    for i, plain in enumerate((60.0, 55.0)):
        chat.speeds.note(i + 1, replace(slow, measured_tps=plain), info)
    assert not w.chat_view.auto_notice.isVisible()
    chat.speeds.note(3, replace(slow, baseline_tps=52.0), info)
    assert w.chat_view.auto_notice.isVisible()
    assert "Auto chose draft 4/round" in w.chat_view.auto_text.text()
    assert "3 of your last 3 answers" in w.chat_view.auto_text.text()
    with qtbot.waitSignal(chat.remeasureRequested, timeout=1000):
        w.chat_view.remeasure_btn.click()
    assert not w.chat_view.auto_notice.isVisible()
    # said once per load; a plain choice by Auto never warns
    chat.speeds.note(4, replace(slow, measured_tps=70.0), info)
    assert not w.chat_view.auto_notice.isVisible()
    chat._on_engine_loaded(ModelInfo())
    w.engine.info = ModelInfo(label="m", auto=AutoPick("off"))
    for i in range(5):
        chat.speeds.note(10 + i, replace(slow, measured_tps=70.0), w.engine.info)
    assert not w.chat_view.auto_notice.isVisible()
