"""The realistic-cost pair (:mod:`app.devtools.deep_target`): the SmolLM2 target with silent
blocks appended answers exactly as the original does, on real llama.cpp, with and without its
drafter; a file it cannot deepen is refused with a clear message."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.answer import collect
from app.core.engines.base import LoadRequest, Sampling
from app.core.engines.blocking import generate
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.speculative import SpeculationOptions
from app.devtools.deep_target import write_deep_target

PROMPTS = [
    "Write a short story about a lighthouse keeper.",
    "Explain in three sentences why the sky is blue.",
]


def _answers(path: Path, spec: SpeculationOptions | None = None) -> list[tuple[str, list[int] | None]]:
    """Each prompt's greedy text, and its token ids when speculation is off (llama.cpp gives the ids
    through logprobs, which it does not give while drafting)."""
    engine = LlamaCppEngine.load(LoadRequest(str(path), spec or SpeculationOptions(), n_ctx=1024))
    ids = 0 if spec is not None and spec.enabled else 1
    try:
        out = []
        for prompt in PROMPTS:
            messages = [{"role": "user", "content": prompt}]
            answer = collect(
                generate(engine, messages, Sampling(temperature=0.0, max_tokens=40), top_logprobs=ids)
            )
            out.append((answer.text, answer.token_ids))
        return out
    finally:
        engine.close()


def test_the_deep_target_answers_as_the_original_with_and_without_its_drafter(
    deep_pair: tuple[Path, Path], smollm2_f32: Path
) -> None:
    target, drafter = deep_pair
    assert target.stat().st_size > 2 * smollm2_f32.stat().st_size  # the appended blocks are there
    reference = _answers(smollm2_f32)
    assert all(ids for _text, ids in reference)
    assert _answers(target) == reference
    spec = SpeculationOptions.build(
        enabled=True, method="draft", draft_model_path=str(drafter), num_speculative_tokens=8
    )
    assert [text for text, _ids in _answers(target, spec)] == [text for text, _ids in reference]


def test_a_quantized_or_foreign_file_is_refused(smollm2_q4: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="give an F32 or F16 file"):
        write_deep_target(smollm2_q4, tmp_path / "out.gguf", 2)
    with pytest.raises(ValueError, match="extra layers must be 0 or more"):
        write_deep_target(smollm2_q4, tmp_path / "out.gguf", -1)
