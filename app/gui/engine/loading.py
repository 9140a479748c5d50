"""A model's load, unload and close, each an operation on a thread of its own.

* Each runs on a ``tandem-load`` daemon thread that ends with it
  (:meth:`~app.gui.ops.Ops.start_own`), one after the other: a native load or a llama.cpp
  child's start never blocks the GUI nor holds one of the operations' pool threads, and a load
  still running at exit never keeps the process alive.
* A load first closes the model it replaces, then runs the job's loader. The loader's progress
  carries the Cancel token, so a native load that reports nothing still sees a Cancel; a loader
  that finished before it noticed is closed and the load ends cancelled.
* The outcome goes to ``publish`` (``loaded``, ``loadFailed``, ``loadCancelled`` or ``unloaded``):
  nothing here writes the state the GUI reads. A loaded model that nobody reads any more
  (``publish`` returns False) is closed at once.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from app.core.engines.base import CancelToken, Engine
from app.core.engines.worker import LoadCancelled, LoadProgress
from app.gui.engine.info import ModelInfo
from app.gui.engine.serving import LoadedModel, PoolLoader
from app.gui.ops import Ops

log = logging.getLogger(__name__)

#: the name of the threads loads, unloads and closes run on
LOAD_THREAD = "tandem-load"

#: ``publish(kind, payload, model)``: a load's or an unload's outcome, handed on from the load
#: thread; False when nobody reads it any more
Publish = Callable[[str, object, LoadedModel | None], bool]


@dataclass
class LoadJob:
    """Everything needed to load one model; ``loader`` runs on a load thread.

    The loader may fill in ``info`` (e.g. what it resolved); a copy of it with the job's label is
    published with the loaded model (:attr:`~app.gui.engine.host.EngineHost.info`) after the loader
    returns.
    """

    label: str
    loader: Callable[[Callable[[str], None]], Engine]
    info: ModelInfo = field(default_factory=ModelInfo)


class ModelLoading:
    """Runs loads, unloads and closes on ``tandem-load`` threads, one at a time; ``progress``
    receives a load's steps and ``publish`` its outcome (both called on the load thread);
    ``pool_loader`` starts a loaded llama.cpp model's pool configurations (None: no pool)."""

    def __init__(
        self,
        ops: Ops,
        publish: Publish,
        progress: Callable[[str], None],
        pool_loader: PoolLoader | None = None,
    ) -> None:
        self._ops = ops
        self._publish = publish
        self._progress = progress
        self._pool_loader = pool_loader
        #: loads, unloads and closes run one after the other
        self._turn = threading.Lock()

    def load(self, job: LoadJob, token: CancelToken, replaced: LoadedModel, kind: str = "loaded") -> None:
        """Close ``replaced``, then load ``job``; ``token`` cancels the load. The loaded model is
        published as ``kind`` (``loaded``; ``shelved``: loaded beside the current one), a failure
        as ``loadFailed`` (``shelvedFailed`` for a shelved load)."""
        self._start(lambda: self._load(job, token, replaced, kind))

    def unload(self, model: LoadedModel) -> None:
        """Close ``model``, then publish ``unloaded``."""
        self._start(lambda: self._unload(model))

    def close(self, model: LoadedModel) -> None:
        """Close ``model`` and publish nothing (the window closes, or nobody wants the model)."""
        self._start(model.close)

    def join(self, timeout: float) -> bool:
        """Wait at most ``timeout`` seconds for the work under way; True when none runs any more."""
        return self._ops.join_own(timeout, LOAD_THREAD)

    def _start(self, work: Callable[[], None]) -> None:
        def run() -> None:
            try:
                with self._turn:
                    work()
            except Exception:  # never let a load thread die silently
                log.exception("engine host work failed")

        self._ops.start_own(run, name=LOAD_THREAD)

    # --- load thread -----------------------------------------------------------------------------
    def _load(self, job: LoadJob, token: CancelToken, replaced: LoadedModel, kind: str) -> None:
        replaced.close()
        shelved = kind == "shelved"
        # a load beside the current model reports no steps: the window's load bar is the current one's
        progress = LoadProgress(None if shelved else self._progress, token)
        try:
            loaded = job.loader(progress)
        except LoadCancelled:
            self._publish(*self._failed(job, shelved, LoadCancelled(), "loadCancelled"), None)
            return
        except Exception as exc:
            self._publish(*self._failed(job, shelved, exc, "loadFailed"), None)
            return
        if token.cancelled:  # the loader finished before it noticed: honour the cancel
            loaded.close()
            self._publish(*self._failed(job, shelved, LoadCancelled(), "loadCancelled"), None)
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
        model = LoadedModel.serve(loaded, info, self._pool_loader)
        if not self._publish(kind, info, model):
            model.close()  # the window is gone: nobody reads the result any more

    @staticmethod
    def _failed(job: LoadJob, shelved: bool, exc: BaseException, kind: str) -> tuple[str, object]:
        """How a failed load is published: a shelved one with its label (``shelvedFailed``)."""
        if shelved:
            return "shelvedFailed", (job.label, exc)
        return kind, None if kind == "loadCancelled" else exc

    def _unload(self, model: LoadedModel) -> None:
        model.close()
        self._publish("unloaded", None, None)
