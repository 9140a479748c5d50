"""A message's rendered text, in parts no wider than the view.

One label holding a whole message was as wide as its widest line: a code block with a 300-character
line, a long URL, a wide table or formula widened the message, and with it the conversation's
column, past the view (the user's message above it was cut at the right edge, with no way to read
the rest). Here the text is cut at its top-level blocks (:func:`app.core.chat.render.blocks.
split_blocks`): prose wraps at the view's width, a long run without spaces included (break points,
see :func:`~app.core.chat.render.blocks.with_break_points`); a code block keeps its lines whole and
scrolls sideways inside its own box, as tables and display formulas wider than the view do, with a
scrollbar under the box, the trackpad's sideways swipe or Shift and the wheel."""

from __future__ import annotations

import re
from math import ceil

from PySide6.QtCore import QEvent, QObject, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QResizeEvent, QTextDocument, QWheelEvent
from PySide6.QtWidgets import QApplication, QScrollBar, QSizePolicy, QVBoxLayout, QWidget

from app.core.chat.render.blocks import Kind, split_blocks, with_break_points
from app.gui.views.chat.text_label import TextLabel

#: what a wheel step (1/8 degree units per notch) scrolls a wide block, in pixels per line
_WHEEL_NOTCH = 120
_LINE_PIXELS = 20
#: space above and below a code block, a table or a formula; a code box's padding and corners
_GAP_ABOVE, _GAP_BELOW = 6, 8
_PAD_X, _PAD_Y = 8, 6
_RADIUS = 4.0
#: what can make prose wider than its words: an image (an inline formula), a table or a code block
#: nested in a list or a quote
_MAY_BE_WIDE = re.compile(r"<(?:img|table|pre)\b")
#: a code block's background in its rendered style
_BACKGROUND = re.compile(r"background-color:\s*(#[0-9a-fA-F]{3,8});?\s*")


