"""The message box grows with its text up to a third of the window's height, then scrolls; it
shrinks back when the text goes (a send empties it)."""

from __future__ import annotations

from typing import Any

from app.gui.views.chat.composer import MIN_INPUT_HEIGHT


def test_the_message_box_grows_to_a_third_of_the_window_then_scrolls(make_window: Any, qtbot: Any) -> None:
    w = make_window()
    w.resize(1366, 768)
    box = w.chat_view.composer.input
    qtbot.waitUntil(lambda: w.height() == 768 and box.isVisible())
    assert box.height() == MIN_INPUT_HEIGHT
    line = box.fontMetrics().lineSpacing()

    box.setPlainText("\n".join(f"line {i}" for i in range(6)))
    qtbot.waitUntil(lambda: box.height() > MIN_INPUT_HEIGHT and not box.verticalScrollBar().isVisible())
    assert 6 * line <= box.height() <= 8 * line  # the six lines, no more

    # a long line wraps: it counts as the lines it takes
    box.setPlainText("word " * 400)
    qtbot.waitUntil(lambda: box.height() > 6 * line)

    box.setPlainText("\n".join(f"line {i}" for i in range(80)))
    top = 768 // 3
    qtbot.waitUntil(lambda: box.height() == top)
    qtbot.waitUntil(lambda: box.verticalScrollBar().isVisible())

    # a taller window lets it grow further; a shorter one shrinks it
    w.resize(1366, 900)
    qtbot.waitUntil(lambda: box.height() == 900 // 3)
    w.resize(1366, 600)
    qtbot.waitUntil(lambda: box.height() == 600 // 3)

    w.chat_view.composer.clear_message()
    qtbot.waitUntil(lambda: box.height() == MIN_INPUT_HEIGHT)
