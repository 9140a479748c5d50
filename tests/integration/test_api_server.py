"""The local API server with a real client (the ``openai`` package) on loopback.

Real engines on the embedded SmolLM2: Q4_1 alone, and F32 with Q4_1 drafting for non-zero
speculation figures. Only the tool-call layer uses a scripted engine (the 135M model does not
write tool calls reliably); the real-engine path checks that ``tools`` pass through.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx
import openai
import pytest

from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.serving import Limits, ServedModel
from tests.integration.scripted_engine import EXPECTED, GEMMA_ANSWER, Script
from tests.integration.served import KEY, Served, pair_engine, q4_engine, served_model

__all__ = ["pair_engine", "q4_engine"]  # fixtures


HI = [{"role": "user", "content": "Write a long story about a dragon."}]


def _wait(cond: Any, timeout: float = 60.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def test_non_streaming_answer_with_usage_and_no_speculation(q4_engine: LlamaCppEngine) -> None:
    with Served(served_model(q4_engine)) as s:
        client = s.openai()
        assert [m.id for m in client.models.list()] == ["smollm2"]
        r = client.chat.completions.create(model="smollm2", messages=HI, max_tokens=6)  # type: ignore[arg-type]
    assert r.choices[0].message.content
    assert r.choices[0].finish_reason == "length"
    assert r.usage is not None and r.usage.completion_tokens == 6 and r.usage.prompt_tokens > 0
    spec = (r.model_extra or {})["tandem"]["speculative_decoding"]
    assert spec["enabled"] is False and spec["drafted"] == 0 and spec["acceptance_rate"] is None
    assert [(e.status, e.completion_tokens) for e in s.log] == [("ok", 6)]


def test_streaming_and_single_answers_carry_the_speculation_figures(pair_engine: LlamaCppEngine) -> None:
    with Served(served_model(pair_engine)) as s:
        client = s.openai()
        chunks = list(
            client.chat.completions.create(
                model="smollm2",
                messages=[{"role": "user", "content": "Count from 1 to 30 separated by commas."}],
                max_tokens=24,
                stream=True,
            )
        )
        single = client.chat.completions.create(
            model="smollm2",
            messages=[{"role": "user", "content": "Count from 1 to 30 separated by commas."}],
            max_tokens=24,
        )
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == single.choices[0].message.content  # greedy: the same answer both ways
    final = chunks[-1].model_extra or {}
    assert chunks[-1].choices[0].finish_reason == "length"
    assert all("tandem" not in (c.model_extra or {}) for c in chunks[:-1])  # figures in the final chunk
    spec = final["tandem"]["speculative_decoding"]
    assert spec["enabled"] is True and spec["method"] == "draft"
    assert spec["drafted"] > 0 and 0 < spec["accepted"] <= spec["drafted"]
    assert spec["rounds"] > 0 and spec["acceptance_rate"] == round(spec["accepted"] / spec["drafted"], 4)
    assert spec["mean_accepted_length"] is not None and spec["mean_accepted_length"] >= 1
    assert chunks[-1].usage is not None and chunks[-1].usage.completion_tokens == 24
    single_spec = (single.model_extra or {})["tandem"]["speculative_decoding"]
    assert single_spec["drafted"] > 0 and single.usage is not None and single.usage.completion_tokens == 24
    assert [e.status for e in s.log] == ["ok", "ok"] and all(e.drafted > 0 for e in s.log)


def test_wrong_or_missing_key_is_401_in_openai_shape(q4_engine: LlamaCppEngine) -> None:
    with Served(served_model(q4_engine)) as s:
        with pytest.raises(openai.AuthenticationError) as err:
            s.openai("wrong").chat.completions.create(model="x", messages=HI, max_tokens=2)  # type: ignore[arg-type]
        bare = httpx.get(s.url + "/models")
    assert err.value.status_code == 401
    assert bare.status_code == 401
    body = bare.json()["error"]
    assert set(body) == {"message", "type", "param", "code"} and body["code"] == "invalid_api_key"
    assert s.log == []  # nothing reached the engine


def test_bounds_answer_400_in_openai_shape(q4_engine: LlamaCppEngine) -> None:
    with Served(
        served_model(q4_engine), limits=Limits(max_body_bytes=4000, max_tokens=64, default_max_tokens=8)
    ) as s:
        client = s.openai()
        with pytest.raises(openai.BadRequestError) as over:
            client.chat.completions.create(model="x", messages=HI, max_tokens=65)  # type: ignore[arg-type]
        with pytest.raises(openai.BadRequestError) as zero:
            client.chat.completions.create(model="x", messages=HI, max_tokens=0)  # type: ignore[arg-type]
        big = [{"role": "user", "content": "x" * 5000}]
        with pytest.raises(openai.BadRequestError) as body:
            client.chat.completions.create(model="x", messages=big, max_tokens=2)  # type: ignore[arg-type]
        raw = httpx.post(
            s.url + "/chat/completions", content=b"{not json", headers={"Authorization": f"Bearer {KEY}"}
        )
    assert over.value.body["param"] == "max_tokens" and "64" in over.value.body["message"]  # type: ignore[index]
    assert zero.value.body["param"] == "max_tokens"  # type: ignore[index]
    assert body.value.body["code"] == "request_too_large"  # type: ignore[index]
    assert raw.status_code == 400 and "not valid JSON" in raw.json()["error"]["message"]
    assert s.log == []


def test_client_disconnect_mid_stream_frees_the_engine(q4_engine: LlamaCppEngine) -> None:
    with Served(served_model(q4_engine)) as s:
        client = s.openai()
        stream = client.chat.completions.create(model="x", messages=HI, max_tokens=400, stream=True)  # type: ignore[arg-type]
        got = 0
        for chunk in stream:
            if chunk.choices and chunk.choices[0].delta.content:
                got += 1
                if got == 3:
                    break
        stream.close()  # the client leaves mid-answer
        _wait(lambda: len(s.log) == 1, what="the cancelled request to leave the engine")
        assert s.server.admission.in_flight == 0
        started = time.monotonic()
        r = client.chat.completions.create(model="x", messages=HI, max_tokens=3)  # type: ignore[arg-type]
        took = time.monotonic() - started
    assert r.usage is not None and r.usage.completion_tokens == 3
    first = s.log[0]
    assert first.status == "cancelled" and 3 <= first.completion_tokens < 400
    assert took < 60, f"the next request waited {took:.0f} s: the cancelled one kept the engine"


def test_queue_full_answers_429_with_retry_after(q4_engine: LlamaCppEngine) -> None:
    with Served(served_model(q4_engine), max_waiting=1, retry_after_s=7) as s:
        client = s.openai()
        long = client.chat.completions.create(model="x", messages=HI, max_tokens=400, stream=True)  # type: ignore[arg-type]
        first = next(iter(long))  # the engine is busy with the long request
        assert first.choices[0].delta.role == "assistant"
        waiting: list[Any] = []
        t = threading.Thread(
            target=lambda: waiting.append(
                client.chat.completions.create(model="x", messages=HI, max_tokens=2)  # type: ignore[arg-type]
            ),
            name="test-waiting-client",
        )
        t.start()
        _wait(lambda: s.server.admission.in_flight == 2, what="the second request to queue")
        with pytest.raises(openai.RateLimitError) as full:
            client.chat.completions.create(model="x", messages=HI, max_tokens=2)  # type: ignore[arg-type]
        long.close()
        t.join(120)
    assert full.value.status_code == 429
    assert full.value.response.headers["retry-after"] == "7"
    assert full.value.body["code"] == "queue_full"  # type: ignore[index]
    assert waiting and waiting[0].usage.completion_tokens == 2  # the waiting one got its turn


def test_a_burst_over_the_limit_is_refused_before_any_engine_work(
    q4_engine: LlamaCppEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Admission comes first: with the queue full, a burst of requests gets its 429s
    without a single template probe or tokenize round trip to the engine; an admitted request
    pays for both."""
    calls = {"template": 0, "tokenize": 0}
    template_caps, measure_prompt = q4_engine.template_caps, q4_engine.measure_prompt

    async def counted_template() -> Any:
        calls["template"] += 1
        return await template_caps()

    async def counted_tokenize(*args: Any, **kwargs: Any) -> int:
        calls["tokenize"] += 1
        return await measure_prompt(*args, **kwargs)

    monkeypatch.setattr(q4_engine, "template_caps", counted_template)
    monkeypatch.setattr(q4_engine, "measure_prompt", counted_tokenize)
    with Served(served_model(q4_engine), parallel=1, max_waiting=0) as s:
        client = s.openai()
        long = client.chat.completions.create(model="x", messages=HI, max_tokens=400, stream=True)  # type: ignore[arg-type]
        next(iter(long))  # admitted: it ran the template probe and measured its prompt
        assert calls["template"] >= 1 and calls["tokenize"] >= 1
        before = dict(calls)
        refused = 0
        for i in range(8):
            with pytest.raises(openai.RateLimitError):
                client.chat.completions.create(  # type: ignore[call-overload]
                    model="x", messages=[{"role": "user", "content": f"burst {i}"}], max_tokens=2
                )
            refused += 1
        long.close()
    assert refused == 8
    assert calls == before, f"the refused burst cost the engine {calls} (was {before})"


