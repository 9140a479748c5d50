"""The one engine worker: queue, events, cancel and close, the same for every engine.

The jobs here are plain Python functions standing in for an engine's native calls (a gate stands
for a call that cannot be interrupted); the worker itself is the real one the engines use. The
real engines are covered in tests/integration/test_close_fast.py.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from app.core.cancel import CancelToken
from app.core.engines.base import GenerationError, ModelLoadError
from app.core.engines.worker import (
    EngineClosed,
    EngineWorker,
    Job,
    LoadCancelled,
    LoadProgress,
    close_all,
)


@pytest.fixture
def worker() -> Iterator[EngineWorker]:
    w = EngineWorker("tandem-test-worker", "Test engine")
    yield w
    w.close()
    w.thread.join(10)


def counting(n: int, started: threading.Event | None = None) -> Callable[[Job[int]], None]:
    """Emits 0..n-1, checking for a stop before each like an engine between tokens."""

    def job(j: Job[int]) -> None:
        if started is not None:
            started.set()
        for i in range(n):
            if j.stopped():
                j.emit(-1)  # the engine's "cancelled" finish
                return
            j.emit(i)
            time.sleep(0.001)

    return job


def in_thread(fn: Callable[[], object]) -> tuple[threading.Thread, dict[str, object]]:
    out: dict[str, object] = {}

    def run() -> None:
        try:
            out["value"] = fn()
        except BaseException as exc:
            out["error"] = exc

    t = threading.Thread(target=run, name="test-consumer", daemon=True)
    t.start()
    return t, out


def test_jobs_stream_in_order_on_the_owner_thread(worker: EngineWorker) -> None:
    names: list[str] = []

    def job(j: Job[str]) -> None:
        names.append(threading.current_thread().name)
        j.emit("a")
        j.emit("b")

    assert list(worker.stream(job)) == ["a", "b"]
    assert worker.call(lambda: 42) == 42
    assert names == ["tandem-test-worker"]


def test_errors_are_typed_on_the_consumer_side_and_the_worker_keeps_serving(worker: EngineWorker) -> None:
    class Interrupt(BaseException):
        pass

    def fails(exc: BaseException) -> Callable[[Job[int]], None]:
        def job(j: Job[int]) -> None:
            j.emit(1)
            raise exc

        return job

    own = GenerationError("the engine's own message")
    with pytest.raises(GenerationError) as info:
        list(worker.stream(fails(own)))
    assert info.value is own
    with pytest.raises(GenerationError, match=r"^Test engine failed while generating: ValueError: bad$"):
        list(worker.stream(fails(ValueError("bad"))))
    with pytest.raises(GenerationError, match="Interrupt"):
        list(worker.stream(fails(Interrupt())))
    assert list(worker.stream(counting(3))) == [0, 1, 2]


def test_a_consumer_that_stops_early_stops_its_job_but_not_the_callers_token(worker: EngineWorker) -> None:
    token = CancelToken()
    seen: list[int] = []
    stream = worker.stream(counting(100_000), token)
    for i in stream:
        seen.append(i)
        if i == 3:
            break
    stream.close()  # returns once the job has ended: the next request starts on an idle engine
    assert seen == [0, 1, 2, 3] and not token.cancelled
    assert list(worker.stream(counting(2))) == [0, 1]


def test_an_event_loop_reads_a_job_without_a_thread_of_its_own_and_a_cancel_stops_it(
    worker: EngineWorker,
) -> None:
    async def read_all() -> list[int]:
        return [i async for i in worker.astream(counting(5))]

    async def read_then_cancel() -> list[int]:
        seen: list[int] = []

        async def consume() -> None:
            async for i in worker.astream(counting(1_000_000)):
                seen.append(i)

        task = asyncio.create_task(consume())
        while len(seen) < 3:
            await asyncio.sleep(0.001)
        threads = threading.active_count()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert threading.active_count() == threads
        return seen

    before = threading.active_count()
    assert asyncio.run(read_all()) == [0, 1, 2, 3, 4]
    assert threading.active_count() == before
    seen = asyncio.run(read_then_cancel())
    assert seen[:3] == [0, 1, 2] and len(seen) < 1_000_000
    assert list(worker.stream(counting(2))) == [0, 1]  # the cancelled job ended; the next one runs

    async def failing() -> None:
        def job(j: Job[int]) -> None:
            raise ValueError("bad")

        async for _ in worker.astream(job):
            pass

    with pytest.raises(GenerationError, match="ValueError: bad"):
        asyncio.run(failing())


def test_close_fails_queued_jobs_with_one_message_and_stops_the_running_one() -> None:
    freed: list[str] = []
    w = EngineWorker(
        "tandem-test-worker", "Test engine", free=lambda: freed.append(threading.current_thread().name)
    )
    started = threading.Event()
    first, out1 = in_thread(lambda: list(w.stream(counting(10_000_000, started))))
    assert started.wait(10)
    queued = w.stream(counting(3))
    second, out2 = in_thread(lambda: next(queued))
    w.close()  # had it waited for the running job, that job would have counted to its end
    first.join(10)
    second.join(10)
    assert out1["value"][-1] == -1  # type: ignore[index]  # stopped at its next step
    assert isinstance(out2["error"], EngineClosed) and str(out2["error"]) == "The model was closed."
    with pytest.raises(EngineClosed):
        next(w.stream(counting(1)))
    assert not w.thread.is_alive() and freed == ["tandem-test-worker"]


def test_close_stops_a_job_the_thread_has_just_dequeued() -> None:
    """The race the llama.cpp engine had: close() ran between dequeue and "current job" bookkeeping,
    missed the job, and then joined for a whole generation."""
    w = EngineWorker("tandem-test-worker", "Test engine")
    dequeued, go = threading.Event(), threading.Event()

    def job(j: Job[int]) -> None:
        dequeued.set()
        go.wait(10)  # close() happens here, before the job looked at anything
        counting(10_000_000)(j)

    t, out = in_thread(lambda: list(w.stream(job)))
    assert dequeued.wait(10)
    w.close(wait=0)
    go.set()
    t.join(10)
    assert out["value"] == [-1]
    w.thread.join(10)


def test_close_returns_while_a_native_call_cannot_be_interrupted() -> None:
    """close() does not wait for a call that has no step to stop at: it returns while the call is
    still running (the call can only end once the test opens its gate, after close returned)."""
    freed: list[bool] = []
    gate = threading.Event()
    w = EngineWorker("tandem-test-worker", "Test engine", free=lambda: freed.append(gate.is_set()))
    running, returned = threading.Event(), threading.Event()

    def native(j: Job[int]) -> None:  # a model load or a prefill: no step to check a flag at
        running.set()
        gate.wait(60)
        returned.set()

    t, _out = in_thread(lambda: list(w.stream(native)))
    assert running.wait(10)
    ended = w.close()
    assert not returned.is_set()  # close() came back with the native call still in progress
    assert not ended and w.thread.is_alive() and w.thread.daemon
    gate.set()  # the native call returns: the thread frees and ends by itself
    w.thread.join(10)
    t.join(10)
    assert not w.thread.is_alive() and freed == [True]


def test_a_load_waits_in_a_cancellable_way_and_frees_what_finishes_after_the_cancel() -> None:
    made: list[str] = []
    freed: list[list[str]] = []
    gate = threading.Event()
    w = EngineWorker("tandem-test-worker", "Test engine", free=lambda: freed.append(list(made)))

    def load(say: Callable[[str], None]) -> None:
        say("loading model")
        gate.wait(30)  # the native load reports nothing while it runs
        made.append("model")

    token = CancelToken()
    progress = LoadProgress(lambda msg: token.cancel() if msg == "loading model" else None, token)
    with pytest.raises(LoadCancelled):
        w.run_load(load, progress)
    # the cancel did not wait for the load: it is still running (its gate is opened only below)
    assert made == [] and w.closed and w.thread.is_alive()
    gate.set()
    w.thread.join(10)
    assert freed == [["model"]]  # the model that finished after the cancel was freed


def test_a_failed_load_is_typed_and_closes_the_worker() -> None:
    w = EngineWorker("tandem-test-worker", "Test engine")

    def load(say: Callable[[str], None]) -> None:
        raise OSError("truncated file")

    with pytest.raises(
        ModelLoadError, match=r"^Test engine could not load the model: OSError: truncated file$"
    ):
        w.run_load(load)
    assert w.closed and not w.thread.is_alive()


def test_close_all_frees_a_worker_its_owner_forgot() -> None:
    freed = threading.Event()
    w = EngineWorker("tandem-test-worker", "Test engine", free=freed.set)
    assert close_all(wait=5) and freed.is_set() and not w.thread.is_alive()


EXIT_SCRIPT = """
import sys, threading, time
from app.core.engines import worker as w
w.EXIT_WAIT = {exit_wait}
gate = threading.Event()
eng = w.EngineWorker("tandem-exit", "Test", free=lambda: print("freed", flush=True))
if {busy}:
    stuck = eng.stream(lambda j: gate.wait(60))  # a native call that never ends in time
    threading.Thread(target=lambda: list(stuck), daemon=True).start()
    time.sleep(0.2)
print("main done", flush=True)
"""


@pytest.mark.parametrize("busy", [False, True])
def test_the_process_exits_whatever_the_engine_is_doing(busy: bool) -> None:
    """No engine thread keeps the process alive: an idle one is freed at exit, a busy one gets
    EXIT_WAIT seconds and is then left to the process exit."""
    t0 = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", EXIT_SCRIPT.format(exit_wait=1.0, busy=busy)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    elapsed = time.monotonic() - t0
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == (["main done"] if busy else ["main done", "freed"])
    assert elapsed < 15
    if busy:
        assert "engine threads still busy at exit: tandem-exit" in done.stderr
