"""The configured MCP servers, running together: their tools under one set of names, calls by name.

::

    async with ToolHub(load_config(), on_status=show) as hub:   # starts every enabled server
        hub.tools()                      # [HubTool(name, server, info, approval)] of running servers
        hub.function_tools()             # the same in OpenAI's function-tool shape, for an engine
        await hub.call("add", {"a": 2, "b": 3})                  # ToolResult, or a ToolError
    # every server is closed here (subprocesses ended), even when the block raised

A tool keeps its own name unless two running servers list the same one; then each is called
``<server>__<tool>`` (OpenAI's function names allow letters, digits, ``_`` and ``-``, up to 64).
A tool whose rule is ``off`` is listed by :meth:`ToolHub.all_tools` only: never offered, never
called. Servers start side by side; one that fails does not stop the others (its status says why).

A hub may live as long as the window (:class:`~app.core.tools.host.ToolHost` runs it on a thread
of its own): :meth:`ToolHub.sync` follows a changed configuration (servers switched off or removed
stop, a changed command restarts, failed ones start again when asked).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from types import TracebackType
from typing import Protocol

from app.core.engines.calls import FunctionTool, JsonObject
from app.core.tools.client import (
    DEFAULT_START_TIMEOUT_S,
    McpConnection,
    ServerState,
    ServerStatus,
    StatusListener,
    ToolInfo,
    ToolResult,
)
from app.core.tools.config import Approval, ServerConfig, ToolsConfig, Transport
from app.core.tools.errors import ServerNotRunning, ToolCallFailed

log = logging.getLogger(__name__)

_NAME_LIMIT = 64


@dataclass(frozen=True)
class HubTool:
    """A running server's tool as the model is offered it."""

    #: the name the model calls it by (the tool's own, or ``<server>__<tool>`` when two clash)
    name: str
    server: str
    info: ToolInfo
    #: the server's rule for it: off (never offered), ask before every call, or always allow
    approval: Approval

    def function_tool(self) -> FunctionTool:
        """The tool in OpenAI's function-tool shape (what engines and chat templates take)."""
        spec: JsonObject = self.info.parameters or {"type": "object", "properties": {}}
        fn: FunctionTool = {"type": "function", "function": {"name": self.name, "parameters": spec}}
        if self.info.description:
            fn["function"]["description"] = self.info.description
        return fn


class ToolSource(Protocol):
    """What the tool loop needs of the running servers: a :class:`ToolHub`, or the window's
    :class:`~app.core.tools.host.ToolHost` (a hub on a thread of its own)."""

    def tools(self) -> list[HubTool]: ...

    def tool(self, name: str) -> HubTool | None: ...

    def turned_off(self, name: str) -> HubTool | None: ...

    async def call(self, name: str, arguments: JsonObject, timeout: float | None = None) -> ToolResult: ...


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "_", text)


