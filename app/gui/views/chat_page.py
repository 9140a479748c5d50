"""The chat page: the conversations panel beside the load bar and the chat view.

Widget construction only; the chat controller drives the view and the window wires the panel's
requests (the window did construction, launching, deleting and settings in one class).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.gui.models.conversations_model import ConversationsModel
from app.gui.views.chat import ChatView
from app.gui.views.conversations_panel import ConversationsPanel
from app.gui.views.model_choice import ModelChoice
from app.gui.views.speculation_choice import SpeculationChoice


class LoadBar(QFrame):
    """ "Loading <model>…" with a busy bar and Cancel. Signals: ``cancelRequested()``."""

    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("card")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        self.label = QLabel()
        # Long texts (a long load step) wrap instead of widening the pane: an unwrapped label
        # pushed the splitter and was still cut off at the progress bar.
        self.label.setWordWrap(True)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.setMaximumWidth(160)
        self.cancel = QPushButton()
        self.cancel.clicked.connect(self.cancelRequested)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.progress)
        layout.addWidget(self.cancel)
        self.hide()

    def retranslate(self) -> None:
        self.cancel.setText(self.tr("Cancel"))


class ChatPage(QWidget):
    def __init__(self, conversations: ConversationsModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 10)
        split = QSplitter(Qt.Orientation.Horizontal)
        self.conversations_panel = ConversationsPanel(conversations)
        split.addWidget(self.conversations_panel)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(6, 0, 0, 0)
        self.load_bar = LoadBar()
        right_layout.addWidget(self.load_bar)
        self.chat_view = ChatView()
        # the conversation's own choices, on a row under its title: beside the title they left it
        # a few characters at 1366 x 768 ("Col…", the model line "smol…")
        self.options_row = QHBoxLayout()
        self.options_row.setContentsMargins(4, 0, 4, 0)
        self.model_choice = ModelChoice()
        self.options_row.addWidget(self.model_choice)
        self.options_row.addSpacing(12)
        self.speculation = SpeculationChoice()
        self.options_row.addWidget(self.speculation)
        self.options_row.addStretch(1)
        view_layout = self.chat_view.layout()
        assert isinstance(view_layout, QVBoxLayout)
        view_layout.insertLayout(view_layout.indexOf(self.chat_view.scroller), self.options_row)
        right_layout.addWidget(self.chat_view, 1)
        split.addWidget(right)
        split.setStretchFactor(0, 0)
        split.setStretchFactor(1, 1)
        split.setSizes([230, 900])
        layout.addWidget(split)

    def retranslate(self) -> None:
        self.conversations_panel.retranslate()
        self.load_bar.retranslate()
        self.model_choice.retranslate()
        self.speculation.retranslate()