class SideScroll(QWidget):
    """One block of a message: a label as tall as its text at the block's width, moved sideways
    by a scrollbar under it when the text needs more width than the block has. Never asks its
    parent for more width than nothing: what does not fit scrolls.

    A code block is drawn as a box of its background colour (taken from the rendered block) with
    the scrollbar at its foot; a code block, a table or a formula keeps a little space above and
    below it (the margins a single text document gave them between paragraphs)."""

    def __init__(self, kind: Kind, flags: Qt.TextInteractionFlag, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind: Kind = kind
        self.markup = ""
        self._natural: int | None = None  # a wide block's width with nothing wrapped (cached)
        self._background: QColor | None = None
        self._top, self._bottom = (0, 0) if kind == "prose" else (_GAP_ABOVE, _GAP_BELOW)
        self.label = TextLabel(self)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        # code keeps its lines whole (scrolled); prose, tables and formulas wrap at the block's width
        self.label.setWordWrap(kind != "code")
        self.label.setTextInteractionFlags(flags)
        if kind == "code":
            self.label.setContentsMargins(_PAD_X, _PAD_Y, _PAD_X, _PAD_Y)
        self.label.installEventFilter(self)  # the wheel over the text scrolls the block
        self.bar = QScrollBar(Qt.Orientation.Horizontal, self)
        self.bar.setObjectName("blockScroll")
        self.bar.hide()
        self.bar.valueChanged.connect(self._place)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def set_markup(self, markup: str) -> None:
        if markup == self.markup:
            return
        self.markup = markup
        self._natural = None
        if self.kind == "code":
            shown = self._code_box(markup)
        else:
            shown = with_break_points(markup)
            self.label.has_breaks = shown != markup
        self.label.setText(shown)
        self._changed()

    def _code_box(self, markup: str) -> str:
        """The code block without its own background (the box paints it, with its padding) and
        without the empty line its last line end made."""
        found = _BACKGROUND.search(markup)
        self._background = QColor(found.group(1)) if found else None
        shown = _BACKGROUND.sub("", markup, count=1) if found else markup
        return shown.replace("\n</code></pre>", "</code></pre>", 1)

    # --- size ------------------------------------------------------------------------------------
    def needed_width(self) -> int:
        """The width the text needs: a code block's longest line; for wrapped text its widest
        unbreakable piece (an image, a table at its narrowest, a nested code block's line).
        Prose of words and break points fits any width a bubble has: its label is not asked (the
        answer lays the text out three more times, on each flush of a streamed paragraph)."""
        if self.kind == "code":
            return self.label.natural_size().width()
        if self.kind == "prose" and not _MAY_BE_WIDE.search(self.markup):
            return 0
        return self.label.minimumSizeHint().width()

    def inner_width(self, width: int) -> int:
        """The label's width in a block ``width`` wide: the block's, or more (then it scrolls). A
        table that does not fit is laid out at its natural width (its cells unwrapped, up to
        three views wide): it scrolls anyway, and squeezed to its narrowest it wrapped every cell."""
        need = self.needed_width()
        if need <= width:
            return width
        if self.kind == "wide":
            return max(need, min(self.natural_width(), 3 * width))
        return need

    def natural_width(self) -> int:
        if self._natural is None:
            doc = QTextDocument()
            doc.setDefaultFont(self.label.font())
            doc.setDocumentMargin(0)
            doc.setHtml(self.label.text())
            margins = self.label.contentsMargins()
            self._natural = ceil(doc.idealWidth()) + margins.left() + margins.right() + 2
        return self._natural

    def _label_height(self, width: int) -> int:
        if self.kind == "code":
            return self.label.natural_size().height()
        return self.label.heightForWidth(width)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        inner = self.inner_width(width)
        bar = self.bar.sizeHint().height() if inner > width else 0
        return self._top + self._label_height(inner) + bar + self._bottom

    def sizeHint(self) -> QSize:
        # about 80 characters wide; as tall as at the width it has (the layouts ask each flush,
        # and a height at another width would lay the text out once more)
        width = self.width() or self.fontMetrics().averageCharWidth() * 80
        return QSize(width, self.heightForWidth(width))

    def minimumSizeHint(self) -> QSize:
        # no width of its own (what does not fit scrolls); one line tall, as the text label (the
        # real height comes from heightForWidth)
        line = self.fontMetrics().lineSpacing() + 2
        if self.kind == "code":
            line = self.label.natural_size().height()
        return QSize(0, self._top + line + self._bottom)

    # --- placement -------------------------------------------------------------------------------
    def _changed(self) -> None:
        self.updateGeometry()
        self._place()

    def _place(self, *_args: object) -> None:
        width = self.width()
        inner = self.inner_width(width)
        height = self._label_height(inner)
        if inner > width:
            self.bar.setRange(0, inner - width)
            self.bar.setPageStep(max(1, width))
            self.bar.setSingleStep(_LINE_PIXELS)
            self.bar.setGeometry(0, self._top + height, width, self.bar.sizeHint().height())
            self.bar.show()
        else:
            self.bar.hide()
            self.bar.setRange(0, 0)
        self.label.setGeometry(-self.bar.value(), self._top, inner, height)
        if self._background is not None:
            self.update()  # the box behind the code

    def paintEvent(self, event: QPaintEvent) -> None:
        if self._background is None:
            return
        box = QRectF(0, self._top, self.width(), self.height() - self._top - self._bottom)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self._background)
        painter.drawRoundedRect(box, _RADIUS, _RADIUS)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._place()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:  # the label's text or font changed
            self._natural = None
            self._changed()
        return super().event(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.label and isinstance(event, QWheelEvent):
            self.wheelEvent(event)
            return event.isAccepted()  # else on to the conversation
        return super().eventFilter(watched, event)

    def wheelEvent(self, event: QWheelEvent) -> None:
        """A sideways swipe, or Shift and the wheel, scrolls a wide block; the wheel alone scrolls
        the conversation (the event goes on to it)."""
        if not self.bar.isVisible():
            event.ignore()
            return
        angle, pixels = event.angleDelta(), event.pixelDelta()
        sideways = abs(angle.x()) > abs(angle.y())
        if not sideways and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            event.ignore()
            return
        if not pixels.isNull():
            step = pixels.x() if sideways else pixels.y()
        else:
            notches = (angle.x() if sideways else angle.y()) / _WHEEL_NOTCH
            step = round(notches * QApplication.wheelScrollLines() * _LINE_PIXELS)
        self.bar.setValue(self.bar.value() - step)
        event.accept()


class RichText(QWidget):
    """The rendered HTML of a message (or of a part of a streamed answer), block by block.

    ``text()`` is the HTML given to ``setText`` (the blocks are how it is shown); a new text
    updates the blocks that changed only, so a streamed answer's flush lays out its last block.
    Signals: ``linkActivated(str)`` (any block's link)."""

    linkActivated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._markup = ""
        flag = Qt.TextInteractionFlag
        self._flags = flag.TextSelectableByMouse | flag.LinksAccessibleByMouse
        self.blocks: list[SideScroll] = []
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(0)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)

    def text(self) -> str:
        return self._markup

    def setText(self, markup: str) -> None:
        if markup == self._markup:
            return
        self._markup = markup
        parts = split_blocks(markup)
        for i, (kind, part) in enumerate(parts):
            if i < len(self.blocks) and self.blocks[i].kind == kind:
                self.blocks[i].set_markup(part)
                continue
            block = SideScroll(kind, self._flags, self)
            block.label.setOpenExternalLinks(False)
            block.label.linkActivated.connect(self.linkActivated)
            block.set_markup(part)
            if i < len(self.blocks):
                self._drop(self.blocks[i])
                self.blocks[i] = block
            else:
                self.blocks.append(block)
            self._layout.insertWidget(i, block)
            block.show()  # now, not at the next turn of the event loop (the layout's own way)
        for block in self.blocks[len(parts) :]:
            self._drop(block)
        del self.blocks[len(parts) :]
        self.updateGeometry()

    def _drop(self, block: SideScroll) -> None:
        self._layout.removeWidget(block)
        block.hide()
        block.deleteLater()

    def setTextInteractionFlags(self, flags: Qt.TextInteractionFlag) -> None:
        self._flags = flags
        for block in self.blocks:
            block.label.setTextInteractionFlags(flags)

    def textInteractionFlags(self) -> Qt.TextInteractionFlag:
        return self._flags
