"""The engine host: the one object the window, its chat and its Local server ask for the loaded
model (:class:`EngineHost`).

It runs loads and unloads through :class:`~app.gui.engine.loading.ModelLoading` and publishes
their outcome on the GUI thread; answers go to the published
:class:`~app.gui.engine.serving.LoadedModel`. Signals emitted from a load thread reach slots on
the GUI thread as queued calls, because the host lives on the GUI thread.

Many models: the host answers from one model at a time (the *current* one, :attr:`info`), and
keeps the models loaded before it on a shelf while their memory fits (:data:`SHELF_FRACTION` of
what the machine has, counting what they hold). Switching to a shelved model
(:meth:`EngineHost.switch_to`) takes no load; a load that needs room closes the least recently
used shelved model that is not answering. Answers already running on a model go on when another
becomes current: they read from the model they started on.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import shiboken6
from PySide6.QtCore import QObject, Signal

from app.core.engines.base import CancelToken, Engine, Event, GenerateRequest
from app.core.engines.loop import engine_loop
from app.core.pool.pool import EnginePool
from app.core.speculative.per_request import Speculation
from app.gui.engine.info import ModelInfo
from app.gui.engine.loading import LoadJob, ModelLoading
from app.gui.engine.serving import LoadedModel, PoolLoader
from app.gui.ops import Ops

log = logging.getLogger(__name__)

#: How long :meth:`EngineHost.shutdown` waits for a load or a close under way on the GUI thread.
SHUTDOWN_WAIT = 0.5
#: loaded models stay while together they take at most this share of the memory the machine has
#: for them (free now plus what they hold)
SHELF_FRACTION = 0.85


@dataclass(frozen=True)
class LoadedEntry:
    """A loaded model as the status bar lists it."""

    label: str
    memory_bytes: int
    current: bool
    answering: bool


class EngineHost(QObject):
    """Holds the loaded model and serves it: the window's chat and its Local server both ask here.

    Signals: ``loadProgress(str)``, ``loaded(object info)``, ``loadFailed(object exc)``,
    ``loadCancelled()``, ``unloaded()``, ``busyChanged(bool)`` (a load or an unload is under way),
    ``eventsReady()`` (an answer's first events arrived), ``modelsChanged()`` (the loaded models
    changed: :meth:`loaded_models`).

    * Loads and unloads run on threads of their own (:mod:`app.gui.engine.loading`). The state
      they produce (:attr:`info`, the loaded model, :attr:`busy`) is written on the GUI thread
      only, when their outcome arrives (the private ``_ended`` signal), so a subscriber always
      sees the state that goes with it.
    * A loaded llama.cpp model is served by its engine pool, the same one the Local server serves
      (:mod:`app.gui.engine.serving`); :meth:`resolve` and :meth:`stream` answer from it.
    """

    loadProgress = Signal(str)
    loaded = Signal(object)
    loadFailed = Signal(object)
    loadCancelled = Signal()
    unloaded = Signal()
    busyChanged = Signal(bool)
    eventsReady = Signal()
    modelsChanged = Signal()
    _ended = Signal(str, object, object)  # kind, payload, loaded model (load thread -> GUI thread)

    def __init__(
        self,
        ops: Ops,
        parent: QObject | None = None,
        pool_loader: PoolLoader | None = None,
    ) -> None:
        super().__init__(parent)
        self._cancel: CancelToken | None = None
        # GUI-thread state, written only by the GUI thread
        self._jobs = 0  # loads and unloads sent and not yet ended
        self._served = LoadedModel()
        self.info: ModelInfo | None = None
        #: models loaded before the current one, least recently used first
        self._shelf: OrderedDict[str, tuple[ModelInfo, LoadedModel]] = OrderedDict()
        #: the callbacks of loads beside the current model, by label
        self._shelf_waiters: dict[str, list[Callable[[BaseException | None], None]]] = {}
        #: the memory loaded models may take together (None: what the machine has, see
        #: :data:`SHELF_FRACTION`)
        self.memory_budget: int | None = None
        self._closed = False
        #: ``pool_loader`` loads a configuration the pool starts for a request; None: no pool (a
        #: test's engine)
        self._loading = ModelLoading(ops, self._emit, self._progress, pool_loader)
        self._ended.connect(self._on_ended)

    # --- GUI-thread API --------------------------------------------------------------------
    @property
    def is_loaded(self) -> bool:
        return self.info is not None

    @property
    def current_engine(self) -> Engine | None:
        """The loaded engine (the base of the pool when there is one)."""
        return self._served.engine

    @property
    def pool(self) -> EnginePool | None:
        """The loaded llama.cpp model's engine pool (None for other engines and without a model)."""
        return self._served.pool

    @property
    def busy(self) -> bool:
        """A load or an unload is under way."""
        return self._jobs > 0

    def load(self, job: LoadJob, keep: bool = False) -> CancelToken:
        """Load ``job``'s model as the current one. The model it replaces is closed first, or with
        ``keep`` stays loaded on the shelf while memory allows (:meth:`switch_to` returns to it)."""
        token = CancelToken()
        self._cancel = token
        replaced, self._served = self._served, LoadedModel()
        if job.label in self._shelf:  # a shelved copy of the model is replaced too
            _, again = self._shelf.pop(job.label)
            self._loading.close(again)
        if keep and self.info is not None and not replaced.empty and self.info.label != job.label:
            self._shelf[self.info.label] = (self.info, replaced)
            replaced = LoadedModel()
        self.info = None  # nothing is current until the new model is loaded
        self._job_started()
        self._loading.load(job, token, replaced)
        self.modelsChanged.emit()
        return token

    # --- many models ---------------------------------------------------------------------------
    def load_shelved(self, job: LoadJob, done: Callable[[BaseException | None], None]) -> None:
        """Load ``job``'s model beside the current one (for a request of the Local server): it
        goes on the shelf, the current model stays; ``done`` gets None once it is there, or the
        error (GUI thread)."""
        if self.is_loaded_model(job.label):
            done(None)
            return
        self._shelf_waiters.setdefault(job.label, []).append(done)
        if len(self._shelf_waiters[job.label]) > 1:
            return  # its load is under way
        self._job_started()
        self._loading.load(job, CancelToken(), LoadedModel(), kind="shelved")

    def loading_shelved(self) -> list[str]:
        """The models loading beside the current one."""
        return list(self._shelf_waiters)

    def loaded_items(self) -> list[tuple[ModelInfo, LoadedModel, bool]]:
        """``(info, model, current)`` of every loaded model, the current one first."""
        items = [(self.info, self._served, True)] if self.info is not None else []
        return items + [(info, model, False) for info, model in reversed(self._shelf.values())]

    def switch_to(self, label: str) -> bool:
        """Make the shelved model ``label`` the current one at once (the current one goes on the
        shelf); False when it is not on the shelf (it needs a load) or a load is under way."""
        if label not in self._shelf or self.busy:
            return False
        info, model = self._shelf.pop(label)
        if self.info is not None and not self._served.empty:
            self._shelf[self.info.label] = (self.info, self._served)
        self.info, self._served = info, model
        self.loaded.emit(info)
        self.modelsChanged.emit()
        return True

    def loaded_models(self) -> list[LoadedEntry]:
        """The current model first, then the shelved ones, most recently used first."""
        out: list[LoadedEntry] = []
        if self.info is not None:
            out.append(LoadedEntry(self.info.label, self.info.memory_bytes, True, self._served.active > 0))
        for label, (info, model) in reversed(self._shelf.items()):
            out.append(LoadedEntry(label, info.memory_bytes, False, model.active > 0))
        return out

    def is_loaded_model(self, label: str) -> bool:
        return label in self._shelf or (self.info is not None and self.info.label == label)

    def budget(self) -> int:
        """The memory loaded models may take together: :attr:`memory_budget`, else
        :data:`SHELF_FRACTION` of what is free now plus what the loaded models hold."""
        if self.memory_budget is not None:
            return self.memory_budget
        from app.core.catalog.fit import available_memory

        held = sum(e.memory_bytes for e in self.loaded_models())
        return int(SHELF_FRACTION * (available_memory() + held))

    def unload_model(self, label: str) -> bool:
        """Unload ``label`` (the current model, or a shelved one that is not answering); False
        when it answers (it stays until its answers end) or is not loaded."""
        if self.info is not None and self.info.label == label:
            if self._served.active:
                return False
            self.unload()
            return True
        found = self._shelf.get(label)
        if found is None or found[1].active:
            return False
        del self._shelf[label]
        self._loading.close(found[1])
        self.modelsChanged.emit()
        self._share_cores()
        return True

    def _share_cores(self) -> None:
        """The loaded models at rest take the thread count the free cores give them now (their
        threads add up to the cores; a pool that answers keeps its own until it rests)."""
        for _info, model, _current in self.loaded_items():
            pool = model.pool
            if pool is not None:
                engine_loop().submit(pool.retune())

    def _make_room(self) -> None:
        """Close shelved models, least recently used first, while the loaded models take more
        than the budget (a model that answers stays)."""
        budget = self.budget()
        total = sum(e.memory_bytes for e in self.loaded_models())
        for label, (info, model) in list(self._shelf.items()):
            if total <= budget:
                break
            if model.active:
                continue
            del self._shelf[label]
            total -= info.memory_bytes
            log.info("closed %s to make room for the current model", label)
            self._loading.close(model)

    def cancel(self) -> None:
        """Stop the load under way (answers are stopped by cancelling their task)."""
        if self._cancel is not None:
            self._cancel.cancel()

    def unload(self) -> None:
        model, self._served = self._served, LoadedModel()
        self._job_started()
        self._loading.unload(model)
        self.modelsChanged.emit()

    def offers(self) -> list[Speculation]:
        """What a conversation may choose without a reload (:meth:`LoadedModel.offers`)."""
        return self._served.offers()

    @property
    def routed(self) -> bool:
        """Auto picks each answer's configuration by its kind (a pool with Auto's router)."""
        return self._served.routed

    @property
    def launched(self) -> Speculation:
        """The configuration the launch loaded (off without speculation)."""
        return self._served.launched

    async def resolve(
        self, choice: Speculation, request: GenerateRequest, loop: asyncio.AbstractEventLoop
    ) -> Speculation:
        """The configuration that answers ``request`` for a conversation choosing ``choice``
        (:meth:`LoadedModel.resolve`)."""
        return await self._served.resolve(choice, request, loop)

    def stream(
        self, configuration: Speculation, request: GenerateRequest, loop: asyncio.AbstractEventLoop
    ) -> AsyncIterator[Event]:
        """``request``'s events from ``configuration``, handed to ``loop`` as they come
        (:meth:`LoadedModel.stream`); ``eventsReady`` follows the first. Cancelling the consumer
        stops the request in the engine."""
        return self._served.stream(configuration, request, loop, self.eventsReady.emit)

    def shutdown(self, timeout: float = SHUTDOWN_WAIT) -> None:
        """Cancel a load, close the model and wait at most ``timeout`` seconds. Safe to call twice.

        Closing the window returns within a second whatever the engine is doing: a llama.cpp child
        ends at once; what cannot be interrupted (an MLX prefill) finishes on the engine's own
        daemon thread, which then frees the model; the process waits for that at exit, bounded
        (:data:`app.core.engines.worker.EXIT_WAIT`).
        """
        self.cancel()
        self._closed = True
        model, self._served, self.info = self._served, LoadedModel(), None
        shelved, self._shelf = [m for _, m in self._shelf.values()], OrderedDict()
        for other in (model, *shelved):
            other.stop_loading()
            if not other.empty:
                self._loading.close(other)
        if not self._loading.join(timeout):
            log.info("the engine finishes its current step in the background")

    def _job_started(self) -> None:
        self._jobs += 1
        if self._jobs == 1:
            self.busyChanged.emit(True)

    def _on_ended(self, kind: str, payload: object, model: object) -> None:
        """GUI thread: update the state, then tell the subscribers."""
        if self._jobs > 0:
            self._jobs -= 1
            if self._jobs == 0:
                self.busyChanged.emit(False)
        if kind == "loaded":
            assert isinstance(payload, ModelInfo) and isinstance(model, LoadedModel)
            if self._closed:
                self._loading.close(model)
                return
            self.info = payload
            self._served = model
            self._make_room()
            self.loaded.emit(payload)
            self.modelsChanged.emit()
            if self._shelf:
                self._share_cores()
        elif kind == "shelved":
            assert isinstance(payload, ModelInfo) and isinstance(model, LoadedModel)
            waiters = self._shelf_waiters.pop(payload.label, [])
            if self._closed:
                self._loading.close(model)
                return
            self._shelf[payload.label] = (payload, model)
            self._make_room()
            self.modelsChanged.emit()
            self._share_cores()
            for done in waiters:
                done(None)
        elif kind == "shelvedFailed":
            assert isinstance(payload, tuple)
            label, exc = payload
            for done in self._shelf_waiters.pop(label, []):
                done(exc)
            self.modelsChanged.emit()
        elif kind == "unloaded":
            self.info = None
            self.unloaded.emit()
            self.modelsChanged.emit()
        elif kind == "loadCancelled":
            self.loadCancelled.emit()
        elif kind == "loadFailed":
            self.loadFailed.emit(payload)

    # --- load thread -----------------------------------------------------------------------------
    def _progress(self, message: str) -> None:
        if shiboken6.isValid(self):
            self.loadProgress.emit(message)

    def _emit(self, kind: str, payload: object, model: LoadedModel | None) -> bool:
        """Publish to the GUI thread; False when the host (and its window) is gone."""
        if not shiboken6.isValid(self):
            return False
        try:
            self._ended.emit(kind, payload, model)
        except RuntimeError:
            return False
        return True
