"""One definition of mean accepted length for the chat and ``tandem bench``,
stored per-round data that keeps ``emitted``, and no rate from a zero duration."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from app.core.answer import collect
from app.core.cancel import tokens_per_second
from app.core.chat import AnswerBuilder, AnswerStats, RoundPoint
from app.core.engines.base import CancelToken, ChatMessage, Event, Finished, Round, Sampling, TextDelta
from app.core.measure.bench import bench, run_json, run_once
from app.core.speculative import mean_accepted_length
from app.devtools.scripted import ScriptedStream

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


class ReplayEngine(ScriptedStream):
    """Replays EVENTS: the engine layer is not under test here, the accounting is."""

    name = "replay"
    model_path = "replay"
    spec_kind = None
    supports_tools = False
    supports_structured_output = False
    candidates_with_speculation = False

    def script(
        self,
        messages: Sequence[ChatMessage],
        sampling: Sampling,
        cancel: CancelToken | None = None,
        top_logprobs: int = 0,
        **_request: object,
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
    assert run_json("p", run)["mean_accepted_length"] == pytest.approx(3.0)
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


# --- one stats model ----------------------------------------------------------------------------
def test_one_round_type_from_accountant_to_engines() -> None:
    """The accountant's rounds are the engines' Round events (no second dataclass to copy into)."""
    from app.core import speculative

    acc = speculative.RoundAccountant()
    acc.token()
    acc.start_round(2, 1)
    acc.token()
    acc.token()
    acc.finish()
    rounds = acc.pop_closed()
    assert all(type(r) is Round for r in rounds) and speculative.Round is Round
    assert rounds == [Round(0, 0, 0, 1), Round(1, 2, 1, 2)]
    assert not hasattr(speculative, "RoundStats")


#: llama-server's cumulative per-token timings: a plain token, a round that drafted 3 and
#: accepted 2 (2 drafts + the target's token arrive in one chunk), then a round that drafted 3
#: and accepted 0, cut short by the end of the answer (no token of its own streamed).
TIMINGS: list[dict[str, float]] = [
    {"predicted_n": 1, "prompt_n": 9, "cache_n": 3, "prompt_ms": 4.0, "predicted_ms": 0.5},
    {"predicted_n": 4, "draft_n": 3, "draft_n_accepted": 2, "prompt_n": 9, "cache_n": 3, "prompt_ms": 4.0,
     "predicted_ms": 6.0},
    {"predicted_n": 4, "draft_n": 6, "draft_n_accepted": 2, "prompt_n": 9, "cache_n": 3, "prompt_ms": 4.0,
     "predicted_ms": 8.0},
]  # fmt: skip


def test_timings_become_rounds_tokens_and_totals() -> None:
    from app.core.speculative import TimingsRounds

    timing = TimingsRounds()
    steps = [timing.step(t) for t in TIMINGS]
    assert steps == [(1, False), (3, False), (0, False)]
    assert timing.step({}) == (0, False)  # a chunk without timings carries no token
    assert timing.saw_draft_counters
    rounds = timing.pop_closed() + timing.finish()
    assert rounds == [Round(0, 0, 0, 1), Round(1, 3, 2, 3), Round(2, 3, 0, 0)]
    assert (timing.prompt_tokens, timing.prompt_ms, timing.decode_ms) == (12, 4.0, 8.0)
    assert timing.rounds.emitted_total == 4 and timing.rounds.drafted_total == 6
    whole = TimingsRounds()
    assert whole.step({"predicted_n": 2, "draft_n": 2, "draft_n_accepted": 2}) == (2, True)


def test_remote_llama_server_reads_timings_like_the_local_engine() -> None:
    """The remote engine's stream of a llama-server turns the same timings into the same rounds."""
    from app.core.engines.remote.reading import StreamState

    state = StreamState("llama.cpp")
    events: list[Event] = []
    for i, t in enumerate(TIMINGS):
        delta = {"content": "x" * (i + 1)} if i < 2 else {}
        events += state.on_chunk({"choices": [{"delta": delta}], "timings": t}, float(i))
    events += list(state.closing_rounds())
    fin = state.finish(0.0)
    assert [e for e in events if isinstance(e, Round)] == [
        Round(0, 0, 0, 1),
        Round(1, 3, 2, 3),
        Round(2, 3, 0, 0),
    ]
    assert [e.token_count for e in events if isinstance(e, TextDelta)] == [1, 3]
    assert (fin.prompt_tokens, fin.completion_tokens, fin.decode_ms) == (12, 4, 8.0)
    assert (fin.drafted_total, fin.accepted_total, fin.rounds) == (6, 2, 3)
    assert fin.acceptance_rate == pytest.approx(2 / 6)


def test_unknown_draft_counts_give_no_acceptance_anywhere() -> None:
    """An engine that could not count a round's draft (mlx-vlm): the chat, bench and CLI all say
    'unknown' instead of a rate over the rounds it could count."""
    from app.cli.commands import _stats_line

    unknown: list[Event] = [
        TextDelta("A"),
        Round(0, 0, 0, 1),
        TextDelta("bc", 2, from_draft=True),
        Round(1, 4, 2, 2),
        TextDelta("d", 1, from_draft=True),
        Round(2, 0, 1, 2, drafted_known=False),
        Finished("stop", 5, 5, 10.0, 40.0, 4, 3, 3, drafted_known=False),
    ]
    fin = unknown[-1]
    assert isinstance(fin, Finished) and fin.acceptance_rate is None
    builder = AnswerBuilder("draft")
    for ev in unknown:
        builder.feed(ev)
    stats = builder.stats()
    assert stats.acceptance_rate is None and stats.mean_accepted_length == pytest.approx(2.0)
    assert AnswerStats.from_json(stats.to_json()).acceptance_rate is None

    class Unknown(ReplayEngine):
        def script(self, *args: object, **kwargs: object) -> Iterator[Event]:
            yield from unknown

    run = run_once(Unknown(), "p", Sampling(max_tokens=5))
    assert run.acceptance_rate is None and run_json("p", run)["acceptance_rate"] is None
    assert "drafted_known" not in run_json("p", run)  # bench's JSON keys stay as they were
    rounds = [e for e in unknown if isinstance(e, Round)]
    line = _stats_line(collect(unknown))
    assert "acceptance" not in line and line.startswith("5 tokens, 125.0 tok/s")
    known = Finished("stop", 5, 5, 10.0, 40.0, 4, 2, 2)
    assert "acceptance 50% (2/4)" in _stats_line(collect([*rounds[:2], known]))
