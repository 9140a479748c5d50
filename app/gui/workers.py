"""The only place threads meet Qt.

* :class:`EngineHost` owns the engine thread. Every call to a loaded engine (load, generate,
  close) runs there, one at a time. Events are buffered and the GUI drains the buffer on a timer,
  so the UI thread never repaints per token.
* :func:`install_exception_hooks` routes uncaught errors from any thread to the one error path.

Signals emitted from a worker thread reach slots on the GUI thread as queued calls, because the
emitting objects live on the GUI thread.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import sys
import threading
import traceback
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import shiboken6
from PySide6.QtCore import QObject, Signal

from app.core.chat.context import fit_history
from app.core.engines.base import CancelToken, ChatMessage, Engine, Event, Sampling, TokenCounter
from app.core.engines.worker import LoadCancelled, LoadProgress
from app.core.launch import auto
from app.core.launch.plan import AutoLaunch
from app.core.settings import LastLaunch

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class AutoPick:
    """What Auto chose for a launch: the candidate's label, why, and where the measurement is.

    ``measured`` is False while Auto runs its prior (nothing measured here yet): the
    launch did not wait, and :class:`~app.gui.controllers.auto_tuner.AutoTuner` measures in the
    background from ``plan``."""

    label: str
    why: str = ""
    stored: str = ""
    measured: bool = True
    candidate: auto.Candidate | None = None
    plan: AutoLaunch | None = None


@dataclass
class ModelInfo:
    """What the window, the chat and the server know of the loaded model (one typed
    record instead of a dict of 13 keys read in 27 places). A load job fills it; the host
    publishes a copy once the model is loaded (:attr:`EngineHost.info`)."""

    engine: str = ""
    #: the family's name, or a remote server's label
    family: str = ""
    #: what the stats strip names ("draft 4/round", "Auto: ngram-mod 64/round", "" when off)
    speculation: str = ""
    size: str = ""
    quantization: str = ""
    format: str = ""
    #: the sampling the chat answers with once the model is loaded
    sampling: Sampling | None = None
    #: the launch as the settings store it (None for a remote server: no files to reopen)
    launch: LastLaunch | None = None
    #: plain and speculative answers of one file, engine and thread count are compared
    baseline_key: str = ""
    endpoint: str = ""
    server_kind: str = ""
    remote_model: str = ""
    auto: AutoPick | None = None
    #: the model's label (the job's), set when published
    label: str = ""
    #: the method the engine runs (:attr:`Engine.spec_kind`, None: off or unknown), read on the
    #: engine thread when published (a remote engine asks its server)
    spec_kind: str | None = None
    #: the loaded model reads images (:attr:`Engine.supports_images`, read on the engine thread
    #: when published); the chat refuses attachments before sending when False
    vision: bool = False


@dataclass
class LoadJob:
    """Everything needed to load one model; ``loader`` runs on the engine thread.

    The loader may fill in ``info`` (e.g. what it resolved); the host publishes a copy of it
    with the job's label as :attr:`EngineHost.info` after the loader returns.
    """

    label: str
    loader: Callable[[Callable[[str], None]], Engine]
    info: ModelInfo = field(default_factory=ModelInfo)


_QUIT = object()
#: How long :meth:`EngineHost.shutdown` waits for the engine thread on the GUI thread.
SHUTDOWN_WAIT = 0.5


class EngineHost(QObject):
    """Runs one engine on its own thread.

    Signals: ``loadProgress(str)``, ``loaded(object info)``, ``loadFailed(object exc)``,
    ``loadCancelled()``, ``eventsReady()``, ``historyTrimmed(int dropped)``,
    ``generationDone(bool cancelled)``, ``generationFailed(object exc)``, ``unloaded()``,
    ``busyChanged(bool)``.

    State is published only through signals: the engine thread never writes what the
    GUI reads. It reports the end of each job with the private ``_ended`` signal; the GUI-thread
    slot updates :attr:`info`, :attr:`busy` and :attr:`current_engine`, then emits the public
    signal, so a subscriber always sees the state that goes with it.

    Before a generation, a history too long for the engine's context is trimmed to the newest
    turns that fit (:func:`app.core.chat.context.fit_history`), on the engine thread: measuring a
    long history with the tokenizer never blocks the GUI. ``historyTrimmed`` then says how many
    messages were left out, before the answer's first events.
    """

    loadProgress = Signal(str)
    loaded = Signal(object)
    loadFailed = Signal(object)
    loadCancelled = Signal()
    eventsReady = Signal()
    historyTrimmed = Signal(int)
    generationDone = Signal(bool)
    generationFailed = Signal(object)
    unloaded = Signal()
    busyChanged = Signal(bool)
    _ended = Signal(str, object, object)  # kind, payload, engine (engine thread -> GUI thread)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._commands: queue.Queue[Any] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._engine: Engine | None = None
        self._events: deque[Event] = deque()
        self._lock = threading.Lock()
        self._cancel: CancelToken | None = None
        # GUI-thread state, written only by the GUI thread
        self._jobs = 0  # loads and generations sent and not yet ended
        self._published: Engine | None = None
        self.info: ModelInfo | None = None
        self._ended.connect(self._on_ended)

    # --- GUI-thread API --------------------------------------------------------------------
    @property
    def is_loaded(self) -> bool:
        return self.info is not None

    @property
    def current_engine(self) -> Engine | None:
        """The loaded engine (the local API server sends its requests to it)."""
        return self._published

    @property
    def busy(self) -> bool:
        return self._jobs > 0

    def load(self, job: LoadJob) -> CancelToken:
        token = CancelToken()
        self._cancel = token
        self.info = None  # the loaded model is replaced: nothing is loaded until this one is
        self._published = None
        self._job_started()
        self._send(("load", job, token))
        return token

    def generate(self, messages: Sequence[ChatMessage], sampling: Sampling) -> CancelToken:
        token = CancelToken()
        self._cancel = token
        with self._lock:
            self._events.clear()
        self._job_started()
        self._send(("generate", list(messages), sampling, token))
        return token

    def cancel(self) -> None:
        """Stop the current load or generation (the engine checks between tokens/steps)."""
        if self._cancel is not None:
            self._cancel.cancel()

    def unload(self) -> None:
        self._send(("unload",))

    def drain(self) -> list[Event]:
        with self._lock:
            out = list(self._events)
            self._events.clear()
        return out

    def shutdown(self, timeout: float = SHUTDOWN_WAIT) -> None:
        """Cancel, close the engine and wait at most ``timeout`` seconds. Safe to call twice.

        Closing the window must return within a second whatever the engine is doing:
        a load or a generation sees the cancel at its next step, and what cannot be interrupted
        (a native model load, a prefill) finishes on the engine's own daemon thread, which then
        frees the model; the process waits for that at exit, bounded
        (:data:`app.core.engines.worker.EXIT_WAIT`).
        """
        self.cancel()
        thread = self._thread
        if thread is None:
            return
        self._commands.put(_QUIT)
        thread.join(timeout)
        if thread.is_alive():
            log.info("the engine finishes its current step in the background")
        self._thread = None

    def _send(self, command: tuple[Any, ...]) -> None:
        if self._thread is None:
            # daemon: a host whose engine is still busy at exit never keeps the process alive
            self._thread = threading.Thread(target=self._run, name="tandem-engine", daemon=True)
            self._thread.start()
        self._commands.put(command)

    def _job_started(self) -> None:
        self._jobs += 1
        if self._jobs == 1:
            self.busyChanged.emit(True)

    def _on_ended(self, kind: str, payload: object, engine: object) -> None:
        """GUI thread: update the state, then tell the subscribers."""
        if kind != "unloaded" and self._jobs > 0:
            self._jobs -= 1
            if self._jobs == 0:
                self.busyChanged.emit(False)
        if kind == "loaded":
            assert isinstance(payload, ModelInfo)
            self.info = payload
            self._published = cast(Engine, engine)
            self.loaded.emit(payload)
        elif kind == "unloaded":
            self.info = None
            self._published = None
            self.unloaded.emit()
        elif kind == "loadCancelled":
            self.loadCancelled.emit()
        elif kind == "loadFailed":
            self.loadFailed.emit(payload)
        elif kind == "generationDone":
            self.generationDone.emit(bool(payload))
        elif kind == "generationFailed":
            self.generationFailed.emit(payload)

    # --- engine thread -----------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            command = self._commands.get()
            if command is _QUIT:
                self._close_engine()
                return
            kind = command[0]
            try:
                if kind == "load":
                    self._do_load(command[1], command[2])
                elif kind == "generate":
                    self._do_generate(command[1], command[2], command[3])
                elif kind == "unload":
                    self._close_engine()
                    self._ended.emit("unloaded", None, None)
            except RuntimeError:
                if shiboken6.isValid(self):
                    log.exception("engine thread command %s failed", kind)
                    continue
                # the window (and this host's C++ object) is gone while the engine still worked:
                # nobody reads the result any more; free the model and end quietly
                log.debug("engine host deleted during %s; the engine thread ends", kind)
                self._close_engine()
                return
            except Exception:  # never let the engine thread die silently
                log.exception("engine thread command %s failed", kind)

    def _do_load(self, job: LoadJob, token: CancelToken) -> None:
        self._close_engine()

        # carries the token: a native load that reports nothing still sees the Cancel
        progress = LoadProgress(self.loadProgress.emit, token)
        try:
            engine = job.loader(progress)
        except LoadCancelled:
            self._ended.emit("loadCancelled", None, None)
            return
        except Exception as exc:
            self._ended.emit("loadFailed", exc, None)
            return
        if token.cancelled:  # the loader finished before it noticed: honour the cancel
            engine.close()
            self._ended.emit("loadCancelled", None, None)
            return
        self._engine = engine
        try:
            spec_kind = engine.spec_kind
        except Exception:  # a server that cannot say: the chat offers Auto
            log.exception("the engine could not tell its speculation method")
            spec_kind = None
        try:
            vision = bool(engine.supports_images)
        except Exception:  # a server that cannot say: images are sent and it answers
            log.exception("the engine could not tell whether it reads images")
            vision = True
        self._ended.emit(
            "loaded",
            dataclasses.replace(job.info, label=job.label, spec_kind=spec_kind, vision=vision),
            engine,
        )

    def _do_generate(self, messages: list[ChatMessage], sampling: Sampling, token: CancelToken) -> None:
        engine = self._engine
        try:
            if engine is None:
                from app.core.engines.base import GenerationError

                raise GenerationError("no model is loaded", "Load a model from the Models page first.")
            if isinstance(engine, TokenCounter):
                fitted = fit_history(messages, engine.count_prompt_tokens, engine.n_ctx, sampling.max_tokens)
                messages = fitted.messages
                if fitted.dropped:
                    self.historyTrimmed.emit(fitted.dropped)
            for event in engine.generate(messages, sampling, token):
                with self._lock:
                    was_empty = not self._events
                    self._events.append(event)
                if was_empty:
                    self.eventsReady.emit()
                if token.cancelled:
                    break
        except Exception as exc:
            self._ended.emit("generationFailed", exc, None)
            return
        self._ended.emit("generationDone", token.cancelled, None)

    def _close_engine(self) -> None:
        engine, self._engine = self._engine, None
        if engine is not None:
            try:
                engine.close()
            except Exception:
                log.exception("closing the engine failed")


# --- one error path -------------------------------------------------------------------------

_reporter: Callable[[BaseException], None] | None = None


def report_exception(exc: BaseException) -> None:
    if _reporter is not None:
        _reporter(exc)
    else:
        log.error("unhandled error", exc_info=exc)


def install_exception_hooks(reporter: Callable[[BaseException], None]) -> Callable[[], None]:
    """Route uncaught exceptions (any thread) to ``reporter``; returns a function that undoes it.

    ``reporter`` must be safe to call from any thread (the error bridge emits a queued signal).
    """
    global _reporter
    old_sys, old_thread = sys.excepthook, threading.excepthook
    _reporter = reporter

    def sys_hook(etype: type[BaseException], value: BaseException, tb: Any) -> None:
        log.error("uncaught exception\n%s", "".join(traceback.format_exception(etype, value, tb)))
        reporter(value)

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_value is not None:
            log.error(
                "uncaught exception in thread %s",
                args.thread.name if args.thread else "?",
                exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
            )
            reporter(args.exc_value)

    sys.excepthook = sys_hook
    threading.excepthook = thread_hook

    def restore() -> None:
        global _reporter
        sys.excepthook, threading.excepthook = old_sys, old_thread
        _reporter = None

    return restore
