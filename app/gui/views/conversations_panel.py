"""The conversations panel of the chat page: New chat, a search field, the list (rename in place),
export, delete.

It owns the list's gestures (context menu, rename, export, delete buttons, the search filter) and
says what the user asked for through signals; the window decides what opening or deleting a
conversation means. Search and export go through the list's model to the chat store's core.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QMenu,
    QMessageBox,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core.chat.export import SUFFIXES, ExportFormat
from app.gui import icons
from app.gui.models.conversations_model import ConversationsModel

#: a search runs this long after the last keystroke (one query per pause, not per key)
SEARCH_DELAY_MS = 200


class ConversationsPanel(QFrame):
    """Signals: ``newChatRequested()``, ``conversationSelected(int id)``,
    ``deleteRequested(int row)``."""

    newChatRequested = Signal()
    conversationSelected = Signal(int)
    deleteRequested = Signal(int)

    def __init__(self, model: ConversationsModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.setObjectName("card")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        self.new_chat_btn = QPushButton(icons.icon("plus"), "")
        self.list = QListView()
        self.list.setModel(model)
        self.list.setEditTriggers(
            QAbstractItemView.EditTrigger.EditKeyPressed | QAbstractItemView.EditTrigger.DoubleClicked
        )
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._menu)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setUniformItemSizes(True)
        self.list.setStyleSheet("QListView { border: none; } QListView::item { padding: 6px 4px; }")
        actions = QHBoxLayout()
        self.rename_btn = QToolButton()
        self.rename_btn.setIcon(icons.icon("pencil"))
        self.export_btn = QToolButton()
        self.export_btn.setIcon(icons.icon("download"))
        self.delete_btn = QToolButton()
        self.delete_btn.setIcon(icons.icon("trash"))
        for b in (self.rename_btn, self.export_btn, self.delete_btn):
            b.setIconSize(QSize(18, 18))
        actions.addWidget(self.new_chat_btn, 1)
        actions.addWidget(self.rename_btn)
        actions.addWidget(self.export_btn)
        actions.addWidget(self.delete_btn)
        layout.addLayout(actions)
        self.search = QLineEdit()
        self.search.setObjectName("conversationSearch")
        self.search.setClearButtonEnabled(True)
        self.search.addAction(icons.icon("search"), QLineEdit.ActionPosition.LeadingPosition)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self.apply_search)
        self.search.textChanged.connect(lambda _t: self._search_timer.start())
        layout.addWidget(self.search)
        self.no_match = QLabel()
        self.no_match.setProperty("muted", True)
        self.no_match.setWordWrap(True)
        self.no_match.hide()
        layout.addWidget(self.no_match)
        layout.addWidget(self.list, 1)
        # rows added, moved or reloaded: the filter is applied again to the new rows
        for signal in (model.rowsInserted, model.rowsMoved, model.rowsRemoved, model.modelReset):
            signal.connect(self._on_rows_changed)
        self.new_chat_btn.clicked.connect(self.newChatRequested)
        self.rename_btn.clicked.connect(self._rename_current)
        self.delete_btn.clicked.connect(self._delete_current)
        self.export_btn.clicked.connect(self._export_current)
        self.list.selectionModel().currentChanged.connect(self._on_current_changed)

    def retranslate(self) -> None:
        self.new_chat_btn.setText(self.tr("New chat"))
        self.rename_btn.setToolTip(self.tr("Rename"))
        self.export_btn.setToolTip(self.tr("Export conversation"))
        self.delete_btn.setToolTip(self.tr("Delete conversation"))
        self.search.setPlaceholderText(self.tr("Search conversations"))
        self.search.setToolTip(self.tr("Shows the conversations whose title or messages hold this text"))
        self.no_match.setText(self.tr("No conversation holds this text."))

    # --- search -----------------------------------------------------------------------------------
    def apply_search(self) -> None:
        """Show only the conversations holding the search text (all of them when it is empty)."""
        self._search_timer.stop()
        text = self.search.text()
        hits = self.model.search(text) if text.strip() else None
        for row in range(self.model.rowCount()):
            hidden = hits is not None and self.model.conversation(row).id not in hits
            self.list.setRowHidden(row, hidden)
        self.no_match.setVisible(hits is not None and not hits)

    def shown_ids(self) -> list[int]:
        """The conversations the list shows now, top to bottom."""
        rows = range(self.model.rowCount())
        return [self.model.conversation(r).id for r in rows if not self.list.isRowHidden(r)]

    def _on_rows_changed(self, *_args: Any) -> None:
        if self.search.text().strip():
            self._search_timer.start()

    # --- export -----------------------------------------------------------------------------------
    def _export_current(self) -> None:
        index = self.list.currentIndex()
        if index.isValid():
            self.export_row(index.row())

    def export_row(self, row: int) -> None:
        """Ask where and as what, then write the conversation of ``row``."""
        filters: dict[str, ExportFormat] = {
            self.tr("Markdown with images (*.md)"): "markdown",
            self.tr("Web page (*.html)"): "html",
            self.tr("JSON, OpenAI messages with speculation figures (*.json)"): "json",
        }
        title = self.model.conversation(row).title
        name, chosen = QFileDialog.getSaveFileName(
            self, self.tr("Export conversation"), _file_name(title), ";;".join(filters)
        )
        if not name:
            return
        fmt = filters.get(chosen, "markdown")
        path = Path(name)
        if not path.suffix:
            path = path.with_suffix(SUFFIXES[fmt])
        try:
            self.model.export(row, path, fmt)
        except (OSError, sqlite3.Error) as exc:
            QMessageBox.warning(
                self,
                self.tr("Export conversation"),
                self.tr("The conversation could not be exported: {error}").format(error=exc),
            )

    def clear_selection(self) -> None:
        self.list.clearSelection()
        self.list.setCurrentIndex(QModelIndex())

    def select(self, conversation_id: int) -> None:
        """Show ``conversation_id`` as current without asking to open it again."""
        row = self.model.row_of(conversation_id)
        if row >= 0:
            blocked = self.list.selectionModel().blockSignals(True)
            self.list.setCurrentIndex(self.model.index(row, 0))
            self.list.selectionModel().blockSignals(blocked)

    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.conversationSelected.emit(self.model.conversation(current.row()).id)

    def _menu(self, pos: Any) -> None:
        index = self.list.indexAt(pos)
        if not index.isValid():
            return
        menu = QMenu(self)
        menu.addAction(self.tr("Rename"), lambda: self.list.edit(index))
        menu.addAction(self.tr("Export conversation"), lambda: self.export_row(index.row()))
        menu.addAction(self.tr("Delete conversation"), lambda: self.deleteRequested.emit(index.row()))
        menu.popup(self.list.viewport().mapToGlobal(pos))

    def _rename_current(self) -> None:
        index = self.list.currentIndex()
        if index.isValid():
            self.list.edit(index)

    def _delete_current(self) -> None:
        index = self.list.currentIndex()
        if index.isValid():
            self.deleteRequested.emit(index.row())


def _file_name(title: str) -> str:
    """A file name from a conversation's title (characters file systems refuse are dropped)."""
    kept = "".join(c for c in title if c not in '\\/:*?"<>|' and c.isprintable()).strip(" .")
    return kept[:80] or "conversation"
