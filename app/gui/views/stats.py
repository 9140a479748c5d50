"""Per-answer statistics: a compact strip with a per-round acceptance chart, details on click.

A speculative answer also shows its speedup over plain decoding of the same model on this machine
(:attr:`AnswerStats.speedup`), coloured by verdict: speculation can be slower, and the strip says so.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication, QEvent, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core.chat import AnswerStats, RoundPoint
from app.core.engines.remote.acceptance import NOT_REPORTED
from app.core.launch.auto import OFF
from app.core.measure.baselines import MIN_TOKENS
from app.gui.style import is_dark
from app.gui.widgets import FlowLayout, screen_height_cap

#: a speedup inside [SLOWER, FASTER] is "about the same"; below SLOWER the strip warns
FASTER = 1.05
SLOWER = 0.95
MUCH_SLOWER = 0.8


class RoundChart(QWidget):
    """One thin bar per round: full height = drafted, filled part = accepted."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rounds: list[RoundPoint] = []
        self.setMinimumSize(90, 22)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

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
        dark = is_dark(self.palette())
        if not drafted:
            p.setPen(QColor("#4a5058" if dark else "#c3c8cf"))
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
            p.fillRect(QRectF(x, rect.bottom() - full, bar, full), QColor("#3a3f46" if dark else "#e3e7ee"))
            if got > 0:
                p.fillRect(QRectF(x, rect.bottom() - got, bar, got), QColor("#4fb57d" if dark else "#3f9e6a"))
        p.end()


_OFF_WORD = re.compile(r"(?<![\w-])off(?![\w-])")
_DEPTH = re.compile(r"(\d+)/round")


def configuration_text(label: str) -> str:
    """A speculation configuration's name as the window shows it ("off", "ngram-mod 64/round",
    "Auto: draft 4/round + ngram-mod 64/round"): "off" and "N/round" in the user's language; the
    methods keep the names the engines give them, and Auto is the feature's name in every language."""
    text = _OFF_WORD.sub(lambda _m: QCoreApplication.translate("Configuration", "off"), label)
    return _DEPTH.sub(
        lambda m: QCoreApplication.translate("Configuration", "{n}/round").format(n=m.group(1)), text
    )


def source_name(source: str) -> str:
    """Where a remote server's acceptance figures come from, in the user's language (the sources
    :mod:`app.core.engines.remote.acceptance` names; SGLang's ``meta_info`` and an unknown one as the engine
    wrote them)."""
    names = {
        "llama.cpp timings": QCoreApplication.translate("AcceptanceFigures", "llama.cpp timings"),
        "vLLM per-request metrics": QCoreApplication.translate(
            "AcceptanceFigures", "vLLM per-request metrics"
        ),
        "vLLM /metrics counters": QCoreApplication.translate("AcceptanceFigures", "vLLM /metrics counters"),
        NOT_REPORTED: QCoreApplication.translate(
            "AcceptanceFigures", "this server does not report acceptance"
        ),
    }
    return names.get(source, source)


#: the notes :mod:`app.core.engines.remote.acceptance` writes (an unknown one is shown as written)
_BLURRED = "server-wide counters read around the request; concurrent traffic on the server blurs them"
_VERIFY_COUNT = "accepted = completion_tokens - spec_verify_ct; drafted count not reported"


def note_text(note: str) -> str:
    """What a source leaves out (``acceptance_note``), in the user's language where known."""
    notes = {
        _BLURRED: QCoreApplication.translate(
            "AcceptanceFigures",
            "The counters are server-wide, read before and after this request: other requests running "
            "on the server at the same time are counted too.",
        ),
        _VERIFY_COUNT: QCoreApplication.translate(
            "AcceptanceFigures",
            "Accepted tokens are the completion tokens minus the verification passes; the server does "
            "not report how many tokens were drafted.",
        ),
    }
    return notes.get(note, note)


