"""Does every text of a window fit the widget that shows it? A check of geometry, not of pixels.

:func:`cut_texts` walks the visible labels, buttons and check boxes of a window and compares what
their text needs (the font's metrics, the label's own height for its width) with the rectangle the
layout gave them, and with the rectangles of their ancestors (a label pushed past its parent's edge
is cut too). A text is fine when it fits, when it wraps into enough height, or when it is elided
with "…" and its tooltip holds the whole text. Inside a scroll area the viewport is the limit
sideways only: scrolling down reaches the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontMetrics, QTextDocument
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QCheckBox,
    QGroupBox,
    QLabel,
    QPushButton,
    QRadioButton,
    QStyle,
    QStyleOptionButton,
    QToolButton,
    QWidget,
)

from app.gui.widgets import ElidedLabel, ToggleSwitch

#: pixels a text may exceed its rectangle by (rounding of fractional font metrics)
SLACK = 1
ELLIPSIS = "…"


@dataclass(frozen=True)
class Cut:
    """One text that does not fit: the widget, its text and why."""

    widget: QWidget
    text: str
    why: str

    def __str__(self) -> str:
        name = self.widget.objectName() or type(self.widget).__name__
        owner = self.widget.parentWidget()
        while owner is not None and not owner.objectName():
            owner = owner.parentWidget()
        where = f" in {owner.objectName()}" if owner is not None else ""
        return f"{name}{where}: {self.text[:70]!r}: {self.why}"


def _plain(text: str) -> str:
    """A button's text as drawn: "&&" is "&", a single "&" marks the mnemonic."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def _is_rich(label: QLabel) -> bool:
    fmt = label.textFormat()
    if fmt == Qt.TextFormat.RichText:
        return True
    return fmt == Qt.TextFormat.AutoText and GuiQt.mightBeRichText(label.text())


def _elided(label: QLabel) -> bool:
    """Shown shortened with "…", the whole text in its tooltip."""
    shown, tip = QLabel.text(label), label.toolTip()  # (an ElidedLabel's text() is its whole text)
    whole = label.text() if isinstance(label, ElidedLabel) else tip
    return shown.endswith(ELLIPSIS) and len(shown) < len(whole) and whole in tip


def _text_rect(label: QLabel) -> QRect:
    """Where a label draws its text: its contents less its margin and indent."""
    rect = label.contentsRect().adjusted(label.margin(), label.margin(), -label.margin(), -label.margin())
    indent = label.indent()
    if indent < 0 and label.frameWidth() > 0:
        indent = label.fontMetrics().horizontalAdvance("x") // 2
    if indent > 0:
        align = label.alignment()
        if align & Qt.AlignmentFlag.AlignLeft:
            rect.setLeft(rect.left() + indent)
        elif align & Qt.AlignmentFlag.AlignRight:
            rect.setRight(rect.right() - indent)
    return rect


def _label_cut(label: QLabel) -> str:
    text = QLabel.text(label)  # what is drawn
    rect = _text_rect(label)
    metrics = label.fontMetrics()
    if isinstance(label, ElidedLabel) and text != label.text() and not _elided(label):
        return "shortened without its whole text in the tooltip"
    if label.wordWrap():
        need = label.heightForWidth(label.width())
        if need > label.height() + SLACK:
            return f"wraps to {need} px, has {label.height()} px"
        if _is_rich(label):
            doc = QTextDocument()
            doc.setDefaultFont(label.font())
            doc.setDocumentMargin(0)
            doc.setHtml(text)
            doc.setTextWidth(rect.width())  # a run that cannot break makes a line wider than this
            widest = doc.idealWidth()
        else:
            widest = metrics.boundingRect(
                QRect(0, 0, rect.width(), 1 << 20), int(Qt.TextFlag.TextWordWrap), text
            ).width()
        if widest > rect.width() + SLACK:
            return f"a word needs {widest:.0f} px, has {rect.width()} px"
        return ""
    if _is_rich(label):
        doc = QTextDocument()
        doc.setDefaultFont(label.font())
        doc.setDocumentMargin(0)
        doc.setHtml(text)
        width, height = doc.idealWidth(), doc.size().height()
    else:
        lines = text.split("\n")
        width = max(metrics.horizontalAdvance(line) for line in lines)
        height = metrics.height() + (len(lines) - 1) * metrics.lineSpacing()
    shortened = " (elided)" if _elided(label) else " (neither wrapped nor elided)"
    if width > rect.width() + SLACK:
        return f"needs {width:.0f} px wide, has {rect.width()} px{shortened}"
    if height > rect.height() + SLACK:
        return f"needs {height:.0f} px tall, has {rect.height()} px"
    return ""


