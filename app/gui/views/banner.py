"""The error banner: every user-facing error lands here (message, next step, details)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QStyle,
    QToolButton,
    QWidget,
)

from app.gui import icons
from app.gui.errors import UserError


class ErrorBanner(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(10, 6, 6, 6)
        icon = QLabel()
        icon.setPixmap(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning).pixmap(20, 20))
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details_btn = QPushButton()
        self.close_btn = QToolButton()
        self.close_btn.setIcon(icons.icon("close", "#7a1d16"))
        lay.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        lay.addWidget(self.text, 1)
        lay.addWidget(self.details_btn, 0, Qt.AlignmentFlag.AlignTop)
        lay.addWidget(self.close_btn, 0, Qt.AlignmentFlag.AlignTop)
        self.details_btn.clicked.connect(self._details)
        self.close_btn.clicked.connect(self.hide)
        self.error: UserError | None = None
        self.hide()
        self.retranslate()

    def show_error(self, error: UserError) -> None:
        self.error = error
        parts = [f"<b>{_esc(error.title)}</b>", _esc(error.message)]
        if error.hint:
            parts.append(f"<i>{_esc(error.hint)}</i>")
        self.text.setText("<br>".join(parts))
        self.details_btn.setVisible(bool(error.details))
        self.show()

    def _details(self) -> None:
        if self.error is None:
            return
        box = QMessageBox(
            QMessageBox.Icon.Warning, self.error.title, self.error.message, parent=self.window()
        )
        box.setDetailedText(self.error.details)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.details_btn.setText(self.tr("Details"))
        self.close_btn.setToolTip(self.tr("Dismiss"))


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\n", "<br>")
