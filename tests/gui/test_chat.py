from __future__ import annotations

import threading
from typing import Any

import pytest

from app.core.engines.base import GenerationError
from app.gui.style import DRAFT_HIGHLIGHT
from app.gui.views.chat import MessageBubble
from tests.gui.conftest import ScriptedEngine, scripted_loader


def load_default(w: Any, qtbot: Any, timeout: int = 120_000) -> None:
    with qtbot.waitSignal(w.modelLoaded, timeout=timeout):
        w.load_default_model()


@pytest.mark.usefixtures("smollm2_q4")
def test_full_chat_turn_on_the_real_embedded_model(make_window: Any, qtbot: Any) -> None:
    """Real SmolLM2 Q4_1 through the real llama.cpp engine on the engine thread."""
    w = make_window()
    assert not w.load_bar.isVisible() and not w.engine.busy  # a fresh window loads nothing
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000):
        w.load_default_model()
        assert w.load_bar.isVisible() and w.engine.busy  # the load shows its bar at once
    assert not w.load_bar.isVisible() and not w.engine.busy
    assert "smollm2" in w.status_model.text() and "llama.cpp" in w.status_engine.text()
    w.chat.sampling = w.chat.sampling.__class__(temperature=0.0, max_tokens=24)
    with qtbot.waitSignal(w.chat.answerFinished, timeout=120_000) as blocker:
        w.chat_view.composer.input.setPlainText("Name three colors.")
        w.chat_view.composer.button.click()
    stats = blocker.args[0]
    assert stats.completion_tokens > 0 and stats.decode_tps > 0 and stats.ttft_ms is not None
    bubble: MessageBubble = w.chat_view.bubbles[-1]
    assert bubble.role == "assistant" and bubble.text.strip()
    assert bubble.stats_strip.isVisible() and "tok/s" in bubble.stats_strip.tps.text()
    msgs = w.store.messages(w.chat.conversation_id)
    assert [(m.role, m.status) for m in msgs] == [("user", "complete"), ("assistant", "complete")]
    assert msgs[1].content == bubble.text and msgs[1].stats is not None
    assert w.conversations.rowCount() == 1


def test_stop_keeps_the_partial_answer_as_stopped(make_window: Any, qtbot: Any) -> None:
    first_chunk = threading.Event()
    release = threading.Event()

    def gate(i: int) -> None:
        if i == 4:
            first_chunk.set()
            release.wait(10)

    engine = ScriptedEngine(gate=gate)
    w = make_window(loader=scripted_loader(engine))
    load_default(w, qtbot, 10_000)
    with qtbot.waitSignal(w.engine.eventsReady, timeout=10_000):
        w.chat.send("hello")
    assert w.chat_view.composer.button.text() == "Stop"
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000) as blocker:
        w.chat_view.composer.button.click()  # stop
        release.set()
    assert blocker.args[0].finish_reason == "cancelled"
    msgs = w.store.messages(w.chat.conversation_id)
    assert msgs[-1].role == "assistant" and msgs[-1].status == "stopped" and msgs[-1].content
    assert w.chat_view.bubbles[-1].status_label.text() == "stopped"
    assert w.chat_view.composer.button.text() == "Send"