def test_real_engine_accepts_tools(q4_engine: LlamaCppEngine) -> None:
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}]
    with Served(served_model(q4_engine, "hermes")) as s:
        r = s.openai().chat.completions.create(
            model="x",
            messages=HI,
            max_tokens=3,
            tools=tools,
            tool_choice="auto",  # type: ignore[arg-type]
        )
    assert r.usage is not None and r.usage.completion_tokens == 3
    assert r.choices[0].finish_reason == "length"  # three tokens cannot hold a whole tool call


# --- tool calls: a scripted engine for the model's output (the server is real) ---------------------
TOOLS = [
    {"type": "function", "function": {"name": "route", "parameters": {"type": "object"}}},
    {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}},
]


def test_tool_calls_parsed_into_openai_tool_calls() -> None:
    engine = Script(GEMMA_ANSWER)
    with Served(ServedModel(engine, "gemma-4", "gemma4")) as s:
        r = s.openai().chat.completions.create(model="gemma-4", messages=HI, tools=TOOLS)  # type: ignore[arg-type]
    msg = r.choices[0].message
    assert r.choices[0].finish_reason == "tool_calls"
    assert msg.content == "Routing."
    calls = [(c.function.name, json.loads(c.function.arguments)) for c in msg.tool_calls or []]  # type: ignore[union-attr]
    assert calls == EXPECTED
    assert [tools for _messages, tools, _choice in engine.seen] == [TOOLS]
    assert s.log[0].tool_calls == 2


def test_tool_calls_streamed_as_deltas() -> None:
    with Served(ServedModel(Script(GEMMA_ANSWER), "gemma-4", "gemma4")) as s:
        chunks = list(
            s.openai().chat.completions.create(model="gemma-4", messages=HI, tools=TOOLS, stream=True)  # type: ignore[arg-type]
        )
    content = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    deltas = [d for c in chunks if c.choices for d in (c.choices[0].delta.tool_calls or [])]
    assert content == "Routing."  # no markup streamed as text
    assert [d.index for d in deltas] == [0, 1]
    assert [(d.function.name, json.loads(d.function.arguments)) for d in deltas] == EXPECTED  # type: ignore[union-attr,arg-type]
    assert chunks[-1].choices[0].finish_reason == "tool_calls"


def test_without_tools_in_the_request_the_markup_stays_text() -> None:
    with Served(ServedModel(Script(GEMMA_ANSWER), "gemma-4", "gemma4")) as s:
        r = s.openai().chat.completions.create(model="gemma-4", messages=HI)  # type: ignore[arg-type]
    assert r.choices[0].message.content == GEMMA_ANSWER and not r.choices[0].message.tool_calls
