"""The suffix cache's contract (arctic-inference's SuffixDecodingCache) and its persistence."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from app.core.speculative import suffix as sx
from app.core.speculative import suffix_tree
from app.core.speculative.suffix import Record, SuffixCache, SuffixStore

PROMPT = [1, 2, 3, 4, 5]
ANSWER = [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]


def test_prompt_lookup_proposes_what_follows_the_repeated_text() -> None:
    cache = SuffixCache()
    cache.start_request("r", [7, 8, 9, 40, 41, 42, 43, 5, 6, 7, 8, 9])
    draft = cache.speculate("r", [7, 8, 9, 40, 41, 42, 43, 5, 6, 7, 8, 9], 8)
    assert draft.token_ids == (40, 41, 42)  # bounded by the 3-token match "7 8 9" (factor 1.0)
    # "7 8 9" occurs twice, once at the very end (nothing after it yet): arctic counts both
    assert draft.match_len == 3 and draft.probs == (0.5, 0.5, 0.5) and draft.score == 1.5
    longer = cache.speculate("r", [7, 8, 9, 40, 41, 42, 43, 5, 6, 7, 8, 9], 8, max_spec_factor=2.0)
    assert longer.token_ids == (40, 41, 42, 43, 5, 6)


def test_a_learned_answer_is_proposed_from_its_first_token_for_the_same_prompt() -> None:
    cache = SuffixCache()
    cache.start_request(1, PROMPT)
    cache.add_active_response(1, ANSWER[:4])
    cache.add_active_response(1, ANSWER[4:])  # the tail after the last step is learned too
    assert cache.stop_request(1) == (PROMPT, ANSWER)
    assert cache.active_requests == frozenset()  # released at once
    cache.start_request(2, PROMPT)
    draft = cache.speculate(2, PROMPT, 16)
    # a match is shorter than the context (as arctic's): 4 of the prompt's 5 tokens -> at most 4
    assert draft.token_ids == tuple(ANSWER[:4])
    assert cache.speculate(2, PROMPT, 16, max_spec_factor=4.0).token_ids == tuple(ANSWER)
    assert cache.speculate(2, PROMPT, 3, max_spec_factor=4.0).token_ids == tuple(ANSWER[:3])
    # prompt lookup: the request's own text only
    assert cache.speculate(2, PROMPT, 16, use_global=False).token_ids == ()
    with pytest.raises(KeyError):
        cache.speculate(1, PROMPT, 4)  # a stopped request is not active any more


def test_frequency_scores_and_the_minimum_probability() -> None:
    cache = SuffixCache()
    for i, nxt in enumerate([50, 50, 50, 60]):
        cache.start_request(i, [])
        cache.add_active_response(i, [30, 31, 32, nxt, 70])
        cache.stop_request(i)
    cache.start_request("q", [])
    draft = cache.speculate("q", [30, 31, 32], 1)
    assert draft.token_ids == (50,) and draft.probs == (0.75,)
    # 0.75 and then 1.0 * 0.75 for 70 after 50; a higher floor stops before the split
    assert cache.speculate("q", [30, 31, 32], 1, min_token_prob=0.8).token_ids == ()


def test_interleaved_requests_keep_their_own_active_text() -> None:
    cache = SuffixCache()
    cache.start_request("a", [1, 2, 3])
    cache.start_request("b", [1, 2, 3])
    cache.add_active_response("a", [4, 5, 6, 1, 2, 3])
    cache.add_active_response("b", [9, 9])
    # a's own text repeats 1 2 3 -> 4 5 6; b has not seen that (a is still active, not global)
    assert cache.speculate("a", [1, 2, 3, 4, 5, 6, 1, 2, 3], 3).token_ids == (4, 5, 6)
    assert cache.speculate("b", [1, 2, 3, 9, 9, 1, 2, 3], 3).token_ids == (9, 9)
    cache.stop_request("a")
    assert cache.speculate("b", [1, 2, 3, 9, 9, 1, 2, 3], 3).token_ids in {(9, 9), (4, 5, 6)}
    assert cache.active_requests == frozenset({"b"})
    with pytest.raises(ValueError):
        cache.start_request("b", [])


def test_size_limit_drops_the_oldest_answer_first_and_forgetting() -> None:
    cache = SuffixCache(max_cached_tokens=25)
    for i in range(3):
        cache.start_request(i, [])
        cache.add_active_response(i, [100 + i] * 2 + list(range(200 + 10 * i, 208 + 10 * i)))
        cache.stop_request(i, conversation=f"c{i}")
    assert cache.cached_responses == 2 and cache.cached_tokens == 20
    cache.start_request("q", [])
    assert cache.speculate("q", [100, 100, 100], 4).token_ids == ()  # the oldest is gone
    assert cache.speculate("q", [101, 101, 101], 2).token_ids == (210, 211)
    assert cache.forget_conversation("c1") == 1
    assert cache.speculate("q", [101, 101, 101], 2).token_ids == ()
    assert cache.speculate("q", [102, 102, 102], 2).token_ids == (220, 221)
    cache.forget_all()
    assert cache.speculate("q", [102, 102, 102], 2).token_ids == () and cache.cached_tokens == 0


def test_the_store_persists_bounds_and_forgets(tmp_path: Path) -> None:
    key = sx.conversation_key("", "What is 2+2?")
    other = sx.conversation_key("", "Hello")
    store = SuffixStore("vocab1", max_tokens=40, root=tmp_path)
    store.append(Record(PROMPT, ANSWER, key))
    store.append(Record([6, 6, 6], [20, 21, 22, 23], other))
    cache = store.open_cache()  # as a new process would
    assert cache.cached_responses == 2
    cache.start_request("r", PROMPT)
    assert cache.speculate("r", PROMPT, 5).token_ids == tuple(ANSWER[:4])
    assert sx.stored_tokens(tmp_path) == 15 + 7

    # deleting the conversation deletes its answer on disk and in the live cache
    assert sx.forget_conversation(key, root=tmp_path) == 1
    assert cache.speculate("r", PROMPT, 5).token_ids == ()
    assert [r.conversation for r in SuffixStore("vocab1", root=tmp_path).records()] == [other]

    # the size limit: the oldest records go first
    for i in range(6):
        store.append(Record([], [300 + i] * 10, None))
    kept = SuffixStore("vocab1", max_tokens=40, root=tmp_path).records()
    assert sum(r.size for r in kept) <= 40 and kept[-1].response == [305] * 10

    sx.forget_all(root=tmp_path)
    assert SuffixStore("vocab1", root=tmp_path).records() == [] and cache.cached_tokens == 0


def test_a_corrupt_line_is_skipped_not_fatal(tmp_path: Path) -> None:
    (tmp_path / "v.jsonl").write_text('{"p": [1], "r": [2, 3]}\nnot json\n{"p": "x"}\n', "utf-8")
    assert [r.response for r in SuffixStore("v", root=tmp_path).records()] == [[2, 3]]


def test_conversation_key_of_messages_matches_the_store_side() -> None:
    msgs = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "Hello"},
        {"role": "user", "content": "Again"},
    ]
    assert sx.key_for_messages(msgs) == sx.conversation_key("Be brief.", "Hi")
    assert sx.key_for_messages([{"role": "system", "content": "x"}]) is None


def test_speculation_on_a_full_corpus_drafts_the_continuation_it_holds() -> None:
    """A large, repetitive corpus (common n-grams with many hits): the draft is the continuation
    every occurrence agrees on, as long as asked. What a call costs there (it runs once per step,
    next to a forward pass) is measured in benchmarks/bench_hot_paths.py, not asserted here."""
    cache = SuffixCache(max_cached_tokens=sx.DEFAULT_MAX_TOKENS)
    for i in range(400):
        cache.learn([], [(i * 7 + j) % 50 for j in range(500)])  # 200k tokens, 50 distinct ids
    cache.start_request("q", list(range(20)))
    ctx = [(3 * 7 + j) % 50 for j in range(40)]
    draft = cache.speculate("q", ctx, 16)
    assert list(draft.token_ids) == [(ctx[-1] + 1 + k) % 50 for k in range(16)]
    assert cache.speculate("q", ctx, 16).token_ids == draft.token_ids  # the same tree, the same draft


def test_verify_cost_gate_learns_the_cost_ratio_and_the_acceptance_per_match_length() -> None:
    from app.core.engines.mlx.modelfree import VerifyCost

    cost = VerifyCost()
    assert cost.ratio() == 0.0  # unmeasured: every draft is verified
    cost.observe(1, 0.100)
    cost.observe(17, 0.900)  # 16 extra tokens for 0.8 s: 0.05 s each, half a one-token pass
    assert abs(cost.ratio() - 0.5) < 1e-9
    assert cost.accepted_share(3) == 0.5  # prior
    cost.observe_round(3, 4, 0)
    cost.observe_round(40, 16, 16)
    assert cost.accepted_share(3) == 0.0 and cost.accepted_share(30) == 1.0
    assert [cost.explore(30) for _ in range(8)] == [False] * 7 + [True]


def test_probes_of_a_failing_match_length_back_off_and_an_accepted_one_resets_them() -> None:
    """A probe verifies a draft the gate refused; after a pipelined round it costs a whole pass,
    so a bucket whose drafts keep failing is probed ever more rarely (a first pass on this CPU lost
    3-5% to probes of short matches, every 8th refusal, none accepted)."""
    from app.core.engines.mlx.modelfree import VerifyCost

    cost = VerifyCost()
    assert [cost.explore(5) for _ in range(8)] == [False] * 7 + [True]
    cost.observe_round(5, 2, 0)  # the probe failed: wait twice as long
    assert [cost.explore(5) for _ in range(16)] == [False] * 15 + [True]
    cost.observe_round(5, 1, 0)
    assert [cost.explore(5) for _ in range(32)] == [False] * 31 + [True]
    assert [cost.explore(40) for _ in range(8)] == [False] * 7 + [True]  # other buckets: their own
    cost.observe_round(5, 2, 1)  # accepted: back to every 8th
    assert [cost.explore(5) for _ in range(8)] == [False] * 7 + [True]
    for _ in range(20):
        cost.observe_round(5, 2, 0)
    assert [cost.explore(5) for _ in range(256)] == [False] * 255 + [True]  # bounded wait


def test_counts_follow_additions_and_removals() -> None:
    """After answers are learned and evicted, every n-gram's count and, where it is a node of its
    own, its children's counts are those of the answers that remain."""
    import random

    rng = random.Random(7)
    cache = SuffixCache(max_cached_tokens=2000, prompt_tail=0)
    kept: list[list[int]] = []
    for _ in range(300):
        answer = [rng.randint(1, 4) for _ in range(rng.randint(5, 60))]
        cache.learn([], answer)
        kept.append(answer)
        while sum(map(len, kept)) > 2000 and len(kept) > 1:
            kept.pop(0)
        cache.start_request("q", [])
        cache.speculate("q", [rng.randint(1, 4) for _ in range(6)], 4)  # replays the tie orders
        cache.stop_request("q")

    counted = Counter(tuple(s[i : i + n]) for s in kept for n in range(1, 8) for i in range(len(s) - n + 1))

    def occurrences(gram: tuple[int, ...]) -> int:
        return counted[gram]

    corpus = cache._global
    assert sorted(map(tuple, corpus.seqs.values())) == sorted(map(tuple, kept))
    grams = [gram for gram in counted if len(gram) < 7]
    nodes = 0
    for gram in grams:
        assert corpus.count(gram) == occurrences(gram), gram
        found = corpus._find(list(gram))
        if isinstance(found, suffix_tree._Node):
            nodes += 1
            kids = {t: occurrences((*gram, t)) for t in range(1, 5)}
            assert found.kids == {t: n for t, n in kids.items() if n}, gram
            assert sorted(found.order()) == sorted(found.kids)
            assert [found.kids[t] for t in found.order()] == sorted(found.kids.values(), reverse=True)
    assert nodes > 50  # frequent n-grams became nodes, rare ones stayed lists
    assert corpus.count((99,)) == 0 and corpus.count((1, 99, 1)) == 0


def test_a_nodes_children_keep_arctics_order_through_additions_and_removals() -> None:
    """The order a node keeps as each child event comes is the one :func:`_replay` gives for the
    whole history (arctic's sibling-list moves), head included, after every event."""
    import random

    rng = random.Random(11)
    for _trial in range(40):
        node = suffix_tree._Node()
        events: list[int] = []
        live: dict[int, int] = {}
        for _ in range(rng.randint(1, 300)):
            if live and rng.random() < 0.35:
                tok = rng.choice(sorted(live))
                node.unbump(tok)
                events.append(~tok)
                live[tok] -= 1
                if not live[tok]:
                    del live[tok]
            else:
                tok = rng.randint(0, 9)
                node.bump(tok)
                events.append(tok)
                live[tok] = live.get(tok, 0) + 1
            order: list[int] = []
            suffix_tree._replay(order, {}, events)
            assert node.order() == order
            assert node.top == (max(live.values()) if live else 0)
