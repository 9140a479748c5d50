"""MLX answers time their passes too (on mlx[cpu], tiny real checkpoints): a drafter's rounds and the
plain steps between them add up to the answer, and the answer's speedup comes from them."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.answer import collect
from app.core.engines.base import LoadRequest, Sampling
from app.core.engines.blocking import generate
from app.core.speculative import SpeculationOptions
from app.devtools import mlx_models as fx
from tests.mlx_required import require_mlx

MESSAGES = [{"role": "user", "content": "Write a short note about speculative decoding."}]


@pytest.mark.parametrize("method", ["draft", "suffix", "off"])
def test_an_mlx_answer_times_its_passes(real_models: None, tmp_path: Path, method: str) -> None:
    require_mlx()
    from app.core.engines.mlx.engine import MLXEngine

    target = fx.write_llama_target(tmp_path / "target", forced=True)
    drafter = fx.write_llama_drafter(tmp_path / "drafter", forced=True) if method == "draft" else None
    spec = SpeculationOptions.build(
        enabled=method != "off",
        method=None if method == "off" else method,
        draft_model_path=str(drafter) if drafter else None,
    )
    engine = MLXEngine.load(LoadRequest(str(target), spec))
    try:
        answer = collect(generate(engine, MESSAGES, Sampling(temperature=0.0, max_tokens=40)))  # type: ignore[arg-type]
    finally:
        engine.close()
    done = answer.finished
    assert done is not None and done.passes is not None
    assert sum(p.tokens for p in done.passes) == done.completion_tokens - 1  # the first came from the prompt
    assert sum(p.drafted for p in done.passes) == done.drafted_total
    assert all(p.ms > 0 for p in done.passes)
    speedup = answer.speedup
    if done.drafted_total == 0:
        assert (speedup.value, speedup.basis) == (1.0, "nothing-drafted")
    else:
        assert speedup.basis in ("own-steps", "") and (speedup.value is None or speedup.value > 0)
