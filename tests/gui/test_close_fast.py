"""Closing the main window during a real load, a real answer and a real prompt pass ends it.

Closing must not wait for the engine: ``EngineHost.shutdown`` does not join the engine thread on
the GUI thread, and a llama.cpp load can be interrupted. xllamacpp's native load holds the GIL for
its whole length, so the Server loads in a child process: in this process the window could not even
run its close handler during a load. The engines here are the real llama.cpp engine on the
embedded models.

The load and answer tests stop the llama.cpp child (SIGSTOP) before closing the window: the load or
the answer can then never end by itself, so the engine's threads end only because the window ended
the child. How long a close takes is not asserted there (a busy machine makes any bound a guess).
The prompt-pass test still times the close: a stopped child there also stops the prompt
measurement before the pass (``count_prompt_tokens``, a request to the child with a 60 s timeout on
the engine thread), which then holds the engine thread for that minute after the close.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from dataclasses import replace
from typing import Any

import pytest

from app.core.engines.base import Engine, LoadRequest
from app.core.engines.llamacpp.host import live_processes
from app.core.launch.plan import load_engine
from app.core.speculative import SpeculationOptions
from app.gui.views.launch_dialog import LaunchChoice
from tests.engines_left import wait_for_engine_threads

pytestmark = [
    pytest.mark.usefixtures("smollm2_q4"),
    pytest.mark.skipif(sys.platform == "win32", reason="SIGSTOP is POSIX"),
]


def _freeze_the_child() -> None:
    """Stop the (one) llama.cpp child: nothing it was doing can finish now."""
    deadline = time.monotonic() + 60
    while not live_processes():
        assert time.monotonic() < deadline, "no llama.cpp child started"
        time.sleep(0.01)
    (pid,) = live_processes()
    os.kill(pid, signal.SIGSTOP)


def long_native_load(name: str, req: LoadRequest, progress: Any) -> Engine:
    """The real llama.cpp load with a context large enough for a native load of several seconds."""
    return load_engine(name, replace(req, n_ctx=65536, n_threads=2), progress)


def _choice(w: Any, quant: str, speculative: bool, n_ctx: int, max_tokens: int) -> LaunchChoice:
    family, spec, _q = w.registry.match("smollm2-135m-instruct", "gguf", None, quant)
    options = (
        SpeculationOptions.build(enabled=True, method="draft", draft_quantization="Q4_1")
        if speculative
        else SpeculationOptions()
    )
    sampling = replace(w.chat.sampling, max_tokens=max_tokens, temperature=0.0)
    return LaunchChoice(family, spec, quant, "llama.cpp", options, n_ctx, 2, sampling)


@pytest.mark.usefixtures("smollm2_f32")
def test_closing_the_window_during_a_model_load_ends_the_load(make_window: Any, qtbot: Any) -> None:
    w = make_window(loader=long_native_load)
    # A target with a drafter at a large context: a native load of seconds.
    with qtbot.waitSignal(
        w.engine.loadProgress,
        timeout=30_000,
        check_params_cb=lambda msg: msg.startswith("loading model"),
    ):
        w.start_load(_choice(w, "F32", True, 8192, 64))
    _freeze_the_child()
    w.close()
    wait_for_engine_threads()
    assert not live_processes()


def test_closing_the_window_during_an_answer_ends_the_answer(make_window: Any, qtbot: Any) -> None:
    w = make_window()
    with qtbot.waitSignal(w.modelLoaded, timeout=30_000):
        w.start_load(_choice(w, "Q4_1", False, 4096, 3000))
    with qtbot.waitSignal(w.engine.eventsReady, timeout=30_000):
        w.chat.send("Count from 1 to 3000, one number per line.")
    assert w.chat.generating
    _freeze_the_child()
    w.close()
    wait_for_engine_threads()
    assert not live_processes()


@pytest.mark.usefixtures("smollm2_f32")
def test_closing_the_window_during_a_long_prompt_pass_returns_within_a_second(
    make_window: Any, qtbot: Any
) -> None:
    """Still timed: stopping the child here would also stop the prompt measurement that precedes
    the pass, which the engine thread runs with a 60 s timeout (see the module's docstring)."""
    w = make_window()
    with qtbot.waitSignal(w.modelLoaded, timeout=30_000):
        w.start_load(_choice(w, "F32", False, 4096, 64))
    long_prompt = " ".join(f"item{i}" for i in range(300))  # a prompt pass of seconds on F32
    with qtbot.waitSignal(w.chat.generatingChanged, timeout=5_000):
        w.chat.send(long_prompt)
    t0 = time.monotonic()
    w.close()
    took = time.monotonic() - t0
    assert took < 1.0, f"closing the window took {took:.2f} s during a prompt pass"
    wait_for_engine_threads()
