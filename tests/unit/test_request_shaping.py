"""What agents send, fitted to a local model's template (app.core.requests.shaping) and read by the
three API parsers: system messages anywhere, namespaced and hosted tools, forced tool choices,
structured output fields, and the stop reason of an answer cut by the context."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.core.answer import Answer
from app.core.engines.base import ChatMessage, Sampling, TemplateCaps
from app.core.requests.request import ChatRequest, RequestError
from app.core.requests.shaping import FALLBACK_STYLE, FORCED_STYLE, merge_system, shape, tool_lines
from app.core.serving import messages_api as M
from app.core.serving import protocol as P
from app.core.serving import responses_api as R
from app.core.serving import schemas as S

CLIENTS = Path(__file__).parents[1] / "integration" / "data" / "clients"
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the weather for a city. Long explanation that follows and is not needed.",
        "parameters": {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {"city": {"type": "string"}, "unit": {"enum": ["c", "f"]}},
            "required": ["city"],
        },
    },
}
CLOCK = {"type": "function", "function": {"name": "now", "parameters": {"type": "object"}}}
NATIVE = TemplateCaps(renders_tools=True, system_anywhere=True)
PLAIN = TemplateCaps(renders_tools=False, system_anywhere=False)


def _req(
    messages: list[ChatMessage], tools: list[dict[str, Any]] | None = None, choice: Any = None
) -> ChatRequest:
    return ChatRequest(messages, Sampling(max_tokens=16), tools=tools, tool_choice=choice)


def test_system_messages_anywhere_are_merged_in_order_unless_the_template_keeps_them() -> None:
    convo: list[ChatMessage] = [
        {"role": "system", "content": "A"},
        {"role": "user", "content": "hi"},
        {"role": "system", "content": "B"},
        {"role": "user", "content": "again"},
    ]
    assert merge_system(convo) == [
        {"role": "system", "content": "A\n\nB"},
        {"role": "user", "content": "hi"},
        {"role": "user", "content": "again"},
    ]
    assert merge_system(convo[:2]) == convo[:2]  # one leading system message stays as it is
    kept = _req(list(convo))
    kept = shape(kept, NATIVE, None, True)
    assert kept.messages == convo
    merged = _req(list(convo))
    merged = shape(merged, PLAIN, None, True)
    assert [m["role"] for m in merged.messages] == ["system", "user", "user"]


def test_tools_go_to_a_template_that_renders_them_else_to_tandems_compact_prompt() -> None:
    native = _req([{"role": "user", "content": "weather?"}], [WEATHER], "auto")
    native = shape(native, NATIVE, "gemma4", True)
    assert native.tools == [WEATHER] and native.tool_choice == "auto" and native.call_style == "gemma4"

    history: list[ChatMessage] = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "weather in Oslo?"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
                }
            ],
        },
        {"role": "tool", "content": "-3 C", "tool_call_id": "c1"},
        {"role": "user", "content": "and Rome?"},
    ]
    fallback = _req(history, [WEATHER, CLOCK], "auto")
    fallback = shape(fallback, PLAIN, None, True)
    assert fallback.tools is None and fallback.call_style == FALLBACK_STYLE
    system = fallback.messages[0]["content"]
    assert system.startswith("Be brief.\n\n# Tools")
    assert '- get_weather(city: string, unit?: "c"|"f"): Get the weather for a city.' in system
    assert "- now()" in system and "Long explanation" not in system
    assert fallback.messages[2] == {
        "role": "assistant",
        "content": '<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>',
    }
    # the tool result becomes a user turn, joined with the next one (turns keep alternating)
    assert fallback.messages[3] == {
        "role": "user",
        "content": "<tool_response>\n-3 C\n</tool_response>\n\nand Rome?",
    }


def test_a_forced_tool_choice_is_a_grammar_over_the_tools_or_a_refusal() -> None:
    required = _req([{"role": "user", "content": "weather?"}], [WEATHER, CLOCK], "required")
    required = shape(required, PLAIN, None, True)
    assert required.call_style == FORCED_STYLE and required.tools is None
    schema = required.response_format["json_schema"]["schema"]  # type: ignore[index]
    names = [o["properties"]["name"]["enum"] for o in schema["anyOf"]]
    assert names == [["get_weather"], ["now"]]
    assert "$schema" not in json.dumps(schema)  # the schema document's own keys are dropped

    named = _req(
        [{"role": "user", "content": "x"}],
        [WEATHER, CLOCK],
        {"type": "function", "function": {"name": "now"}},
    )
    named = shape(named, PLAIN, None, True)
    assert named.response_format["json_schema"]["schema"]["properties"]["name"]["enum"] == ["now"]  # type: ignore[index]

    # a template that renders tools gets them with the choice: the engine's own grammar enforces it
    native = _req([{"role": "user", "content": "x"}], [WEATHER], "required")
    native = shape(native, NATIVE, "hermes", True)
    assert native.tools == [WEATHER] and native.tool_choice == "required" and native.response_format is None

    with pytest.raises(RequestError, match="no tool named 'nope'"):
        shape(
            _req(
                [{"role": "user", "content": "x"}],
                [WEATHER],
                {"type": "function", "function": {"name": "nope"}},
            ),
            PLAIN,
            None,
            True,
        )
    with pytest.raises(RequestError, match="cannot force a tool call") as refused:
        shape(_req([{"role": "user", "content": "x"}], [WEATHER], "required"), NATIVE, None, False)
    assert refused.value.param == "tool_choice"


def test_tandems_tool_prompt_is_short_for_an_agents_tool_list() -> None:
    """Claude Code's first request carries 22 tools in 73 kB of JSON; their lines take a few kB."""
    body = json.loads((CLIENTS / "claude-code-2.1.332-messages.json").read_text("utf-8"))["body"]
    tools = M.tools_of(S.MessagesRequest.model_validate(body).tools)
    assert tools is not None and len(tools) >= 10
    lines = tool_lines(tools)
    assert len(lines.splitlines()) == len(tools)
    assert len(lines) < len(json.dumps(body["tools"])) / 8


