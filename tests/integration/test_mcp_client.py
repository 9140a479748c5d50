"""The MCP client against real servers written with the SDK's server API (tests/integration/
mcp_servers/calc.py): a stdio subprocess and streamable HTTP on loopback. Tools are listed and
called; a call that never answers, a server that crashes mid-call, a tool error, a server that
never starts, a missing command and a missing secret each become one typed error or a failed state
with its reason, in bounded time; no server process outlives a test."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from app.core.tools.client import McpConnection, ServerState, ServerStatus
from app.core.tools.config import SecretRef, StdioTransport, ToolsConfig, make_server
from app.core.tools.errors import ServerCrashed, ServerNotRunning, ToolCallFailed, ToolTimeout
from app.core.tools.hub import ToolHub
from tests.integration.mcp_servers import (
    MemoryKeyring,
    calc_http,
    calc_server,
    memory_keyring,
    server_children,
)
from tests.integration.mcp_servers.calc import MOTTO


@pytest.fixture(autouse=True)
def ring() -> Iterator[MemoryKeyring]:
    with memory_keyring() as r:
        yield r
    assert not server_children(), "a server process outlived the test"


def test_a_stdio_server_lists_its_tools_and_runs_them_with_the_keyrings_values() -> None:
    seen: list[ServerStatus] = []

    async def main() -> None:
        conn = McpConnection(calc_server(env={"CALC_SECRET": "s3cret"}), on_status=seen.append)
        try:
            status = await conn.start()
            assert status.state is ServerState.RUNNING, status.reason
            names = [t.name for t in status.tools]
            assert names == ["add", "motto", "env", "header", "broken", "crash", "hang"]
            add = status.tools[0]
            assert add.description == "Add two whole numbers and return their sum."
            assert add.parameters["required"] == ["a", "b"]
            result = await conn.call("add", {"a": 2, "b": 3})
            assert result.text == "5" and result.structured == {"result": 5} and result.ms > 0
            assert (await conn.call("motto", {})).text == MOTTO
            assert (await conn.call("env", {"name": "CALC_SECRET"})).text == "s3cret"
        finally:
            await conn.close()

    asyncio.run(main())
    assert [s.state for s in seen] == [ServerState.STARTING, ServerState.RUNNING, ServerState.STOPPED]


def test_a_call_that_never_answers_times_out_and_the_server_goes_on() -> None:
    async def main() -> None:
        conn = McpConnection(calc_server(timeout=1.5))
        try:
            assert (await conn.start()).state is ServerState.RUNNING
            started = time.monotonic()
            with pytest.raises(ToolTimeout) as caught:
                await conn.call("hang", {"seconds": 1})
            assert time.monotonic() - started < 4
            assert str(caught.value) == "calc: hang did not answer within 1.5 s"
            assert caught.value.server == "calc" and caught.value.tool == "hang" and caught.value.hint
            assert conn.status.state is ServerState.RUNNING
            assert (await conn.call("add", {"a": 1, "b": 1})).text == "2"
        finally:
            await conn.close()

    asyncio.run(main())


def test_a_server_that_crashes_mid_call_fails_with_its_last_words() -> None:
    async def main() -> None:
        conn = McpConnection(calc_server())
        try:
            assert (await conn.start()).state is ServerState.RUNNING
            with pytest.raises(ServerCrashed) as caught:
                await conn.call("crash", {"code": 3})
            line = "calc: the server's process ended during crash (it said: calc: crashing on purpose)"
            assert str(caught.value) == line
            assert conn.status == ServerStatus("calc", ServerState.FAILED, line)
            with pytest.raises(ServerNotRunning, match="calc is failed"):
                await conn.call("add", {"a": 1, "b": 1})
        finally:
            await conn.close()
        assert conn.status.state is ServerState.FAILED  # closing keeps the reason

    asyncio.run(main())


def test_a_tool_error_and_a_refused_request_are_typed_errors() -> None:
    async def main() -> None:
        conn = McpConnection(calc_server())
        try:
            assert (await conn.start()).state is ServerState.RUNNING
            with pytest.raises(ToolCallFailed) as failed:
                await conn.call("broken", {"reason": "test"})
            assert (
                str(failed.value)
                == "calc: broken failed: Error executing tool broken: broken on purpose: test"
            )
            with pytest.raises(ToolCallFailed, match=r"^calc: (nope failed|nope was refused): .*nope"):
                await conn.call("nope", {})
            assert conn.status.state is ServerState.RUNNING
        finally:
            await conn.close()

    asyncio.run(main())


def test_a_server_that_never_answers_the_handshake_fails_in_bounded_time() -> None:
    async def main() -> ServerStatus:
        conn = McpConnection(calc_server("mute", "--mute"), start_timeout=2)
        try:
            return await conn.start()
        finally:
            await conn.close()

    started = time.monotonic()
    status = asyncio.run(main())
    assert time.monotonic() - started < 8  # 2 s of waiting, then the SDK ends the process (2 s)
    assert status.state is ServerState.FAILED
    assert status.reason == "mute: did not answer within 2 s of starting"


def test_a_missing_command_and_a_missing_secret_fail_with_the_reason() -> None:
    async def main() -> list[ServerStatus]:
        missing, _ = make_server("gone", command="/nonexistent/mcp-server")
        secretless = calc_server("locked")
        assert isinstance(secretless.transport, StdioTransport)
        transport = StdioTransport(
            secretless.transport.command,
            secretless.transport.args,
            {"TOKEN": SecretRef("mcp:locked:env:TOKEN")},
        )
        locked = type(secretless)("locked", transport)
        out = []
        for server in (missing, locked):
            conn = McpConnection(server)
            out.append(await conn.start())
            assert conn.start_error() is not None
            await conn.close()
        return out

    gone, locked = asyncio.run(main())
    assert gone.reason == "gone: the command '/nonexistent/mcp-server' was not found"
    assert locked.reason == (
        "locked: the value of environment variable TOKEN is not in the keyring; "
        "set it again in Settings → Tools"
    )


def test_cancelling_a_call_stops_only_that_call() -> None:
    async def main() -> None:
        conn = McpConnection(calc_server())
        try:
            assert (await conn.start()).state is ServerState.RUNNING
            task = asyncio.create_task(conn.call("hang", {"seconds": 5}))
            await asyncio.sleep(0.5)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert (await conn.call("add", {"a": 20, "b": 22})).text == "42"
        finally:
            await conn.close()

    asyncio.run(main())


def test_cancelling_a_start_ends_the_server() -> None:
    async def main() -> None:
        conn = McpConnection(calc_server("mute", "--mute"))
        task = asyncio.create_task(conn.start())
        await asyncio.sleep(1.0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert conn.status.state is ServerState.STOPPED

    asyncio.run(main())


def test_a_streamable_http_server_gets_its_headers_from_the_keyring() -> None:
    with calc_http() as url:

        async def main() -> None:
            server, kept = make_server("web", url=url, headers={"X-Calc-Key": "header-secret"})
            assert kept == []
            conn = McpConnection(server)
            try:
                status = await conn.start()
                assert status.state is ServerState.RUNNING, status.reason
                assert (await conn.call("header", {"name": "X-Calc-Key"})).text == "header-secret"
                assert (await conn.call("add", {"a": 2, "b": 2})).text == "4"
            finally:
                await conn.close()

        asyncio.run(main())


def test_an_http_server_that_is_not_there_fails_with_the_reason() -> None:
    from tests.integration.mcp_servers import free_port

    async def main() -> ServerStatus:
        server, _ = make_server("away", url=f"http://127.0.0.1:{free_port()}/mcp")
        conn = McpConnection(server, start_timeout=5)
        try:
            return await conn.start()
        finally:
            await conn.close()

    status = asyncio.run(main())
    assert status.state is ServerState.FAILED
    assert status.reason.startswith("away: could not start: ")


def test_the_hub_runs_servers_side_by_side_and_names_clashing_tools() -> None:
    async def main() -> None:
        config = ToolsConfig(
            (calc_server("one", rules={"add": "always"}), calc_server("two"), calc_server("mute", "--mute"))
        )
        seen: list[ServerStatus] = []
        async with ToolHub(config, start_timeout=3, on_status=seen.append) as hub:
            states = {n: s.state for n, s in hub.statuses().items()}
            assert states == {
                "one": ServerState.RUNNING,
                "two": ServerState.RUNNING,
                "mute": ServerState.FAILED,
            }
            names = [t.name for t in hub.tools()]
            assert names[:2] == ["one__add", "one__motto"] and "two__hang" in names and len(names) == 14
            one_add, two_add = hub.tool("one__add"), hub.tool("two__add")
            assert one_add is not None and two_add is not None
            assert one_add.approval == "always" and two_add.approval == "ask"
            assert hub.function_tools(["one__add"]) == [
                {
                    "type": "function",
                    "function": {
                        "name": "one__add",
                        "parameters": one_add.info.parameters,
                        "description": "Add two whole numbers and return their sum.",
                    },
                }
            ]
            assert (await hub.call("two__add", {"a": 1, "b": 2})).text == "3"
            await hub.stop_server("two")
            assert [t.name for t in hub.tools()] == [
                "add",
                "motto",
                "env",
                "header",
                "broken",
                "crash",
                "hang",
            ]
        assert {s.state for s in hub.statuses().values()} == {ServerState.STOPPED}

    asyncio.run(main())
