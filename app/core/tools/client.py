"""One MCP server, connected through the official SDK (``mcp`` 2.x): start, list tools, call, close.

:class:`McpConnection` runs one configured server: a stdio server as a subprocess (its own
process group; its stderr goes to a temporary file whose last line explains a crash), a remote
one over streamable HTTP (or the older SSE transport) with its headers. Its state is one of
:class:`ServerState` (starting, running, failed with a reason, stopped), reported to a listener
on every change, and it never hangs:

* the handshake and the tool listing are bounded by ``start_timeout`` (a server that never
  answers fails with that reason);
* every call is bounded by the server's time limit: a call that gets no answer is
  :class:`~app.core.tools.errors.ToolTimeout` (the SDK sends the server a cancel for it);
* a server whose process ends, or whose connection drops, during a call is
  :class:`~app.core.tools.errors.ServerCrashed`, and the server is failed (and cleaned up);
* an error answer (the tool's ``is_error``, or a refused request) is
  :class:`~app.core.tools.errors.ToolCallFailed`.

The SDK's client is an async context manager whose task group must be left by the task that
entered it, so each connection has an owner task that enters it, lists the tools, then waits to be
told to close; calls are made from any task on the same loop. :meth:`McpConnection.close` ends the
subprocess every time (the SDK closes its stdin, waits 2 s, then ends its process group), and
cancelling a caller stops only that caller's call.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import metadata
from typing import IO, Any

from mcp import Client, MCPError, StdioServerParameters, stdio_client
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import (
    CONNECTION_CLOSED,
    REQUEST_TIMEOUT,
    AudioContent,
    BlobResourceContents,
    CallToolResult,
    EmbeddedResource,
    ImageContent,
    Implementation,
    ResourceLink,
    TextContent,
    TextResourceContents,
)
from pydantic import ValidationError

from app.core.engines.calls import JsonObject
from app.core.tools.config import HttpTransport, ServerConfig, StdioTransport
from app.core.tools.errors import (
    ServerCrashed,
    ServerNotRunning,
    ServerStartError,
    ToolCallFailed,
    ToolError,
    ToolTimeout,
)

log = logging.getLogger(__name__)

#: how long a server may take to start and list its tools
DEFAULT_START_TIMEOUT_S = 30.0
#: added to a limit before the guard around an SDK call fires (the SDK's own timeout comes first)
_GRACE_S = 5.0
#: a listing that goes on longer than this many pages is cut (a server that pages forever)
_MAX_PAGES = 100
#: how much of a stdio server's stderr is read for the reason of a failure
_TAIL_BYTES = 4096


class ServerState(StrEnum):
    STOPPED = "stopped"
    STARTING = "starting"
    RUNNING = "running"
    FAILED = "failed"


@dataclass(frozen=True)
class ToolInfo:
    """A tool as its server lists it."""

    server: str
    name: str
    description: str = ""
    #: the JSON schema of its arguments
    parameters: JsonObject = field(default_factory=dict)
    title: str = ""


@dataclass(frozen=True)
class ServerStatus:
    """Where a server is: its state, why it failed (one line), the tools it lists while running."""

    name: str
    state: ServerState
    reason: str = ""
    tools: tuple[ToolInfo, ...] = ()


@dataclass(frozen=True)
class ToolResult:
    """A call's answer: its content as the text the model reads, and the server's structured
    result when it gave one."""

    text: str
    structured: JsonObject | None = None
    #: how long the call took
    ms: float = 0.0


StatusListener = Callable[[ServerStatus], None]


def _client_info() -> Implementation:
    try:
        version = metadata.version("tandem")
    except metadata.PackageNotFoundError:
        version = "0"
    return Implementation(name="tandem", version=version)


def result_text(result: CallToolResult) -> str:
    """The content of a result as one text: text parts as they are, other parts named in
    brackets (an image, a resource link), the structured result as JSON when there is no content."""
    parts: list[str] = []
    for item in result.content:
        if isinstance(item, TextContent):
            parts.append(item.text)
        elif isinstance(item, ImageContent | AudioContent):
            kind = "image" if isinstance(item, ImageContent) else "audio"
            parts.append(f"[{kind}: {item.mime_type}, {len(item.data) * 3 // 4} bytes]")
        elif isinstance(item, EmbeddedResource):
            res = item.resource
            if isinstance(res, TextResourceContents):
                parts.append(res.text)
            elif isinstance(res, BlobResourceContents):
                parts.append(f"[resource {res.uri}: {res.mime_type or 'binary'}]")
        elif isinstance(item, ResourceLink):
            parts.append(f"[resource link: {item.uri}]")
    if not parts and result.structured_content is not None:
        return json.dumps(result.structured_content, ensure_ascii=False)
    return "\n".join(parts)


def _leaves(exc: BaseException) -> list[BaseException]:
    """The exceptions inside ``exc`` (task groups wrap them in groups), cancellations last."""
    if isinstance(exc, BaseExceptionGroup):
        out = [leaf for e in exc.exceptions for leaf in _leaves(e)]
        return sorted(out, key=lambda e: isinstance(e, asyncio.CancelledError))
    return [exc]


def _one_line(text: object, limit: int = 300) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


class McpConnection:
    """One configured server, connected while it runs (see the module docstring).

    ``on_status`` is called on the event loop at every change of :attr:`status`.
    """

    def __init__(
        self,
        server: ServerConfig,
        *,
        start_timeout: float = DEFAULT_START_TIMEOUT_S,
        on_status: StatusListener | None = None,
    ) -> None:
        self.server = server
        self.start_timeout = start_timeout
        self._on_status = on_status
        self._status = ServerStatus(server.name, ServerState.STOPPED)
        self._client: Client | None = None
        self._owner: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._stderr: IO[str] | None = None

    @property
    def name(self) -> str:
        return self.server.name

    @property
    def status(self) -> ServerStatus:
        return self._status

    @property
    def tools(self) -> tuple[ToolInfo, ...]:
        return self._status.tools

    def _set(self, state: ServerState, reason: str = "", tools: tuple[ToolInfo, ...] = ()) -> None:
        self._status = ServerStatus(self.name, state, reason, tools)
        if self._on_status is not None:
            try:
                self._on_status(self._status)
            except Exception:  # a listener's error must not break the connection
                log.exception("the MCP status listener failed")

    # --- start ---------------------------------------------------------------------------------
    async def start(self) -> ServerStatus:
        """Start the server and list its tools. Never raises for the server's own failure: the
        status says ``failed`` with the reason (and :meth:`start_error` the typed error). A
        cancel of the caller ends the server and propagates."""
        if self._owner is not None:
            await self.close()
        self._stop = asyncio.Event()
        self._set(ServerState.STARTING)
        try:
            target = await self._target()
        except ServerStartError as exc:
            self._set(ServerState.FAILED, str(exc))
            return self._status
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[tuple[ToolInfo, ...]] = loop.create_future()
        self._owner = asyncio.create_task(self._own(target, ready), name=f"tandem-mcp-{self.name}")
        try:
            # the SDK bounds each request, but its discovery probe waits 10 s whatever the
            # client's timeout, and a connect may hang outside any request: the whole start is
            # bounded here (the owner is cancelled; the SDK still ends the process)
            async with asyncio.timeout(self.start_timeout):
                tools = await asyncio.shield(ready)
        except TimeoutError:
            await self._end_owner(cancel=True)
            reason = f"{self.name}: did not answer within {self.start_timeout:g} s of starting"
            self._fail_start(ready, self._with_tail(reason))
            return self._status
        except asyncio.CancelledError:
            await self._end_owner(cancel=True)
            self._fail_start(ready, "")
            raise
        except Exception as exc:
            await self._end_owner(cancel=False)
            self._fail_start(ready, self._start_reason(exc))
            return self._status
        self._set(ServerState.RUNNING, tools=tools)
        return self._status

    def _fail_start(self, ready: asyncio.Future[tuple[ToolInfo, ...]], reason: str) -> None:
        """A start that did not finish: the state says why ("" for a cancel: stopped)."""
        if ready.done() and not ready.cancelled():
            ready.exception()  # read: the reason is in the state, not in a never-read future
        self._drop_stderr()
        if reason:
            self._set(ServerState.FAILED, reason)
        else:
            self._set(ServerState.STOPPED)

    def _drop_stderr(self) -> None:
        f, self._stderr = self._stderr, None
        if f is not None:
            f.close()

    def start_error(self) -> ServerStartError | None:
        """The failed start as a typed error (its hint says what to do), None when not failed."""
        if self._status.state is not ServerState.FAILED:
            return None
        return ServerStartError(self._status.reason, server=self.name)

    async def _target(self) -> Callable[[contextlib.AsyncExitStack], Any]:
        """A function that opens the SDK transport for this server on an exit stack; the secret
        values are read from the keyring here (blocking: on a worker thread)."""
        t = self.server.transport
        refs = t.env if isinstance(t, StdioTransport) else t.headers
        values = await asyncio.to_thread(lambda: {k: ref.value() for k, ref in refs.items()})
        missing = sorted(k for k, v in values.items() if v is None)
        if missing:
            place = "environment variable" if isinstance(t, StdioTransport) else "header"
            raise ServerStartError(
                f"{self.name}: the value of {place} {', '.join(missing)} is not in the keyring; "
                "set it again in Settings → Tools",
                server=self.name,
            )
        filled = {k: v for k, v in values.items() if v is not None}
        if isinstance(t, StdioTransport):
            return self._stdio(t, filled)
        return self._http(t, filled)

    def _stdio(self, t: StdioTransport, env: Mapping[str, str]) -> Callable[[contextlib.AsyncExitStack], Any]:
        params = StdioServerParameters(command=t.command, args=list(t.args), env=dict(env), cwd=t.cwd)

        def open_on(stack: contextlib.AsyncExitStack) -> Any:
            # a real file the child writes to directly; the reason of a failure is its last line,
            # so it outlives the owner task (closed by start's failure path and by close)
            self._drop_stderr()
            self._stderr = tempfile.TemporaryFile(  # noqa: SIM115 (closed by _drop_stderr)
                "w+", encoding="utf-8", errors="replace", prefix="tandem-mcp-"
            )
            return stdio_client(params, errlog=self._stderr)

        return open_on

    def _http(
        self, t: HttpTransport, headers: Mapping[str, str]
    ) -> Callable[[contextlib.AsyncExitStack], Any]:
        def open_on(stack: contextlib.AsyncExitStack) -> Any:
            if t.kind == "sse":
                return sse_client(t.url, headers=dict(headers), timeout=self.start_timeout)
            http = create_mcp_http_client(headers=dict(headers))
            stack.push_async_callback(http.aclose)
            return streamable_http_client(t.url, http_client=http)

        return open_on

    async def _own(
        self, open_on: Callable[[contextlib.AsyncExitStack], Any], ready: asyncio.Future[tuple[ToolInfo, ...]]
    ) -> None:
        """The owner task: enter the client, list the tools, wait for :meth:`close`."""
        try:
            async with contextlib.AsyncExitStack() as stack:
                transport = open_on(stack)
                # each handshake step may take half the start time (the SDK tries the 2026
                # discovery first, then the older handshake)
                client = Client(
                    transport, read_timeout_seconds=self.start_timeout / 2, client_info=_client_info()
                )
                await stack.enter_async_context(client)
                tools = await self._list(client)
                self._client = client
                if not ready.done():
                    ready.set_result(tools)
                await self._stop.wait()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc if isinstance(exc, Exception) else ServerStartError(_one_line(exc)))
            elif not isinstance(exc, asyncio.CancelledError):
                log.info("MCP server %s ended: %s", self.name, _one_line(exc))
            if isinstance(exc, asyncio.CancelledError):
                raise
        finally:
            self._client = None
            if not ready.done():
                ready.set_exception(ServerStartError(f"{self.name}: stopped before it started"))

    async def _list(self, client: Client) -> tuple[ToolInfo, ...]:
        tools: list[ToolInfo] = []
        cursor: str | None = None
        for _ in range(_MAX_PAGES):
            page = await client.list_tools(cursor=cursor)
            for tool in page.tools:
                schema: JsonObject = dict(tool.input_schema) if tool.input_schema else {"type": "object"}
                tools.append(ToolInfo(self.name, tool.name, tool.description or "", schema, tool.title or ""))
            cursor = page.next_cursor
            if cursor is None:
                break
        return tuple(tools)

    def _stderr_tail(self) -> str:
        """The last line the server wrote to its stderr, or "" (read without moving the file's
        offset, which the child shares)."""
        f = self._stderr
        if f is None or not hasattr(os, "pread"):  # Windows has no pread: the reason goes without
            return ""
        try:
            fd = f.fileno()
            size = os.fstat(fd).st_size
            data = os.pread(fd, _TAIL_BYTES, max(0, size - _TAIL_BYTES)).decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""
        lines = [line.strip() for line in data.splitlines() if line.strip()]
        return _one_line(lines[-1], 200) if lines else ""

    def _with_tail(self, text: str) -> str:
        tail = self._stderr_tail()
        return f"{text} (it said: {tail})" if tail else text

    def _start_reason(self, exc: BaseException) -> str:
        leaf = _leaves(exc)[0]
        name = self.name
        t = self.server.transport
        if isinstance(leaf, ServerStartError):
            return str(leaf)
        if isinstance(leaf, FileNotFoundError) and isinstance(t, StdioTransport):
            return f"{name}: the command {t.command!r} was not found"
        if isinstance(leaf, PermissionError) and isinstance(t, StdioTransport):
            return f"{name}: the command {t.command!r} cannot be run (permission denied)"
        if isinstance(leaf, MCPError) and leaf.code == REQUEST_TIMEOUT:
            return self._with_tail(f"{name}: did not answer within {self.start_timeout:g} s of starting")
        if isinstance(leaf, MCPError) and leaf.code == CONNECTION_CLOSED:
            return self._with_tail(f"{name}: the server exited while starting")
        if isinstance(leaf, MCPError):
            return f"{name}: refused the connection: {_one_line(leaf.message)}"
        return self._with_tail(f"{name}: could not start: {_one_line(leaf) or type(leaf).__name__}")

    # --- calls ---------------------------------------------------------------------------------
    async def call(self, tool: str, arguments: JsonObject, timeout: float | None = None) -> ToolResult:
        """Run ``tool`` with ``arguments``; ``timeout`` (seconds) defaults to the server's limit.
        Raises a :class:`~app.core.tools.errors.ToolError` for every way it can fail."""
        client = self._client
        if client is None or self._status.state is not ServerState.RUNNING:
            why = f" ({self._status.reason})" if self._status.reason else ""
            raise ServerNotRunning(
                f"{self.name} is {self._status.state.value}{why}", server=self.name, tool=tool
            )
        limit = timeout if timeout is not None else self.server.timeout
        started = time.perf_counter()
        try:
            async with asyncio.timeout(limit + _GRACE_S):
                result = await client.call_tool(tool, dict(arguments), read_timeout_seconds=limit)
        except TimeoutError:
            raise ToolTimeout(self.name, tool, limit) from None
        except MCPError as exc:
            if exc.code == REQUEST_TIMEOUT:
                raise ToolTimeout(self.name, tool, limit) from None
            if exc.code == CONNECTION_CLOSED:
                raise self._lost(tool) from None
            raise ToolCallFailed(
                f"{self.name}: {tool} was refused: {_one_line(exc.message)}", server=self.name, tool=tool
            ) from None
        except ValidationError:
            raise ToolCallFailed(
                f"{self.name}: {tool} answered with a result that does not follow the protocol",
                server=self.name,
                tool=tool,
            ) from None
        except (OSError, BaseExceptionGroup) as exc:
            log.info("MCP server %s: the call of %s failed: %r", self.name, tool, exc)
            raise self._lost(tool) from None
        text = result_text(result)
        if result.is_error:
            raise ToolCallFailed(
                f"{self.name}: {tool} failed: {_one_line(text) or 'no message'}", server=self.name, tool=tool
            )
        structured = dict(result.structured_content) if result.structured_content is not None else None
        return ToolResult(text, structured, (time.perf_counter() - started) * 1000.0)

    def _lost(self, tool: str) -> ToolError:
        """The server went away during a call: failed now, cleaned up in the background."""
        stdio = isinstance(self.server.transport, StdioTransport)
        what = "the server's process ended" if stdio else "the connection to the server dropped"
        line = self._with_tail(f"{self.name}: {what} during {tool}")
        self._set(ServerState.FAILED, line)
        self._stop.set()  # the owner leaves the client: pipes closed, the process reaped
        return ServerCrashed(line, server=self.name, tool=tool)

    # --- close ---------------------------------------------------------------------------------
    async def close(self) -> None:
        """End the connection; a subprocess is always ended (stdin closed, then its process
        group terminated after 2 s). Safe to call twice, and from a cancelled task (the cleanup
        is shielded: it finishes even when the caller is cancelled again)."""
        try:
            await self._end_owner(cancel=False)
        finally:
            self._drop_stderr()
            if self._status.state is not ServerState.FAILED:
                self._set(ServerState.STOPPED)

    async def _end_owner(self, *, cancel: bool) -> None:
        """Tell the owner task to leave the client and wait until it has (the SDK's cleanup
        is bounded). A cancel of our caller waits for the cleanup too, then propagates."""
        owner, self._owner = self._owner, None
        if owner is None:
            return
        self._stop.set()
        if cancel:  # the owner is stuck before it could wait for the stop (a handshake)
            owner.cancel()
        try:
            await asyncio.shield(owner)
        except asyncio.CancelledError:
            if owner.done():
                return  # the owner's own cancel (ours, above)
            await asyncio.wait({owner})  # our caller's: the subprocess still ends first
            raise