def test_recorded_agent_requests_parse() -> None:
    """The first request of Claude Code 2.1 and of Codex CLI 0.171, as a logging proxy recorded
    them (prose redacted, shapes kept): both are accepted, nothing answer-changing is dropped
    silently."""
    claude = json.loads((CLIENTS / "claude-code-2.1.332-messages.json").read_text("utf-8"))["body"]
    req = M.parse_request(claude, P.Limits())
    roles = [m["role"] for m in req.messages]
    assert roles.count("system") == 2  # the system prompt and the one inside messages
    assert req.sampling.max_tokens == P.Limits().max_tokens  # 128000 is held to the server's limit
    assert req.stream and req.tools

    codex = json.loads((CLIENTS / "codex-0.171.0-responses.json").read_text("utf-8"))["body"]
    req = R.parse_request(codex, P.Limits())
    names = [t["function"]["name"] for t in req.tools or []]
    namespaced = next(t for t in codex["tools"] if t["type"] == "namespace")
    assert all(t["name"] in names for t in namespaced["tools"])  # flattened
    assert any("'web_search' tool runs on the provider's servers" in w for w in req.warnings)
    assert [m["role"] for m in req.messages[:2]] == ["system", "system"]  # developer messages


def test_hosted_tools_are_left_out_with_a_warning_on_every_api() -> None:
    warnings: list[str] = []
    assert (
        R.tools_of(
            [S.ResponsesTool.model_validate({"type": "file_search", "vector_store_ids": []})], warnings
        )
        is None
    )
    assert M.tools_of([S.AnthropicTool(type="web_search_20250305", name="web_search")], warnings) is None
    chat = P.parse_request(
        {
            "messages": [{"role": "user", "content": "x"}],
            "tools": [{"type": "custom", "name": "apply_patch"}, WEATHER],
        },
        P.Limits(),
    )
    assert chat.tools == [WEATHER]
    assert len(warnings) == 2 and "'custom' tool" in chat.warnings[0]
    deferred = M.tools_of(
        [S.AnthropicTool(name="later", input_schema={"type": "object"}, defer_loading=True)]
    )
    assert deferred is None


def test_messages_structured_output_from_output_config_or_output_format() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
    base = {"max_tokens": 8, "messages": [{"role": "user", "content": "x"}]}
    current = M.parse_request(
        {**base, "output_config": {"effort": "low", "format": {"type": "json_schema", "schema": schema}}},
        P.Limits(),
    )
    beta = M.parse_request({**base, "output_format": {"type": "json_schema", "schema": schema}}, P.Limits())
    assert current.response_format == beta.response_format
    assert current.response_format["json_schema"]["schema"] == schema  # type: ignore[index]
    assert M.parse_request({**base, "output_config": {"effort": "low"}}, P.Limits()).response_format is None
    with pytest.raises(P.ApiError, match=r"output_config\.format"):
        M.parse_request({**base, "output_config": {"format": {"type": "text"}}}, P.Limits())


def test_an_answer_cut_by_the_context_is_not_a_max_tokens_stop() -> None:
    cut = Answer(pieces=["…"], reason="length", completion_tokens=300)
    assert M.stop_reason(cut, False, (), max_tokens=8192) == ("model_context_window_exceeded", None)
    assert M.stop_reason(cut, False, (), max_tokens=300) == ("max_tokens", None)


def test_requests_without_max_tokens_run_to_the_servers_limit_unless_a_default_is_set() -> None:
    body = {"messages": [{"role": "user", "content": "x"}]}
    assert P.parse_request(body, P.Limits(max_tokens=4000)).sampling.max_tokens == 4000
    assert P.parse_request(body, P.Limits(max_tokens=4000, default_max_tokens=64)).sampling.max_tokens == 64
    assert R.parse_request({"input": "x"}, P.Limits(max_tokens=4000)).sampling.max_tokens == 4000


def test_shaping_returns_a_new_request_and_leaves_the_checked_one_as_it_was() -> None:
    """The request is immutable; each step before the engine returns a new one."""
    import dataclasses

    checked = _req([{"role": "user", "content": "weather?"}], [WEATHER], "auto")
    shaped = shape(checked, PLAIN, None, True)
    assert shaped is not checked and shaped.tools is None and shaped.call_style == "hermes"
    assert checked.tools == [WEATHER] and checked.call_style is None and not checked.agentic
    assert checked.messages == [{"role": "user", "content": "weather?"}]
    with pytest.raises(dataclasses.FrozenInstanceError):
        checked.messages = []  # type: ignore[misc]
