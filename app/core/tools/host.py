"""The MCP servers kept running for a long-lived caller (the window): a :class:`ToolHub` on an event
loop of its own (the ``tandem-mcp`` thread), reached from the caller's loop.

The window's servers run across messages, as in LM Studio or Claude Desktop, so their SDK
connections outlive any one message's task. They live on this thread's loop, never on the
window's (qasync) loop: the SDK (anyio) always finds its loop running there, and closing the
window ends every server in bounded time without the window's loop running again
(:meth:`ToolHost.close` waits for the SDK's own cleanup: stdin closed, then the process group
ended)::

    host = ToolHost(load_config(), on_status=show)   # show() is called on the host's thread
    await host.sync()                                 # from the window's loop: start what is on
    run_tool_loop(engine, host, ...)                  # offered tools and calls, as with a hub
    host.update_config(changed); await host.sync()    # Settings changed: stop, restart, start
    host.close()                                      # plain code: every server ended

Reads (:meth:`tools`, :meth:`statuses`) are answered from any thread off the hub's current state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any, TypeVar

from app.core.engines.calls import JsonObject
from app.core.engines.loop import EngineLoop
from app.core.tools.client import DEFAULT_START_TIMEOUT_S, ServerStatus, StatusListener, ToolResult
from app.core.tools.config import ToolsConfig
from app.core.tools.hub import HubTool, ToolHub

log = logging.getLogger(__name__)

T = TypeVar("T")

#: how long :meth:`ToolHost.close` waits for the servers to end (the SDK bounds each end itself)
CLOSE_TIMEOUT_S = 15.0


class ToolHost:
    """A :class:`ToolHub` on its own loop thread (see the module docstring). ``on_status`` hears
    every state change of every server, on the host's thread."""

    def __init__(
        self,
        config: ToolsConfig,
        *,
        start_timeout: float = DEFAULT_START_TIMEOUT_S,
        on_status: StatusListener | None = None,
        thread_name: str = "tandem-mcp",
    ) -> None:
        self.hub = ToolHub(config, start_timeout=start_timeout, on_status=on_status)
        self._thread = EngineLoop(thread_name)
        self._closed = False

    @property
    def config(self) -> ToolsConfig:
        return self.hub.config

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def started(self) -> bool:
        """The host's thread runs (something was started on it)."""
        return self._thread.running

    async def _on_host(self, coro: Coroutine[Any, Any, T]) -> T:
        """Await ``coro`` run on the host's loop; a cancel of the caller cancels it there."""
        if self._closed:
            coro.close()
            raise asyncio.CancelledError
        return await asyncio.wrap_future(self._thread.submit(coro))

    # --- what runs ---------------------------------------------------------------------------------
    def statuses(self) -> dict[str, ServerStatus]:
        return self.hub.statuses()

    def tools(self) -> list[HubTool]:
        return self.hub.tools()

    def all_tools(self) -> list[HubTool]:
        return self.hub.all_tools()

    def tool(self, name: str) -> HubTool | None:
        return self.hub.tool(name)

    def turned_off(self, name: str) -> HubTool | None:
        return self.hub.turned_off(name)

    # --- changes -----------------------------------------------------------------------------------
    def update_config(self, config: ToolsConfig) -> None:
        """Take new rules and switches at once (:meth:`sync` starts and stops servers to match)."""
        self.hub.update_config(config)

    async def sync(self, *, restart_failed: bool = False) -> dict[str, ServerStatus]:
        """:meth:`ToolHub.sync` on the host's loop (see there)."""
        return await self._on_host(self.hub.sync(restart_failed=restart_failed))

    async def call(self, name: str, arguments: JsonObject, timeout: float | None = None) -> ToolResult:
        """:meth:`ToolHub.call` on the host's loop; the caller's cancel stops the call."""
        return await self._on_host(self.hub.call(name, arguments, timeout))

    def close(self, timeout: float = CLOSE_TIMEOUT_S) -> None:
        """End every server and the host's thread, waiting at most about ``timeout`` seconds
        (blocking: a window closing). Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        if not self._thread.running:
            return  # nothing was ever started
        with contextlib.suppress(Exception):
            self._thread.run(self.hub.aclose(), timeout)
        self._thread.stop()
