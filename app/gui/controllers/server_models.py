"""The window's models as its Local server serves them (:class:`WindowModels`): every model on disk
by id, as ``tandem serve --all`` names them, sharing the window's loaded models, their pools and
its memory budget.

* A request for a loaded model (the one the chat answers with, or one kept loaded since) is
  answered by it at once, in the same pool as the chat; the request holds it, so it is not
  closed for room while it answers.
* A request for a model on disk that is not loaded loads it beside the current one (the chat
  keeps its model), through the window's launch path with the model's last launch settings.
* A request naming no model the window knows is answered by the current model, as the Local
  server always did (clients send names of their own, such as ``gpt-4o``).

The server runs on the engine loop's thread; what touches the engine host runs on the GUI thread
(a queued signal), and what the server reads is a copy the GUI thread keeps under a lock.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from app.core.modelset import (
    Lease,
    LoadFailed,
    ModelEntry,
    ModelState,
    ModelStatus,
    UnknownModel,
)
from app.core.modelset.entries import EntryIndex
from app.core.serving import ServedModel
from app.gui.controllers.chat.models import ConversationModels
from app.gui.controllers.server import served_of
from app.gui.engine import EngineHost, LoadJob
from app.gui.engine.serving import LoadedModel

log = logging.getLogger(__name__)


class WindowModels(QObject):
    """A :class:`~app.core.modelset.ModelSource` over the window's engine host. ``job_for(label)``
    makes the load job of a model on disk (None when it is not)."""

    _invoke = Signal(object)

    def __init__(
        self,
        host: EngineHost,
        disk: ConversationModels,
        job_for: Callable[[str], LoadJob | None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._host = host
        self._disk = disk
        self._job_for = job_for
        self._lock = threading.Lock()
        self._index = EntryIndex()
        self._labels: dict[str, str] = {}
        self._loaded: dict[str, tuple[ServedModel, LoadedModel, int]] = {}
        self._current = ""
        self._loading: list[str] = []
        self._invoke.connect(lambda work: work())
        host.modelsChanged.connect(self.refresh)
        disk.diskChanged.connect(self.refresh)
        host.loaded.connect(lambda _info: self.refresh())
        self.refresh()

    # --- the copy the server reads (GUI thread) ---------------------------------------------------
    def ensure(self) -> None:
        """Read the models on disk, unless they were read (the server starts)."""
        self._disk.ensure()

    def refresh(self) -> None:
        items = self._host.loaded_items()
        entries: list[ModelEntry] = []
        labels: dict[str, str] = {}
        for disk in self._disk.models:
            entry = ModelEntry(disk.id or disk.label, aliases=(disk.label,))
            entries.append(entry)
            labels[entry.id] = disk.label
        loaded: dict[str, tuple[ServedModel, LoadedModel, int]] = {}
        current = ""
        for info, model, is_current in items:
            if model.engine is None:
                continue
            served = served_of(model.engine, info.family, model.pool)
            entry_id = next((i for i, label in labels.items() if label == info.label), "")
            if not entry_id:  # a model not on disk (a remote server, a file of its own)
                entry_id = info.family or info.label
                entries.append(ModelEntry(entry_id, aliases=(info.label,)))
                labels[entry_id] = info.label
            loaded[info.label] = (
                ServedModel(served.engine, entry_id, served.tool_style, served.pool),
                model,
                info.memory_bytes,
            )
            if is_current:
                current = info.label
        with self._lock:
            self._index = EntryIndex(tuple(entries))
            self._labels = labels
            self._loaded = loaded
            self._current = current
            self._loading = self._host.loading_shelved()

    # --- ModelSource (the engine loop's thread) -----------------------------------------------------
    @property
    def ids(self) -> list[str]:
        with self._lock:
            return self._index.ids

    @property
    def budget(self) -> int:
        return self._host.budget()

    @property
    def max_loaded(self) -> int | None:
        return None

    def find(self, name: str | None) -> ModelEntry | None:
        with self._lock:
            found = self._index.find(name) if name else None
            if found is None and self._current:  # the loaded model answers every other name
                found = next(
                    (e for e in self._index.entries if self._labels.get(e.id) == self._current), None
                )
            return found

    def is_loaded(self, name: str | None) -> bool:
        entry = self.find(name)
        with self._lock:
            return entry is not None and self._labels.get(entry.id) in self._loaded

    def status(self) -> list[ModelStatus[ServedModel]]:
        with self._lock:
            entries, labels, loaded, loading = self._index.entries, self._labels, self._loaded, self._loading
        out: list[ModelStatus[ServedModel]] = []
        for entry in entries:
            label = labels.get(entry.id, "")
            got = loaded.get(label)
            if got is not None:
                served, model, memory = got
                out.append(
                    ModelStatus(entry, ModelState.LOADED, memory or None, model.active, 0, None, "", served)
                )
            else:
                state = ModelState.LOADING if label in loading else ModelState.UNLOADED
                out.append(ModelStatus(entry, state, None, 0, 0, None, "", None))
        return out

    def estimate_all(self) -> None:
        """Nothing to do: a model's memory is known once it is loaded."""

    def loaded_memory(self) -> int:
        with self._lock:
            return sum(memory for _, _, memory in self._loaded.values())

    async def acquire(self, name: str | None, ttl_s: float | None = None) -> Lease[ServedModel]:
        entry = self.find(name)
        if entry is None:
            raise UnknownModel(name or "", self.ids)
        with self._lock:
            label = self._labels.get(entry.id, "")
            got = self._loaded.get(label)
        if got is None:
            await self._on_gui_thread(lambda done: self._load(label, done))
            with self._lock:
                got = self._loaded.get(label)
            if got is None:
                raise LoadFailed(f"the model {entry.id!r} was closed again to make room; retry")
        served, model, _memory = got
        model.active += 1  # never closed for room while the request holds it

        def release() -> None:
            model.active -= 1

        return Lease(served, entry, release)

    async def load(self, name: str) -> ModelEntry:
        lease = await self.acquire(name)
        lease.release()
        return lease.entry

    async def unload(self, name: str) -> bool:
        entry = self.find(name)
        if entry is None or (name and entry.id != name and name not in entry.aliases):
            raise UnknownModel(name, self.ids)
        with self._lock:
            label = self._labels.get(entry.id, "")
        result: list[bool] = []

        def unload(done: Callable[[BaseException | None], None]) -> None:
            result.append(self._host.unload_model(label) or not self._host.is_loaded_model(label))
            done(None)

        await self._on_gui_thread(unload)
        return bool(result and result[0])

    async def unload_all(self) -> tuple[list[str], list[str]]:
        done: list[str] = []
        pending: list[str] = []
        for status in self.status():
            if status.state is ModelState.LOADED:
                (done if await self.unload(status.entry.id) else pending).append(status.entry.id)
        return done, pending

    # --- on the GUI thread ----------------------------------------------------------------------------
    def _load(self, label: str, done: Callable[[BaseException | None], None]) -> None:
        job = self._job_for(label)
        if job is None:
            done(LoadFailed(f"{label} is not on disk any more; download it again from the Models page"))
            return
        self._host.load_shelved(job, done)
        self.refresh()

    async def _on_gui_thread(self, work: Callable[[Callable[[BaseException | None], None]], None]) -> None:
        """Run ``work(done)`` on the GUI thread and wait until it calls ``done`` (an error: raised
        here as :class:`LoadFailed`)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()

        def done(exc: BaseException | None) -> None:
            def settle() -> None:
                if future.done():
                    return
                if exc is None:
                    future.set_result(None)
                else:
                    future.set_exception(LoadFailed(str(exc) or type(exc).__name__))

            loop.call_soon_threadsafe(settle)

        self._invoke.emit(lambda: work(done))
        await future
