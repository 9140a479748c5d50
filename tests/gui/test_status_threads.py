"""The status bar says how many CPU threads the loaded model's llama.cpp processes compute with, and
why (a real window on the real embedded model)."""

from __future__ import annotations

from typing import Any

import pytest

from app.core.engines import threads


@pytest.mark.usefixtures("smollm2_q4")
def test_the_engine_label_says_the_models_threads(make_window: Any, qtbot: Any) -> None:
    w = make_window()
    with qtbot.waitSignal(w.engine.loaded, timeout=120_000):
        w.load_default_model()
    engine = w.engine.current_engine
    qtbot.waitUntil(lambda: "CPU threads" in w.status_engine.toolTip(), timeout=10_000)
    tip = w.status_engine.toolTip()
    assert f"{engine.n_threads} threads" in tip
    assert engine.thread_choice.math_cores == threads.math_cores(threads.machine_layout())
    assert "launch dialog wins" in tip
