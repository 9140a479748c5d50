"""The launch dialog's Auto row: what Auto chose and why, or when it will measure.

Auto is the default speculation. The panel shows, for the dialog's current launch, the stored
calibration's choice with its "why" line, or that nothing is measured yet and what Auto answers
with meanwhile while it measures in the background.
"Re-measure" reruns the calibration off the GUI thread (:mod:`app.gui.ops`) with a progress bar and
Cancel; a cancelled run stores nothing and leaves the stored result as it was.

Everything blocking (resolving and stat'ing the files for the calibration key, the calibration)
runs on an operations worker; the panel only shows results.
"""

from __future__ import annotations

import asyncio
from typing import Any

import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from app.core.cancel import CancelToken
from app.core.engines.base import LoadRequest
from app.core.launch import auto
from app.core.launch.auto.certainty import Certainty, Reading, read
from app.core.launch.auto.learning import KindSummary
from app.core.launch.auto.router import RequestRouter
from app.core.launch.plan import (
    AutoLaunch,
    LaunchChoice,
    estimate_calibration_seconds,
    load_engine,
    plan_auto,
)
from app.gui.cache_bridge import CacheBridge
from app.gui.ops import Ops
from app.gui.widgets import ToggleSwitch


class AutoPanel(QWidget):
    """Signals: ``toggled(bool)`` (the Auto switch), ``measured(object CalibrationResult)`` (a
    Re-measure finished and was stored), ``stateChanged(str)`` (checking / stored / unmeasured /
    measuring / cancelled / failed / waiting: Auto is on but the dialog makes no launch yet /
    unavailable: Auto is off or cannot run)."""

    toggled = Signal(bool)
    measured = Signal(object)
    stateChanged = Signal(str)
    _progress = Signal(float, str)  # from the calibration's worker thread, queued to the GUI

    def __init__(self, cache: CacheBridge, ops: Ops | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._cache = cache
        self._ops = ops
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        self.switch = ToggleSwitch()
        self.switch.setChecked(True)
        self.switch.toggled.connect(self.toggled)
        self.chosen = QLabel()
        self.chosen.setObjectName("autoChosen")
        self.chosen.setWordWrap(True)
        self.why = QLabel()
        #: what Auto learned from real answers, per kind
        self.learned = QLabel()
        self.learned.setObjectName("autoLearned")
        self.learned.setWordWrap(True)
        self.learned.setProperty("muted", True)
        self.learned.hide()
        self._learned: list[KindSummary] = []
        #: how far the cost model's predictions were from the answers' measured speed, per
        #: configuration: (median |predicted / measured - 1|, answers)
        self.errors = QLabel()
        self.errors.setObjectName("autoErrors")
        self.errors.setWordWrap(True)
        self.errors.setProperty("muted", True)
        self.errors.hide()
        self._errors: dict[str, tuple[float, int]] = {}
        self.why.setObjectName("hint")
        self.why.setWordWrap(True)
        self.why.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        self.remeasure = QPushButton()
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setMaximumWidth(200)
        self.cancel = QPushButton()
        self.step = QLabel()
        self.step.setObjectName("hint")
        row.addWidget(self.remeasure)
        row.addWidget(self.progress)
        row.addWidget(self.cancel)
        row.addWidget(self.step, 1)
        row.addStretch(0)  # the buttons keep their own width; the step text takes the rest
        lay.addWidget(self.switch)
        lay.addWidget(self.chosen)
        lay.addWidget(self.why)
        lay.addWidget(self.learned)
        lay.addWidget(self.errors)
        lay.addLayout(row)
        self.remeasure.clicked.connect(self.start_remeasure)
        self.cancel.clicked.connect(self.cancel_remeasure)
        self._progress.connect(self._on_progress)

        self.state = "unavailable"
        self._inputs: tuple[Any, ...] | None = None
        self._choice: LaunchChoice | None = None
        self._plan: AutoLaunch | None = None
        self._result: auto.CalibrationResult | None = None
        self._probe: asyncio.Task[Any] | None = None
        self._measure: asyncio.Task[Any] | None = None
        self._token: CancelToken | None = None
        self._detail = ""
        self._demoted: dict[auto.Candidate, float] = {}
        self._show_progress(False)
        self.retranslate()

    # --- following the dialog -------------------------------------------------------------------
    def follow(self, choice: LaunchChoice | None, target_cached: bool, waiting: bool = False) -> None:
        """The dialog's current Auto launch (None: Auto is off or cannot run); ``waiting``: Auto
        is on but the dialog's fields make no launch yet (the panel says so instead of nothing)."""
        if choice is None:
            # Auto no longer applies: what ran for the launch it followed stops and never lands
            self._inputs, self._choice, self._plan = None, None, None
            if self._probe is not None:
                self._probe.cancel()
            self.cancel_remeasure()
            self._set_state("waiting" if waiting else "unavailable")
            return
        inputs = (
            choice.family.name,
            id(choice.spec),
            choice.quantization,
            choice.engine,
            choice.threads,
            choice.n_ctx,
            choice.auto_drafter,
            choice.speculation.draft_quantization,
            choice.speculation.draft_model_path,
            target_cached,
        )
        if inputs == self._inputs:
            return
        self._inputs, self._choice, self._plan, self._result = inputs, choice, None, None
        if self._probe is not None:
            self._probe.cancel()
        if not target_cached:
            self._set_state("not-downloaded")
            return
        if self._ops is None:
            self._set_state("unmeasured")
            return
        self._set_state("checking")
        self._probe = self._ops.spawn(self._look_up(choice, inputs))

    async def _look_up(self, choice: LaunchChoice, inputs: tuple[Any, ...]) -> None:
        assert self._ops is not None
        try:
            plan, stored = await self._ops.run(self._plan_and_load, choice)
        except Exception as exc:  # an unresolvable file: say it in one line
            if shiboken6.isValid(self) and inputs == self._inputs:
                self._detail = str(exc)
                self._set_state("failed")
            return
        if not shiboken6.isValid(self) or inputs != self._inputs:
            return  # the dialog moved on (or closed) meanwhile
        self._plan, self._result = plan, stored
        self._set_state("stored" if stored is not None else "unmeasured")

    def _plan_and_load(self, choice: LaunchChoice) -> tuple[AutoLaunch, auto.CalibrationResult | None]:
        plan = plan_auto(choice, self._cache.resolve)
        self._demoted = auto.load_demoted(plan.key)
        router = RequestRouter.for_model(plan.key, plan.candidates, plan.drafter_path)
        learner = router.learner
        self._learned = learner.summary() if learner is not None else []
        self._errors = (
            {c.label: e for c, e in learner.prediction_errors().items()} if learner is not None else {}
        )
        return plan, auto.load_result(plan.key)

    # --- Re-measure -----------------------------------------------------------------------------
    def start_remeasure(self) -> None:
        if self._ops is None or self._plan is None or self._measure is not None:
            return
        self._token = CancelToken()
        self._on_progress(0.0, "")
        self._set_state("measuring")  # at once: the Cancel button is there before the work starts
        self._measure = self._ops.spawn(self._run_measure(self._plan, self._token, self._inputs))

    def cancel_remeasure(self) -> None:
        if self._token is not None:
            self._token.cancel()

    @property
    def measuring(self) -> bool:
        return self._measure is not None

    async def _run_measure(
        self, plan: AutoLaunch, token: CancelToken, inputs: tuple[Any, ...] | None
    ) -> None:
        assert self._ops is not None
        try:
            result = await self._ops.run(self._calibrate, plan, token)
        except auto.CalibrationCancelled:
            if shiboken6.isValid(self):
                self._measure, self._token = None, None
                if inputs == self._inputs:  # else the panel follows something else by now
                    self._set_state("cancelled")
            return
        except Exception as exc:
            if shiboken6.isValid(self):
                self._measure, self._token = None, None
                if inputs == self._inputs:
                    self._detail = str(exc)
                    self._set_state("failed")
            return
        if not shiboken6.isValid(self):
            return
        self._measure, self._token = None, None
        if inputs == self._inputs:
            self._result = result
            self._set_state("stored")
        self.measured.emit(result)

    def _calibrate(self, plan: AutoLaunch, token: CancelToken) -> auto.CalibrationResult:
        """On a worker: measure, store, return (a cancel raises and stores nothing)."""

        def load(req: LoadRequest) -> Any:
            return load_engine(plan.engine, req)

        def report(fraction: float, step: auto.Step) -> None:  # translated here: a signal carries a plain str
            self._progress.emit(fraction, calibration_step_text(step))

        result = auto.calibrate(plan.key, plan.base, plan.drafter_path, plan.candidates, load, token, report)
        auto.store_result(result)
        return result

    def _on_progress(self, fraction: float, message: str) -> None:
        self.progress.setValue(round(fraction * 100))
        self.step.setText(message)

    def shutdown(self) -> None:
        """Cancel what runs (the dialog closes): a calibration stops at its next step."""
        self.cancel_remeasure()
        if self._probe is not None:
            self._probe.cancel()

    # --- display --------------------------------------------------------------------------------
    def _set_state(self, state: str) -> None:
        self.state = state
        self._render()
        self.stateChanged.emit(state)

    def _show_progress(self, on: bool) -> None:
        self.progress.setVisible(on)
        self.cancel.setVisible(on)
        self.step.setVisible(on)

    def _render(self) -> None:
        st = self.state
        self._show_progress(st == "measuring")
        self.remeasure.setVisible(st in ("stored", "unmeasured", "cancelled", "failed"))
        self.remeasure.setEnabled(self._plan is not None and self._ops is not None)
        self.why.setText("")
        self.why.setToolTip("")
        # before any measurement the button measures for the first time
        self.remeasure.setText(self.tr("Re-measure") if st == "stored" else self.tr("Measure now"))
        if st == "unavailable":
            self.chosen.setText("")
        elif st == "waiting":
            self.chosen.setText(
                self.tr("Auto chooses once the settings below can launch: see the message there.")
            )
        elif st == "not-downloaded":
            self.chosen.setText(
                self.tr(
                    "Not measured yet: once the model is downloaded, Auto answers at once and measures "
                    "in the background while you are idle."
                )
            )
        elif st == "checking":
            self.chosen.setText(self.tr("Checking for a stored measurement…"))
        elif st == "measuring":
            self.chosen.setText(self.tr("Measuring which speculation pays on this machine…"))
        elif st == "stored" and self._result is not None:
            choice = self._result.choice
            self.chosen.setText(self.tr("Auto chose: {config}").format(config=choice.candidate.label))
            self.why.setText(self._why(self._result))
            self.why.setToolTip(
                self.tr("Measured in {seconds:.0f} s; stored in {path}").format(
                    seconds=self._result.seconds, path=self._result.stored_path or ""
                )
                + "\n\n"
                + self.figures_tip()
            )
        elif st == "failed":
            self.chosen.setText(self.tr("Auto could not measure: {reason}").format(reason=self._detail))
        else:  # unmeasured, cancelled: the launch does not wait for a measurement
            n = len(self._plan.candidates) if self._plan is not None else 2
            size = float(self._choice.spec.size_in_billions) if self._choice is not None else 1.0
            prior = self._plan.prior(self._demoted) if self._plan is not None else auto.OFF
            text = self.tr(
                "Not measured yet: Auto answers with {config} at once and measures in the background "
                "while you are idle (about {seconds} s)."
            ).format(config=prior.label, seconds=estimate_calibration_seconds(n, size))
            if st == "cancelled":
                text = self.tr("The measurement was cancelled; nothing was stored.") + " " + text
            self.chosen.setText(text)
        self.why.setVisible(bool(self.why.text()))  # an empty reason leaves no gap
        self.chosen.setVisible(bool(self.chosen.text()))  # Auto off: the switch alone, no gap
        self._render_learned(st)

    def _render_learned(self, state: str) -> None:
        """What Auto learned from the user's real answers, per kind of request."""
        rows = [r for r in self._learned if r.figure.answers > 0] if state in ("stored", "unmeasured") else []
        if not rows:  # nothing learned yet: the panel stays as short as it was
            self.learned.setText("")
        else:
            parts = []
            for row in rows:
                lo, hi = row.figure.interval()
                reading = read(row.figure.speedup, lo, hi)
                if reading.certainty == Certainty.UNKNOWN:
                    text = self.tr("{kind}: {config}, not enough answers yet ({answers} so far)")
                else:
                    text = self.tr("{kind}: {config}, {figure}, from {answers} answers")
                parts.append(
                    text.format(
                        kind=self._kind_text(row.kind),
                        config=row.figure.candidate.label,
                        figure=self.figure_text(reading, ""),
                        answers=row.figure.answers,
                    )
                )
            self.learned.setText(
                self.tr("Learned from your answers: {routes}").format(routes="; ".join(parts))
            )
        self.learned.setToolTip(
            self.tr(
                "Auto records each answer's speed per kind of request and configuration. A route moves "
                "only when another configuration is faster beyond the measured noise, and now and then "
                "an answer tries an alternative that could be faster."
            )
            + "\n\n"
            + self.figures_tip()
        )
        self.learned.setVisible(bool(self.learned.text()))
        self._render_errors(state)

    def _render_errors(self, state: str) -> None:
        """How close every prediction came to the speed the answers measured, per configuration."""
        rows = sorted(self._errors.items()) if state in ("stored", "unmeasured") else []
        parts = [
            self.tr("{config} within {error}% ({answers} answers)").format(
                config=label, error=f"{median * 100:.0f}", answers=n
            )
            for label, (median, n) in rows
        ]
        self.errors.setText(
            self.tr("Predictions against your answers: {rows}").format(rows="; ".join(parts)) if parts else ""
        )
        self.errors.setToolTip(
            self.tr(
                "After every answer Tandem predicts what each configuration would have done on it, from "
                "its drafts replayed over the answer and what each pass costs on this machine. The "
                "configuration that answered is predicted too: this is the median gap between that "
                "prediction and the speed the answer measured."
            )
        )
        self.errors.setVisible(bool(self.errors.text()))

    def figure_text(self, reading: Reading, unknown: str) -> str:
        """A speedup in plain words: faster (with the least it is), slower, no clear difference,
        or ``unknown`` when its interval is too wide to say anything."""
        if reading.certainty == Certainty.FASTER:
            return self.tr("{speedup:.2f}x faster (at least {low:.2f}x)").format(
                speedup=reading.speedup, low=reading.low
            )
        if reading.certainty == Certainty.SLOWER:
            return self.tr("slower ({speedup:.2f}x the speed)").format(speedup=reading.speedup)
        if reading.certainty == Certainty.SAME:
            return self.tr("no clear difference ({speedup:.2f}x)").format(speedup=reading.speedup)
        return unknown

    def figures_tip(self) -> str:
        """How to read the figures (each against speculation off, on this machine)."""
        return self.tr(
            "Each figure is a speed against speculation off on this machine. Faster and slower are "
            'sure beyond the measured noise, and "at least" is the lowest the speedup is likely '
            "to be. No clear difference: the two speeds are within the noise. Not enough answers "
            "yet, or too uncertain to tell: the figure could still be far off either way."
        )

    def _kind_text(self, kind: auto.RequestKind) -> str:
        return {
            auto.RequestKind.PROSE: self.tr("prose"),
            auto.RequestKind.CODE_EDIT: self.tr("code edit"),
            auto.RequestKind.REPEAT: self.tr("repeat"),
            auto.RequestKind.AGENT: self.tr("agent turn"),
            auto.RequestKind.DOCUMENT: self.tr("document question"),
        }[kind]

    def _why(self, result: auto.CalibrationResult) -> str:
        """Why Auto chose what it chose, in the user's language, from the stored measurements
        (the core's ``Choice.why`` is the same line in English, for the CLI and the JSON)."""
        choice = result.choice
        noise = auto.pair_noise(result.measurements)
        elsewhere = result.routed_elsewhere()  # on a pool: what serves the kinds the launch leaves
        parts = []
        for m in result.measurements:
            if m.candidate.method == "off":
                continue
            figures = auto.workload_figures(m, noise)
            part = self.tr("{config}: {prose} on prose, {code} on code edits, {repeat} on repeats").format(
                config=m.candidate.label,
                prose=self._cell(figures.get("prose")),
                code=self._cell(figures.get("code")),
                repeat=self._cell(figures.get("repeat")),
            )
            if m.candidate in elsewhere:
                kinds = ", ".join(self._kind_text(k) for k in elsewhere[m.candidate])
                part = self.tr("{measured}, for {kinds}").format(measured=part, kinds=kinds)
            elif m.candidate != choice.candidate:
                part = self.tr("{measured}, not used").format(measured=part)
            parts.append(part)
        line = "; ".join(parts)
        if choice.candidate.method != "off":
            return line
        if any(v.startswith("tie with off") for _c, v in choice.verdicts):
            off = self.tr("off: nothing was faster than plain decoding beyond the measured noise")
        else:
            off = self.tr("off: no configuration was faster without being slower on prose")
        return f"{off} ({line})" if line else off

    def _cell(self, figure: dict[str, Any] | None) -> str:
        """One workload's calibration figure (an entry of ``workload_figures``) in plain words."""
        if not figure:
            return self.tr("not measured")
        lo, hi = figure["interval"]
        return self.figure_text(read(figure["speedup"], lo, hi), self.tr("too uncertain to tell"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.switch.setText(self.tr("Auto: measure and use what pays on this machine"))
        self.switch.setToolTip(
            self.tr(
                "Auto compares speculation off with the drafter at a few depths and the engine's "
                "model-free methods on short fixed prompts, once per model, drafter, engine and "
                "machine, and keeps the fastest that is never slower on prose; configurations "
                "within the measured noise of each other are a tie, and a tie goes to the cheaper "
                "one. It measures in the background while you are idle and answers meanwhile with "
                "its best guess; a choice "
                "that loses on your answers is dropped. Choosing a drafter or a model-free method "
                "yourself turns Auto off."
            )
        )
        self.cancel.setText(self.tr("Cancel"))
        self._render()


def calibration_step_text(step: auto.Step) -> str:
    """A calibration step in the user's language."""
    texts = {
        "load-off": QCoreApplication.translate("Calibration", "loading the model without speculation"),
        "threads": QCoreApplication.translate("Calibration", "{config}: speed without speculation"),
        "load": QCoreApplication.translate("Calibration", "loading {config}"),
        "prose-off": QCoreApplication.translate("Calibration", "{config}: prose, speculation off"),
        "prose": QCoreApplication.translate("Calibration", "{config}: prose"),
        "code-off": QCoreApplication.translate("Calibration", "{config}: code edit, speculation off"),
        "code": QCoreApplication.translate("Calibration", "{config}: code edit"),
        "repeat": QCoreApplication.translate("Calibration", "{config}: the same code edit again"),
        "prose-again-off": QCoreApplication.translate(
            "Calibration", "{config}: prose again, speculation off"
        ),
        "prose-again": QCoreApplication.translate("Calibration", "{config}: prose again"),
        "done": QCoreApplication.translate("Calibration", "measured"),
    }
    text = texts.get(step.code)
    return step.text if text is None else str(text.format(config=step.config))
