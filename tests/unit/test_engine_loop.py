"""The engines' event loop: its three bridges, cancelling through them, and its end."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator

import pytest

from app.core.cancel import CancelToken
from app.core.engines.loop import EngineLoop


@pytest.fixture
def loop() -> Iterator[EngineLoop]:
    own = EngineLoop("test-engine-loop")
    try:
        yield own
    finally:
        own.stop()
    assert not any(t.name == "test-engine-loop" for t in threading.enumerate())


class Counter:
    """An async stream that counts on the loop, noting where it ran and whether it was stopped."""

    def __init__(self, n: int, fail_at: int | None = None, pause: float = 0.0) -> None:
        self.n, self.fail_at, self.pause = n, fail_at, pause
        self.threads: set[str] = set()
        self.cancelled = threading.Event()
        self.finished = threading.Event()

    async def items(self) -> AsyncIterator[int]:
        try:
            for i in range(self.n):
                self.threads.add(threading.current_thread().name)
                if i == self.fail_at:
                    raise ValueError(f"failed at {i}")
                await asyncio.sleep(self.pause)
                yield i
        except asyncio.CancelledError:
            self.cancelled.set()
            raise
        finally:
            self.finished.set()


def test_run_returns_a_result_and_refuses_to_wait_on_the_loop_itself(loop: EngineLoop) -> None:
    async def where() -> str:
        return threading.current_thread().name

    assert loop.run(where()) == "test-engine-loop"

    async def nested() -> None:
        inner = where()
        try:
            loop.run(inner)
        finally:
            inner.close()

    with pytest.raises(RuntimeError, match="engine loop itself"):
        loop.run(nested())


def test_iterate_reads_every_item_and_raises_the_producers_error(loop: EngineLoop) -> None:
    counter = Counter(5)
    assert list(loop.iterate(counter.items)) == [0, 1, 2, 3, 4]
    assert counter.threads == {"test-engine-loop"}
    failing = Counter(5, fail_at=3)
    got: list[int] = []
    with pytest.raises(ValueError, match="failed at 3"):
        got.extend(loop.iterate(failing.items))
    assert got == [0, 1, 2]


def test_a_cancel_or_a_reader_that_leaves_stops_the_producer(loop: EngineLoop) -> None:
    token = CancelToken()
    slow = Counter(1000, pause=0.01)
    got = []
    for item in loop.iterate(slow.items, token):
        got.append(item)
        if item == 2:
            token.cancel()
    assert got[:3] == [0, 1, 2] and len(got) < 1000
    assert slow.finished.wait(5) and slow.cancelled.is_set()
    leaving = Counter(1000, pause=0.01)
    stream = loop.iterate(leaving.items)
    assert next(stream) == 0
    stream.close()  # the reader stops early
    assert leaving.finished.wait(5) and leaving.cancelled.is_set()


def test_relay_hands_items_to_another_loop_and_its_cancel_reaches_the_producer(loop: EngineLoop) -> None:
    counter = Counter(4)
    slow = Counter(1000, pause=0.01)
    failing = Counter(5, fail_at=1)

    async def consume() -> tuple[list[int], list[int], str]:
        here = asyncio.get_running_loop()
        whole = [i async for i in loop.relay(counter.items, here)]

        async def read_slowly() -> None:
            async for _i in loop.relay(slow.items, here):
                pass

        task = here.create_task(read_slowly())
        await asyncio.sleep(0.1)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        partial: list[int] = []
        try:
            async for i in loop.relay(failing.items, here):
                partial.append(i)
        except ValueError as exc:
            return whole, partial, str(exc)
        return whole, partial, ""

    whole, partial, error = asyncio.run(consume())
    assert whole == [0, 1, 2, 3] and counter.threads == {"test-engine-loop"}
    assert slow.finished.wait(5) and slow.cancelled.is_set()
    assert partial == [0] and error == "failed at 1"


def test_stop_cancels_what_still_runs_and_ends_the_thread(loop: EngineLoop) -> None:
    endless = Counter(10**9, pause=0.01)

    async def drain() -> None:
        async for _i in endless.items():
            pass

    future = loop.submit(drain())
    assert loop.running
    loop.stop()
    assert endless.finished.wait(5) and endless.cancelled.is_set()
    assert future.cancelled() or future.done()
    assert not loop.running
    # used again after a stop: a new loop and thread
    assert list(loop.iterate(Counter(2).items)) == [0, 1]
