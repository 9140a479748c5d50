"""Settings → Tools: the MCP servers, each with its switch and its state (starting,
running, failed with its reason, off), its tools each with its description and its rule (off:
never offered to the model, ask every time, or always allow); Import mcpServers JSON…, Export…,
Add server… and Remove.

Changes are saved at once (``mcp.json``, values in the keyring), not on OK. The servers shown are
the ones the chat runs (:class:`ToolsStore`): a server switched on starts, one switched off or
removed stops, and closing the dialog leaves them running for the chat. The page listens to their
states while it is shown and stops listening when the dialog closes (:meth:`ToolsPage.shutdown`).
Everything that reads or writes the file or the keyring runs through ``ops`` on a worker.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QEvent, Qt, Signal, SignalInstance
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.tools.client import ServerState, ServerStatus
from app.core.tools.config import (
    APPROVALS,
    ServerConfig,
    StdioTransport,
    ToolsConfig,
    import_mcp_servers,
    make_server,
    remove_server,
    write_mcp_servers,
)
from app.gui.ops import Ops
from app.gui.widgets import InlineMessage

#: the tree's columns
NAME, STATE, RULE, DESCRIPTION = range(4)


class ToolsStore(Protocol):
    """Where the servers are kept and run (the chat's
    :class:`~app.gui.controllers.chat.tools.ChatTools`): the page reads and saves through it, so
    the chat's next message uses what the page set. ``statusChanged(object ServerStatus)``."""

    @property
    def ops(self) -> Ops: ...

    @property
    def config(self) -> ToolsConfig | None: ...

    @property
    def statusChanged(self) -> SignalInstance: ...

    def statuses(self) -> dict[str, ServerStatus]: ...

    async def reload(self) -> ToolsConfig: ...

    async def store(self, config: ToolsConfig) -> None: ...

    async def ensure_running(self, *, restart_failed: bool = False) -> object: ...


