"""One owner thread per loaded in-process engine: its job queue, per-request events, cancel and close.

MLX needs it: every call into the native library happens on one dedicated thread (MLX arrays and
streams are thread-affine), while callers on other threads load, stream and close. (llama.cpp does
not: it runs in a child process, :mod:`app.core.engines.llamacpp`, read over HTTP on the engine
loop.) This module is that machinery; an engine supplies only

* a **load** function (runs on the owner thread, reports progress through ``say``),
* **generate steps**: a job function that emits events (``job.emit``) and checks ``job.stopped()``
  between steps (MLX between tokens),
* a **free** function, run on the owner thread when the thread ends.

Guarantees, the same for every engine:

* Jobs run one at a time in order. Each request has its own event queue that ends with exactly
  one terminal item (end or failure), so a consumer never waits forever.
* An error raised by a job is re-raised on the consumer's side as a typed :class:`EngineError`
  (never turned into chat text); a non-engine exception is wrapped with one message per kind.
* A consumer that stops reading early marks its job abandoned (the caller's cancel token stays
  untouched) and waits for it to end, so the next request starts on an idle engine.
* :meth:`EngineWorker.close` refuses new jobs, fails every queued one with :class:`EngineClosed`,
  stops the running one at its next step (a job just dequeued included: the flag is the worker's,
  not the job's), and waits at most :data:`CLOSE_WAIT` seconds. A native call that cannot be
  interrupted (an MLX prefill) finishes in the background; the thread then
  frees what it holds and ends.
* A load waits in a cancellable way (:meth:`EngineWorker.run_load`): cancelling returns at once and
  closes the worker; a load that completes after the cancel is freed when its job ends.
* The threads are daemon threads, so none of them keeps the process alive, and an ``atexit`` hook
  closes every live worker and gives them :data:`EXIT_WAIT` seconds together to free (MLX must
  clear its streams on the thread that used them). A worker still busy after that is left to the
  process exit.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import queue
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from app.core.cancel import CancelToken
from app.core.engines.base import EngineError, GenerationError, ModelLoadError

log = logging.getLogger(__name__)

T = TypeVar("T")
R = TypeVar("R")
J = TypeVar("J", bound="Job[Any]")

#: How long :meth:`EngineWorker.close` waits for the thread to end before returning anyway.
CLOSE_WAIT = 0.8
#: How long the process waits at exit, for all workers together, before it exits anyway.
EXIT_WAIT = 10.0
#: How often a waiting load checks its cancel token.
_POLL = 0.05

_STOP = object()
_END = object()


@dataclass(frozen=True)
class _Failure:
    error: BaseException


class EngineClosed(GenerationError):
    """A request met an engine that was closed (before it ran, or while it was queued)."""

    def __init__(self) -> None:
        super().__init__("The model was closed.", "Load the model again.")


class LoadCancelled(EngineError):
    """A load was cancelled by its caller; nothing it started is left running or loaded."""

    def __init__(self) -> None:
        super().__init__("The load was cancelled.")


class LoadProgress:
    """A load's progress callback that carries the load's cancel token.

    The GUI's Cancel button sets the token: the next report raises :class:`LoadCancelled`, and an
    engine waiting for a native load (which reports nothing while it runs) sees the token too,
    through :func:`cancel_of`. A plain callable works as a progress callback as well; raising from
    it cancels the load the same way.
    """

    def __init__(
        self, report: Callable[[str], None] | None = None, cancel: CancelToken | None = None
    ) -> None:
        self.report = report
        self.cancel = cancel or CancelToken()

    def __call__(self, message: str) -> None:
        if self.cancel.cancelled:
            raise LoadCancelled()
        if self.report is not None:
            self.report(message)


def cancel_of(progress: Callable[[str], None] | None) -> CancelToken | None:
    """The cancel token a progress callback carries (:class:`LoadProgress`), else None."""
    return progress.cancel if isinstance(progress, LoadProgress) else None


class Job(Generic[T]):
    """One request on the owner thread: emit its items, check :meth:`stopped` between steps."""

    def __init__(
        self, fn: Callable[[Job[T]], object], cancel: CancelToken | None, stopping: threading.Event
    ) -> None:
        self.fn = fn
        self.cancel = cancel
        self.events: queue.Queue[object] = queue.Queue()
        self._abandoned = threading.Event()
        self._stopping = stopping

    def emit(self, item: T) -> None:
        self.events.put(item)

    def stopped(self) -> bool:
        """True once the caller cancelled, the consumer stopped reading, or the engine is closing."""
        return (
            self._abandoned.is_set()
            or self._stopping.is_set()
            or (self.cancel is not None and self.cancel.cancelled)
        )

    def abandon(self) -> None:
        self._abandoned.set()

    def _answer(self, terminal: object) -> None:
        self.events.put(terminal)


class _LoopJob(Job[T]):
    """A job whose items go to a consumer on an event loop (:meth:`EngineWorker.astream`)."""

    def __init__(
        self,
        fn: Callable[[Job[T]], object],
        stopping: threading.Event,
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        super().__init__(fn, None, stopping)
        self.loop = loop
        self.items: asyncio.Queue[object] = asyncio.Queue()

    def emit(self, item: T) -> None:
        self._answer(item)

    def _answer(self, terminal: object) -> None:
        try:
            self.loop.call_soon_threadsafe(self.items.put_nowait, terminal)
        except RuntimeError:  # the loop is closed: nobody reads any more
            self.abandon()


def _wrap_generation(label: str) -> Callable[[BaseException], EngineError]:
    def wrap(exc: BaseException) -> EngineError:
        if isinstance(exc, EngineError):
            return exc
        return GenerationError(f"{label} failed while generating: {type(exc).__name__}: {exc}")

    return wrap


def _wrap_load(label: str) -> Callable[[BaseException], EngineError]:
    def wrap(exc: BaseException) -> EngineError:
        if isinstance(exc, EngineError):
            return exc
        if isinstance(exc, FileNotFoundError):
            return ModelLoadError(f"A model file is missing: {exc}")
        return ModelLoadError(f"{label} could not load the model: {type(exc).__name__}: {exc}")

    return wrap


def _reraise(error: BaseException, wrap: Callable[[BaseException], EngineError]) -> None:
    typed = wrap(error)
    if typed is error:
        raise typed
    raise typed from error


class EngineWorker:
    """The owner thread of one engine (see the module docstring for the guarantees).

    ``free`` runs on the owner thread when it ends (after close, or at process exit), whatever
    the load got to; it must cope with a partial load.
    """

    def __init__(self, name: str, label: str, free: Callable[[], None] | None = None) -> None:
        self.label = label
        self._free = free
        self._jobs: queue.Queue[Any] = queue.Queue()
        self._lock = threading.Lock()
        self._accepting = True
        self._stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        with _live_lock:
            _live.add(self)
        self.thread.start()

    # --- caller side ------------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        return not self._accepting

    def _submit(self, fn: Callable[[Job[T]], object], cancel: CancelToken | None) -> Job[T]:
        return self._enqueue(Job(fn, cancel, self._stopping))

    def _enqueue(self, job: J) -> J:
        with self._lock:  # close() cannot slip in between the check and the put
            if not self._accepting:
                raise EngineClosed()
            self._jobs.put(job)
        return job

    def stream(
        self,
        fn: Callable[[Job[T]], object],
        cancel: CancelToken | None = None,
        wrap: Callable[[BaseException], EngineError] | None = None,
    ) -> Iterator[T]:
        """Queue ``fn`` at the first ``next()`` and yield what it emits; its error is raised here."""
        wrap = wrap or _wrap_generation(self.label)
        job = self._submit(fn, cancel)
        ended = False
        try:
            while True:
                item = job.events.get()
                if item is _END:
                    ended = True
                    return
                if isinstance(item, _Failure):
                    ended = True
                    _reraise(item.error, wrap)
                yield cast(T, item)  # the queue holds the job's T items and the two sentinels
        finally:
            if not ended:  # the consumer stopped early: stop the job and wait until it has ended
                job.abandon()
                while True:
                    item = job.events.get()
                    if item is _END or isinstance(item, _Failure):
                        break

    async def astream(
        self, fn: Callable[[Job[T]], object], wrap: Callable[[BaseException], EngineError] | None = None
    ) -> AsyncIterator[T]:
        """:meth:`stream` for a consumer on an event loop: the job runs on the owner thread as any
        other, its items reach the loop without a thread of the caller's. Closing the iterator
        (a cancelled task) stops the job at its next step; the next job starts after it ends."""
        wrap = wrap or _wrap_generation(self.label)
        job = self._enqueue(_LoopJob[T](fn, self._stopping, asyncio.get_running_loop()))
        ended = False
        try:
            while True:
                item = await job.items.get()
                if item is _END:
                    ended = True
                    return
                if isinstance(item, _Failure):
                    ended = True
                    _reraise(item.error, wrap)
                yield cast(T, item)  # the queue holds the job's T items and the two sentinels
        finally:
            if not ended:
                job.abandon()

    def call(self, fn: Callable[[], R]) -> R:
        """Run ``fn`` on the owner thread and return its value (its error is raised here)."""

        def job(j: Job[R]) -> None:
            j.emit(fn())

        out: list[R] = list(self.stream(job))
        return out[0]

    def run_load(
        self,
        fn: Callable[[Callable[[str], None]], None],
        progress: Callable[[str], None] | None = None,
        cancel: CancelToken | None = None,
    ) -> None:
        """Run the engine's load on the owner thread; its reports reach ``progress`` here.

        The wait checks ``cancel`` (or the token ``progress`` carries) every few milliseconds, so
        a native load that reports nothing can still be cancelled. On any failure (an error of the
        load, a cancel, ``progress`` raising, Ctrl-C) the worker is closed before the error
        propagates: a load that completes after that is freed when its job ends.
        """
        cancel = cancel or cancel_of(progress)
        wrap = _wrap_load(self.label)
        try:
            if cancel is not None and cancel.cancelled:  # cancelled before it started: start nothing
                raise LoadCancelled()
            job: Job[str] = self._submit(lambda j: fn(j.emit), None)
            while True:
                if cancel is not None and cancel.cancelled:
                    raise LoadCancelled()
                try:
                    item = job.events.get(timeout=_POLL)
                except queue.Empty:
                    continue
                if item is _END:
                    return
                if isinstance(item, _Failure):
                    _reraise(item.error, wrap)
                if progress is not None:
                    progress(str(item))
        except LoadCancelled:
            self.close(wait=0)  # the user is waiting for the cancel, not for the native load
            raise
        except BaseException:
            self.close()
            raise

    def close(self, wait: float = CLOSE_WAIT) -> bool:
        """Refuse new jobs, stop the running one, fail the queued ones; True once the thread ended.

        Returns within ``wait`` seconds whatever the engine is doing; the thread then finishes
        its native call, frees and ends by itself. Safe to call twice and from the owner thread.
        """
        with self._lock:
            if self._accepting:
                self._accepting = False
                self._stopping.set()
                self._jobs.put(_STOP)
        if threading.current_thread() is not self.thread:
            self.thread.join(wait)
        return not self.thread.is_alive()

    # --- owner thread --------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            while True:
                job = self._jobs.get()
                if job is _STOP:
                    break
                if self._stopping.is_set():  # dequeued after close(): fail it, never start it
                    job._answer(_Failure(EngineClosed()))
                    continue
                self._run_job(job)
        finally:
            with self._lock:
                self._accepting = False
            self._fail_queued()
            free, self._free = self._free, None  # no engine <-> worker cycle outlives the thread
            if free is not None:
                try:
                    free()
                except BaseException:  # freeing must not keep the thread from ending
                    log.exception("%s: freeing the engine failed", self.label)
            with _live_lock:
                _live.discard(self)

    def _run_job(self, job: Job[Any]) -> None:
        try:
            job.fn(job)
        except BaseException as exc:  # answered, never fatal: the engine keeps serving
            if not isinstance(exc, EngineError):
                log.debug("%s job failed", self.label, exc_info=True)
            job._answer(_Failure(exc))
        else:
            job._answer(_END)

    def _fail_queued(self) -> None:
        while True:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                return
            if job is not _STOP:
                job._answer(_Failure(EngineClosed()))


_live: set[EngineWorker] = set()
_live_lock = threading.Lock()


def live_workers() -> list[EngineWorker]:
    """Workers whose thread has not ended yet (tests wait on them after a fast close)."""
    with _live_lock:
        return list(_live)


#: what else :func:`close_all` ends, for engines without an owner thread (llama.cpp's children:
#: :func:`app.core.engines.llamacpp.host.stop_all`); each returns at once
_also_close: list[Callable[[], None]] = []


def also_close_at_exit(stop: Callable[[], None]) -> None:
    """Have :func:`close_all` (the process's exit) call ``stop`` too."""
    if stop not in _also_close:
        _also_close.append(stop)


def close_all(wait: float | None = None) -> bool:
    """Close every live worker, end what :func:`also_close_at_exit` registered (a llama.cpp child
    still loading included), and wait up to ``wait`` (default :data:`EXIT_WAIT`) seconds in all.

    Registered with ``atexit``; True when every thread ended.
    """
    for stop in list(_also_close):
        try:
            stop()
        except Exception:  # one engine's failure must not keep the others running
            log.exception("could not stop an engine at exit")
    wait = EXIT_WAIT if wait is None else wait
    workers = live_workers()
    for w in workers:
        w.close(wait=0)
    deadline = time.monotonic() + wait
    for w in workers:
        w.thread.join(max(0.0, deadline - time.monotonic()))
    left = [w.thread.name for w in workers if w.thread.is_alive()]
    if left:
        log.warning("engine threads still busy at exit: %s", ", ".join(left))
    return not left


atexit.register(close_all)
