"""The launch dialog and chat with a Gemma 4 spec whose files are the tiny pair.

A user family registered with a ``local`` source (target path + drafter path) is launched through
the real launch dialog on the real llama.cpp engine: the Speculative Decoding panel appears, the
switch reads "Enable MTP", the model loads with DRAFT_MTP and the chat shows the rounds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.devtools.tiny_models import tiny_pair
from app.gui.views.launch_dialog import LaunchDialog

pytestmark = pytest.mark.usefixtures("real_models")


def register_tiny_gemma4(w: Any, agree: bool) -> None:
    target, assistant = tiny_pair(agree=agree)
    w.registry.register(
        {
            "name": "gemma-4-tiny",
            "description": "tiny random-weight Gemma 4 with its assistant (test asset)",
            "context_length": 2048,
            "architectures": ["Gemma4ForConditionalGeneration"],
            "specs": [
                {
                    "format": "gguf",
                    "size_in_billions": 0.001,
                    "quantizations": ["F32"],
                    "model_file_name_template": target.name,
                    "sources": {"local": {"path": str(target), "draft_path": str(assistant)}},
                }
            ],
        }
    )


def open_dialog(w: Any, qtbot: Any) -> LaunchDialog:
    family, spec, quant = w.registry.match("gemma-4-tiny", "gguf", None, "F32")
    with qtbot.waitSignal(w.launchDialogOpened, timeout=5000) as opened:
        w.open_launch_dialog(family, spec, quant)
    dlg: LaunchDialog = opened.args[0]
    return dlg


def test_tiny_gemma4_pair_launches_with_mtp_and_the_chat_shows_rounds(make_window: Any, qtbot: Any) -> None:
    w = make_window()
    register_tiny_gemma4(w, agree=True)
    dlg = open_dialog(w, qtbot)
    assert dlg.engine_name == "llama.cpp"
    assert dlg.is_panel_visible()
    assert dlg.enable.text() == "Enable MTP"
    dlg.enable.setChecked(True)
    dlg.depth_field.edit.setText("3")
    dlg.temperature.setValue(0.0)
    dlg.max_tokens.setValue(17)
    choice = dlg.choice()
    assert choice.downloads == []  # local files: nothing to fetch
    assert (choice.speculation.enabled, choice.speculation.method) == (True, "mtp")
    assert dlg.launch_button.isEnabled()
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000):
        dlg.launch_button.click()
    assert "llama.cpp" in w.status_engine.text()
    with qtbot.waitSignal(w.chat.answerFinished, timeout=120_000) as blocker:
        w.chat.send("Hello")
    stats = blocker.args[0]
    # the agreeing pair: 1 token from the prompt pass, then rounds of 3 accepted drafts + 1 token
    assert stats.completion_tokens == 17
    assert (stats.drafted, stats.accepted) == (12, 12)
    assert stats.rounds == 5
    bubble = w.chat_view.bubbles[-1]
    assert bubble.role == "assistant" and bubble.text == "a" * 17
    strip = bubble.stats_strip
    assert strip.isVisible() and "accepted" in strip.acceptance.text()
    assert strip.chart.isVisible() and len(strip.chart.rounds) == stats.rounds
    assert "5" in strip.rounds.text() and "100%" in strip.acceptance.text()


def test_dialog_with_the_random_pair_runs_mtp_and_drafts(make_window: Any, qtbot: Any) -> None:
    w = make_window()
    register_tiny_gemma4(w, agree=False)
    dlg = open_dialog(w, qtbot)
    assert dlg.is_panel_visible() and dlg.enable.text() == "Enable MTP"
    dlg.enable.setChecked(True)
    dlg.temperature.setValue(0.0)
    dlg.max_tokens.setValue(12)
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000):
        dlg.launch_button.click()
    with qtbot.waitSignal(w.chat.answerFinished, timeout=120_000) as blocker:
        w.chat.send("Hi")
    stats = blocker.args[0]
    assert stats.completion_tokens == 12 and stats.drafted > 0
    assert 0 <= stats.accepted <= stats.drafted


def test_registered_pair_paths_are_the_built_files(make_window: Any) -> None:
    w = make_window()
    register_tiny_gemma4(w, agree=False)
    _family, spec, _quant = w.registry.match("gemma-4-tiny", "gguf", None, "F32")
    local = spec.sources.local
    assert local is not None and local.draft_path is not None
    assert Path(local.path).is_file() and Path(local.draft_path).is_file()
