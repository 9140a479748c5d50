"""Parity (spec-off vs spec-on greedy output) and throughput, measured side by side in one run."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from app.core.answer import Answer, collect
from app.core.engines.base import ChatMessage, Engine, Sampling
from app.core.engines.blocking import generate
from app.core.speculative.rounds import json_rate


def run_once(engine: Engine, prompt: str, sampling: Sampling, top_logprobs: int = 0) -> Answer:
    """One answer to ``prompt`` as a user message; with ``top_logprobs`` also the engine's top candidates."""
    messages: list[ChatMessage] = [{"role": "user", "content": prompt}]
    answer = collect(generate(engine, messages, sampling, None, top_logprobs=top_logprobs))
    if not top_logprobs:
        answer.candidates = None
    return answer


def run_json(prompt: str, run: Answer) -> dict[str, Any]:
    """One side of a ``tandem bench --json`` row (the keys and their order are the CLI's contract)."""
    return {
        "prompt": prompt,
        "text": run.text,
        "token_ids": run.token_ids,
        "completion_tokens": run.completion_tokens,
        "decode_ms": run.decode_ms,
        "prompt_ms": run.prompt_ms,
        "first_token_ms": run.ttft_ms or 0.0,
        "wall_ms": run.wall_ms,
        "drafted_total": run.drafted_total,
        "accepted_total": run.accepted_total,
        "rounds": run.round_count,
        "drafting_rounds": run.drafting_rounds,
        "reason": run.reason,
        "decode_tokens_per_second": json_rate(run.decode_tps),
        "acceptance_rate": run.acceptance_rate,
        "mean_accepted_length": run.mean_accepted_length,
    }


@dataclass
class ParityResult:
    prompt: str
    identical: bool
    compared: str  # "token ids" or "text (…why…)"
    tokens_off: int
    tokens_on: int
    first_difference: int | None = None  # token index in the spec-off output
    off_token: str | None = None
    on_text: str | None = None
    candidates: list[tuple[int, str, float]] | None = None
    logprob_gap: float | None = None
    near_tie: bool | None = None
    #: EXACT, TOP_K_MATCH (the first difference is a mutual top-k match: each side's token is among
    #: the other side's top candidates there) or FAIL (parity contract)
    verdict: str = "EXACT"
    on_token: str | None = None
    on_candidates: list[tuple[int, str, float]] | None = None
    #: ids of both sides' tokens at the first difference (token-id comparisons)
    off_id: int | None = None
    on_id: int | None = None
    #: log-probabilities at the first difference: the spec-off token and the spec-on token under
    #: the spec-off side's distribution, and the spec-on token under its own (None where unknown)
    off_logprob: float | None = None
    on_logprob: float | None = None
    on_own_logprob: float | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


#: candidates compared per side at the first difference
PARITY_TOP_K = 5
NEAR_TIE = 0.1  # nats: flips below this are batched-verification numerics, not a drafter bug


def compare(off: Answer, on: Answer, prompt: str = "") -> ParityResult:
    """Where the spec-on answer first differs from the spec-off one, and why (see ParityResult)."""
    if off.token_ids is not None and on.token_ids is not None:
        a, b = off.token_ids, on.token_ids
        idx = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
        if idx is None and len(a) != len(b):
            idx = min(len(a), len(b))
        res = ParityResult(prompt, idx is None, "token ids", len(a), len(b), idx)
        if idx is not None:
            _explain(res, off, idx, on.text)
            _mutual_top_k(res, off, on, idx)
        return res
    why = "text: the engine does not expose the ids of accepted draft tokens"
    if off.text == on.text:
        return ParityResult(prompt, True, why, off.completion_tokens, on.completion_tokens)
    pos = next((i for i, (x, y) in enumerate(zip(off.text, on.text, strict=False)) if x != y), None)
    if pos is None:
        pos = min(len(off.text), len(on.text))
    # map the character position to a token index of the spec-off output
    acc, idx = 0, 0
    for i, piece in enumerate(off.pieces):
        if acc + len(piece) > pos:
            idx = i
            break
        acc += len(piece)
    else:
        idx = len(off.pieces)
    res = ParityResult(prompt, False, why, off.completion_tokens, on.completion_tokens, idx)
    _explain(res, off, idx, on.text[acc : acc + 40])
    res.verdict = "FAIL"  # no ids on the spec-on side: a mutual top-k match cannot be shown
    return res


