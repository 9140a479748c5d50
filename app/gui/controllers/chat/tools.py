"""The MCP servers the chat offers its model (issue 50): Tandem's stored ``mcp.json``, read and
written off the GUI thread (reading may move values to the keyring, which blocks), and the
options of each message's tool loop.

The servers of a message are started when it is sent and ended when its loop ends
(``async with ToolHub``), so a stopped message or a closed window leaves no server running and a
server that crashed is started afresh by the next message."""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Signal

from app.core.tools.config import ToolsConfig, load_config, save_config
from app.core.tools.loop import LoopOptions
from app.gui.ops import Ops

log = logging.getLogger(__name__)


class ChatTools(QObject):
    """Signals: ``configChanged()`` (the servers, their switches or their rules changed)."""

    configChanged = Signal()

    def __init__(self, ops: Ops, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        #: the stored servers; None until read (the first second of a start)
        self.config: ToolsConfig | None = None
        #: the loop's options for each message (the turn cap, the first turn's tool choice)
        self.options = LoopOptions()

    @property
    def enabled(self) -> bool:
        """Some server is switched on: a message runs the tool loop."""
        return self.config is not None and bool(self.config.enabled)

    async def reload(self) -> ToolsConfig:
        """Read ``mcp.json`` (on a worker: it may move hand-written values to the keyring)."""
        self.config = await self.ops.run(load_config)
        self.configChanged.emit()
        return self.config

    async def store(self, config: ToolsConfig) -> None:
        """Keep ``config`` in memory and in ``mcp.json`` (written on a worker)."""
        await self.ops.run(save_config, config)
        self.config = config
        self.configChanged.emit()

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
