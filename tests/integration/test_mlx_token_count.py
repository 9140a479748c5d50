"""The MLX engine measures prompts the way it builds them (context trimming relies on it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.chat.context import fit_history
from app.core.engines.base import Finished, LoadRequest, Sampling
from app.core.engines.blocking import generate
from app.devtools import mlx_models as fx
from tests.mlx_required import require_mlx


@pytest.fixture(scope="module")
def target(real_models: None, tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_mlx("mlx.core", "mlx_vlm")
    return fx.write_gemma4_target(tmp_path_factory.mktemp("mlx-count") / "g4-target")


def test_mlx_count_matches_the_prompt_it_runs_and_grows_with_the_history(target: Path) -> None:
    from app.core.engines.mlx.engine import MLXEngine

    engine = MLXEngine.load(LoadRequest(str(target), n_ctx=256))
    try:
        short = [{"role": "user", "content": "hi"}]
        longer = [
            *short,
            {"role": "assistant", "content": "hello there"},
            {"role": "user", "content": "more"},
        ]
        n_short = engine.count_prompt_tokens(short)  # type: ignore[arg-type]
        n_long = engine.count_prompt_tokens(longer)  # type: ignore[arg-type]
        assert 0 < n_short < n_long
        fin = [ev for ev in generate(engine, short, Sampling(max_tokens=2)) if isinstance(ev, Finished)]  # type: ignore[arg-type]
        assert fin[0].prompt_tokens == n_short
        assert engine.n_ctx == 256
        # the trimming rule drops the oldest turns to fit this engine's context
        history = [
            {"role": "user", "content": "word " * 40},
            {"role": "assistant", "content": "ok " * 40},
        ] * 6
        history.append({"role": "user", "content": "last question"})
        fitted = fit_history(history, engine.count_prompt_tokens, engine.n_ctx, 32)  # type: ignore[arg-type]
        assert fitted.dropped > 0
        assert engine.count_prompt_tokens(fitted.messages) + 32 <= 256
    finally:
        engine.close()
