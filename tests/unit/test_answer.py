"""The one accumulator (app/core/answer.py) on hand-built event streams: a normal answer,
a cancelled one, one whose stream ends without its Finished, tool calls and rounds."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.core.answer import Answer, AnswerCollector, collect
from app.core.cancel import CancelToken
from app.core.engines.base import Event, Finished, Round, TextDelta, ToolCall


class Clock:
    """A clock the test moves by hand (``clock.t += seconds``)."""

    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


#: a plain token, a round that accepted 2 of 4 drafts (+1 own token), then a round whose 3
#: accepted drafts ended the answer
STREAM: list[Event] = [
    TextDelta("A"),
    Round(0, 0, 0, 1),
    TextDelta("bc", 2, from_draft=True),
    TextDelta("d"),
    Round(1, 4, 2, 3),
    TextDelta("efg", 3, from_draft=True),
    Round(2, 3, 3, 3),
    Finished("length", 5, 7, 10.0, 70.0, 7, 5, 3, token_ids=[1, 2, 3, 4, 5, 6, 7]),
]


def test_a_normal_answer_takes_the_engines_totals() -> None:
    clock = Clock()
    collector = AnswerCollector(clock)
    clock.t += 0.02
    added = []
    for ev in STREAM:
        added.append(collector.feed(ev))
        clock.t += 0.01
    answer = collector.end()
    assert added == ["A", "", "bc", "d", "", "efg", "", ""]
    assert answer.text == "Abcdefg" and answer.pieces == ["A", "bc", "d", "efg"]
    assert answer.draft_spans == [(1, 3), (4, 7)]
    assert answer.rounds == [e for e in STREAM if isinstance(e, Round)]
    assert answer.finished is STREAM[-1]
    assert answer.reason == "length" and answer.complete and not answer.cancelled
    assert (answer.completion_tokens, answer.prompt_tokens, answer.streamed_tokens) == (7, 5, 7)
    assert (answer.prompt_ms, answer.decode_ms) == (10.0, 70.0)
    assert answer.decode_tps == pytest.approx(100.0)  # the engine's figures, not the clock's
    assert answer.ttft_ms == pytest.approx(20.0)
    assert answer.wall_ms == pytest.approx(100.0)
    assert (answer.drafted_total, answer.accepted_total, answer.round_count) == (7, 5, 3)
    assert answer.acceptance_rate == pytest.approx(5 / 7)
    assert answer.drafting_rounds == 2 and answer.mean_accepted_length == pytest.approx(3.0)
    assert answer.token_ids == [1, 2, 3, 4, 5, 6, 7] and answer.tool_calls == []


def test_the_running_answer_carries_the_figures_while_it_streams() -> None:
    clock = Clock()
    collector = AnswerCollector(clock)
    clock.t += 0.5
    collector.feed(TextDelta("Hel"))
    assert collector.answer.reason == "" and not collector.answer.complete and not collector.answer.cancelled
    clock.t += 1.0
    collector.feed(TextDelta("lo", 2, from_draft=True))
    running = collector.answer
    assert running.text == "Hello" and running.draft_spans == [(3, 5)]
    assert running.completion_tokens == 3 and running.decode_ms == pytest.approx(1000.0)
    assert running.decode_tps == pytest.approx(3.0) and running.ttft_ms == pytest.approx(500.0)
    collector.feed(TextDelta(" you"))
    assert running.text == "Hello you"  # the same object, still growing


def test_a_stream_without_finished_is_cancelled_with_what_it_showed() -> None:
    clock = Clock()
    collector = AnswerCollector(clock)
    clock.t += 0.1
    for ev in STREAM[:5]:  # cut after the second round: no Finished
        collector.feed(ev)
    clock.t += 2.0
    answer = collector.end()
    assert answer.finished is None and answer.reason == "cancelled" and answer.cancelled
    assert not answer.complete
    # tokens: the larger of the deltas' counts (4) and the closed rounds' emitted tokens (4)
    assert answer.completion_tokens == 4 and answer.prompt_tokens == 0
    assert (answer.drafted_total, answer.accepted_total, answer.round_count) == (4, 2, 2)
    assert answer.acceptance_rate == pytest.approx(0.5)
    # times from the collector's clock: the prompt until the first text, the decode from there
    assert answer.prompt_ms == pytest.approx(100.0) and answer.decode_ms == pytest.approx(2000.0)
    assert answer.decode_tps == pytest.approx(2.0)
    assert answer.token_ids is None


def test_rounds_alone_count_their_emitted_tokens_and_an_unknown_draft_leaves_no_rate() -> None:
    rounds = [Round(0, 0, 0, 3, drafted_known=False), Round(1, 4, 2, 3), Round(2, 0, 0, 1)]
    answer = collect(rounds)
    assert answer.completion_tokens == 7 and answer.round_count == 3
    assert answer.drafted_total == 4 and not answer.drafted_known and answer.acceptance_rate is None
    assert answer.drafting_rounds == 2 and answer.mean_accepted_length == pytest.approx(3.0)


def test_an_empty_stream_is_a_cancelled_empty_answer() -> None:
    answer = collect([])
    assert answer.cancelled and answer.text == "" and answer.ttft_ms is None
    assert answer.completion_tokens == 0 and answer.decode_tps is None and answer.acceptance_rate is None


def test_a_finished_that_says_cancelled_is_cancelled_with_its_figures() -> None:
    answer = collect([TextDelta("a"), TextDelta("b"), Finished("cancelled", 3, 2, 5.0, 20.0, 0, 0)])
    assert answer.cancelled and answer.text == "ab"
    assert answer.completion_tokens == 2 and answer.decode_tps == pytest.approx(100.0)


def _stream(events: list[Event], cancel: CancelToken, at: int, closed: list[bool]) -> Iterator[Event]:
    try:
        for i, ev in enumerate(events):
            if i == at:
                cancel.cancel()  # the user presses Stop while this event is on its way
            yield ev
    finally:
        closed.append(True)


def test_a_cancel_token_stops_the_reading_and_closes_the_stream() -> None:
    cancel = CancelToken()
    closed: list[bool] = []
    answer = collect(_stream(STREAM, cancel, 2, closed), cancel)
    assert answer.pieces == ["A", "bc"] and answer.cancelled  # read up to the event that saw it
    assert closed == [True]  # the engine's generator was closed there, not left to the collector
    assert answer.completion_tokens == 3 and answer.round_count == 1


def test_a_cancel_after_the_finished_does_not_uncomplete_the_answer() -> None:
    cancel = CancelToken()
    answer = collect(_stream(STREAM, cancel, len(STREAM) - 1, []), cancel)
    assert answer.complete and answer.reason == "length" and answer.completion_tokens == 7


def test_an_error_passes_through_and_the_collector_keeps_the_part() -> None:
    def failing() -> Iterator[Event]:
        yield TextDelta("part")
        raise RuntimeError("the stream broke")

    collector = AnswerCollector()
    with pytest.raises(RuntimeError, match="the stream broke"):
        collector.collect(failing())
    assert collector.answer.text == "part"
    assert collector.end().cancelled


def test_tool_calls_come_from_the_engines_finished() -> None:
    calls = [ToolCall.new("get_weather", {"city": "Paris"})]
    answer = collect([Finished("stop", 9, 12, 1.0, 12.0, 0, 0, 1, tool_calls=calls)])
    assert answer.tool_calls == calls and answer.text == "" and answer.complete
    assert collect([Finished("stop", 9, 1, 1.0, 1.0, 0, 0)]).tool_calls == []


def test_an_engine_that_leaves_the_round_count_at_zero_gets_the_rounds_streamed() -> None:
    rounds: list[Event] = [Round(0, 3, 2, 3), Round(1, 3, 3, 4)]
    answer = collect([*rounds, Finished("stop", 1, 7, 1.0, 7.0, 6, 5)])
    assert answer.round_count == 2 and answer.drafted_total == 6


def test_a_hand_built_answer_joins_its_pieces() -> None:
    answer = Answer(pieces=["a", "b"], completion_tokens=2, decode_ms=1000.0)
    assert answer.text == "ab" and answer.decode_tps == pytest.approx(2.0)
    answer.pieces.append("c")
    assert answer.text == "abc"
