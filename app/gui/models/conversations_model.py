"""List model over the chat store's conversations; renaming edits the title in place."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from app.core.chat import ChatStore, Conversation
from app.core.chat.export import ExportFormat, export_conversation
from app.gui.icons import ACCENT, icon

AnyIndex = QModelIndex | QPersistentModelIndex
ConversationRole = Qt.ItemDataRole.UserRole + 1


class ConversationsModel(QAbstractListModel):
    """Signals: ``conversationRemoved(int id)`` after a conversation and its messages are deleted
    (an answer still streaming into it must stop writing)."""

    conversationRemoved = Signal(int)

    def __init__(self, store: ChatStore, parent: Any = None) -> None:
        super().__init__(parent)
        self._store = store
        self._rows: list[Conversation] = store.conversations()
        #: the last search's hits: conversation id -> the text around its first hit
        self._snippets: dict[int, str] = {}
        #: the conversations whose answer is being written (a pencil, and a line in the tooltip)
        self._answering: frozenset[int] = frozenset()

    def set_answering(self, conversation_ids: frozenset[int]) -> None:
        """Mark the conversations whose answer is being written (the others lose the mark)."""
        if conversation_ids == self._answering:
            return
        changed = conversation_ids ^ self._answering
        self._answering = conversation_ids
        for row, conv in enumerate(self._rows):
            if conv.id in changed:
                index = self.index(row, 0)
                roles = [Qt.ItemDataRole.DecorationRole, Qt.ItemDataRole.ToolTipRole]
                self.dataChanged.emit(index, index, roles)

    def reload(self) -> None:
        self.beginResetModel()
        self._rows = self._store.conversations()
        self.endResetModel()

    def conversation(self, row: int) -> Conversation:
        return self._rows[row]

    def row_of(self, conversation_id: int) -> int:
        for i, c in enumerate(self._rows):
            if c.id == conversation_id:
                return i
        return -1

    def create(self, title: str, system_prompt: str = "") -> QModelIndex:
        conv = self._store.create_conversation(title, system_prompt)
        self.beginInsertRows(QModelIndex(), 0, 0)
        self._rows.insert(0, conv)
        self.endInsertRows()
        return self.index(0, 0)

    def remove(self, row: int) -> None:
        conv = self._rows[row]
        self._store.delete_conversation(conv.id)
        self.beginRemoveRows(QModelIndex(), row, row)
        del self._rows[row]
        self.endRemoveRows()
        self.conversationRemoved.emit(conv.id)

    def touch(self, conversation_id: int) -> None:
        """Refresh one conversation (e.g. after a message) and move it to the top."""
        row = self.row_of(conversation_id)
        if row < 0:
            return
        fresh = self._store.conversation(conversation_id)
        if row > 0:
            self.beginMoveRows(QModelIndex(), row, row, QModelIndex(), 0)
            del self._rows[row]
            self._rows.insert(0, fresh)
            self.endMoveRows()
        else:
            self._rows[0] = fresh
            self.dataChanged.emit(self.index(0, 0), self.index(0, 0))

    def search(self, text: str) -> dict[int, str]:
        """The conversations holding ``text`` (title or any message), each with the text around
        its first hit, which becomes its tooltip; an empty text ends the search."""
        hits = self._store.search(text) if text.strip() else []
        self._snippets = {h.conversation_id: h.snippet for h in hits}
        if self._rows:
            self.dataChanged.emit(
                self.index(0, 0), self.index(len(self._rows) - 1, 0), [Qt.ItemDataRole.ToolTipRole]
            )
        return dict(self._snippets)

    def export(self, row: int, path: Path, fmt: ExportFormat) -> list[Path]:
        """Write the conversation of ``row`` to ``path`` (see :mod:`app.core.chat.export`)."""
        return export_conversation(self._store, self._rows[row].id, path, fmt)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        conv = self._rows[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return conv.title
        if role == Qt.ItemDataRole.ToolTipRole:
            when = dt.datetime.fromtimestamp(conv.updated).strftime("%Y-%m-%d %H:%M")
            lines = [when]
            if conv.id in self._answering:
                lines.append(QCoreApplication.translate("ConversationsModel", "Writing an answer…"))
            found = self._snippets.get(conv.id)
            if found:
                lines.append(found)
            return "\n".join(lines)
        if role == Qt.ItemDataRole.DecorationRole and conv.id in self._answering:
            return icon("pencil", ACCENT, selected=ACCENT)
        if role == ConversationRole:
            return conv
        return None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        base = super().flags(index)
        return base | Qt.ItemFlag.ItemIsEditable if index.isValid() else base

    def setData(self, index: AnyIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        title = str(value).strip()
        if not title:
            return False
        conv = self._rows[index.row()]
        self._store.rename(conv.id, title)
        self._rows[index.row()] = self._store.conversation(conv.id)
        self.dataChanged.emit(index, index)
        return True
