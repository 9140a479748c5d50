"""The MCP servers the chat offers its model: Tandem's stored ``mcp.json``, read and written off
the GUI thread (reading may move values to the keyring, which blocks), the servers running, and
the options of each message's tool loop.

The servers run as long as the window, as in LM Studio or Claude Desktop: one
:class:`~app.core.tools.host.ToolHost` (a hub on a thread of its own) serves every message and
Settings → Tools. Its enabled servers start once the configuration is read; a server switched off
or removed in Settings stops, one whose command changed restarts, and a message starts again the
servers that failed or crashed. They all end when the window closes (:meth:`ChatTools.shutdown`)."""

from __future__ import annotations

import asyncio
import logging

import shiboken6
from PySide6.QtCore import QObject, Signal

from app.core.tools.client import ServerState, ServerStatus
from app.core.tools.config import ToolsConfig, load_config, save_config
from app.core.tools.host import ToolHost
from app.core.tools.hub import HubTool
from app.core.tools.loop import LoopOptions
from app.gui.ops import Ops

log = logging.getLogger(__name__)


class ChatTools(QObject):
    """Signals: ``configChanged()`` (the servers, their switches or their rules changed),
    ``statusChanged(object ServerStatus)`` (a server started, failed or stopped; emitted on the
    servers' thread, so connections to widgets are queued to the GUI thread)."""

    configChanged = Signal()
    statusChanged = Signal(object)

    def __init__(self, ops: Ops, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        #: the stored servers; None until read (the first second of a start)
        self.config: ToolsConfig | None = None
        #: the loop's options for each message (the turn cap); a message's tool choice is its own
        self.options = LoopOptions()
        #: the running servers (None until the configuration is read)
        self.host: ToolHost | None = None
        self._syncing: asyncio.Task[dict[str, ServerStatus]] | None = None
        self._closed = False

    @property
    def enabled(self) -> bool:
        """Some server is switched on: a message runs the tool loop."""
        return self.config is not None and bool(self.config.enabled)

    def statuses(self) -> dict[str, ServerStatus]:
        """Every configured server's status, in the configuration's order."""
        if self.host is not None:
            return self.host.statuses()
        servers = self.config.servers if self.config is not None else ()
        return {s.name: ServerStatus(s.name, ServerState.STOPPED) for s in servers}

    def offered(self) -> list[HubTool]:
        """The tools a message offers the model now (running servers, rules not off)."""
        return self.host.tools() if self.host is not None else []

    def _on_status(self, status: ServerStatus) -> None:
        """On the servers' thread."""
        if not self._closed and shiboken6.isValid(self):
            self.statusChanged.emit(status)

    def _take(self, config: ToolsConfig) -> None:
        self.config = config
        if self.host is None:
            self.host = ToolHost(config, on_status=self._on_status)
        else:
            self.host.update_config(config)

    async def reload(self) -> ToolsConfig:
        """Read ``mcp.json`` (on a worker: it may move hand-written values to the keyring) and
        start its enabled servers."""
        config = await self.ops.run(load_config)
        self._take(config)
        self.configChanged.emit()
        if config.enabled:
            self.ops.spawn(
                self.ensure_running(),
                self.tr("The tool servers could not be started"),
            )
        return config

    async def store(self, config: ToolsConfig) -> None:
        """Keep ``config`` in memory and in ``mcp.json`` (written on a worker); new rules apply
        at once, :meth:`ensure_running` starts and stops servers to match."""
        await self.ops.run(save_config, config)
        self._take(config)
        self.configChanged.emit()

    async def ensure_running(self, *, restart_failed: bool = False) -> ToolHost | None:
        """Start the enabled servers not running (``restart_failed``: those that failed or
        crashed too), restart those whose command changed, stop those switched off; one change at
        a time, and a caller's cancel (a stopped message) does not stop a start others wait for.
        None once the window is closing."""
        if self.config is None:
            await self.reload()
        host = self.host
        if host is None or self._closed:
            return None
        if not host.config.enabled and not host.started:
            return host  # nothing to start, nothing running: no thread for it
        while self._syncing is not None and not self._syncing.done():
            await asyncio.shield(self._syncing)
        syncing = self._syncing = self.ops.loop.create_task(host.sync(restart_failed=restart_failed))
        await asyncio.shield(syncing)
        return None if self._closed else host

    async def always_allow(self, server: str, tool: str) -> ToolsConfig | None:
        """Set ``tool``'s rule on ``server`` to always and save it; the new config (None when
        the server is no longer configured)."""
        config = self.config
        entry = config.get(server) if config is not None else None
        if config is None or entry is None:
            return None
        updated = config.with_server(entry.with_rule(tool, "always"))
        await self.store(updated)
        return updated

    def shutdown(self) -> None:
        """End every server (the window closes), waiting for them (bounded)."""
        self._closed = True
        syncing, self._syncing = self._syncing, None
        if syncing is not None and not syncing.done():
            syncing.cancel()
        if self.host is not None:
            self.host.close()
