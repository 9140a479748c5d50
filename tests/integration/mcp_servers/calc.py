"""A stdio MCP server written with the SDK's server API, for the tool tests.

``python calc.py [--mute | --http PORT]``: its tools add numbers, return a fixed string, read an
environment variable or a request header (secrets from the keyring reach the server), fail as a
tool (``is_error``), end the whole process in the middle of a call, and never answer. With
``CALC_LOG`` set, every call that runs appends its tool's name to that file (so a test can tell
that a call never ran). ``--mute`` reads its input and never answers anything, not even the
handshake: a server that never starts. ``--http PORT`` serves streamable HTTP on 127.0.0.1.
"""

from __future__ import annotations

import os
import sys

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

#: what ``motto`` returns, exactly
MOTTO = "Tandem says: two models, one answer."

server = MCPServer("calc")


def _ran(tool: str) -> None:
    log = os.environ.get("CALC_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as f:
            f.write(tool + "\n")


@server.tool(description="Add two whole numbers and return their sum.")
def add(a: int, b: int) -> int:
    _ran("add")
    return a + b


@server.tool(description="Return Tandem's motto.")
def motto() -> str:
    _ran("motto")
    return MOTTO


@server.tool(description="Return the value of an environment variable of the server.")
def env(name: str) -> str:
    _ran("env")
    return os.environ.get(name, "<unset>")


@server.tool(description="Return the value of a header of the HTTP request that called it.")
def header(name: str, ctx: Context) -> str:
    _ran("header")
    return (ctx.headers or {}).get(name.lower(), "<unset>")


@server.tool(description="Always fails with a message.")
def broken(reason: str) -> str:
    _ran("broken")
    raise ToolError(f"broken on purpose: {reason}")


@server.tool(description="Ends the server process in the middle of the call.")
def crash(code: int) -> str:
    _ran("crash")
    sys.stderr.write("calc: crashing on purpose\n")
    sys.stderr.flush()
    os._exit(3)


@server.tool(description="Never answers.")
async def hang(seconds: int) -> str:
    _ran("hang")
    await anyio.sleep_forever()
    return "never"


def _mute() -> None:
    """Read requests until the input closes; answer none."""
    for _line in sys.stdin:
        pass


if __name__ == "__main__":
    args = sys.argv[1:]
    if "--mute" in args:
        _mute()
    elif "--http" in args:
        port = int(args[args.index("--http") + 1])
        server.run("streamable-http", host="127.0.0.1", port=port)
    else:
        server.run("stdio")
