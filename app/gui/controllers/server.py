"""The GUI's local API server: serves the loaded model, follows loads and unloads.

Signals: ``stateChanged(bool running)``, ``requestServed(object ServedRequest)`` (emitted on the
engine loop's thread, where the server runs, and delivered on the GUI thread), ``failed(str message)``.

Starting and stopping run on the operations' threads (:class:`app.gui.ops.Ops`): binding a port
and waiting for uvicorn (up to 20 s), or for running generations to end (up to 5 s), never
blocks the GUI thread. The outcome arrives as ``stateChanged`` / ``failed``; requests are
serialized, so a restart on another address waits for the stop before it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from dataclasses import replace
from typing import Any, Protocol, runtime_checkable

from PySide6.QtCore import QObject, Signal

from app.core.engines.base import Engine, EngineError, TokenCounter
from app.core.modelset import ModelSource
from app.core.pool.pool import EnginePool
from app.core.pool.pool_types import PoolStatus
from app.core.registry import Registry
from app.core.serving import LocalServer, ServedModel, ServerConfig, api_key, is_loopback
from app.core.serving.model import served_model
from app.gui.ops import Ops

log = logging.getLogger(__name__)

DEFAULT_PORT = 8080


@runtime_checkable
class _Ensures(Protocol):
    def ensure(self) -> None: ...


class ServerController(QObject):
    stateChanged = Signal(bool)
    requestServed = Signal(object)
    failed = Signal(str)

    def __init__(self, host: Any, ops: Ops, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.host = host  # the EngineHost
        self.ops = ops
        self.server: LocalServer | None = None
        #: the start / stop operations, one after the other
        self._turn = asyncio.Lock()
        #: servers started on an operation thread and not stopped yet; shutdown() stops them all,
        #: also one whose start finishes after the window closed (its coroutine is cancelled then)
        self._live: set[LocalServer] = set()
        self._live_lock = threading.Lock()
        self._closing = False
        #: a start or stop is under way
        self.pending = False
        self.bind_host = "127.0.0.1"
        self.port = DEFAULT_PORT
        #: the served model's context in tokens (0 when unknown), read when the server starts
        self.context_length = 0
        #: the engine pool of the served model (llama.cpp): the window's (the engine host's), which
        #: closes it with the model
        self.pool: EnginePool | None = None
        #: the window's loaded models and the models on disk, served by id (None: the loaded
        #: model answers every request)
        self.models: ModelSource[ServedModel] | None = None
        host.loaded.connect(self._on_loaded)
        host.unloaded.connect(self._on_unloaded)

    @property
    def running(self) -> bool:
        return self.server is not None and self.server.running

    @property
    def address(self) -> str:
        return self.server.address if self.server is not None else ""

    @property
    def key(self) -> str:
        return api_key()

    @property
    def exposed(self) -> bool:
        """True when the server listens on an address other machines can reach."""
        return not is_loopback(self.bind_host)

    def _model(self) -> ServedModel | None:
        """The loaded model as served, with the window's pool of configurations (the one the chat
        answers from: :attr:`EngineHost.pool`)."""
        self.pool = self.host.pool
        engine = self.host.current_engine
        info = self.host.info
        if engine is None or info is None:
            return None
        return served_of(engine, info.family, self.pool)

    def pool_status(self) -> PoolStatus | None:
        """The loaded model's pool, served or not (the chat answers from it too)."""
        pool = self.host.pool
        return pool.status() if pool is not None else None

    def start(self, bind_host: str | None = None) -> None:
        """Serve (port 8080, else a free port) in the background: ``stateChanged(True)`` when it
        listens, ``failed(message)`` when it cannot. A running server is restarted (e.g. on
        another address)."""
        if bind_host is not None:
            self.bind_host = bind_host
        if isinstance(self.models, _Ensures):
            self.models.ensure()  # the models on disk it serves
        self.pending = True
        self.ops.spawn(self._start(self.bind_host), failure=self.tr("Starting the local server"))

    def stop(self) -> None:
        """Stop serving in the background; ``stateChanged(False)`` when it has stopped."""
        if self.server is None:
            return
        self.pending = True
        self.ops.spawn(self._stop(), failure=self.tr("Stopping the local server"))

    def shutdown(self) -> None:
        """Stop at once, on this thread (the window is closing: nothing is left to wait for it)."""
        with self._live_lock:
            self._closing = True
            live, self._live = self._live, set()
        self.server = None
        pool, self.pool = self.host.pool, None
        if pool is not None:  # the window closes: a request waiting for a configuration's load ends
            pool.stop_loading()
        for server in live:
            server.stop()

    def _start_on_thread(self, server: LocalServer) -> None:
        server.start()
        self.context_length = _context_of(server.model)
        with self._live_lock:
            if not self._closing:
                self._live.add(server)
                return
        server.stop()  # the window closed while it started
        raise OSError("the window closed")

    def _stop_on_thread(self, server: LocalServer) -> None:
        with self._live_lock:
            self._live.discard(server)
        server.stop()  # the pool stays: the chat answers from it (the engine host closes it)

    async def _start(self, host: str) -> None:
        async with self._turn:
            try:
                await self._stop_running()
                for port in (self.port, 0):
                    model = self._model()
                    slots = model.pool.config.slots if model is not None and model.pool is not None else 1
                    server = LocalServer(
                        model,
                        ServerConfig(api_key(), host, port, parallel=slots),
                        on_request=self.requestServed.emit,
                        models=self.models,
                    )
                    try:
                        await self.ops.run(self._start_on_thread, server)
                    except OSError as exc:
                        if port == 0:
                            self.failed.emit(str(exc))
                        continue
                    self.server = server
                    self.stateChanged.emit(True)
                    return
            finally:
                self.pending = False

    async def _stop(self) -> None:
        async with self._turn:
            try:
                await self._stop_running()
            finally:
                self.pending = False

    async def _stop_running(self) -> None:
        server, self.server = self.server, None
        self.pool = None  # no longer served here (the host keeps it: the chat answers from it)
        if server is not None:
            await self.ops.run(self._stop_on_thread, server)
            self.stateChanged.emit(False)

    def _on_loaded(self, _info: object) -> None:
        if self.server is not None:
            model = self._model()
            self.server.set_model(model)
            self.context_length = _context_of(model)
            self.stateChanged.emit(True)

    def _on_unloaded(self) -> None:
        if self.server is not None:
            self.server.set_model(None)
        self.pool = None


def served_of(engine: Engine, family_name: str, pool: EnginePool | None) -> ServedModel:
    """A loaded model of the window as the Local server serves it: its family's id and tool-call
    style, with its pool (the one the chat answers from)."""
    family = Registry.load().families.get(family_name)
    try:
        model = served_model(
            engine,
            engine.model_path,
            family.name if family else None,
            family.tool_parser if family else None,
            family.chat_template if family else None,
        )
    except ValueError as exc:  # an unknown tool_parser: serve without tool-call parsing
        log.warning("tool calls stay text: %s", exc)
        model = ServedModel(engine, family.name if family else "tandem", None)
    return replace(model, pool=pool) if pool is not None else model


def _context_of(model: ServedModel | None) -> int:
    """The served model's context length (0 when its engine cannot say)."""
    engine = model.engine if model is not None else None
    if not isinstance(engine, TokenCounter):
        return 0
    try:
        return engine.n_ctx
    except EngineError:
        return 0
