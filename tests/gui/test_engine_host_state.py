"""EngineHost publishes its state only through signals.

No other thread may write ``info`` or ``_busy`` while the GUI thread reads them. Every write to
the state the GUI reads is recorded here with its thread: only the GUI thread may write (a load
runs on its own thread and publishes through a queued signal).
"""

from __future__ import annotations

import threading
from typing import Any

from app.core.engines.base import GenerateRequest, Sampling, TextDelta
from app.core.speculative.per_request import Speculation
from app.gui.engine import EngineHost, LoadJob
from app.gui.errors import ErrorBridge
from app.gui.ops import Ops, event_loop
from tests.gui.conftest import ScriptedEngine

MAIN = threading.main_thread()
WATCHED = {"info", "_jobs", "_served"}


class RecordingHost(EngineHost):
    def __init__(self, ops: Ops) -> None:
        self.writes: list[tuple[str, str]] = []
        super().__init__(ops)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in WATCHED:
            self.writes.append((name, threading.current_thread().name))
        super().__setattr__(name, value)


def test_the_engine_thread_never_writes_what_the_gui_reads(qtbot: Any) -> None:
    ops = Ops(ErrorBridge())
    host = RecordingHost(ops)
    engine = ScriptedEngine(plain=True)
    seen_on_loaded: list[tuple[bool, bool, object]] = []
    host.loaded.connect(lambda _info: seen_on_loaded.append((host.is_loaded, host.busy, host.current_engine)))
    busy: list[bool] = []
    host.busyChanged.connect(busy.append)
    try:
        with qtbot.waitSignal(host.loaded, timeout=10_000):
            host.load(LoadJob("scripted", lambda _progress: engine))
        # a subscriber sees the state that goes with the signal
        assert seen_on_loaded == [(True, False, engine)]
        assert host.info is not None and host.info.label == "scripted"
        events: list[object] = []

        async def answer() -> None:
            loop = event_loop()  # qasync's, which pytest-qt spins without "running" it
            request = GenerateRequest([], Sampling(max_tokens=8))
            label = await host.resolve(Speculation("auto"), request, loop)
            async for event in host.stream(label, request, loop):
                events.append(event)

        with qtbot.waitSignal(host.eventsReady, timeout=10_000):
            task = event_loop().create_task(answer())
        qtbot.waitUntil(task.done, timeout=10_000)
        assert task.exception() is None
        assert any(isinstance(e, TextDelta) for e in events)
        assert not host.busy  # an answer is not a load
        with qtbot.waitSignal(host.unloaded, timeout=10_000):
            host.unload()
        assert host.info is None and host.current_engine is None and engine.closed
    finally:
        host.shutdown()
        ops.shutdown()
    assert busy == [True, False, True, False]
    offenders = [(name, thread) for name, thread in host.writes if thread != MAIN.name]
    assert not offenders, offenders
