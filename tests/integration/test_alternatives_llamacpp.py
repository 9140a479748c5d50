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
from app.core.launch.auto import Candidate
from app.core.launch.auto.router import label_of
from app.core.pool.pool import EnginePool
from app.core.pool.pool_types import PoolConfig, standard_configurations
from app.core.serving.protocol import extension
from app.core.speculative.per_request import Speculation

pytestmark = pytest.mark.timeout(600)
COUNT = [ChatMessage(role="user", content="Count from 1 to 30, separated by commas.")]


async def _ask(pool: EnginePool, label: str) -> Answer:
    collector = AnswerCollector()
    async for event in pool.stream(
        Speculation(label), GenerateRequest(COUNT, Sampling(temperature=0.0, max_tokens=80))
    ):
        collector.feed(event)
    return collector.end()


def test_each_answer_carries_every_configurations_prediction(smollm2_q4: Path) -> None:
    request = LoadRequest(str(smollm2_q4), n_ctx=2048)
    base = LlamaCppEngine.load(request)
    pool = EnginePool(
        base, request, LlamaCppEngine.load, standard_configurations(), PoolConfig(slots=1, retune_s=None)
    )
    free = [lab.name for lab in pool.offers() if lab.name not in ("auto", "off")]
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


def test_a_drafter_that_did_not_run_is_estimated_from_the_rounds_it_drafted(
    smollm2_f32: Path, smollm2_q4: Path
) -> None:
    """The embedded pair (F32 target, its Q4_1 as the drafter): once the drafter answered beside
    plain decoding, an answer of another configuration carries its estimate."""
    request = LoadRequest(str(smollm2_f32), n_ctx=2048)
    base = LlamaCppEngine.load(request)
    configurations = standard_configurations(("draft", str(smollm2_q4)))
    chain = Candidate("draft+ngram-mod", 8, 64, 0.2)
    configurations[label_of(chain)] = chain.options(str(smollm2_q4))
    pool = EnginePool(base, request, LlamaCppEngine.load, configurations, PoolConfig(slots=1, retune_s=None))
    drafters = [lab for lab in configurations if configurations[lab].draft_model_path and "+" not in lab]
    assert drafters

    async def run() -> list[Answer]:
        order = ("off", drafters[0], "ngram-mod", label_of(chain), "off", "ngram-mod")
        return [await _ask(pool, label) for label in order]

    try:
        plain, drafted, *_, other = asyncio.run(run())
    finally:
        pool.close()
        base.close()
    assert drafted.finished is not None and drafted.finished.passes
    rounds = [p for p in drafted.finished.passes if p.drafted]
    expected = pool.acceptance.estimate(drafters[0])
    assert expected is not None and expected.rounds == len(rounds)
    depth = max(p.drafted for p in rounds)
    assert 1.0 <= expected.tokens_per_round <= depth + 1
    assert other.finished is not None and other.finished.alternatives
    by_label = {a.speculation: a for a in other.finished.alternatives}
    assert by_label["ngram-mod"].ran and by_label["ngram-mod"].basis == "replayed"
    estimate = by_label[drafters[0]]
    assert estimate.basis == "estimated" and not estimate.ran and estimate.decode_tokens_per_second > 0
    # the chain (priced once it ran beside plain decoding): its n-gram rounds replayed, its
    # drafter's share at the drafter's estimate
    chained = by_label[label_of(chain)]
    assert chained.basis == "estimated" and chained.draft_tokens == 8 and chained.decode_tokens_per_second > 0
    # the same prompt: greedy text is the same whichever configuration answered
    assert plain.text == drafted.text == other.text
