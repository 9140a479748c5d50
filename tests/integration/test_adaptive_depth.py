"""Auto's classic-drafter candidates on llama.cpp draft a depth that follows the
text per round (llama.cpp's ``speculative.draft.p_min``), never more than their tokens per round,
and the per-round stats carry the depth each round used.

Real engine: the embedded SmolLM2 Q4_1 drafting for itself (the only drafter on disk here).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from app.core.answer import collect
from app.core.engines.base import LoadRequest, Sampling
from app.core.engines.blocking import generate
from app.core.launch import auto
from app.core.launch.auto import runner
from app.core.launch.plan import load_engine


def test_auto_drafter_depth_follows_the_text_per_round(smollm2_q4: Path) -> None:
    cand = next(c for c in auto.candidates("llama.cpp", "draft", []) if c.uses_drafter)
    cand = replace(cand, tokens_per_round=8)
    request = LoadRequest(str(smollm2_q4), speculation=cand.options(str(smollm2_q4)), n_ctx=512, n_threads=2)
    engine = load_engine("llama.cpp", request)
    try:
        answer = collect(
            generate(
                engine,
                [{"role": "user", "content": runner.PROSE_PROMPT}],
                Sampling(temperature=0.0, max_tokens=48),
            )
        )
    finally:
        engine.close()
    depths = [r.drafted for r in answer.rounds]
    assert answer.completion_tokens > 8 and depths
    assert max(depths) <= 8  # bounded by the candidate's tokens per round
    # a fixed depth would draft 8 in every round but the last; here the rounds differ
    assert len(set(depths)) > 1 and min(depths[:-1]) < 8
    assert sum(r.accepted for r in answer.rounds) <= sum(depths)
