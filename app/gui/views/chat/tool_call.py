"""One tool call of an answer: the tool's name and arguments, Approve / Deny /
Always allow while it waits for the user, then one line saying what became of it.

The call's result is a ``tool`` message of its own (a collapsed :class:`MessageBubble` under the
answer); this block only shows the call and its state."""

from __future__ import annotations

import html
import json

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app.core.engines.calls import WireToolCall

#: what a block can say of its call: waiting for the user, running, or how it ended
CallState = str  # "asking" | "running" | "ok" | "denied" | "refused" | "failed" | "skipped" | "cancelled"


def _pretty(arguments: str) -> str:
    try:
        return json.dumps(json.loads(arguments), ensure_ascii=False, indent=2)
    except ValueError:
        return arguments


class ToolCallBlock(QFrame):
    """Signals: ``decided(str)``: ``"approve"``, ``"deny"`` or ``"always"`` (the user's answer
    to a call waiting for approval)."""

    decided = Signal(str)

    def __init__(self, call: WireToolCall, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("toolCall")
        self.call = call
        self.state: CallState = ""
        #: the one line of a call that did not go well ("" otherwise; the answer shows it)
        self.line = ""
        lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 6, 8, 6)
        lay.setSpacing(4)
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.title)
        self.arguments = QLabel()
        self.arguments.setObjectName("toolArguments")
        self.arguments.setTextFormat(Qt.TextFormat.RichText)
        self.arguments.setWordWrap(True)
        self.arguments.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.arguments.setText(
            "<pre style=\"font-family:'DejaVu Sans Mono','Menlo','Consolas',monospace; "
            f'white-space:pre-wrap;">{html.escape(_pretty(call["function"]["arguments"]))}</pre>'
        )
        lay.addWidget(self.arguments)
        self.state_label = QLabel()
        self.state_label.setObjectName("toolState")
        self.state_label.setProperty("muted", True)
        self.state_label.setWordWrap(True)
        self.state_label.hide()
        lay.addWidget(self.state_label)
        row = QHBoxLayout()
        row.setSpacing(6)
        self.approve_btn = QPushButton()
        self.approve_btn.setDefault(True)
        self.deny_btn = QPushButton()
        self.always_btn = QPushButton()
        self.approve_btn.clicked.connect(lambda: self._decide("approve"))
        self.deny_btn.clicked.connect(lambda: self._decide("deny"))
        self.always_btn.clicked.connect(lambda: self._decide("always"))
        for b in (self.approve_btn, self.deny_btn, self.always_btn):
            row.addWidget(b)
        row.addStretch(1)
        self.buttons = QWidget()
        self.buttons.setLayout(row)
        row.setContentsMargins(0, 0, 0, 0)
        self.buttons.hide()
        lay.addWidget(self.buttons)
        self.retranslate()

    @property
    def name(self) -> str:
        return self.call["function"]["name"]

    @property
    def call_id(self) -> str:
        return self.call["id"]

    def ask(self) -> None:
        """Wait for the user: Approve / Deny / Always allow."""
        self.set_state("asking")
        self.buttons.show()
        self.approve_btn.setFocus()

    def _decide(self, answer: str) -> None:
        self.buttons.hide()
        self.set_state("running" if answer != "deny" else "denied")
        self.decided.emit(answer)

    def set_state(self, state: CallState, line: str = "") -> None:
        self.state = state
        self.line = line
        if state != "asking":
            self.buttons.hide()
        self.retranslate()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.title.setText(self.tr("Tool call: {name}").format(name=f"<b>{html.escape(self.name)}</b>"))
        self.approve_btn.setText(self.tr("Approve"))
        self.approve_btn.setToolTip(self.tr("Run this call once"))
        self.deny_btn.setText(self.tr("Deny"))
        self.deny_btn.setToolTip(self.tr("Do not run it; the answer ends here"))
        self.always_btn.setText(self.tr("Always allow"))
        self.always_btn.setToolTip(self.tr("Run it, and run this tool without asking from now on"))
        # a call that did not run or failed: the answer's one line says why (no second line here)
        text = {
            "asking": self.tr("Waiting for your approval."),
            "running": self.tr("Running…"),
            "ok": self.tr("Ran; its result is below."),
        }.get(self.state, "")
        self.state_label.setText(text)
        self.state_label.setVisible(bool(text))
