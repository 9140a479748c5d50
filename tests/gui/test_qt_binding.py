"""The Qt binding itself: a defect here crashes the app however correct Tandem's code is.

PySide6 6.12.0 drops one reference to ``True`` on every emission of a Python-declared signal to a
Python slot: a running app reaches ``True``'s refcount of zero after some thousands of emissions
and aborts with ``Fatal Python error: bool_dealloc`` (at the GUI tests' exit, or in the middle of a
UI benchmark). pyproject excludes that release.
"""

from __future__ import annotations

import sys
import threading

from PySide6.QtCore import QObject, Signal


class _Relay(QObject):
    fired = Signal(object)


def test_signal_emission_keeps_the_reference_counts_of_true_false_none(qtbot: object) -> None:
    relay = _Relay()
    got: list[object] = []
    relay.fired.connect(got.append)
    before = (sys.getrefcount(True), sys.getrefcount(False), sys.getrefcount(None))
    for i in range(200):
        relay.fired.emit(i)
    after = (sys.getrefcount(True), sys.getrefcount(False), sys.getrefcount(None))
    assert len(got) == 200
    # a few references may come and go elsewhere; 200 emissions must not cost 200 of them
    assert all(abs(a - b) < 50 for a, b in zip(after, before, strict=True)), (before, after)


def test_cross_thread_emission_keeps_the_reference_count_of_true(qtbot: object) -> None:
    relay = _Relay()
    got: list[object] = []
    relay.fired.connect(got.append)
    before = sys.getrefcount(True)
    worker = threading.Thread(
        target=lambda: [relay.fired.emit(i) for i in range(200)], name="tandem-test-emit"
    )
    worker.start()
    worker.join()
    qtbot.waitUntil(lambda: len(got) == 200, timeout=5000)  # type: ignore[attr-defined]
    assert abs(sys.getrefcount(True) - before) < 50
