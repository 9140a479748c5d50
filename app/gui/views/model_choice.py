"""The conversation's model in the chat header: every model on disk, the loaded ones marked.

Choosing another model takes no launch dialog: the conversation's next message loads it (with
that model's last launch settings), and the model it used before stays loaded while memory
allows. The first entry, "Loaded model", answers with whatever model is loaded.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSizePolicy, QWidget

LabelRole = Qt.ItemDataRole.UserRole + 1
#: the mark of a loaded model in the list
LOADED_MARK = "●"


class _Combo(QComboBox):
    """A combo box that says when its list opens."""

    opened = Signal()

    def showPopup(self) -> None:
        self.opened.emit()
        super().showPopup()


class ModelChoice(QWidget):
    """Signals: ``chosen(str label)`` when the user picks another entry ("": the loaded model;
    never when set in code), ``opened()`` when its list opens (the models on disk are read then,
    the first time)."""

    chosen = Signal(str)
    opened = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        self.label = QLabel()
        self.label.setProperty("muted", True)
        self.combo = _Combo()
        self.combo.opened.connect(self.opened)
        self.combo.setObjectName("modelChoice")
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.combo.setMaximumWidth(320)
        self._items = QStandardItemModel(self.combo)
        self.combo.setModel(self._items)
        self.combo.currentIndexChanged.connect(self._on_index)
        self.label.setBuddy(self.combo)
        lay.addWidget(self.label)
        lay.addWidget(self.combo)
        self.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Preferred)
        self._models: tuple[str, ...] = ()
        self._loaded: frozenset[str] = frozenset()
        self._value = ""
        self._current = ""
        self.retranslate()

    @property
    def value(self) -> str:
        return self._value

    def set_state(self, value: str, models: Sequence[str], loaded: Iterable[str], current: str) -> None:
        """Show ``value`` (the conversation's model, "" for the loaded one) among ``models`` (the
        labels of the models on disk); ``loaded`` are marked, ``current`` answers now."""
        self._value, self._models = value, tuple(models)
        self._loaded, self._current = frozenset(loaded), current
        self._rebuild()

    def _rebuild(self) -> None:
        self.combo.blockSignals(True)
        try:
            self._items.clear()
            first = QStandardItem(
                self.tr("Loaded model ({name})").format(name=self._current)
                if self._current
                else self.tr("Loaded model")
            )
            first.setData("", LabelRole)
            first.setToolTip(self.tr("Answer with whatever model is loaded"))
            self._items.appendRow(first)
            shown = list(self._models)
            if self._value and self._value not in shown:  # a model no longer on disk keeps its entry
                shown.append(self._value)
            for label in shown:
                loaded = label in self._loaded
                item = QStandardItem(f"{LOADED_MARK} {label}" if loaded else label)
                item.setData(label, LabelRole)
                if loaded:
                    item.setToolTip(self.tr("Loaded: answers at once"))
                elif label in self._models:
                    item.setToolTip(self.tr("On disk: the next message loads it"))
                else:
                    item.setToolTip(self.tr("No longer on disk: download it again from the Models page"))
                    item.setEnabled(False)
                self._items.appendRow(item)
            index = next(
                (
                    i
                    for i in range(self._items.rowCount())
                    if self._items.item(i).data(LabelRole) == self._value
                ),
                0,
            )
            self.combo.setCurrentIndex(index)
        finally:
            self.combo.blockSignals(False)

    def _on_index(self, index: int) -> None:
        if index < 0:
            return
        label = self._items.item(index).data(LabelRole) or ""
        if label != self._value:
            self._value = label
            self.chosen.emit(label)

    def retranslate(self) -> None:
        self.label.setText(self.tr("Model:"))
        self.combo.setToolTip(
            self.tr(
                "The model this conversation answers with. Another model loads with your next message; "
                "the one used before stays loaded while memory allows."
            )
        )
        self._rebuild()