class AddServerDialog(QDialog):
    """A server from a name and a command line (stdio) or a URL (streamable HTTP)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.name = QLineEdit()
        self.target = QLineEdit()
        self.lbl_name, self.lbl_target = QLabel(), QLabel()
        form.addRow(self.lbl_name, self.name)
        form.addRow(self.lbl_target, self.target)
        lay.addLayout(form)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self.setMinimumWidth(460)
        self.retranslate()

    def values(self) -> tuple[str, str | None, list[str], str | None]:
        """(name, command, args, url)."""
        target = self.target.text().strip()
        if target.startswith(("http://", "https://")):
            return self.name.text().strip(), None, [], target
        parts = shlex.split(target) if target else [""]
        return self.name.text().strip(), parts[0], parts[1:], None

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Add an MCP server"))
        self.lbl_name.setText(self.tr("Name"))
        self.lbl_target.setText(self.tr("Command or URL"))
        self.target.setPlaceholderText(self.tr("npx -y @modelcontextprotocol/server-filesystem ~/notes"))


def _add(
    config: ToolsConfig, name: str, command: str | None, args: list[str], url: str | None
) -> ToolsConfig:
    server, _lost = make_server(name, command=command, args=args, url=url)
    return config.with_server(server)


def _export(config: ToolsConfig, path: Path) -> list[str]:
    return write_mcp_servers(config, path, include_secrets=False)


def _import(config: ToolsConfig, path: Path) -> ToolsConfig:
    return import_mcp_servers(path, config).config


class ToolsPage(QWidget):
    """The Tools tab of the settings dialog (see the module docstring). Signals:
    ``statusChanged(object ServerStatus)`` (a server's state), ``actionDone()`` (a change saved
    and applied, an export written, or the line saying why not shown)."""

    statusChanged = Signal(object)
    actionDone = Signal()

    def __init__(self, tools: ToolsStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tools = tools
        self.ops = tools.ops
        # listening first, then reading the states: a change in between is not lost (the
        # servers run on a thread of their own)
        tools.statusChanged.connect(self._on_status)
        self._listening = True
        self._statuses: dict[str, ServerStatus] = dict(tools.statuses())
        lay = QVBoxLayout(self)
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.intro.setProperty("muted", True)
        lay.addWidget(self.intro)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(4)
        self.tree.setRootIsDecorated(True)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        header = self.tree.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(STATE, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(RULE, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(DESCRIPTION, QHeaderView.ResizeMode.Stretch)
        self.tree.setColumnWidth(STATE, 140)
        self.tree.itemChanged.connect(self._on_item_changed)
        lay.addWidget(self.tree, 1)
        row = QHBoxLayout()
        self.import_btn = QPushButton()
        self.export_btn = QPushButton()
        self.add_btn = QPushButton()
        self.remove_btn = QPushButton()
        self.import_btn.clicked.connect(self._on_import)
        self.export_btn.clicked.connect(self._on_export)
        self.add_btn.clicked.connect(self._on_add)
        self.remove_btn.clicked.connect(self._on_remove)
        for b in (self.import_btn, self.export_btn, self.add_btn, self.remove_btn):
            row.addWidget(b)
        row.addStretch(1)
        lay.addLayout(row)
        self.message = InlineMessage()
        lay.addWidget(self.message)
        self.retranslate()
        self._fill()
        self.ops.spawn(self._start(), self.tr("The tool servers could not be started"))

    # --- the list -------------------------------------------------------------------------------
    @property
    def config(self) -> ToolsConfig:
        return self.tools.config or ToolsConfig()

    def server_item(self, name: str) -> QTreeWidgetItem | None:
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            if item is not None and item.data(0, Qt.ItemDataRole.UserRole) == name:
                return item
        return None

    def _fill(self) -> None:
        self.tree.blockSignals(True)
        self.tree.clear()
        for server in self.config.servers:
            item = QTreeWidgetItem([server.name, "", "", ""])
            item.setData(0, Qt.ItemDataRole.UserRole, server.name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(0, Qt.CheckState.Checked if server.enabled else Qt.CheckState.Unchecked)
            self.tree.addTopLevelItem(item)
            self._show_server(item, server)
        self.tree.blockSignals(False)
        self.remove_btn.setEnabled(bool(self.config.servers))
        self.export_btn.setEnabled(bool(self.config.servers))

    def _show_server(self, item: QTreeWidgetItem, server: ServerConfig) -> None:
        status = self._statuses.get(server.name)
        state = status.state if status is not None and server.enabled else None
        text = (
            {
                ServerState.STARTING: self.tr("starting"),
                ServerState.RUNNING: self.tr("running"),
                ServerState.STOPPED: self.tr("stopped"),
            }.get(state, "")
            if state is not None
            else self.tr("off")
        )
        if state is ServerState.FAILED and status is not None:
            text = self.tr("failed: {reason}").format(reason=status.reason)
        item.setText(STATE, text)
        item.setToolTip(STATE, text)
        t = server.transport
        where = shlex.join([t.command, *t.args]) if isinstance(t, StdioTransport) else t.url
        item.setText(DESCRIPTION, where)
        item.setToolTip(DESCRIPTION, where)
        tools = status.tools if status is not None and state is ServerState.RUNNING else ()
        for child in [item.child(i) for i in range(item.childCount())]:
            if child is not None:
                item.removeChild(child)
        for info in tools:
            description = info.description or info.title
            child = QTreeWidgetItem([info.name, "", "", " ".join(description.split())])
            child.setToolTip(NAME, info.name)
            child.setToolTip(DESCRIPTION, description)
            item.addChild(child)
            rule = QComboBox()
            rule.addItem(self.tr("Off"), "off")
            rule.addItem(self.tr("Ask every time"), "ask")
            rule.addItem(self.tr("Always allow"), "always")
            rule.setItemData(0, self.tr("Never offered to the model"), Qt.ItemDataRole.ToolTipRole)
            rule.setItemData(1, self.tr("Each call waits for your approval"), Qt.ItemDataRole.ToolTipRole)
            rule.setItemData(2, self.tr("Calls run without asking"), Qt.ItemDataRole.ToolTipRole)
            rule.setCurrentIndex(APPROVALS.index(server.approval(info.name)))
            rule.currentIndexChanged.connect(
                lambda _i, s=server.name, t=info.name, box=rule: self._on_rule(s, t, str(box.currentData()))
            )
            self.tree.setItemWidget(child, RULE, rule)
        item.setExpanded(bool(tools))

    def rule_box(self, server: str, tool: str) -> QComboBox | None:
        item = self.server_item(server)
        for i in range(item.childCount() if item is not None else 0):
            child = item.child(i) if item is not None else None
            if child is not None and child.text(0) == tool:
                box = self.tree.itemWidget(child, RULE)
                return box if isinstance(box, QComboBox) else None
        return None

    def _on_status(self, status: ServerStatus) -> None:
        self._statuses[status.name] = status
        item, server = self.server_item(status.name), self.config.get(status.name)
        if item is not None and server is not None:
            self.tree.blockSignals(True)
            self._show_server(item, server)
            self.tree.blockSignals(False)
        self.statusChanged.emit(status)

    # --- the chat's servers ------------------------------------------------------------------------
    async def _start(self) -> None:
        """Start the servers not started yet (the first look at them before any message)."""
        if self.tools.config is None:
            await self.tools.reload()
            self._fill()
        await self.tools.ensure_running()
        self._statuses.update(self.tools.statuses())
        self._fill()

    async def _apply(self, config: ToolsConfig) -> None:
        """Save ``config`` (the servers start and stop to match it) and show it."""
        for name in list(self._statuses):
            if config.get(name) is None:
                del self._statuses[name]
        await self.tools.store(config)
        self._fill()
        await self.tools.ensure_running()
        self.actionDone.emit()

    def shutdown(self) -> None:
        """Stop listening to the servers' states (the dialog closed; the servers go on)."""
        if self._listening:
            self._listening = False
            self.tools.statusChanged.disconnect(self._on_status)

    # --- actions ---------------------------------------------------------------------------------
    def _on_item_changed(self, item: QTreeWidgetItem, column: int) -> None:
        name = item.data(0, Qt.ItemDataRole.UserRole)
        server = self.config.get(str(name)) if name else None
        if column != 0 or server is None:
            return
        on = item.checkState(0) == Qt.CheckState.Checked
        if on != server.enabled:
            self.ops.spawn(self._apply(self.config.with_server(server.with_enabled(on))))

    def _on_rule(self, server: str, tool: str, rule: str) -> None:
        entry = self.config.get(server)
        chosen = next((r for r in APPROVALS if r == rule), None)
        if entry is not None and chosen is not None:
            self.ops.spawn(self._apply(self.config.with_server(entry.with_rule(tool, chosen))))

    def _failed(self, exc: BaseException) -> None:
        self.message.show_message(str(exc), "error")
        self.actionDone.emit()

    def _on_import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Import mcpServers JSON"), "", self.tr("JSON files (*.json);;All files (*)")
        )
        if path:
            self.import_file(Path(path))

    def import_file(self, path: Path) -> None:
        """Import the servers of an ``mcpServers`` file (refused whole, with the field named)."""

        async def run() -> None:
            try:
                config = await self.ops.run(_import, self.config, path)
            except Exception as exc:
                self._failed(exc)
                return
            self.message.clear_message()
            await self._apply(config)

        self.ops.spawn(run())

    def _on_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Export mcpServers JSON"), "mcp.json", self.tr("JSON files (*.json)")
        )
        if path:
            self.export_file(Path(path))

    def export_file(self, path: Path) -> None:
        """Write the servers as an ``mcpServers`` file, secret values left empty (and named)."""

        async def run() -> None:
            try:
                empty = await self.ops.run(_export, self.config, path)
            except Exception as exc:
                self._failed(exc)
                return
            note = self.tr("Exported to {path}.").format(path=path)
            if empty:
                note += " " + self.tr("Left empty: {names}.").format(names=", ".join(empty))
            self.message.show_message(note)
            self.actionDone.emit()

        self.ops.spawn(run())

    def _on_add(self) -> None:
        dlg = AddServerDialog(self)
        if dlg.exec() == QDialog.DialogCode.Accepted:
            self.add_server(*dlg.values())

    def add_server(self, name: str, command: str | None, args: list[str], url: str | None) -> None:
        async def run() -> None:
            try:
                config = await self.ops.run(_add, self.config, name, command, args, url)
            except Exception as exc:
                self._failed(exc)
                return
            self.message.clear_message()
            await self._apply(config)

        self.ops.spawn(run())

    def _on_remove(self) -> None:
        item = self.tree.currentItem()
        while item is not None and item.parent() is not None:
            item = item.parent()
        if item is not None:
            self.remove(str(item.data(0, Qt.ItemDataRole.UserRole)))

    def remove(self, name: str) -> None:
        """Remove a server (its keyring values go with it)."""

        async def run() -> None:
            config = await self.ops.run(remove_server, self.config, name)
            await self._apply(config)

        self.ops.spawn(run())

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.intro.setText(
            self.tr(
                "MCP servers whose tools the model may call in the chat, each call with your approval "
                "unless its rule is Always allow; a tool that is Off is never offered to the model. "
                "Changes are saved at once; secrets go to the keyring."
            )
        )
        self.tree.setHeaderLabels(
            [self.tr("Server / tool"), self.tr("State"), self.tr("Use"), self.tr("Description")]
        )
        self.import_btn.setText(self.tr("Import mcpServers JSON…"))
        self.export_btn.setText(self.tr("Export…"))
        self.add_btn.setText(self.tr("Add server…"))
        self.remove_btn.setText(self.tr("Remove"))
        for server in self.config.servers:
            item = self.server_item(server.name)
            if item is not None:
                self.tree.blockSignals(True)
                self._show_server(item, server)
                self.tree.blockSignals(False)
