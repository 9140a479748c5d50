"""The local server's OpenAI Responses API with the real ``openai`` client on loopback.

Real engines on the embedded SmolLM2 (Q4_1 alone; F32 with Q4_1 drafting for non-zero speculation
figures). Function calls use the scripted engine of the Messages tests, the only fake (the 135M
model does not write tool calls); the real-engine path checks that tools and outputs pass through.
"""

from __future__ import annotations

import json
from typing import Any

import openai
import pytest

from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.serving import ServedModel
from tests.integration.scripted_engine import EXPECTED, GEMMA_ANSWER, Script
from tests.integration.served import Served, pair_engine, q4_engine, served_model

__all__ = ["pair_engine", "q4_engine"]  # fixtures


COUNT = "Count from 1 to 30 separated by commas."
TOOLS: list[Any] = [
    {"type": "function", "name": "route", "parameters": {"type": "object"}},
    {
        "type": "function",
        "name": "get_weather",
        "description": "Weather for a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
]


def test_non_streamed_response_incomplete_at_the_token_limit(q4_engine: LlamaCppEngine) -> None:
    with Served(served_model(q4_engine)) as s:
        r = s.openai().responses.create(
            model="x",
            instructions="You are terse.",
            input="Write a long story about a dragon.",
            max_output_tokens=6,
        )
        done = s.openai().responses.create(model="x", input="Say hello.", max_output_tokens=200)
    assert r.object == "response" and r.model == "smollm2" and r.output_text
    assert r.status == "incomplete" and r.incomplete_details is not None
    assert r.incomplete_details.reason == "max_output_tokens"
    assert r.usage is not None and r.usage.output_tokens == 6 and r.usage.input_tokens > 0
    assert [o.type for o in r.output] == ["message"]
    spec = (r.model_extra or {})["tandem"]["speculative_decoding"]
    assert spec["enabled"] is False and spec["drafted"] == 0
    assert done.status == "completed" and done.output_text and done.usage is not None
    assert done.usage.output_tokens < 200
    assert [e.status for e in s.log] == ["ok", "ok"]


def test_streamed_events_and_speculation_figures_match_the_single_response(
    pair_engine: LlamaCppEngine,
) -> None:
    with Served(served_model(pair_engine)) as s:
        client = s.openai()
        events = list(client.responses.create(model="x", input=COUNT, max_output_tokens=24, stream=True))
        single = client.responses.create(
            model="x", input=[{"role": "user", "content": COUNT}], max_output_tokens=24
        )
    kinds = [e.type for e in events]
    assert kinds[:5] == [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
    ]
    assert kinds[-4:] == [
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.incomplete",
    ]
    assert [e.sequence_number for e in events] == list(range(len(events)))
    text = "".join(e.delta for e in events if e.type == "response.output_text.delta")
    assert text == single.output_text  # greedy: the same answer both ways
    final = events[-1].response  # type: ignore[union-attr]
    assert final.output_text == text and final.usage is not None and final.usage.output_tokens == 24
    spec = (final.model_extra or {})["tandem"]["speculative_decoding"]
    assert spec["enabled"] is True and spec["method"] == "draft" and spec["drafted"] > 0
    assert 0 < spec["accepted"] <= spec["drafted"]
    assert (single.model_extra or {})["tandem"]["speculative_decoding"]["drafted"] > 0
    assert [e.stream for e in s.log] == [True, False]


def test_real_engine_takes_function_tools_and_call_outputs(q4_engine: LlamaCppEngine) -> None:
    with Served(served_model(q4_engine, "hermes")) as s:
        r = s.openai().responses.create(
            model="x",
            max_output_tokens=3,
            tools=TOOLS,
            input=[
                {"role": "user", "content": "Weather in Paris?"},
                {
                    "type": "function_call",
                    "call_id": "call_1",
                    "name": "get_weather",
                    "arguments": '{"city": "Paris"}',
                },
                {"type": "function_call_output", "call_id": "call_1", "output": "18 C"},
            ],
        )
    assert r.usage is not None and r.usage.output_tokens == 3 and r.usage.input_tokens > 20


def test_function_calls_become_output_items_and_inputs_map_to_chat_messages() -> None:
    engine = Script(GEMMA_ANSWER)
    with Served(ServedModel(engine, "gemma-4", "gemma4")) as s:
        r = s.openai().responses.create(
            model="g",
            instructions="Route first.",
            tools=TOOLS,
            tool_choice="required",
            input=[
                {"role": "user", "content": [{"type": "input_text", "text": "hi"}]},
                {"role": "assistant", "content": [{"type": "output_text", "text": "Let me check."}]},
                {
                    "type": "function_call",
                    "call_id": "call_9",
                    "name": "get_weather",
                    "arguments": '{"city": "Oslo"}',
                },
                {"type": "function_call_output", "call_id": "call_9", "output": "-3 C"},
                {"role": "user", "content": "And now?"},
            ],
        )
    assert r.status == "completed" and r.output_text == "Routing."
    assert [o.type for o in r.output] == ["message", "function_call", "function_call"]
    calls = [(o.name, json.loads(o.arguments)) for o in r.output if o.type == "function_call"]
    assert calls == EXPECTED
    assert all(o.call_id.startswith("call_") for o in r.output if o.type == "function_call")
    messages, tools, choice = engine.seen[0]
    assert messages == [
        {"role": "system", "content": "Route first."},
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": "Let me check.",
            "tool_calls": [
                {
                    "id": "call_9",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
                }
            ],
        },
        {"role": "tool", "content": "-3 C", "tool_call_id": "call_9"},
        {"role": "user", "content": "And now?"},
    ]
    assert [t["function"]["name"] for t in tools] == ["route", "get_weather"] and choice == "required"
    assert s.log[0].tool_calls == 2


def test_function_calls_streamed_as_items() -> None:
    engine = Script(GEMMA_ANSWER)
    with Served(ServedModel(engine, "gemma-4", "gemma4")) as s:
        events = list(s.openai().responses.create(model="g", input="hi", tools=TOOLS, stream=True))
    added = [e.item.type for e in events if e.type == "response.output_item.added"]  # type: ignore[union-attr]
    assert added == ["message", "function_call", "function_call"]
    text = "".join(e.delta for e in events if e.type == "response.output_text.delta")
    assert text == "Routing."  # no markup streamed as text
    done = [
        (e.name, json.loads(e.arguments)) for e in events if e.type == "response.function_call_arguments.done"
    ]
    assert done == EXPECTED
    final = events[-1]
    assert final.type == "response.completed"
    assert [o.type for o in final.response.output] == ["message", "function_call", "function_call"]


def test_refusals_and_engine_errors() -> None:
    with Served(ServedModel(Script("abcdefghijkl", fail=True), "m", None)) as s:
        client = s.openai()
        with pytest.raises(openai.BadRequestError) as previous:
            client.responses.create(model="m", input="hi", previous_response_id="resp_1")
        with pytest.raises(openai.InternalServerError) as failed:
            client.responses.create(model="m", input="hi")
        events = list(client.responses.create(model="m", input="hi", stream=True))
    assert "keeps no responses" in previous.value.body["message"]  # type: ignore[index]
    assert "scripted engine failed" in failed.value.body["message"]  # type: ignore[index]
    assert [e.type for e in events[-2:]] == ["error", "response.failed"]
    assert events[-1].response.status == "failed"  # type: ignore[union-attr]
    assert [e.status for e in s.log] == ["error", "error"]
