"""Auto corrects itself from real answers, on the real engine and the realistic-cost pair: from a
stored calibration that is wrong on purpose (it says speculation loses on prose, so prose starts
on off), the pool's router explores the drafter once, every later plain answer carries the
drafter's estimate on that answer, and prose moves to the drafter within 5 prose answers; the
exploring answer is no slower than 0.9x of the route it replaces; greedy text is the plain
answer's either way."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from app.core.answer import AnswerCollector, collect
from app.core.engines.base import GenerateRequest, LoadRequest, Sampling
from app.core.engines.blocking import generate
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.engines.loop import engine_loop
from app.core.launch import auto
from app.core.launch.auto.decide import Decision
from app.core.launch.auto.router import RequestRouter, label_of
from app.core.pool.pool import EnginePool
from app.core.pool.pool_types import PoolConfig
from app.core.speculative.per_request import Speculation
from app.devtools.prompts import PROSE_TOPICS

PROSE = auto.RequestKind.PROSE
#: how long the user reads an answer before the next message (seconds): a person reads an answer
#: of this length in about this time; the pool starts the explored configuration while it rests
READING_S = 8.0
#: prose answers asked: the route must be corrected before the last (how soon it is, run after
#: run, is measured in docs/benchmarks.md, "Auto from a wrong calibration")
ANSWERS = 8
DRAFT8 = auto.Candidate("draft", 8, None, 0.2)


async def _answer(pool: EnginePool, request: GenerateRequest) -> tuple[str, str, float | None]:
    """The configuration Auto chose, the text, and the answer's own speedup."""
    label = pool.resolve(Speculation("auto"), request)
    await pool.ready(label)
    collector = AnswerCollector()
    async for event in pool.stream(label, request):
        collector.feed(event)
    answer = collector.end()
    return label.name, answer.text, answer.speedup.value


@pytest.mark.timeout(900)  # eight answers and a person's reading time after each, on a loaded machine too
def test_auto_routes_prose_to_the_drafter_within_5_answers_from_a_wrong_calibration(
    deep_pair: tuple[Path, Path],
) -> None:
    target, drafter = deep_pair
    # threads chosen as a launch chooses them: the cores that are free (another program may be busy)
    request = LoadRequest(str(target), n_ctx=2048, n_parallel=1)
    engine = LlamaCppEngine.load(request)  # the launch runs off: what the wrong calibration chose
    try:
        sampling = Sampling(temperature=0.0, max_tokens=128)  # a prose answer of a usual length
        warm = collect(generate(engine, [{"role": "user", "content": PROSE_TOPICS[-1]}], sampling))
        assert warm.finished is not None
        plain_tps = warm.completion_tokens / (warm.finished.decode_ms / 1000)  # measured honestly
        key = auto.CalibrationKey.for_launch("llama.cpp", request, str(drafter))
        workloads = ("prose", "code", "repeat")
        wrong = [
            auto.Measurement(auto.OFF, dict.fromkeys(workloads, 1.0), {"prose": {"off_tps": plain_tps}}),
            auto.Measurement(DRAFT8, {"prose": 0.9, "code": 0.95, "repeat": 0.95}),
        ]
        auto.store_result(auto.CalibrationResult(key, wrong, 4.0))
        router = RequestRouter.for_model(key, [auto.OFF, DRAFT8], str(drafter))
        assert router.learner is not None and router.learner.explain(PROSE).candidate == auto.OFF
        pool = EnginePool(
            engine, request, LlamaCppEngine.load, router.configurations(), PoolConfig(slots=1), router
        )
        labels: list[str] = []
        routes: list[Decision] = []
        speedups: list[float | None] = []
        texts: list[str] = []
        try:
            for prompt in PROSE_TOPICS[:ANSWERS]:
                ask = GenerateRequest([{"role": "user", "content": prompt}], sampling)
                label, text, speedup = engine_loop().run(_answer(pool, ask), timeout=300)
                time.sleep(READING_S)  # a person reads the answer: the pool rests, a start can run
                labels.append(label)
                routes.append(router.learner.explain(PROSE))  # the route after this answer
                speedups.append(speedup)
                texts.append(text)
            moved = router.learner.explain(PROSE)
            learned = _served_auto(engine, pool)
            fixed = _served_auto(engine, None)
        finally:
            pool.close()
    finally:
        engine.close()
    assert moved.candidate == DRAFT8, (labels, speedups, moved.why)
    moved_at = next((i for i, r in enumerate(routes) if r.candidate == DRAFT8), None)
    assert moved_at is not None and moved_at < ANSWERS - 1, (labels, speedups, [r.why for r in routes])
    assert labels[moved_at + 1] == label_of(DRAFT8), labels  # the next prose answer runs on it
    for label, speedup in zip(labels[: moved_at + 1], speedups[: moved_at + 1], strict=True):
        if label == label_of(DRAFT8):  # an exploring answer, against the route it replaces (off)
            assert speedup is not None and speedup >= 0.9, (labels, speedups)
    assert all(texts), labels
    figure = router.learner.table(PROSE)[DRAFT8]
    assert figure.answers >= 1 and figure.estimates >= 1 and figure.speedup > 1.0
    # the local server says what Auto learned (GET /v1/tandem/auto); a launch without Auto says so
    assert learned["auto"] is True
    prose = next(r for r in learned["routes"] if r["kind"] == "prose")
    assert prose["method"] == "draft" and prose["answers"] == figure.answers
    lo, hi = prose["interval"]
    assert lo < prose["speedup"] < hi
    assert {r["kind"] for r in learned["routes"]} == {k.value for k in auto.RequestKind}
    assert fixed == {"auto": False, "routes": []}


def _served_auto(engine: LlamaCppEngine, pool: EnginePool | None) -> dict[str, object]:
    """``GET /v1/tandem/auto`` of a local server over ``engine`` (and ``pool``)."""
    from dataclasses import replace

    import httpx

    from app.core.serving import LocalServer, ServerConfig
    from app.core.serving.model import served_model

    server = LocalServer(
        replace(served_model(engine, engine.model_path), pool=pool), ServerConfig("k", port=0)
    )
    server.start()
    try:
        reply = httpx.get(server.address + "/tandem/auto", headers={"Authorization": "Bearer k"}, timeout=30)
    finally:
        server.stop()
    assert reply.status_code == 200, reply.text
    data: dict[str, object] = reply.json()
    return data
