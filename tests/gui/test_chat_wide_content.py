"""Nothing in a message widens the conversation past the view.

A code block with a 300-character line scrolls sideways inside its own block (scrollbar, sideways
swipe, Shift and the wheel), and the user's message above it stays whole, while the answer streams,
when it has ended and when the conversation is opened again from the chat store. A long URL in
prose wraps (and copies without the break points that let it wrap); a wide table and a wide
formula scroll inside their blocks. Real widgets and real rendering (Markdown, Pygments,
matplotlib's formulas); the engine is a scripted stand-in that streams a fixed answer."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QContextMenuEvent, QGuiApplication, QTextDocument, QWheelEvent
from PySide6.QtWidgets import QApplication, QMenu, QWidget

from app.core.chat import ChatStore, render_markdown
from app.core.chat.render.blocks import BREAK, split_blocks, with_break_points
from app.gui.views.chat import ChatView, MessageBubble
from app.gui.views.chat.rich_text import SideScroll
from tests.gui.conftest import ScriptedEngine, scripted_loader
from tests.gui.test_chat import load_default

#: one line of code of 300 characters, most of it one string without a space (a URL)
LONG_LINE = (
    'SEARCH_URL = "https://api.example.org/v2/search?query=speculative%20decoding&page=2&per_page=50'
    "&sort=updated&order=desc&fields=name,description,stars,forks,license,topics&lang=python"
    "&since=2024-01-01T00:00:00Z&until=2024-12-31T23:59:59Z&include_archived=false&min_stars=100"
    '&token=3f9a1c27e4b8d6f05a9"'
)
QUESTION = "Can you give me the search URL with all my parameters as one Python constant? I want to paste it."
ANSWER = (
    f"Here is the whole URL as one constant:\n\n```python\n{LONG_LINE}\n"
    "print( SEARCH_URL , len( SEARCH_URL ) )\n```\n\n"
    "Every parameter is in the query string; `token` is the key you were given."
)
LONG_URL = "https://example.org/" + "a1b2c3d4e5" * 25
WIDE = (
    f"A long link: {LONG_URL} and more words after it.\n\n"
    + "| "
    + " | ".join(f"column {i}" for i in range(24))
    + " |\n|"
    + "---|" * 24
    + "\n| "
    + " | ".join(f"value {i}" for i in range(24))
    + " |\n\n$$"
    + " + ".join(f"\\frac{{a_{{{i}}}}}{{b_{{{i}}}}}" for i in range(40))
    + "$$\n\nThe end."
)


def test_the_line_is_300_characters() -> None:
    assert len(LONG_LINE) == 300


def blocks_of(bubble: MessageBubble) -> list[SideScroll]:
    """The shown blocks of a bubble's text, in order (frozen parts of a streamed answer first)."""
    texts = [*bubble._frozen, bubble.body]
    return [b for t in texts if t.isVisibleTo(bubble) for b in t.blocks if b.isVisibleTo(bubble)]


def right_edge(widget: QWidget, view: ChatView) -> int:
    return widget.mapTo(view.scroller.viewport(), QPoint(widget.width(), 0)).x()


def assert_fits(view: ChatView) -> None:
    """The column is no wider than the view; each bubble, and each block of text in it, ends
    inside the view; each block's label is as wide as its block or scrolls inside it."""
    viewport = view.scroller.viewport()
    assert view.column.width() <= viewport.width(), (view.column.width(), viewport.width())
    assert view.column.minimumSizeHint().width() <= viewport.width()
    for bubble in view.bubbles:
        assert right_edge(bubble, view) <= viewport.width()
        for block in blocks_of(bubble):
            assert right_edge(block, view) <= right_edge(bubble, view)
            label = block.label
            if block.bar.isVisibleTo(block):
                assert label.width() > block.width()
                assert block.bar.maximum() == label.width() - block.width()
            else:
                assert label.width() == block.width()
                assert label.height() >= label.heightForWidth(label.width()) or block.kind == "code"


def assert_whole(bubble: MessageBubble) -> None:
    """Every line of the message is shown at the bubble's width: nothing scrolls, nothing is cut."""
    for block in blocks_of(bubble):
        assert not block.bar.isVisibleTo(block)
        assert block.label.x() == 0 and block.label.width() == block.width()
        assert block.label.height() >= block.label.heightForWidth(block.width())


