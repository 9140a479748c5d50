"""The conversation's speculation choice in the chat header: Auto, Off or a method.

The entries and which of them the loaded model honours come from
:func:`app.core.speculative.per_request.choices`, the rule of the local API's
``tandem.speculation`` too; an entry that needs a reload is shown disabled and says why.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSizePolicy, QWidget

from app.core.speculative import per_request

ValueRole = Qt.ItemDataRole.UserRole + 1


class SpeculationChoice(QWidget):
    """Signals: ``chosen(str value)`` when the user picks another entry (never when set in code)."""

    chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        self.label = QLabel()
        self.label.setProperty("muted", True)
        self.combo = QComboBox()
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self._items = QStandardItemModel(self.combo)
        self.combo.setModel(self._items)
        self.combo.currentIndexChanged.connect(self._on_index)
        self.label.setBuddy(self.combo)
        lay.addWidget(self.label)
        lay.addWidget(self.combo)
        self.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Preferred)
        self._loaded: str | None = None
        self._value = per_request.AUTO
        self._about = ""
        self.retranslate()

    @property
    def value(self) -> str:
        return self._value

    def set_state(self, value: str, loaded: str | None) -> None:
        """Show ``value`` (the conversation's choice) against the method ``loaded`` runs."""
        self._value, self._loaded = value, loaded
        self._rebuild()

    def entry(self, value: str) -> QStandardItem | None:
        """The entry of ``value`` (tests and the tooltip check)."""
        for row in range(self._items.rowCount()):
            item = self._items.item(row)
            if item.data(ValueRole) == value:
                return item
        return None

    def retranslate(self) -> None:
        self.label.setText(self.tr("Speculation:"))
        self._about = self.tr(
            "Speculative decoding for this conversation's answers. A change applies from the "
            "next answer; the text is the same either way, only the speed changes."
        )
        self._rebuild()

    def _rebuild(self) -> None:
        self.combo.blockSignals(True)
        try:
            self._items.clear()
            current = 0
            tip = self._about
            for row, choice in enumerate(per_request.choices(self._loaded, self._value)):
                item = QStandardItem(self._text(choice.value))
                item.setData(choice.value, ValueRole)
                item.setToolTip(self._tooltip(choice))
                if not choice.honoured:
                    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)
                self._items.appendRow(item)
                if choice.value == self._value:
                    current = row
                    if not choice.honoured:  # a stored choice the loaded model cannot run: say why
                        tip = item.toolTip()
            self.combo.setCurrentIndex(current)
            self.combo.setToolTip(tip)
        finally:
            self.combo.blockSignals(False)

    def _text(self, value: str) -> str:
        if value == per_request.AUTO:
            return "Auto"  # the feature's name, the same in every language (as the status bar's)
        if value == per_request.OFF:
            return self.tr("Off")
        return value  # a method's own name ("draft", "ngram-mod", ...), as the stats strip shows it

    def _running(self) -> str:
        return self._loaded if self._loaded else self.tr("no speculation")

    def _tooltip(self, choice: per_request.Choice) -> str:
        if choice.value == per_request.AUTO:
            return self.tr("What the model was loaded with: {running}").format(running=self._running())
        if choice.honoured:
            return self.tr("What the loaded model runs; honoured without a reload")
        if choice.value == per_request.OFF:
            return self.tr(
                "Needs a reload without speculation: the loaded model runs {running}, which cannot "
                "be turned off per answer"
            ).format(running=self._running())
        return self.tr(
            "Needs a reload with {method}: the loaded model runs {running}, and speculation cannot "
            "change per answer"
        ).format(method=choice.value, running=self._running())

    def _on_index(self, row: int) -> None:
        item = self._items.item(row) if row >= 0 else None
        if item is None:
            return
        value = str(item.data(ValueRole))
        if value != self._value:
            self._value = value
            self.chosen.emit(value)
