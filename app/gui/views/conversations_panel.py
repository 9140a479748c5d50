"""The conversations panel of the chat page: New chat, the list (rename in place), delete.

It owns the list's gestures (context menu, rename, delete buttons) and says what the user asked
for through signals; the window decides what opening or deleting a conversation means.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QSize, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QListView,
    QMenu,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.gui import icons
from app.gui.models.conversations_model import ConversationsModel


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
        self.delete_btn = QToolButton()
        self.delete_btn.setIcon(icons.icon("trash"))
        for b in (self.rename_btn, self.delete_btn):
            b.setIconSize(QSize(18, 18))
        actions.addWidget(self.new_chat_btn, 1)
        actions.addWidget(self.rename_btn)
        actions.addWidget(self.delete_btn)
        layout.addLayout(actions)
        layout.addWidget(self.list, 1)
        self.new_chat_btn.clicked.connect(self.newChatRequested)
        self.rename_btn.clicked.connect(self._rename_current)
        self.delete_btn.clicked.connect(self._delete_current)
        self.list.selectionModel().currentChanged.connect(self._on_current_changed)

    def retranslate(self) -> None:
        self.new_chat_btn.setText(self.tr("New chat"))
        self.rename_btn.setToolTip(self.tr("Rename"))
        self.delete_btn.setToolTip(self.tr("Delete conversation"))

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
