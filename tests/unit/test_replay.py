"""The replay of llama.cpp's model-free methods on hand-made token sequences whose drafts are worked
out by hand from llama.cpp's rules (the real engine is compared in
``tests/integration/test_replay_llamacpp.py``)."""

from __future__ import annotations

import random
import time

import pytest

from app.core.engines.llamacpp import translate
from app.core.speculative import SpeculationOptions
from app.core.speculative.replay import PRIORITY, ReplayState, replay
from app.core.speculative.replay_cache import libstdcxx_order
from app.core.speculative.replay_params import NgramMapParams, NgramModParams, ReplayParams


def _rows(result: object) -> list[tuple[int, int, int]]:
    return [(r.drafted, r.accepted, r.emitted) for r in result.rounds]  # type: ignore[attr-defined]


def _mod(n_match: int, n_max: int, n_min: int) -> ReplayParams:
    return ReplayParams(ngram_mod=NgramModParams(n_match, n_max, n_min))


# --- ngram-mod ----------------------------------------------------------------------------------
def test_ngram_mod_drafts_from_the_prompt_and_keeps_the_matching_prefix() -> None:
    # the prompt teaches (10,11)->12, (11,12)->13, (12,13)->14; after "10" nothing follows (14,10),
    # after "10 11" the pool proposes 12 13 14, and the target keeps 12 13 then says 99
    result = replay("ngram-mod", _mod(2, 3, 1), [10, 11, 12, 13, 14], [10, 11, 12, 13, 99])
    assert _rows(result) == [(0, 0, 1), (0, 0, 1), (3, 2, 3)]
    assert (result.drafted_total, result.accepted_total, result.emitted_total) == (3, 2, 5)
    assert result.rounds[2].method == "ngram-mod" and result.rounds[0].method == ""
    assert result.exact


def test_the_draft_is_capped_by_max_tokens_and_context_like_the_server() -> None:
    prompt, answer = [10, 11, 12, 13, 14], [10, 11, 12, 13, 99]
    # room = max_tokens - emitted - 1 = 5 - 2 - 1: the draft 12 13 14 is cut to 12 13
    assert _rows(replay("ngram-mod", _mod(2, 3, 1), prompt, answer, max_tokens=5)) == [
        (0, 0, 1),
        (0, 0, 1),
        (2, 2, 3),
    ]
    # room = n_ctx - history - 2 = 9 - 6 - 2
    assert _rows(replay("ngram-mod", _mod(2, 3, 1), prompt, answer, n_ctx=9)) == [
        (0, 0, 1),
        (0, 0, 1),
        (1, 1, 2),
        (0, 0, 1),
    ]
    # one token left to generate: no draft at all
    assert _rows(replay("ngram-mod", _mod(2, 3, 1), prompt, [10, 11, 12], max_tokens=3)) == [(0, 0, 1)] * 3


def test_a_target_without_rollback_verifies_a_partial_draft_again() -> None:
    # the pool maps 10->11->12->13; after "10" it drafts 11 12 13 and the target keeps 11 12, says 10
    params, prompt, answer = _mod(1, 3, 1), [10, 11, 12, 13, 14], [10, 11, 12, 10, 11, 12, 13]
    kv_cache = replay("ngram-mod", params, prompt, answer, max_tokens=7)
    assert _rows(kv_cache) == [(0, 0, 1), (3, 2, 3), (2, 2, 3)]
    # a recurrent target restores its checkpoint: the second pass emits 11 12 10 and one more (11)
    # without a draft, so the next draft starts after "11" (and is capped to one token)
    recurrent = replay("ngram-mod", params, prompt, answer, max_tokens=7, rollback_limit=0)
    assert _rows(recurrent) == [(0, 0, 1), (3, 2, 3), (0, 0, 1), (1, 1, 2)]
    # a bounded rollback state drops up to its limit in place
    bounded = replay("ngram-mod", params, prompt, answer, max_tokens=7, rollback_limit=1)
    assert _rows(bounded) == _rows(kv_cache)


def test_ngram_mod_below_n_min_drafts_nothing() -> None:
    # the pool knows only two tokens after "10 11" (12, 13): fewer than n_min 3
    result = replay("ngram-mod", _mod(2, 8, 3), [10, 11, 12, 13], [10, 11, 12, 13, 5])
    assert result.drafted_total == 0 and result.round_count == 5


def test_the_end_token_is_emitted_and_a_draft_past_it_makes_the_replay_inexact() -> None:
    # the target ended after "10 11" with token 12 (end of generation); the draft 12 13 14 matched
    # it and went on, where the target's tokens are unknown
    result = replay("ngram-mod", _mod(2, 3, 1), [10, 11, 12, 13, 14], [10, 11], end_token=12)
    assert _rows(result) == [(0, 0, 1), (0, 0, 1), (3, 1, 1)]
    assert not result.exact
    assert result.emitted_total == 3


