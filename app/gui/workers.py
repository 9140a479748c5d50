"""The loaded model and the one error path.

* :class:`EngineHost` holds the loaded model and its engine pool: loads run on a thread of their
  own, answers are the engine's async stream relayed from the engine loop to the window's loop.
* :func:`install_exception_hooks` routes uncaught errors from any thread to the one error path.

Signals emitted from a load thread reach slots on the GUI thread as queued calls, because the
emitting objects live on the GUI thread.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import sys
import threading
import traceback
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, cast

import shiboken6
from PySide6.QtCore import QObject, Signal

from app.core.engines.base import (
    CancelToken,
    Engine,
    Event,
    GenerateRequest,
    GenerationError,
    LoadRequest,
    Sampling,
    SpeculationSwitch,
)
from app.core.engines.loop import engine_loop
from app.core.engines.worker import LoadCancelled, LoadProgress
from app.core.launch import auto
from app.core.launch.auto.router import RequestRouter
from app.core.launch.plan import AutoLaunch
from app.core.serving.pool import EnginePool, pool_for
from app.core.settings import LastLaunch
from app.core.speculative import per_request
from app.gui.ops import Ops

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
    #: the model's Auto launch (its calibration key, candidates and drafter), whether or not it
    #: was launched with Auto: the conversation's "Auto" is routed per request from it
    routes_plan: AutoLaunch | None = None


@dataclass
class LoadJob:
    """Everything needed to load one model; ``loader`` runs on the engine thread.

    The loader may fill in ``info`` (e.g. what it resolved); the host publishes a copy of it
    with the job's label as :attr:`EngineHost.info` after the loader returns.
    """

    label: str
    loader: Callable[[Callable[[str], None]], Engine]
    info: ModelInfo = field(default_factory=ModelInfo)


#: How long :meth:`EngineHost.shutdown` waits for a load or a close under way on the GUI thread.
SHUTDOWN_WAIT = 0.5
#: the name of the threads loads, unloads and closes run on
LOAD_THREAD = "tandem-load"

#: the pool's loader for a configuration started for a request (the launch's engine)
PoolLoader = Callable[[LoadRequest, Callable[[str], None]], Engine]


class EngineHost(QObject):
    """Holds the loaded model and serves it: the window's chat and its Local server both ask here.

    Signals: ``loadProgress(str)``, ``loaded(object info)``, ``loadFailed(object exc)``,
    ``loadCancelled()``, ``unloaded()``, ``busyChanged(bool)`` (a load or an unload is under way),
    ``eventsReady()`` (an answer's first events arrived).

    * A load runs on a thread of its own that ends with it (``tandem-load``, from
      :meth:`~app.gui.ops.Ops.start_own`): a native load or a
      llama.cpp child's start never blocks the GUI. The state it produces is published on the GUI
      thread (the private ``_ended`` signal), so a subscriber always sees the state that goes
      with it. An unload closes the model on a short thread the same way.
    * A loaded llama.cpp model gets its :class:`~app.core.serving.pool.EnginePool`, the same one the
      Local server serves: a conversation's speculation (off, a method, Auto routed per request
      by the same router as ``tandem serve``) is a per-request choice answered by the pool's child
      for it, started beside the loaded one on first use, never a reload.
    * Answers are read with :meth:`stream`: the engine's async stream on the engine loop
      (:mod:`app.core.engines.loop`), relayed to the window's qasync loop. No thread per answer.
    """

    loadProgress = Signal(str)
    loaded = Signal(object)
    loadFailed = Signal(object)
    loadCancelled = Signal()
    unloaded = Signal()
    busyChanged = Signal(bool)
    eventsReady = Signal()
    _ended = Signal(str, object, object)  # kind, payload, engine (load thread -> GUI thread)

    def __init__(
        self,
        ops: Ops,
        parent: QObject | None = None,
        pool_loader: PoolLoader | None = None,
    ) -> None:
        super().__init__(parent)
        self._ops = ops
        self._cancel: CancelToken | None = None
        #: loads and unloads run one after the other
        self._turn = threading.Lock()
        # GUI-thread state, written only by the GUI thread
        self._jobs = 0  # loads and unloads sent and not yet ended
        self._published: Engine | None = None
        self.pool: EnginePool | None = None
        self.info: ModelInfo | None = None
        #: loads a configuration the pool starts for a request; None: no pool (a test's engine)
        self._pool_loader = pool_loader
        self._closed = False
        self._ended.connect(self._on_ended)

    # --- GUI-thread API --------------------------------------------------------------------
    @property
    def is_loaded(self) -> bool:
        return self.info is not None

    @property
    def current_engine(self) -> Engine | None:
        """The loaded engine (the base of the pool when there is one)."""
        return self._published

    @property
    def busy(self) -> bool:
        """A load or an unload is under way."""
        return self._jobs > 0

    def load(self, job: LoadJob) -> CancelToken:
        token = CancelToken()
        self._cancel = token
        self.info = None  # the loaded model is replaced: nothing is loaded until this one is
        engine, pool = self._published, self.pool
        self._published, self.pool = None, None
        self._job_started()
        self._spawn(lambda: self._do_load(job, token, engine, pool))
        return token

    def cancel(self) -> None:
        """Stop the load under way (answers are stopped by cancelling their task)."""
        if self._cancel is not None:
            self._cancel.cancel()

    def unload(self) -> None:
        engine, pool = self._published, self.pool
        self._published, self.pool = None, None
        self._job_started()
        self._spawn(lambda: self._do_unload(engine, pool))

    def offers(self) -> list[str]:
        """What a conversation may choose without a reload: the pool's configurations (auto and
        off included), or what an engine that switches per request offers (MLX), else nothing
        beyond what the loaded engine runs."""
        pool, engine = self.pool, self._published
        if pool is not None:
            return pool.offers()
        if isinstance(engine, SpeculationSwitch):
            return [per_request.AUTO, *engine.offers()]
        return []

    @property
    def routed(self) -> bool:
        """Auto picks each answer's configuration by its kind (a pool with Auto's router)."""
        return self.pool is not None and self.pool.route is not None

    @property
    def base_label(self) -> str:
        """The configuration the launch loaded ("off" without speculation)."""
        if self.pool is not None:
            return self.pool.base_label
        engine = self._published
        return per_request.running(engine.spec_kind if engine is not None else None)

    async def resolve(self, choice: str, request: GenerateRequest, loop: asyncio.AbstractEventLoop) -> str:
        """The configuration that answers ``request`` for a conversation choosing ``choice``
        (Auto routed by its kind), decided on the engine loop where the pool lives. Without a
        pool Auto is what the launch loaded."""
        pool = self.pool
        if pool is None:
            return self.base_label if choice == per_request.AUTO else choice

        async def decide() -> str:
            label = pool.resolve(choice, request)
            log.debug("a conversation choosing %s is answered by %s", choice, label)
            return label

        return await asyncio.wrap_future(engine_loop().submit(decide()), loop=loop)

    async def stream(
        self, label: str, request: GenerateRequest, loop: asyncio.AbstractEventLoop
    ) -> AsyncIterator[Event]:
        """``request``'s events from the configuration ``label`` (the pool's child for it, started
        on first use), read on the engine loop and handed to ``loop`` as they come. Cancelling the
        consumer stops the request in the engine."""
        engine, pool = self._published, self.pool
        if engine is None:
            raise GenerationError("no model is loaded", "Load a model from the Models page first.")

        def produce() -> AsyncIterator[Event]:
            if pool is not None:
                return pool.stream(label, request)
            if isinstance(engine, SpeculationSwitch):  # the engine switches inside its own loop
                return engine.stream(dataclasses.replace(request, speculation=label))
            return engine.stream(request)

        first = True
        async for event in engine_loop().relay(produce, loop):
            yield event
            if first:
                first = False
                self.eventsReady.emit()

    def shutdown(self, timeout: float = SHUTDOWN_WAIT) -> None:
        """Cancel a load, close the model and wait at most ``timeout`` seconds. Safe to call twice.

        Closing the window returns within a second whatever the engine is doing: a llama.cpp child
        ends at once; what cannot be interrupted (an MLX prefill) finishes on the engine's own
        daemon thread, which then frees the model; the process waits for that at exit, bounded
        (:data:`app.core.engines.worker.EXIT_WAIT`).
        """
        self.cancel()
        self._closed = True
        engine, pool = self._published, self.pool
        self._published, self.pool, self.info = None, None, None
        if pool is not None:
            pool.stop_loading()
        if engine is not None or pool is not None:
            self._spawn(lambda: _close(engine, pool))
        if not self._ops.join_own(timeout, LOAD_THREAD):
            log.info("the engine finishes its current step in the background")

    def _spawn(self, work: Callable[[], None]) -> None:
        def run() -> None:
            try:
                with self._turn:
                    work()
            except Exception:  # never let a load thread die silently
                log.exception("engine host work failed")

        # a daemon: a load still running at exit never keeps the process alive
        self._ops.start_own(run, name=LOAD_THREAD)

    def _job_started(self) -> None:
        self._jobs += 1
        if self._jobs == 1:
            self.busyChanged.emit(True)

    def _on_ended(self, kind: str, payload: object, engine: object) -> None:
        """GUI thread: update the state, then tell the subscribers."""
        if self._jobs > 0:
            self._jobs -= 1
            if self._jobs == 0:
                self.busyChanged.emit(False)
        if kind == "loaded":
            assert isinstance(payload, ModelInfo)
            loaded, pool = cast("tuple[Engine, EnginePool | None]", engine)
            if self._closed:
                self._spawn(lambda: _close(loaded, pool))
                return
            self.info = payload
            self._published, self.pool = loaded, pool
            self.loaded.emit(payload)
        elif kind == "unloaded":
            self.info = None
            self.unloaded.emit()
        elif kind == "loadCancelled":
            self.loadCancelled.emit()
        elif kind == "loadFailed":
            self.loadFailed.emit(payload)

    def _pool_of(self, info: ModelInfo, engine: Engine) -> EnginePool | None:
        """The loaded llama.cpp model's pool (None for other engines: they run what they loaded),
        with Auto's routes for the model (load thread: the routes are read from disk)."""
        if self._pool_loader is None:
            return None
        plan = info.routes_plan
        route: RequestRouter | None = None
        if plan is not None:
            try:
                route = RequestRouter.for_model(plan.key, plan.candidates, plan.drafter_path)
            except Exception:  # no routes: Auto answers on the loaded configuration
                log.exception("Auto's routes for the loaded model could not be read")
        configurations = route.configurations() if route is not None else None
        drafter = (
            (plan.drafter_method, plan.drafter_path)
            if plan and plan.drafter_method and plan.drafter_path
            else None
        )
        # "auto" is routed per request on an Auto launch; on a launch with a fixed method it is that
        # method (the rule of `tandem serve`), and the routes only add their configurations
        routed = route if info.auto is not None else None
        return pool_for(engine, self._pool_loader, drafter, route=routed, extra=configurations)

    # --- load thread -----------------------------------------------------------------------------
    def _do_load(
        self, job: LoadJob, token: CancelToken, engine: Engine | None, pool: EnginePool | None
    ) -> None:
        _close(engine, pool)
        # carries the token: a native load that reports nothing still sees the Cancel
        progress = LoadProgress(self._progress, token)
        try:
            loaded = job.loader(progress)
        except LoadCancelled:
            self._emit("loadCancelled", None, None)
            return
        except Exception as exc:
            self._emit("loadFailed", exc, None)
            return
        if token.cancelled:  # the loader finished before it noticed: honour the cancel
            loaded.close()
            self._emit("loadCancelled", None, None)
            return
        try:
            spec_kind = loaded.spec_kind
        except Exception:  # a server that cannot say: the chat offers Auto
            log.exception("the engine could not tell its speculation method")
            spec_kind = None
        try:
            vision = bool(loaded.supports_images)
        except Exception:  # a server that cannot say: images are sent and it answers
            log.exception("the engine could not tell whether it reads images")
            vision = True
        info = dataclasses.replace(job.info, label=job.label, spec_kind=spec_kind, vision=vision)
        if info.routes_plan is None and info.auto is not None:
            info.routes_plan = info.auto.plan
        pool = self._pool_of(info, loaded)
        if not self._emit("loaded", info, (loaded, pool)):
            _close(loaded, pool)  # the window is gone: nobody reads the result any more

    def _do_unload(self, engine: Engine | None, pool: EnginePool | None) -> None:
        _close(engine, pool)
        self._emit("unloaded", None, None)

    def _progress(self, message: str) -> None:
        if shiboken6.isValid(self):
            self.loadProgress.emit(message)

    def _emit(self, kind: str, payload: object, engine: object) -> bool:
        """Publish to the GUI thread; False when the host (and its window) is gone."""
        if not shiboken6.isValid(self):
            return False
        try:
            self._ended.emit(kind, payload, engine)
        except RuntimeError:
            return False
        return True


def _close(engine: Engine | None, pool: EnginePool | None) -> None:
    """Close a pool's children, then the engine (on a load or unload thread)."""
    if pool is not None:
        try:
            pool.close()
        except Exception:
            log.exception("closing the engine pool failed")
    if engine is not None:
        try:
            engine.close()
        except Exception:
            log.exception("closing the engine failed")


# --- one error path -------------------------------------------------------------------------


def install_exception_hooks(reporter: Callable[[BaseException], None]) -> Callable[[], None]:
    """Route uncaught exceptions (any thread) to ``reporter``; returns a function that undoes it.

    ``reporter`` must be safe to call from any thread (the error bridge emits a queued signal).
    """
    old_sys, old_thread = sys.excepthook, threading.excepthook

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
        sys.excepthook, threading.excepthook = old_sys, old_thread

    return restore
