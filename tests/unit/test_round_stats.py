"""One definition of mean accepted length for the chat and ``tandem bench`` (issue 8 item 13),
stored per-round data that keeps ``emitted``, and no rate from a zero duration (item 8)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from app.core.bench.runner import bench, run_once
from app.core.cancel import tokens_per_second
from app.core.chat import AnswerBuilder, AnswerStats, RoundPoint
from app.core.engines.base import CancelToken, ChatMessage, Event, Finished, Round, Sampling, TextDelta
from app.core.speculative import mean_accepted_length

#: A plain first token, a round that accepted 2 of 4 drafts (+1 own token), and a round whose 3
#: accepted drafts ended the answer (EOS / max tokens): it emitted 3, not accepted + 1 = 4.
EVENTS: list[Event] = [
    TextDelta("A"),
    Round(0, 0, 0, 1),
    TextDelta("bc", 2, from_draft=True),
    TextDelta("d"),
    Round(1, 4, 2, 3),
    TextDelta("efg", 3, from_draft=True),
    Round(2, 3, 3, 3),
    Finished("length", 5, 7, 10.0, 70.0, 7, 5, 3),
]


class ReplayEngine:
    """Replays EVENTS: the engine layer is not under test here, the accounting is."""

    name = "replay"
    last_candidates = None

    def generate(
        self,
        messages: Sequence[ChatMessage],
        sampling: Sampling,
        cancel: CancelToken | None = None,
        top_logprobs: int = 0,
    ) -> Iterator[Event]:
        yield from EVENTS

    def close(self) -> None:
        pass


def test_mean_accepted_length_counts_what_each_drafting_round_emitted() -> None:
    rounds = [e for e in EVENTS if isinstance(e, Round)]
    assert mean_accepted_length(rounds) == pytest.approx((3 + 3) / 2)
    assert mean_accepted_length([Round(0, 0, 0, 1)]) is None  # no drafting round


def test_chat_and_bench_report_the_same_number() -> None:
    builder = AnswerBuilder("draft Q4_1")
    for ev in EVENTS:
        builder.feed(ev)
    chat = builder.stats().mean_accepted_length
    run = run_once(ReplayEngine(), "p", Sampling(max_tokens=7))
    assert chat == pytest.approx(3.0) and run.mean_accepted_length == pytest.approx(3.0)
    assert run.to_json()["mean_accepted_length"] == pytest.approx(3.0)
    assert run.drafting_rounds == 2


def test_emitted_is_stored_and_old_rows_still_load() -> None:
    builder = AnswerBuilder("draft Q4_1")
    for ev in EVENTS:
        builder.feed(ev)
    stats = builder.stats()
    data = stats.to_json()
    assert data["per_round"] == [[0, 0, 1], [4, 2, 3], [3, 3, 3]]
    again = AnswerStats.from_json(data)
    assert again.per_round == stats.per_round and again.mean_accepted_length == pytest.approx(3.0)
    # rows stored before emitted was kept: [drafted, accepted] read as accepted + 1
    old = AnswerStats.from_json({"decode_tps": 20.0, "drafted": 6, "accepted": 4,
                                 "per_round": [[3, 3], [3, 1]]})  # fmt: skip
    assert old.per_round == [RoundPoint(3, 3, 4), RoundPoint(3, 1, 2)]
    assert old.mean_accepted_length == pytest.approx(3.0)
    unknown = RoundPoint(0, 2, 3, drafted_known=False)  # an engine that could not count the draft
    assert RoundPoint.from_json(unknown.to_json()) == unknown
    assert mean_accepted_length([unknown]) == pytest.approx(3.0)


@pytest.mark.parametrize(
    ("tokens", "ms", "expected"),
    [(1, 0.001, None), (0, 0.0, None), (5, 0.0, None), (5, -1.0, None), (1, 500.0, None), (10, 1000.0, 10.0)],
)
def test_no_rate_from_zero_time_or_one_token(tokens: int, ms: float, expected: float | None) -> None:
    assert tokens_per_second(tokens, ms) == expected


def test_one_token_answer_has_no_rate_anywhere() -> None:
    fin = Finished("length", 31, 1, 12.0, 0.001, 0, 0, 1)  # what llama.cpp reports for one token
    assert fin.decode_tps is None
    builder = AnswerBuilder()
    builder.feed(TextDelta("Hi"))
    builder.feed(fin)
    assert builder.stats().decode_tps == 0.0  # stored as "not measured", shown as a dash


def test_bench_refuses_zero_repeats_before_loading_anything() -> None:
    def load(spec_on: bool) -> ReplayEngine:
        raise AssertionError("nothing may be loaded for a refused run")

    with pytest.raises(ValueError, match="repeats: must be a whole number of at least 1"):
        bench(load, ["p"], 8, repeats=0)
    rows = bench(lambda spec_on: ReplayEngine(), ["p"], 8, repeats=2)
    assert len(rows[0].off_runs) == 2 and rows[0].ratio == pytest.approx(1.0)
