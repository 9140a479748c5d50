"""Every answer measures every configuration: on a real pool of the embedded model, each complete
answer carries what every model-free configuration would have done with it (replayed over its
tokens) and plain decoding, priced by the cost model; the prediction for the configuration that ran
is kept against its measured speed; the API carries them as ``tandem.alternatives``."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from app.core.answer import Answer, AnswerCollector
from app.core.engines.base import ChatMessage, GenerateRequest, LoadRequest, Sampling
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.serving.pool import EnginePool, PoolConfig, standard_configurations
from app.core.serving.protocol import extension

pytestmark = pytest.mark.timeout(600)
COUNT = [ChatMessage(role="user", content="Count from 1 to 30, separated by commas.")]


async def _ask(pool: EnginePool, label: str) -> Answer:
    collector = AnswerCollector()
    async for event in pool.stream(label, GenerateRequest(COUNT, Sampling(temperature=0.0, max_tokens=80))):
        collector.feed(event)
    return collector.end()


def test_each_answer_carries_every_configurations_prediction(smollm2_q4: Path) -> None:
    request = LoadRequest(str(smollm2_q4), n_ctx=2048)
    base = LlamaCppEngine.load(request)
    pool = EnginePool(
        base, request, LlamaCppEngine.load, standard_configurations(), PoolConfig(slots=1, retune_s=None)
    )
    free = [lab for lab in pool.offers() if lab not in ("auto", "off")]
    assert "ngram-mod" in free

    async def run() -> list[Answer]:
        return [await _ask(pool, label) for label in ("off", "ngram-mod", "off", "ngram-mod")]

    try:
        answers = asyncio.run(run())
    finally:
        pool.close()
        base.close()
    for answer in answers:
        assert answer.complete and answer.finished is not None
        alternatives = answer.finished.alternatives
        assert alternatives, answer.speedup
        by_label = {a.speculation: a for a in alternatives}
        assert "off" in by_label and all(a.decode_tokens_per_second > 0 for a in alternatives)
        assert {a.basis for a in alternatives} <= {"replayed", "estimated"}
        assert set(by_label) - {"off"} <= set(free)
    last = answers[-1]
    assert last.finished is not None and last.finished.alternatives is not None
    ran = [a for a in last.finished.alternatives if a.ran]
    assert [a.speculation for a in ran] == ["ngram-mod"]  # the one that ran is predicted too
    errors = pool.prediction_errors()
    assert "ngram-mod" in errors and errors["ngram-mod"][1] >= 1
    body = extension(last, "ngram-mod")
    assert body["alternatives"] == [a.to_json() for a in last.finished.alternatives]
    assert body["speedup"] == pytest.approx(last.speedup.value, abs=1e-3)
