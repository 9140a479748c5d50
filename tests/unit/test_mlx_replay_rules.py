"""The MLX model-free replay's rules on a suffix cache alone (no model): what it drafts from, the
budget, the end of the answer, and that it leaves the cache as it found it."""

from __future__ import annotations

from app.core.engines.mlx.replay import replay_model_free
from app.core.speculative.suffix import SuffixCache

LEARNED = [1, 2, 3, 4, 5, 6]


def _cache() -> SuffixCache:
    cache = SuffixCache()
    cache.learn([], LEARNED)
    return cache


def test_suffix_drafts_from_the_corpus_and_prompt_lookup_does_not() -> None:
    cache = _cache()
    before = (cache.cached_tokens, cache.cached_responses)
    suffix = replay_model_free("suffix", cache, [9, 1, 2], [3, 4, 5, 6, 7], max_draft=8, budget=100)
    assert [(r.drafted, r.accepted, r.emitted) for r in suffix.rounds if r.drafted] == [(3, 3, 4)]
    assert suffix.emitted_total == 5 and suffix.exact
    lookup = replay_model_free("prompt-lookup", cache, [9, 1, 2], [3, 4, 5, 6, 7], max_draft=8, budget=100)
    assert lookup.drafted_total == 0 and lookup.emitted_total == 5
    assert (cache.cached_tokens, cache.cached_responses) == before  # nothing learned
    assert cache.active_requests == frozenset()


def test_prompt_lookup_drafts_from_the_request_s_own_text() -> None:
    prompt = [7, 8, 9, 10, 11, 0, 7]
    got = replay_model_free("prompt-lookup", SuffixCache(), prompt, [8, 9, 10, 12], max_draft=8, budget=100)
    drafting = [r for r in got.rounds if r.drafted]
    assert drafting and drafting[0].accepted == 2  # 9 10 kept, 11 refused: the answer has 12


def test_the_budget_bounds_each_draft_and_the_answer() -> None:
    cache = _cache()
    got = replay_model_free("suffix", cache, [9, 1, 2], [3, 4, 5, 6, 7], max_draft=8, budget=3)
    assert got.emitted_total == 3
    assert all(r.drafted <= 1 for r in got.rounds)  # room for the target's own token each round


def test_a_draft_past_the_answer_s_end_is_a_lower_bound() -> None:
    got = replay_model_free("suffix", _cache(), [9, 1, 2], [3, 4], max_draft=8, budget=100)
    assert not got.exact