class ToolHub:
    """Connections to the enabled servers of a :class:`ToolsConfig` (see the module docstring).

    ``on_status`` hears every state change of every server (starting, running, failed, stopped),
    on the event loop.
    """

    def __init__(
        self,
        config: ToolsConfig,
        *,
        start_timeout: float = DEFAULT_START_TIMEOUT_S,
        on_status: StatusListener | None = None,
    ) -> None:
        self._config = config
        self.start_timeout = start_timeout
        self._on_status = on_status
        self._connections: dict[str, McpConnection] = {}
        #: the transport each connection was started with (a changed one restarts on sync)
        self._started: dict[str, Transport] = {}

    @property
    def config(self) -> ToolsConfig:
        return self._config

    def update_config(self, config: ToolsConfig) -> None:
        """Take new rules, time limits and switches without restarting anything: a server switched
        off keeps running until :meth:`stop_server` (or :meth:`sync`) ends it."""
        self._config = config
        for name, conn in list(self._connections.items()):  # a copy: another thread may read
            server = config.get(name)
            if server is not None:
                conn.server = server

    # --- lifetime ------------------------------------------------------------------------------
    async def start(self, names: Iterable[str] | None = None) -> dict[str, ServerStatus]:
        """Start the enabled servers (or those of ``names``) side by side; returns every status.
        A server's failure is in its status, never raised; a cancel stops them all."""
        wanted = [s for s in self._config.enabled if names is None or s.name in set(names)]
        try:
            await asyncio.gather(*(self.start_server(s.name) for s in wanted))
        except BaseException:
            await self.aclose()
            raise
        return self.statuses()

    async def start_server(self, name: str) -> ServerStatus:
        """(Re)start one configured server."""
        server = self._config.get(name)
        if server is None:
            raise ServerNotRunning(f"no server named {name!r} is configured", server=name)
        old = self._connections.pop(name, None)
        if old is not None:
            await old.close()
        conn = McpConnection(server, start_timeout=self.start_timeout, on_status=self._on_status)
        self._connections[name] = conn
        self._started[name] = server.transport
        return await conn.start()

    async def stop_server(self, name: str) -> None:
        conn = self._connections.pop(name, None)
        self._started.pop(name, None)
        if conn is not None:
            await conn.close()

    def _to_start(self, restart_failed: bool) -> list[str]:
        """The enabled servers :meth:`sync` starts (see there)."""
        out = []
        for server in self._config.enabled:
            conn = self._connections.get(server.name)
            changed = conn is None or self._started.get(server.name) != server.transport
            ended = conn is not None and conn.status.state in (ServerState.FAILED, ServerState.STOPPED)
            if changed or (restart_failed and ended):
                out.append(server.name)
        return out

    def needs_sync(self, *, restart_failed: bool = False) -> bool:
        """:meth:`sync` would start or stop something."""
        enabled = {s.name for s in self._config.enabled}
        return any(n not in enabled for n in self._connections) or bool(self._to_start(restart_failed))

    async def sync(self, *, restart_failed: bool = False) -> dict[str, ServerStatus]:
        """Stop servers switched off or removed, restart those whose command or address changed,
        start enabled ones not running (and, with ``restart_failed``, those that failed or
        stopped: a crashed server, a start that timed out)."""
        enabled = {s.name: s for s in self._config.enabled}
        for name in [n for n in self._connections if n not in enabled]:
            await self.stop_server(name)
        todo = self._to_start(restart_failed)
        await asyncio.gather(*(self.start_server(n) for n in todo))
        return self.statuses()

    async def aclose(self) -> None:
        """Close every connection (subprocesses ended), even when this task is cancelled."""
        connections = list(self._connections.values())
        self._connections.clear()
        self._started.clear()
        results = await asyncio.gather(*(c.close() for c in connections), return_exceptions=True)
        for r in results:
            if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError):
                log.warning("closing an MCP server failed: %r", r)
        if any(isinstance(r, asyncio.CancelledError) for r in results):
            raise asyncio.CancelledError

    async def __aenter__(self) -> ToolHub:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    # --- what runs ----------------------------------------------------------------------------
    def statuses(self) -> dict[str, ServerStatus]:
        """Every configured server's status, in the configuration's order."""
        out: dict[str, ServerStatus] = {}
        for server in self._config.servers:
            conn = self._connections.get(server.name)
            out[server.name] = conn.status if conn else ServerStatus(server.name, ServerState.STOPPED)
        return out

    def status(self, name: str) -> ServerStatus:
        conn = self._connections.get(name)
        return conn.status if conn else ServerStatus(name, ServerState.STOPPED)

    def connection(self, name: str) -> McpConnection | None:
        return self._connections.get(name)

    def tools(self) -> list[HubTool]:
        """The running servers' tools the model may be offered (rule not off), in the
        configuration's order, with the names they go by."""
        return [t for t in self.all_tools() if t.approval != "off"]

    def all_tools(self) -> list[HubTool]:
        """Every tool the running servers list, those turned off included (what Settings shows);
        a tool's name does not change when another is turned off or on."""
        listed: list[tuple[ServerConfig, ToolInfo]] = []
        for server in self._config.servers:
            conn = self._connections.get(server.name)
            if conn is not None and conn.status.state is ServerState.RUNNING:
                listed += [(server, info) for info in conn.tools]
        counts: dict[str, int] = {}
        for _, info in listed:
            counts[info.name] = counts.get(info.name, 0) + 1
        out: list[HubTool] = []
        for server, info in listed:
            name = info.name
            if counts[name] > 1 or not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", name):
                name = f"{_safe(server.name)}__{_safe(info.name)}"[:_NAME_LIMIT]
            out.append(HubTool(name, server.name, info, server.approval(info.name)))
        return out

    def tool(self, name: str) -> HubTool | None:
        """The tool the model knows as ``name`` (None when none is offered by that name)."""
        return next((t for t in self.tools() if t.name == name), None)

    def turned_off(self, name: str) -> HubTool | None:
        """The tool of that name when a running server lists it but its rule is off."""
        return next((t for t in self.all_tools() if t.name == name and t.approval == "off"), None)

    def function_tools(self, names: Iterable[str] | None = None) -> list[FunctionTool]:
        """The running servers' tools (or those of ``names``) in OpenAI's function-tool shape."""
        only = None if names is None else set(names)
        return [t.function_tool() for t in self.tools() if only is None or t.name in only]

    async def call(self, name: str, arguments: JsonObject, timeout: float | None = None) -> ToolResult:
        """Call the tool the model knows as ``name``; a :class:`~app.core.tools.errors.ToolError`
        for every way it can fail."""
        tool = self.tool(name)
        if tool is None:
            raise ToolCallFailed(f"no running server offers a tool named {name!r}", tool=name)
        conn = self._connections[tool.server]
        return await conn.call(tool.info.name, arguments, timeout)