def code_block(bubble: MessageBubble) -> SideScroll:
    blocks = [b for b in blocks_of(bubble) if b.kind == "code"]
    assert len(blocks) == 1, [b.kind for b in blocks_of(bubble)]
    return blocks[0]


def wheel(
    widget: QWidget, dx: int, dy: int, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
) -> None:
    at = QPointF(10, 5)
    event = QWheelEvent(
        at,
        QPointF(widget.mapToGlobal(at.toPoint())),
        QPoint(0, 0),
        QPoint(dx, dy),
        Qt.MouseButton.NoButton,
        modifiers,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, event)


def assert_code_scrolls_to_its_end(block: SideScroll) -> None:
    """The long line is laid out whole in its block and every part of it can be brought into
    view: by the scrollbar, a sideways swipe, or Shift and the wheel; the wheel alone leaves it."""
    label, bar = block.label, block.bar
    assert block.kind == "code" and bar.isVisibleTo(block)
    assert label.width() == label.natural_size().width() > block.width()
    assert label.fontMetrics().horizontalAdvance(LONG_LINE) < label.width()  # one line, not wrapped
    bar.setValue(0)
    wheel(label, 0, -120)  # the wheel alone scrolls the conversation, not the block
    assert bar.value() == 0
    wheel(label, -120, 0)  # a sideways swipe
    assert bar.value() > 0
    moved = bar.value()
    wheel(label, 0, -120, Qt.KeyboardModifier.ShiftModifier)
    assert bar.value() > moved
    bar.setValue(bar.maximum())  # the end of the line is in view
    assert label.x() + label.width() == block.width()
    bar.setValue(0)
    assert label.x() == 0


def test_a_300_character_code_line_scrolls_inside_its_block_while_streaming_and_after(
    make_window: Any, qtbot: Any
) -> None:
    words = ANSWER.split(" ")
    # the engine sends four words at a time: hold it once the long line is shown, with its
    # fence still open (the block being written)
    hold = next(i for i in range(0, len(words), 4) if LONG_LINE in " ".join(words[:i]))
    assert "```\n\n" not in " ".join(words[:hold])
    reached, release = threading.Event(), threading.Event()

    def gate(i: int) -> None:
        if i == hold:
            reached.set()
            release.wait(10)

    w = make_window(loader=scripted_loader(ScriptedEngine(ANSWER, gate=gate, plain=True)))
    w.resize(1366, 768)  # a laptop's screen
    load_default(w, qtbot, 10_000)
    w.new_chat()
    view: ChatView = w.chat_view
    w.chat.send(QUESTION)
    try:
        qtbot.waitUntil(lambda: reached.is_set() and LONG_LINE in view.bubbles[-1].text, timeout=10_000)
        qtbot.waitUntil(lambda: "&amp;token=3f9a1c27e4b8d6f05a9" in code_block(view.bubbles[-1]).markup)
        view.settle()
        user, answer = view.bubbles
        assert answer.status == "streaming"
        assert_fits(view)
        assert_whole(user)
        assert_code_scrolls_to_its_end(code_block(answer))
    finally:
        release.set()
    qtbot.waitUntil(lambda: view.composer.button.text() == "Send", timeout=10_000)
    view.settle()
    user, answer = view.bubbles
    assert answer.text == ANSWER and answer.status == "complete"
    assert_fits(view)
    assert_whole(user)
    assert_code_scrolls_to_its_end(code_block(answer))

    # opened again from the chat store: the same
    conversation = w.chat.conversation_id
    w.chat.open_conversation(None)
    w.chat.open_conversation(conversation)
    qtbot.waitUntil(lambda: len(view.bubbles) == 2 and view.bubbles[-1].isVisible(), timeout=5_000)
    view.settle()
    assert_fits(view)
    assert_whole(view.bubbles[0])
    assert_code_scrolls_to_its_end(code_block(view.bubbles[1]))

    # a narrower window: still inside
    w.resize(900, 700)
    qtbot.waitUntil(lambda: view.scroller.viewport().width() < 700, timeout=5_000)
    view.settle()
    assert_fits(view)
    assert_whole(view.bubbles[0])


