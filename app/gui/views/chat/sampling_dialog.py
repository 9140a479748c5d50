"""A conversation's system prompt and sampling settings."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QPlainTextEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.core import limits
from app.core.engines.base import Sampling
from app.gui.widgets import bind_range


class SamplingDialog(QDialog):
    def __init__(self, sampling: Sampling, system_prompt: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Conversation settings"))
        self.setMinimumWidth(460)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(18, 16, 18, 14)  # like the other dialogs
        lay.setSpacing(12)
        form = QFormLayout()
        self.system = QPlainTextEdit(system_prompt)
        self.system.setPlaceholderText(self.tr("e.g. You are a concise assistant."))
        self.system.setFixedHeight(90)
        self.temperature = QDoubleSpinBox()
        bind_range(self.temperature, limits.TEMPERATURE)
        self.temperature.setValue(sampling.temperature)
        self.top_p = QDoubleSpinBox()
        bind_range(self.top_p, limits.TOP_P)
        self.top_p.setValue(sampling.top_p)
        self.top_k = QSpinBox()
        bind_range(self.top_k, limits.TOP_K)
        self.top_k.setValue(sampling.top_k)
        self.max_tokens = QSpinBox()
        bind_range(self.max_tokens, limits.MAX_TOKENS)
        self.max_tokens.setValue(sampling.max_tokens)
        form.addRow(self.tr("System prompt"), self.system)
        form.addRow(self.tr("Temperature"), self.temperature)
        form.addRow(self.tr("Top-p"), self.top_p)
        form.addRow(self.tr("Top-k"), self.top_k)
        form.addRow(self.tr("Max new tokens"), self.max_tokens)
        lay.addLayout(form)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def sampling(self, base: Sampling) -> Sampling:
        return Sampling(
            temperature=self.temperature.value(),
            top_p=self.top_p.value(),
            top_k=self.top_k.value(),
            max_tokens=self.max_tokens.value(),
            seed=base.seed,
            stop=base.stop,
            repeat_penalty=base.repeat_penalty,  # not edited here: keep the launch's value
        )
