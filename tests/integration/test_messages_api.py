"""The local server's Anthropic Messages API with the real ``anthropic`` client on loopback.

Real engines on the embedded SmolLM2 (Q4_1 alone; F32 with Q4_1 drafting for non-zero speculation
figures). Tool calls use a scripted engine, the only fake (the 135M model does not write tool calls);
the real-engine path checks that tools and tool results pass through.
"""

from __future__ import annotations

import json
from typing import Any

import anthropic
import httpx
import pytest

from app.core.engines.base import ToolCall
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.serving import Limits, LocalServer, ServedModel, ServerConfig
from tests.integration.scripted_engine import EXPECTED, GEMMA_ANSWER, Script
from tests.integration.served import KEY, Served, pair_engine, q4_engine, served_model

__all__ = ["pair_engine", "q4_engine"]  # fixtures


COUNT = [{"role": "user", "content": "Count from 1 to 30 separated by commas."}]


def _text(message: anthropic.types.Message) -> str:
    return "".join(b.text for b in message.content if b.type == "text")


def test_non_streamed_message_with_system_prompt_usage_and_stop_reason(q4_engine: LlamaCppEngine) -> None:
    with Served(served_model(q4_engine)) as s:
        client = s.anthropic()
        r = client.messages.create(
            model="claude-anything",
            max_tokens=6,
            system="You are terse.",
            messages=[{"role": "user", "content": "Write a long story about a dragon."}],
        )
        blocks = client.messages.create(
            model="x",
            max_tokens=6,
            system=[{"type": "text", "text": "You are terse."}],
            messages=[
                {"role": "user", "content": [{"type": "text", "text": "Write a long story about a dragon."}]}
            ],
        )
    assert r.type == "message" and r.role == "assistant" and r.model == "smollm2"
    assert r.content and r.content[0].type == "text" and _text(r)
    assert r.stop_reason == "max_tokens" and r.stop_sequence is None
    assert r.usage.output_tokens == 6 and r.usage.input_tokens > 0
    assert _text(blocks) == _text(r)  # string and block forms are the same prompt (greedy)
    assert blocks.usage.input_tokens == r.usage.input_tokens
    spec = (r.model_extra or {})["tandem"]["speculative_decoding"]
    assert spec["enabled"] is False and spec["drafted"] == 0
    assert [(e.status, e.stream, e.completion_tokens) for e in s.log] == [("ok", False, 6), ("ok", False, 6)]


def test_an_answer_that_ends_is_end_turn(q4_engine: LlamaCppEngine) -> None:
    with Served(served_model(q4_engine)) as s:
        r = s.anthropic().messages.create(
            model="x", max_tokens=200, messages=[{"role": "user", "content": "Say hello."}]
        )
    assert r.stop_reason == "end_turn" and r.usage.output_tokens < 200


def test_streamed_events_and_speculation_figures_match_the_single_answer(pair_engine: LlamaCppEngine) -> None:
    with Served(served_model(pair_engine)) as s:
        client = s.anthropic()
        events = list(client.messages.create(model="x", max_tokens=24, messages=COUNT, stream=True))  # type: ignore[arg-type]
        with client.messages.stream(model="x", max_tokens=24, messages=COUNT) as stream:  # type: ignore[arg-type]
            streamed_text = "".join(stream.text_stream)
            final = stream.get_final_message()
        single = client.messages.create(model="x", max_tokens=24, messages=COUNT)  # type: ignore[arg-type]
    kinds = [e.type for e in events]
    assert kinds[:3] == [
        "message_start",
        "content_block_start",
        "content_block_delta",
    ]  # (the client drops pings)
    assert kinds[-3:] == ["content_block_stop", "message_delta", "message_stop"]
    text = "".join(
        e.delta.text for e in events if e.type == "content_block_delta" and e.delta.type == "text_delta"
    )
    assert text == _text(single) == streamed_text == _text(final)  # greedy: the same answer every way
    delta = next(e for e in events if e.type == "message_delta")
    assert delta.delta.stop_reason == "max_tokens" and delta.usage.output_tokens == 24
    assert final.stop_reason == "max_tokens" and final.usage.output_tokens == 24
    spec = (delta.model_extra or {})["tandem"]["speculative_decoding"]
    assert spec["enabled"] is True and spec["method"] == "draft"
    assert spec["drafted"] > 0 and 0 < spec["accepted"] <= spec["drafted"]
    single_spec = (single.model_extra or {})["tandem"]["speculative_decoding"]
    assert single_spec["drafted"] > 0 and single.usage.input_tokens > 0
    assert [e.status for e in s.log] == ["ok", "ok", "ok"] and [e.stream for e in s.log] == [
        True,
        True,
        False,
    ]


