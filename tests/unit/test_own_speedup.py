"""An answer's speedup from its own passes (app/core/speculative/speedup.py): nothing drafted is
plain decoding, an answer's plain passes price its tokens, other answers' plain steps and the
learned cost of a pass stand in when it has none; the figure does not move with the machine's load."""

from __future__ import annotations

import pytest

from app.core.chat import AnswerStats
from app.core.speculative.rounds import Pass, TimingsRounds
from app.core.speculative.speedup import MIN_PLAIN_PASSES, PlainSteps, Speedup, speedup_of


def plain(n: int, ms: float = 10.0) -> list[Pass]:
    return [Pass(0, 1, ms) for _ in range(n)]


def test_an_answer_that_drafted_nothing_is_plain_decoding() -> None:
    got = speedup_of(plain(20, 10.0) + plain(5, 30.0), drafted_total=0)
    assert got == Speedup(1.0, "nothing-drafted", 10.0)
    assert got.claimed is None
    stats = AnswerStats(speculation="ngram-mod", decode_tps=50.0, baseline_tps=8.0, own_speedup=1.0,
                        speedup_basis="nothing-drafted")  # fmt: skip
    assert stats.speedup is None  # the window claims nothing, whatever an old baseline says


def test_the_answers_own_plain_passes_price_its_tokens() -> None:
    passes = [*plain(6, 10.0), Pass(8, 9, 30.0), Pass(8, 5, 30.0)]
    got = speedup_of(passes, drafted_total=16)
    assert got.basis == "own-steps" and got.plain_step_ms == 10.0
    assert got.value == pytest.approx((6 + 14) * 10.0 / (60 + 60))


def test_the_same_answer_under_any_load_has_the_same_speedup() -> None:
    passes = plain(4, 10.0) + [Pass(8, 9, 35.0)] * 5
    slow = [Pass(p.drafted, p.tokens, p.ms * 3.1) for p in passes]  # another program took the core
    assert speedup_of(passes, 40).value == pytest.approx(speedup_of(slow, 40).value)


def test_without_plain_passes_recent_steps_then_the_learned_cost_stand_in() -> None:
    t = [0.0]
    steps = PlainSteps(clock=lambda: t[0])
    drafting = [Pass(8, 9, 40.0)] * 4
    assert steps.speedup("draft", drafting, 32) == Speedup(None)  # nothing known: no claim
    steps.observe("off", plain(MIN_PLAIN_PASSES + 2, 10.0))
    got = steps.speedup("draft", drafting, 32)
    assert got.basis == "recent-steps" and got.value == pytest.approx(36 * 10.0 / 160.0)
    steps.observe("draft", drafting)  # a pass drafting 8 costs 4 plain steps
    got = steps.speedup("draft", [Pass(8, 9, 80.0)] * 2, 16)  # slower: another program took a core
    assert got.basis == "cost-model" and got.value == pytest.approx(18 / 8.0)
    t[0] += 600.0  # long after: the plain steps are old, the ratio stays
    assert steps.speedup("draft", [Pass(8, 9, 40.0)] * 2, 16).value == pytest.approx(18 / 8.0)
    # never seen drafting 3: on the line from a plain step (0 drafted, 1 step) to 8 drafted at 4
    assert steps.speedup("draft", [Pass(3, 4, 80.0)], 3).value == pytest.approx(4 / (1 + 3 * 3 / 8))
    assert steps.speedup("ngram-mod", [Pass(3, 4, 80.0)], 3) == Speedup(None)  # no price at all


def test_passes_are_read_from_llama_servers_per_token_timings() -> None:
    t = TimingsRounds()
    chunks = [(1, 0.0, 0, 0), (2, 10.0, 0, 0), (3, 21.0, 0, 0)]  # the prompt's token, two plain steps
    chunks += [(4, 60.0, 8, 2), (5, 60.0, 8, 2), (6, 60.0, 8, 2), (7, 71.0, 8, 2)]  # a round of 3, a step
    for pn, ms, dn, da in chunks:
        t.step({"predicted_n": pn, "predicted_ms": ms, "draft_n": dn, "draft_n_accepted": da})
    assert t.passes == [Pass(0, 1, 10.0), Pass(0, 1, 11.0), Pass(8, 3, 39.0), Pass(0, 1, 11.0)]