def test_ngram_mod_pool_outlives_the_answer_and_answers_draft_from_earlier_ones() -> None:
    params = _mod(2, 8, 1)
    first = replay("ngram-mod", params, [100, 101, 102], list(range(1, 50)))
    assert first.drafted_total == 0  # no n-gram repeats inside the first answer
    # the first answer's n-grams went into the pool in a chunk of 32 at its 32nd token
    second = replay("ngram-mod", params, [200, 201, 202], list(range(5, 15)), first.state)
    assert _rows(second) == [(0, 0, 1), (0, 0, 1), (8, 8, 8)]
    fresh = replay("ngram-mod", params, [200, 201, 202], list(range(5, 15)))
    assert fresh.drafted_total == 0


def test_ngram_mod_empties_its_pool_after_five_poor_rounds_in_a_row() -> None:
    # the pool maps 1->2->3->4->5; every "1" proposes 2 3 4 5 and the target says 9
    result = replay("ngram-mod", _mod(1, 4, 1), [1, 2, 3, 4, 5], [1, 9] * 6)
    assert _rows(result) == [(0, 0, 1)] + [(4, 0, 1), (0, 0, 1)] * 5 + [(0, 0, 1)]
    assert result.state.pool.used == 0


def test_ngram_mod_empties_an_over_full_pool_when_a_prompt_starts() -> None:
    state = ReplayState(["ngram-mod"], _mod(1, 4, 1))
    state.pool.table.update({i: 1 for i in range((1 << 20) + 1)})  # more than a quarter of 4 Mi
    result = replay("ngram-mod", _mod(1, 4, 1), [1, 2, 3, 4, 5], [1, 2, 3], state)
    assert result.state.pool.used == 0 and result.drafted_total == 0


# --- ngram-simple -------------------------------------------------------------------------------
def test_ngram_simple_copies_what_followed_the_latest_earlier_match() -> None:
    params = ReplayParams(ngram_simple=NgramMapParams(2, 3, 1))
    result = replay("ngram-simple", params, [1, 2, 3, 4, 5, 6, 7, 8], [3, 4, 5, 6, 9])
    assert _rows(result) == [(0, 0, 1), (0, 0, 1), (3, 2, 3)]


def test_ngram_simple_drafts_nothing_shorter_than_its_key() -> None:
    params = ReplayParams(ngram_simple=NgramMapParams(2, 1, 1))
    assert replay("ngram-simple", params, [1, 2, 3, 4, 5, 6, 7, 8], [3, 4, 5, 6, 9]).drafted_total == 0


# --- ngram-map-k / ngram-map-k4v ------------------------------------------------------------------
PROMPT = [1, 2, 3, 4, 5, 6, 7, 8, 9]
ANSWER = [2, 3, 4, 5, 9, 2, 3, 4, 7]


def test_ngram_map_k_drafts_no_more_than_its_key_got_accepted_last_time() -> None:
    params = ReplayParams(ngram_map_k=NgramMapParams(2, 3, 1))
    result = replay("ngram-map-k", params, PROMPT, ANSWER)
    # "2 3" drafts 4 5 6 (2 kept); the next time the same key drafts only 2 tokens: 4 5 (1 kept)
    assert _rows(result) == [(0, 0, 1), (0, 0, 1), (3, 2, 3), (0, 0, 1), (0, 0, 1), (2, 1, 2)]


def test_ngram_map_k4v_waits_for_min_hits() -> None:
    params = ReplayParams(ngram_map_k4v=NgramMapParams(2, 3, 2))
    result = replay("ngram-map-k4v", params, PROMPT, ANSWER)
    assert _rows(result) == [(0, 0, 1)] * 7 + [(3, 1, 2)]


def test_ngram_map_k4v_drafts_nothing_when_no_value_clearly_dominates() -> None:
    # "5 6" is followed once by 7 8 9 and once by 1 2 3: neither value is twice the others
    params = ReplayParams(ngram_map_k4v=NgramMapParams(2, 3, 1))
    prompt = [5, 6, 7, 8, 9, 31, 5, 6, 1, 2, 3, 32, 33, 34, 35]
    assert replay("ngram-map-k4v", params, prompt, [5, 6, 4]).drafted_total == 0
    # with a third "5 6 7 8 9" the first value dominates (2 against 1) and is drafted
    prompt3 = [5, 6, 7, 8, 9, 31, 5, 6, 1, 2, 3, 32, 5, 6, 7, 8, 9, 33, 34, 35, 36]
    result = replay("ngram-map-k4v", params, prompt3, [5, 6, 7, 8, 9, 4])
    assert _rows(result) == [(0, 0, 1), (0, 0, 1), (3, 3, 4)]