def remote_figures(stats: AnswerStats) -> tuple[str, str] | None:
    """(short text, explanation) of a remote server's acceptance figures, None for a local answer.

    The figures are the server's own: a figure it did not report is said so, never shown as 0.
    """
    source = stats.acceptance_source
    if not source:
        return None
    if source == NOT_REPORTED or not (stats.drafted_reported or stats.accepted_reported):
        return (
            QCoreApplication.translate("AcceptanceFigures", "this server does not report acceptance"),
            QCoreApplication.translate(
                "AcceptanceFigures",
                "The server sent no drafting figures with this answer, so Tandem shows none: it may run "
                "without a drafter, or be a kind of server that does not report them.",
            ),
        )
    where = QCoreApplication.translate("AcceptanceFigures", "As the server reported them: {source}.").format(
        source=source_name(source)
    )
    note = note_text(stats.acceptance_note)
    explanation = f"{where}\n{note}" if note else where
    if not stats.drafted_reported:
        short = QCoreApplication.translate(
            "AcceptanceFigures", "{n} draft tokens accepted (drafted not reported)"
        ).format(n=stats.accepted)
        return short, explanation
    return source_name(source), explanation


def drafted_accepted(stats: AnswerStats) -> str:
    """The details' "drafted / accepted" value: "not reported" for a figure a server left out."""
    missing = QCoreApplication.translate("AcceptanceFigures", "not reported")
    drafted = str(stats.drafted) if stats.drafted_reported else missing
    accepted = str(stats.accepted) if stats.accepted_reported else missing
    return f"{drafted} / {accepted}"


def ending_text(stats: AnswerStats) -> tuple[str, str]:
    """(the strip's words, their explanation) for an answer that was cut: it filled the model's
    context, or reached Max new tokens; ("", "") for one that ended otherwise."""
    ending = stats.ending
    if ending == "context":
        return QCoreApplication.translate("AnswerEnding", "context full"), QCoreApplication.translate(
            "AnswerEnding",
            "The answer stopped at the end of the model's context: the conversation and this answer "
            "take {used} tokens, before Max new tokens ({max}) was reached. Start a new chat, or "
            "load the model with a larger context length.",
        ).format(used=stats.prompt_tokens + stats.completion_tokens, max=stats.max_tokens)
    if ending == "max_tokens":
        return QCoreApplication.translate(
            "AnswerEnding", "Max new tokens reached"
        ), QCoreApplication.translate(
            "AnswerEnding",
            "The answer stopped at Max new tokens ({max}). Raise it in the conversation settings, "
            "or ask the model to go on.",
        ).format(max=stats.max_tokens)
    if ending == "length":
        return QCoreApplication.translate("AnswerEnding", "length limit reached"), QCoreApplication.translate(
            "AnswerEnding", "The answer stopped at Max new tokens or at the end of the model's context."
        )
    return "", ""


def finish_text(stats: AnswerStats) -> str:
    """The finish reason in words (the details dialog)."""
    ending = stats.ending
    if ending == "stop":
        return QCoreApplication.translate("AnswerEnding", "the model ended its answer")
    if ending == "cancelled":
        return QCoreApplication.translate("AnswerEnding", "stopped")
    if ending == "error":
        return QCoreApplication.translate("AnswerEnding", "an error stopped it")
    short, why = ending_text(stats)
    return f"{short}: {why}" if short else ending


def _fmt(value: float | None, pattern: str) -> str:
    return "—" if value is None else pattern.format(value)


def _rate(stats: AnswerStats) -> float | None:
    """Decode speed, or None when it was not measurable (stored as 0.0)."""
    return stats.decode_tps if stats.decode_tps > 0 else None


def speedup_verdict(speedup: float | None) -> str:
    """The stylesheet's ``verdict`` property for the speedup label."""
    if speedup is None:
        return "unknown"
    if speedup > FASTER:
        return "faster"
    if speedup < MUCH_SLOWER:
        return "much-slower"
    if speedup < SLOWER:
        return "slower"
    return "even"