def _mutual_top_k(res: ParityResult, off: Answer, on: Answer, idx: int) -> None:
    """TOP_K_MATCH when both sides' tokens at the first difference are in each other's top
    candidates (a near-tie flipped by batched verification), else FAIL; the gap is the spec-off
    log-probability of its token minus that of the spec-on token."""
    res.verdict = "FAIL"
    a, b = off.token_ids or [], on.token_ids or []
    if idx >= len(a) or idx >= len(b):
        return  # one side ended (end of generation) where the other went on
    res.off_id, res.on_id = a[idx], b[idx]
    row_off = off.candidates[idx] if off.candidates and idx < len(off.candidates) else None
    row_on = on.candidates[idx] if on.candidates and idx < len(on.candidates) else None
    res.on_candidates = row_on
    off_lp = {i: lp for i, _t, lp in row_off or []}
    on_lp = {i: lp for i, _t, lp in row_on or []}
    res.off_logprob = off_lp.get(a[idx])
    res.on_logprob = off_lp.get(b[idx])
    res.on_own_logprob = on_lp.get(b[idx])
    res.on_token = _token_text(row_on, b[idx]) or _token_text(row_off, b[idx])
    if row_off is None or row_on is None:
        return
    if b[idx] in off_lp and a[idx] in on_lp:
        res.verdict = "TOP_K_MATCH"
        res.logprob_gap = off_lp[a[idx]] - off_lp[b[idx]]
        res.near_tie = res.logprob_gap < NEAR_TIE


def _token_text(row: list[tuple[int, str, float]] | None, token_id: int) -> str | None:
    return next((t for i, t, _lp in row or [] if i == token_id), None)


def _explain(res: ParityResult, off: Answer, idx: int, on_text: str) -> None:
    row = off.candidates[idx] if off.candidates and idx < len(off.candidates) else None
    res.off_token = None
    if res.compared == "token ids" and off.token_ids is not None and idx < len(off.token_ids):
        res.off_token = _token_text(row, off.token_ids[idx])  # a piece may hold several tokens
    if res.off_token is None and idx < len(off.pieces):
        res.off_token = off.pieces[idx]
    res.on_text = on_text if res.compared != "token ids" else None
    if row:
        res.candidates = row
        if len(row) >= 2:
            res.logprob_gap = row[0][2] - row[1][2]
            res.near_tie = res.logprob_gap < NEAR_TIE


#: the seed both sides of a parity run send (greedy needs none; a server that samples anyway is
#: then reproducible, and both sides ask for the same thing)
PARITY_SEED = 0


def parity(
    load: Callable[[bool], Engine], prompts: Sequence[str], max_tokens: int = 64
) -> list[ParityResult]:
    """``load(spec_on)`` returns an engine; spec-off runs first (with top candidates), then spec-on.

    The seed contract: greedy (temperature 0) with the same fixed seed on both sides, so the two
    answers may differ only through speculation."""
    sampling = Sampling(temperature=0.0, max_tokens=max_tokens, seed=PARITY_SEED)
    engine = load(False)
    try:
        offs = [run_once(engine, p, sampling, top_logprobs=PARITY_TOP_K) for p in prompts]
    finally:
        engine.close()
    engine = load(True)
    try:
        # the spec-on side's own candidates where the engine exposes them with speculation on
        # (MLX's own decode loops), for the mutual top-k check
        k = PARITY_TOP_K if engine.candidates_with_speculation else 0
        ons = [run_once(engine, p, sampling, top_logprobs=k) for p in prompts]
    finally:
        engine.close()
    return [compare(a, b, p) for p, a, b in zip(prompts, offs, ons, strict=True)]


@dataclass
class BenchRow:
    prompt: str
    off: Answer  # the fastest spec-off run
    on: Answer  # the fastest spec-on run
    off_runs: list[Answer] = field(default_factory=list)  # every run, in order
    on_runs: list[Answer] = field(default_factory=list)

    @property
    def ratio(self) -> float | None:
        """Spec-on over spec-off decode speed; None when either side has no measurable speed."""
        off, on = self.off.decode_tps, self.on.decode_tps
        return on / off if off and on is not None else None

    def to_json(self) -> dict[str, Any]:
        return {
            "prompt": self.prompt,
            "off": run_json(self.prompt, self.off),
            "on": run_json(self.prompt, self.on),
            "ratio": None if self.ratio is None else round(self.ratio, 3),
        }


def bench(
    load: Callable[[bool], Engine], prompts: Sequence[str], max_tokens: int = 128, repeats: int = 1
) -> list[BenchRow]:
    """Both engines loaded at once; prompts alternate off/on so machine noise hits both alike.

    With ``repeats`` > 1 the best decode speed of each side is kept.
    """
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 1:
        raise ValueError(f"repeats: must be a whole number of at least 1 (got {repeats!r})")
    if not prompts:
        raise ValueError("prompts: give at least one prompt")
    sampling = Sampling(temperature=0.0, max_tokens=max_tokens)
    off_engine = load(False)
    try:
        on_engine = load(True)
        try:
            rows = []
            for p in prompts:
                runs: dict[bool, list[Answer]] = {False: [], True: []}
                for _ in range(repeats):
                    for spec_on, eng in ((False, off_engine), (True, on_engine)):
                        runs[spec_on].append(run_once(eng, p, sampling))
                best = {k: max(v, key=lambda r: r.decode_tps or 0.0) for k, v in runs.items()}
                rows.append(BenchRow(p, best[False], best[True], runs[False], runs[True]))
            return rows
        finally:
            on_engine.close()
    finally:
        off_engine.close()
