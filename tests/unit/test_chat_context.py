"""The rule that fits a conversation into the context window.

The token counter here is a plain word count with a per-message overhead, standing in for the
engine's tokenizer (the real tokenizers are exercised in tests/integration/test_context_window.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from app.core.chat.context import ContextOverflowError, answer_reserve, fit_history
from app.core.engines.base import ChatMessage


class WordCounter:
    """Tokens = words + 4 per message + 3 for the generation prompt; counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, messages: Sequence[ChatMessage]) -> int:
        self.calls += 1
        return sum(len(m["content"].split()) + 4 for m in messages) + 3


def conversation(turns: int, words: int = 20, system: str = "Be brief.") -> list[ChatMessage]:
    out: list[ChatMessage] = [{"role": "system", "content": system}] if system else []
    for t in range(turns):
        out.append({"role": "user", "content": f"question {t} " + "q " * (words - 2)})
        out.append({"role": "assistant", "content": f"answer {t} " + "a " * (words - 2)})
    return out


def test_a_history_that_fits_is_sent_whole() -> None:
    msgs = [*conversation(3), {"role": "user", "content": "new"}]
    fitted = fit_history(msgs, WordCounter(), n_ctx=512, max_tokens=64)
    assert fitted.messages == msgs and fitted.dropped == 0
    assert fitted.prompt_tokens == WordCounter()(msgs)


def test_keeps_the_system_prompt_and_the_newest_turns_that_fit() -> None:
    count = WordCounter()
    msgs = [*conversation(30), {"role": "user", "content": "the newest question"}]
    fitted = fit_history(msgs, count, n_ctx=256, max_tokens=64)  # budget 192 tokens
    kept = fitted.messages
    assert kept[0] == msgs[0]  # system prompt
    assert kept[1]["role"] == "user"  # whole turns: the history starts with a question
    assert kept[-1]["content"] == "the newest question"
    assert kept[1:] == msgs[len(msgs) - len(kept) + 1 :]  # a suffix of the conversation
    assert fitted.prompt_tokens == WordCounter()(kept) <= 256 - 64
    # one more turn would not fit: the newest turns that fit, not fewer
    one_more = [msgs[0], *msgs[len(msgs) - len(kept) - 1 :]]
    assert WordCounter()(one_more) > 256 - 64
    assert fitted.dropped == len(msgs) - len(kept) == 54
    assert count.calls <= 8  # a binary search, not a count per turn


def test_a_single_message_larger_than_the_context_is_refused_with_the_numbers() -> None:
    msgs = [*conversation(2), {"role": "user", "content": "x " * 400}]
    with pytest.raises(ContextOverflowError) as info:
        fit_history(msgs, WordCounter(), n_ctx=512, max_tokens=128)
    err = info.value
    assert (err.needed, err.n_ctx, err.reserved) == (WordCounter()([msgs[0], msgs[-1]]), 512, 128)
    assert "413 tokens" in str(err) and "512 tokens" in str(err) and "128 of them" in str(err)
    assert "larger context" in err.hint


def test_without_a_system_prompt_and_with_an_unknown_context() -> None:
    msgs = [*conversation(10, system=""), {"role": "user", "content": "last"}]
    fitted = fit_history(msgs, WordCounter(), n_ctx=128, max_tokens=32)
    assert fitted.messages[0]["role"] == "user" and fitted.messages[-1]["content"] == "last"
    assert fitted.prompt_tokens <= 96 and fitted.dropped > 0
    unknown = fit_history(msgs, WordCounter(), n_ctx=0, max_tokens=32)
    assert unknown.messages == msgs and unknown.dropped == 0


def test_room_for_the_answer_is_at_most_half_the_context() -> None:
    assert answer_reserve(512, 128) == 128
    assert answer_reserve(512, 100_000) == 256
    msgs = [*conversation(1, words=50), {"role": "user", "content": "go on"}]
    # max tokens far above the context still leaves half of it for the history
    fitted = fit_history(msgs, WordCounter(), n_ctx=256, max_tokens=100_000)
    assert fitted.dropped == 0 and fitted.prompt_tokens <= 128
