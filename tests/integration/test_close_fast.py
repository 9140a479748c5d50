"""Real engines close within a second whatever they are doing, and a load can be cancelled.

A close must not wait for the current request: ``load()`` must not block on the native load and
``close()`` must not join a thread for as long as the current request runs, or a close during a
prefill (or right after a job was dequeued) would wait for the whole prompt pass.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from app.core import assets
from app.core.cancel import CancelToken
from app.core.engines.base import (
    Event,
    Finished,
    LoadRequest,
    ModelLoadError,
    Sampling,
    TextDelta,
)
from app.core.engines.blocking import generate
from app.core.engines.llamacpp import host
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.engines.llamacpp.host import live_processes
from app.core.engines.worker import EngineClosed, LoadCancelled, LoadProgress, close_all, live_workers
from app.core.speculative import SpeculationOptions
from tests.engines_left import wait_for_no_llamacpp_child


def _engine_threads(prefix: str) -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith(prefix)]


def _wait_gone(prefix: str, timeout: float = 60) -> None:
    """The engine's threads have ended, and for llama.cpp its child too (its engine has no thread
    of its own: the child is what must be gone)."""
    for t in _engine_threads(prefix):
        t.join(timeout)
    assert not _engine_threads(prefix)
    if prefix.startswith("tandem-llamacpp"):
        wait_for_no_llamacpp_child(timeout)


def test_a_llamacpp_load_sees_the_cancel_token_and_loads_nothing(
    smollm2_f32: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The GUI's Cancel is a token the load checks itself, not only a progress call that raises.

    A load that did not check the token would go on to load target and drafter: no llama.cpp child
    is started once the cancel is seen.
    """
    started: list[str] = []
    real_start = host.ServerProcess.start

    def start(self: host.ServerProcess, stop_requested: Any) -> str:
        started.append(self.cfg.model_path)
        return real_start(self, stop_requested)

    monkeypatch.setattr(host.ServerProcess, "start", start)
    token = CancelToken()

    def report(msg: str) -> None:
        if msg.startswith("checking drafter"):  # the user presses Cancel during the checks
            token.cancel()

    spec = SpeculationOptions.build(enabled=True, draft_model_path=str(assets.smollm2_q4_path()))
    req = LoadRequest(str(smollm2_f32), spec, n_ctx=8192, n_threads=2)
    with pytest.raises(LoadCancelled):
        LlamaCppEngine.load(req, LoadProgress(report, token))
    assert token.cancelled and started == []  # cancelled during the checks: nothing was loaded
    _wait_gone("tandem-llamacpp-")
    assert not [w for w in live_workers() if w.label == "llama.cpp"]


def _the_child() -> int:
    pids = live_processes()
    assert len(pids) == 1, pids
    return pids[0]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGSTOP is POSIX")
def test_closing_llamacpp_during_a_prefill_ends_the_request(smollm2_f32: Path) -> None:
    """close() must not wait for the current request: a close during a prefill does not wait for
    the whole prompt pass. Here the llama.cpp child is stopped (SIGSTOP)
    once the request is on its way, so that pass can never end by itself: the request ends, and the
    engine's thread with it, only because close() ended the child. (How long a close takes is not
    asserted: on a busy machine any bound is a guess.)"""
    engine = LlamaCppEngine.load(LoadRequest(str(smollm2_f32), SpeculationOptions(), n_ctx=4096, n_threads=2))
    long_prompt = " ".join(f"item{i}" for i in range(300))  # a long prefill
    events: list[Event] = []
    errors: list[BaseException] = []
    started = threading.Event()

    def consume() -> None:
        stream = generate(engine, [{"role": "user", "content": long_prompt}], Sampling(max_tokens=64))
        started.set()
        try:
            events.extend(stream)
        except BaseException as exc:
            errors.append(exc)

    consumer = threading.Thread(target=consume, name="test-consumer", daemon=True)
    consumer.start()
    assert started.wait(10)
    # queued, sent or in its prompt pass: wherever the request is, it cannot finish now
    os.kill(_the_child(), signal.SIGSTOP)
    engine.close()
    consumer.join(60)
    assert not consumer.is_alive()
    # The request ends either as cancelled at its first token or refused as closed; never hangs.
    if errors:
        assert isinstance(errors[0], EngineClosed)
    else:
        fin = events[-1]
        assert isinstance(fin, Finished) and fin.reason == "cancelled"
        assert fin.completion_tokens <= 2
    _wait_gone("tandem-llamacpp-")


