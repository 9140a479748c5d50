"""Small reusable widgets: a toggle switch, an inline message line, section headers, a flow layout."""

from __future__ import annotations

from PySide6.QtCore import Property, QPoint, QPropertyAnimation, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QHideEvent, QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QLabel,
    QLayout,
    QLayoutItem,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
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
    return QSize(width, layout.totalHeightForWidth(width))


def fit_dialog_height(dialog: QWidget) -> None:
    """Resize a shown dialog to the height its contents need at its current width, so showing or
    hiding a message neither clips text nor leaves a gap. Top-level windows do not follow their
    layout's height-for-width on their own."""
    layout = dialog.layout()
    if layout is None or not dialog.isVisible():
        return
    layout.invalidate()
    layout.activate()
    if layout.hasHeightForWidth():
        dialog.resize(dialog.width(), layout.totalHeightForWidth(dialog.width()))


class ElidedLabel(QLabel):
    """A one-line label that elides with "…" instead of clipping or forcing the layout wider."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = text
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(40)
        self.setText(text)

    def setText(self, text: str) -> None:
        self._full = text
        self.setToolTip(text)
        self._elide()

    def full_text(self) -> str:
        return self._full

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        shown = self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight, max(self.width(), 40))
        super().setText(shown)


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


def bind_range(box: QSpinBox | QDoubleSpinBox, bound: Bound) -> None:
    """Give a field the range and step of its row in the one table of limits (app.core.limits)."""
    if isinstance(box, QDoubleSpinBox):
        box.setRange(bound.smallest, bound.maximum)
        box.setSingleStep(bound.step)
    else:
        box.setRange(int(bound.smallest), int(bound.maximum))
