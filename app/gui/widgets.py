"""Small reusable widgets: a toggle switch, an inline message line, section headers, a flow layout."""

from __future__ import annotations

from PySide6.QtCore import (
    Property,
    QEvent,
    QObject,
    QPoint,
    QPropertyAnimation,
    QRect,
    QRectF,
    QSize,
    Qt,
    QTimer,
)
from PySide6.QtGui import (
    QColor,
    QFontMetrics,
    QHideEvent,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QLabel,
    QLayout,
    QLayoutItem,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
    QWidgetItem,
)

from app.core.limits import Bound


class ToggleSwitch(QCheckBox):
    """A checkbox drawn as a switch; text is painted to the right like a checkbox label."""

    _TRACK_W = 34
    _TRACK_H = 18

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self._pos = 0.0
        self._anim = QPropertyAnimation(self, b"knob", self)
        self._anim.setDuration(120)
        self.toggled.connect(self._on_toggled)

    def _get_knob(self) -> float:
        return self._pos

    def _set_knob(self, value: float) -> None:
        self._pos = value
        self.update()

    knob = Property(float, _get_knob, _set_knob)

    def _on_toggled(self, checked: bool) -> None:
        self._anim.stop()
        if self.isVisible():
            self._anim.setStartValue(self._pos)
            self._anim.setEndValue(1.0 if checked else 0.0)
            self._anim.start()
        else:
            self._set_knob(1.0 if checked else 0.0)

    def hideEvent(self, event: QHideEvent) -> None:
        self._anim.stop()
        self._pos = 1.0 if self.isChecked() else 0.0
        super().hideEvent(event)

    def sizeHint(self) -> QSize:
        fm = self.fontMetrics()
        w = self._TRACK_W + 8 + fm.horizontalAdvance(self.text())
        return QSize(w, max(self._TRACK_H + 4, fm.height() + 4))

    def hitButton(self, pos: QPoint) -> bool:
        return bool(self.rect().contains(pos))

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        y = (self.height() - self._TRACK_H) / 2
        track = QRectF(0, y, self._TRACK_W, self._TRACK_H)
        on = QColor("#2f6fde") if self.isEnabled() else QColor("#9db6e6")
        off = QColor("#c3c8cf") if self.isEnabled() else QColor("#e1e4e8")
        mix = self._pos
        color = QColor(
            int(off.red() + (on.red() - off.red()) * mix),
            int(off.green() + (on.green() - off.green()) * mix),
            int(off.blue() + (on.blue() - off.blue()) * mix),
        )
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(color)
        p.drawRoundedRect(track, self._TRACK_H / 2, self._TRACK_H / 2)
        d = self._TRACK_H - 4
        x = 2 + (self._TRACK_W - d - 4) * mix
        p.setBrush(QColor("white"))
        p.drawEllipse(QRectF(x, y + 2, d, d))
        p.setPen(self.palette().color(self.foregroundRole()))
        text_rect = self.rect().adjusted(self._TRACK_W + 8, 0, 0, 0)
        p.drawText(text_rect, int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft), self.text())
        if self.hasFocus():
            p.setPen(QColor("#2f6fde"))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(track.adjusted(-1, -1, 1, 1), self._TRACK_H / 2, self._TRACK_H / 2)
        p.end()


