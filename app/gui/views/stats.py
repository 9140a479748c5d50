"""Per-answer statistics: a compact strip with a per-round acceptance chart, details on click."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.chat import AnswerStats, RoundPoint


class RoundChart(QWidget):
    """One thin bar per round: full height = drafted, filled part = accepted."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rounds: list[RoundPoint] = []
        self.setMinimumSize(90, 22)

    def sizeHint(self) -> QSize:
        return QSize(140, 22)

    def set_rounds(self, rounds: list[RoundPoint]) -> None:
        self.rounds = rounds
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(self.rect()).adjusted(1, 2, -1, -2)
        drafted = [r for r in self.rounds if r.drafted > 0]
        if not drafted:
            p.setPen(QColor("#c3c8cf"))
            p.drawLine(rect.bottomLeft(), rect.bottomRight())
            p.end()
            return
        shown = drafted[-int(rect.width() // 3) :]
        peak = max(r.drafted for r in shown)
        w = rect.width() / len(shown)
        for i, r in enumerate(shown):
            x = rect.left() + i * w
            full = rect.height() * r.drafted / peak
            got = rect.height() * r.accepted / peak
            bar = max(1.0, w - 1)
            p.fillRect(QRectF(x, rect.bottom() - full, bar, full), QColor("#e3e7ee"))
            if got > 0:
                p.fillRect(QRectF(x, rect.bottom() - got, bar, got), QColor("#3f9e6a"))
        p.end()


def _fmt(value: float | None, pattern: str) -> str:
    return "—" if value is None else pattern.format(value)


class StatsStrip(QFrame):
    """Signal: ``detailsRequested()`` when clicked."""

    detailsRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statsStrip")
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(8, 3, 8, 3)
        lay.setSpacing(12)
        self.tps = QLabel()
        self.ttft = QLabel()
        self.rounds = QLabel()
        self.acceptance = QLabel()
        self.mean_len = QLabel()
        self.chart = RoundChart()
        for w in (self.tps, self.ttft, self.rounds, self.acceptance, self.mean_len):
            lay.addWidget(w)
        lay.addStretch(1)
        lay.addWidget(self.chart)
        self.stats: AnswerStats | None = None
        self.retranslate()

    def set_stats(self, stats: AnswerStats) -> None:
        self.stats = stats
        self.retranslate()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.detailsRequested.emit()
        super().mouseReleaseEvent(event)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        s = self.stats
        self.setToolTip(self.tr("Click for per-round details"))
        if s is None:
            for w in (self.tps, self.ttft, self.rounds, self.acceptance, self.mean_len):
                w.setText("")
            return
        self.tps.setText(self.tr("{value} tok/s").format(value=f"{s.decode_tps:.1f}"))
        self.ttft.setText(self.tr("first token {value}").format(value=_fmt(s.ttft_ms, "{:.0f} ms")))
        self.rounds.setText(self.tr("{n} rounds").format(n=s.rounds))
        rate = s.acceptance_rate
        self.rounds.setVisible(rate is not None)
        if rate is None:
            self.acceptance.setText(self.tr("no speculation"))
            self.mean_len.setText("")
            self.chart.hide()
        else:
            self.acceptance.setText(self.tr("{value} accepted").format(value=f"{rate * 100:.0f}%"))
            self.mean_len.setText(
                self.tr("{value} tokens/round").format(value=_fmt(s.mean_accepted_length, "{:.2f}"))
            )
            self.chart.show()
            self.chart.set_rounds(s.per_round)
        self.acceptance.setToolTip(self.tr("Share of drafted tokens the model accepted"))
        self.mean_len.setToolTip(self.tr("Tokens produced per verification round: accepted drafts plus one"))
        self.chart.setToolTip(self.tr("Per-round acceptance: grey = drafted, green = accepted"))


class StatsDialog(QDialog):
    def __init__(self, stats: AnswerStats, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Answer statistics"))
        self.setMinimumSize(420, 420)
        lay = QVBoxLayout(self)
        form = QFormLayout()
        rate = stats.acceptance_rate
        rows = [
            (self.tr("Decode speed"), self.tr("{value} tok/s").format(value=f"{stats.decode_tps:.2f}")),
            (self.tr("Time to first token"), _fmt(stats.ttft_ms, "{:.0f} ms")),
            (self.tr("Total time"), f"{stats.total_ms / 1000:.2f} s"),
            (self.tr("Prompt tokens"), str(stats.prompt_tokens)),
            (self.tr("Completion tokens"), str(stats.completion_tokens)),
            (self.tr("Rounds"), str(stats.rounds)),
            (self.tr("Drafted / accepted"), f"{stats.drafted} / {stats.accepted}"),
            (self.tr("Acceptance rate"), _fmt(None if rate is None else rate * 100, "{:.1f}%")),
            (self.tr("Mean tokens per round"), _fmt(stats.mean_accepted_length, "{:.2f}")),
            (self.tr("Speculation"), stats.speculation or self.tr("off")),
            (self.tr("Finish reason"), stats.finish_reason),
        ]
        for label, value in rows:
            v = QLabel(value)
            v.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            form.addRow(label, v)
        lay.addLayout(form)
        table = QTableWidget(len(stats.per_round), 3)
        table.setHorizontalHeaderLabels([self.tr("Round"), self.tr("Drafted"), self.tr("Accepted")])
        table.verticalHeader().hide()
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        for i, r in enumerate(stats.per_round):
            for col, number in enumerate((i + 1, r.drafted, r.accepted)):
                item = QTableWidgetItem(str(number))
                item.setFlags(Qt.ItemFlag.ItemIsEnabled)
                table.setItem(i, col, item)
        lay.addWidget(table, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
