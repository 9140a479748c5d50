"""The tool loop with the real embedded model (SmolLM2 135M Q4_1 on llama.cpp) and a real stdio MCP
server written with the SDK's server API (tests/integration/mcp_servers/calc.py).

SmolLM2's chat template renders no tools, so the loop fits each request as the local API server
does: a forced tool choice becomes a grammar llama.cpp enforces (the answer is one JSON call of the
named tool). The call is approved, the server runs it, its exact result returns to the model as a
``tool`` message, and the model answers in text. Denying, a server that crashes mid-call, a server
that never answers and a tool the caller did not allow each end the loop with one clear line and
an intact conversation in OpenAI's messages shape; a cancel stops it at the approval.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.engines.base import ChatMessage, LoadRequest, Round, Sampling, TextDelta
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.tools.config import ToolsConfig
from app.core.tools.hub import ToolHub
from app.core.tools.loop import (
    CallEnded,
    CallStarted,
    LoopEvent,
    LoopOptions,
    LoopResult,
    ModelEvent,
    PendingCall,
    TurnEnded,
    TurnStarted,
    run_tool_loop,
)
from tests.integration.mcp_servers import MemoryKeyring, calc_server, memory_keyring, server_children
from tests.integration.mcp_servers.calc import MOTTO

SAMPLING = Sampling(temperature=0.0, max_tokens=64)


@pytest.fixture(scope="module")
def engine(smollm2_q4: Path) -> Iterator[LlamaCppEngine]:
    eng = LlamaCppEngine.load(LoadRequest(str(smollm2_q4), n_ctx=2048))
    yield eng
    eng.close()


@pytest.fixture(autouse=True)
def ring() -> Iterator[MemoryKeyring]:
    with memory_keyring() as r:
        yield r
    assert not server_children(), "a server process outlived the test"


class Run:
    """One loop against the calc server: what it asked, what it heard, what it returned."""

    def __init__(self, tmp_path: Path) -> None:
        self.log = tmp_path / "calls.log"
        self.asked: list[PendingCall] = []
        self.events: list[LoopEvent] = []
        self.conversation: list[ChatMessage] = []

    def ran(self) -> list[str]:
        """The tools the server ran, in order (it logs every call it starts)."""
        return self.log.read_text("utf-8").split() if self.log.exists() else []

    def go(
        self,
        engine: LlamaCppEngine,
        prompt: str,
        options: LoopOptions,
        approve: bool = True,
        timeout: float = 60.0,
    ) -> LoopResult:
        self.conversation = [{"role": "user", "content": prompt}]

        async def decide(pending: PendingCall) -> bool:
            self.asked.append(pending)
            return approve

        async def main() -> LoopResult:
            config = ToolsConfig((calc_server(env={"CALC_LOG": str(self.log)}, timeout=timeout),))
            async with ToolHub(config) as hub:
                return await run_tool_loop(
                    engine, hub, self.conversation, SAMPLING, decide, options, on_event=self.events.append
                )

        return asyncio.run(main())


def _call_turn(result: LoopResult, name: str) -> str:
    """The id of the one call of the first assistant message, checked to be a call of ``name``."""
    assistant = result.messages[1]
    assert assistant["role"] == "assistant"
    (call,) = assistant["tool_calls"]
    assert call["type"] == "function" and call["function"]["name"] == name
    return call["id"]


def test_a_forced_call_approved_runs_and_its_result_comes_back_into_a_text_answer(
    engine: LlamaCppEngine, tmp_path: Path
) -> None:
    run = Run(tmp_path)
    started = time.monotonic()
    result = run.go(engine, "What is Tandem's motto? Use the motto tool.", LoopOptions(tool_choice="motto"))
    took = time.monotonic() - started

    assert result.outcome == "answered" and result.line == ""
    assert "two models, one answer" in result.text.lower()
    assert run.ran() == ["motto"]
    assert [p.call.name for p in run.asked] == ["motto"] and run.asked[0].tool.server == "calc"
    # the conversation in OpenAI's shape: the call, the server's exact result, the answer
    call_id = _call_turn(result, "motto")
    assert result.messages[2] == {"role": "tool", "tool_call_id": call_id, "name": "motto", "content": MOTTO}
    assert result.messages[3] == {"role": "assistant", "content": result.text}
    assert len(result.messages) == 4 and result.messages is run.conversation
    # every step was reported: two model turns with their figures, the call between them
    kinds = [type(e).__name__ for e in run.events if not isinstance(e, ModelEvent)]
    assert kinds == ["TurnStarted", "TurnEnded", "CallStarted", "CallEnded", "TurnStarted", "TurnEnded"]
    starts = [e for e in run.events if isinstance(e, TurnStarted)]
    assert (starts[0].tool_choice, starts[1].tool_choice) == ("motto", "auto")
    assert "motto" in starts[0].tools
    turns = [e.record for e in run.events if isinstance(e, TurnEnded)]
    assert [t.turn for t in turns] == [1, 2] and turns == result.turns
    for t in turns:
        assert t.answer.complete and t.answer.completion_tokens > 0 and t.answer.decode_ms > 0
    texts = "".join(
        e.event.text for e in run.events if isinstance(e, ModelEvent) and isinstance(e.event, TextDelta)
    )
    assert result.text in texts
    assert any(isinstance(e, ModelEvent) and isinstance(e.event, Round) for e in run.events) or all(
        t.answer.rounds == [] for t in turns
    )
    (ended,) = [e.record for e in run.events if isinstance(e, CallEnded)]
    assert ended.status == "ok" and ended.content == MOTTO and ended.ms > 0
    print(
        f"forced call, approved, answered: {took:.1f} s, turns {[t.answer.completion_tokens for t in turns]}"
    )


def test_a_denied_call_ends_with_one_line_and_never_runs(engine: LlamaCppEngine, tmp_path: Path) -> None:
    run = Run(tmp_path)
    result = run.go(engine, "What is Tandem's motto?", LoopOptions(tool_choice="motto"), approve=False)
    assert result.outcome == "denied" and result.line == "motto was denied; it did not run."
    assert run.ran() == [] and len(run.asked) == 1
    call_id = _call_turn(result, "motto")
    assert result.messages[2:] == [
        {
            "role": "tool",
            "tool_call_id": call_id,
            "name": "motto",
            "content": "Not run: the user denied this call.",
        }
    ]
    assert not any(isinstance(e, CallStarted) for e in run.events)


def test_a_server_that_crashes_mid_call_ends_with_one_line(engine: LlamaCppEngine, tmp_path: Path) -> None:
    run = Run(tmp_path)
    result = run.go(engine, "Crash the server with code 3.", LoopOptions(tool_choice="crash"))
    line = "calc: the server's process ended during crash (it said: calc: crashing on purpose)"
    assert result.outcome == "failed" and result.line == line
    assert run.ran() == ["crash"]
    call_id = _call_turn(result, "crash")
    assert result.messages[2:] == [
        {"role": "tool", "tool_call_id": call_id, "name": "crash", "content": f"Error: {line}"}
    ]
    assert result.calls[0].status == "failed" and result.calls[0].error is not None


def test_a_server_that_never_answers_ends_with_one_line(engine: LlamaCppEngine, tmp_path: Path) -> None:
    run = Run(tmp_path)
    started = time.monotonic()
    result = run.go(engine, "Wait for 5 seconds.", LoopOptions(tool_choice="hang"), timeout=2)
    assert result.outcome == "failed" and result.line == "calc: hang did not answer within 2 s"
    assert run.ran() == ["hang"]
    call_id = _call_turn(result, "hang")
    assert result.messages[2:] == [
        {"role": "tool", "tool_call_id": call_id, "name": "hang", "content": f"Error: {result.line}"}
    ]
    print(f"never answers: the loop ended after {time.monotonic() - started:.1f} s")


def test_a_tool_that_is_not_allowed_is_refused_and_never_runs(engine: LlamaCppEngine, tmp_path: Path) -> None:
    run = Run(tmp_path)
    result = run.go(engine, "What is Tandem's motto?", LoopOptions(tool_choice="motto", allowed={"add"}))
    assert result.outcome == "refused" and result.line == "motto is not allowed here; it did not run."
    assert run.ran() == [] and run.asked == []
    call_id = _call_turn(result, "motto")
    assert result.messages[2:] == [
        {
            "role": "tool",
            "tool_call_id": call_id,
            "name": "motto",
            "content": "Not run: this tool is not allowed here.",
        }
    ]


def test_a_cancel_at_the_approval_stops_the_loop_and_answers_the_call(
    engine: LlamaCppEngine, tmp_path: Path
) -> None:
    log = tmp_path / "calls.log"
    conversation: list[ChatMessage] = [{"role": "user", "content": "What is Tandem's motto?"}]
    asked = asyncio.Event()

    async def never_decides(pending: PendingCall) -> bool:
        asked.set()
        await asyncio.Event().wait()
        return True

    async def main() -> None:
        config = ToolsConfig((calc_server(env={"CALC_LOG": str(log)}),))
        async with ToolHub(config) as hub:
            task = asyncio.create_task(
                run_tool_loop(
                    engine, hub, conversation, SAMPLING, never_decides, LoopOptions(tool_choice="motto")
                )
            )
            await asyncio.wait_for(asked.wait(), 120)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

    asyncio.run(main())
    assert not log.exists()
    assert [m["role"] for m in conversation] == ["user", "assistant", "tool"]
    (call,) = conversation[1]["tool_calls"]
    assert conversation[2] == {
        "role": "tool",
        "tool_call_id": call["id"],
        "name": "motto",
        "content": "Not run: the message was stopped.",
    }


def test_a_cancel_during_a_model_turn_keeps_the_partial_answer(
    engine: LlamaCppEngine, tmp_path: Path
) -> None:
    conversation: list[ChatMessage] = [{"role": "user", "content": "Write a long story about a lighthouse."}]
    deltas: list[str] = []

    async def main() -> None:
        config = ToolsConfig((calc_server(),))
        async with ToolHub(config) as hub:
            got = asyncio.Event()

            def on_event(event: LoopEvent) -> None:
                if isinstance(event, ModelEvent) and isinstance(event.event, TextDelta):
                    deltas.append(event.event.text)
                    if len(deltas) == 5:
                        got.set()

            long = Sampling(temperature=0.0, max_tokens=400)
            task = asyncio.create_task(
                run_tool_loop(engine, hub, conversation, long, _never, LoopOptions(), on_event=on_event)
            )
            await asyncio.wait_for(got.wait(), 120)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

    asyncio.run(main())
    assert [m["role"] for m in conversation] == ["user", "assistant"]
    assert conversation[1]["content"].startswith("".join(deltas[:5]))
    assert "tool_calls" not in conversation[1]


async def _never(pending: PendingCall) -> bool:
    raise AssertionError("no call expected")