class InlineMessage(QLabel):
    """A wrapped line under a field: ``error`` (red), ``info`` (blue) or ``warn`` (amber)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        # Preferred, not Minimum: with Minimum the height QLabel guesses at a narrow width would be
        # the minimum, and dialogs grew gaps around two-line messages.
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hide()

    def show_message(self, text: str, kind: str = "info") -> None:
        self.setProperty("kind", kind)
        self.setObjectName("inlineMessage")
        self.style().unpolish(self)
        self.style().polish(self)
        self.setText(text)
        self.setVisible(bool(text))

    def clear_message(self) -> None:
        self.setText("")
        self.hide()

    def minimumSizeHint(self) -> QSize:
        """One line: QLabel's own guess wraps at a narrow width, so a two-line message asked for
        five lines of minimum height and forced gaps into dialogs. Layouts that support
        height-for-width (and :func:`fit_dialog_height`) give it its real height."""
        hint = super().minimumSizeHint()
        return QSize(hint.width(), min(hint.height(), self.fontMetrics().lineSpacing() + 2))


def field_with_note(field: QWidget, note: QWidget) -> QWidget:
    """A form field with its message right under it, as one cell: a separate form row for the
    message leaves gaps around it (the row's empty label still takes the row spacing, and the
    wrapped text's height is guessed at the wrong width)."""
    box = QWidget()
    lay = QVBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    lay.setSpacing(4)
    lay.addWidget(field)
    lay.addWidget(note)
    return box


def height_for_width_hint(widget: QWidget, hint: QSize) -> QSize:
    """``hint`` with its height computed at its width (at least the widget's minimum width):
    the height wrapped texts really need, where ``sizeHint`` guesses at another width."""
    layout = widget.layout()
    width = max(hint.width(), widget.minimumWidth())
    if layout is None or not layout.hasHeightForWidth():
        return QSize(width, hint.height())
    height = layout.totalHeightForWidth(width)
    cap = screen_height_cap(widget) if widget.isWindow() else None
    return QSize(width, height if cap is None else min(height, cap))


#: What a dialog leaves of its screen's height for the window manager's title bar and the panels
#: it does not report (a dialog taller than this scrolls its body instead of leaving the screen).
SCREEN_MARGIN = 48


def screen_height_cap(widget: QWidget) -> int | None:
    """The tallest a top-level window may be on ``widget``'s screen (None: no screen known)."""
    screen = widget.screen()
    if screen is None:
        return None
    return max(200, screen.availableGeometry().height() - SCREEN_MARGIN)


def window_size_for_screen(window: QWidget, preferred: QSize) -> QSize:
    """``preferred``, made small enough for ``window``'s screen (its available area less the
    window manager's title bar, :data:`SCREEN_MARGIN`), never below the window's minimum size."""
    screen, cap = window.screen(), screen_height_cap(window)
    if screen is None or cap is None:
        return preferred
    least = window.minimumSize()
    return QSize(
        max(least.width(), min(preferred.width(), screen.availableGeometry().width() - SCREEN_MARGIN // 2)),
        max(least.height(), min(preferred.height(), cap)),
    )


def fitted_height(dialog: QWidget) -> int | None:
    """The height ``dialog``'s contents need at its current width, at most its screen's
    :func:`screen_height_cap` (then a :class:`ScrollBody` in it scrolls); None without a
    height-for-width layout."""
    layout = dialog.layout()
    if layout is None or not layout.hasHeightForWidth():
        return None
    height = max(layout.totalHeightForWidth(dialog.width()), layout.totalMinimumSize().height())
    cap = screen_height_cap(dialog)
    return height if cap is None else min(height, cap)


def fit_dialog_height(dialog: QWidget) -> None:
    """Resize a shown dialog to the height its contents need at its current width, so showing or
    hiding a message neither clips text nor leaves a gap; never taller than its screen, and moved
    up where its bottom would leave it. Top-level windows do not follow their layout's
    height-for-width on their own."""
    layout = dialog.layout()
    if layout is None or not dialog.isVisible():
        return
    layout.invalidate()
    layout.activate()
    height = fitted_height(dialog)
    if height is None:
        return
    dialog.resize(dialog.width(), height)
    screen = dialog.screen()
    if screen is None:
        return
    avail = screen.availableGeometry()
    frame = dialog.frameGeometry()
    overflow = frame.top() + (frame.height() - dialog.height()) + height - avail.bottom()
    if overflow > 0 or frame.top() < avail.top():
        dialog.move(frame.left(), max(avail.top(), frame.top() - max(0, overflow)))


class KeepFitted(QObject):
    """Keeps a dialog at the height its contents need (see :func:`fit_dialog_height`) whenever they
    change: a message shown or hidden, a text that arrives later from a worker and wraps to more
    lines. Without it, each such change had to remember to re-fit, and one that did not (the local
    server key's note, read in the background) squeezed the rows above it and cut their text.

    Install with ``KeepFitted(dialog)``: it listens to the dialog's layout requests and, once the
    event loop has laid the dialog out, resizes it if its fitted height changed.
    """

    def __init__(self, dialog: QWidget) -> None:
        super().__init__(dialog)
        self._dialog = dialog
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._refit)
        dialog.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._dialog and event.type() in (QEvent.Type.LayoutRequest, QEvent.Type.Show):
            self._timer.start()
        return False

    def _refit(self) -> None:
        dialog = self._dialog
        if not dialog.isVisible():
            return
        height = fitted_height(dialog)  # the layout is up to date: the request was handled first
        if height is not None and height != dialog.height():
            fit_dialog_height(dialog)


#: the events after which a scroll area has decided on its scroll bars
_SCROLL_BAR_UPDATES = (
    QEvent.Type.Resize,
    QEvent.Type.LayoutRequest,
    QEvent.Type.Show,
    QEvent.Type.StyleChange,
)


class ScrollBody(QScrollArea):
    """A dialog's body that scrolls only when the screen is too short for it.

    Its height for a width is its contents' (so :func:`fit_dialog_height` gives the dialog exactly
    what the contents need where there is room); below that the dialog keeps its title and buttons
    and the body scrolls. Never scrolls sideways: the contents follow the dialog's width.
    """

    def __init__(self, body: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("scrollBody")
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._body = body  # before setWidget: the scroll area filters the body's events from then on
        self.setWidget(body)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        # the dialog's own background shows through: the body looks like the rest of the dialog
        self.viewport().setAutoFillBackground(False)
        body.setAutoFillBackground(False)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # the wheel scrolls the body; it changes a spin box or a list only once that has the focus
        # (else scrolling the form past a field would change the field's value on the way)
        for field in [*self._body.findChildren(QAbstractSpinBox), *self._body.findChildren(QComboBox)]:
            if field.property("_wheelGuarded") is None:
                field.setProperty("_wheelGuarded", True)
                field.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
                field.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # a row shown or hidden inside the body changes this area's height for a width: tell the
        # dialog's layout (a scroll area only updates its scroll bars on its own)
        if watched is self._body and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()
            handled = super().eventFilter(watched, event)  # the scroll area sets its bars
            self._drop_needless_bar()
            return handled
        elif (
            event.type() == QEvent.Type.Wheel
            and isinstance(watched, (QAbstractSpinBox, QComboBox))
            and not watched.hasFocus()
        ):  # (only the guarded fields: the scroll bars pass through this filter too)
            QApplication.sendEvent(self.verticalScrollBar(), event)
            return True
        return super().eventFilter(watched, event)

    def event(self, event: QEvent) -> bool:
        handled = super().event(event)
        if event.type() in _SCROLL_BAR_UPDATES:  # the scroll area has just set its bars
            self._drop_needless_bar()
        return handled

    def _drop_needless_bar(self) -> None:
        """Hide the vertical scroll bar when the contents fit without it. QScrollArea asks a
        height-for-width body its height at the width it has *beside* the bar: once the bar was
        shown (the area was short for a moment, e.g. before a text arrived), the narrower body
        wrapped to more lines and kept the bar, however tall the area grew."""
        bar = self.verticalScrollBar()
        if not bar.isVisibleTo(self) or not self._body.hasHeightForWidth():
            return
        room = self.maximumViewportSize()
        if self._body.heightForWidth(room.width()) <= room.height():
            policy = self.verticalScrollBarPolicy()
            self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # lays out without it
            self.setVerticalScrollBarPolicy(policy)

    def _content_height(self, width: int) -> int:
        body = self._body
        inner = width - 2 * self.frameWidth()
        if body.hasHeightForWidth():
            return body.heightForWidth(inner) + 2 * self.frameWidth()
        return body.sizeHint().height() + 2 * self.frameWidth()

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._content_height(width)

    def sizeHint(self) -> QSize:
        width = self._body.sizeHint().width() + 2 * self.frameWidth()
        return QSize(width, self._content_height(width))

    def minimumSizeHint(self) -> QSize:
        """Wide enough for the contents, a few lines tall: the rest scrolls."""
        bar = self.verticalScrollBar().sizeHint().width()
        width = self._body.minimumSizeHint().width() + 2 * self.frameWidth() + bar
        return QSize(width, 6 * self.fontMetrics().lineSpacing())


class ElidedLabel(QLabel):
    """A one-line label that elides with "…" instead of clipping or forcing the layout wider; its
    tooltip then holds the whole text (before any tooltip of its own, which it keeps).

    ``text()`` is the whole text, as set; what is drawn is :meth:`shown_text`. ``words``: shorten at
    a space, never inside a word (the status bar), unless not even the first word fits.
    ``stretchy``: ask the layout for the whole text's width and give way down to a few characters
    (beside other labels that share a row, each keeps what it needs while there is room);
    otherwise the width is the layout's to decide (the label never asks for more).
    """

    def __init__(
        self, text: str = "", parent: QWidget | None = None, *, words: bool = False, stretchy: bool = False
    ) -> None:
        super().__init__(parent)
        self._full = text
        self._tip = ""
        self._words = words
        self._stretchy = stretchy
        horizontal = QSizePolicy.Policy.Preferred if stretchy else QSizePolicy.Policy.Ignored
        self.setSizePolicy(horizontal, QSizePolicy.Policy.Preferred)
        if not stretchy:  # (a stretchy one's least width is its minimumSizeHint)
            self.setMinimumWidth(40)
        self.setText(text)

    def setText(self, text: str) -> None:
        self._full = text
        self._elide()
        if self._stretchy:
            self.updateGeometry()

    def text(self) -> str:
        """The whole text (what is drawn may be shortened: :meth:`shown_text`)."""
        return self._full

    def shown_text(self) -> str:
        return super().text()

    def is_elided(self) -> bool:
        return super().text() != self._full

    def setToolTip(self, tip: str) -> None:
        """The label's own explanation; the whole text goes before it while the text is elided."""
        self._tip = tip
        self._show_tip()

    def _show_tip(self) -> None:
        if self.is_elided() or (not self._tip and not self._stretchy):
            whole = self._full if not self._tip else f"{self._full}\n\n{self._tip}"
            super().setToolTip(whole)
        else:
            super().setToolTip(self._tip)

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        if not self._stretchy:
            return hint
        margins = self.contentsMargins()
        width = self.fontMetrics().horizontalAdvance(self._full) + margins.left() + margins.right()
        return QSize(width + 2 * (self.margin() + self._indent()) + 1, hint.height())

    def minimumSizeHint(self) -> QSize:
        """Narrow as its minimum width; a stretchy one keeps its first word and "…", or a dozen
        characters when that word is long (a label's name: "Model: …"), never more than its text."""
        hint = super().minimumSizeHint()
        if not self._stretchy:
            return QSize(self.minimumWidth(), hint.height())
        metrics = self.fontMetrics()
        first, _space, rest = self._full.partition(" ")
        shown = f"{first} …" if rest else first
        least = min(metrics.horizontalAdvance(shown), 12 * metrics.averageCharWidth())
        margins = self.contentsMargins()
        overhead = margins.left() + margins.right() + 2 * (self.margin() + self._indent()) + 1
        return QSize(min(least + overhead, self.sizeHint().width()), hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._elide()

    def _indent(self) -> int:
        """The room QLabel leaves before its text (with a frame, or the stylesheet's padding, which
        counts as one, it indents by half an "x")."""
        if self.indent() >= 0:
            return self.indent()
        return self.fontMetrics().horizontalAdvance("x") // 2 if self.frameWidth() > 0 else 0

    def _elide(self) -> None:
        metrics = self.fontMetrics()
        room = max(self.contentsRect().width() - 2 * self.margin() - self._indent(), 1)
        shown = elided(self._full, metrics, room, words=self._words)
        super().setText(shown)
        self._show_tip()


def elided(text: str, metrics: QFontMetrics, width: int, *, words: bool = False) -> str:
    """``text`` as it fits in ``width`` pixels: whole, or shortened with "…" at its end. With
    ``words`` it is shortened after a whole word, or a whole part of one ("smollm2-135m-…"), so no
    word is cut in two; only where that would leave no more than the first word (a label's name,
    "Model: …") is the next word shortened, still with "…"."""
    if metrics.horizontalAdvance(text) <= width:
        return text
    short = metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)
    if not words:
        return short
    cut = len(short.rstrip("…"))
    first = _name_end(text)
    for end in range(cut, first, -1):  # the longest whole part that fits, past the first word
        if text[end - 1] in "-/_" or (end < len(text) and text[end] == " "):
            kept = text[:end].rstrip()
            candidate = kept + (" …" if text[end - 1] not in "-/_" else "…")
            if end > first + 1 and metrics.horizontalAdvance(candidate) <= width:
                return candidate
    return short


def _name_end(text: str) -> int:
    """Where a label's first word ends: after its name's colon ("Model: ", or the full-width "："
    Chinese and Japanese write without a space after it), else at the first space."""
    for colon in (": ", "："):
        at = text.find(colon)
        if 0 < at < 16:
            return at + len(colon) - 1
    return text.find(" ")


class FlowLayout(QLayout):
    """Items left to right at their preferred size, wrapping to a new line when the width runs out.

    For rows of short figures (the statistics strip) whose total width depends on the language and
    the answer: they wrap instead of being squeezed and clipped. Hidden widgets take no space.
    """

    def __init__(self, parent: QWidget | None = None, h_spacing: int = 12, v_spacing: int = 2) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._h = h_spacing
        self._v = v_spacing
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._arrange(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def sizeHint(self) -> QSize:
        """Everything on one line."""
        shown = [i.sizeHint() for i in self._items if not i.isEmpty()]
        m = self.contentsMargins()
        width = sum(h.width() for h in shown) + self._h * max(0, len(shown) - 1)
        height = max((h.height() for h in shown), default=0)
        return QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    def minimumSize(self) -> QSize:
        """The widest item: anything narrower would clip it."""
        m = self.contentsMargins()
        width = max((i.sizeHint().width() for i in self._items if not i.isEmpty()), default=0)
        return QSize(width + m.left() + m.right(), self.heightForWidth(width + m.left() + m.right()))

    def _arrange(self, rect: QRect, move: bool) -> int:
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        x, y, line = area.x(), area.y(), 0
        for item in self._items:
            if item.isEmpty():
                continue
            hint = item.sizeHint()
            if x > area.x() and x + hint.width() > area.right() + 1:
                x, y, line = area.x(), y + line + self._v, 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + self._h
            line = max(line, hint.height())
        return y + line - rect.y() + m.bottom()


class PriorityRow(QLayout):
    """Widgets left to right at their preferred widths while the row has room; when it has not,
    the least important give way first, down to their least widths (:meth:`add` sets how
    important each is), so the one that matters most stays whole longest. For the status bar: the
    speculation in use stays readable while the model's name (also in the chat's header) shortens.
    Hidden widgets take no space."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[tuple[QLayoutItem, int]] = []
        self._gap = spacing
        self.setContentsMargins(0, 0, 0, 0)

    def add(self, widget: QWidget, importance: int) -> None:
        """Add ``widget`` at the row's end; a higher ``importance`` gives way later."""
        self.addChildWidget(widget)
        self._items.append((QWidgetItem(widget), importance))
        self.invalidate()

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append((item, 0))

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index][0] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index)[0] if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def _shown(self) -> list[tuple[QLayoutItem, int]]:
        return [(item, rank) for item, rank in self._items if not item.isEmpty()]

    def _total(self, sizes: list[QSize]) -> QSize:
        m = self.contentsMargins()
        width = sum(s.width() for s in sizes) + self._gap * max(0, len(sizes) - 1)
        height = max((s.height() for s in sizes), default=0)
        return QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    def sizeHint(self) -> QSize:
        return self._total([item.sizeHint() for item, _rank in self._shown()])

    def minimumSize(self) -> QSize:
        return self._total([item.minimumSize() for item, _rank in self._shown()])

    def widths(self, room: int) -> list[int]:
        """The width of each shown widget in a row ``room`` pixels wide (spacing left out)."""
        shown = self._shown()
        widths = [item.minimumSize().width() for item, _rank in shown]
        spare = room - self._gap * max(0, len(shown) - 1) - sum(widths)
        for index in sorted(range(len(shown)), key=lambda i: -shown[i][1]):
            more = min(max(spare, 0), max(0, shown[index][0].sizeHint().width() - widths[index]))
            widths[index] += more
            spare -= more
        return widths

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        area = rect.adjusted(*self._margins())
        x = area.x()
        for (item, _rank), width in zip(self._shown(), self.widths(area.width()), strict=True):
            item.setGeometry(QRect(x, area.y(), width, area.height()))
            x += width + self._gap

    def _margins(self) -> tuple[int, int, int, int]:
        m = self.contentsMargins()
        return m.left(), m.top(), -m.right(), -m.bottom()


def bind_range(box: QSpinBox | QDoubleSpinBox, bound: Bound) -> None:
    """Give a field the range and step of its row in the one table of limits (app.core.limits)."""
    if isinstance(box, QDoubleSpinBox):
        box.setRange(bound.smallest, bound.maximum)
        box.setSingleStep(bound.step)
    else:
        box.setRange(int(bound.smallest), int(bound.maximum))
