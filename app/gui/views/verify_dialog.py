"""Verify a remote server's drafter: the parity check against a baseline server, as a report.

Opened from the Remote server tab's "Verify output…" button, modeless, so the launch dialog stays
usable (a check must never block launching). The check (:func:`app.core.measure.verify.verify`:
greedy, a handful of built-in prompts of different kinds, 64 tokens) runs on an ops worker; the
dialog shows the prompt it is on, can stop it (the cancel token reaches the running request), and
ends with one verdict line, what each server said about drafting, and a line per prompt: EXACT,
TOP_K_MATCH (where, both tokens, the log-probability gap) or FAIL (where, both tokens and their
log-probabilities where known, or that text was compared because the server gave no token ids).
An error (unreachable, 401, another model on the baseline) is one line naming the side.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QProgressBar,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.core.cancel import CancelToken
from app.core.engines.base import EngineError
from app.core.engines.remote.endpoints import Endpoint
from app.core.measure.bench import ParityResult
from app.core.measure.verify import (
    EXACT,
    FAIL,
    MAX_TOKENS,
    PROMPTS,
    TOP_K_MATCH,
    SideError,
    SideFigures,
    VerifyCancelled,
    VerifyReport,
    VerifyRow,
    logprob_of,
    servers_with_keys,
    verify,
)
from app.gui.ops import Ops
from app.gui.views.stats import note_text, source_name

log = logging.getLogger(__name__)


def run_check(
    endpoint: Endpoint,
    baseline: Endpoint,
    model: str,
    typed_key: str,
    cancel: CancelToken,
    progress: Callable[[int, int, str], None],
    on_row: Callable[[VerifyRow], None],
) -> VerifyReport:
    """The check with the servers' keys (keyring lookups included). Blocking: an ops worker."""
    servers = servers_with_keys(endpoint, baseline, model, typed_key)
    return verify(servers, PROMPTS, MAX_TOKENS, cancel, progress, on_row)


