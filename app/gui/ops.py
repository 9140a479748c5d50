"""How the GUI runs slow work: coroutines on the qasync loop that await thread work.

Two kinds of work get a thread of their own from :meth:`Ops.start_own` instead of a pool thread,
each for a reason: a model's load (:class:`app.gui.engine.host.EngineHost`, ``tandem-load``, so a long
native load or a child's start never holds one of the pool threads) and Auto's background
calibration (:class:`app.gui.controllers.auto_tuner.AutoTuner`, ``tandem-auto``: minutes of
measuring). The thread starts at once, ends with its work, and is waited for (bounded) by
:meth:`Ops.join_own`. The window's MCP servers run on a loop of their own
(:class:`app.core.tools.host.ToolHost`, ``tandem-mcp``: the SDK needs a loop that is always running,
also while the window closes). Answers need no thread at all: they are the engines' async
streams on the engine loop (:mod:`app.core.engines.loop`), awaited here.

Anki's ``QueryOp`` / ``CollectionOp`` shape, written with qasync instead of callback chains::

    ops.query(lambda: manager.status(), parent=self).success(show).failure(title).run()

or, inside a coroutine that reads top to bottom (``ops.spawn(coro)`` / ``@asyncSlot``)::

    status = await ops.run(manager.status)
    freed = await ops.run(manager.delete, free_disk)
    ops.changed.emit()

* The thread work runs on a small pool of ``tandem-op-<n>`` threads, never on the GUI thread.
* A failure goes to the one error bridge (:class:`app.gui.errors.ErrorBridge`) unless the caller
  handles it; a cancelled or shut-down operation calls neither callback.
* ``with_progress(cb)`` hands the work a thread-safe ``report(str)`` whose calls reach ``cb`` on
  the GUI thread.
* ``parent``: when the widget is gone by the time the work ends, the callbacks are skipped (a
  dialog closed while its probe ran).
* :attr:`Ops.changed` is the one broadcast after an operation changed the cache or the registry;
  the item models subscribe to it instead of the window refreshing each by hand.

The loop is the application's qasync loop (``run_gui`` runs it); :func:`event_loop` creates and
installs one when none is installed yet (tests under pytest-qt: pytest-qt spins Qt's loop, and
qasync's callbacks are Qt timers and queued signals, so they run there too).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Generic, TypeVar, cast

import shiboken6
from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication

from app.gui.errors import ErrorBridge

log = logging.getLogger(__name__)

T = TypeVar("T")


_installed: asyncio.AbstractEventLoop | None = None


def event_loop() -> asyncio.AbstractEventLoop:
    """The qasync loop of this process, created and installed on first use (``run_gui`` asks
    for it before building the window, and runs it)."""
    global _installed
    import qasync

    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if isinstance(running, qasync.QEventLoop):
        return cast(asyncio.AbstractEventLoop, running)  # qasync ships no type information
    if _installed is None or _installed.is_closed():
        _installed = _new_loop(qasync.QEventLoop)
    # installed again each time: ``asyncio.run`` elsewhere on this thread (a script, a test) ends
    # by setting the thread's loop to None
    asyncio.set_event_loop(_installed)
    return _installed


def _new_loop(base: Any) -> asyncio.AbstractEventLoop:
    """A qasync loop whose thread work resumes on it whatever the thread's current loop is.

    qasync's ``run_in_executor`` wraps the worker's future for ``asyncio.get_event_loop()``, the
    thread's current loop, which ``asyncio.run`` elsewhere on the GUI thread leaves unset: the
    work then finished and the coroutine awaiting it never resumed (a random test order found a
    launch dialog that never opened). Here every executor future belongs to this loop, for
    :meth:`Ops.run` and ``asyncio.to_thread`` (the MCP client, the tool loop) alike. The default
    executor is plain threads: qasync's is QThreads, which Qt reports "destroyed while still
    running" at an exit that does not close the loop (a test run)."""
    default = ThreadPoolExecutor(max_workers=4, thread_name_prefix="asyncio-loop")

    class Loop(base):  # type: ignore[misc]  # qasync ships no type information: base is Any
        def run_in_executor(self, executor: Any, func: Callable[..., T], *args: Any) -> asyncio.Future[T]:
            pool = executor if executor is not None else default
            return asyncio.wrap_future(pool.submit(func, *args), loop=self)

    loop = Loop(QApplication.instance())
    loop.set_default_executor(default)
    return cast(asyncio.AbstractEventLoop, loop)


def _alive(obj: QObject | None) -> bool:
    return obj is None or shiboken6.isValid(obj)


