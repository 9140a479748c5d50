"""Images in the chat, the GUI layer over a scripted engine: attaching (button path,
paste, drop), refusals, storage, thumbnails and the viewer, edit / regenerate / delete.

The engines' own image paths are tested against real models in tests/integration; here the
engine is a layout fake that records what it was sent."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QMimeData, QUrl
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from app.core.engines.base import ChatMessage, Event, Sampling
from app.devtools.images import image_bytes, write_image
from app.gui.views.attachments import ImageViewer
from tests.gui.conftest import ScriptedEngine, scripted_loader


class SeeingEngine(ScriptedEngine):
    """A scripted engine that says it reads images and keeps the messages it was sent."""

    supports_images = True

    def __init__(self) -> None:
        super().__init__(text="A yellow circle on a gradient.")
        self.sent: list[list[ChatMessage]] = []

    def script(
        self, messages: Sequence[ChatMessage], sampling: Sampling, *a: Any, **k: Any
    ) -> Iterator[Event]:
        self.sent.append(list(messages))
        return super().script(messages, sampling, *a, **k)


def _load(w: Any, qtbot: Any) -> None:
    with qtbot.waitSignal(w.modelLoaded, timeout=10_000):
        w.load_default_model()


def test_attach_send_show_enlarge_edit_regenerate_delete(
    make_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    engine = SeeingEngine()
    w = make_window(loader=scripted_loader(engine))
    _load(w, qtbot)
    composer = w.chat_view.composer
    assert composer.attach_btn.isVisible() and composer.attach_btn.toolTip()
    rgba = write_image(tmp_path / "rgba.png", (80, 60), "RGBA")
    gray = write_image(tmp_path / "gray.png", (60, 80), "L")
    photo = write_image(tmp_path / "photo.jpg", (4000, 3000), "RGB", "JPEG")
    # the attach button's path (the file dialog hands over these names)
    composer.add_images([rgba, gray])
    # a drop of a file from a file manager and a pasted screenshot both end up as attachments
    drop = QMimeData()
    drop.setUrls([QUrl.fromLocalFile(str(photo))])
    assert composer.input.canInsertFromMimeData(drop)
    composer.input.insertFromMimeData(drop)
    paste = QMimeData()
    paste.setImageData(QImage.fromData(image_bytes((30, 20))))
    composer.input.insertFromMimeData(paste)
    assert len(composer.attachments) == 4 and len(composer.thumbs.thumbs) == 4
    assert not composer.notice.isVisible()
    composer.remove_attachment(3)  # the × on the pasted one
    assert len(composer.attachments) == 3 and composer.input.toPlainText() == ""

    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000) as blocker:
        composer.input.setPlainText("What is in these pictures?")
        composer.button.click()
    assert blocker.args[0].images == 3
    strip = w.chat_view.bubbles[-1].stats_strip
    assert strip.ttft.toolTip() == "Includes encoding the 3 images"
    assert composer.attachments == [] and not composer.thumbs.isVisible()
    msgs = w.store.messages(w.chat.conversation_id)
    user = msgs[0]
    assert user.content == "What is in these pictures?" and len(user.images) == 3
    files = [w.store.image_path(n) for n in user.images]
    assert [f.read_bytes() for f in files] == [rgba.read_bytes(), gray.read_bytes(), photo.read_bytes()]
    sent = engine.sent[-1][-1]
    assert sent["role"] == "user" and sent["images"] == [str(f) for f in files]

    # thumbnails in the message; a click opens the viewer with the image's real size
    bubble = w.chat_view.bubble(user.id)
    assert bubble is not None and len(bubble.images.thumbs) == 3 and bubble.images.isVisible()
    bubble.images.thumbs[2].click()
    viewer = next(d for d in QApplication.topLevelWidgets() if isinstance(d, ImageViewer) and d.isVisible())
    assert "4000 × 3000" in viewer.facts.text()
    viewer.close()

    # Regenerate keeps the images in the prompt
    answer_id = msgs[1].id
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000):
        w.chat.regenerate(answer_id)
    assert engine.sent[-1][-1]["images"] == [str(f) for f in files]

    # Edit puts text and images back into the box; sending replaces the message with them
    w.chat.edit(user.id)
    assert composer.input.toPlainText() == "What is in these pictures?" and len(composer.attachments) == 3
    composer.remove_attachment(0)
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000):
        composer.button.click()
    edited = w.store.messages(w.chat.conversation_id)[0]
    assert edited.images == user.images[1:]

    # a reopened conversation shows the thumbnails again
    cid = w.chat.conversation_id
    w.chat.open_conversation(None)
    w.chat.open_conversation(cid)
    again = w.chat_view.bubble(edited.id)
    assert again is not None and len(again.images.thumbs) == 2

    # deleting the conversation deletes its image files
    w.store.delete_conversation(cid)
    assert not any(f.exists() for f in files)


def test_refused_images_say_why_and_store_nothing(make_window: Any, qtbot: Any, tmp_path: Path) -> None:
    w = make_window(loader=scripted_loader(SeeingEngine()))
    _load(w, qtbot)
    composer = w.chat_view.composer
    svg = tmp_path / "logo.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>')
    corrupt = tmp_path / "broken.png"
    corrupt.write_bytes(image_bytes((64, 64))[:120])
    huge = tmp_path / "huge.png"
    with huge.open("wb") as f:
        f.write(image_bytes((16, 16)))
        f.truncate(50 * 1024 * 1024)
    composer.add_images([svg, corrupt, huge])
    assert composer.attachments == [] and composer.notice.isVisible()
    lines = composer.notice.text().split("\n")
    assert len(lines) == 3
    assert lines[0].startswith("logo.svg: SVG drawings are not supported")
    assert lines[1].startswith("broken.png: the image is damaged")
    assert lines[2].startswith("huge.png: the image is 52.4 MB; the limit is 20 MB")
    assert w.store.images.names() == set() and w.store.conversations() == []
    # nine at once: eight attached, the ninth named
    many = [write_image(tmp_path / f"p{i}.png", (20 + i, 20)) for i in range(9)]
    composer.add_images(many)
    assert len(composer.attachments) == 8 and "At most 8 images" in composer.notice.text()


def test_a_model_that_cannot_see_says_so_before_sending(make_window: Any, qtbot: Any, tmp_path: Path) -> None:
    engine = ScriptedEngine()  # text only
    w = make_window(loader=scripted_loader(engine))
    _load(w, qtbot)
    composer = w.chat_view.composer
    composer.add_images([write_image(tmp_path / "a.png")])
    # said as soon as the image is attached ...
    assert composer.notice.isVisible() and "cannot read images" in composer.notice.text()
    composer.input.setPlainText("describe it")
    with qtbot.waitSignal(w.errors.raised, timeout=5_000) as blocker:
        composer.button.click()
    # ... and again on send: nothing stored, nothing sent, the box keeps the message
    assert "cannot read images" in str(blocker.args)
    assert w.store.conversations() == [] and w.store.images.names() == set()
    assert composer.input.toPlainText() == "describe it" and len(composer.attachments) == 1