def test_keys_x_api_key_or_bearer_and_errors_in_anthropic_shape(q4_engine: LlamaCppEngine) -> None:
    with Served(served_model(q4_engine), limits=Limits(max_tokens=64, default_max_tokens=8)) as s:
        with pytest.raises(anthropic.AuthenticationError) as wrong:
            s.anthropic("wrong").messages.create(model="x", max_tokens=2, messages=COUNT)  # type: ignore[arg-type]
        body = {"model": "x", "max_tokens": 2, "messages": COUNT}
        bare = httpx.post(s.root + "/v1/messages", json=body)
        bearer = httpx.post(
            s.root + "/v1/messages", json=body, headers={"Authorization": f"Bearer {KEY}"}, timeout=60
        )
        client = s.anthropic()
        with pytest.raises(anthropic.BadRequestError) as zero:
            client.messages.create(model="x", max_tokens=0, messages=COUNT)  # type: ignore[arg-type]
        # agents fill max_tokens with their model's output limit: it is a cap, held to the server's
        capped = client.messages.create(model="x", max_tokens=32000, messages=COUNT)  # type: ignore[arg-type]
        with pytest.raises(anthropic.BadRequestError) as image:
            client.messages.create(
                model="x",
                max_tokens=2,
                messages=[
                    {
                        "role": "user",
                        "content": [
                            {"type": "image", "source": {"type": "url", "url": "http://127.0.0.1/x.png"}}
                        ],
                    }
                ],
            )
        missing = httpx.post(s.root + "/v1/messages/nothing", json=body, headers={"x-api-key": KEY})
    assert wrong.value.status_code == 401
    assert wrong.value.body == {
        "type": "error",
        "error": {"type": "authentication_error", "message": "Invalid API key."},
    }
    assert bare.status_code == 401 and bare.json()["error"]["type"] == "authentication_error"
    assert bearer.status_code == 200 and bearer.json()["usage"]["output_tokens"] == 2
    assert zero.value.body["error"]["type"] == "invalid_request_error"  # type: ignore[index]
    assert "max_tokens" in zero.value.body["error"]["message"]  # type: ignore[index]
    assert 0 < capped.usage.output_tokens <= 64
    assert "does not fetch images from the network" in image.value.body["error"]["message"]  # type: ignore[index]
    assert missing.status_code == 404 and missing.json()["type"] == "error"
    assert len(s.log) == 2  # only the Bearer and the capped requests reached the engine


def test_real_engine_takes_tools_and_a_tool_result_turn(q4_engine: LlamaCppEngine) -> None:
    with Served(served_model(q4_engine, "hermes")) as s:
        r = s.anthropic().messages.create(
            model="x",
            max_tokens=3,
            tools=[WEATHER],
            messages=[
                {"role": "user", "content": "Weather in Paris?"},
                {
                    "role": "assistant",
                    "content": [
                        {
                            "type": "tool_use",
                            "id": "toolu_1",
                            "name": "get_weather",
                            "input": {"city": "Paris"},
                        }
                    ],
                },
                {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "18 C"}],
                },
            ],
        )
    assert r.usage.output_tokens == 3 and r.stop_reason == "max_tokens"  # too short for a whole tool call
    assert r.usage.input_tokens > 20  # the tool turns reached the template


# --- tool calls: a scripted engine writes the model's output (the server is real) ------------------
WEATHER = {
    "name": "get_weather",
    "description": "Weather for a city",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
}
TOOLS = [{"name": "route", "input_schema": {"type": "object"}}, WEATHER]


def _calls(message: anthropic.types.Message) -> list[tuple[str, object]]:
    return [(b.name, b.input) for b in message.content if b.type == "tool_use"]


