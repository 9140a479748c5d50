"""Downloads panel: a table with progress bars, rate and time left; cancel, retry, open folder."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, Qt, QUrl, Signal, SignalInstance
from PySide6.QtGui import QColor, QDesktopServices, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionProgressBar,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.core.cache.queue import DownloadItem
from app.gui import icons
from app.gui.models.downloads_model import DownloadsModel, ItemRole

_STOPPED_GREY = "#b8bec6"  # the "absent" status dot's grey on the Models page


class ProgressDelegate(QStyledItemDelegate):
    """Draws the progress column as a progress bar with the byte counts as its text.

    A bar shows only what is known: the fraction reached (greyed for a failed or cancelled row),
    a busy bar only while a running download has no byte count yet, and no bar at all for a
    queued row or one that failed before any byte arrived.
    """

    def bar_for(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QStyleOptionProgressBar | None:
        item = index.data(ItemRole)
        if not isinstance(item, DownloadItem):
            return None
        fraction = item.fraction
        if fraction is None and not item.busy:
            return None
        if item.state in ("failed", "cancelled") and not item.bytes_done:
            return None
        bar = QStyleOptionProgressBar()
        bar.rect = option.rect.adjusted(4, 5, -4, -5)
        bar.minimum = 0
        bar.maximum = 0 if item.busy else 1000
        bar.progress = int((fraction or 0) * 1000)
        bar.text = index.data(Qt.ItemDataRole.DisplayRole) or ""
        bar.textVisible = True
        # Qt 6 reads a bar's orientation from its state: without State_Horizontal the fraction
        # filled the cell from the bottom up (a thin line at 20%, the whole cell at 100%)
        bar.state = option.state | QStyle.StateFlag.State_Horizontal
        if item.state in ("failed", "cancelled"):
            bar.state &= ~QStyle.StateFlag.State_Enabled
            # styles (Fusion among them) still fill a disabled bar with the highlight colour, so
            # a stopped bar looked like a running one: the stopped fraction is drawn in grey
            palette = QPalette(option.palette)
            for group in (
                QPalette.ColorGroup.Active,
                QPalette.ColorGroup.Inactive,
                QPalette.ColorGroup.Disabled,
            ):
                palette.setColor(group, QPalette.ColorRole.Highlight, QColor(_STOPPED_GREY))
                # the text over the grey stays dark (the style writes white over a highlight)
                palette.setColor(
                    group, QPalette.ColorRole.HighlightedText, option.palette.color(QPalette.ColorRole.Text)
                )
            bar.palette = palette
        return bar

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        bar = self.bar_for(option, index)
        if bar is None:
            super().paint(painter, option, index)  # the text alone (empty when nothing is known)
            return
        QApplication.style().drawControl(QStyle.ControlElement.CE_ProgressBar, bar, painter)


class DownloadsPage(QWidget):
    """Signals: ``cancelRequested(str)``, ``retryRequested(str)``, ``folderRequested(str)``."""

    cancelRequested = Signal(str)
    retryRequested = Signal(str)
    folderRequested = Signal(str)

    def __init__(self, model: DownloadsModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        root = QVBoxLayout(self)
        root.setContentsMargins(16, 14, 16, 12)
        root.setSpacing(10)
        self.title = QLabel()
        self.title.setObjectName("pageTitle")
        root.addWidget(self.title)
        self.table = QTableView()
        self.table.setModel(model)
        self.table.setItemDelegateForColumn(2, ProgressDelegate(self.table))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        # a failed row is two lines (its name, then the error): rows take the height they need
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setShowGrid(False)
        self.table.setAlternatingRowColors(True)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        hh.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(2, QHeaderView.ResizeMode.Fixed)
        hh.resizeSection(2, 220)
        hh.setSectionResizeMode(3, QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(4, QHeaderView.ResizeMode.ResizeToContents)
        root.addWidget(self.table, 1)
        # The empty state sits in the middle of the table, not under an empty grid.
        self.empty = QLabel()
        self.empty.setProperty("muted", True)
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        over = QVBoxLayout(self.table.viewport())
        over.setContentsMargins(24, 24, 24, 24)
        over.addWidget(self.empty, 0, Qt.AlignmentFlag.AlignCenter)
        row = QHBoxLayout()
        self.cancel_btn = QPushButton(icons.icon("close"), "")
        self.retry_btn = QPushButton(icons.icon("refresh"), "")
        self.folder_btn = QPushButton(icons.icon("folder"), "")
        row.addStretch(1)
        row.addWidget(self.folder_btn)
        row.addWidget(self.retry_btn)
        row.addWidget(self.cancel_btn)
        root.addLayout(row)
        self.cancel_btn.clicked.connect(lambda: self._emit(self.cancelRequested))
        self.retry_btn.clicked.connect(lambda: self._emit(self.retryRequested))
        self.folder_btn.clicked.connect(lambda: self._emit(self.folderRequested))
        self.table.selectionModel().selectionChanged.connect(self._update_buttons)
        model.dataChanged.connect(self._update_buttons)
        model.rowsInserted.connect(self._update_buttons)
        model.rowsRemoved.connect(self._update_buttons)
        self.retranslate()
        self._update_buttons()

    def _selected(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        return self.model.item(rows[0].row()).id

    def _emit(self, signal: SignalInstance) -> None:
        item_id = self._selected()
        if item_id:
            signal.emit(item_id)

    def _update_buttons(self, *_args: object) -> None:
        rows = self.table.selectionModel().selectedRows()
        state = self.model.item(rows[0].row()).state if rows else None
        self.cancel_btn.setEnabled(state in ("queued", "active"))
        self.retry_btn.setEnabled(state in ("failed", "cancelled"))
        self.folder_btn.setEnabled(state == "finished")
        self.empty.setVisible(self.model.rowCount() == 0)

    @staticmethod
    def open_folder(path: str) -> bool:
        return QDesktopServices.openUrl(QUrl.fromLocalFile(path))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.title.setText(self.tr("Downloads"))
        self.empty.setText(self.tr("No downloads yet. Pick a model on the Models page and press Download."))
        self.cancel_btn.setText(self.tr("Cancel"))
        self.retry_btn.setText(self.tr("Retry"))
        self.folder_btn.setText(self.tr("Open folder"))
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.model.columnCount() - 1)