def test_a_speculative_childs_plain_passes_are_priced_as_plain_decodings() -> None:
    """Plain passes of a child that tries to draft cost more than plain decoding's steps: the
    overhead is learned against plain decoding measured a moment apart, and divided out."""
    steps = PlainSteps(clock=lambda: 0.0)
    steps.observe("off", plain(8, 10.0))
    answer = [*plain(5, 15.0), Pass(8, 9, 45.0)]
    first = steps.speedup("ngram-mod", answer, 8)
    assert first.basis == "cost-model" or first.basis == "recent-steps"
    steps.observe("ngram-mod", answer)
    assert steps.overhead("ngram-mod") == pytest.approx(1.5)
    again = steps.speedup("ngram-mod", [Pass(p.drafted, p.tokens, p.ms * 2) for p in answer], 8)  # busier
    assert again.basis == "own-steps" and again.plain_step_ms == pytest.approx(20.0)
    assert again.value == pytest.approx(14 * 20.0 / (2 * (75.0 + 45.0)))


def test_a_price_is_learned_from_a_plain_answer_beside_it_once() -> None:
    """Each price is a pair of neighbouring answers: the speculative answers after the first one
    beside a plain answer teach nothing, so the same answer shows the same figure; a plain answer
    that comes after a speculative one prices it."""
    t = [0.0]
    steps = PlainSteps(clock=lambda: t[0])
    steps.observe("off", plain(6, 10.0))
    t[0] += 2.0
    steps.observe("draft", [Pass(8, 9, 40.0)] * 4)  # priced: 4 plain steps
    answer = [Pass(8, 9, 50.0)] * 4
    first = steps.speedup("draft", answer, 32)
    for slower in (60.0, 90.0, 120.0):  # the load grows; the plain step was not measured again
        t[0] += 2.0
        steps.observe("draft", [Pass(8, 9, slower)] * 4)
        assert steps.speedup("draft", answer, 32) == first
    assert steps.ratio("draft", 8) == pytest.approx(4.0)
    t[0] += 2.0
    steps.observe("draft", [Pass(8, 9, 60.0)] * 4)  # waits for a plain answer beside it
    t[0] += 2.0
    steps.observe("off", plain(6, 20.0))  # the plain step, as slow now: the waiting answer is priced 3
    assert steps.ratio("draft", 8) == pytest.approx(3.5)  # the median of 4 and 3
    t[0] += 60.0
    steps.observe("ngram-mod", [Pass(4, 5, 30.0)] * 3)
    t[0] += 60.0  # too long apart to be a pair
    steps.observe("off", plain(6, 10.0))
    assert steps.ratio("ngram-mod", 4) is None


def test_a_long_answer_beside_a_plain_one_is_priced_by_the_gap_between_them() -> None:
    """Two answers are a pair when the second starts decoding soon after the first ended, however
    long each of them took (a slow machine makes every answer long)."""
    t = [0.0]
    steps = PlainSteps(clock=lambda: t[0])
    steps.observe("off", plain(6, 100.0))
    long_answer = [Pass(8, 9, 400.0)] * 100  # 40 s of decoding
    t[0] += 8.0 + 40.0  # the user read for 8 s, then the answer decoded for 40 s
    steps.observe("draft", long_answer)
    assert steps.ratio("draft", 8) == pytest.approx(4.0)
    t[0] += 60.0  # the next plain answer starts 30 s after it ended (30 s of decoding): too far apart
    steps.observe("ngram-mod", [Pass(4, 5, 300.0)] * 100)
    t[0] += 30.0 + 30.0
    steps.observe("off", plain(300, 100.0))
    assert steps.ratio("ngram-mod", 4) is None
    t[0] += 5.0 + 30.0  # starts decoding 5 s after the plain answer ended: a pair
    steps.observe("ngram-mod", [Pass(4, 5, 300.0)] * 100)
    assert steps.ratio("ngram-mod", 4) == pytest.approx(3.0)


def test_a_long_answer_is_judged_by_the_plain_steps_before_it_began() -> None:
    """Plain decoding's recent steps count from when the judged answer began decoding, so a long
    answer right after a plain one still has its counterfactual."""
    t = [0.0]
    steps = PlainSteps(clock=lambda: t[0])
    steps.observe("off", plain(6, 100.0))
    t[0] += 8.0 + 90.0  # 8 s later, an answer decoded for 90 s
    long_answer = [Pass(8, 9, 900.0)] * 100
    got = steps.speedup("draft", long_answer, 900)
    assert got.basis == "recent-steps" and got.value == pytest.approx(1.0)
