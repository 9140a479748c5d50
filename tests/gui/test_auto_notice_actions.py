"""The chat's "Auto loses here" notice acts: Switch off reloads plain, Re-measure forgets the
stored calibration and reloads so the load measures again."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.gui.engine import AutoPick, ModelInfo
from tests.gui.conftest import ScriptedEngine, scripted_loader


def test_switch_off_and_remeasure_reload_the_current_model(
    make_window: Any, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = make_window(loader=scripted_loader(ScriptedEngine()))
    launched: list[Any] = []
    monkeypatch.setattr(w.launcher, "start_load", launched.append)  # record what would be loaded
    # nothing loaded yet: both actions do nothing
    w.chat_view.auto_off_btn.click()
    w.chat_view.remeasure_btn.click()
    assert launched == []

    auto_choice = replace(w.launcher.default_choice(), auto=True)
    w.launcher.current = auto_choice
    w.chat_view.auto_off_btn.click()
    assert len(launched) == 1
    assert launched[0].auto is False and not launched[0].speculation.enabled
    assert launched[0].family is auto_choice.family and launched[0].quantization == auto_choice.quantization

    stored = tmp_path / "calibration.json"
    stored.write_text("{}", "utf-8")
    w.engine.info = ModelInfo(label="m", auto=AutoPick("draft 4/round", "", str(stored)))
    w.chat_view.remeasure_btn.click()
    assert not stored.exists()  # forgotten, so the reload measures again
    assert launched[-1] is auto_choice
