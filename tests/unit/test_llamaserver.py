"""The one llama-server client: event streams, chunks -> events, request bodies.

The engines that use it are tested against real servers (tests/integration/test_llamacpp_engine.py
drives a real llama-server child, test_remote_engine.py real and recorded servers); these are the
edge cases of the shared pieces, fed with the shapes llama-server sends.
"""

from __future__ import annotations

import asyncio

import pytest

from app.core.engines.base import GenerationError, Round, Sampling, TextDelta, ToolCall
from app.core.engines.llamaserver import (
    ChunkReader,
    MalformedEvent,
    SSEStream,
    chat_body,
    count_prompt_tokens,
    n_ctx_of,
)


def _chunk(text: str = "", timings: dict[str, int] | None = None, **choice: object) -> dict[str, object]:
    out: dict[str, object] = {"choices": [{"delta": {"content": text}, **choice}]}
    if timings is not None:
        out["timings"] = timings
    return out


def test_event_stream_payloads_until_done() -> None:
    lines = [
        b": a comment",
        b"",
        b'data: {"a": 1}',
        b"event: ignored",
        b'error: {"message": "boom"}',
        b"data: [DONE]",
        b'data: {"after": true}',
    ]
    stream = SSEStream(lines, "llama.cpp")
    assert list(stream) == [{"a": 1}, {"error": {"message": "boom"}}]
    assert stream.done


def test_a_cut_stream_is_not_done_and_a_bad_payload_is_one_error() -> None:
    stream = SSEStream(['data: {"a": 1}'], "the server")
    assert list(stream) == [{"a": 1}] and not stream.done
    with pytest.raises(MalformedEvent, match="the server sent a malformed event"):
        list(SSEStream(["data: {not json"], "the server"))


def test_timings_make_rounds_and_mark_accepted_drafts() -> None:
    reader = ChunkReader("llama.cpp")
    events = []
    # a plain token, then a round of 3 drafted / 2 accepted (3 tokens in one chunk), then the end
    for chunk in (
        _chunk("Hel", {"predicted_n": 1, "draft_n": 0, "draft_n_accepted": 0}),
        _chunk("lo there", {"predicted_n": 4, "draft_n": 3, "draft_n_accepted": 2}),
        _chunk(
            "",
            {"predicted_n": 4, "draft_n": 3, "draft_n_accepted": 2, "prompt_n": 7, "predicted_ms": 40.0},
            finish_reason="stop",
        ),
    ):
        events += reader.feed(chunk)
    events += reader.closing_rounds()
    deltas = [e for e in events if isinstance(e, TextDelta)]
    rounds = [e for e in events if isinstance(e, Round)]
    assert "".join(d.text for d in deltas) == "Hello there"
    assert [d.token_count for d in deltas] == [1, 3]
    assert rounds and rounds[-1].drafted == 3 and rounds[-1].accepted == 2
    assert reader.reason == "stop" and reader.timing.prompt_tokens == 7 and reader.timing.decode_ms == 40.0


def test_without_timings_a_text_chunk_is_one_token_or_what_the_caller_counts() -> None:
    reader = ChunkReader("the server")
    assert reader.feed(_chunk("a")) == [TextDelta("a", 1, False)]
    assert reader.feed(_chunk("bc"), lambda _c, _t: 2) == [TextDelta("bc", 2, False)]
    assert reader.untimed_tokens == 3 and not reader.saw_timings and reader.closing_rounds() == []


def test_error_events_become_the_callers_error_type() -> None:
    class Mine(RuntimeError):
        pass

    with pytest.raises(GenerationError, match=r"llama\.cpp reported an error: context full"):
        ChunkReader("llama.cpp").feed({"error": {"message": "context full"}})
    with pytest.raises(Mine, match="reported an error: slot busy"):
        ChunkReader("the server", error=Mine).feed({"code": 503, "message": "slot busy"})
    with pytest.raises(Mine, match="unexpected event"):
        ChunkReader("the server", error=Mine).feed(["not", "a", "chunk"])


def test_logprobs_give_ids_and_candidates_and_a_gap_loses_the_ids() -> None:
    def entry(i: int) -> dict[str, object]:
        return {"id": i, "top_logprobs": [{"id": i, "token": str(i), "logprob": -0.1}]}

    reader = ChunkReader("llama.cpp", with_logprobs=True)
    reader.feed(_chunk("a", {"predicted_n": 1}, logprobs={"content": [entry(5)]}))
    reader.feed(_chunk("", {"predicted_n": 1}, finish_reason="stop"))  # the end token has none
    assert reader.token_ids == [5] and reader.candidates[0][0].id == 5
    gap = ChunkReader("llama.cpp", with_logprobs=True)
    gap.feed(_chunk("ab", {"predicted_n": 2}, logprobs={"content": [entry(5)]}))  # 2 tokens, 1 entry
    assert gap.token_ids is None


def test_tool_call_fragments_join_into_calls() -> None:
    reader = ChunkReader("llama.cpp")
    parts = [
        {"index": 0, "function": {"name": "get_weather", "arguments": '{"city": '}},
        {"index": 0, "function": {"arguments": '"Paris"}'}},
        {"index": 1, "function": {"name": "broken", "arguments": "{not json"}},
    ]
    for part in parts:
        reader.feed({"choices": [{"delta": {"tool_calls": [part]}}]})
    assert reader.tool_calls() == [ToolCall.new("get_weather", {"city": "Paris"})]


def test_request_bodies_for_llama_server_and_other_servers() -> None:
    s = Sampling(temperature=0.5, top_k=0, max_tokens=9, seed=3, stop=("\n",), repeat_penalty=1.1)
    msgs = [{"role": "user", "content": "hi"}]
    local = chat_body(msgs, s, top_logprobs=2, tools=[{"type": "function"}], tool_choice="auto")  # type: ignore[list-item]
    assert local["timings_per_token"] is True and local["top_k"] == 0 and local["repeat_penalty"] == 1.1
    assert local["logprobs"] is True and local["top_logprobs"] == 2 and local["tool_choice"] == "auto"
    assert "model" not in local and local["seed"] == 3 and local["stop"] == ["\n"]
    other = chat_body(msgs, s, llama_server=False, model="m")  # type: ignore[arg-type]
    assert other["model"] == "m" and other["repetition_penalty"] == 1.1
    assert "top_k" not in other and "timings_per_token" not in other and "tools" not in other
    assert "response_format" not in local and "response_format" not in other
    fmt = {"type": "json_object"}
    assert chat_body(msgs, s, response_format=fmt)["response_format"] == fmt  # type: ignore[arg-type]


def test_props_and_token_counting_through_a_json_call() -> None:
    asked: list[tuple[str, str]] = []

    async def call(method: str, path: str, body: dict[str, object] | None) -> dict[str, object]:
        asked.append((method, path))
        return {"prompt": "<s>hi"} if path == "/apply-template" else {"tokens": [1, 2, 3]}

    assert asyncio.run(count_prompt_tokens(call, [{"role": "user", "content": "hi"}])) == 3
    assert asked == [("POST", "/apply-template"), ("POST", "/tokenize")]
    assert n_ctx_of({"default_generation_settings": {"n_ctx": 4096}}) == 4096
    assert n_ctx_of({"n_ctx": 2048}) == 2048 and n_ctx_of({}) == 0