# --- ngram-cache --------------------------------------------------------------------------------
def test_ngram_cache_drafts_from_its_counts_and_at_most_eight_tokens() -> None:
    result = replay("ngram-cache", None, [1, 2, 3, 1, 2, 3, 1, 2], [3, 1, 2, 3], max_tokens=4)
    assert _rows(result) == [(0, 0, 1), (2, 2, 3)]
    unlimited = replay("ngram-cache", None, [1, 2, 3] * 5, [1, 2, 3] * 5)
    assert max(r.drafted for r in unlimited.rounds) == 8


def test_libstdcxx_iteration_order() -> None:
    """Orders printed by a program built with libstdc++ for the same insertions."""
    assert libstdcxx_order([1, 2, 14]) == [2, 14, 1]
    keys = [5, 18, 31, 2, 15, 28, 41, 7, 20, 33, 1, 13, 26, 39, 52, 65]  # 13 buckets, then 29
    assert libstdcxx_order(keys) == [52, 39, 5, 18, 31, 2, 15, 28, 41, 65, 7, 20, 33, 1, 13, 26]


def test_ngram_cache_breaks_a_tie_by_the_containers_order() -> None:
    # "3 4" is followed once by 7 and once by 20 (a tie that passes the 2-gram rule of 50%): both
    # land in bucket 7 of 13 and the later one leads its bucket, so 20 is drafted (then 0, which
    # followed "3 4 20"); in insertion order 7 would have been drafted and rejected
    assert libstdcxx_order([7, 20]) == [20, 7]
    result = replay("ngram-cache", None, [3, 4, 7, 0, 3, 4, 20, 0, 9, 3], [4, 20, 5], max_tokens=4)
    assert _rows(result) == [(0, 0, 1), (2, 1, 2)]


# --- configuration, chaining, state ----------------------------------------------------------------
def test_several_types_try_in_llamacpps_priority_and_the_first_draft_wins() -> None:
    params = ReplayParams(ngram_mod=NgramModParams(2, 3, 1), ngram_simple=NgramMapParams(2, 3, 1))
    result = replay("ngram-mod+ngram-simple", params, [1, 2, 3, 4, 5, 6, 7, 8], [3, 4, 5, 6, 9])
    assert result.state.methods == ("ngram-simple", "ngram-mod")
    assert [r.method for r in result.rounds if r.drafted] == ["ngram-simple"]
    # ngram-mod drafts where ngram-simple has nothing (before its history is long enough)
    early = replay("ngram-simple+ngram-mod", params, [10, 11, 12, 13, 14], [10, 11, 12, 13, 99])
    assert [r.method for r in early.rounds if r.drafted] == ["ngram-mod"]


def test_params_from_tandems_llamacpp_plan() -> None:
    plan = translate.plan(SpeculationOptions.build(enabled=True, method="ngram-mod"))
    assert ReplayParams.from_settings(plan.settings).ngram_mod == NgramModParams(24, 64, 2)
    options = SpeculationOptions.build(enabled=True, method="ngram-map-k", num_speculative_tokens=16)
    plan = translate.plan(options)
    assert ReplayParams.from_settings(plan.settings).ngram_map_k == NgramMapParams(12, 16, 1)
    assert ReplayParams.from_settings({}) == ReplayParams()


def test_refusals() -> None:
    with pytest.raises(ValueError, match="model-free"):
        replay("draft", None, [1], [2])
    with pytest.raises(ValueError, match="at least 1"):
        replay("ngram-mod", _mod(0, 4, 1), [1], [2])
    state = replay("ngram-mod", None, [1, 2], [3]).state
    with pytest.raises(ValueError, match="another configuration"):
        replay("ngram-simple", None, [1, 2], [3], state)


def test_an_empty_answer_replays_to_no_rounds() -> None:
    result = replay("ngram-mod", None, [1, 2, 3], [])
    assert result.rounds == [] and result.exact


def test_a_copied_state_branches() -> None:
    params = _mod(2, 8, 1)
    base = replay("ngram-mod", params, [100, 101, 102], list(range(1, 50))).state
    branch = base.copy()
    replay("ngram-mod", params, [700, 800, 900], [700, 800, 900], branch)
    assert branch.pool.table != base.pool.table


@pytest.mark.parametrize("method", [*PRIORITY, "ngram-map-k+ngram-mod"])
def test_a_512_token_answer_replays_in_a_few_milliseconds(method: str) -> None:
    rng = random.Random(0)
    prompt = [rng.randrange(49152) for _ in range(1000)]
    answer = prompt[100:260] + [rng.randrange(49152) for _ in range(100)] + prompt[500:600] + [7, 11, 13] * 51
    answer = answer[:512]
    params = ReplayParams.from_settings({"speculative.ngram_mod.n_min": 2})
    state = replay(method, params, prompt, answer, end_token=2).state
    start = time.process_time()
    result = replay(method, params, prompt, answer, state, end_token=2)
    elapsed = time.process_time() - start
    assert result.emitted_total == 513 and result.drafted_total > 0
    assert elapsed < 0.05, f"{method}: {elapsed * 1000:.1f} ms of CPU for a 512-token answer"
