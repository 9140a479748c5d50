"""Agents' requests against the local server on real llama.cpp (SmolLM2, whose template renders no
tools): the recorded first request of Claude Code and of Codex CLI, a forced tool choice and an
overflowing prompt on all three endpoints, structured output from ``output_config.format``, exact
usage in ``message_start``, and keep-alives while a stream waits its turn."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.core.engines.base import LoadRequest
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.serving.protocol import Limits
from tests.integration.served import KEY, Served, served_model

CLIENTS = Path(__file__).parent / "data" / "clients"
WEATHER = {
    "name": "get_weather",
    "description": "Get the current weather for a city.",
    "parameters": {
        "type": "object",
        "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["c", "f"]}},
        "required": ["city"],
    },
}
ASK = "What is the weather in Paris?"
LONG = "Tell me about the history of Paris. " * 400  # ~3,600 tokens: more than 1,024


@pytest.fixture(scope="module")
def agent_engine(smollm2_q4: Path) -> Iterator[LlamaCppEngine]:
    """SmolLM2 Q4_1 with its trained context (8,192 tokens): room for an agent's first request."""
    eng = LlamaCppEngine.load(LoadRequest(str(smollm2_q4), n_ctx=0))
    yield eng
    eng.close()


@pytest.fixture(scope="module")
def small_engine(smollm2_q4: Path) -> Iterator[LlamaCppEngine]:
    eng = LlamaCppEngine.load(LoadRequest(str(smollm2_q4), n_ctx=1024))
    yield eng
    eng.close()


def _recorded(name: str) -> dict[str, Any]:
    return json.loads((CLIENTS / name).read_text("utf-8"))


def _events(raw: str) -> list[tuple[str, Any]]:
    """(event name or "", parsed data) of an SSE body; comments as ("comment", text)."""
    out: list[tuple[str, Any]] = []
    for block in raw.split("\n\n"):
        name, data = "", None
        for line in block.splitlines():
            if line.startswith(":"):
                out.append(("comment", line[1:].strip()))
            elif line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                text = line[5:].strip()
                data = text if text == "[DONE]" else json.loads(text)
        if data is not None:
            out.append((name, data))
    return out


def _post(
    s: Served, path: str, body: dict[str, Any], headers: dict[str, str] | None = None
) -> httpx.Response:
    merged = {"authorization": f"Bearer {KEY}", **(headers or {})}
    return httpx.post(f"{s.root}{path}", json=body, headers=merged, timeout=300)


def test_claude_codes_first_request_streams_to_its_end(agent_engine: LlamaCppEngine) -> None:
    """The recorded request (system message inside ``messages``, 22 tools, thinking and effort
    settings, max_tokens 128000): accepted, streamed in order, usage exact from the start."""
    rec = _recorded("claude-code-2.1.332-messages.json")
    with Served(served_model(agent_engine), limits=Limits(max_tokens=16)) as s:
        r = _post(s, "/v1/messages?beta=true", rec["body"], rec["headers"])
        count = _post(s, "/v1/messages/count_tokens", rec["body"], rec["headers"])
    assert r.status_code == 200, r.text
    events = _events(r.text)
    names = [n for n, _ in events if n not in ("comment", "ping")]
    assert names[0] == "message_start" and names[-2:] == ["message_delta", "message_stop"]
    assert "error" not in names
    start = events[0][1]["message"]
    delta = next(d for n, d in events if n == "message_delta")
    assert count.status_code == 200 and start["usage"]["input_tokens"] == count.json()["input_tokens"] > 3000
    assert delta["usage"]["input_tokens"] == start["usage"]["input_tokens"]
    assert delta["delta"]["stop_reason"] in ("max_tokens", "end_turn", "tool_use")


