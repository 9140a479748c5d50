"""The hub as the window keeps it: the real calc MCP server (a stdio subprocess) running across
several tool loops, a tool turned off never offered nor run, a crashed server started again by the
next sync, a changed command restarting its server, and :meth:`ToolHub.terminate` ending every
server's processes from plain code (a window closing), with the owners' cleanup finishing when the
loop runs again. The model is the scripted engine (it writes the same hermes-style call)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import psutil
import pytest

from app.core.engines.base import ChatMessage, Sampling
from app.core.tools.client import ServerState
from app.core.tools.config import StdioTransport, ToolsConfig
from app.core.tools.errors import ServerCrashed, ToolLoopError
from app.core.tools.hub import ToolHub
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


async def _loop(hub: ToolHub, script: Script, options: LoopOptions) -> LoopResult:
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
            assert conn is not None and conn.pid is not None
            first_pid = conn.pid
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
            assert hub.connection("calc") is conn and conn.pid == first_pid
            assert [p.pid for p in server_children()] == [first_pid]
        finally:
            await hub.aclose()

    asyncio.run(main())


def test_sync_restarts_a_crashed_or_changed_server_and_terminate_ends_them_without_the_loop(
    tmp_path: Path,
) -> None:
    config = ToolsConfig((calc_server(), calc_server("other")))
    loop = asyncio.new_event_loop()
    hub = ToolHub(config)
    try:
        loop.run_until_complete(hub.start())
        calc, other = hub.connection("calc"), hub.connection("other")
        assert calc is not None and other is not None
        pid, other_pid = calc.pid, other.pid
        assert pid is not None and other_pid is not None and not hub.needs_sync()

        # a crash: failed, started again by a sync that restarts failed servers
        with pytest.raises(ServerCrashed):
            loop.run_until_complete(calc.call("crash", {"code": 3}))
        assert calc.status.state is ServerState.FAILED
        assert not hub.needs_sync() and hub.needs_sync(restart_failed=True)
        statuses = loop.run_until_complete(hub.sync(restart_failed=True))
        assert statuses["calc"].state is ServerState.RUNNING
        again = hub.connection("calc")
        assert again is not None and again.pid not in (None, pid)
        assert hub.connection("other") is other and other.pid == other_pid  # left running

        # a changed command restarts its server
        server = config.get("other")
        assert server is not None and isinstance(server.transport, StdioTransport)
        changed = replace(server, transport=replace(server.transport, cwd=str(tmp_path)))
        hub.update_config(config.with_server(changed))
        assert hub.needs_sync()
        loop.run_until_complete(hub.sync())
        moved = hub.connection("other")
        assert moved is not None and moved is not other and moved.pid != other_pid
        assert psutil.Process(moved.pid).cwd() == str(tmp_path)  # type: ignore[arg-type]

        # terminate ends every process at once, from plain code
        pids = [c.pid for c in (hub.connection("calc"), moved) if c is not None]
        hub.terminate()
        assert not server_children()
        assert all(s.state is ServerState.STOPPED for s in hub.statuses().values())
        assert all(
            not psutil.pid_exists(p) or psutil.Process(p).status() == psutil.STATUS_ZOMBIE for p in pids
        )
        # the owners clean up when the loop runs again (the SDK reaps its processes)
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        if pending:
            loop.run_until_complete(asyncio.wait(pending, timeout=10))
        assert not [t for t in asyncio.all_tasks(loop) if not t.done()]
    finally:
        loop.run_until_complete(hub.aclose())
        loop.close()
