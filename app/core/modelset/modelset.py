"""Many models behind one server: loaded on request, unloaded when idle, evicted for room, never
while answering.

A :class:`ModelSet` knows every model it may serve (:class:`~app.core.modelset.entries.ModelEntry`)
and which are loaded. Its coroutines run on one event loop (the engine loop); loads run on the
set's one loader thread, so loads queue (two loads at once on few cores are slower than one after
the other), and unloads on a thread of their own.

* :meth:`ModelSet.acquire` gives a request its model, loading it first when it is not loaded; the
  request holds a :class:`Lease` until its answer ends. A model with leases (answering, or queued
  for its slots) or requests waiting for its load is never unloaded.
* Room: at most :attr:`SetConfig.max_loaded` models at once, and their memory (the launch dialog's
  fit estimate, :mod:`app.core.catalog.fit`) within :attr:`SetConfig.memory_bytes`. A load that needs
  room unloads the least recently used idle model that is not pinned, one at a time; when every
  loaded model is busy it waits for one to become idle, up to :attr:`SetConfig.room_wait_s`, then
  fails with :class:`NoRoom` saying which models hold the room.
* Idle time: a model no request used for its ``ttl`` is unloaded (a pinned one never is).
* An explicit :meth:`unload` of a model that answers happens when its last answer ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Generic, Protocol, TypeVar

from app.core.cancel import CancelToken
from app.core.modelset.entries import EntryIndex, ModelEntry
from app.core.units import human_bytes

log = logging.getLogger(__name__)

T = TypeVar("T")


class ModelState(StrEnum):
    """A model's state as ``/v1/models`` shows it (llama-server's router words)."""

    UNLOADED = "unloaded"
    LOADING = "loading"
    LOADED = "loaded"


class UnknownModel(LookupError):
    """A request named a model the set does not serve."""

    def __init__(self, name: str, ids: Sequence[str]) -> None:
        shown = ", ".join(ids[:20]) + (f" and {len(ids) - 20} more" if len(ids) > 20 else "")
        what = f"model {name!r} is not served here" if name else "the request names no model"
        super().__init__(f"{what}; the models served are: {shown}")
        self.name = name
        self.ids = list(ids)


class NoRoom(RuntimeError):
    """A model cannot be loaded: there is no room for it now (or ever); the message says why."""


class LoadFailed(RuntimeError):
    """A model's load failed; the message is the engine's."""


@dataclass
class Loaded(Generic[T]):
    """A loaded model as its loader made it: what serves it, how to close it, and its memory now
    (which grows when its pool starts a configuration beside it)."""

    value: T
    close: Callable[[], None]
    memory: Callable[[], int]


#: ``loader(entry, cancel)``: the model loaded (blocking; raises what the engine raises)
Loader = Callable[[ModelEntry, CancelToken], Loaded[T]]
#: ``estimate(entry)``: the bytes the model will take once loaded (blocking; 0 when unknown)
Estimate = Callable[[ModelEntry], int]


@dataclass(frozen=True)
class SetConfig:
    #: models loaded at once; None: as many as the memory holds
    max_loaded: int | None = None
    #: the memory loaded models may take together; None: what the machine has free when the set
    #: starts
    memory_bytes: int | None = None
    #: seconds a model stays loaded without requests; None: until it needs to make room
    ttl_s: float | None = None
    #: how long a load waits for busy models to make room before it fails
    room_wait_s: float = 300.0

    def __post_init__(self) -> None:
        if self.max_loaded is not None and self.max_loaded < 1:
            raise ValueError("max_loaded must be at least 1")
        if self.memory_bytes is not None and self.memory_bytes <= 0:
            raise ValueError("memory_bytes must be more than 0")


@dataclass(frozen=True)
class ModelStatus(Generic[T]):
    """One model's state, for ``/v1/models`` and the window's status bar."""

    entry: ModelEntry
    state: ModelState
    #: its memory when loaded, else the estimate of what it will take (None: not estimated yet)
    memory_bytes: int | None
    #: requests holding it (answering or queued) and requests waiting for its load
    active: int
    waiting: int
    #: seconds it stays loaded without requests (None: until room is needed)
    ttl_s: float | None
    #: the last load's error ("" when it loaded, or never failed)
    error: str
    #: what serves it, when loaded
    value: T | None


@dataclass
class _Slot(Generic[T]):
    entry: ModelEntry
    state: ModelState = ModelState.UNLOADED
    loaded: Loaded[T] | None = None
    active: int = 0
    waiting: int = 0
    last_used: float = 0.0
    timer: asyncio.TimerHandle | None = None
    #: a request's ``ttl`` overrides the entry's from then on
    ttl_s: float | None = None
    estimate: int | None = None
    error: str = ""
    unload_when_idle: bool = False
    task: asyncio.Task[None] | None = None

    def memory(self) -> int:
        if self.loaded is not None:
            try:
                return self.loaded.memory()
            except Exception:  # a closing engine: its estimate
                return self.estimate or 0
        return self.estimate or 0


@dataclass
class Lease(Generic[T]):
    """A request's hold on a loaded model; :meth:`release` once its answer ends (idempotent)."""

    value: T
    entry: ModelEntry
    _release: Callable[[], None] = field(repr=False)
    _done: bool = False

    def release(self) -> None:
        if not self._done:
            self._done = True
            self._release()


