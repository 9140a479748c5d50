"""Request rules of the local server shared by its three APIs: structured-output formats
and ``tandem.speculation``; Messages and Responses inputs mapped to chat messages."""

from __future__ import annotations

import pytest

from app.core.serving import messages_api as M
from app.core.serving import protocol as P
from app.core.serving import responses_api as R
from app.core.serving import schemas as S
from app.core.speculative.per_request import Speculation

SCHEMA = {"type": "object"}


def test_formats_of_the_three_apis_become_one_chat_response_format() -> None:
    chat = P.response_format_of(
        S.ResponseFormat.model_validate(
            {"type": "json_schema", "json_schema": {"name": "p", "schema": SCHEMA, "strict": True}}
        )
    )
    assert chat == {"type": "json_schema", "json_schema": {"name": "p", "schema": SCHEMA, "strict": True}}
    assert (
        R.text_format_of(
            S.TextOptions.model_validate(
                {"format": {"type": "json_schema", "name": "p", "schema": SCHEMA, "strict": True}}
            )
        )
        == chat
    )
    assert M.output_format_of(S.OutputFormat.model_validate({"type": "json_schema", "schema": SCHEMA})) == {
        "type": "json_schema",
        "json_schema": {"name": "response", "schema": SCHEMA, "strict": True},
    }
    assert P.response_format_of(S.ResponseFormat(type="json_object")) == R.text_format_of(
        S.TextOptions(format=S.TextFormat(type="json_object"))
    )
    assert P.response_format_of(None) is None and P.response_format_of(S.ResponseFormat(type="text")) is None
    assert R.text_format_of(S.TextOptions(format=S.TextFormat(type="text"))) is None
    assert R.text_format_of(None) is None
    for bad in (
        {"type": "xml"},
        {"type": "json_schema"},
        {"type": "json_schema", "json_schema": {"name": "p"}},
        {"type": "json_schema", "json_schema": {"name": "p", "schema": "not an object"}},
    ):
        with pytest.raises(P.ApiError) as err:
            P.parse_request(
                {"messages": [{"role": "user", "content": "x"}], "response_format": bad}, P.Limits()
            )
        assert err.value.status == 400 and err.value.param == "response_format"


def test_speculation_field_is_honoured_only_for_what_runs() -> None:
    def speculation(extra: dict[str, object]) -> str:
        body = {"messages": [{"role": "user", "content": "x"}], **extra}
        return P.parse_request(body, P.Limits()).speculation.name

    assert speculation({}) == "auto" and speculation({"tandem": {}}) == "auto"
    assert speculation({"tandem": {"speculation": " Off "}}) == "off"
    bad_values = ("", "draft 8", "off;")
    for bad in (
        {"tandem": "off"},
        {"tandem": {"speculation": 3}},
        *({"tandem": {"speculation": v}} for v in bad_values),
    ):
        with pytest.raises(P.ApiError) as err:
            speculation(bad)
        assert err.value.status == 400 and (err.value.param or "").startswith("tandem")
    for requested, loaded in (("auto", None), ("off", None), ("auto", "mtp"), ("mtp", "mtp")):
        P.check_speculation(Speculation(requested), loaded)
    P.check_speculation(Speculation("ngram-mod"), None, [Speculation("ngram-mod")])
    with pytest.raises(P.ApiError) as err:
        P.check_speculation(Speculation("off"), "draft+ngram-mod")
    assert err.value.code == "speculation_unavailable" and "'draft+ngram-mod'" in err.value.message
    with pytest.raises(P.ApiError, match="runs no speculation"):
        P.check_speculation(Speculation("mtp"), None)


def test_messages_and_responses_inputs_map_to_chat_messages() -> None:
    msgs = M.parse_request(
        {
            "system": [{"type": "text", "text": "s1"}, {"type": "text", "text": "s2"}],
            "messages": [
                {"role": "user", "content": "q"},
                {
                    "role": "assistant",
                    "content": [{"type": "thinking", "thinking": "..."}, {"type": "text", "text": "a"}],
                },
                {
                    "role": "user",
                    "content": [
                        {"type": "tool_result", "tool_use_id": "t1", "content": "boom", "is_error": True}
                    ],
                },
            ],
        },
        P.Limits(),
    ).messages
    assert msgs == [
        {"role": "system", "content": "s1\n\ns2"},
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": "a"},
        {"role": "tool", "content": "Error: boom", "tool_call_id": "t1"},
    ]
    items = R.parse_request(
        {
            "input": [
                {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
                {"type": "function_call", "call_id": "c2", "name": "g", "arguments": "{}"},
                {"type": "reasoning", "summary": []},
                {"type": "function_call_output", "call_id": "c1", "output": "1"},
                {"role": "developer", "content": "be brief"},
            ]
        },
        P.Limits(),
    ).messages
    assert [m["role"] for m in items] == ["assistant", "tool", "system"]
    assert [c["id"] for c in items[0]["tool_calls"]] == ["c1", "c2"]
    with pytest.raises(P.ApiError, match="'file_search_call' items"):
        R.parse_request({"input": [{"type": "file_search_call"}]}, P.Limits())
    warnings: list[str] = []
    hosted = [S.AnthropicTool(type="web_search_20250305", name="web_search")]
    assert M.tools_of(hosted, warnings) is None
    assert "'web_search_20250305' tool runs on the provider's servers" in warnings[0]
