"""The speedup figure: plain answers record a baseline, speculative ones are compared with it.

The engine is scripted (the real chat turn is covered in test_chat.py); everything else is real:
the launch choice goes through make_job (the target file is resolved, the baseline key computed on
the engine thread), the controller and the BaselineStore in TANDEM_HOME.
"""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QLabel

from app.core.chat import AnswerStats
from app.core.measure.baselines import BaselineStore
from app.core.speculative import SpeculationOptions
from app.gui.engine import ModelInfo
from app.gui.views.launch_dialog import LaunchChoice
from app.gui.views.stats import StatsDialog, StatsStrip
from tests.gui.conftest import ScriptedEngine

PLAIN_MS = 200.0  # the scripted answer is 20 tokens: 100 tok/s plain
SPEC_MS = 75.0  # 266.7 tok/s speculative: 2.67x


def loader(_engine: str, req: Any, progress: Any) -> ScriptedEngine:
    progress("loading scripted engine")
    plain = not req.speculation.enabled
    return ScriptedEngine(plain=plain, decode_ms=PLAIN_MS if plain else SPEC_MS)


def load(w: Any, qtbot: Any, speculative: bool) -> ModelInfo:
    family, spec, _q = w.registry.match("smollm2-135m-instruct", "gguf", None, "F32")
    options = (
        SpeculationOptions.build(enabled=True, method="draft", draft_quantization="Q4_1")
        if speculative
        else SpeculationOptions()
    )
    choice = LaunchChoice(family, spec, "F32", "llama.cpp", options, 2048, None, w.chat.sampling)
    with qtbot.waitSignal(w.modelLoaded, timeout=30_000) as blocker:
        w.start_load(choice)
    info: ModelInfo = blocker.args[0]
    return info


def answer(w: Any, qtbot: Any, text: str) -> AnswerStats:
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000) as blocker:
        w.chat.send(text)
    stats: AnswerStats = blocker.args[0]
    return stats


def details(w: Any, qtbot: Any, strip: StatsStrip) -> list[str]:
    qtbot.mouseClick(strip, Qt.MouseButton.LeftButton)
    dialogs = [d for d in w.findChildren(StatsDialog) if d.isVisible()]
    assert len(dialogs) == 1
    texts = [label.text() for label in dialogs[0].findChildren(QLabel)]
    dialogs[0].close()  # deletes itself (WA_DeleteOnClose)
    return texts


def assert_not_clipped(strip: StatsStrip) -> None:
    """Every shown figure at its full width, inside the strip, clear of the chart."""
    box = strip.rect()
    chart = strip.chart.geometry() if strip.chart.isVisible() else None
    for label in (strip.tps, strip.ttft, strip.rounds, strip.acceptance, strip.mean_len, strip.speedup):
        if not label.isVisible():
            continue
        assert label.width() >= label.sizeHint().width(), (label.text(), label.width())
        rect = label.geometry().translated(label.parentWidget().mapTo(strip, QPoint(0, 0)))
        assert box.contains(rect), (label.text(), rect, box)
        assert chart is None or not rect.intersects(chart), (label.text(), rect, chart)
    bubble = strip.parentWidget()
    assert strip.geometry().right() <= bubble.contentsRect().right()