def own_speedup_tip(stats: AnswerStats) -> str:
    """What an answer's own speedup compares, by where its plain step came from."""
    head = QCoreApplication.translate(
        "StatsStrip",
        "This answer against the same {n} tokens decoded without speculation, one plain step of the "
        "model per token, set against this answer's decode time.",
    ).format(n=stats.completion_tokens)
    how = {
        "own-steps": QCoreApplication.translate(
            "StatsStrip",
            "The plain step was measured during this answer, in its rounds that drafted nothing: "
            "another program's load moves both sides alike.",
        ),
        "cost-model": QCoreApplication.translate(
            "StatsStrip",
            "Each round is priced by what a round of this configuration and depth costs in plain "
            "steps on this machine, learned from earlier answers: another program's load does not "
            "move the figure.",
        ),
        "recent-steps": QCoreApplication.translate(
            "StatsStrip",
            "The plain step is the model's, measured in answers a moment before (this configuration's "
            "rounds are not priced yet).",
        ),
    }.get(stats.speedup_basis, "")
    return head + ("\n\n" + how if how else "")


def shows_speedup(stats: AnswerStats) -> bool:
    """Only finished speculative answers are compared (a stopped one is too short to judge)."""
    return bool(stats.speculation) and stats.finish_reason not in ("cancelled", "error")


