"""The reference MCP servers from npm (``@modelcontextprotocol/server-everything`` and
``server-filesystem``, pinned in .ci/mcp/package.json) through Tandem's MCP client: imported from a
Claude-Desktop-style file, started over stdio, streamable HTTP and SSE, tools listed and run.

Installed with ``npm ci --prefix .ci/mcp``; skipped when they are not there, unless
``TANDEM_REQUIRE_MCP=1`` (CI), which fails instead.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest

from app.core.tools.client import McpConnection, ServerState
from app.core.tools.config import ToolsConfig, import_mcp_servers, make_server
from app.core.tools.hub import ToolHub
from tests.integration.mcp_servers import MemoryKeyring, free_port, memory_keyring, server_children

BIN = Path(__file__).resolve().parents[2] / ".ci" / "mcp" / "node_modules" / ".bin"
EVERYTHING = BIN / "mcp-server-everything"
FILESYSTEM = BIN / "mcp-server-filesystem"


@pytest.fixture(autouse=True)
def installed() -> None:
    missing = [p.name for p in (EVERYTHING, FILESYSTEM) if not p.exists()]
    if missing:
        if os.environ.get("TANDEM_REQUIRE_MCP") == "1":
            pytest.fail(f"{', '.join(missing)} missing: run npm ci --prefix .ci/mcp")
        pytest.skip("the reference MCP servers are not installed (npm ci --prefix .ci/mcp)")


@pytest.fixture(autouse=True)
def ring() -> Iterator[MemoryKeyring]:
    with memory_keyring() as r:
        yield r
    assert not server_children(str(BIN.parent)), "a server process outlived the test"


def test_a_claude_desktop_file_with_the_reference_servers_runs_their_tools(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    desktop = {
        "mcpServers": {
            "everything": {
                "command": str(EVERYTHING),
                "args": ["stdio"],
                "env": {"EVERYTHING_NOTE": "from the keyring"},
            },
            "filesystem": {"command": str(FILESYSTEM), "args": [str(shared)]},
        }
    }
    path = tmp_path / "claude_desktop_config.json"
    path.write_text(json.dumps(desktop), "utf-8")
    config = import_mcp_servers(path, ToolsConfig()).config

    async def main() -> None:
        started = time.monotonic()
        async with ToolHub(config) as hub:
            took = time.monotonic() - started
            statuses = hub.statuses()
            assert {s.state for s in statuses.values()} == {ServerState.RUNNING}, statuses
            names = [t.name for t in hub.tools()]
            assert {"echo", "get-sum", "get-env", "get-tiny-image"} <= set(names)
            assert {"write_file", "read_text_file", "list_allowed_directories"} <= set(names)

            assert (await hub.call("echo", {"message": "hello tandem"})).text == "Echo: hello tandem"
            assert (await hub.call("get-sum", {"a": 2, "b": 3})).text == "The sum of 2 and 3 is 5."
            env = json.loads((await hub.call("get-env", {})).text)
            assert env["EVERYTHING_NOTE"] == "from the keyring"
            image = await hub.call("get-tiny-image", {})
            assert "[image: image/png, " in image.text

            note = shared / "note.txt"
            await hub.call("write_file", {"path": str(note), "content": "two models, one answer"})
            assert note.read_text("utf-8") == "two models, one answer"
            assert (await hub.call("read_text_file", {"path": str(note)})).text == "two models, one answer"
            print(f"two reference servers started in {took:.2f} s")

    asyncio.run(main())


@pytest.mark.parametrize(
    ("mode", "path", "kind"), [("streamableHttp", "/mcp", "http"), ("sse", "/sse", "sse")]
)
def test_the_everything_server_over_http(mode: str, path: str, kind: str) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [str(EVERYTHING), mode],
        env={**os.environ, "PORT": str(port)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)

        async def main() -> None:
            transport: Literal["http", "sse"] = "sse" if kind == "sse" else "http"
            server, _ = make_server("everything", url=f"http://127.0.0.1:{port}{path}", kind=transport)
            conn = McpConnection(server)
            try:
                status = await conn.start()
                assert status.state is ServerState.RUNNING, status.reason
                assert "get-sum" in [t.name for t in status.tools]
                assert (await conn.call("get-sum", {"a": 40, "b": 2})).text == "The sum of 40 and 2 is 42."
            finally:
                await conn.close()

        asyncio.run(main())
    finally:
        proc.terminate()
        proc.wait(timeout=10)
