"""The engine pool behind ``tandem serve``, on real llama.cpp children of the embedded pair
(SmolLM2-135M F32 target, its Q4_1 as the drafter): per-request speculation, parity across
children, parallel slots, cancellation, a child that dies, the memory budget."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.core.engines.base import ChatMessage, GenerateRequest, LoadRequest, Sampling, TextDelta
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.engines.llamacpp.host import live_processes
from app.core.pool.pool import START_PATIENCE, EnginePool
from app.core.pool.pool_types import PoolConfig, standard_configurations
from app.core.speculative import SpeculationOptions
from app.core.speculative.per_request import Speculation
from tests.integration.served import KEY, Served, served_model

pytestmark = pytest.mark.timeout(600)

PROMPT = [{"role": "user", "content": "Write two sentences about the sea."}]
#: the same prompt as the pool takes it
ASK = [ChatMessage(role="user", content=PROMPT[0]["content"])]


def _pooled(
    target: Path, drafter: Path, config: PoolConfig
) -> tuple[LlamaCppEngine, EnginePool, LoadRequest]:
    spec = SpeculationOptions(
        enabled=True, method="draft", draft_model_path=str(drafter), num_speculative_tokens=8
    )
    request = LoadRequest(str(target), spec, n_ctx=4096, n_parallel=config.slots)
    engine = LlamaCppEngine.load(request)
    pool = EnginePool(
        engine, request, LlamaCppEngine.load, standard_configurations(("draft", str(drafter))), config
    )
    return engine, pool, request


@pytest.fixture
def pooled(smollm2_f32: Path, smollm2_q4: Path) -> Iterator[tuple[Served, EnginePool]]:
    engine, pool, _ = _pooled(smollm2_f32, smollm2_q4, PoolConfig(slots=4, idle_s=120))
    try:
        with Served(replace(served_model(engine), pool=pool), parallel=4, max_waiting=16) as s:
            yield s, pool
    finally:
        pool.close()
        engine.close()


def _ask(s: Served, speculation: str | None, max_tokens: int = 40) -> httpx.Response:
    body: dict[str, object] = {"messages": PROMPT, "max_tokens": max_tokens, "temperature": 0}
    if speculation is not None:
        body["tandem"] = {"speculation": speculation}
    headers = {"Authorization": f"Bearer {KEY}"}
    return httpx.post(f"{s.url}/chat/completions", json=body, headers=headers, timeout=300)


def test_each_request_runs_the_configuration_it_asks_for_with_the_same_greedy_text(pooled) -> None:
    s, pool = pooled
    answers = {spec: _ask(s, spec) for spec in (None, "off", "ngram-mod", "auto")}
    for spec, r in answers.items():
        assert r.status_code == 200, (spec, r.text)
    texts = {spec: r.json()["choices"][0]["message"]["content"] for spec, r in answers.items()}
    assert len(set(texts.values())) == 1, texts  # greedy: the same answer from every child
    figures = {spec: r.json()["tandem"]["speculative_decoding"] for spec, r in answers.items()}
    assert figures["off"]["drafted"] == 0 and figures["off"]["method"] is None
    assert figures[None]["drafted"] > 0 and figures[None]["method"] == "draft"
    assert figures["ngram-mod"]["method"] == "ngram-mod"
    # the request was answered before by another child: the ngram-mod child was shown that answer
    # first, so it drafts the repeat from it (all of it is accepted: greedy, the same text)
    assert figures["ngram-mod"]["accepted"] > 0
    assert [r.configuration for r in s.log] == ["draft", "off", "ngram-mod", "draft"]
    running = {c.label for c in pool.status().children}
    assert running == {"draft", "off", "ngram-mod"}
    refused = _ask(s, "eagle3")
    assert refused.status_code == 400
    assert "can answer with" in refused.json()["error"]["message"]


async def _stream(
    client: httpx.AsyncClient, url: str, body: dict[str, object], gate: asyncio.Barrier | None
) -> str:
    text = []
    async with client.stream("POST", url, json=body, headers={"Authorization": f"Bearer {KEY}"}) as r:
        assert r.status_code == 200
        seen = 0
        async for line in r.aiter_lines():
            if not line.startswith("data: {"):
                continue
            chunk = json.loads(line[6:])
            for choice in chunk.get("choices", []):
                text.append(choice["delta"].get("content") or "")
            seen += 1
            if gate is not None and seen == 4:
                await gate.wait()
    return "".join(text)


def test_two_streams_at_once_add_at_most_one_thread_and_twelve_are_all_answered(pooled) -> None:
    s, _pool = pooled
    url = f"{s.url}/chat/completions"
    body = {"messages": PROMPT, "max_tokens": 48, "temperature": 0, "stream": True}
    counts: list[int] = []

    async def two() -> list[str]:
        gate = asyncio.Barrier(3)
        async with httpx.AsyncClient(timeout=300) as client:
            before = set(threading.enumerate())

            async def count() -> None:
                await gate.wait()  # both streams are mid-answer
                counts.append(len([t for t in threading.enumerate() if t not in before]))

            texts = await asyncio.gather(
                _stream(client, url, body, gate), _stream(client, url, body, gate), count()
            )
        return [t for t in texts if isinstance(t, str)]

    texts = asyncio.run(two())
    assert counts == [counts[0]] and counts[0] <= 1, counts
    assert texts[0] == texts[1] and texts[0]

    async def twelve() -> list[str]:
        async with httpx.AsyncClient(timeout=600) as client:
            return await asyncio.gather(
                *[_stream(client, url, {**body, "max_tokens": 24}, None) for _ in range(12)]
            )

    answered = asyncio.run(twelve())
    assert len(answered) == 12 and len(set(answered)) == 1
    assert [r.status for r in s.log[-12:]] == ["ok"] * 12


def test_a_client_that_leaves_frees_its_slot_at_once(pooled) -> None:
    s, pool = pooled
    body = {
        "messages": [{"role": "user", "content": "Count from 1 to 2000, one number a line."}],
        "max_tokens": 3000,
        "temperature": 0,
        "stream": True,
    }
    with httpx.stream(
        "POST",
        f"{s.url}/chat/completions",
        json=body,
        headers={"Authorization": f"Bearer {KEY}"},
        timeout=120,
    ) as r:
        for n, _line in enumerate(r.iter_lines()):
            if n > 8:
                break
    deadline = time.monotonic() + 5
    while any(c.active for c in pool.status().children) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(c.active for c in pool.status().children)
    while not s.log and time.monotonic() < deadline:
        time.sleep(0.05)
    assert s.log[-1].status == "cancelled" and s.log[-1].completion_tokens < 3000
    assert _ask(s, None, 8).status_code == 200


def test_a_child_that_dies_mid_answer_fails_its_request_clearly_and_is_started_again(pooled) -> None:
    s, _pool = pooled
    before = set(live_processes())
    assert _ask(s, "off", 4).status_code == 200  # starts the "off" child
    (pid,) = set(live_processes()) - before
    body = {**{"messages": PROMPT, "temperature": 0, "stream": True}, "max_tokens": 2000,
            "tandem": {"speculation": "off"}}  # fmt: skip
    events = []
    with httpx.stream(
        "POST",
        f"{s.url}/chat/completions",
        json=body,
        headers={"Authorization": f"Bearer {KEY}"},
        timeout=120,
    ) as r:
        for n, line in enumerate(r.iter_lines()):
            if n == 4:
                os.kill(pid, signal.SIGKILL)
            if line.startswith("data: {"):
                events.append(json.loads(line[6:]))
    error = events[-1].get("error", {}).get("message", "")
    assert "llama.cpp stopped while answering" in error, events[-1]
    again = _ask(s, "off", 8)
    assert again.status_code == 200, again.text
    assert pid not in live_processes()


def test_the_memory_budget_refuses_a_configuration_that_does_not_fit(
    smollm2_f32: Path, smollm2_q4: Path
) -> None:
    engine, pool, _ = _pooled(smollm2_f32, smollm2_q4, PoolConfig(slots=2, memory_budget=64 << 20))
    try:
        with Served(replace(served_model(engine), pool=pool), parallel=2) as s:
            refused = _ask(s, "off")
            assert refused.status_code == 503
            message = refused.json()["error"]["message"]
            assert "'off' configuration needs about" in message and "it was not started" in message
            assert _ask(s, None, 8).status_code == 200  # the launch's configuration still answers
            assert [c.label for c in pool.status().children] == ["draft"]
    finally:
        pool.close()
        engine.close()


def test_auto_sends_each_request_to_the_configuration_its_kind_measured_best(
    smollm2_f32: Path, smollm2_q4: Path
) -> None:
    """``tandem serve --spec auto``'s router over real children: routes as a calibration of this
    pair measured them (a real calibration's figures: the drafter pays on prose, ngram-mod on a repeat)."""
    from app.core.launch import auto
    from app.core.launch.auto.router import RequestRouter

    drafter = str(smollm2_q4)
    draft, ngram = auto.Candidate("draft", 8, None, auto.DRAFT_P_MIN), auto.Candidate("ngram-mod", 64)
    five = {"prose": [1.29] * 5, "code": [1.30] * 5, "repeat": [1.25] * 5}  # five alike pairs each
    measured = [
        auto.Measurement(draft, {"prose": 1.29, "code": 1.30, "repeat": 1.25}, samples=five),
        auto.Measurement(
            ngram,
            {"prose": 1.00, "code": 1.10, "repeat": 4.60},
            samples={"prose": [1.0] * 5, "code": [1.1] * 5, "repeat": [4.6] * 5},
        ),
    ]
    router = RequestRouter(auto.routes(measured), drafter, measured=True)
    engine, unused, request = _pooled(smollm2_f32, smollm2_q4, PoolConfig(slots=2))
    unused.close()  # this test builds its own pool over the engine (a pool's loader thread must end)
    configurations = {**standard_configurations(("draft", drafter)), **router.configurations()}
    pool = EnginePool(engine, request, LlamaCppEngine.load, configurations, PoolConfig(slots=2), route=router)
    code = "def area(w, h):\n    return w * h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n"
    edit = f"Add a docstring to each function:\n```python\n{code}```"
    try:
        with Served(replace(served_model(engine), pool=pool), parallel=2) as s:
            headers = {"Authorization": f"Bearer {KEY}"}

            def ask(content: str, speculation: str) -> httpx.Response:
                body = {
                    "messages": [{"role": "user", "content": content}],
                    "max_tokens": 32,
                    "temperature": 0,
                    "tandem": {"speculation": speculation},
                }
                return httpx.post(f"{s.url}/chat/completions", json=body, headers=headers, timeout=300)

            prose = ask("Tell me about autumn leaves.", "auto")
            again = ask(edit, "auto")  # a code edit: the drafter (1.30x) beats ngram-mod (1.10x)
            # the same request resent: a repeat, routed to ngram-mod (4.60x), which is not running:
            # it starts in the background while the running drafter answers (nobody waits for it)
            first_repeat = ask(edit, "auto")
            plain = ask(edit, "off")  # asked for by name: started for its request
            assert [r.status_code for r in (prose, again, first_repeat, plain)] == [200] * 4
            assert [r.configuration for r in s.log] == ["draft", "draft", "draft", "off"]
            deadline = time.monotonic() + 120
            while "ngram-mod" not in {c.label for c in pool.status().children}:
                assert time.monotonic() < deadline, "the routed configuration never started"
                time.sleep(0.1)
            repeat = ask(edit, "auto")  # now it runs: the repeat goes to it
            assert repeat.status_code == 200 and s.log[-1].configuration == "ngram-mod"
            # a child that had not answered it: shown the answer, it drafts it
            assert repeat.json()["tandem"]["speculative_decoding"]["accepted"] > 0
            texts = {
                r.json()["choices"][0]["message"]["content"] for r in (again, first_repeat, repeat, plain)
            }
            assert len(texts) == 1  # greedy: the same answer whichever child answered
    finally:
        pool.close()
        engine.close()


async def _background_done(pool: EnginePool) -> None:
    """Wait until ``pool`` has no background work left (at most two minutes)."""
    deadline = time.monotonic() + 120
    while pool.background()["busy"]:
        assert time.monotonic() < deadline, "the background start never ended"
        await asyncio.sleep(0.1)


def test_a_background_start_waits_until_no_answer_computes(smollm2_f32: Path, smollm2_q4: Path) -> None:
    """A load beside an answer slowed it 3-15x on two cores (docs/benchmarks.md): Auto's
    background start of a configuration waits for the running answer to end, then loads."""
    engine, pool, _ = _pooled(smollm2_f32, smollm2_q4, PoolConfig(slots=1))
    request = GenerateRequest(ASK, Sampling(temperature=0.0, max_tokens=48))

    async def answer_then_start() -> tuple[list[dict[str, Any]], list[str]]:
        label = pool.resolve(Speculation("draft"), request)
        pool.start_soon("ngram-mod")  # as Auto's route does: after the resolve, before the answer
        await asyncio.sleep(0.5)  # a server measures the prompt and takes its turn meanwhile
        during = [pool.background()]
        async for event in pool.stream(label, request):
            if isinstance(event, TextDelta):
                during.append(pool.background())
        await _background_done(pool)
        return during, [c.label for c in pool.status().children]

    try:
        during, running = asyncio.run(answer_then_start())
        assert len(during) > 1
        assert all(b["starting"] == ["ngram-mod"] and b["loading"] == [] and b["busy"] for b in during)
        assert sorted(running) == ["draft", "ngram-mod"]  # it started once the answer ended
        assert pool.background() == {"starting": [], "loading": [], "busy": False}
    finally:
        pool.close()
        engine.close()


def test_a_pool_that_never_rests_starts_after_a_few_answers(smollm2_f32: Path, smollm2_q4: Path) -> None:
    """Back-to-back answers (an agent's requests) never leave the pool idle: the background start
    waits while START_PATIENCE answers end, then loads beside the next ones instead of never."""
    engine, pool, _ = _pooled(smollm2_f32, smollm2_q4, PoolConfig(slots=1))
    request = GenerateRequest(ASK, Sampling(temperature=0.0, max_tokens=12))

    async def back_to_back() -> list[list[str]]:
        pool.start_soon("ngram-mod")
        loading_after: list[list[str]] = []
        for _ in range(START_PATIENCE + 2):
            async for _event in pool.stream(pool.resolve(Speculation("draft"), request), request):
                pass
            await asyncio.sleep(0.2)  # two polls of the waiting start, far less than a settled rest
            loading_after.append(pool.background()["loading"])
        await _background_done(pool)
        return loading_after

    try:
        after = asyncio.run(back_to_back())
        assert after[: START_PATIENCE - 1] == [[]] * (START_PATIENCE - 1)  # it waited
        assert "ngram-mod" in {c.label for c in pool.status().children}
    finally:
        pool.close()
        engine.close()