class StatsStrip(QFrame):
    """Signals: ``detailsRequested()`` when clicked, ``measureRequested()`` from its Measure button
    (a speculative answer not measured yet: the chat reruns its prompt without speculation)."""

    detailsRequested = Signal()
    measureRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statsStrip")
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(8, 3, 8, 3)
        lay.setSpacing(12)
        # The figures wrap onto a second line when the bubble is narrow or the language is long.
        figures = QWidget()
        flow = FlowLayout(figures, h_spacing=12, v_spacing=2)
        self.tps = QLabel()
        self.ttft = QLabel()
        self.rounds = QLabel()
        self.acceptance = QLabel()
        self.mean_len = QLabel()
        #: where a remote server's figures come from ("llama.cpp timings", ...); hidden for local answers
        self.source = QLabel()
        self.source.setObjectName("acceptanceSource")
        self.source.setProperty("muted", True)
        self.speedup = QLabel()
        self.speedup.setObjectName("speedup")
        #: why a cut answer stopped (the context is full / Max new tokens); hidden otherwise
        self.ending = QLabel()
        self.ending.setObjectName("answerEnding")
        self.ending.setProperty("muted", True)
        self.chart = RoundChart()
        for w in self._figures():
            flow.addWidget(w)
        self.measure_btn = QToolButton()
        self.measure_btn.setAutoRaise(True)
        self.measure_btn.clicked.connect(self.measureRequested)
        self.measure_btn.hide()
        lay.addWidget(figures, 1)
        lay.addWidget(self.measure_btn, 0, Qt.AlignmentFlag.AlignVCenter)
        lay.addWidget(self.chart, 0, Qt.AlignmentFlag.AlignVCenter)
        self.stats: AnswerStats | None = None
        self.measuring = False
        self.retranslate()

    def _figures(self) -> tuple[QLabel, ...]:
        return (
            self.tps,
            self.ttft,
            self.rounds,
            self.acceptance,
            self.mean_len,
            self.source,
            self.speedup,
            self.ending,
        )

    def set_measuring(self, on: bool) -> None:
        self.measuring = on
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
            for w in self._figures():
                w.setText("")
            self.measure_btn.hide()
            return
        self.tps.setText(self.tr("{value} tok/s").format(value=_fmt(_rate(s), "{:.1f}")))
        self.ttft.setText(self.tr("first token {value}").format(value=_fmt(s.ttft_ms, "{:.0f} ms")))
        self.ttft.setToolTip(
            ""
            if not s.images
            else self.tr("Includes encoding the image")
            if s.images == 1
            else self.tr("Includes encoding the {n} images").format(n=s.images)
        )
        self.rounds.setText(self.tr("{n} rounds").format(n=s.rounds))
        drafting = sum(1 for r in s.per_round if r.drafted > 0 or not r.drafted_known)
        self.rounds.setToolTip(
            self.tr(
                "Passes of the model for this answer: {drafting} verified a draft, {plain} gave one "
                "token without one"
            ).format(drafting=drafting, plain=max(0, s.rounds - drafting))
            if s.per_round
            else ""
        )
        rate = s.acceptance_rate
        self.rounds.setVisible(rate is not None)
        self.mean_len.setVisible(rate is not None)  # an empty label would still take a gap
        remote = remote_figures(s)  # a remote server's own figures, and where they come from
        acceptance_tip = self.tr("Share of drafted tokens the model accepted")
        if rate is None:
            if remote is not None and (s.acceptance_source == NOT_REPORTED or not s.drafted_reported):
                self.acceptance.setText(remote[0])  # not reported: said so, never 0
                acceptance_tip = remote[1]
            elif s.speculation and s.speculation.rpartition(": ")[2] != OFF.label:  # not "Auto: off"
                # speculation ran but proposed nothing (an n-gram method finds no repeat in a
                # first answer): "no speculation" read as if it were off
                self.acceptance.setText(self.tr("nothing drafted"))
                acceptance_tip = self.tr(
                    "Speculation was on ({method}) but proposed no draft for this answer: a "
                    "model-free method drafts only where the text repeats what it has seen, a "
                    "drafter only where it is sure enough"
                ).format(method=s.speculation)
            else:
                self.acceptance.setText(self.tr("no speculation"))
            self.mean_len.setText("")
            self.chart.hide()
        else:
            self.acceptance.setText(self.tr("{value} accepted").format(value=f"{rate * 100:.0f}%"))
            if s.accepted_reported and s.completion_tokens > 0:
                share = f"{min(1.0, s.accepted / s.completion_tokens) * 100:.0f}%"
                self.acceptance.setText(
                    self.tr("{share} of the answer drafted, {value} accepted").format(
                        value=f"{rate * 100:.0f}%", share=share
                    )
                )
                acceptance_tip += "\n" + self.tr(
                    "{share} of the answer's tokens came from accepted drafts: for a model-free "
                    "method, text it copied from the conversation and its documents"
                ).format(share=share)
            self.mean_len.setText(
                self.tr("{value} tokens/round").format(value=_fmt(s.mean_accepted_length, "{:.2f}"))
            )
            self.chart.setVisible(bool(s.per_round))
            self.chart.set_rounds(s.per_round)
            if remote is not None:
                acceptance_tip += "\n\n" + remote[1]
        shows_source = remote is not None and rate is not None
        self.source.setVisible(shows_source)
        self.source.setText(
            self.tr("from {source}").format(source=source_name(s.acceptance_source)) if shows_source else ""
        )
        self.source.setToolTip(remote[1] if remote is not None else "")
        self.acceptance.setToolTip(acceptance_tip)
        self.mean_len.setToolTip(
            self.tr(
                "Mean tokens emitted per drafting round: the accepted drafts plus the model's own "
                "token, fewer when the answer ended inside the round"
            )
        )
        self.chart.setToolTip(
            self.tr("Per round: bar height = the depth drafted in that round, green = accepted")
        )
        self._show_speedup(s)
        short, why = ending_text(s)
        self.ending.setText(short)
        self.ending.setToolTip(why)
        self.ending.setVisible(bool(short))

    def _show_speedup(self, s: AnswerStats) -> None:
        self.speedup.setVisible(shows_speedup(s))
        self.measure_btn.setVisible(shows_speedup(s) and (s.measured_tps is None or self.measuring))
        self.measure_btn.setEnabled(not self.measuring)
        self.measure_btn.setText(self.tr("Measuring…") if self.measuring else self.tr("Measure"))
        self.measure_btn.setToolTip(
            self.tr(
                "Run this prompt again without speculation (same settings, on a plain copy of the model "
                "loaded for the measurement) and show the direct speedup of this answer"
            )
        )
        speedup = s.speedup
        verdict = speedup_verdict(speedup)
        if s.speedup_basis == "nothing-drafted":
            # plain decoding: no claim (the strip already says nothing was drafted)
            self.speedup.setVisible(False)
            self.measure_btn.setVisible(False)
            self.speedup.setText("")
            self.speedup.setToolTip(
                self.tr(
                    "This answer drafted nothing: every token was decoded as without speculation, so "
                    "it claims no speedup."
                )
            )
        elif speedup is None:
            self.speedup.setText(self.tr("speedup: not measured"))
            self.speedup.setToolTip(
                self.tr(
                    "Tandem has not seen this model answer without speculation on this machine yet. "
                    "Click Measure to run this prompt without speculation, or get one plain answer of at "
                    "least {n} tokens: later answers then show the speedup automatically."
                ).format(n=MIN_TOKENS)
            )
        else:
            if s.own_speedup is not None:
                self.speedup.setText(self.tr("{value}× vs plain").format(value=f"{speedup:.2f}"))
                tip = own_speedup_tip(s)
            elif s.measured_tps is not None:
                self.speedup.setText(self.tr("{value}× vs plain, measured").format(value=f"{speedup:.2f}"))
                tip = self.tr(
                    "Measured: the same prompt without speculation decoded at {plain} tok/s on this "
                    "machine; this answer at {spec} tok/s."
                ).format(plain=f"{s.measured_tps:.1f}", spec=f"{s.decode_tps:.1f}")
            else:
                self.speedup.setText(self.tr("{value}× vs plain").format(value=f"{speedup:.2f}"))
                tip = self.tr(
                    "Decode speed compared with this model without speculation on this machine: "
                    "{baseline} tok/s, the median of its recent plain answers (samples: {n}). "
                    "Approximate, since the prompts differ; `tandem bench` measures both side by side."
                ).format(baseline=f"{s.baseline_tps or 0:.1f}", n=s.baseline_samples)
            if verdict in ("slower", "much-slower"):
                tip += "\n\n" + self.tr(
                    "Speculation is slower than plain decoding here: try fewer draft tokens per round, "
                    "or launch the model without speculation."
                )
            self.speedup.setToolTip(tip)
        if self.speedup.property("verdict") != verdict:
            self.speedup.setProperty("verdict", verdict)
            self.speedup.style().unpolish(self.speedup)
            self.speedup.style().polish(self.speedup)