def test_tool_calls_become_tool_use_blocks_and_history_maps_to_openai_shapes() -> None:
    engine = Script(GEMMA_ANSWER)
    with Served(ServedModel(engine, "gemma-4", "gemma4")) as s:
        r = s.anthropic().messages.create(
            model="gemma-4",
            max_tokens=100,
            system="Route first.",
            tools=TOOLS,  # type: ignore[arg-type]
            tool_choice={"type": "any"},
            messages=[
                {"role": "user", "content": "hi"},
                {
                    "role": "assistant",
                    "content": [
                        {"type": "text", "text": "Let me check."},
                        {
                            "type": "tool_use",
                            "id": "toolu_9",
                            "name": "get_weather",
                            "input": {"city": "Oslo"},
                        },
                    ],
                },
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "toolu_9",
                            "content": [{"type": "text", "text": "-3 C"}],
                        },
                        {"type": "text", "text": "And now?"},
                    ],
                },
            ],
        )
    assert r.stop_reason == "tool_use"
    assert [b.type for b in r.content] == ["text", "tool_use", "tool_use"] and _text(r) == "Routing."
    assert _calls(r) == EXPECTED
    assert all(b.id.startswith("toolu_") for b in r.content if b.type == "tool_use")
    messages, tools, choice = engine.seen[0]
    assert messages == [
        {"role": "system", "content": "Route first."},
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": "Let me check.",
            "tool_calls": [
                {
                    "id": "toolu_9",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
                }
            ],
        },
        {"role": "tool", "content": "-3 C", "tool_call_id": "toolu_9"},
        {"role": "user", "content": "And now?"},
    ]
    assert tools == [
        {"type": "function", "function": {"name": "route", "parameters": {"type": "object"}}},
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "parameters": WEATHER["input_schema"],
                "description": "Weather for a city",
            },
        },
    ]
    assert choice == "required"
    assert s.log[0].tool_calls == 2


def test_tool_calls_streamed_as_tool_use_blocks() -> None:
    with Served(ServedModel(Script(GEMMA_ANSWER), "gemma-4", "gemma4")) as s:
        client = s.anthropic()
        events = list(
            client.messages.create(model="g", max_tokens=100, tools=TOOLS, messages=COUNT, stream=True)
        )  # type: ignore[arg-type]
        with client.messages.stream(model="g", max_tokens=100, tools=TOOLS, messages=COUNT) as stream:  # type: ignore[arg-type]
            final = stream.get_final_message()
    starts = [e.content_block.type for e in events if e.type == "content_block_start"]
    assert starts == ["text", "tool_use", "tool_use"]
    text = "".join(
        e.delta.text for e in events if e.type == "content_block_delta" and e.delta.type == "text_delta"
    )
    assert text == "Routing."  # no markup streamed as text
    parts = [
        json.loads(e.delta.partial_json)
        for e in events
        if e.type == "content_block_delta" and e.delta.type == "input_json_delta"
    ]
    assert parts == [args for _, args in EXPECTED]
    assert [e.index for e in events if e.type == "content_block_stop"] == [0, 1, 2]
    assert final.stop_reason == "tool_use" and _calls(final) == EXPECTED and _text(final) == "Routing."


def test_calls_the_engine_parsed_itself_and_tool_choice_none() -> None:
    engine = Script("Checking.", engine_calls=[ToolCall.new("get_weather", {"city": "Rome"})])
    with Served(ServedModel(engine, "m", None)) as s:
        client = s.anthropic()
        r = client.messages.create(model="m", max_tokens=50, tools=[WEATHER], messages=COUNT)  # type: ignore[arg-type]
        with client.messages.stream(model="m", max_tokens=50, tools=[WEATHER], messages=COUNT) as stream:  # type: ignore[arg-type]
            streamed = stream.get_final_message()
        client.messages.create(
            model="m", max_tokens=50, tools=[WEATHER], tool_choice={"type": "none"}, messages=COUNT
        )  # type: ignore[arg-type]
        client.messages.create(
            model="m",
            max_tokens=50,
            tools=[WEATHER],  # type: ignore[list-item]
            tool_choice={"type": "tool", "name": "get_weather"},
            messages=COUNT,  # type: ignore[arg-type]
        )
    for m in (r, streamed):
        assert m.stop_reason == "tool_use" and _text(m) == "Checking."
        assert _calls(m) == [("get_weather", {"city": "Rome"})]
    assert engine.seen[2][1] is None and engine.seen[2][2] is None  # tool_choice none: no tools
    assert engine.seen[3][2] == {"type": "function", "function": {"name": "get_weather"}}


