"""The chat keeps a long conversation inside the model's context.

The real window drives the real llama.cpp engine on the embedded SmolLM2 at n_ctx 512.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.core.chat import ChatStore
from app.core.engines.base import LoadRequest, Sampling
from app.core.launch.plan import load_engine
from tests.gui.test_chat import load_default
from tests.integration.test_context_window import long_conversation


def small_context(name: str, req: LoadRequest, progress: Any) -> Any:
    return load_engine(name, replace(req, n_ctx=512, n_threads=2), progress)


@pytest.mark.usefixtures("smollm2_q4")
def test_long_conversation_is_trimmed_with_a_note_and_a_too_large_message_explained(
    make_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    history = long_conversation()[:-1]
    store = ChatStore()
    conv = store.create_conversation("Facts about the sea", history[0]["content"])
    for m in history[1:]:
        store.add_message(conv.id, "user" if m["role"] == "user" else "assistant", m["content"])
    store.close()

    w = make_window(loader=small_context)
    load_default(w, qtbot)
    assert w.chat.conversation_id == conv.id
    w.chat.sampling = Sampling(temperature=0.0, max_tokens=24)
    with qtbot.waitSignal(w.chat.answerFinished, timeout=60_000) as blocker:
        w.chat.send("What is the capital of France?")
    stats = blocker.args[0]
    assert stats.finish_reason in ("stop", "length") and stats.completion_tokens > 0
    assert 0 < stats.prompt_tokens <= 512 - 24
    bubble = w.chat_view.bubbles[-1]
    assert bubble.role == "assistant" and bubble.text.strip() and bubble.status_label.text() == ""
    assert bubble.note_label.isVisible()
    assert bubble.note_label.text() == "Earlier turns were left out to fit the model's context."
    assert "Messages not sent to the model: " in bubble.note_label.toolTip()
    earlier = [b for b in w.chat_view.bubbles[:-1] if b.role == "assistant"]
    assert earlier and not any(b.note_label.isVisible() for b in earlier)
    # the conversation itself keeps every turn; only the prompt was trimmed
    msgs = w.store.messages(conv.id)
    assert len(msgs) == len(history) - 1 + 2 and msgs[-1].status == "complete"

    # one message larger than the context alone: a clear message, nothing sent, chat usable
    with qtbot.waitSignal(w.errors.raised, timeout=60_000) as raised:
        w.chat.send("Summarise this: " + "the tide rises and falls " * 150)
    err = raised.args[0]
    assert "tokens with the system prompt" in err.message and "holds 512 tokens" in err.message
    assert "larger context length" in err.hint
    qtbot.waitUntil(lambda: not w.chat.generating, timeout=10_000)
    assert w.store.messages(conv.id)[-1].role == "user"  # no empty answer row left behind
    assert w.chat_view.bubbles[-1].role == "user"
    assert w.chat_view.composer.button.text() == "Send"


@pytest.mark.usefixtures("smollm2_q4")
def test_an_answer_cut_by_the_context_says_so_and_one_cut_by_max_tokens_says_that(
    make_window: Any, qtbot: Any
) -> None:
    """A long answer in a 512-token context ends at the context's end (llama.cpp's "length"
    finish, before Max new tokens): the strip says "context full" and why; an answer cut by Max
    new tokens says that instead. A window opened fresh is on a new chat (no earlier turns)."""
    from app.gui.views.stats import StatsDialog

    w = make_window(loader=small_context)
    load_default(w, qtbot)
    w.chat.sampling = Sampling(temperature=0.0, max_tokens=2000)
    # a hang bound, not a speed check: ~500 tokens took over 120 s with four processes on two cores
    with qtbot.waitSignal(w.chat.answerFinished, timeout=240_000) as blocker:
        w.chat.send("Write a very long story about a lighthouse keeper and a dragon, with many chapters.")
    stats = blocker.args[0]
    assert stats.finish_reason == "length" and stats.max_tokens == 2000
    assert stats.ending == "context"
    used = stats.prompt_tokens + stats.completion_tokens
    assert 480 <= used <= 512 and stats.completion_tokens < 2000
    strip = w.chat_view.bubbles[-1].stats_strip
    assert strip.ending.isVisible() and strip.ending.text() == "context full"
    tip = strip.ending.toolTip()
    assert f"take {used} tokens" in tip and "Max new tokens (2000)" in tip and "new chat" in tip
    dialog = StatsDialog(stats)
    qtbot.addWidget(dialog)
    shown = [lbl.text() for lbl in dialog.findChildren(type(strip.ending))]
    said = "context full: The answer stopped at the end of the model's context"
    assert any(t.startswith(said) for t in shown)
    # the stored answer keeps what it was asked with: reopened, it says the same
    stored = w.store.messages(w.chat.conversation_id)[-1].stats
    assert stored is not None and stored.max_tokens == 2000 and stored.ending == "context"

    w.new_chat()
    w.chat.sampling = Sampling(temperature=0.0, max_tokens=8)
    with qtbot.waitSignal(w.chat.answerFinished, timeout=60_000) as blocker:
        w.chat.send("Write a very long story about a lighthouse keeper.")
    stats = blocker.args[0]
    assert stats.finish_reason == "length" and stats.completion_tokens == 8 and stats.ending == "max_tokens"
    strip = w.chat_view.bubbles[-1].stats_strip
    assert strip.ending.isVisible() and strip.ending.text() == "Max new tokens reached"
    assert "Max new tokens (8)" in strip.ending.toolTip()
