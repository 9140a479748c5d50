"""The engines' one event loop: where every request to a loaded engine is read, whoever asks.

The process runs one asyncio loop on one daemon thread (``tandem-engine-loop``), started on first
use. The engines' long-lived HTTP clients, the engine pool and the local API server live on it, so
the window's chat, the window's Local server and ``tandem serve`` read an engine the same way:
:meth:`~app.core.engines.base.Engine.stream`, awaited on this loop, with no thread per
request.

Callers elsewhere reach it through three bridges:

* :meth:`EngineLoop.relay` from another event loop (the window's qasync loop): the events of an
  async stream produced here, handed over as they come; cancelling the consumer cancels the
  producer;
* :meth:`EngineLoop.iterate` from a plain thread (the CLI, ``bench``, ``parity``): the same events
  as a blocking iterator, stopped by a :class:`~app.core.cancel.CancelToken`;
* :meth:`EngineLoop.run` for one coroutine's result from a plain thread.

Blocking on the loop's own thread would wait for itself, so the blocking bridges refuse that with
a :class:`RuntimeError` instead of hanging.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import queue
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from typing import Any, TypeVar, cast

from app.core.cancel import CancelToken

T = TypeVar("T")

#: how often a blocking reader checks its cancel token while no event arrives (seconds)
_POLL = 0.05
_END = object()


class _Failure:
    def __init__(self, error: BaseException) -> None:
        self.error = error


async def _feed(make: Callable[[], AsyncIterator[Any]], put: Callable[[object], None]) -> None:
    """On the loop: every item of ``make()`` to ``put``, then its error (if any), then the end."""
    try:
        async for item in make():
            put(item)
    except asyncio.CancelledError:
        raise
    except BaseException as exc:
        put(_Failure(exc))
    finally:
        put(_END)


class EngineLoop:
    """One event loop on its own daemon thread (see the module docstring)."""

    def __init__(self, name: str = "tandem-engine-loop") -> None:
        self.name = name
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The running loop (started on first use)."""
        with self._lock:
            if self._loop is None or self._thread is None or not self._thread.is_alive():
                loop = asyncio.new_event_loop()
                started = threading.Event()

                def run() -> None:
                    asyncio.set_event_loop(loop)
                    loop.call_soon(started.set)
                    loop.run_forever()

                self._thread = threading.Thread(target=run, name=self.name, daemon=True)
                self._thread.start()
                started.wait()
                self._loop = loop
            return self._loop

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def on_loop(self) -> bool:
        """True on the loop's own thread."""
        return self._thread is not None and threading.current_thread() is self._thread

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Run ``coro`` on the loop; its future, to wait for from any other thread."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def run(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        """``coro``'s result, waited for on this (non-loop) thread."""
        if self.on_loop():
            coro.close()
            raise RuntimeError("a blocking engine call was made on the engine loop itself")
        future = self.submit(coro)
        try:
            return future.result(timeout)
        except BaseException:
            future.cancel()
            raise

    def iterate(
        self, make: Callable[[], AsyncIterator[T]], cancel: CancelToken | None = None, grace: float = 0.0
    ) -> Iterator[T]:
        """The items of the async stream ``make()`` (run on the loop), read on this thread.

        A cancel (or a reader that stops early) cancels the producer on the loop and ends the
        iteration without an error: what was produced before it has been given. With ``grace``,
        a cancel lets the producer end on its own for that many seconds first (a stream that
        closes itself on the same token gives its last items), then cancels it."""
        if self.on_loop():
            raise RuntimeError("a blocking engine stream was read on the engine loop itself")
        items: queue.Queue[object] = queue.Queue()
        future = self.submit(_feed(make, items.put))
        finished = False
        deadline: float | None = None  # when a cancelled stream is given up on
        try:
            while True:
                if cancel is not None and cancel.cancelled:
                    if deadline is None:
                        deadline = time.monotonic() + grace
                    if time.monotonic() >= deadline:
                        return
                try:
                    item = items.get(timeout=_POLL)
                except queue.Empty:
                    continue
                if item is _END:
                    finished = True
                    return
                if isinstance(item, _Failure):
                    finished = True
                    raise item.error
                yield cast(T, item)
        finally:
            if not finished:
                future.cancel()
                # the producer has ended (its connection closed) before the caller goes on
                # a failure after the reader left has nobody to tell
                with contextlib.suppress(BaseException):
                    future.result(timeout=5)

    async def relay(
        self, make: Callable[[], AsyncIterator[T]], consumer: asyncio.AbstractEventLoop | None = None
    ) -> AsyncIterator[T]:
        """The items of the async stream ``make()`` (run on this loop) for a consumer on another
        loop (``consumer``, else the running one); the consumer's cancel cancels the producer. On
        this loop itself, the stream is read directly."""
        if self.on_loop():
            async for item in make():
                yield item
            return
        here = consumer or asyncio.get_running_loop()
        items: deque[object] = deque()
        waiter: list[asyncio.Future[None]] = []

        def arrive(item: object) -> None:  # on the consumer's loop
            items.append(item)
            if waiter and not waiter[0].done():
                waiter[0].set_result(None)

        def put(item: object) -> None:
            with contextlib.suppress(RuntimeError):  # the consumer's loop is closed: nobody reads
                here.call_soon_threadsafe(arrive, item)

        future = self.submit(_feed(make, put))
        finished = False
        try:
            while True:
                while not items:
                    waiter[:] = [here.create_future()]
                    await waiter[0]
                got = items.popleft()
                if got is _END:
                    finished = True
                    return
                if isinstance(got, _Failure):
                    finished = True
                    raise got.error
                yield cast(T, got)
        finally:
            if not finished:
                future.cancel()  # the producer stops on its loop (its connection closes there)

    def stop(self, timeout: float = 2.0) -> None:
        """End what still runs on the loop (closing clients finish, streams are cancelled), then the
        loop and its thread (the process's exit does it otherwise)."""
        with self._lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return

        async def wind_down() -> None:
            me = asyncio.current_task()
            others = [t for t in asyncio.all_tasks() if t is not me]
            for task in others:
                task.cancel()
            await asyncio.wait_for(asyncio.gather(*others, return_exceptions=True), timeout)
            await loop.shutdown_asyncgens()

        with contextlib.suppress(BaseException):  # a task that will not end: stopped regardless
            asyncio.run_coroutine_threadsafe(wind_down(), loop).result(timeout + 1)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout)
        if not thread.is_alive():
            loop.close()


_shared = EngineLoop()


def engine_loop() -> EngineLoop:
    """The process's engine loop."""
    return _shared
