"""Parity verdicts: EXACT, TOP_K_MATCH (mutual top-k at the first difference) or FAIL."""

from __future__ import annotations

from app.core.answer import Answer
from app.core.measure.bench import compare


def _run(ids: list[int], cands: list[list[tuple[int, str, float]]] | None) -> Answer:
    return Answer(pieces=[str(i) for i in ids], token_ids=ids, candidates=cands, completion_tokens=len(ids))


ROW_SAME = [(1, "a", -0.1), (2, "b", -3.0)]


def test_exact() -> None:
    res = compare(_run([1, 1], [ROW_SAME, ROW_SAME]), _run([1, 1], None))
    assert res.identical and res.verdict == "EXACT"


def test_a_near_tie_in_each_others_top_k_is_a_top_k_match_with_its_gap() -> None:
    off = _run([1, 5, 7], [ROW_SAME, [(5, "x", -0.70), (6, "y", -0.72)], ROW_SAME])
    on = _run([1, 6, 9], [ROW_SAME, [(6, "y", -0.69), (5, "x", -0.71)], ROW_SAME])
    res = compare(off, on)
    assert res.verdict == "TOP_K_MATCH" and res.first_difference == 1
    assert res.logprob_gap is not None and abs(res.logprob_gap - 0.02) < 1e-9 and res.near_tie
    assert res.on_token == "y"


def test_not_mutual_or_without_spec_on_candidates_is_a_fail() -> None:
    off = _run([1, 5], [ROW_SAME, [(5, "x", -0.1), (6, "y", -2.5)]])
    on_not_mutual = _run([1, 6], [ROW_SAME, [(6, "y", -0.1), (8, "z", -2.0)]])  # 5 not in on's top
    assert compare(off, on_not_mutual).verdict == "FAIL"
    assert compare(off, _run([1, 6], None)).verdict == "FAIL"
    assert compare(off, _run([1], [ROW_SAME])).verdict == "FAIL"  # one side ended early
