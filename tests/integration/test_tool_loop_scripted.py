"""The tool loop's rules where the tiny real model cannot be steered: several calls in one answer,
the "always" rule, the turn limit, a call of a tool no server offers, a denial in the middle of a
turn, a forced tool nobody offers, and a long result. The model is the scripted engine (it writes
the same hermes-style answer every turn); the tools run on the real calc MCP server."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator

import pytest

from app.core.engines.base import ChatMessage, Sampling
from app.core.tools.config import ToolsConfig
from app.core.tools.errors import ToolLoopError
from app.core.tools.hub import ToolHub
from app.core.tools.loop import (
    CallEnded,
    CallStarted,
    LoopEvent,
    LoopOptions,
    LoopResult,
    PendingCall,
    run_tool_loop,
)
from tests.integration.mcp_servers import MemoryKeyring, calc_server, memory_keyring, server_children
from tests.integration.mcp_servers.calc import MOTTO
from tests.integration.scripted_engine import Script

ADD = '<tool_call>{"name": "add", "arguments": {"a": 2, "b": 3}}</tool_call>'
MOTTO_CALL = '<tool_call>{"name": "motto", "arguments": {}}</tool_call>'


@pytest.fixture(autouse=True)
def ring() -> Iterator[MemoryKeyring]:
    with memory_keyring() as r:
        yield r
    assert not server_children(), "a server process outlived the test"


def _loop(
    text: str, options: LoopOptions, decisions: list[bool] | None = None
) -> tuple[LoopResult, list[PendingCall], Script]:
    script = Script(text)
    asked: list[PendingCall] = []

    async def approve(pending: PendingCall) -> bool:
        asked.append(pending)
        return (decisions or [True]).pop(0)

    async def main() -> LoopResult:
        config = ToolsConfig((calc_server(rules={"add": "always"}),))
        async with ToolHub(config) as hub:
            conversation: list[ChatMessage] = [{"role": "user", "content": "go"}]
            return await run_tool_loop(
                script,
                hub,
                conversation,
                Sampling(max_tokens=32),
                approve,
                options,
            )

    return asyncio.run(main()), asked, script


def test_several_calls_in_a_turn_run_in_order_until_the_turn_limit() -> None:
    result, asked, script = _loop(
        f"Let me see. {ADD}{MOTTO_CALL}", LoopOptions(max_turns=2, tool_style="hermes")
    )
    assert result.outcome == "turn_limit"
    assert result.line == "Stopped after 2 model turns without an answer in text."
    assert [p.call.name for p in asked] == ["motto"]  # add is always allowed: never asked
    roles = [m["role"] for m in result.messages]
    assert roles == ["user", "assistant", "tool", "tool", "assistant", "tool", "tool"]
    first = result.messages[1]
    assert first["content"] == "Let me see."
    assert [c["function"]["name"] for c in first["tool_calls"]] == ["add", "motto"]
    assert json.loads(first["tool_calls"][0]["function"]["arguments"]) == {"a": 2, "b": 3}
    assert [m["content"] for m in result.messages[2:4]] == ["5", MOTTO]
    assert [m["tool_call_id"] for m in result.messages[2:4]] == [c["id"] for c in first["tool_calls"]]
    limit = "Not run: the limit of model turns for one message was reached."
    assert [m["content"] for m in result.messages[5:]] == [limit, limit]
    assert [c.status for c in result.calls] == ["ok", "ok", "skipped", "skipped"]
    # the second turn saw the first turn's calls and results; tools were offered each turn
    messages, tools, _choice = script.seen[1]
    assert [m["role"] for m in messages] == ["user", "assistant", "tool", "tool"]
    assert tools is not None and {t["function"]["name"] for t in tools} >= {"add", "motto", "hang"}


def test_a_denial_mid_turn_leaves_the_later_calls_unrun_and_answered() -> None:
    result, _, _ = _loop(f"{MOTTO_CALL}{ADD}", LoopOptions(tool_style="hermes"), decisions=[False])
    assert result.outcome == "denied" and result.line == "motto was denied; it did not run."
    assert [m["content"] for m in result.messages[2:]] == [
        "Not run: the user denied this call.",
        "Not run: an earlier call of this turn did not complete.",
    ]
    assert [c.status for c in result.calls] == ["denied", "skipped"]


def test_a_call_of_a_tool_no_server_offers_is_refused() -> None:
    nope = '<tool_call>{"name": "nope", "arguments": {}}</tool_call>'
    result, asked, _ = _loop(nope, LoopOptions(tool_style="hermes"))
    assert result.outcome == "refused" and asked == []
    assert result.line == "The model called nope, which no running server offers; nothing ran."
    assert result.messages[2]["content"] == "Not run: there is no tool named nope."


def test_a_long_result_is_cut_before_the_model_reads_it() -> None:
    result, _, _ = _loop(MOTTO_CALL, LoopOptions(max_turns=2, tool_style="hermes", max_result_chars=10))
    assert result.messages[2]["content"] == f"{MOTTO[:10]}\n[... {len(MOTTO) - 10} more characters cut]"


def test_a_forced_tool_nobody_offers_is_refused_before_anything_is_sent() -> None:
    with pytest.raises(ToolLoopError, match=r"tool choice: no running server offers a tool named 'search'"):
        _loop(ADD, LoopOptions(tool_choice="search"))


def test_an_answer_without_calls_ends_the_loop_at_once() -> None:
    result, asked, script = _loop("Five.", LoopOptions(tool_style="hermes"))
    assert result.outcome == "answered" and result.text == "Five." and asked == []
    assert result.messages[1:] == [{"role": "assistant", "content": "Five."}]
    assert len(script.seen) == 1 and len(result.turns) == 1
    assert result.turns[0].answer.drafted_total > 0  # the turn's speculation figures are kept


def test_a_cancel_while_a_call_runs_stops_it_and_answers_it() -> None:
    hang = '<tool_call>{"name": "hang", "arguments": {"seconds": 5}}</tool_call>'
    conversation: list[ChatMessage] = [{"role": "user", "content": "wait"}]
    events: list[LoopEvent] = []

    async def approve(pending: PendingCall) -> bool:
        return True

    async def main() -> float:
        async with ToolHub(ToolsConfig((calc_server(),))) as hub:
            running = asyncio.Event()

            def on_event(event: LoopEvent) -> None:
                events.append(event)
                if isinstance(event, CallStarted):
                    running.set()

            options = LoopOptions(tool_style="hermes")
            task = asyncio.create_task(
                run_tool_loop(
                    Script(hang),
                    hub,
                    conversation,
                    Sampling(max_tokens=32),
                    approve,
                    options,
                    on_event=on_event,
                )
            )
            await asyncio.wait_for(running.wait(), 30)
            await asyncio.sleep(0.3)
            started = time.monotonic()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            stopped = time.monotonic() - started
            # the server is still there for the next message
            assert (await hub.call("add", {"a": 1, "b": 2})).text == "3"
            return stopped

    stopped = asyncio.run(main())
    assert stopped < 2
    assert [m["role"] for m in conversation] == ["user", "assistant", "tool"]
    assert (
        conversation[2]["content"] == "Stopped while it ran: the message was stopped; its result is unknown."
    )
    (ended,) = [e.record for e in events if isinstance(e, CallEnded)]
    assert ended.status == "cancelled"
