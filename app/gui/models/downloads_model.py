"""Table model of downloads: queued, active, finished, failed, cancelled.

The rows are the core queue's own items (:class:`app.core.cache.queue.DownloadItem`): one item
type, wrapped by this model as qutebrowser's download model wraps its items. Progress
arrives from worker threads many times a second; :meth:`DownloadsModel.progress` only records
it, and a 250 ms timer emits one ``dataChanged`` for the rows that moved, so the view repaints at
most four times a second.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
)

from app.core.cache.queue import DownloadItem
from app.core.units import human_bytes

AnyIndex = QModelIndex | QPersistentModelIndex
REFRESH_MS = 250
ItemRole = Qt.ItemDataRole.UserRole + 1
ProgressRole = Qt.ItemDataRole.UserRole + 2

STATES = ("queued", "active", "finished", "failed", "cancelled")
__all__ = ["DownloadItem", "DownloadsModel", "human_eta", "state_text"]


def human_eta(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    s = int(seconds)
    if s >= 3600:
        return f"{s // 3600}h {s % 3600 // 60:02d}m"
    if s >= 60:
        return f"{s // 60}m {s % 60:02d}s"
    return f"{s}s"


def state_text(state: str) -> str:
    return {
        "queued": QCoreApplication.translate("DownloadsModel", "Queued"),
        "active": QCoreApplication.translate("DownloadsModel", "Downloading"),
        "finished": QCoreApplication.translate("DownloadsModel", "Finished"),
        "failed": QCoreApplication.translate("DownloadsModel", "Failed"),
        "cancelled": QCoreApplication.translate("DownloadsModel", "Cancelled"),
    }.get(state, state)


class DownloadsModel(QAbstractTableModel):
    COLUMNS = ("name", "state", "progress", "rate", "eta")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._items: list[DownloadItem] = []
        self._dirty: set[str] = set()
        self._timer = QTimer(self)
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self._flush)

    # --- updates ----------------------------------------------------------------------------
    def upsert(self, item: DownloadItem) -> None:
        """Insert or replace at once (state changes are rare and should show immediately)."""
        row = self.row_of(item.id)
        if row < 0:
            self.beginInsertRows(QModelIndex(), len(self._items), len(self._items))
            self._items.append(item)
            self.endInsertRows()
        else:
            self._items[row] = item
            self._dirty.discard(item.id)
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.COLUMNS) - 1))

    def progress(self, item: DownloadItem) -> None:
        """Record a progress update; the repaint happens on the next timer tick."""
        row = self.row_of(item.id)
        if row < 0:
            return
        self._items[row] = item
        self._dirty.add(item.id)
        if not self._timer.isActive():
            self._timer.start()

    def remove(self, item_id: str) -> None:
        row = self.row_of(item_id)
        if row >= 0:
            self.beginRemoveRows(QModelIndex(), row, row)
            del self._items[row]
            self.endRemoveRows()

    def _flush(self) -> None:
        if not self._dirty:
            self._timer.stop()
            return
        rows = [self.row_of(i) for i in self._dirty]
        self._dirty.clear()
        rows = [r for r in rows if r >= 0]
        if rows:
            self.dataChanged.emit(self.index(min(rows), 0), self.index(max(rows), len(self.COLUMNS) - 1))

    def stop(self) -> None:
        self._timer.stop()

    # --- access -----------------------------------------------------------------------------
    def row_of(self, item_id: str) -> int:
        for i, it in enumerate(self._items):
            if it.id == item_id:
                return i
        return -1

    def item(self, row: int) -> DownloadItem:
        return self._items[row]

    def items(self) -> list[DownloadItem]:
        return list(self._items)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._items)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        if not 0 <= section < len(self.COLUMNS):
            return None
        return [
            QCoreApplication.translate("DownloadsModel", "Model"),
            QCoreApplication.translate("DownloadsModel", "State"),
            QCoreApplication.translate("DownloadsModel", "Progress"),
            QCoreApplication.translate("DownloadsModel", "Rate"),
            QCoreApplication.translate("DownloadsModel", "Time left"),
        ][section]

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._items):
            return None
        it = self._items[index.row()]
        col = self.COLUMNS[index.column()]
        if role == ItemRole:
            return it
        if role == ProgressRole:
            return it.fraction
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = it.error or it.folder or it.label
            return f"{tip}\n{it.note}" if it.note and not it.error else tip
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if col == "name":
            # a failed row says why on the row itself, under its name
            if it.state == "failed" and it.error_line:
                return f"{it.label}\n{it.error_line}"
            if it.note:  # the repository named the file differently: which one was taken
                return f"{it.label}\n{it.note}"
            return it.label
        if col == "state":
            return state_text(it.state)
        if col == "progress":
            done, total = it.bytes_done, it.bytes_total
            if it.state in ("failed", "cancelled") and total and done:
                return f"{100 * done // total}% · {human_bytes(done)} / {human_bytes(total)}"
            if total and it.state != "failed":
                return f"{human_bytes(done)} / {human_bytes(total)}"
            return ""
        if col == "rate":
            return f"{human_bytes(it.rate)}/s" if it.state == "active" and it.rate else ""
        if col == "eta":
            return human_eta(it.eta) if it.state == "active" else ""
        return None
