"""Tool-call parsers: Gemma 4 (``<|"|>`` strings), Hermes/Qwen, Llama 3 JSON."""

from __future__ import annotations

import logging

import pytest

from app.core.chat.tool_parsers import gemma4_arguments, parse_tool_calls
from app.core.engines.calls import JsonObject, ToolCall

Q = '<|"|>'


def call(name: str, arguments: JsonObject) -> ToolCall:
    """A call to compare with: calls are equal when name and arguments are (the id only names one)."""
    return ToolCall.new(name, arguments)


def g4(body: str) -> str:
    return f"<|tool_call>call:{body}<tool_call|>"


def test_gemma4_simple_call() -> None:
    text = g4(f"get_weather{{location:{Q}Shanghai{Q}}}")
    assert parse_tool_calls(text, "gemma4") == (
        "",
        [call("get_weather", {"location": "Shanghai"})],
    )


def test_gemma4_value_quoting_the_user_the_seed_failure() -> None:
    reason = 'The user said "你好" (Hello), a simple greeting.'
    text = g4(f"route{{intent:{Q}greeting{Q},reason:{Q}{reason}{Q}}}")
    content, calls = parse_tool_calls(text, "gemma4")
    assert content == ""
    assert calls == [call("route", {"intent": "greeting", "reason": reason})]


@pytest.mark.parametrize(
    "value",
    [
        'say "hi"',
        "back\\slash \\n not a newline",
        "line one\nline two\ttabbed",
        "a,b:c",
        "{braces} and [brackets] and }{",
        "日本語のテキスト、한국어, 中文：冒号",
        "call:other{x:1}",
        "<tool_call|> inside a string",
        "",
        "  spaced  ",
    ],
)
def test_gemma4_string_values_are_literal(value: str) -> None:
    content, calls = parse_tool_calls(g4(f"f{{v:{Q}{value}{Q}}}"), "gemma4")
    assert calls == [call("f", {"v": value})]
    assert content == ""


def test_gemma4_nested_objects_lists_numbers_booleans() -> None:
    body = (
        f"search{{query:{Q}tandem bikes{Q},limit:5,ratio:0.25,neg:-3,exact:true,cursor:null,"
        f"filters:{{lang:{Q}en{Q},tags:[{Q}a,b{Q},{Q}c{Q}]}},ids:[1,2,3],mode:fast,modes:[x,y,z]}}"
    )
    _content, calls = parse_tool_calls(g4(body), "gemma4")
    assert calls == [
        call(
            "search",
            {
                "query": "tandem bikes",
                "limit": 5,
                "ratio": 0.25,
                "neg": -3,
                "exact": True,
                "cursor": None,
                "filters": {"lang": "en", "tags": ["a,b", "c"]},
                "ids": [1, 2, 3],
                "mode": "fast",
                "modes": ["x", "y", "z"],
            },
        )
    ]


def test_gemma4_several_calls_and_surrounding_text() -> None:
    text = (
        "Let me check both.\n"
        + g4(f"get_weather{{location:{Q}Paris{Q}}}")
        + "\n"
        + g4(f"get_time{{tz:{Q}Europe/Paris{Q}}}")
        + "\nDone."
    )
    content, calls = parse_tool_calls(text, "gemma4")
    assert [c.name for c in calls] == ["get_weather", "get_time"]
    assert calls[1].arguments == {"tz": "Europe/Paris"}
    assert content.startswith("Let me check both.")
    assert content.endswith("Done.")
    assert "<|tool_call>" not in content


def test_gemma4_empty_arguments() -> None:
    assert parse_tool_calls(g4("list_files{}"), "gemma4")[1] == [call("list_files", {})]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (g4(f"f{{v:{Q}never closed}}"), "unterminated"),
        (g4("f{v:1,,}"), "malformed"),
        (g4("no_braces"), "call:NAME"),
        (g4('f{v:"json quotes"}'), "outside"),
        ("<|tool_call>call:f{v:1}", "no closing"),
    ],
)
def test_gemma4_broken_block_stays_text_and_is_logged(
    text: str, why: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="app.core.chat.tool_parsers"):
        content, calls = parse_tool_calls("before " + text, "gemma4")
    assert calls == []
    assert content == ("before " + text).strip()
    assert why in caplog.text


def test_gemma4_one_good_one_broken() -> None:
    text = g4(f"ok{{a:{Q}x{Q}}}") + " " + g4(f"bad{{a:{Q}y}}")
    content, calls = parse_tool_calls(text, "gemma4")
    assert calls == [call("ok", {"a": "x"})]
    assert "<|tool_call>call:bad" in content


def test_gemma4_arguments_helper_direct() -> None:
    assert gemma4_arguments(f"{{k:{Q}v{Q},n:2}}") == {"k": "v", "n": 2}


def test_hermes_qwen_calls() -> None:
    text = (
        'Sure.\n<tool_call>\n{"name": "get_weather", '
        '"arguments": {"location": "He said \\"hi\\""}}\n</tool_call>'
        '<tool_call>{"name": "t", "arguments": "{\\"x\\": 1}"}</tool_call>'
    )
    for style in ("hermes", "qwen"):
        content, calls = parse_tool_calls(text, style)
        assert content == "Sure."
        assert calls == [
            call("get_weather", {"location": 'He said "hi"'}),
            call("t", {"x": 1}),
        ]


def test_hermes_broken_json_stays_text() -> None:
    text = '<tool_call>{"name": "f", "arguments": {</tool_call>'
    assert parse_tool_calls(text, "hermes") == (text, [])


def test_llama3_json_calls() -> None:
    text = '{"name": "get_weather", "parameters": {"city": "Oslo"}}; {"name": "t", "arguments": {}}'
    assert parse_tool_calls(text, "llama3") == (
        "",
        [call("get_weather", {"city": "Oslo"}), call("t", {})],
    )
    tagged = '<|python_tag|>{"name": "f", "parameters": {"a": [1, 2]}}'
    assert parse_tool_calls(tagged, "llama3") == ("", [call("f", {"a": [1, 2]})])


def test_llama3_plain_answers_are_not_calls() -> None:
    assert parse_tool_calls("The answer is 4.", "llama3") == ("The answer is 4.", [])
    not_a_call = '{"result": 4}'
    assert parse_tool_calls(not_a_call, "llama3") == (not_a_call, [])


def test_unknown_style() -> None:
    with pytest.raises(ValueError, match="unknown tool-call style"):
        parse_tool_calls("x", "nope")
