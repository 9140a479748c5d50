"""The hub as the window keeps it: the real calc MCP server (a stdio subprocess) running across
several tool loops, a tool turned off never offered nor run, a crashed server started again by the
next sync, a changed command restarting its server; and the :class:`ToolHost` that runs a hub on
a thread of its own for a caller on another loop, its servers ended by a plain ``close()``. The
model is the scripted engine (it writes the same hermes-style call)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from app.core.engines.base import ChatMessage, Sampling
from app.core.tools.client import ServerState
from app.core.tools.config import StdioTransport, ToolsConfig
from app.core.tools.errors import ServerCrashed, ToolLoopError
from app.core.tools.host import ToolHost
from app.core.tools.hub import ToolHub, ToolSource
from app.core.tools.loop import LoopOptions, LoopResult, PendingCall, run_tool_loop
from tests.integration.mcp_servers import MemoryKeyring, calc_server, memory_keyring, server_children
from tests.integration.scripted_engine import Script

MOTTO_CALL = '<tool_call>{"name": "motto", "arguments": {}}</tool_call>'
BROKEN_CALL = '<tool_call>{"name": "broken", "arguments": {"reason": "x"}}</tool_call>'


@pytest.fixture(autouse=True)
def ring() -> Iterator[MemoryKeyring]:
    with memory_keyring() as r:
        yield r
    assert not server_children(), "a server process outlived the test"


def ran(log: Path) -> list[str]:
    return log.read_text("utf-8").split() if log.exists() else []


async def _loop(hub: ToolSource, script: Script, options: LoopOptions) -> LoopResult:
    async def approve(_pending: PendingCall) -> bool:
        return True

    conversation: list[ChatMessage] = [{"role": "user", "content": "go"}]
    return await run_tool_loop(script, hub, conversation, Sampling(max_tokens=32), approve, options)


def test_a_tool_turned_off_is_never_offered_nor_run_and_the_server_serves_every_loop(tmp_path: Path) -> None:
    log = tmp_path / "calls.log"
    config = ToolsConfig(
        (calc_server(env={"CALC_LOG": str(log)}, rules={"broken": "off", "motto": "always"}),)
    )

    async def main() -> None:
        hub = ToolHub(config)
        try:
            await hub.start()
            conn = hub.connection("calc")
            assert conn is not None
            pids = [p.pid for p in server_children()]
            offered = [t.name for t in hub.tools()]
            assert "broken" not in offered and "motto" in offered
            assert "broken" in [t.name for t in hub.all_tools()]

            # every tool the request offers is an offered one: "broken" is nowhere in it
            script = Script(MOTTO_CALL)
            result = await _loop(hub, script, LoopOptions(max_turns=2, tool_style="hermes"))
            assert [c.status for c in result.calls] == ["ok", "skipped"]  # the turn limit
            for _messages, tools, _choice in script.seen:
                names = [t["function"]["name"] for t in tools or []]
                assert "broken" not in names and "motto" in names

            # the model calls it anyway: refused, never run
            result = await _loop(hub, Script(BROKEN_CALL), LoopOptions(tool_style="hermes"))
            assert result.outcome == "refused"
            assert result.line == "The model called broken, which is turned off; nothing ran."
            assert result.messages[2]["content"] == "Not run: broken is turned off."

            # forcing it is refused before anything is sent
            script = Script(BROKEN_CALL)
            with pytest.raises(ToolLoopError, match="broken is turned off"):
                await _loop(hub, script, LoopOptions(tool_choice="broken"))
            assert script.seen == []
            assert ran(log) == ["motto"]

            # the same process served every loop
            assert hub.connection("calc") is conn and [p.pid for p in server_children()] == pids
        finally:
            await hub.aclose()

    asyncio.run(main())


def test_sync_restarts_a_crashed_or_changed_server(tmp_path: Path) -> None:
    config = ToolsConfig((calc_server(), calc_server("other")))

    async def main() -> None:
        async with ToolHub(config) as hub:
            calc, other = hub.connection("calc"), hub.connection("other")
            assert calc is not None and other is not None and not hub.needs_sync()
            pids = {p.pid for p in server_children()}
            assert len(pids) == 2

            # a crash: failed, started again by a sync that restarts failed servers
            with pytest.raises(ServerCrashed):
                await calc.call("crash", {"code": 3})
            assert calc.status.state is ServerState.FAILED
            assert not hub.needs_sync() and hub.needs_sync(restart_failed=True)
            statuses = await hub.sync(restart_failed=True)
            assert statuses["calc"].state is ServerState.RUNNING
            assert hub.connection("calc") is not calc
            assert hub.connection("other") is other  # left running
            after_crash = {p.pid for p in server_children()}
            assert len(after_crash) == 2 and len(after_crash & pids) == 1

            # a changed command restarts its server (and only it)
            server = config.get("other")
            assert server is not None and isinstance(server.transport, StdioTransport)
            changed = replace(server, transport=replace(server.transport, cwd=str(tmp_path)))
            hub.update_config(config.with_server(changed))
            assert hub.needs_sync()
            await hub.sync()
            moved = hub.connection("other")
            assert moved is not None and moved is not other and moved.status.state is ServerState.RUNNING
            cwds = {p.cwd() for p in server_children()}
            assert str(tmp_path) in cwds and len(server_children()) == 2

    asyncio.run(main())


def test_a_host_serves_callers_on_another_loop_and_close_ends_every_server(tmp_path: Path) -> None:
    """The window's case: the host's servers live on its thread; tool loops on the caller's loop
    (here two ``asyncio.run``, one per message) use the same processes; ``close()`` from plain code
    ends them and the thread."""
    log = tmp_path / "calls.log"
    seen: list[tuple[str, ServerState, str]] = []
    host = ToolHost(
        ToolsConfig((calc_server(env={"CALC_LOG": str(log)}, rules={"motto": "always"}),)),
        on_status=lambda s: seen.append((s.name, s.state, threading.current_thread().name)),
        thread_name="tandem-test-mcp",
    )
    try:
        statuses = asyncio.run(host.sync())
        assert statuses["calc"].state is ServerState.RUNNING
        assert {thread for *_, thread in seen} == {"tandem-test-mcp"}
        pids = [p.pid for p in server_children()]
        assert len(pids) == 1
        for _message in range(2):
            result = asyncio.run(
                _loop(host, Script(MOTTO_CALL), LoopOptions(max_turns=2, tool_style="hermes"))
            )
            assert result.calls[0].status == "ok"
            assert [p.pid for p in server_children()] == pids  # the same process served both
        assert ran(log) == ["motto", "motto"]
        assert "motto" in [t.name for t in host.tools()]
    finally:
        host.close()
    assert not server_children()
    assert host.statuses()["calc"].state is ServerState.STOPPED
    assert "tandem-test-mcp" not in [t.name for t in threading.enumerate()]