# the label's menu pops up on the offscreen platform, which says what it cannot do
@pytest.mark.qt_log_ignore(r"This plugin does not support (raise\(\)|grabbing the keyboard)")
def test_a_long_url_wraps_and_a_wide_table_and_formula_scroll_in_a_stored_conversation(
    make_window: Any, qtbot: Any
) -> None:
    store = ChatStore()
    conversation = store.create_conversation("Wide things")
    store.add_message(conversation.id, "user", f"What is at {LONG_URL} ?")
    store.add_message(conversation.id, "assistant", WIDE)
    store.close()
    w = make_window(loader=scripted_loader(ScriptedEngine()))
    w.resize(1366, 768)
    view: ChatView = w.chat_view
    w.chat.open_conversation(conversation.id)
    qtbot.waitUntil(lambda: len(view.bubbles) == 2 and view.bubbles[-1].isVisible(), timeout=5_000)
    view.settle()
    assert_fits(view)
    user, answer = view.bubbles
    assert_whole(user)  # the user's URL wraps: the whole message is in view
    kinds = [b.kind for b in blocks_of(answer)]
    assert kinds == ["prose", "wide", "wide", "prose"], kinds
    link, table, formula, _end = blocks_of(answer)
    line = link.label.fontMetrics().lineSpacing()
    assert not link.bar.isVisibleTo(link) and link.label.height() >= 3 * line  # wrapped
    for wide in (table, formula):  # wider than the view: each scrolls in its own block
        assert wide.bar.isVisibleTo(wide)
        wide.bar.setValue(wide.bar.maximum())
        assert wide.label.x() + wide.label.width() == wide.width()
    assert "<img" in formula.markup and "<table" in table.markup

    # a copy of the wrapped URL is the URL the model wrote, without the break points
    label = link.label
    assert label.has_breaks and BREAK in label.text()
    shown = QTextDocument()
    shown.setHtml(label.text())
    label.setSelection(0, shown.characterCount() - 1)
    QGuiApplication.clipboard().clear()
    qtbot.keyClick(label, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    copied = QGuiApplication.clipboard().text()
    assert LONG_URL in copied and BREAK not in copied
    mime = QGuiApplication.clipboard().mimeData()
    assert mime is not None and BREAK not in mime.html()
    # the same through the label's menu (QLabel's own, its Copy followed by the clean-up)
    at = QPoint(5, 5)
    QApplication.sendEvent(
        label, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, at, label.mapToGlobal(at))
    )
    menu = next(m for m in label.findChildren(QMenu) if m.isVisible())
    copy = next(a for a in menu.actions() if a.objectName() == "edit-copy")
    QGuiApplication.clipboard().clear()
    copy.trigger()
    menu.close()
    copied = QGuiApplication.clipboard().text()
    assert LONG_URL in copied and BREAK not in copied


def test_blocks_join_to_the_render_and_break_points_only_go_into_long_runs() -> None:
    markup = render_markdown(
        "Intro.\n\n```python\nx = 1\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n$$\\frac{1}{2}$$\n\n"
        "- item\n\n  ```\n  nested\n  ```\n\n> quoted\n\nEnd."
    )
    parts = split_blocks(markup)
    assert "".join(text for _kind, text in parts) == markup
    assert [kind for kind, _text in parts] == ["prose", "code", "wide", "wide", "prose"]
    assert with_break_points(markup) == markup  # no run long enough: the same text
    cjk = render_markdown("这是一个很长的中文段落，用来检查换行。" * 10 + "日本語の文です。" * 10)
    assert with_break_points(cjk) == cjk  # CJK text breaks anywhere already
    # a run across drafted spans (one URL in pieces) gets break points all the same
    drafted = render_markdown(
        f"See {LONG_URL}.", [(4 + i, 4 + i + 6) for i in range(0, 200, 9)], highlight="#ff0"
    )
    broken = with_break_points(drafted)
    assert broken.replace(BREAK, "") == drafted and broken.count(BREAK) >= len(LONG_URL) // 20
