"""Replay of MLX's model-free loop (on mlx[cpu], a tiny real checkpoint): every complete answer
replays suffix decoding and prompt lookup over its tokens, and the replay equals what the method
then does when the same request runs on it (drafted and accepted counts, round by round)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.engines.base import Finished, GenerateRequest, LoadRequest, Round, Sampling
from app.core.speculative import SpeculationOptions
from app.core.speculative.per_request import Speculation
from app.devtools import mlx_models as fx
from tests.mlx_required import require_mlx

pytestmark = pytest.mark.mlx

QUESTION = [{"role": "user", "content": "Write a short note about speculative decoding."}]
OTHER = [{"role": "user", "content": "Tell me about the sea, and then about the sea again."}]


@pytest.fixture
def engine(real_models: None, tmp_path: Path) -> Iterator[Any]:
    require_mlx()
    from app.core.engines.mlx.engine import MLXEngine

    target = fx.write_llama_target(tmp_path / "llama")
    loaded = MLXEngine.load(LoadRequest(str(target), SpeculationOptions.build(enabled=False)))
    try:
        yield loaded
    finally:
        loaded.close()


def _ask(
    engine: Any, messages: list[dict[str, str]], choice: str, **sampling: Any
) -> tuple[Finished, list[Round]]:
    async def read() -> list[Any]:
        request = GenerateRequest(
            messages, Sampling(max_tokens=40, **sampling), speculation=Speculation.parse(choice)
        )  # type: ignore[arg-type]
        return [ev async for ev in engine.stream(request)]

    events = asyncio.run(read())
    done = events[-1]
    assert isinstance(done, Finished)
    return done, [e for e in events if isinstance(e, Round)]


def _same(replayed: Any, done: Finished, rounds: list[Round]) -> None:
    """The replay before the answer equals the answer's own counts, round by round."""
    assert replayed.exact
    assert (replayed.drafted_total, replayed.accepted_total) == (done.drafted_total, done.accepted_total)
    got = [(r.drafted, r.accepted) for r in rounds if r.drafted]
    want = [(r.drafted, r.accepted) for r in replayed.rounds if r.drafted]
    assert got == want


def test_the_model_free_replay_equals_the_run_that_follows(engine: Any) -> None:
    engine.cost_gate = False  # the gate follows measured times, which no replay knows in advance
    _ask(engine, OTHER, "off")
    assert set(engine.last_replays) == {"prompt-lookup"}  # suffix's corpus is read when it first runs
    _ask(engine, OTHER, "suffix")
    plain, _ = _ask(engine, QUESTION, "off")
    replays = engine.last_replays
    assert set(replays) == {"suffix", "prompt-lookup"}
    assert replays["suffix"].emitted_total == plain.completion_tokens
    suffix, rounds = _ask(engine, QUESTION, "suffix")
    assert suffix.token_ids == plain.token_ids
    _same(replays["suffix"], suffix, rounds)
    # the same question again: suffix decoding's corpus now holds the answer, and its replay says so
    cached = engine._view_of("suffix").suffix.cached_tokens
    again, _ = _ask(engine, QUESTION, "off")
    assert engine._view_of("suffix").suffix.cached_tokens == cached  # a replay learns nothing
    replays = engine.last_replays
    assert replays["suffix"].accepted_total >= 0.8 * again.completion_tokens
    suffix, rounds = _ask(engine, QUESTION, "suffix")
    _same(replays["suffix"], suffix, rounds)
    # prompt lookup drafts from the request's own text
    _ask(engine, OTHER, "off")
    lookup_replay = engine.last_replays["prompt-lookup"]
    lookup, rounds = _ask(engine, OTHER, "prompt-lookup")
    _same(lookup_replay, lookup, rounds)


def test_an_answer_lists_what_each_configuration_would_have_done(engine: Any) -> None:
    """Once the model-free methods ran beside plain decoding, an answer carries every
    configuration's predicted speed, replayed when greedy and estimated when sampled."""
    engine.cost_gate = False
    for choice in ("off", "suffix", "off", "prompt-lookup", "off"):
        done, _ = _ask(engine, QUESTION, choice)
    assert done.alternatives is not None
    by_name = {a.speculation: a for a in done.alternatives}
    assert {"off", "suffix", "prompt-lookup"} <= set(by_name)
    assert by_name["off"].ran and by_name["suffix"].basis == "replayed"
    assert all(a.decode_tokens_per_second > 0 for a in done.alternatives)
    sampled, _ = _ask(engine, QUESTION, "off", temperature=0.8, seed=4)
    assert sampled.alternatives is not None
    assert {a.basis for a in sampled.alternatives if not a.ran and a.speculation != "off"} == {"estimated"}
    # with the cost gate a replay drafts as the gate's costs stand now, which its run may change
    engine.cost_gate = True
    gated, _ = _ask(engine, QUESTION, "off")
    assert gated.alternatives is not None
    assert {a.basis for a in gated.alternatives if a.speculation in ("suffix", "prompt-lookup")} == {
        "estimated"
    }
