"""Closing the window, or stopping its Local server, while API requests stream on the real engine
ends promptly and leaves no llama.cpp process.

The served model is the embedded SmolLM2 on llama.cpp with speculation off; one request asks for
``ngram-mod``, which the server's engine pool starts as a second child process beside the loaded
one, and streams a long answer there; a second request waits its turn on the loaded child. The
clients are plain HTTP streams on threads of their own.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any

import httpx
import psutil
import pytest

from app.core.engines.llamacpp import host as llamacpp_host
from app.core.speculative import SpeculationOptions
from tests.engines_left import wait_for_engine_threads

# the embedded SmolLM2 the window loads (asking for its file marks the tests slow)
pytestmark = pytest.mark.usefixtures("smollm2_q4")

#: a hang bound, not a speed check (a quiet close takes a small fraction of it): a busy machine
#: must not fail it
CLOSE_BOUND_S = 15.0
LONG = [{"role": "user", "content": "Count from 1 to 3000, one number per line."}]


def llamacpp_children() -> list[psutil.Process]:
    """The llama.cpp child processes of this test process that still run (zombies do not)."""
    found = []
    for proc in psutil.Process().children(recursive=True):
        try:
            running = proc.status() != psutil.STATUS_ZOMBIE
            if running and "app.core.engines.llamacpp.host" in " ".join(proc.cmdline()):
                found.append(proc)
        except psutil.Error:  # ended while it was looked at
            continue
    return found


@dataclass
class Client:
    """One streamed chat request on a thread: when its first chunk came and when its stream ended."""

    address: str
    key: str
    speculation: str | None
    first_chunk: threading.Event = field(default_factory=threading.Event)
    ended: threading.Event = field(default_factory=threading.Event)
    ended_at: float = 0.0
    status: int = 0
    error: str = ""

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self._run, name="test-api-client", daemon=True)
        thread.start()
        return thread

    def _run(self) -> None:
        body: dict[str, Any] = {"messages": LONG, "max_tokens": 3000, "temperature": 0, "stream": True}
        if self.speculation is not None:
            body["tandem"] = {"speculation": self.speculation}
        headers = {"Authorization": f"Bearer {self.key}"}
        try:
            with httpx.stream(
                "POST", self.address + "/chat/completions", json=body, headers=headers, timeout=60
            ) as r:
                self.status = r.status_code
                for line in r.iter_lines():
                    if line.startswith("data: {"):
                        self.first_chunk.set()
        except httpx.HTTPError as exc:  # the server went away mid-stream: an end too
            self.error = f"{type(exc).__name__}: {exc}"
        finally:
            self.ended_at = time.monotonic()
            self.ended.set()


def _serve_with_two_streams(w: Any, qtbot: Any) -> tuple[list[Client], list[threading.Thread]]:
    """Load the embedded model with speculation off, start the Local server, and stream two long
    answers: one on a pool child started for ``ngram-mod`` (streaming), one waiting on the base."""
    off = replace(w.launcher.default_choice(), speculation=SpeculationOptions(), auto=False)
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000):
        w.launch(off)
    controller = w.server_switch.controller
    with qtbot.waitSignal(controller.stateChanged, timeout=20_000):
        w.server_switch.click()
    streaming = Client(controller.address, controller.key, "ngram-mod")
    waiting = Client(controller.address, controller.key, None)
    threads = [streaming.start()]
    qtbot.waitUntil(streaming.first_chunk.is_set, timeout=120_000)
    threads.append(waiting.start())
    # the pool's child answers: two llama.cpp processes (the loaded one and ngram-mod's)
    qtbot.waitUntil(lambda: len(llamacpp_children()) == 2, timeout=10_000)
    qtbot.wait(300)  # the second request reaches the server and waits for its turn
    assert not streaming.ended.is_set() and not waiting.ended.is_set()
    return [streaming, waiting], threads


def _assert_all_ended(clients: list[Client], threads: list[threading.Thread], since: float) -> None:
    for t in threads:
        t.join(CLOSE_BOUND_S + 5)
    assert all(c.ended.is_set() for c in clients), "an API stream did not end"
    late = [round(c.ended_at - since, 2) for c in clients if c.ended_at - since > CLOSE_BOUND_S]
    assert not late, f"API streams ended {late} s after the stop"
    deadline = time.monotonic() + CLOSE_BOUND_S
    while llamacpp_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    left = llamacpp_children()
    assert not left, f"llama.cpp processes left: {[p.pid for p in left]}"
    assert not llamacpp_host.live_processes()


def test_closing_the_window_while_api_requests_stream_ends_them_and_every_child(
    make_window: Any, qtbot: Any
) -> None:
    w = make_window()
    clients, threads = _serve_with_two_streams(w, qtbot)
    t0 = time.monotonic()
    w.close()
    took = time.monotonic() - t0
    assert took < CLOSE_BOUND_S, f"closing the window took {took:.2f} s during API requests"
    _assert_all_ended(clients, threads, t0)
    wait_for_engine_threads(30)


def test_closing_the_window_while_a_request_waits_for_its_configuration_to_load(
    make_window: Any, qtbot: Any
) -> None:
    """The pool's second child is still loading (a large context loads for seconds): the close
    ends that load instead of waiting for it on the GUI thread."""
    w = make_window()
    # a context large enough for a child's load of seconds (the pool's child loads the same)
    choice = replace(w.launcher.default_choice(), speculation=SpeculationOptions(), auto=False, n_ctx=65536)
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000):
        w.launch(choice)
    controller = w.server_switch.controller
    with qtbot.waitSignal(controller.stateChanged, timeout=20_000):
        w.server_switch.click()
    client = Client(controller.address, controller.key, "ngram-mod")
    threads = [client.start()]
    qtbot.waitUntil(lambda: len(llamacpp_children()) == 2, timeout=30_000)
    assert not client.first_chunk.is_set() and controller.pool is not None
    assert controller.pool.status().children[-1].label != "ngram-mod"  # not loaded yet
    t0 = time.monotonic()
    w.close()
    took = time.monotonic() - t0
    # as fast as a close with nothing loading (tests/gui/test_close_fast.py): the load is not awaited
    assert took < 1.0, f"closing the window took {took:.2f} s during a configuration's load"
    _assert_all_ended([client], threads, t0)
    wait_for_engine_threads(30)


def test_stopping_the_local_server_while_api_requests_stream_ends_them_and_keeps_the_pool(
    make_window: Any, qtbot: Any
) -> None:
    w = make_window()
    clients, threads = _serve_with_two_streams(w, qtbot)
    controller = w.server_switch.controller
    t0 = time.monotonic()
    with qtbot.waitSignal(controller.stateChanged, timeout=int(CLOSE_BOUND_S * 1000)):
        w.server_switch.panel.stop.click()
    took = time.monotonic() - t0
    assert took < CLOSE_BOUND_S, f"stopping the Local server took {took:.2f} s during API requests"
    for t in threads:
        t.join(CLOSE_BOUND_S + 5)
    assert all(c.ended.is_set() for c in clients), "an API stream did not end"
    # the pool is the window's: the loaded model and the configuration the requests
    # started stay for the chat (an idle configuration stops by itself), nothing is left computing
    assert w.engine.is_loaded and w.engine.pool is not None and controller.pool is None
    pool = w.engine.pool
    qtbot.waitUntil(lambda: all(c.active == 0 for c in pool.status().children), timeout=10_000)
    t1 = time.monotonic()
    w.close()
    assert time.monotonic() - t1 < CLOSE_BOUND_S
    _assert_all_ended(clients, [], t0)
    wait_for_engine_threads(30)
