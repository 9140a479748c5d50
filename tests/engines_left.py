"""Waits used by the tests that close engines fast: what a close freed in the background has ended."""

from __future__ import annotations

import threading
import time

from app.core.engines.llamacpp.host import live_processes

#: threads of the engines and of their loads; the process's engine loop is not one (it stays and
#: serves whatever is loaded next)
ENGINE_THREADS = ("tandem-llamacpp-", "tandem-engine", "tandem-load", "tandem-pool")


def wait_for_no_llamacpp_child(timeout: float = 60) -> None:
    """Every llama.cpp child this process started has ended (assert), waiting up to ``timeout``."""
    deadline = time.monotonic() + timeout
    while live_processes() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not live_processes()


def wait_for_engine_threads(timeout: float = 60) -> None:
    """The engines' threads have ended (each waited for up to ``timeout``), and so have their
    llama.cpp children (assert)."""
    for t in threading.enumerate():
        if t.name != "tandem-engine-loop" and t.name.startswith(ENGINE_THREADS):
            t.join(timeout)
            assert not t.is_alive(), t.name
    wait_for_no_llamacpp_child(timeout)