class Ops(QObject):
    """Runs operations for one window. Signals: ``changed()`` (an operation changed the cache or
    the registry; the cache bridge re-probes and the lists follow)."""

    changed = Signal()

    def __init__(self, errors: ErrorBridge, parent: QObject | None = None, workers: int = 2) -> None:
        super().__init__(parent)
        self.errors = errors
        self.loop = event_loop()
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tandem-op")
        self._tasks: set[asyncio.Task[Any]] = set()
        #: the threads of :meth:`start_own` still running
        self._own: set[threading.Thread] = set()
        self._own_lock = threading.Lock()
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Await ``fn(*args)`` run on the pool (the coroutine resumes on the GUI thread)."""
        if self._closed:
            raise asyncio.CancelledError()
        return await self.loop.run_in_executor(self._pool, fn, *args)

    def start_own(self, fn: Callable[..., T], *args: Any, name: str) -> concurrent.futures.Future[T]:
        """Start ``fn(*args)`` now on a daemon thread of its own named ``name`` (work that holds a
        thread for long: see the module docstring); its result or error is the returned future's
        (``asyncio.wrap_future`` awaits it on the loop). Never refused: the work that closes a
        model must run also while the window closes."""
        done: concurrent.futures.Future[T] = concurrent.futures.Future()

        def run() -> None:
            try:
                done.set_result(fn(*args))
            except BaseException as exc:  # handed to whoever reads the future
                done.set_exception(exc)
            finally:
                with self._own_lock:
                    self._own.discard(threading.current_thread())

        thread = threading.Thread(target=run, name=name, daemon=True)
        with self._own_lock:
            self._own.add(thread)
        thread.start()
        return done

    def join_own(self, timeout: float, name: str | None = None) -> bool:
        """Wait at most ``timeout`` seconds for the threads of :meth:`start_own` (those named
        ``name`` only, when given); True when none of them runs any more."""
        deadline = time.monotonic() + timeout
        with self._own_lock:
            threads = [t for t in self._own if name is None or t.name == name]
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        return not any(t.is_alive() for t in threads)

    def spawn(self, coro: Coroutine[Any, Any, Any], failure: str = "") -> asyncio.Task[Any]:
        """Run ``coro`` on the loop; an exception it lets escape goes to the error bridge with
        the title ``failure``. The window cancels what still runs when it closes."""
        task = self.loop.create_task(coro)
        self._tasks.add(task)

        def done(t: asyncio.Task[Any]) -> None:
            self._tasks.discard(t)
            if t.cancelled() or self._closed:
                return
            exc = t.exception()
            if exc is not None:
                log.info("operation failed", exc_info=exc)
                self.errors.report(exc, failure)

        task.add_done_callback(done)
        return task

    def query(self, fn: Callable[..., T], *args: Any, parent: QObject | None = None) -> QueryOp[T]:
        return QueryOp(self, fn, args, parent)

    async def idle(self, timeout: float = 10.0) -> None:
        """Wait until no operation runs (tests, benchmarks)."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout)

    def pending(self) -> int:
        return len(self._tasks)

    def shutdown(self) -> None:
        """Cancel what runs; queued thread work is dropped, running work finishes on its own
        (bounded: probes and deletes are short). Never blocks the GUI thread."""
        if self._closed:
            return
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        self._pool.shutdown(wait=False, cancel_futures=True)


class QueryOp(Generic[T]):
    """``QueryOp(ops, fn).success(cb).failure(title_or_cb).with_progress(cb).run()``."""

    def __init__(self, ops: Ops, fn: Callable[..., T], args: tuple[Any, ...], parent: QObject | None) -> None:
        self._ops = ops
        self._fn = fn
        self._args = args
        self._parent = parent
        self._success: Callable[[T], Any] | None = None
        self._failure: Callable[[BaseException], Any] | None = None
        self._failure_title = ""
        self._progress: Callable[[str], Any] | None = None

    def success(self, callback: Callable[[T], Any]) -> QueryOp[T]:
        self._success = callback
        return self

    def failure(self, handler: Callable[[BaseException], Any] | str) -> QueryOp[T]:
        """A callback, or the title the error bridge shows (the default path)."""
        if isinstance(handler, str):
            self._failure_title = handler
        else:
            self._failure = handler
        return self

    def with_progress(self, callback: Callable[[str], Any]) -> QueryOp[T]:
        """``fn`` then receives ``report`` as its first argument; ``callback`` runs on the GUI thread."""
        self._progress = callback
        return self

    def run(self) -> asyncio.Task[Any]:
        return self._ops.spawn(self._main())

    async def _main(self) -> None:
        args = self._args
        if self._progress is not None:
            loop, progress = self._ops.loop, self._progress

            def report(message: str) -> None:
                loop.call_soon_threadsafe(progress, message)

            args = (report, *args)
        try:
            value = await self._ops.run(self._fn, *args)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not _alive(self._parent):
                return
            if self._failure is not None:
                self._failure(exc)
            else:
                self._ops.errors.report(exc, self._failure_title)
            return
        if self._success is not None and _alive(self._parent):
            self._success(value)