@pytest.mark.usefixtures("smollm2_f32")
def test_plain_answer_records_baseline_and_speculative_answer_shows_speedup(
    make_window: Any, qtbot: Any
) -> None:
    w = make_window(loader=loader)
    info = load(w, qtbot, speculative=False)
    key = info.baseline_key
    assert key.startswith("llama.cpp|SmolLM2-135M-Instruct.F32.gguf|")
    plain = answer(w, qtbot, "plain please")
    assert not plain.speculation and plain.baseline_tps is None
    assert not w.chat_view.bubbles[-1].stats_strip.speedup.isVisible()  # nothing extra for plain
    baseline = BaselineStore().get(key)  # the real file in TANDEM_HOME
    assert baseline is not None and baseline.samples == 1
    assert baseline.tokens_per_second == pytest.approx(100.0)

    assert load(w, qtbot, speculative=True).baseline_key == key  # same file, engine, threads
    spec = answer(w, qtbot, "now faster")
    assert spec.baseline_tps == pytest.approx(100.0) and spec.baseline_samples == 1
    assert spec.speedup == pytest.approx(20 / 0.075 / 100.0)
    strip = w.chat_view.bubbles[-1].stats_strip
    assert strip.speedup.isVisible() and strip.speedup.text() == "2.67× vs plain"
    assert strip.speedup.property("verdict") == "faster"
    assert "100.0 tok/s" in strip.speedup.toolTip() and "tandem bench" in strip.speedup.toolTip()
    assert BaselineStore().get(key).samples == 1  # type: ignore[union-attr]  # spec answers don't record
    # persisted with the message, so a reopened conversation shows the same figure
    stored = w.store.messages(w.chat.conversation_id)[-1].stats
    assert stored.baseline_tps == pytest.approx(100.0) and stored.speedup == pytest.approx(spec.speedup)
    texts = details(w, qtbot, strip)
    assert {"Plain decode speed", "100.00 tok/s", "Plain answers measured", "2.67×"} <= set(texts)
    assert_not_clipped(strip)

    w.set_language("ja")
    assert strip.speedup.text() == "通常比 2.67×"
    qtbot.waitUntil(lambda: assert_not_clipped(strip), timeout=2000)  # after the relayout
    assert any("2.67×" in t for t in details(w, qtbot, strip))


@pytest.mark.usefixtures("smollm2_f32")
def test_speculative_answer_without_baseline_says_not_measured(make_window: Any, qtbot: Any) -> None:
    w = make_window(loader=loader)
    load(w, qtbot, speculative=True)
    stats = answer(w, qtbot, "no baseline yet")
    assert stats.baseline_tps is None and stats.speedup is None
    strip = w.chat_view.bubbles[-1].stats_strip
    assert strip.speedup.isVisible() and strip.speedup.text() == "speedup: not measured"
    assert strip.speedup.property("verdict") == "unknown"
    assert "Measure" in strip.speedup.toolTip() and strip.measure_btn.isVisible()
    assert details(w, qtbot, strip).count("not measured") == 2
    assert_not_clipped(strip)
    w.set_language("zh_CN")
    assert strip.speedup.text() == "加速比：未测量"  # the translation, not just "not the English"
    qtbot.waitUntil(lambda: assert_not_clipped(strip), timeout=2000)  # after the relayout


def test_slower_speculation_is_flagged(qtbot: Any) -> None:
    strip = StatsStrip()
    qtbot.addWidget(strip)
    base = {"speculation": "draft Q4_1", "decode_tps": 40.0, "completion_tokens": 50, "drafted": 8}
    strip.set_stats(AnswerStats(**base, baseline_tps=50.0, baseline_samples=3))  # type: ignore[arg-type]
    assert strip.speedup.text() == "0.80× vs plain" and strip.speedup.property("verdict") == "slower"
    assert "slower than plain decoding" in strip.speedup.toolTip()
    strip.set_stats(AnswerStats(**base, baseline_tps=60.0, baseline_samples=3))  # type: ignore[arg-type]
    assert strip.speedup.property("verdict") == "much-slower"
    strip.set_stats(AnswerStats(**base, baseline_tps=40.5, baseline_samples=3))  # type: ignore[arg-type]
    assert strip.speedup.property("verdict") == "even"
    assert "slower" not in strip.speedup.toolTip()
    stopped = {**base, "finish_reason": "cancelled"}
    strip.set_stats(AnswerStats(**stopped))  # type: ignore[arg-type]
    assert strip.speedup.isHidden()  # a stopped answer is not compared