def test_codexs_first_request_streams_with_the_hosted_tool_left_out(agent_engine: LlamaCppEngine) -> None:
    """The recorded request (developer messages, a ``namespace`` of tools, ``web_search``)."""
    rec = _recorded("codex-0.171.0-responses.json")
    with Served(served_model(agent_engine), limits=Limits(max_tokens=16)) as s:
        r = _post(s, "/v1/responses", rec["body"], rec["headers"])
    assert r.status_code == 200, r.text
    events = _events(r.text)
    names = [n for n, _ in events if n != "comment"]
    assert names[:2] == ["response.created", "response.in_progress"]
    assert names[-1] in ("response.completed", "response.incomplete") and "error" not in names
    final = events[-1][1]["response"]
    assert any("'web_search' tool" in w for w in final["tandem"]["warnings"])
    assert final["usage"]["input_tokens"] > 3000


def test_a_forced_tool_choice_returns_a_call_on_every_endpoint(small_engine: LlamaCppEngine) -> None:
    with Served(served_model(small_engine)) as s:
        chat = s.openai().chat.completions.create(
            model="m",
            messages=[{"role": "user", "content": ASK}],
            tools=[{"type": "function", "function": WEATHER}],  # type: ignore[list-item]
            tool_choice="required",
            max_tokens=60,
        )
        named = s.anthropic().messages.create(
            model="m",
            max_tokens=60,
            messages=[{"role": "user", "content": ASK}],
            tools=[
                {
                    "name": WEATHER["name"],
                    "description": WEATHER["description"],
                    "input_schema": WEATHER["parameters"],
                }
            ],  # type: ignore[list-item]
            tool_choice={"type": "tool", "name": "get_weather"},
        )
        resp = s.openai().responses.create(
            model="m",
            input=ASK,
            tools=[{"type": "function", **WEATHER}],  # type: ignore[list-item]
            tool_choice="required",
            max_output_tokens=60,
        )
    call = chat.choices[0].message.tool_calls[0]  # type: ignore[index]
    assert chat.choices[0].finish_reason == "tool_calls" and call.function.name == "get_weather"  # type: ignore[union-attr]
    assert isinstance(json.loads(call.function.arguments)["city"], str)  # type: ignore[union-attr]
    use = [b for b in named.content if b.type == "tool_use"]
    assert named.stop_reason == "tool_use" and use[0].name == "get_weather" and "city" in use[0].input  # type: ignore[operator]
    calls = [o for o in resp.output if o.type == "function_call"]
    assert calls and calls[0].name == "get_weather" and "city" in json.loads(calls[0].arguments)


def test_an_overflowing_prompt_is_a_400_before_any_stream_on_every_endpoint(
    small_engine: LlamaCppEngine,
) -> None:
    with Served(served_model(small_engine)) as s:
        chat = _post(
            s, "/v1/chat/completions", {"messages": [{"role": "user", "content": LONG}], "stream": True}
        )
        messages = _post(
            s,
            "/v1/messages",
            {"max_tokens": 10, "messages": [{"role": "user", "content": LONG}], "stream": True},
        )
        responses = _post(s, "/v1/responses", {"input": LONG, "stream": True})
        assert s.server.admission.in_flight == 0
    for r in (chat, responses):
        assert r.status_code == 400 and r.headers["content-type"].startswith("application/json")
        error = r.json()["error"]
        assert error["code"] == "context_length_exceeded" and error["param"] == "messages"
        assert "prompt is too long" in error["message"] and "> 1023 maximum" in error["message"]
    assert messages.status_code == 400
    body = messages.json()
    assert body["type"] == "error" and body["error"]["type"] == "invalid_request_error"
    assert body["error"]["message"].startswith("prompt is too long: ")


def test_output_config_format_holds_the_answer_to_the_schema(small_engine: LlamaCppEngine) -> None:
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
        "required": ["name", "age"],
        "additionalProperties": False,
    }
    with Served(served_model(small_engine)) as s:
        r = _post(
            s,
            "/v1/messages",
            {
                "max_tokens": 80,
                "messages": [{"role": "user", "content": "Invent a person."}],
                "output_config": {"effort": "low", "format": {"type": "json_schema", "schema": schema}},
            },
        )
    assert r.status_code == 200, r.text
    person = json.loads(r.json()["content"][0]["text"])
    assert set(person) == {"name", "age"} and isinstance(person["age"], int)


