"""An answer belongs to its own conversation, runs on while another conversation is shown and
asks, and survives a crash.

The real main window and ChatController drive a ScriptedEngine whose gate holds the answer
mid-stream, so the switch / delete happens while the answer is being written.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from PySide6.QtCore import Qt

from app.core.chat import ChatStore
from tests.gui.conftest import ScriptedEngine, scripted_loader
from tests.gui.test_chat import load_default

ANSWER = " ".join(f"w{i}" for i in range(24))
SHOWN_BEFORE_GATE = " ".join(f"w{i}" for i in range(8)) + " "  # the gate holds the answer at word 8


class Gate:
    """Holds the scripted answer at word 8 until released (the engine thread waits)."""

    def __init__(self) -> None:
        self.reached = threading.Event()
        self.release = threading.Event()

    def __call__(self, i: int) -> None:
        if i == 8:
            self.reached.set()
            self.release.wait(10)


def other_conversation() -> int:
    """A conversation saved before the window opens, to switch to."""
    store = ChatStore()
    try:
        conv = store.create_conversation("Other chat")
        store.add_message(conv.id, "user", "old question")
        store.add_message(conv.id, "assistant", "old answer")
        return conv.id
    finally:
        store.close()


def start_gated_answer(make_window: Any, qtbot: Any) -> tuple[Any, Gate, int]:
    gate = Gate()
    w = make_window(loader=scripted_loader(ScriptedEngine(ANSWER, gate=gate, plain=True)))
    load_default(w, qtbot, 10_000)
    w.new_chat()
    w.chat.send("first question")
    streaming = w.chat.conversation_id
    assert streaming is not None
    # the first words are on screen and the engine is held mid-answer
    qtbot.waitUntil(lambda: w.chat_view.bubbles[-1].text == SHOWN_BEFORE_GATE, timeout=10_000)
    assert gate.reached.is_set() and w.chat_view.composer.button.text() == "Stop"
    return w, gate, streaming


def texts(w: Any) -> list[str]:
    return [b.text for b in w.chat_view.bubbles]


def marked(w: Any) -> list[int]:
    """The conversations the list marks as writing an answer (the pencil)."""
    model = w.conversations
    return [
        model.conversation(row).id
        for row in range(model.rowCount())
        if model.data(model.index(row, 0), Qt.ItemDataRole.DecorationRole) is not None
    ]


def test_switching_mid_answer_lets_it_finish_in_its_own_conversation(make_window: Any, qtbot: Any) -> None:
    other = other_conversation()
    w, gate, streaming = start_gated_answer(make_window, qtbot)
    assert marked(w) == [streaming]
    w.conv_list.setCurrentIndex(w.conversations.index(w.conversations.row_of(other), 0))
    # the other conversation opens at once, with its own messages only, and can ask
    assert w.chat.conversation_id == other
    assert texts(w) == ["old question", "old answer"]
    assert w.chat_view.composer.button.text() == "Send"
    # the answer goes on where it was asked: the list marks it, its text keeps being saved
    assert w.chat.answering() == [streaming] and marked(w) == [streaming]
    assert "Writing an answer" in w.conversations.data(
        w.conversations.index(w.conversations.row_of(streaming), 0), Qt.ItemDataRole.ToolTipRole
    )
    qtbot.waitUntil(lambda: w.store.messages(streaming)[-1].content == SHOWN_BEFORE_GATE, timeout=10_000)
    assert w.store.messages(streaming)[-1].status == "streaming"
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000) as blocker:
        gate.release.set()
    assert blocker.args[0].finish_reason == "stop"
    # written whole in its own conversation; nothing written into the conversation on screen
    done = w.store.messages(streaming)
    assert [(m.role, m.status, m.content) for m in done] == [
        ("user", "complete", "first question"),
        ("assistant", "complete", ANSWER),
    ]
    assert [m.content for m in w.store.messages(other)] == ["old question", "old answer"]
    assert texts(w) == ["old question", "old answer"]
    assert not w.chat.generating and marked(w) == []
    # switching back shows the whole answer with its figures
    w.conv_list.setCurrentIndex(w.conversations.index(w.conversations.row_of(streaming), 0))
    assert texts(w) == ["first question", ANSWER]
    assert w.chat_view.bubbles[-1].status == "complete"


def test_two_conversations_answer_at_once(make_window: Any, qtbot: Any) -> None:
    other = other_conversation()
    w, gate, streaming = start_gated_answer(make_window, qtbot)
    w.conv_list.setCurrentIndex(w.conversations.index(w.conversations.row_of(other), 0))
    w.chat.send("asked while the first answer runs")  # the engine still holds the first answer
    assert texts(w)[-2:] == ["asked while the first answer runs", ""]
    # both answers run: the second one reaches the gate too, on screen in its conversation
    qtbot.waitUntil(lambda: texts(w)[-1] == SHOWN_BEFORE_GATE, timeout=10_000)
    assert sorted(w.chat.answering()) == sorted([streaming, other]) and sorted(marked(w)) == sorted(
        [streaming, other]
    )
    assert w.chat_view.composer.button.text() == "Stop"
    # Stop stops the shown conversation's answer only
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000) as blocker:
        w.chat.stop()
    assert blocker.args[0].finish_reason == "cancelled"
    assert w.chat.answering() == [streaming] and w.chat_view.composer.button.text() == "Send"
    assert [m.status for m in w.store.messages(other)][-1] == "stopped"
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000) as blocker:
        gate.release.set()
    assert blocker.args[0].finish_reason == "stop"
    assert [(m.status, m.content) for m in w.store.messages(streaming)][-1] == ("complete", ANSWER)
    assert not w.chat.generating and marked(w) == []


def test_reopening_the_streaming_conversation_reattaches_its_answer(make_window: Any, qtbot: Any) -> None:
    other = other_conversation()
    w, gate, streaming = start_gated_answer(make_window, qtbot)
    w.conv_list.setCurrentIndex(w.conversations.index(w.conversations.row_of(other), 0))
    w.conv_list.setCurrentIndex(w.conversations.index(w.conversations.row_of(streaming), 0))
    assert texts(w) == ["first question", SHOWN_BEFORE_GATE]
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000):
        gate.release.set()
    bubble = w.chat_view.bubbles[-1]
    assert bubble.status == "complete" and bubble.text == ANSWER
    assert bubble.text == w.store.messages(streaming)[-1].content
    assert bubble.regen_btn.isVisibleTo(bubble) and w.chat_view.composer.button.text() == "Send"


def test_deleting_the_streaming_conversation_stops_the_answer_and_writes_nothing(
    make_window: Any, qtbot: Any
) -> None:
    other = other_conversation()
    w, gate, streaming = start_gated_answer(make_window, qtbot)
    w.delete_conversation(w.conversations.row_of(streaming))
    # the list moves to the remaining conversation, which opens with its own messages
    assert w.chat.conversation_id == other and texts(w) == ["old question", "old answer"]
    gate.release.set()
    qtbot.waitUntil(lambda: not w.chat.generating, timeout=10_000)
    assert [c.id for c in w.store.conversations()] == [other]
    assert w.store.messages(streaming) == []
    assert texts(w) == ["old question", "old answer"]
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000):
        w.chat.send("after the delete")
    assert texts(w) == ["old question", "old answer", "after the delete", ANSWER]
    assert [m.status for m in w.store.messages(other)] == ["complete"] * 4


def test_interrupted_answer_shows_its_mark_and_regenerates(make_window: Any, qtbot: Any) -> None:
    """A row left ``streaming`` by a killed process opens as interrupted, with Regenerate."""
    store = ChatStore()
    conv = store.create_conversation("Cut off")
    store.add_message(conv.id, "user", "question")
    store.add_message(conv.id, "assistant", "the partial ans", status="streaming")
    store.close()
    w = make_window(loader=scripted_loader(ScriptedEngine(ANSWER, plain=True)))
    assert w.chat.conversation_id == conv.id
    bubble = w.chat_view.bubbles[-1]
    assert bubble.text == "the partial ans" and bubble.status_label.text() == "interrupted"
    assert "closed while this answer was being written" in bubble.status_label.toolTip()
    assert bubble.regen_btn.isVisibleTo(bubble)
    load_default(w, qtbot, 10_000)
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000):
        bubble.regen_btn.click()
    msgs = w.store.messages(conv.id)
    assert [(m.content, m.status) for m in msgs] == [("question", "complete"), (ANSWER, "complete")]
    assert w.chat_view.bubbles[-1].status_label.text() == ""


def test_a_long_answer_is_shown_less_often_and_the_next_answer_starts_quick(
    make_window: Any, qtbot: Any
) -> None:
    """Past LONG_ANSWER_CHARS the window shows a streaming answer every LONG_FLUSH_INTERVAL_MS
    (each update lays out a taller bubble, CPU the engine shares); the next answer starts again
    at FLUSH_INTERVAL_MS, and the long one is shown whole."""
    from app.gui.controllers.chat import pacing as chat_ctl

    gate = Gate()
    long_text = " ".join(f"word{i}" for i in range(600))  # ~5000 characters, held at word 8
    w = make_window(loader=scripted_loader(ScriptedEngine(long_text, gate=gate, plain=True)))
    load_default(w, qtbot, 10_000)
    w.new_chat()
    w.chat.send("a long one")
    qtbot.waitUntil(gate.reached.is_set, timeout=10_000)
    assert w.chat.pacer.timer.interval() == chat_ctl.FLUSH_INTERVAL_MS  # a short answer so far
    gate.release.set()
    qtbot.waitUntil(lambda: w.chat_view.bubbles[-1].text == long_text, timeout=10_000)
    assert len(long_text) > chat_ctl.LONG_ANSWER_CHARS
    qtbot.waitUntil(lambda: w.chat_view.composer.button.text() != "Stop", timeout=10_000)
    # at least the long interval (more if this machine took over 4 ms a flush)
    assert chat_ctl.LONG_FLUSH_INTERVAL_MS <= w.chat.pacer.timer.interval() <= chat_ctl.MAX_FLUSH_INTERVAL_MS

    w.chat.send("and another")  # the same engine answers again (its gate stays open)
    assert w.chat.pacer.timer.interval() == chat_ctl.FLUSH_INTERVAL_MS
    qtbot.waitUntil(lambda: w.chat_view.composer.button.text() != "Stop", timeout=10_000)


def test_a_slow_flush_stretches_the_interval_between_flushes(
    make_window: Any, qtbot: Any, monkeypatch: Any
) -> None:
    """Flushes costing ~12 ms each (a long code block laid out whole each time) are followed by
    longer waits, so the window's share of the CPU stays near FLUSH_SHARE; never past the cap. (A
    busier machine only makes the flushes costlier: the interval then stays at or above this.)"""
    from app.gui.controllers.chat import pacing as chat_ctl
    from app.gui.views.chat import MessageBubble

    real = MessageBubble.set_content

    def slow(self: MessageBubble, text: str, spans: Any = None) -> None:
        time.sleep(0.012)  # the view's cost, made long and steady
        real(self, text, spans)

    monkeypatch.setattr(MessageBubble, "set_content", slow)
    text = " ".join(f"word{i}" for i in range(400))
    engine = ScriptedEngine(text, gate=lambda _i: time.sleep(0.03), plain=True)  # ~3 s of words
    w = make_window(loader=scripted_loader(engine))
    load_default(w, qtbot, 10_000)
    w.new_chat()
    w.chat.send("slow")
    stretched = 0.9 * 12 / chat_ctl.FLUSH_SHARE  # ms
    qtbot.waitUntil(lambda: w.chat.pacer.timer.interval() >= stretched, timeout=5_000)
    assert w.chat.pacer.timer.interval() <= chat_ctl.MAX_FLUSH_INTERVAL_MS
    qtbot.waitUntil(lambda: w.chat_view.composer.button.text() != "Stop", timeout=20_000)
    assert w.chat_view.bubbles[-1].text == text
    # the rules themselves (median of the last costs, share, cap): tests/unit/test_flush_pacing.py


def test_each_update_of_a_streaming_answer_paints_the_chat_once(make_window: Any, qtbot: Any) -> None:
    """A flush lays out and scrolls before the event loop paints (``ChatView.settle``): left to
    the loop, each update would paint the chat three times (the previous layout, the new one, the
    scroll);
    paints are CPU the engine shares on a small machine.

    The test drives the answer itself, one chunk of words and one flush at a time, and lets the
    event loop run dry after each flush: every update is then counted on its own, however fast or
    busy the machine (the flush timer is not involved)."""
    from PySide6.QtCore import QCoreApplication, QEvent, QObject

    class PaintCounter(QObject):
        def __init__(self) -> None:
            super().__init__()
            self.paints = 0

        def eventFilter(self, obj: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and obj is w.chat_view.column:
                self.paints += 1
            return False

    reached, release = threading.Semaphore(0), threading.Semaphore(0)

    def one_chunk_at_a_time(_i: int) -> None:  # before each chunk of four words
        reached.release()
        assert release.acquire(timeout=30)

    text = " ".join(f"word{i}" for i in range(60))  # 15 chunks
    engine = ScriptedEngine(text, gate=one_chunk_at_a_time, plain=True)
    w = make_window(loader=scripted_loader(engine))
    load_default(w, qtbot, 10_000)
    w.new_chat()
    qtbot.waitExposed(w)
    w.chat.pacer.timer.timeout.disconnect()  # the test flushes
    counter = PaintCounter()
    w.chat_view.column.installEventFilter(counter)

    def settled() -> None:
        for _ in range(3):
            QCoreApplication.processEvents()

    w.chat.send("a long one")
    per_update: list[int] = []
    try:
        for chunk in range(15):
            # the engine waits before this chunk (the window's loop runs meanwhile: the answer's
            # task reads the events there)
            qtbot.waitUntil(lambda: reached.acquire(blocking=False), timeout=30_000)
            if chunk:  # the previous chunk is in the engine's buffer: show it
                settled()
                before = counter.paints
                shown = w.chat_view.bubbles[-1].text
                w.chat._flush()
                settled()
                assert w.chat_view.bubbles[-1].text != shown  # an update
                per_update.append(counter.paints - before)
            release.release()
    finally:
        for _ in range(15):
            release.release()
    qtbot.waitUntil(lambda: w.chat_view.composer.button.text() != "Stop", timeout=20_000)
    w.chat_view.column.removeEventFilter(counter)
    assert w.chat_view.bubbles[-1].text == text
    assert per_update == [1] * 14, per_update


def test_the_view_ends_at_the_last_answer_with_no_blank_screen_below(make_window: Any, qtbot: Any) -> None:
    """After two long answers the view, scrolled to its end, shows the last answer's end at its
    bottom, with no blank space below it. The column is exactly as tall as its bubbles (also when
    reopened): a bubble's minimum height is not its text laid out at a narrow width, whose sum
    would leave the column taller than its bubbles."""
    engine = ScriptedEngine(text="In the depths of the ocean, " + "a fleeting moment of beauty, " * 120)
    w = make_window(loader=scripted_loader(engine))
    w.resize(1200, 780)
    w.show()
    load_default(w, qtbot, 10_000)
    with qtbot.waitSignal(w.chat.answerFinished, timeout=20_000):
        w.chat.send("Write a haiku about the sea.")
    engine.text = "Red, Blue, Green, " + "White, Black, Grey, Purple, Gold, Silver, " * 60
    with qtbot.waitSignal(w.chat.answerFinished, timeout=20_000):
        w.chat.send("List three colours.")
    view = w.chat_view

    def ends_at_last_bubble() -> bool:
        margins = view.column_layout.contentsMargins()
        last = view.bubbles[-1]
        bottom = last.mapTo(view.column, last.rect().bottomLeft()).y()
        content = bottom + 1 + margins.bottom()
        bar = view.scroller.verticalScrollBar()
        return view.column.height() == max(content, view.scroller.viewport().height()) and (
            bar.value() == bar.maximum()
        )

    qtbot.waitUntil(ends_at_last_bubble, timeout=5_000)
    # the same conversation reopened (built from the store, not streamed)
    conversation = w.chat.conversation_id
    w.new_chat()
    w.chat.open_conversation(conversation)
    qtbot.waitUntil(lambda: len(view.bubbles) == 4 and ends_at_last_bubble(), timeout=5_000)


def test_an_answer_stopped_before_its_first_word_says_so(qtbot: Any) -> None:
    """An answer stopped while its prompt was read does not keep showing "…", as if the model were
    still thinking: an ended answer without text says how it ended (four locales)."""
    from app.gui.views.chat import MessageBubble

    bubble = MessageBubble("assistant", 1)
    qtbot.addWidget(bubble)
    bubble.set_status("streaming")
    bubble.set_content("")
    assert "…" in bubble.body.text()
    bubble.set_status("stopped")
    assert "Stopped before the first word." in bubble.body.text() and "…" not in bubble.body.text()
    restored = MessageBubble("assistant", 2)  # reopened from the store: its status is set after
    qtbot.addWidget(restored)
    restored.set_content("")
    restored.set_status("interrupted")
    assert "Interrupted before the first word." in restored.body.text()
    answered = MessageBubble("assistant", 3)
    qtbot.addWidget(answered)
    answered.set_content("Paris.")
    answered.set_status("stopped")
    assert "Paris." in answered.body.text() and "first word" not in answered.body.text()