class StatsDialog(QDialog):
    def _ttft(self, stats: AnswerStats) -> str:
        """The time to first token; with images in the prompt it says that it includes encoding them."""
        if not stats.images or stats.ttft_ms is None:
            return _fmt(stats.ttft_ms, "{:.0f} ms")
        ms = f"{stats.ttft_ms:.0f}"
        if stats.images == 1:
            return self.tr("{ms} ms, including encoding the image").format(ms=ms)
        return self.tr("{ms} ms, including encoding {n} images").format(ms=ms, n=stats.images)

    def __init__(self, stats: AnswerStats, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Answer statistics"))
        self.setMinimumSize(420, 480)
        lay = QVBoxLayout(self)
        form = QFormLayout()
        rate = stats.acceptance_rate
        rows = [
            (self.tr("Decode speed"), self.tr("{value} tok/s").format(value=_fmt(_rate(stats), "{:.2f}"))),
            (self.tr("Time to first token"), self._ttft(stats)),
            (self.tr("Total time"), f"{stats.total_ms / 1000:.2f} s"),
            (self.tr("Prompt tokens"), str(stats.prompt_tokens)),
            (self.tr("Completion tokens"), str(stats.completion_tokens)),
            (self.tr("Rounds"), str(stats.rounds)),
            (self.tr("Drafted / accepted"), drafted_accepted(stats)),
            (self.tr("Acceptance rate"), _fmt(None if rate is None else rate * 100, "{:.1f}%")),
            (self.tr("Mean tokens per drafting round"), _fmt(stats.mean_accepted_length, "{:.2f}")),
            (self.tr("Speculation"), stats.speculation or self._no_label(stats)),
            (self.tr("Finish reason"), finish_text(stats)),
        ]
        remote = remote_figures(stats)
        if remote is not None:  # the server's own figures: where they come from, what they leave out
            rows.append((self.tr("Acceptance figures"), remote[1]))
        if shows_speedup(stats):
            rows += self._speedup_rows(stats)
        if stats.alternatives:
            rows.append((self.tr("Every configuration on this answer"), self._alternatives(stats)))
        for label, value in rows:
            v = QLabel(value)
            v.setWordWrap(True)
            v.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            form.addRow(label, v)
        lay.addLayout(form)
        if shows_speedup(stats) and stats.own_speedup is None:
            note = QLabel(
                self.tr(
                    "The plain speed is the median of this model's recent answers without speculation "
                    "on this machine. Approximate, since the prompts differ; `tandem bench` measures "
                    "both side by side."
                )
                if stats.baseline_tps is not None or stats.measured_tps is not None
                else self.tr(
                    "Relaunch the model with speculation off and get one answer: Tandem then compares "
                    "speculative answers with it automatically."
                )
            )
            note.setWordWrap(True)
            note.setProperty("muted", True)
            lay.addWidget(note)
        table = QTableWidget(len(stats.per_round), 4)
        # the depth can change from round to round: the column says what each used
        titles = [self.tr("Round"), self.tr("Depth (drafted)"), self.tr("Accepted"), self.tr("Emitted")]
        table.setHorizontalHeaderLabels(titles)
        table.verticalHeader().hide()
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        # every column at least as wide as its title (seen: "Depth (drafted)" cut to "pth (drafte")
        metrics = header.fontMetrics()
        widest = max(metrics.horizontalAdvance(t) for t in titles) + 24
        header.setMinimumSectionSize(widest)
        table.setMinimumWidth(widest * table.columnCount() + table.verticalScrollBar().sizeHint().width() + 4)
        # room for several rounds at once, and no focus frame on a cell nobody selected
        table.setMinimumHeight(header.sizeHint().height() + 6 * table.verticalHeader().defaultSectionSize())
        table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        for i, r in enumerate(stats.per_round):
            for col, number in enumerate((i + 1, r.drafted, r.accepted, r.emitted)):
                item = QTableWidgetItem(str(number))
                item.setFlags(Qt.ItemFlag.ItemIsEnabled)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                table.setItem(i, col, item)
        lay.addWidget(table, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        # wide enough for the table's titles, tall enough for the figures and a page of rounds,
        # never taller than the screen (the table scrolls)
        hint = self.sizeHint()
        cap = screen_height_cap(self)
        height = max(hint.height(), 640)
        self.resize(max(hint.width(), 560), height if cap is None else min(height, cap))

    def _no_label(self, stats: AnswerStats) -> str:
        """A remote server's answer has no speculation label: the server's own settings decide."""
        return self.tr("set by the server") if stats.acceptance_source else self.tr("off")

    def _alternatives(self, stats: AnswerStats) -> str:
        """One line per configuration: its predicted speed on this answer, against plain decoding's,
        and how it was predicted (the one that answered is marked)."""
        plain = next((a for a in stats.alternatives if a.get("speculation") == "off"), None)
        plain_tps = float(plain["decode_tokens_per_second"]) if plain else 0.0
        lines = []
        for a in stats.alternatives:
            tps = float(a.get("decode_tokens_per_second") or 0.0)
            name = str(a.get("speculation", ""))
            shown = self.tr("off") if name == "off" else name
            basis = self.tr("replayed") if a.get("basis") == "replayed" else self.tr("estimated")
            ratio = f"{tps / plain_tps:.2f}×" if plain_tps > 0 else "–"
            line = self.tr("{name}: {ratio} ({tps} tok/s, {basis})").format(
                name=shown, ratio=ratio, tps=f"{tps:.1f}", basis=basis
            )
            if a.get("ran"):
                line += " " + self.tr("← answered")
            lines.append(line)
        return "\n".join(lines)

    def _speedup_rows(self, stats: AnswerStats) -> list[tuple[str, str]]:
        if stats.own_speedup is not None:
            return [
                (
                    self.tr("Speedup vs plain"),
                    _fmt(stats.speedup, "{:.2f}×") if stats.speedup else self.tr("none (nothing drafted)"),
                )
            ]
        if stats.measured_tps is not None:
            return [
                (
                    self.tr("Plain decode speed, this prompt"),
                    self.tr("{value} tok/s").format(value=f"{stats.measured_tps:.2f}"),
                ),
                (self.tr("Speedup vs plain, measured"), _fmt(stats.speedup, "{:.2f}×")),
            ]
        if stats.baseline_tps is None:
            not_measured = self.tr("not measured")
            return [
                (self.tr("Plain decode speed"), not_measured),
                (self.tr("Speedup vs plain"), not_measured),
            ]
        return [
            (
                self.tr("Plain decode speed"),
                self.tr("{value} tok/s").format(value=f"{stats.baseline_tps:.2f}"),
            ),
            (self.tr("Plain answers measured"), str(stats.baseline_samples)),
            (self.tr("Speedup vs plain"), _fmt(stats.speedup, "{:.2f}×")),
        ]
