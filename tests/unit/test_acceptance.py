"""A drafter's acceptance by draft position (app/core/speculative/acceptance.py), and the prediction
it gives for a drafter that did not run on an answer (app/core/speculative/predict.py)."""

from __future__ import annotations

import pytest

from app.core.speculative.acceptance import ANY, MIN_ROUNDS, AcceptanceByPosition
from app.core.speculative.predict import predict
from app.core.speculative.rounds import Pass
from app.core.speculative.speedup import PlainSteps


def test_each_round_says_which_positions_were_tried_and_kept() -> None:
    seen = AcceptanceByPosition()
    # drafted 4, kept 2: positions 1-2 kept, 3 tried and rejected, 4 never tried
    # drafted 4, kept 4: every position kept
    seen.observe("draft", ANY, [Pass(4, 3, 10.0), Pass(4, 5, 10.0), Pass(0, 1, 3.0)])
    found = seen.positions("draft")
    assert found is not None and found.rounds == 2  # the plain pass is no round of the drafter
    assert found.reached == [2, 2, 2, 1] and found.kept == [2, 2, 1, 1]
    assert found.acceptance() == [1.0, 1.0, 0.5, 1.0]
    # a round emits 1 + 1 + 1 + 0.5 + 0.5 tokens: its mean over the two rounds, (3 + 5) / 2
    assert found.tokens_per_round() == pytest.approx(4.0)


def test_a_drafter_that_stops_early_emits_by_the_depth_it_drafts() -> None:
    seen = AcceptanceByPosition()
    seen.observe("draft", ANY, [Pass(2, 3, 10.0), Pass(6, 7, 10.0)])  # both rounds kept everything
    expected = seen.estimate("draft")
    assert expected is not None
    assert expected.tokens_per_round == pytest.approx(5.0)  # (3 + 7) / 2
    assert expected.depths == {2: 0.5, 6: 0.5}


def test_a_kind_with_few_rounds_is_estimated_from_every_kind() -> None:
    seen = AcceptanceByPosition()
    seen.observe("draft", "prose", [Pass(4, 5, 10.0)] * MIN_ROUNDS)  # prose keeps everything
    seen.observe("draft", "code-edit", [Pass(4, 1, 10.0)] * 2)  # two code rounds kept nothing
    prose, code = seen.estimate("draft", "prose"), seen.estimate("draft", "code-edit")
    assert prose is not None and prose.tokens_per_round == pytest.approx(5.0)
    assert code is not None and code.rounds == MIN_ROUNDS + 2  # too few of its own: all kinds
    assert seen.estimate("ngram-mod") is None


def test_a_drafter_that_did_not_run_is_predicted_from_its_estimate_at_its_price() -> None:
    steps = PlainSteps(clock=lambda: 0.0)
    steps.observe("off", [Pass(0, 1, 10.0)] * 8)
    steps.observe("draft", [Pass(4, 5, 30.0)] * 4)  # a round of the drafter costs 3 plain steps
    seen = AcceptanceByPosition()
    seen.observe("draft", ANY, [Pass(4, 5, 30.0), Pass(4, 2, 30.0)])  # 5 and 2 tokens: 3.5 a round
    expected = seen.estimate("draft")
    assert expected is not None
    ran = ("off", None, [Pass(0, 1, 10.0)] * 40)
    got = predict(steps, 10.0, 40, ran, {}, [], {"draft": (4, expected)})
    draft = next(a for a in got if a.speculation == "draft")
    assert draft.basis == "estimated" and not draft.ran and draft.draft_tokens == 4
    assert draft.decode_tokens_per_second == pytest.approx(3.5 * 1000.0 / (3 * 10.0))
    plain = next(a for a in got if a.speculation == "off")
    assert plain.ran and plain.basis == "replayed"
    # a drafter never priced is left out rather than guessed
    unpriced = predict(steps, 10.0, 40, ran, {}, [], {"eagle": (4, expected)})
    assert [a.speculation for a in unpriced] == ["off"]


