"""The tokens-per-round field of the launch dialog: a line edit and the form model's verdict."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLineEdit, QVBoxLayout, QWidget

from app.core.launch.form_state import Note
from app.gui.widgets import InlineMessage


class DepthField(QWidget):
    """Tokens-per-round line edit; the form model says whether its text is valid."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        self.edit = QLineEdit()
        self.edit.setClearButtonEnabled(True)
        self.error = InlineMessage()
        lay.addWidget(self.edit)
        lay.addWidget(self.error)
        self.valid = True

    @staticmethod
    def invalid_text() -> str:
        return QCoreApplication.translate(
            "DepthField", "Enter a whole number greater than zero, or leave it empty."
        )

    def show_error(self, note: Note | None) -> None:
        """Show the form's verdict on the text: ``note`` is a DEPTH_INVALID note, or None."""
        self.valid = note is None
        if note is None:
            self.error.clear_message()
        else:
            self.error.setToolTip(str(note.params.get("detail", "")))  # the core parser's own message
            self.error.show_message(self.invalid_text(), "error")
        if bool(self.edit.property("invalid")) != (not self.valid):
            self.edit.setProperty("invalid", not self.valid)
            self.edit.style().unpolish(self.edit)
            self.edit.style().polish(self.edit)
