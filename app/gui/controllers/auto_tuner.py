"""Auto keeps tuning while you chat: it measures in the background, never in the way.

An Auto launch loads at once: the stored calibration's choice, or, with nothing measured on this
machine yet, the pair's prior (:func:`app.core.launch.auto.prior`). :class:`AutoTuner` then

* measures (:func:`app.core.launch.auto.calibrate`) on its own thread while the user is idle
  (:data:`IDLE_MS` after the last answer or load). A message, a load or a generation cancels it at
  once: the cancel token stops the calibration's current generation at its next token and its
  engines are closed, so the chat's answer does not share the CPU. Every candidate measured so far
  is kept and the next idle spell goes on from there;
* stores the result and, when its choice differs from what runs, asks for a reload of the launch
  (``switchRequested``) between answers, never during one;
* records the calibration's plain runs as this machine's plain speed of the file
  (:mod:`app.core.measure.baselines`), so the user's own answers get a speedup; a choice that
  loses on :data:`AUTO_LOSSES` of the last :data:`AUTO_WINDOW` of them is demoted
  (:func:`app.core.launch.auto.store_demoted`, kept across restarts) and Auto switches to the
  next best;
* says all that in one line, :meth:`text` (the status bar's speculation label), with the reason
  in :meth:`tooltip`.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import statistics
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal

from app.core.cancel import CancelToken
from app.core.catalog.fit import available_memory
from app.core.chat import AnswerStats
from app.core.engines.base import Engine, LoadRequest
from app.core.engines.worker import LoadCancelled, LoadProgress
from app.core.launch import auto
from app.core.launch.plan import AutoLaunch, load_engine
from app.core.measure.baselines import BaselineStore
from app.gui.engine import AutoPick, EngineHost, ModelInfo
from app.gui.ops import Ops

log = logging.getLogger(__name__)

# The chat must be idle this long (ms) before Auto measures; None: never in the background
# (the GUI tests switch it off unless they are about it, see tests/gui/conftest.py).
IDLE_MS: int | None = 3000
#: the name of the calibration's thread
CALIBRATION_THREAD = "tandem-auto"
# A choice is demoted when this many of the last AUTO_WINDOW answers with a known speedup lost.
AUTO_LOSSES = 3
AUTO_WINDOW = 5
# With too little free memory to measure beside the chat, look again after this long (ms).
NO_ROOM_RETRY_MS = 30_000

Loader = Callable[[str, LoadRequest, Callable[[str], None]], Engine]


class AutoTuner(QObject):
    """Signals: ``changed()`` (:meth:`text` / :meth:`tooltip` changed), ``calibrationStarted()``,
    ``calibrationCancelled()`` (it yielded to the chat; it resumes when idle),
    ``calibrationFinished(object CalibrationResult)`` (stored), ``calibrationFailed(str)``,
    ``progress(float fraction, str step)`` (the step's code, :class:`app.core.launch.auto.Step`),
    ``switchRequested()`` (reload the Auto launch: its stored choice changed)."""

    changed = Signal()
    calibrationStarted = Signal()
    calibrationCancelled = Signal()
    calibrationFinished = Signal(object)
    calibrationFailed = Signal(str)
    switchRequested = Signal()
    progress = Signal(float, str)
    _ended = Signal(str, object)  # worker thread -> GUI thread

    def __init__(
        self,
        ops: Ops,
        engine: EngineHost,
        is_busy: Callable[[], bool],
        loader: Loader = load_engine,
        baselines: BaselineStore | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._ops = ops
        self._engine = engine
        self._is_busy = is_busy
        self._loader = loader
        self._baselines = baselines or BaselineStore()
        # ms of idleness before measuring (None: never in the background)
        self.idle_ms = IDLE_MS
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._on_idle)
        self._pick: AutoPick | None = None
        self._info: ModelInfo | None = None
        self._result: auto.CalibrationResult | None = None
        # candidates measured so far for one key (a cancelled calibration resumes from them)
        self._partial: dict[auto.Candidate, auto.Measurement] = {}
        self._partial_key = ""
        self._token: CancelToken | None = None
        #: the calibration under way (on a thread of its own, :meth:`~app.gui.ops.Ops.start_own`)
        self._run: concurrent.futures.Future[None] | None = None
        # the last time Auto changed its mind: (what ran before, why), shown after the reload
        self._change: tuple[str, str] | None = None
        self._switch_pending = False
        self._speedups: list[float] = []
        self._closed = False
        self._held = False
        # (bytes a calibration needs, bytes free) when the last idle spell found too little memory
        self._no_room: tuple[int, int] | None = None
        #: free memory now (bytes); tests replace it
        self.available_memory: Callable[[], int] = available_memory
        engine.loaded.connect(self._on_loaded)
        engine.unloaded.connect(self._on_unloaded)
        engine.busyChanged.connect(self._on_busy)
        self._ended.connect(self._on_ended)

    # --- state ------------------------------------------------------------------------------------
    @property
    def pick(self) -> AutoPick | None:
        return self._pick

    @property
    def measuring(self) -> bool:
        """A calibration runs now (on the tuner's thread)."""
        return self._run is not None

    def needs_measuring(self) -> bool:
        pick = self._pick
        return pick is not None and not pick.measured and pick.plan is not None

    def text(self) -> str:
        """The strip: "Auto: ngram-mod 64/round while measuring", "Auto: off", and when Auto
        changed its mind, from what and why."""
        pick = self._pick
        if pick is None:
            return ""
        if self._change is not None:
            old, why = self._change
            text = QCoreApplication.translate("AutoTuner", "Auto: {config} (changed from {old}: {why})")
            return text.format(config=pick.label, old=old, why=why)
        if not pick.measured and self._no_room is not None:
            text = QCoreApplication.translate(
                "AutoTuner", "Auto: {config} (not measured: too little free memory)"
            )
            return text.format(config=pick.label)
        if not pick.measured:
            text = QCoreApplication.translate("AutoTuner", "Auto: {config} while measuring")
            return text.format(config=pick.label)
        return f"Auto: {pick.label}"  # the name is the same in every language (as the stats strip's)

    def tooltip(self) -> str:
        pick = self._pick
        if pick is None:
            return ""
        if not pick.measured and self._no_room is not None:
            need, free = self._no_room
            return QCoreApplication.translate(
                "AutoTuner",
                "Measuring would load the model twice more beside the chat ({need} GB) and {free} GB is "
                "free, so Auto does not measure in the background: it keeps the best guess for this "
                "model and still demotes it if your answers come out slower than plain. Close other "
                "programs and Auto measures at the next idle moment, or use Re-measure in the launch "
                "dialog.",
            ).format(need=f"{need / 2**30:.1f}", free=f"{free / 2**30:.1f}")
        if not pick.measured:
            return QCoreApplication.translate(
                "AutoTuner",
                "Nothing is measured on this machine yet, so Auto answers with the best guess for this "
                "model and measures which speculation pays while you are idle. A new message stops the "
                "measurement at once; Auto switches between answers, never during one.",
            )
        return pick.why

    # --- following the engine and the chat -------------------------------------------------------
    def _on_loaded(self, info: ModelInfo) -> None:
        pick = info.auto
        key = pick.plan.key.digest if pick is not None and pick.plan is not None else ""
        if key != self._partial_key:
            self._stop()
            self._partial, self._partial_key = {}, key
            self._change = None
        self._info, self._pick, self._result = info, pick, None
        self._speedups = []
        self._switch_pending = False
        self.changed.emit()
        self._schedule()

    def _on_unloaded(self) -> None:
        self._stop()
        self._info, self._pick = None, None
        self.changed.emit()

    def on_chat_busy(self, busy: bool) -> None:
        """The chat started (or ended) an answer or a Measure run; the local server started or
        stopped serving."""
        self._on_busy(busy)

    def hold(self, on: bool) -> None:
        """Another measurement of Auto runs (the launch dialog's Re-measure): stand aside."""
        if on == self._held:
            return
        self._held = on
        self._on_busy(on)

    def adopt(self, result: object) -> None:
        """A calibration measured elsewhere (the launch dialog's Re-measure) and stored: when it
        is the loaded launch's, it is what Auto uses from now on, as its own would be."""
        pick = self._pick
        if not isinstance(result, auto.CalibrationResult) or pick is None or pick.plan is None:
            return
        if result.key == pick.plan.key:
            result.demoted = auto.load_demoted(result.key)
            self._on_measured(result)

    def _on_busy(self, busy: bool) -> None:
        if busy:
            self.pause()
        else:
            self.resume()

    def pause(self) -> None:
        """The chat needs the machine (a message was sent, a load started): stop measuring now.

        The calibration's current generation ends at its next token; its engines close on the
        tuner's thread, so the caller never waits for that."""
        self._timer.stop()
        self._stop()

    def _busy(self) -> bool:
        return self._held or self._is_busy() or self._engine.busy

    def resume(self) -> None:
        """The chat is idle again: switch if a measurement asked for it, else measure later."""
        if self._busy():
            return
        if self._switch_pending:
            self._switch_pending = False
            self.switchRequested.emit()
            return
        self._schedule()

    def _schedule(self) -> None:
        if self.idle_ms is None or self._closed or not self.needs_measuring() or self.measuring:
            return
        self._timer.start(self.idle_ms)

    def _on_idle(self) -> None:
        if self._busy() or self.measuring or not self.needs_measuring():
            return
        if not self._room_to_measure():
            return
        self.start()

    def _room_to_measure(self) -> bool:
        """Enough free memory for a calibration beside the chat's model (a big model measured in the
        background must not push the machine into swap); says so in the strip when not."""
        pick = self._pick
        need = pick.plan.measuring_bytes() if pick is not None and pick.plan is not None else 0
        free = self.available_memory() if need else 0
        room = need == 0 or free >= need
        no_room = None if room else (need, free)
        if no_room != self._no_room:
            self._no_room = no_room
            self.changed.emit()
        if not room and self.idle_ms is not None and not self._closed:
            self._timer.start(max(self.idle_ms, NO_ROOM_RETRY_MS))  # look again later
        return room

    # --- measuring --------------------------------------------------------------------------------
    def start(self) -> None:
        """Measure now, on the tuner's thread (normally called after an idle spell)."""
        pick = self._pick
        if self._closed or self.measuring or pick is None or pick.plan is None:
            return
        token = CancelToken()
        self._token = token
        baseline = self._info.baseline_key if self._info is not None else ""
        args = (pick.plan, token, self._partial, baseline)
        self._run = self._ops.start_own(self._work, *args, name=CALIBRATION_THREAD)
        self.calibrationStarted.emit()

    def _stop(self) -> None:
        if self._token is not None:
            self._token.cancel()

    def _work(
        self,
        plan: AutoLaunch,
        token: CancelToken,
        partial: dict[auto.Candidate, auto.Measurement],
        baseline: str,
    ) -> None:
        """The tuner's thread: measure (resuming from ``partial``), store, record plain speeds."""

        def load(req: LoadRequest) -> Engine:
            return self._loader(plan.engine, req, LoadProgress(None, token))

        def report(fraction: float, step: auto.Step) -> None:
            if shiboken6.isValid(self):
                with contextlib.suppress(RuntimeError):
                    self.progress.emit(fraction, step.code)

        kind: str
        payload: Any
        try:
            result = auto.calibrate(
                plan.key, plan.base, plan.drafter_path, plan.candidates, load, token, report, partial=partial
            )
            result.demoted = auto.load_demoted(plan.key)
            auto.store_result(result)
            if baseline:
                record_plain_speeds(self._baselines, baseline, result)
            kind, payload = "done", result
        except (auto.CalibrationCancelled, LoadCancelled):
            kind, payload = "cancelled", None
        except Exception as exc:  # said in the strip's tooltip and the log; the chat goes on
            log.warning("Auto's background measurement failed", exc_info=exc)
            kind, payload = "failed", str(exc)
        if shiboken6.isValid(self):
            with contextlib.suppress(RuntimeError):  # the window went away meanwhile
                self._ended.emit(kind, payload)

    def _on_ended(self, kind: str, payload: object) -> None:
        self._run, self._token = None, None
        if self._closed:
            return
        if kind == "cancelled":
            self.calibrationCancelled.emit()
            self.resume()
        elif kind == "failed":
            self._partial = {}
            if self._pick is not None:  # keep the prior; do not retry in a loop
                self._pick = replace(self._pick, measured=True, why=str(payload))
            self.calibrationFailed.emit(str(payload))
            self.changed.emit()
        elif kind == "done":
            assert isinstance(payload, auto.CalibrationResult)
            self._on_measured(payload)

    def _on_measured(self, result: auto.CalibrationResult) -> None:
        self._result = result
        pick = self._pick
        if pick is None or pick.plan is None or pick.plan.key != result.key:
            self.calibrationFinished.emit(result)
            return  # another model was loaded meanwhile (its own partial measurements stay)
        self._partial = {}
        chosen = result.choice
        measured = AutoPick(
            chosen.candidate.label, chosen.why, str(result.stored_path), True, chosen.candidate, pick.plan
        )
        if chosen.candidate != pick.candidate:
            self._change = (pick.label, QCoreApplication.translate("AutoTuner", "measured on this machine"))
            self._request_switch()
        self._set_pick(measured)
        self.calibrationFinished.emit(result)

    def _set_pick(self, pick: AutoPick) -> None:
        self._pick = pick
        if self._info is not None:
            self._info.auto = pick  # the chat's notice and Re-measure read the loaded pick
        self.changed.emit()

    def _request_switch(self) -> None:
        """Reload with the new choice now if the chat is idle, else after the current answer."""
        if self._is_busy() or self._engine.busy:  # (a hold by the dialog does not delay a switch)
            self._switch_pending = True
        else:
            self.switchRequested.emit()

    # --- the user's answers -----------------------------------------------------------------------
    def on_answer(self, stats: AnswerStats) -> None:
        """A finished answer: keep its speedup against the plain speed; demote a losing choice."""
        pick, info = self._pick, self._info
        if pick is None or info is None or pick.plan is None or pick.candidate is None:
            return
        if pick.candidate == auto.OFF or stats.speculation != info.speculation or stats.speedup is None:
            return
        self._speedups = [*self._speedups, stats.speedup][-AUTO_WINDOW:]
        losses = [r for r in self._speedups if r < 1.0]
        if len(losses) < AUTO_LOSSES:
            return
        ratio = statistics.median(self._speedups)
        plan = pick.plan
        try:
            demoted = auto.store_demoted(plan.key, pick.candidate, ratio)
        except OSError as exc:
            log.warning("Auto's demotion not stored: %s", exc)
            return
        stored = auto.load_result(plan.key)
        nxt = stored.choice.candidate if stored is not None else plan.prior(demoted)
        self._speedups = []
        lost = QCoreApplication.translate("AutoTuner", "{ratio} vs plain on your answers")
        self._change = (pick.label, lost.format(ratio=auto.ratio_text(ratio)))
        self._pick = replace(pick, label=nxt.label, candidate=nxt)
        self.changed.emit()
        self._request_switch()

    # --- end --------------------------------------------------------------------------------------
    def shutdown(self, timeout: float = 5.0) -> None:
        """Stop measuring (the window closes): the calibration ends at its next token, closes its
        engines and its thread ends; waited for at most ``timeout`` seconds."""
        self._closed = True
        self._timer.stop()
        self._stop()
        if self._run is not None:
            self._ops.join_own(timeout, CALIBRATION_THREAD)


def record_plain_speeds(store: BaselineStore, key: str, result: auto.CalibrationResult) -> None:
    """The calibration's spec-off answers are plain answers of this file on this machine."""
    for m in result.measurements:
        for detail in m.details.values():
            if not isinstance(detail, dict):
                continue
            tps, tokens = detail.get("off_tps"), detail.get("off_tokens")
            if isinstance(tps, int | float) and isinstance(tokens, int):
                store.record(key, float(tps), tokens)
