"""A rich-text label for chat text that remembers its height per width."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize
from PySide6.QtWidgets import (
    QLabel,
    QWidget,
)


class TextLabel(QLabel):
    """A word-wrapped rich-text label that remembers its height per width.

    QLabel lays its whole text out again on every ``heightForWidth`` call, and the chat column
    asks every bubble on each relayout: a long conversation stalled for a time that grew with the
    number of messages. The answer only changes with the text or the font."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._heights: dict[int, int] = {}

    def setText(self, text: str) -> None:
        if text != self.text():
            self._heights.clear()
            super().setText(text)

    def minimumSizeHint(self) -> QSize:
        """One line tall: QLabel's own guess lays a long text out at a narrow width (an answer of
        500 tokens asked for 650 px), and as a minimum that made the chat column taller than its
        bubbles: the view scrolled into a screen of blank space below the last answer. The real
        height comes from :meth:`heightForWidth`, which the column's layout asks."""
        hint = super().minimumSizeHint()
        return QSize(hint.width(), min(hint.height(), self.fontMetrics().lineSpacing() + 2))

    def heightForWidth(self, width: int) -> int:
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = super().heightForWidth(width)
        return height

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._heights.clear()
        super().changeEvent(event)