def test_draft_tokens_highlight_stats_regenerate_and_edit(make_window: Any, qtbot: Any) -> None:
    w = make_window(loader=scripted_loader(ScriptedEngine()))
    load_default(w, qtbot, 10_000)
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000) as blocker:
        w.chat.send("write add")
    stats = blocker.args[0]
    assert stats.acceptance_rate is not None and stats.mean_accepted_length is not None
    bubble = w.chat_view.bubbles[-1]
    assert bubble.spans and DRAFT_HIGHLIGHT in bubble.body.text()
    assert "<pre" in bubble.body.text()  # code block rendered
    strip = bubble.stats_strip
    assert "accepted" in strip.acceptance.text() and strip.chart.isVisible()
    assert len(strip.chart.rounds) == stats.rounds
    w.chat_view.highlight_btn.setChecked(False)
    assert DRAFT_HIGHLIGHT not in bubble.body.text()
    w.chat_view.highlight_btn.setChecked(True)
    # regenerate replaces the last answer
    old_id = bubble.message_id
    assert bubble.regen_btn.isVisibleTo(bubble)
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000):
        bubble.regen_btn.click()
    msgs = w.store.messages(w.chat.conversation_id)
    assert len(msgs) == 2 and msgs[1].id != old_id
    # edit-and-resend puts the text back and drops the rest
    user_bubble = w.chat_view.bubbles[0]
    user_bubble.edit_btn.click()
    assert w.chat_view.composer.input.toPlainText() == "write add"
    assert w.store.messages(w.chat.conversation_id) == []
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000):
        w.chat.send("write sub")
    assert next(m.content for m in w.store.messages(w.chat.conversation_id)) == "write sub"


def test_engine_error_shows_message_with_next_step_and_window_stays_usable(
    make_window: Any, qtbot: Any
) -> None:
    engine = ScriptedEngine(fail=GenerationError("llama.cpp failed while generating: boom"))
    w = make_window(loader=scripted_loader(engine))
    load_default(w, qtbot, 10_000)
    with qtbot.waitSignal(w.errors.raised, timeout=10_000) as blocker:
        w.chat.send("hi")
    err = blocker.args[0]
    assert "boom" in err.message and err.hint
    assert w.banner.isVisible() and "try again" in w.banner.text.text().lower()
    msgs = w.store.messages(w.chat.conversation_id)
    assert msgs[-1].status == "error"  # the partial text is kept, marked failed
    assert not w.chat.generating and w.chat_view.composer.button.text() == "Send"
    engine.fail = None
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000):
        w.chat.send("again")


def test_load_failure_and_cancel(make_window: Any, qtbot: Any) -> None:
    def failing(_name: str, _req: Any, progress: Any) -> Any:
        progress("opening")
        raise GenerationError("cannot open the model", "Download it again.")

    w = make_window(loader=failing)
    with qtbot.waitSignal(w.errors.raised, timeout=10_000) as blocker:
        w.load_default_model()
    assert blocker.args[0].hint == "Download it again." and not w.load_bar.isVisible()
    assert w.status_model.text() == "No model loaded"

    gate = threading.Event()

    def slow(_name: str, _req: Any, progress: Any) -> Any:
        gate.wait(10)
        progress("still loading")  # the cancel is noticed here
        return ScriptedEngine()

    w2 = make_window(loader=slow)
    w2.load_default_model()
    assert w2.load_bar.isVisible()
    with qtbot.waitSignal(w2.engine.loadCancelled, timeout=10_000):
        w2.load_cancel.click()
        gate.set()
    assert not w2.load_bar.isVisible() and not w2.engine.is_loaded


def test_send_without_model_explains_what_to_do(make_window: Any, qtbot: Any) -> None:
    w = make_window()
    with qtbot.waitSignal(w.errors.raised, timeout=5000) as blocker:
        w.chat.send("hello")
    assert "Models page" in blocker.args[0].hint


def test_conversations_new_rename_delete(make_window: Any, qtbot: Any) -> None:
    w = make_window(loader=scripted_loader(ScriptedEngine("ok")))
    load_default(w, qtbot, 10_000)
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000):
        w.chat.send("first chat")
    w.new_chat()
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000):
        w.chat.send("second chat")
    assert w.conversations.rowCount() == 2
    idx = w.conversations.index(0, 0)
    assert w.conversations.setData(idx, "Renamed")
    assert w.store.conversation(w.conversations.conversation(0).id).title == "Renamed"
    w.conv_list.setCurrentIndex(w.conversations.index(1, 0))
    assert w.chat_view.bubbles[0].text == "first chat"
    w.delete_conversation(0)
    assert w.conversations.rowCount() == 1
