"""Why an answer ended, as the window explains it (context full vs Max new tokens)."""

from __future__ import annotations

from app.core.chat import AnswerStats


def test_a_length_finish_before_max_tokens_is_the_context_and_at_max_tokens_is_max_tokens() -> None:
    cut = AnswerStats(completion_tokens=6109, prompt_tokens=2339, finish_reason="length", max_tokens=8000)
    assert cut.ending == "context"
    full = AnswerStats(completion_tokens=8000, prompt_tokens=51, finish_reason="length", max_tokens=8000)
    assert full.ending == "max_tokens"
    # stored before Max new tokens was recorded: either of the two
    old = AnswerStats.from_json({"completion_tokens": 10, "finish_reason": "length"})
    assert old.max_tokens == 0 and old.ending == "length"
    for reason in ("stop", "cancelled", "error"):
        assert AnswerStats(finish_reason=reason, max_tokens=5, completion_tokens=1).ending == reason


def test_max_tokens_survives_the_store_round_trip() -> None:
    stats = AnswerStats(completion_tokens=3, finish_reason="length", max_tokens=9)
    back = AnswerStats.from_json(stats.to_json())
    assert back.max_tokens == 9 and back.ending == "context"
