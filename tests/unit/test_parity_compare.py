"""The parity comparison itself, on constructed runs (the real runs are in tests/integration)."""

from __future__ import annotations

from app.core.answer import Answer
from app.core.measure import compare


def run(
    pieces: list[str], ids: list[int] | None = None, cands: list[list[tuple[int, str, float]]] | None = None
) -> Answer:
    return Answer(pieces=pieces, token_ids=ids, candidates=cands, completion_tokens=len(pieces))


def test_identical_text() -> None:
    res = compare(run(["a", "b"], [1, 2]), run(["a", "b"]))
    assert res.identical and res.compared.startswith("text")


def test_divergence_reports_token_position_candidates_and_gap() -> None:
    cands = [[(1, "The", -0.1)], [(2, " cat", -0.70), (3, " dog", -0.72)], [(4, " sat", -0.2)]]
    off = run(["The", " cat", " sat"], [1, 2, 4], cands)
    on = run(["The", " dog", " sat"])
    res = compare(off, on)
    assert not res.identical and res.first_difference == 1
    assert res.off_token == " cat" and res.on_text is not None and res.on_text.startswith(" dog")
    assert res.candidates == cands[1]
    assert res.logprob_gap is not None and abs(res.logprob_gap - 0.02) < 1e-9 and res.near_tie


def test_divergence_by_ids_and_length() -> None:
    res = compare(run(["a", "b", "c"], [1, 2, 3]), run(["a", "b"], [1, 2]))
    assert not res.identical and res.compared == "token ids" and res.first_difference == 2