def test_plain_stop_is_end_turn_and_engine_errors_use_anthropic_shape() -> None:
    with Served(ServedModel(Script("All done."), "m", None)) as s:
        r = s.anthropic().messages.create(model="m", max_tokens=50, messages=COUNT)  # type: ignore[arg-type]
    assert r.stop_reason == "end_turn" and _text(r) == "All done."
    with Served(ServedModel(Script("abcdefghijkl", fail=True), "m", None)) as s:
        client = s.anthropic()
        with pytest.raises(anthropic.InternalServerError) as err:
            client.messages.create(model="m", max_tokens=50, messages=COUNT)  # type: ignore[arg-type]
        raw = httpx.post(
            s.root + "/v1/messages",
            json={"model": "m", "max_tokens": 50, "messages": COUNT, "stream": True},
            headers={"x-api-key": KEY},
            timeout=60,
        )
    assert err.value.status_code == 500
    assert err.value.body["error"]["type"] == "api_error"  # type: ignore[index]
    assert "scripted engine failed" in err.value.body["error"]["message"]  # type: ignore[index]
    assert raw.text.startswith("event: message_start\n") and "event: ping\n" in raw.text
    assert "event: error\n" in raw.text and '"type": "api_error"' in raw.text
    assert "message_stop" not in raw.text
    assert [e.status for e in s.log] == ["error", "error"]


def test_no_model_is_503_overloaded() -> None:
    server = LocalServer(None, ServerConfig(KEY, port=0))
    server.start()
    try:
        r = httpx.post(
            f"http://127.0.0.1:{server.port}/v1/messages",
            json={"model": "m", "max_tokens": 5, "messages": COUNT},
            headers={"x-api-key": KEY},
            timeout=60,
        )
    finally:
        server.stop()
    assert r.status_code == 503 and r.json()["error"]["type"] == "overloaded_error"


def test_count_tokens_matches_the_prompt_the_answer_used(q4_engine: LlamaCppEngine) -> None:
    ask: Any = [{"role": "user", "content": "Write a long story about a dragon."}]
    with Served(served_model(q4_engine)) as s:
        client = s.anthropic()
        counted = client.messages.count_tokens(model="x", system="You are terse.", messages=ask)
        answered = client.messages.create(model="x", max_tokens=2, system="You are terse.", messages=ask)
    assert counted.input_tokens == answered.usage.input_tokens > 0
    assert len(s.log) == 1  # counting does not run a generation


def test_count_tokens_from_an_engine_that_cannot_count_is_400() -> None:
    with Served(ServedModel(Script("x"), "m", None)) as s, pytest.raises(anthropic.BadRequestError) as err:
        s.anthropic().messages.count_tokens(model="m", messages=COUNT)  # type: ignore[arg-type]
    assert "cannot count tokens" in err.value.body["error"]["message"]  # type: ignore[index]


def test_a_client_that_leaves_mid_stream_frees_the_engine(q4_engine: LlamaCppEngine) -> None:
    story: Any = [{"role": "user", "content": "Write a long story about a dragon."}]
    with Served(served_model(q4_engine)) as s:
        client = s.anthropic()
        got = 0
        with client.messages.stream(model="x", max_tokens=400, messages=story) as stream:
            for _text in stream.text_stream:
                got += 1
                if got == 3:
                    break  # leaving the block closes the connection mid-answer
        _wait_for(lambda: len(s.log) == 1)
        assert s.server.admission.in_flight == 0
        after = client.messages.create(model="x", max_tokens=3, messages=story)
    assert s.log[0].status == "cancelled" and 3 <= s.log[0].completion_tokens < 400
    assert after.usage.output_tokens == 3


def _wait_for(cond: Any, timeout: float = 60.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)
