"""The conversation's speculation choice in the chat header: Auto, Off or a method.

The entries and which of them the loaded model honours come from
:func:`app.core.speculative.per_request.choices`, the rule of the local API's
``tandem.speculation`` too: with a llama.cpp model every configuration its engine pool offers is
honoured without a reload (started beside the loaded one on first use); an MLX model switches
inside its own engine between off, its loaded drafter and the model-free methods; an entry that
needs a reload is shown disabled and says why. After an answer, the header names the
configuration that wrote it (Auto's route, for instance).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSizePolicy, QWidget

from app.core.speculative import per_request
from app.core.speculative.per_request import Speculation

ValueRole = Qt.ItemDataRole.UserRole + 1


class SpeculationChoice(QWidget):
    """Signals: ``chosen(object Speculation)`` when the user picks another entry (never when set
    in code)."""

    chosen = Signal(object)

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
        #: the configuration that wrote the last answer ("" before one)
        self.answered = QLabel()
        self.answered.setProperty("muted", True)
        self.answered.hide()
        lay.addWidget(self.label)
        lay.addWidget(self.combo)
        lay.addWidget(self.answered)
        self.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Preferred)
        self._loaded: str | None = None
        self._offered: tuple[Speculation, ...] = ()
        #: the offered configurations are switched inside the loaded engine (MLX), not a pool's
        self._in_engine = False
        #: Auto routes each answer by its kind (a pool with Auto's router)
        self._routed = False
        self._answered = ""
        self._value = per_request.AUTO_CHOICE
        self._about = ""
        self.retranslate()

    @property
    def value(self) -> Speculation:
        return self._value

    def set_state(
        self,
        value: Speculation,
        loaded: str | None,
        offered: tuple[Speculation, ...] = (),
        *,
        in_engine: bool = False,
        routed: bool = False,
    ) -> None:
        """Show ``value`` (the conversation's choice) against the method ``loaded`` runs and the
        configurations ``offered`` beside it: by an engine pool, or switched per answer inside the
        loaded engine (``in_engine``); ``routed``: Auto picks per answer by its kind."""
        self._value, self._loaded, self._offered = value, loaded, offered
        self._in_engine, self._routed = in_engine, routed
        self._rebuild()

    def set_answered(self, configuration: str) -> None:
        """Name the configuration that wrote the last answer ("" hides it)."""
        self._answered = configuration
        self._show_answered()

    def _show_answered(self) -> None:
        shown = self._name(self._answered) if self._answered else ""
        self.answered.setText(self.tr("last answer: {configuration}").format(configuration=shown))
        self.answered.setToolTip(
            self.tr("The configuration that wrote this conversation's last answer (same text, its own speed)")
        )
        self.answered.setVisible(bool(shown))

    def entry(self, value: str) -> QStandardItem | None:
        """The entry of the choice named ``value`` (tests and the tooltip check)."""
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
        self._show_answered()

    def _rebuild(self) -> None:
        self.combo.blockSignals(True)
        try:
            self._items.clear()
            current = 0
            tip = self._about
            for row, choice in enumerate(per_request.choices(self._loaded, self._value, self._offered)):
                item = QStandardItem(self._text(choice.value))
                item.setData(choice.value.name, ValueRole)
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

    def _text(self, value: Speculation) -> str:
        return self._name(value.name)

    def _name(self, name: str) -> str:
        """How the choice or configuration named ``name`` is shown."""
        if name == per_request.AUTO:
            return "Auto"  # the feature's name, the same in every language (as the status bar's)
        if name == per_request.OFF:
            return self.tr("Off")
        return name  # a method's own name ("draft", "ngram-mod", ...), as the stats strip shows it

    def _running(self) -> str:
        return self._loaded if self._loaded else self.tr("no speculation")

    def _tooltip(self, choice: per_request.Choice) -> str:
        if choice.value.is_auto and self._routed:
            return self.tr(
                "Chosen per answer by its kind (prose, code, repeat, agent) among the configurations "
                "below, by what was measured on this machine"
            )
        if choice.value.is_auto:
            return self.tr("What the model was loaded with: {running}").format(running=self._running())
        if choice.value == per_request.running(self._loaded):
            return self.tr("What the loaded model runs; honoured without a reload")
        if choice.honoured and self._in_engine:
            return self.tr("Switched per answer inside the loaded engine, on the same weights: no reload")
        if choice.honoured:
            return self.tr(
                "Started beside the loaded model on its first answer, sharing its memory: no reload"
            )
        if self._in_engine:
            return self.tr(
                "Needs a reload with {method}: the loaded engine switches per answer only between {offered}"
            ).format(
                method=choice.value.name,
                offered=", ".join(self._text(v) for v in self._offered if not v.is_auto),
            )
        if choice.value.is_off:
            return self.tr(
                "Needs a reload without speculation: the loaded model runs {running}, which cannot "
                "be turned off per answer"
            ).format(running=self._running())
        return self.tr(
            "Needs a reload with {method}: the loaded model runs {running}, and speculation cannot "
            "change per answer"
        ).format(method=choice.value.name, running=self._running())

    def _on_index(self, row: int) -> None:
        item = self._items.item(row) if row >= 0 else None
        if item is None:
            return
        value = Speculation(str(item.data(ValueRole)))
        if value != self._value:
            self._value = value
            self.chosen.emit(value)