class VerifyDialog(QDialog):
    """Signals: ``reportReady(object VerifyReport)``, ``runFailed(str one_line)``, ``runCancelled()``;
    exactly one of them ends each run."""

    reportReady = Signal(object)
    runFailed = Signal(str)
    runCancelled = Signal()

    def __init__(
        self,
        ops: Ops,
        endpoint: Endpoint,
        baseline: Endpoint,
        model: str,
        typed_key: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("verifyDialog")
        self.setModal(False)
        self.setMinimumSize(620, 480)
        self.resize(720, 580)
        self._ops = ops
        self.endpoint, self.baseline, self.model = endpoint, baseline, model
        self._typed_key = typed_key
        self._cancel: CancelToken | None = None
        self.report: VerifyReport | None = None
        self.error = ""
        self._step: tuple[int, int, str] | None = None
        #: the prompts done so far in a running check, shown as they come
        self._rows: list[VerifyRow] = []

        lay = QVBoxLayout(self)
        lay.setContentsMargins(18, 16, 18, 14)
        lay.setSpacing(10)
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.intro.setProperty("muted", True)
        lay.addWidget(self.intro)
        self.progress = QProgressBar()
        self.progress.setRange(0, len(PROMPTS))
        self.progress.setTextVisible(False)
        self.status = QLabel()
        self.status.setWordWrap(True)
        lay.addWidget(self.progress)
        lay.addWidget(self.status)
        self.verdict = QLabel()
        self.verdict.setObjectName("verifyVerdict")
        self.verdict.setWordWrap(True)
        self.verdict.hide()
        lay.addWidget(self.verdict)
        self.details = QTextBrowser()
        self.details.setObjectName("verifyReport")
        self.details.setOpenLinks(False)
        lay.addWidget(self.details, 1)
        self.buttons = QDialogButtonBox()
        self.stop_btn = QPushButton()
        self.again_btn = QPushButton()
        self.close_btn = QPushButton()
        self.buttons.addButton(self.stop_btn, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.addButton(self.again_btn, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.addButton(self.close_btn, QDialogButtonBox.ButtonRole.RejectRole)
        lay.addWidget(self.buttons)
        self.stop_btn.clicked.connect(self.stop)
        self.again_btn.clicked.connect(self.start)
        self.close_btn.clicked.connect(self.reject)
        self.retranslate()

    # --- running --------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._cancel is not None

    def start(self) -> None:
        """Run the check (again) on an ops worker."""
        if self.running:
            return
        cancel = self._cancel = CancelToken()
        self.report, self.error, self._step = None, "", (0, len(PROMPTS), "")
        self._rows = []
        self.progress.setValue(0)
        self.progress.show()
        self.status.show()
        self.verdict.hide()
        self.details.clear()
        self._show_state()
        loop = self._ops.loop

        def progress(done: int, total: int, kind: str) -> None:
            loop.call_soon_threadsafe(self._on_progress, cancel, done, total, kind)

        def on_row(row: VerifyRow) -> None:
            loop.call_soon_threadsafe(self._on_row, cancel, row)

        async def run() -> None:
            try:
                report = await self._ops.run(
                    run_check,
                    self.endpoint,
                    self.baseline,
                    self.model,
                    self._typed_key,
                    cancel,
                    progress,
                    on_row,
                )
            except VerifyCancelled:
                self._finish(cancel, None, "")
            except EngineError as exc:
                self._finish(cancel, None, self._error_line(exc))
            except Exception as exc:  # unexpected: one line here, the details in the log
                log.warning("verify failed", exc_info=exc)
                self._finish(cancel, None, f"{type(exc).__name__}: {exc}".splitlines()[0])
            else:
                self._finish(cancel, report, "")

        self._ops.spawn(run(), self.tr("The check could not run"))

    def stop(self) -> None:
        if self._cancel is not None:
            self._cancel.cancel()
            self.status.setText(self.tr("Stopping…"))
            self.stop_btn.setEnabled(False)

    def _alive(self) -> bool:
        return shiboken6.isValid(self)

    def _on_progress(self, cancel: CancelToken, done: int, total: int, kind: str) -> None:
        if not self._alive() or cancel is not self._cancel or cancel.cancelled:
            return
        self._step = (done, total, kind)
        self.progress.setValue(done)
        self._show_state()

    def _on_row(self, cancel: CancelToken, row: VerifyRow) -> None:
        if not self._alive() or cancel is not self._cancel:
            return
        self._rows.append(row)
        self._show_rows([], self._rows)

    def _finish(self, cancel: CancelToken, report: VerifyReport | None, error: str) -> None:
        if not self._alive() or cancel is not self._cancel:
            return
        self._cancel = None
        self.report, self.error = report, error
        self.progress.hide()
        self._show_state()
        if report is not None:
            self.reportReady.emit(report)
        elif error:
            self.runFailed.emit(error)
        else:
            self.runCancelled.emit()

    def done(self, result: int) -> None:
        """Closing stops a running check (its request ends at the next chunk)."""
        if self._cancel is not None:
            self._cancel.cancel()
        super().done(result)

    # --- texts ----------------------------------------------------------------------------------
    def _error_line(self, exc: EngineError) -> str:
        side = exc.side if isinstance(exc, SideError) else "endpoint"
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if side == "baseline":
            return self.tr("Baseline: {message}").format(message=message)
        return self.tr("Endpoint: {message}").format(message=message)

    def kind_name(self, kind: str) -> str:
        names = {
            "prose": self.tr("Prose"),
            "code": self.tr("Code"),
            "chinese": self.tr("Chinese"),
            "list": self.tr("List"),
            "arithmetic": self.tr("Arithmetic"),
        }
        return names.get(kind, kind)

    def _show_state(self) -> None:
        running = self.running
        self.stop_btn.setVisible(running)
        self.stop_btn.setEnabled(running and not (self._cancel is not None and self._cancel.cancelled))
        self.again_btn.setVisible(not running)
        if running:
            done, total, kind = self._step or (0, len(PROMPTS), "")
            if done < total and kind:
                self.status.setText(
                    self.tr("Prompt {i} of {n} ({kind}): the baseline answers, then the endpoint…").format(
                        i=done + 1, n=total, kind=self.kind_name(kind)
                    )
                )
            else:
                self.status.setText(self.tr("Connecting to both servers…"))
            return
        self.status.setText("")
        self.status.hide()
        if self.report is not None:
            self._show_report(self.report)
        elif self._step is not None:  # a run ended without a report
            self._set_verdict("error" if self.error else "cancelled", self.error or self.tr("Stopped."))

    def _set_verdict(self, kind: str, text: str) -> None:
        self.verdict.setProperty("verdict", kind)
        self.verdict.style().unpolish(self.verdict)
        self.verdict.style().polish(self.verdict)
        self.verdict.setText(text)
        self.verdict.show()

    def verdict_line(self, report: VerifyReport) -> str:
        n = len(report.rows)
        if report.verdict == EXACT:
            return self.tr("EXACT: the endpoint's answers match the baseline's on all {n} prompts.").format(
                n=n
            )
        if report.verdict == TOP_K_MATCH:
            return self.tr(
                "TOP_K_MATCH: {k} of {n} prompts differ at a near-tie (each token among the other side's top "
                "candidates), the others match exactly."
            ).format(k=report.count(TOP_K_MATCH), n=n)
        return self.tr(
            "FAIL: {k} of {n} prompts diverge from the baseline. Check that both servers run the same model "
            "file and settings; if they do, the drafter changes the output."
        ).format(k=report.count(FAIL), n=n)

    def drafting_lines(self, report: VerifyReport) -> list[str]:
        """What each server said about drafting: a check of a server that did not draft proves nothing."""
        lines = [self._side_line(report.on)]
        if report.off.drafting:
            lines.append(
                self.tr(
                    "The baseline reported drafted tokens: it should run without a drafter, or this check "
                    "compares two speculative servers."
                )
            )
        return lines

    def _side_line(self, on: SideFigures) -> str:
        if not on.reported:
            return self.tr(
                "The endpoint does not report acceptance, so Tandem cannot tell whether it drafted."
            )
        if not on.drafting:
            return self.tr(
                "The endpoint reported no drafted tokens: it seems to run without a drafter, so this check "
                "compared two plain servers."
            )
        drafted = str(on.drafted) if on.drafted is not None else self.tr("not reported")
        line = self.tr(
            "The endpoint drafted {drafted} tokens and {accepted} were accepted ({source})."
        ).format(
            drafted=drafted,
            accepted=on.accepted if on.accepted is not None else "—",
            source=source_name(on.source),
        )
        note = note_text(on.note)
        return f"{line} {note}" if note else line

    def row_line(self, r: ParityResult) -> str:
        """One prompt's outcome (plain text; the report escapes it)."""
        text_only = r.compared != "token ids"
        off = _token(r.off_token, self.tr("(the baseline's answer ended)"))
        if r.verdict == EXACT:
            if text_only:
                return self.tr("EXACT: the same text ({n} tokens)").format(n=r.tokens_on)
            return self.tr("EXACT: the same {n} tokens").format(n=r.tokens_on)
        pos = r.first_difference if r.first_difference is not None else 0
        if r.verdict == TOP_K_MATCH:
            gap = "—" if r.logprob_gap is None else f"{r.logprob_gap:.3f}"
            return self.tr(
                "TOP_K_MATCH at token {pos}: baseline {off}, endpoint {on}; log-probability gap {gap}"
            ).format(pos=pos, off=off, on=_token(r.on_token, "?"), gap=gap)
        if text_only:
            return self.tr(
                "FAIL at token {pos}: baseline {off}, endpoint {on} "
                "(text compared: the server gave no token ids)"
            ).format(pos=pos, off=off, on=_token(r.on_text, self.tr("(the endpoint's answer ended)")))
        on = _token(r.on_token, self.tr("(the endpoint's answer ended)"))
        unknown = self.tr("not known")
        off_lp = logprob_of(r.candidates, r.off_token)
        on_lp = logprob_of(r.candidates, r.on_token)
        return self.tr(
            "FAIL at token {pos}: baseline {off} (log-probability {off_lp}), endpoint {on} (log-probability "
            "{on_lp} at the baseline)"
        ).format(
            pos=pos,
            off=off,
            on=on,
            off_lp=unknown if off_lp is None else f"{off_lp:.3f}",
            on_lp=unknown if on_lp is None else f"{on_lp:.3f}",
        )

    def _show_report(self, report: VerifyReport) -> None:
        self._set_verdict(report.verdict.lower(), self.verdict_line(report))
        lines = [self.tr("Model: {model}").format(model=report.model), *self.drafting_lines(report)]
        if any(r.result.compared != "token ids" for r in report.rows):
            lines.append(self.tr("Text compared: the servers gave no token ids."))
        self._show_rows(lines, report.rows)

    def _show_rows(self, lines: list[str], rows: list[VerifyRow]) -> None:
        parts = [f"<p>{html.escape(line)}</p>" for line in lines]
        parts.append("<table cellspacing='0' cellpadding='4' width='100%'>")
        for row in rows:
            colour = {EXACT: "#1f7a4a", TOP_K_MATCH: "#a15c07"}.get(row.result.verdict, "#b3261e")
            kind = html.escape(self.kind_name(row.kind))
            line = html.escape(self.row_line(row.result))
            parts.append(
                f"<tr><td width='1%' style='white-space:nowrap; font-weight:600'>{kind}</td>"
                f"<td style='color:{colour}'>{line}</td></tr>"
            )
        parts.append("</table>")
        self.details.setHtml("".join(parts))

    # --- i18n -----------------------------------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Verify the drafter's output"))
        self.intro.setText(
            self.tr(
                "Greedy answers of {endpoint} (with its drafter) compared with {baseline} (the same model "
                "without a drafter): {n} prompts of different kinds, up to {max} tokens each. Speculative "
                "decoding must not change greedy output."
            ).format(endpoint=self.endpoint.url, baseline=self.baseline.url, n=len(PROMPTS), max=MAX_TOKENS)
        )
        self.stop_btn.setText(self.tr("Stop"))
        self.again_btn.setText(self.tr("Run again"))
        self.close_btn.setText(self.tr("Close"))
        self._show_state()


def _token(text: str | None, missing: str) -> str:
    """A token as the report shows it: quoted with its whitespace visible, or ``missing``."""
    if text is None:
        return missing
    return repr(text)