def test_a_system_message_mid_conversation_is_taken(small_engine: LlamaCppEngine) -> None:
    with Served(served_model(small_engine)) as s:
        r = s.anthropic().messages.create(
            model="m",
            max_tokens=8,
            system="You are terse.",
            messages=[  # type: ignore[list-item]
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": "Hello."},
                {"role": "system", "content": "Answer in French."},
                {"role": "user", "content": "How are you?"},
            ],
        )
    assert r.content and r.usage.input_tokens > 20


def test_a_stream_waiting_its_turn_gets_headers_and_keep_alives(small_engine: LlamaCppEngine) -> None:
    """A second streaming request waits while the first answers (one slot): its headers and
    keep-alive comments arrive at once, before its first token."""
    body = {"messages": [{"role": "user", "content": "Write a long story about a cat."}], "max_tokens": 200}
    answering = threading.Event()

    def first_request(url: str) -> None:
        """The first request, streamed: it holds the engine from its first token on."""
        with httpx.stream(
            "POST",
            url,
            json={**body, "stream": True},
            headers={"authorization": f"Bearer {KEY}"},
            timeout=300,
        ) as r:
            for line in r.iter_lines():
                if '"content":"' in line.replace(" ", "") and '"content":""' not in line.replace(" ", ""):
                    answering.set()
        answering.set()  # never leave the waiting side hanging, even on an empty answer

    with Served(served_model(small_engine), keepalive_s=0.05) as s:
        first = threading.Thread(target=first_request, args=(f"{s.url}/chat/completions",), daemon=True)
        first.start()
        try:
            # the second request is sent once the first one answers: it must wait its turn (a
            # race in which it reached the engine first made the test flaky)
            assert answering.wait(120)
            with httpx.stream(
                "POST",
                f"{s.url}/chat/completions",
                json={**body, "max_tokens": 4, "stream": True},
                headers={"authorization": f"Bearer {KEY}"},
                timeout=300,
            ) as r:
                assert r.status_code == 200
                raw = r.read().decode()
        finally:
            first.join(300)
    events = _events(raw)
    kinds = [n for n, _ in events]
    assert kinds.count("comment") >= 2 and events[-1][1] == "[DONE]"
    first_text = next(
        i
        for i, (n, d) in enumerate(events)
        if n == "" and d != "[DONE]" and d["choices"] and d["choices"][0]["delta"].get("content")
    )
    assert kinds.index("comment") < first_text


def test_the_stop_sequence_that_ended_the_answer_is_reported(small_engine: LlamaCppEngine) -> None:
    count = [{"role": "user", "content": "List the numbers from 1 to 20, separated by commas."}]
    with Served(served_model(small_engine)) as s:
        client = s.anthropic()
        whole = client.messages.create(model="m", max_tokens=60, messages=count, stop_sequences=["zzz", "7"])  # type: ignore[arg-type]
        with client.messages.stream(model="m", max_tokens=60, messages=count, stop_sequences=["7"]) as stream:  # type: ignore[arg-type]
            streamed = stream.get_final_message()
        plain = client.messages.create(model="m", max_tokens=60, messages=count, stop_sequences=["zzz"])  # type: ignore[arg-type]
    for m in (whole, streamed):
        assert (m.stop_reason, m.stop_sequence) == ("stop_sequence", "7")
        assert m.content[0].text.rstrip().endswith("6,")  # type: ignore[union-attr]
    assert plain.stop_reason in ("end_turn", "max_tokens") and plain.stop_sequence is None


def test_v1_models_says_the_context_the_model_was_loaded_with(small_engine: LlamaCppEngine) -> None:
    with Served(served_model(small_engine)) as s:
        listed = httpx.get(f"{s.url}/models", headers={"authorization": f"Bearer {KEY}"}, timeout=30).json()
    assert listed["data"][0]["context_length"] == 1024 and "chat" in listed["data"][0]["abilities"]
