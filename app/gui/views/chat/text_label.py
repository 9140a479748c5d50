"""A rich-text label for chat text that remembers its height per width."""

from __future__ import annotations

from math import ceil

from PySide6.QtCore import QEvent, QMimeData, QSize
from PySide6.QtGui import (
    QContextMenuEvent,
    QGuiApplication,
    QKeyEvent,
    QKeySequence,
    QTextDocument,
    QTextOption,
)
from PySide6.QtWidgets import (
    QLabel,
    QMenu,
    QWidget,
)

from app.core.chat.render.blocks import BREAK


class TextLabel(QLabel):
    """A word-wrapped rich-text label that remembers its height per width.

    QLabel lays its whole text out again on every ``heightForWidth`` call, and the chat column
    asks every bubble on each relayout: a long conversation stalled for a time that grew with the
    number of messages. The answer only changes with the text or the font."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._heights: dict[int, int] = {}
        self._natural: QSize | None = None
        #: the text holds break points (see :func:`app.core.chat.render.blocks.with_break_points`):
        #: a copy of the selection leaves them out
        self.has_breaks = False

    def setText(self, text: str) -> None:
        if text != self.text():
            self._heights.clear()
            self._natural = None
            super().setText(text)

    def natural_size(self) -> QSize:
        """The size of the text with no line wrapped but where it breaks itself (a code block's
        lines), as QLabel's size hint without word wrap, measured with one layout of the text
        (QLabel's hints laid it out six times: three sizes, each laid out and then restored)."""
        if self._natural is None:
            self.ensurePolished()  # the stylesheet's font, as QLabel's own hints use
            doc = QTextDocument()
            doc.setUndoRedoEnabled(False)
            doc.setDefaultFont(self.font())
            doc.setDocumentMargin(0)
            option = doc.defaultTextOption()
            option.setWrapMode(QTextOption.WrapMode.ManualWrap)
            doc.setDefaultTextOption(option)
            doc.setHtml(self.text())
            size = doc.size()
            margins = self.contentsMargins()
            self._natural = QSize(
                ceil(size.width()) + margins.left() + margins.right(),
                ceil(size.height()) + margins.top() + margins.bottom(),
            )
        return self._natural

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
            self._natural = None
        super().changeEvent(event)

    # --- copies of the selection without the break points ------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:
        super().keyPressEvent(event)
        if event.matches(QKeySequence.StandardKey.Copy):
            self._clean_clipboard()

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """QLabel's own menu (its Copy, Copy Link Location and Select All, in Qt's translations);
        its Copy is followed by the clean-up."""
        super().contextMenuEvent(event)
        if not self.has_breaks:
            return
        for menu in self.findChildren(QMenu):
            if menu.isVisible():
                for action in menu.actions():
                    if action.objectName() == "edit-copy":
                        action.triggered.connect(self._clean_clipboard)

    def _clean_clipboard(self) -> None:
        """Take the break points out of what the label just put on the clipboard: a copied URL
        or hash must be the text the model wrote."""
        clipboard = QGuiApplication.clipboard()
        copied = clipboard.mimeData()
        if not self.has_breaks or copied is None or BREAK not in copied.text():
            return
        clean = QMimeData()
        clean.setText(copied.text().replace(BREAK, ""))
        if copied.hasHtml():
            markup = copied.html().replace(BREAK, "")
            clean.setHtml(markup.replace("&#8203;", "").replace("&#x200b;", ""))
        clipboard.setMimeData(clean)
