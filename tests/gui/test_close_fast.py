"""Closing the main window returns within a second during a real load and a real answer (issue 9).

Before, ``EngineHost.shutdown`` joined the engine thread for up to 30 s on the GUI thread and the
llama.cpp load could not be interrupted, so closing the window during a load froze it until the
model was in memory; then xllamacpp's native load held the GIL for its whole length, so the window
could not even run its close handler (the Server now loads in a child process). The engines
here are the real llama.cpp engine on the embedded models.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import Any

import pytest

from app.core.engines.base import Engine, LoadRequest
from app.core.launch.plan import load_engine
from app.core.speculative import SpeculationOptions
from app.gui.views.launch_dialog import LaunchChoice

pytestmark = pytest.mark.usefixtures("smollm2_q4")


def _wait_for_engine_threads() -> None:
    """The engine frees in the background after a fast close; the test waits for it to end."""
    for t in threading.enumerate():
        if t.name.startswith(("tandem-llamacpp-", "tandem-engine")):
            t.join(60)
            assert not t.is_alive(), t.name


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
def test_closing_the_window_during_a_model_load_returns_within_a_second(make_window: Any, qtbot: Any) -> None:
    w = make_window(loader=long_native_load)
    # A target with a drafter at a large context: seconds of native load on this machine.
    with qtbot.waitSignal(
        w.engine.loadProgress,
        timeout=30_000,
        check_params_cb=lambda msg: msg.startswith("loading model"),
    ):
        w.start_load(_choice(w, "F32", True, 8192, 64))
    t0 = time.monotonic()
    w.close()
    took = time.monotonic() - t0
    assert took < 1.0, f"closing the window took {took:.2f} s during a load"
    _wait_for_engine_threads()


def test_closing_the_window_during_an_answer_returns_within_a_second(make_window: Any, qtbot: Any) -> None:
    w = make_window()
    with qtbot.waitSignal(w.modelLoaded, timeout=30_000):
        w.start_load(_choice(w, "Q4_1", False, 4096, 3000))
    with qtbot.waitSignal(w.engine.eventsReady, timeout=30_000):
        w.chat.send("Count from 1 to 3000, one number per line.")
    assert w.chat.generating
    t0 = time.monotonic()
    w.close()
    took = time.monotonic() - t0
    assert took < 1.0, f"closing the window took {took:.2f} s during an answer"
    _wait_for_engine_threads()


@pytest.mark.usefixtures("smollm2_f32")
def test_closing_the_window_during_a_long_prompt_pass_returns_within_a_second(
    make_window: Any, qtbot: Any
) -> None:
    w = make_window()
    with qtbot.waitSignal(w.modelLoaded, timeout=30_000):
        w.start_load(_choice(w, "F32", False, 4096, 64))
    long_prompt = " ".join(f"item{i}" for i in range(300))  # a prompt pass of seconds on F32
    with qtbot.waitSignal(w.engine.busyChanged, timeout=5_000):
        w.chat.send(long_prompt)
    t0 = time.monotonic()
    w.close()
    took = time.monotonic() - t0
    assert took < 1.0, f"closing the window took {took:.2f} s during a prompt pass"
    _wait_for_engine_threads()
