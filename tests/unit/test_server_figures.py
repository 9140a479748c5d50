"""The local server's per-request speculation figures use the shared definitions of
app/core/speculative/rounds.py: a round whose draft count the engine could not say (mlx-vlm) is
a drafting round and makes the acceptance unknown, exactly as in the chat and ``tandem bench``
(the server counted such rounds as drafted=0 rounds: no drafts, and an acceptance rate)."""

from __future__ import annotations

from app.core.answer import collect
from app.core.engines.base import Finished, Round
from app.core.serving import protocol as P
from app.core.speculative import mean_accepted_length


def _unknown_rounds() -> list[Round]:
    return [
        Round(0, 0, 0, 3, drafted_known=False),
        Round(1, 4, 2, 3),
        Round(2, 0, 0, 2, drafted_known=False),
        Round(3, 0, 0, 1),  # a plain verification pass (no draft)
    ]


def test_unknown_draft_rounds_are_drafting_rounds_without_a_rate() -> None:
    rounds = _unknown_rounds()
    figs = P.speculation_figures(collect(rounds), "mtp")
    assert figs["drafting_rounds"] == figs["num_drafts"] == 3
    assert figs["rounds"] == 4
    assert figs["drafted"] == 4 and figs["accepted"] == 2
    assert figs["acceptance_rate"] is None  # some draft count is unknown
    assert figs["mean_accepted_length"] == round(mean_accepted_length(rounds) or 0, 4) == round(8 / 3, 4)
    assert P.usage(collect(rounds))["completion_tokens"] == 9


def test_with_finished_the_engine_totals_and_its_rate_rule_win() -> None:
    rounds = _unknown_rounds()
    fin = Finished(
        reason="stop",
        prompt_tokens=5,
        completion_tokens=9,
        prompt_ms=1.0,
        decode_ms=90.0,
        drafted_total=4,
        accepted_total=2,
        rounds=4,
        drafted_known=False,
    )
    figs = P.speculation_figures(collect([*rounds, fin]), "mtp")
    assert figs["acceptance_rate"] is None and fin.acceptance_rate is None
    assert figs["drafting_rounds"] == 3
    known = Finished(
        reason="stop",
        prompt_tokens=5,
        completion_tokens=9,
        prompt_ms=1.0,
        decode_ms=90.0,
        drafted_total=8,
        accepted_total=6,
        rounds=3,
    )
    figs = P.speculation_figures(
        collect([Round(0, 4, 3, 4), Round(1, 4, 3, 4), Round(2, 0, 0, 1), known]), "draft"
    )
    assert figs["acceptance_rate"] == known.acceptance_rate == 0.75
    assert figs["drafting_rounds"] == 2
    ext = P.extension(collect([known]), "draft")
    assert ext["timings"]["decode_tokens_per_second"] == 100.0