def test_closing_llamacpp_during_a_generation_stops_it_at_the_next_token(smollm2_q4: Path) -> None:
    engine = LlamaCppEngine.load(LoadRequest(str(smollm2_q4), SpeculationOptions(), n_ctx=4096, n_threads=2))
    events: list[Event] = []
    ten = threading.Event()

    def consume() -> None:
        for ev in generate(
            engine, [{"role": "user", "content": "Count to 5000."}], Sampling(max_tokens=3000)
        ):
            events.append(ev)
            if sum(isinstance(e, TextDelta) for e in events) >= 10:
                ten.set()

    consumer = threading.Thread(target=consume, name="test-consumer", daemon=True)
    consumer.start()
    assert ten.wait(60)
    engine.close()  # the answer ends cancelled, long before its 3000 tokens
    consumer.join(60)
    assert not consumer.is_alive()
    fin = events[-1]
    assert isinstance(fin, Finished) and fin.reason == "cancelled" and fin.completion_tokens < 3000
    _wait_gone("tandem-llamacpp-")


def _frozen_child(after: threading.Event, frozen: list[int], then: Any) -> threading.Thread:
    """A Python thread of this process (like the GUI's event loop): once ``after`` is set it waits
    for the llama.cpp child, stops it (SIGSTOP: its load can then never finish, on any machine),
    notes its pid in ``frozen`` and calls ``then``."""

    def run() -> None:
        assert after.wait(60)
        deadline = time.monotonic() + 60
        while not live_processes():
            assert time.monotonic() < deadline, "no llama.cpp child started"
            time.sleep(0.01)
        pid = live_processes()[0]
        os.kill(pid, signal.SIGSTOP)
        frozen.append(pid)
        then()

    thread = threading.Thread(target=run, name="test-freezer", daemon=True)
    thread.start()
    return thread


