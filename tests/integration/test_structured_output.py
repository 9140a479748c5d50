"""Structured output on the local server: ``response_format`` on chat completions,
``text.format`` on Responses, ``output_format`` on Messages, enforced by llama.cpp's grammar of a
JSON object or schema; an engine that cannot constrain output refuses; greedy parity holds with a
schema and speculation on.

Real llama.cpp on the embedded SmolLM2 with the real ``openai`` / ``anthropic`` clients; the scripted
engine only stands for an engine without structured output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anthropic
import openai
import pytest

from app.core.answer import collect
from app.core.engines.base import GenerationError, LoadRequest, Sampling, TemplateCaps
from app.core.engines.blocking import generate
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.requests.request import ChatRequest
from app.core.requests.shaping import shape
from app.core.serving import ServedModel
from app.core.speculative import SpeculationOptions
from tests.integration.scripted_engine import Script
from tests.integration.served import Served, q4_engine

__all__ = ["q4_engine"]  # fixtures


ASK = "Give me a person named Ann aged 30 as JSON."
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
    "required": ["name", "age"],
    "additionalProperties": False,
}
FORMAT = {"type": "json_schema", "json_schema": {"name": "person", "schema": SCHEMA, "strict": True}}


def _person(text: str) -> dict[str, Any]:
    data = json.loads(text)
    assert set(data) == {"name", "age"} and isinstance(data["name"], str) and isinstance(data["age"], int)
    return dict(data)


def test_json_schema_is_enforced_on_every_api(q4_engine: LlamaCppEngine) -> None:
    with Served(ServedModel(q4_engine, "smollm2")) as s:
        client = s.openai()
        msgs: Any = [{"role": "user", "content": ASK}]
        free = client.chat.completions.create(model="x", messages=msgs, max_tokens=60)
        chat = client.chat.completions.create(model="x", messages=msgs, max_tokens=60, response_format=FORMAT)  # type: ignore[arg-type]
        chunks = list(
            client.chat.completions.create(
                model="x",
                messages=msgs,
                max_tokens=60,
                response_format=FORMAT,  # type: ignore[arg-type]
                stream=True,
            )
        )
        resp = client.responses.create(
            model="x",
            input=ASK,
            max_output_tokens=60,
            text={"format": {"type": "json_schema", "name": "person", "schema": SCHEMA, "strict": True}},
        )
        message = s.anthropic().messages.create(
            model="x",
            max_tokens=60,
            messages=[{"role": "user", "content": ASK}],
            extra_body={"output_format": {"type": "json_schema", "schema": SCHEMA}},
        )
    assert free.choices[0].finish_reason == "length"  # free text runs on past the object
    person = _person(chat.choices[0].message.content or "")
    assert chat.choices[0].finish_reason == "stop"
    streamed = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert _person(streamed) == person  # greedy: the same object streamed
    assert _person(resp.output_text) == person and resp.status == "completed"
    assert message.content[0].type == "text" and _person(message.content[0].text) == person
    assert message.stop_reason == "end_turn"


def test_json_object_constrains_a_prose_prompt(q4_engine: LlamaCppEngine) -> None:
    with Served(ServedModel(q4_engine, "smollm2")) as s:
        client = s.openai()
        msgs: Any = [{"role": "user", "content": "Say hello."}]
        free = client.chat.completions.create(model="x", messages=msgs, max_tokens=20)
        obj = client.chat.completions.create(
            model="x",
            messages=msgs,
            max_tokens=20,
            response_format={"type": "json_object"},
        )
        text = client.chat.completions.create(
            model="x", messages=msgs, max_tokens=20, response_format={"type": "text"}
        )
    assert not (free.choices[0].message.content or "").lstrip().startswith("{")
    assert (obj.choices[0].message.content or "").lstrip().startswith("{")
    assert text.choices[0].message.content == free.choices[0].message.content


def test_a_schema_llama_cpp_cannot_compile_is_400(q4_engine: LlamaCppEngine) -> None:
    bad = {"type": "json_schema", "json_schema": {"name": "x", "schema": {"type": "bogus"}}}
    with Served(ServedModel(q4_engine, "smollm2")) as s:
        client = s.openai()
        with pytest.raises(openai.BadRequestError) as err:
            client.chat.completions.create(
                model="x", messages=[{"role": "user", "content": "hi"}], response_format=bad
            )  # type: ignore[arg-type]
        with pytest.raises(openai.BadRequestError) as shape:
            client.chat.completions.create(
                model="x",
                messages=[{"role": "user", "content": "hi"}],
                response_format={"type": "json_schema", "json_schema": {"name": "x"}},  # type: ignore[typeddict-item]
            )
    assert "bogus" in err.value.body["message"]  # type: ignore[index]
    assert "'schema' object" in shape.value.body["message"]  # type: ignore[index]


class Unconstrained(Script):
    supports_structured_output = False
    supports_images = False


def test_an_engine_without_structured_output_refuses_on_every_api() -> None:
    engine = Unconstrained("free text")
    with Served(ServedModel(engine, "m")) as s:
        client = s.openai()
        with pytest.raises(openai.BadRequestError) as chat:
            client.chat.completions.create(
                model="m",
                messages=[{"role": "user", "content": "hi"}],
                response_format={"type": "json_object"},
            )
        with pytest.raises(openai.BadRequestError) as resp:
            client.responses.create(model="m", input="hi", text={"format": {"type": "json_object"}})
        with pytest.raises(anthropic.BadRequestError) as msg:
            s.anthropic().messages.create(
                model="m",
                max_tokens=10,
                messages=[{"role": "user", "content": "hi"}],
                extra_body={"output_format": {"type": "json_schema", "schema": SCHEMA}},
            )
        plain = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
    for body in (chat.value.body, resp.value.body):
        assert body["code"] == "unsupported" and body["param"] == "response_format"  # type: ignore[index]
        assert "cannot constrain output" in body["message"]  # type: ignore[index]
    assert msg.value.body["error"]["type"] == "invalid_request_error"  # type: ignore[index]
    assert "cannot constrain output" in msg.value.body["error"]["message"]  # type: ignore[index]
    assert plain.choices[0].message.content == "free text"
    assert len(engine.seen) == 1  # the refused requests never reached the engine


def test_greedy_parity_with_a_schema_and_speculation_on(smollm2_f32: Path, smollm2_q4: Path) -> None:
    """The grammar constrains the target's sampling and the drafter's proposals alike: spec-on
    writes the same text in the same number of tokens as spec-off (llama-server gives no complete
    token ids with a drafter running), and the drafter is still accepted."""
    messages: Any = [{"role": "user", "content": ASK}]
    sampling = Sampling(max_tokens=60)
    # a forced tool choice, as the server shapes it for a template without tools: a schema too
    forced = ChatRequest(
        [{"role": "user", "content": "What is the weather in Oslo?"}],
        sampling,
        tools=[{"type": "function", "function": WEATHER_TOOL}],
        tool_choice="required",
    )
    forced = shape(forced, TemplateCaps(renders_tools=False), None, True)
    plain = LlamaCppEngine.load(LoadRequest(str(smollm2_f32), n_ctx=1024))
    try:
        off = collect(generate(plain, messages, sampling, response_format=FORMAT))
        call_off = collect(generate(plain, forced.messages, sampling, response_format=forced.response_format))
    finally:
        plain.close()
    options = SpeculationOptions(enabled=True, draft_model_path=str(smollm2_q4), num_speculative_tokens=4)
    pair = LlamaCppEngine.load(LoadRequest(str(smollm2_f32), options, n_ctx=1024))
    try:
        on = collect(generate(pair, messages, sampling, response_format=FORMAT))
        call_on = collect(generate(pair, forced.messages, sampling, response_format=forced.response_format))
    finally:
        pair.close()
    assert off.reason == on.reason == "stop"
    assert on.text == off.text and on.completion_tokens == off.completion_tokens
    _person(on.text)
    assert on.drafted_total > 0 and on.accepted_total > 0
    assert call_on.text == call_off.text and call_on.completion_tokens == call_off.completion_tokens
    assert json.loads(call_on.text)["name"] == "get_weather"


def test_the_llama_cpp_engine_states_its_capability(q4_engine: LlamaCppEngine) -> None:
    assert q4_engine.supports_structured_output is True
    with pytest.raises(GenerationError):  # the raw engine error for a schema it cannot compile
        collect(
            generate(
                q4_engine,
                [{"role": "user", "content": "hi"}],
                Sampling(max_tokens=4),
                response_format={"type": "json_schema", "json_schema": {"schema": {"type": "bogus"}}},
            )
        )


WEATHER_TOOL = {
    "name": "get_weather",
    "description": "Get the current weather for a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
