"""A long conversation opens with its newest messages built at once and the earlier ones
built above them a batch per event-loop turn (or at once where the reader scrolls up), without
moving what the reader looks at; the bubble actions, the highlight toggle and the language switch
work on built and not-yet-built messages; opening another conversation stops the build."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint
from PySide6.QtGui import QGuiApplication

from app.core.chat import ChatStore
from app.gui.style import DRAFT_HIGHLIGHT
from app.gui.views.chat import ChatView, MessageBubble
from app.gui.views.chat import view as chat_view
from tests.gui.conftest import ScriptedEngine, scripted_loader
from tests.gui.test_chat import load_default

ANSWER = "A scripted answer with **bold** text."
LONG = (
    "## Plan {i}\n\nHere is the function:\n\n```python\ndef square(x):\n    return x * x\n\n\n"
    "print(square({i}))\n```\n\nSteps:\n\n1. read the number\n2. square it\n\n"
    "| name | size |\n|------|------|\n| 小 | 1 |\n| 大 | 2 |\n\n"
    "这是一个很长的中文段落，用来检查懒加载。日本語の文です。한국어 문단입니다.\n\n"
)


def long_text(i: int) -> str:
    return LONG.format(i=i) + " ".join(f"w{j}" for j in range(600))


def spans_every(text: str, step: int = 40) -> list[tuple[int, int]]:
    return [(a, min(a + 12, len(text))) for a in range(0, len(text), step)]


def make_long_conversation(store: ChatStore, title: str = "A long one") -> tuple[int, list[int]]:
    """200 messages, user and assistant in turn; a quarter long (code, a list, a table, CJK text);
    every long answer and every third short one with draft spans."""
    conv = store.create_conversation(title)
    ids = []
    for i in range(200):
        role = "user" if i % 2 == 0 else "assistant"
        text = f"Question {i}?" if role == "user" else f"Answer {i}."
        if i % 4 == 1:
            text = long_text(i)
        spans = spans_every(text) if role == "assistant" and (i % 4 == 1 or i % 3 == 0) else None
        ids.append(store.add_message(conv.id, role, text, draft_spans=spans).id)
    return conv.id, ids


def window_with_conversation(make_window: Any) -> tuple[Any, int, list[int]]:
    store = ChatStore()
    cid, ids = make_long_conversation(store)
    store.close()
    w = make_window(loader=scripted_loader(ScriptedEngine(ANSWER, plain=True)))
    w.chat.open_conversation(None)
    return w, cid, ids


def all_built(view: ChatView, qtbot: Any) -> None:
    qtbot.waitUntil(lambda: view.pending_messages() == 0, timeout=30_000)


def idle(view: ChatView) -> bool:
    timers = (view._build_timer, view._settle_timer, view._reap_timer)
    return not any(t.isActive() for t in timers) and not view._doomed


def highlighted(b: MessageBubble) -> bool:
    return DRAFT_HIGHLIGHT in b.rendered_html()


def test_the_end_shows_at_once_and_everything_eventually_in_order_with_its_drafts(
    make_window: Any, qtbot: Any
) -> None:
    w, cid, ids = window_with_conversation(make_window)
    view: ChatView = w.chat_view
    w.chat.open_conversation(cid)
    # at once: the newest messages (about a screenful), in order, ending with the last answer
    eager = [b.message_id for b in view.bubbles]
    assert eager and eager == ids[-len(eager) :] and len(eager) <= chat_view.EAGER_MESSAGES
    assert view.pending_messages() == 200 - len(eager)
    assert view.bubbles[-1].regen_btn.isVisibleTo(view.bubbles[-1])
    all_built(view, qtbot)
    assert [b.message_id for b in view.bubbles] == ids
    box = view._box_layout
    assert [box.itemAt(i).widget() for i in range(box.count())] == view.bubbles  # shown in order too
    messages = w.store.messages(cid)
    for b, m in zip(view.bubbles, messages, strict=True):
        assert b.text == m.content
        assert highlighted(b) == bool(m.draft_spans)
    assert sum(highlighted(b) for b in view.bubbles) > 50
    assert [b.regen_btn.isVisibleTo(b) for b in view.bubbles].count(True) == 1  # the last answer's
    bar = view.scroller.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.value() == bar.maximum(), timeout=5000)  # still at the end
    qtbot.waitUntil(lambda: idle(view), timeout=5000)


def test_scrolling_up_builds_earlier_messages_without_moving_the_view(make_window: Any, qtbot: Any) -> None:
    w, cid, ids = window_with_conversation(make_window)
    view: ChatView = w.chat_view
    w.chat.open_conversation(cid)
    view._build_timer.stop()  # only the reader's scrolling builds now
    bar = view.scroller.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum(), timeout=5000)
    for _ in range(3):
        pending = view.pending_messages()
        anchor = view.bubbles[0]  # the oldest built message, at the top of the view
        bar.setValue(0)  # the reader reaches the top of what is built: the next batch comes at once
        assert view.pending_messages() < pending
        seen = anchor.mapTo(view.scroller.viewport(), QPoint(0, 0)).y()  # (not laid out again yet)
        height = view.column.height()
        qtbot.waitUntil(lambda h=height: view.column.height() > h, timeout=5000)
        qtbot.wait(50)  # the batch is laid out above: what the reader saw did not move
        assert anchor.mapTo(view.scroller.viewport(), QPoint(0, 0)).y() == seen
        assert bar.value() > 0
        assert [b.message_id for b in view.bubbles] == ids[-len(view.bubbles) :]
    view._build_timer.start()
    all_built(view, qtbot)
    assert [b.message_id for b in view.bubbles] == ids
    qtbot.waitUntil(lambda: idle(view), timeout=5000)


def test_another_conversation_mid_build_leaves_nothing_behind(make_window: Any, qtbot: Any) -> None:
    w, cid, _ids = window_with_conversation(make_window)
    other, other_ids = make_long_conversation(w.store, "Another long one")
    view: ChatView = w.chat_view
    w.chat.open_conversation(cid)
    qtbot.waitUntil(lambda: len(view.bubbles) > 40, timeout=10_000)
    assert view.pending_messages() > 0
    w.chat.open_conversation(other)
    all_built(view, qtbot)
    assert [b.message_id for b in view.bubbles] == other_ids  # none of the first one's
    w.chat.open_conversation(cid)
    w.chat.open_conversation(None)
    assert view.bubbles == [] and view.pending_messages() == 0 and not view._build_timer.isActive()
    box = view.messages_box
    qtbot.waitUntil(lambda: idle(view), timeout=10_000)  # the bubbles left behind are deleted too
    assert view.bubbles == [] and view._box_layout.count() == 0 and view.messages_box is box


def test_copy_edit_and_regenerate_on_the_last_answer_and_on_old_ones(make_window: Any, qtbot: Any) -> None:
    w, cid, ids = window_with_conversation(make_window)
    view: ChatView = w.chat_view
    load_default(w, qtbot, 10_000)
    w.chat.open_conversation(cid)
    last = view.bubbles[-1]
    last.copy_btn.click()
    assert QGuiApplication.clipboard().text() == w.store.messages(cid)[-1].content
    # Regenerate the last answer while the earlier messages are still being built
    assert view.pending_messages() > 0
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000):
        last.regen_btn.click()
    all_built(view, qtbot)
    messages = w.store.messages(cid)
    assert [m.id for m in messages[:-1]] == ids[:-1] and messages[-1].content == ANSWER
    assert [b.message_id for b in view.bubbles] == [m.id for m in messages]
    assert view.bubbles[-1].text == ANSWER
    # an old long answer, once built: Copy
    old = view.bubbles[21]
    assert old.message_id == ids[21] and old.text == long_text(21)
    old.copy_btn.click()
    assert QGuiApplication.clipboard().text() == long_text(21)
    # Edit an old question: the conversation ends before it, its text is back in the composer
    view.bubbles[20].edit_btn.click()
    assert view.composer.input.toPlainText() == "Question 20?"
    assert [m.id for m in w.store.messages(cid)] == ids[:20]
    all_built(view, qtbot)
    assert [b.message_id for b in view.bubbles] == ids[:20]
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000):
        view.composer.button.click()
    assert [b.text for b in view.bubbles[-2:]] == ["Question 20?", ANSWER]
    qtbot.waitUntil(lambda: idle(view), timeout=5000)


def test_highlight_toggle_and_language_switch_reach_built_and_later_built_answers(
    make_window: Any, qtbot: Any
) -> None:
    w, cid, _ids = window_with_conversation(make_window)
    view: ChatView = w.chat_view
    w.chat.open_conversation(cid)
    long_built = [b for b in view.bubbles if b.text.startswith("## Plan")]
    assert long_built and all(highlighted(b) for b in long_built)
    assert view.pending_messages() > 0
    view.highlight_btn.setChecked(False)  # mid-build
    w.set_language("ja")
    assert all(not highlighted(b) for b in long_built)
    copy_ja = long_built[0].copy_btn.text()
    assert copy_ja != "Copy"
    all_built(view, qtbot)
    # the messages built after the switches are built with them
    assert not any(highlighted(b) for b in view.bubbles)
    assert {b.copy_btn.text() for b in view.bubbles} == {copy_ja}
    assert {b.role_label.text() for b in view.bubbles if b.role == "user"} != {"You"}
    view.highlight_btn.setChecked(True)
    long_answers = [b for b in view.bubbles if b.text.startswith("## Plan")]
    assert len(long_answers) == 50 and all(highlighted(b) for b in long_answers)
    w.set_language("en")
    assert {b.copy_btn.text() for b in view.bubbles} == {"Copy"}
    qtbot.waitUntil(lambda: idle(view), timeout=5000)
