"""The speculation a start-up launch uses: Auto by default, Off when the user says so."""

from __future__ import annotations

from typing import Any

from app.core.settings import Settings


def test_first_start_uses_auto_and_the_setting_turns_it_off(make_window: Any) -> None:
    w = make_window()
    assert w.launcher.default_choice().auto is True
    off = make_window(settings=Settings(default_speculation="off"))
    assert off.launcher.default_choice().auto is False


def test_settings_dialog_edits_the_start_speculation(make_window: Any, qtbot: Any) -> None:
    w = make_window()
    dlg = w.open_settings()
    assert dlg.speculation.currentData() == "auto"
    assert dlg.speculation.itemText(0).startswith("Auto") and dlg.speculation.itemText(1) == "Off"
    assert "measures each model once" in dlg.speculation.toolTip()
    dlg.speculation.setCurrentIndex(dlg.speculation.findData("off"))
    with qtbot.waitSignal(dlg.accepted, timeout=5000):
        dlg._accept()
    assert w.settings.default_speculation == "off"
    assert w.launcher.default_choice().auto is False