class ModelSource(Protocol[T]):
    """What a server needs of the models it serves: a :class:`ModelSet`, or the window's loaded
    models (the chat's and the Local server's)."""

    @property
    def ids(self) -> list[str]: ...

    @property
    def budget(self) -> int: ...

    @property
    def max_loaded(self) -> int | None: ...

    def find(self, name: str | None) -> ModelEntry | None: ...

    def is_loaded(self, name: str | None) -> bool: ...

    def status(self) -> list[ModelStatus[T]]: ...

    def estimate_all(self) -> None: ...

    def loaded_memory(self) -> int: ...

    async def acquire(self, name: str | None, ttl_s: float | None = None) -> Lease[T]: ...

    async def load(self, name: str) -> ModelEntry: ...

    async def unload(self, name: str) -> bool: ...

    async def unload_all(self) -> tuple[list[str], list[str]]: ...


class ModelSet(Generic[T]):
    """See the module docstring. Coroutines on the set's event loop; :meth:`status` and
    :meth:`close` from any thread."""

    def __init__(
        self,
        entries: Sequence[ModelEntry],
        loader: Loader[T],
        estimate: Estimate,
        config: SetConfig | None = None,
    ) -> None:
        if not entries:
            raise ValueError("a model set needs at least one model")
        self.index = EntryIndex(tuple(entries))
        self.config = config or SetConfig()
        self._loader = loader
        self._estimate = estimate
        self._slots: dict[str, _Slot[T]] = {e.id: _Slot(e) for e in entries}
        self._load_lock = asyncio.Lock()
        self._changed = asyncio.Event()
        self._load_thread = ThreadPoolExecutor(1, thread_name_prefix="tandem-models-load")
        self._close_thread = ThreadPoolExecutor(1, thread_name_prefix="tandem-models-close")
        self._cancel = CancelToken()
        self._closed = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()  # status() from other threads reads copies under it
        self._budget: int | None = self.config.memory_bytes
        self._tasks: set[asyncio.Task[None]] = set()
        #: called (on the loop) with a model's id and why once it is unloaded
        self.on_unload: Callable[[str, str], None] | None = None
        #: awaited (on the loop) after a model loaded or unloaded, with what serves the loaded
        #: ones: e.g. to share the cores among them again
        self.on_loaded: Callable[[list[T]], Coroutine[object, object, None]] | None = None

    @property
    def closed(self) -> bool:
        return self._closed

    # --- what is served --------------------------------------------------------------------------
    @property
    def ids(self) -> list[str]:
        return self.index.ids

    def find(self, name: str | None) -> ModelEntry | None:
        """The entry a request's ``model`` names; with one model served, a request that names
        none gets it."""
        if not name:
            return self.index.entries[0] if len(self.index.entries) == 1 else None
        return self.index.find(name)

    def is_loaded(self, name: str | None) -> bool:
        entry = self.find(name)
        return entry is not None and self._slots[entry.id].state is ModelState.LOADED

    @property
    def max_loaded(self) -> int | None:
        return self.config.max_loaded

    @property
    def budget(self) -> int:
        """The memory loaded models may take together (what was free when first asked)."""
        if self._budget is None:
            from app.core.catalog.fit import available_memory

            self._budget = available_memory()
        return self._budget

    def status(self) -> list[ModelStatus[T]]:
        with self._lock:
            slots = list(self._slots.values())
        out: list[ModelStatus[T]] = []
        for s in slots:
            loaded = s.loaded
            memory = s.memory() if loaded is not None else s.estimate
            ttl = None if s.entry.pinned else (s.ttl_s or s.entry.ttl_s or self.config.ttl_s)
            out.append(
                ModelStatus(
                    s.entry,
                    s.state,
                    memory,
                    s.active,
                    s.waiting,
                    ttl,
                    s.error,
                    loaded.value if loaded is not None else None,
                )
            )
        return out

    def estimate_all(self) -> None:
        """Estimate the memory of every model not estimated yet (blocking: reads GGUF headers)."""
        for slot in list(self._slots.values()):
            if slot.estimate is None:
                slot.estimate = self._estimate(slot.entry)

    def loaded_memory(self) -> int:
        return sum(s.memory() for s in list(self._slots.values()) if s.state is not ModelState.UNLOADED)

    # --- requests ----------------------------------------------------------------------------------
    async def acquire(self, name: str | None, ttl_s: float | None = None) -> Lease[T]:
        """The model ``name`` names, loaded (loading it first, after making room); the caller
        releases the lease when its answer ends. :class:`UnknownModel`, :class:`NoRoom`,
        :class:`LoadFailed`."""
        entry = self.find(name)
        if entry is None:
            raise UnknownModel(name or "", self.ids)
        if self._closed:
            raise NoRoom("the server is stopping")
        self._loop = asyncio.get_running_loop()
        slot = self._slots[entry.id]
        if ttl_s is not None:
            slot.ttl_s = ttl_s
        slot.waiting += 1
        try:
            while slot.state is not ModelState.LOADED:
                if slot.task is None or slot.task.done():
                    slot.task = asyncio.get_running_loop().create_task(self._load(slot))
                await asyncio.shield(slot.task)
                if self._closed:
                    raise NoRoom("the server is stopping")
        finally:
            slot.waiting -= 1
        assert slot.loaded is not None
        slot.active += 1
        slot.last_used = time.monotonic()
        if slot.timer is not None:
            slot.timer.cancel()
            slot.timer = None
        return Lease(slot.loaded.value, entry, lambda: self._release_soon(slot))

    def _release_soon(self, slot: _Slot[T]) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._release(slot)
        else:
            loop.call_soon_threadsafe(self._release, slot)

    def _release(self, slot: _Slot[T]) -> None:
        slot.active -= 1
        slot.last_used = time.monotonic()
        if slot.active == 0 and slot.waiting == 0:
            if slot.unload_when_idle:
                self._spawn(self._unload(slot, "asked to unload"))
            else:
                self._idle(slot)
        self._notify()

    async def load(self, name: str) -> ModelEntry:
        """Load ``name`` now (an explicit ``/models/load``); it then stays as any idle model."""
        lease = await self.acquire(name)
        lease.release()
        return lease.entry

    async def unload(self, name: str) -> bool:
        """Unload ``name`` now, or once its answers end when it answers (False then)."""
        entry = self.find(name)
        if entry is None:
            raise UnknownModel(name, self.ids)
        slot = self._slots[entry.id]
        if slot.state is ModelState.UNLOADED:
            return True
        if slot.active or slot.waiting or slot.state is ModelState.LOADING:
            slot.unload_when_idle = True
            return False
        await self._unload(slot, "asked to unload")
        return True

    async def unload_all(self) -> tuple[list[str], list[str]]:
        """Unload every loaded model; ``(unloaded, pending)``: ids unloaded now, and ids that go
        once their answers end."""
        done: list[str] = []
        pending: list[str] = []
        for slot in list(self._slots.values()):
            if slot.state is ModelState.UNLOADED:
                continue
            (done if await self.unload(slot.entry.id) else pending).append(slot.entry.id)
        return done, pending

    async def start(self) -> None:
        """Load the models marked ``load-on-startup``, one after another."""
        for slot in list(self._slots.values()):
            if slot.entry.load_on_startup:
                await self.load(slot.entry.id)

    # --- loading and room ---------------------------------------------------------------------------
    async def _load(self, slot: _Slot[T]) -> None:
        loop = asyncio.get_running_loop()
        async with self._load_lock:
            if slot.state is ModelState.LOADED or self._closed:
                return
            if slot.estimate is None:
                slot.estimate = await loop.run_in_executor(self._load_thread, self._estimate, slot.entry)
            await self._make_room(slot, slot.estimate)
            self._set_state(slot, ModelState.LOADING)
            slot.error = ""
            try:
                loaded = await loop.run_in_executor(self._load_thread, self._loader, slot.entry, self._cancel)
            except BaseException as exc:
                self._set_state(slot, ModelState.UNLOADED)
                slot.error = str(exc) or type(exc).__name__
                log.warning("the model %s could not be loaded: %s", slot.entry.id, slot.error)
                raise LoadFailed(f"the model {slot.entry.id!r} could not be loaded: {slot.error}") from exc
            if self.closed:  # the server stopped while it loaded
                await loop.run_in_executor(self._close_thread, loaded.close)
                return
            slot.loaded = loaded
            slot.unload_when_idle = False
            slot.last_used = time.monotonic()
            self._set_state(slot, ModelState.LOADED)
            log.info("loaded the model %s", slot.entry.id)
            if slot.active == 0 and slot.waiting == 0:
                self._idle(slot)
            self._loaded_changed()

    async def _make_room(self, slot: _Slot[T], need: int) -> None:
        cfg = self.config
        budget = self.budget
        deadline = time.monotonic() + cfg.room_wait_s
        entry = slot.entry
        if need > budget:
            raise NoRoom(
                f"the model {entry.id!r} needs about {human_bytes(need)}, more than the "
                f"{human_bytes(budget)} loaded models may take (--models-memory)"
            )
        while True:
            others = [s for s in self._slots.values() if s is not slot and s.state is not ModelState.UNLOADED]
            used = sum(s.memory() for s in others)
            count_ok = cfg.max_loaded is None or len(others) < cfg.max_loaded
            if count_ok and used + need <= budget:
                return
            pinned = [s for s in others if s.entry.pinned]
            pinned_memory = sum(s.memory() for s in pinned)
            pinned_full = cfg.max_loaded is not None and len(pinned) >= cfg.max_loaded
            if pinned_full or pinned_memory + need > budget:
                names = ", ".join(s.entry.id for s in pinned)
                raise NoRoom(
                    f"no room for the model {entry.id!r}: the pinned models ({names}) take the room "
                    "loaded models have; unload one, or raise --models-max or --models-memory"
                )
            idle = [
                s
                for s in others
                if s.state is ModelState.LOADED and not s.entry.pinned and s.active == 0 and s.waiting == 0
            ]
            if idle:
                oldest = min(idle, key=lambda s: s.last_used)
                await self._unload(oldest, f"room for {entry.id}")
                continue
            left = deadline - time.monotonic()
            if left <= 0:
                busy = ", ".join(s.entry.id for s in others if not s.entry.pinned)
                raise NoRoom(
                    f"no room for the model {entry.id!r} within {cfg.room_wait_s:.0f} s: the loaded "
                    f"models ({busy}) kept answering; retry later, or raise --models-max or --models-memory"
                )
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)
            if self._closed:
                raise NoRoom("the server is stopping")

    async def _unload(self, slot: _Slot[T], why: str) -> None:
        loaded = slot.loaded
        if slot.timer is not None:
            slot.timer.cancel()
            slot.timer = None
        if loaded is None:
            return
        slot.loaded = None
        slot.unload_when_idle = False
        self._set_state(slot, ModelState.UNLOADED)
        log.info("unloading the model %s (%s)", slot.entry.id, why)
        try:
            await asyncio.get_running_loop().run_in_executor(self._close_thread, loaded.close)
        except Exception:
            log.exception("the model %s did not close cleanly", slot.entry.id)
        if self.on_unload is not None:
            with contextlib.suppress(Exception):
                self.on_unload(slot.entry.id, why)
        self._notify()
        self._loaded_changed()

    def _idle(self, slot: _Slot[T]) -> None:
        """Start ``slot``'s idle clock (a pinned model, or one without a ttl, stays)."""
        if slot.timer is not None:
            slot.timer.cancel()
            slot.timer = None
        ttl = slot.ttl_s or slot.entry.ttl_s or self.config.ttl_s
        if slot.entry.pinned or ttl is None or self._closed:
            return
        slot.timer = asyncio.get_running_loop().call_later(ttl, self._expire, slot)

    def _expire(self, slot: _Slot[T]) -> None:
        slot.timer = None
        idle = slot.active == 0 and slot.waiting == 0
        if slot.state is ModelState.LOADED and idle and not slot.entry.pinned:
            self._spawn(self._unload(slot, "idle"))

    # --- bookkeeping -------------------------------------------------------------------------------
    def _loaded_changed(self) -> None:
        hook = self.on_loaded
        if hook is None or self._closed:
            return
        values = [s.loaded.value for s in self._slots.values() if s.loaded is not None]

        async def run() -> None:
            try:
                await hook(values)
            except Exception:  # a listener's error must not break a load
                log.exception("the model set's load listener failed")

        self._spawn(run())

    def _set_state(self, slot: _Slot[T], state: ModelState) -> None:
        with self._lock:
            slot.state = state
        self._notify()

    def _notify(self) -> None:
        self._changed.set()  # a load waiting for room looks again

    def _spawn(self, work: Coroutine[object, object, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def close(self) -> None:
        """Stop loading, close every loaded model and the set's threads (from any thread, once
        no request runs: the server stops first)."""
        self._closed = True
        self._cancel.cancel()
        loop = self._loop
        for slot in list(self._slots.values()):
            timer, slot.timer = slot.timer, None
            if timer is not None and loop is not None and not loop.is_closed():
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(timer.cancel)
            if slot.task is not None and loop is not None and not loop.is_closed():
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(slot.task.cancel)
        self._load_thread.shutdown(wait=True, cancel_futures=True)
        self._close_thread.shutdown(wait=True, cancel_futures=True)
        for slot in list(self._slots.values()):
            loaded, slot.loaded = slot.loaded, None
            with self._lock:
                slot.state = ModelState.UNLOADED
            if loaded is not None:
                try:
                    loaded.close()
                except Exception:
                    log.exception("the model %s did not close cleanly", slot.entry.id)
