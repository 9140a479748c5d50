"""Tool calls split out of a streamed answer, whatever the chunking; style names of the registry."""

from __future__ import annotations

import pytest

from app.core.chat.tool_parsers import parse_tool_calls, resolve_style
from app.core.engines.calls import JsonObject, ToolCall
from app.core.registry import Registry
from app.core.serving.tool_stream import ToolCallStream

Q = '<|"|>'
SEED = 'The user said "你好" (Hello), a simple greeting.'
GEMMA = f"Let me check.<|tool_call>call:route{{intent:{Q}greeting{Q},reason:{Q}{SEED}{Q}}}<tool_call|>"
HERMES = 'Sure.<tool_call>{"name": "get_weather", "arguments": {"city": "Paris \\"FR\\""}}</tool_call>'


def call(name: str, arguments: JsonObject) -> ToolCall:
    return ToolCall.new(name, arguments)


def _run(text: str, style: str | None, step: int) -> tuple[str, list[ToolCall]]:
    stream = ToolCallStream(style)
    pieces = []
    for i in range(0, len(text), step):
        pieces += stream.feed(text[i : i + step])
    pieces += stream.finish()
    content = "".join(p for p in pieces if isinstance(p, str))
    calls = [p for p in pieces if not isinstance(p, str)]
    return content, calls


@pytest.mark.parametrize("step", [1, 2, 3, 7, 1000])
@pytest.mark.parametrize(("text", "style"), [(GEMMA, "gemma4"), (HERMES, "hermes"), (GEMMA, "gemma")])
def test_streamed_split_matches_the_whole_text_parse(text: str, style: str, step: int) -> None:
    content, calls = _run(text, style, step)
    whole_content, whole_calls = parse_tool_calls(text, style)
    assert calls == whole_calls and len(calls) == 1
    assert content.strip() == whole_content
    assert "<" not in content  # no markup reaches the client as text


def test_the_seed_string_arrives_whole_in_a_streamed_call() -> None:
    _content, calls = _run(GEMMA, "gemma4", 1)
    assert calls == [call("route", {"intent": "greeting", "reason": SEED})]


def test_text_before_a_call_is_sent_before_the_block_closes() -> None:
    stream = ToolCallStream("gemma4")
    assert stream.feed("Let me check.<|tool") == ["Let me check."]  # the tag's start is held back
    assert stream.feed("_call>call:f{x:1") == []
    assert stream.feed("}<tool_call|> done") == [call("f", {"x": 1}), " done"]


def test_a_held_partial_tag_that_is_not_a_tag_is_sent() -> None:
    stream = ToolCallStream("hermes")
    assert stream.feed("a <tool") == ["a "]
    assert stream.feed("box> b") == ["<toolbox> b"]


def test_a_broken_or_unclosed_block_stays_text() -> None:
    broken = f"<|tool_call>call:f{{x:{Q}unterminated}}<tool_call|>"
    assert _run(broken, "gemma4", 2) == (broken, [])
    unclosed = '<tool_call>{"name": "f"'
    assert _run(unclosed, "hermes", 3) == (unclosed, [])


def test_llama3_json_answer_is_held_and_parsed_and_prose_streams() -> None:
    answer = '{"name": "get_time", "parameters": {"tz": "UTC"}}'
    assert _run(answer, "llama3", 4) == ("", [call("get_time", {"tz": "UTC"})])
    stream = ToolCallStream("llama3")
    assert stream.feed("Hello") == ["Hello"]  # prose is not held
    assert stream.feed(" there") == [" there"]


def test_no_style_passes_everything_through() -> None:
    assert _run(GEMMA, None, 5) == (GEMMA, [])


def test_every_builtin_family_tool_parser_names_a_known_style() -> None:
    """The builtin Gemma 4 family says "gemma": unknown to the parser before the alias table."""
    named = [f for f in Registry.load().families.values() if f.tool_parser]
    assert named, "the builtin registry declares tool parsers"
    for family in named:
        assert resolve_style(family.tool_parser or "") in ("gemma4", "hermes", "qwen", "llama3")
