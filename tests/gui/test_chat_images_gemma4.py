"""A picture dropped into the chat of the tiny Gemma 4 pair, end to end: the real
launch dialog over a user family whose local files are the tiny Gemma 4 target, its assistant and
its gemma4v projector, the real llama.cpp engine with MTP, and the answer about the picture with
its drafted tokens highlighted; the same picture without speculation gives the same answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QUrl

from app.devtools.images import write_image
from app.devtools.tiny_models import tiny_vision_family
from app.gui.style import DRAFT_HIGHLIGHT
from app.gui.views.launch_dialog import LaunchDialog

pytestmark = pytest.mark.usefixtures("real_models")

QUESTION = "What is in this picture?"


def register(w: Any, agree: bool) -> str:
    name = f"gemma-4-tiny-vision{'-agree' if agree else ''}"
    w.registry.register(tiny_vision_family(name, agree=agree))
    return name


def launch(w: Any, qtbot: Any, name: str, mtp: bool, max_tokens: int = 13) -> LaunchDialog:
    family, spec, quant = w.registry.match(name, "gguf", None, "F32")
    with qtbot.waitSignal(w.launchDialogOpened, timeout=5000) as opened:
        w.open_launch_dialog(family, spec, quant)
    dlg: LaunchDialog = opened.args[0]
    assert dlg.engine_name == "llama.cpp" and dlg.vision_note.isVisible()
    assert dlg.vision_note.text().startswith("Reads images with its projector.")
    dlg.auto_panel.switch.setChecked(False)  # a fixed choice, not Auto's measurement
    dlg.enable.setChecked(mtp)
    if mtp:
        dlg.depth_field.edit.setText("3")
    dlg.temperature.setValue(0.0)
    dlg.max_tokens.setValue(max_tokens)
    assert dlg.choice().speculation.enabled is mtp
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000):
        dlg.launch_button.click()
    return dlg


def drop_and_send(w: Any, qtbot: Any, picture: Path) -> Any:
    composer = w.chat_view.composer
    drop = QMimeData()
    drop.setUrls([QUrl.fromLocalFile(str(picture))])
    composer.input.insertFromMimeData(drop)  # what a drop on the box does
    assert len(composer.attachments) == 1 and not composer.notice.isVisible()
    with qtbot.waitSignal(w.chat.answerFinished, timeout=120_000) as blocker:
        composer.input.setPlainText(QUESTION)
        composer.button.click()
    return blocker.args[0]


def test_a_dropped_picture_is_answered_with_drafts_highlighted(
    make_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    w = make_window()
    name = register(w, agree=True)
    launch(w, qtbot, name, mtp=True)
    assert w.chat_view.composer.vision is True
    stats = drop_and_send(w, qtbot, write_image(tmp_path / "photo.png", (640, 480), "RGBA"))
    assert stats.images == 1 and stats.accepted > 0 and stats.drafted >= stats.accepted
    user, answer = w.chat_view.bubbles[-2], w.chat_view.bubbles[-1]
    assert len(user.images.thumbs) == 1 and user.text == QUESTION
    assert answer.spans and DRAFT_HIGHLIGHT in answer.body.text()
    assert answer.stats_strip.ttft.toolTip() == "Includes encoding the image"
    stored = w.store.messages(w.chat.conversation_id)[0]
    assert len(stored.images) == 1 and w.store.image_path(stored.images[0]).is_file()


def test_the_same_picture_gives_the_same_answer_with_and_without_speculation(
    make_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    """The random pair (drafts mostly rejected, so the target decides every token): greedy output
    with MTP on is the output with it off, picture included."""
    picture = write_image(tmp_path / "gray.png", (300, 200), "L")
    w = make_window()
    name = register(w, agree=False)
    texts = {}
    for mtp in (True, False):
        launch(w, qtbot, name, mtp=mtp, max_tokens=16)
        w.chat.open_conversation(None)
        stats = drop_and_send(w, qtbot, picture)
        assert stats.images == 1 and stats.completion_tokens == 16
        assert (stats.drafted > 0) is mtp
        texts[mtp] = w.chat_view.bubbles[-1].text
    assert texts[True] == texts[False]