def test_a_chain_is_its_model_free_rounds_and_its_drafter_where_they_found_nothing() -> None:
    from app.core.speculative.predict import Chain
    from app.core.speculative.replay import ReplayRound

    steps = PlainSteps(clock=lambda: 0.0)
    steps.observe("off", [Pass(0, 1, 10.0)] * 8)
    steps.observe("draft", [Pass(4, 5, 30.0)] * 4)  # a drafter round: 3 plain steps
    steps.observe("ngram-mod", [Pass(8, 9, 20.0)] * 4)  # verifying 8 n-gram drafts: 2 plain steps
    ran = ("off", None, [Pass(0, 1, 10.0)] * 32)
    rounds_ = [ReplayRound(8, 8, 9, "ngram-mod")] * 2 + [ReplayRound(0, 0, 1)] * 14
    seen = AcceptanceByPosition()
    seen.observe("draft", ANY, [Pass(4, 5, 30.0), Pass(4, 2, 30.0)])  # 3.5 tokens a round
    expected = seen.estimate("draft")
    assert expected is not None
    # the n-gram method drafted twice (9 tokens each) and left 14 tokens to plain steps
    chain = Chain(8, rounds_, "draft", expected)
    unpriced = predict(steps, 10.0, 32, ran, {}, ["ngram-mod"], {}, {"draft+ngram-mod": chain})
    assert "draft+ngram-mod" not in {a.speculation for a in unpriced}  # never ran: not guessed
    steps.observe("draft+ngram-mod", [Pass(8, 9, 30.0)] * 4)  # the chain's round of 8: 3 plain steps
    got = predict(steps, 10.0, 32, ran, {}, ["ngram-mod"], {}, {"draft+ngram-mod": chain})
    found = next(a for a in got if a.speculation == "draft+ngram-mod")
    # two n-gram rounds at the chain's price of 8, then the drafter's rounds (depth 4: on the line
    # from a plain step to 3 steps at 8, so 2) over the 14 tokens left
    spent = 2 * 3.0 + 14 / 3.5 * 2.0
    assert found.basis == "estimated" and found.draft_tokens == 8
    assert found.decode_tokens_per_second == pytest.approx(32 * 1000.0 / (spent * 10.0))


def test_an_estimate_is_scaled_by_how_far_it_was_where_the_configuration_ran() -> None:
    from app.core.speculative.predict import (
        ESTIMATE_ANSWERS_MIN,
        ESTIMATE_SCALE_LIMIT,
        Alternative,
        EstimateBias,
    )

    bias = EstimateBias()
    chain = Alternative("draft+ngram-mod", 8, 100.0, "estimated")
    replayed = Alternative("ngram-mod", 64, 100.0, "replayed")
    ran = Alternative("draft+ngram-mod", 8, 100.0, "replayed", ran=True)
    # before enough answers ran it, nothing is scaled
    for _ in range(ESTIMATE_ANSWERS_MIN - 1):
        bias.observe("draft+ngram-mod", estimated_tps=50.0, measured_tps=40.0)
        assert bias.corrected([chain]) == [chain]
    bias.observe("draft+ngram-mod", estimated_tps=25.0, measured_tps=20.0)
    assert bias.factor("draft+ngram-mod") == pytest.approx(0.8)
    got = bias.corrected([chain, replayed, ran])
    # only the estimate moves: a replayed prediction and the one that ran are exact in their drafts
    assert got[0].decode_tokens_per_second == pytest.approx(80.0) and got[0].basis == "estimated"
    assert got[1:] == [replayed, ran]
    # the median of the recent answers, never beyond the limit either way
    for _ in range(10):
        bias.observe("draft", estimated_tps=10.0, measured_tps=1000.0)
    assert bias.factor("draft") == ESTIMATE_SCALE_LIMIT
    assert bias.factor("never-ran") is None
    bias.observe("draft", estimated_tps=0.0, measured_tps=5.0)  # nothing to learn from
    assert bias.factor("draft") == ESTIMATE_SCALE_LIMIT