def _button_cut(button: QAbstractButton) -> str:
    text = _plain(button.text())
    metrics = QFontMetrics(button.font())
    width = metrics.horizontalAdvance(text)
    if isinstance(button, ToggleSwitch):
        room = button.width() - button._TRACK_W - 8
    elif isinstance(button, (QCheckBox, QRadioButton)):
        opt = QStyleOptionButton()
        button.initStyleOption(opt)
        element = (
            QStyle.SubElement.SE_CheckBoxContents
            if isinstance(button, QCheckBox)
            else QStyle.SubElement.SE_RadioButtonContents
        )
        room = button.style().subElementRect(element, opt, button).width()
        if not button.icon().isNull():
            room -= button.iconSize().width() + 4
    elif isinstance(button, QPushButton):
        opt = QStyleOptionButton()
        button.initStyleOption(opt)
        room = button.style().subElementRect(QStyle.SubElement.SE_PushButtonContents, opt, button).width()
        if not button.icon().isNull():
            room -= button.iconSize().width() + 4
        if button.menu() is not None:
            room -= button.style().pixelMetric(QStyle.PixelMetric.PM_MenuButtonIndicator, opt, button)
    elif isinstance(button, QToolButton):
        # a tool button elides a text it has no room for: fine when its tooltip says it whole
        if button.width() + SLACK >= button.sizeHint().width():
            return ""
        if text and text in button.toolTip():
            return ""
        return f"needs {button.sizeHint().width()} px wide, has {button.width()} px (elided, no tooltip)"
    else:
        room = button.width()
    if width > room + SLACK:
        return f"needs {width} px wide, has {room} px"
    if metrics.height() > button.height() + SLACK:
        return f"needs {metrics.height()} px tall, has {button.height()} px"
    return ""


def _group_cut(box: QGroupBox) -> str:
    need = box.fontMetrics().horizontalAdvance(_plain(box.title())) + 16
    return f"title needs {need} px wide, has {box.width()} px" if need > box.width() + SLACK else ""


def _outside(widget: QWidget, window: QWidget) -> str:
    """Why part of ``widget`` lies outside an ancestor that shows it ("" when inside all)."""
    rect = widget.rect()
    child: QWidget = widget
    parent = widget.parentWidget()
    while parent is not None:
        rect = QRect(child.mapTo(parent, rect.topLeft()), rect.size())
        area = parent.parentWidget()
        if isinstance(area, QAbstractScrollArea) and parent is area.viewport():
            sideways = area.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff
            if sideways and (rect.left() < -SLACK or rect.right() > parent.width() + SLACK):
                return f"past the side of its scroll area ({rect.left()}..{rect.right()} of {parent.width()})"
            return ""  # scrolling reaches the rest
        bounds = parent.rect().adjusted(-SLACK, -SLACK, SLACK, SLACK)
        if not bounds.contains(rect):
            name = parent.objectName() or type(parent).__name__
            box = f"{rect.x()},{rect.y()} {rect.width()}x{rect.height()}"
            return f"reaches past {name} ({box} in {parent.width()}x{parent.height()})"
        if parent is window:
            return ""
        child, parent = parent, parent.parentWidget()
    return ""


def _shown(widget: QWidget, window: QWidget) -> bool:
    return widget.window() is window and widget.isVisible() and widget.width() > 0 and widget.height() > 0


def shown_texts(window: QWidget) -> list[QWidget]:
    """The visible labels, buttons, check boxes and group boxes of ``window`` that show a text."""
    found: list[QWidget] = []
    for widget in [window, *window.findChildren(QWidget)]:
        if not _shown(widget, window):
            continue
        if isinstance(widget, QLabel):
            if widget.text().strip() and widget.pixmap().isNull():
                found.append(widget)
        elif isinstance(widget, QAbstractButton):
            if widget.text().strip():
                found.append(widget)
        elif isinstance(widget, QGroupBox) and widget.title():
            found.append(widget)
    return found


def cut_texts(window: QWidget) -> list[Cut]:
    """Every visible text of ``window`` (a top-level widget) that does not fit."""
    cuts: list[Cut] = []
    for widget in shown_texts(window):
        if isinstance(widget, QLabel):
            text, why = widget.text(), _label_cut(widget)
        elif isinstance(widget, QAbstractButton):
            text, why = widget.text(), _button_cut(widget)
        else:
            assert isinstance(widget, QGroupBox)
            text, why = widget.title(), _group_cut(widget)
        why = why or _outside(widget, window)
        if why:
            cuts.append(Cut(widget, text, why))
    return cuts