@pytest.mark.skipif(sys.platform == "win32", reason="SIGSTOP is POSIX")
def test_a_cancel_during_the_native_load_ends_the_child_without_waiting_for_the_load(
    smollm2_f32: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The native load runs in a child process, so a cancel does not wait for it to finish.
    xllamacpp's ``Server(...)`` holds the GIL for the whole load: on a thread of this process no
    Python thread, the one that checks the cancel included, would run until it returned.
    Here the child is stopped as soon as it exists (within milliseconds; the load of this 64k-context
    pair takes seconds), so the load cannot finish however long the cancel then takes on a busy
    machine: another Python thread runs during the load and presses Cancel, the load ends
    cancelled, and the child is gone without ever having reported ready.
    (How long a cancel takes: benchmarks are the place for that figure, not this test.)
    """
    hosts: list[host.ServerProcess] = []
    real_start = host.ServerProcess.start

    def start(self: host.ServerProcess, stop_requested: Any) -> str:
        hosts.append(self)
        return real_start(self, stop_requested)

    monkeypatch.setattr(host.ServerProcess, "start", start)
    token = CancelToken()
    loading = threading.Event()

    def report(msg: str) -> None:
        if msg.startswith("loading model"):
            loading.set()

    frozen: list[int] = []
    freezer = _frozen_child(loading, frozen, token.cancel)  # the user presses Cancel during the load
    spec = SpeculationOptions.build(enabled=True, draft_model_path=str(assets.smollm2_q4_path()))
    req = LoadRequest(str(smollm2_f32), spec, n_ctx=65536, n_threads=2)
    with pytest.raises(LoadCancelled):
        LlamaCppEngine.load(req, LoadProgress(report, token))
    freezer.join(10)
    assert frozen and len(hosts) == 1
    assert hosts[0].address == ""  # the child never said it was ready: the load did not finish
    _wait_gone("tandem-llamacpp-")
    assert not live_processes()


@pytest.mark.skipif(sys.platform == "win32", reason="SIGSTOP is POSIX")
def test_exit_during_a_native_load_ends_the_load(smollm2_f32: Path) -> None:
    """At exit (``atexit`` runs :func:`close_all`) a load in progress ends with its child process.
    The native load runs in the child, not in this process, so the exit does not wait for it (nor
    for the GIL it holds). The child is stopped here, so its load never finishes by itself:
    close_all can only return True (every engine thread ended) by ending it.
    """
    spec = SpeculationOptions.build(enabled=True, draft_model_path=str(assets.smollm2_q4_path()))
    req = LoadRequest(str(smollm2_f32), spec, n_ctx=65536, n_threads=2)
    errors: list[BaseException] = []
    loading, frozen_ready = threading.Event(), threading.Event()
    frozen: list[int] = []

    def report(msg: str) -> None:
        if msg.startswith("loading model"):
            loading.set()

    def load() -> None:
        try:
            LlamaCppEngine.load(req, report)
        except BaseException as exc:
            errors.append(exc)

    loader = threading.Thread(target=load, name="test-loader", daemon=True)
    loader.start()
    freezer = _frozen_child(loading, frozen, frozen_ready.set)
    assert frozen_ready.wait(60) and live_processes() == frozen
    assert close_all(wait=60)  # a stopped child's load cannot end on its own: close_all ended it
    loader.join(10)
    freezer.join(10)
    assert not loader.is_alive()
    assert errors and isinstance(errors[0], ModelLoadError)
    _wait_gone("tandem-llamacpp-")
    assert not live_processes()


@pytest.mark.skipif(sys.platform == "win32", reason="SIGSTOP/SIGCONT are POSIX")
def test_a_stop_during_a_long_prompt_pass_ends_the_answer_without_the_pass(smollm2_f32: Path) -> None:
    """Stop (the request's cancel token) during the prompt pass: the answer ends without waiting
    for the pass. A stop seen only in the callback of the next token would let a long prompt run to
    its end first (minutes for a pasted document on a big model): the request's connection to the
    llama.cpp process is closed, which cancels it there. The child is
    stopped (SIGSTOP) while the request is on its way, so no token and no end of the pass can come:
    only the closed connection can end the answer. The child then goes on and serves the next
    request normally.
    """
    engine = LlamaCppEngine.load(LoadRequest(str(smollm2_f32), SpeculationOptions(), n_ctx=4096, n_threads=2))
    child = _the_child()
    try:
        long_prompt = " ".join(f"item{i}" for i in range(600))
        token = CancelToken()

        def freeze_then_stop() -> None:
            os.kill(child, signal.SIGSTOP)
            token.cancel()

        stream = generate(engine, [{"role": "user", "content": long_prompt}], Sampling(max_tokens=64), token)
        first = threading.Timer(0.3, freeze_then_stop)  # any moment of the request will do
        first.start()
        try:
            events = list(stream)
        finally:
            first.join()
            os.kill(child, signal.SIGCONT)
        fin = events[-1]
        assert isinstance(fin, Finished) and fin.reason == "cancelled" and fin.completion_tokens == 0
        # The engine serves the next request normally.
        again = list(generate(engine, [{"role": "user", "content": "Say hi."}], Sampling(max_tokens=4)))
        assert isinstance(again[-1], Finished) and again[-1].completion_tokens > 0
    finally:
        engine.close()
    _wait_gone("tandem-llamacpp-")
