"""The operations API (app/gui/ops.py) and the slow calls it takes off the GUI thread.

Every check records the thread that did the work: status probes, the keyring and the MLX
availability import must not run on the GUI thread, which these tests reject.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

import pytest
from PySide6.QtWidgets import QWidget

from app.core.cache.manager import CacheManager
from app.core.registry import Registry
from app.gui.errors import ErrorBridge, UserError
from app.gui.ops import Ops

MAIN = threading.main_thread()


@pytest.fixture
def ops(qtbot: Any) -> Any:
    errors = ErrorBridge()
    runner = Ops(errors)
    yield runner
    runner.shutdown()


def test_query_runs_off_the_gui_thread_and_succeeds_on_it(ops: Ops, qtbot: Any) -> None:
    seen: dict[str, Any] = {}

    def work(a: int, b: int) -> int:
        seen["work"] = threading.current_thread()
        return a + b

    def success(value: int) -> None:
        seen["success"] = (threading.current_thread(), value)

    ops.query(work, 2, 3).success(success).run()
    qtbot.waitUntil(lambda: "success" in seen, timeout=5000)
    assert seen["work"] is not MAIN and seen["work"].name.startswith("tandem-op")
    assert seen["success"] == (MAIN, 5)


def test_a_failure_reaches_the_error_bridge_with_its_title(ops: Ops, qtbot: Any) -> None:
    def work() -> None:
        raise OSError(28, "No space left on device")

    with qtbot.waitSignal(ops.errors.raised, timeout=5000) as raised:
        ops.query(work).failure("The files could not be deleted").run()
    error: UserError = raised.args[0]
    assert error.title == "The files could not be deleted"
    assert "No space left on device" in error.message


def test_a_failure_callback_replaces_the_bridge(ops: Ops, qtbot: Any) -> None:
    got: list[BaseException] = []
    bridged: list[object] = []
    ops.errors.raised.connect(bridged.append)

    def work() -> None:
        raise ValueError("bad spec")

    ops.query(work).failure(got.append).run()
    qtbot.waitUntil(lambda: bool(got), timeout=5000)
    assert isinstance(got[0], ValueError) and str(got[0]) == "bad spec"
    assert bridged == []


def test_progress_arrives_on_the_gui_thread_in_order(ops: Ops, qtbot: Any) -> None:
    steps: list[tuple[str, threading.Thread]] = []
    done: list[int] = []

    def work(report: Any, n: int) -> int:
        for i in range(n):
            report(f"step {i}")
        return n

    ops.query(work, 3).with_progress(lambda m: steps.append((m, threading.current_thread()))).success(
        done.append
    ).run()
    qtbot.waitUntil(lambda: bool(done) and len(steps) == 3, timeout=5000)
    assert [m for m, _t in steps] == ["step 0", "step 1", "step 2"]
    assert all(t is MAIN for _m, t in steps)


def test_callbacks_are_skipped_when_the_parent_is_gone(ops: Ops, qtbot: Any) -> None:
    release = threading.Event()
    called: list[object] = []
    parent = QWidget()

    def work() -> int:
        release.wait(5)
        return 1

    task = ops.query(work, parent=parent).success(called.append).run()
    parent.deleteLater()
    qtbot.waitUntil(lambda: not _alive(parent), timeout=5000)
    release.set()
    qtbot.waitUntil(task.done, timeout=5000)
    assert called == []


def _alive(obj: Any) -> bool:
    import shiboken6

    return bool(shiboken6.isValid(obj))


def test_shutdown_cancels_what_waits_and_calls_nothing(qtbot: Any) -> None:
    errors = ErrorBridge()
    runner = Ops(errors, workers=1)
    release = threading.Event()
    called: list[object] = []
    first = runner.query(lambda: release.wait(5)).success(called.append).run()
    second = runner.query(lambda: 2).success(called.append).run()
    qtbot.waitUntil(lambda: runner.pending() == 2, timeout=5000)
    runner.shutdown()
    release.set()
    qtbot.waitUntil(lambda: first.done() and second.done(), timeout=5000)
    assert first.cancelled() and second.cancelled() and called == []


def test_start_up_probes_no_status_on_the_gui_thread(
    make_window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every status probe at start-up runs on a worker, none on the GUI thread, and the markers
    follow through the one ``changed`` event."""
    threads: list[threading.Thread] = []
    original = CacheManager.status

    def recording(self: CacheManager) -> Any:
        threads.append(threading.current_thread())
        return original(self)

    monkeypatch.setattr(CacheManager, "status", recording)
    w = make_window()
    w.nav.setCurrentRow(1)
    w.browser.select_family("smollm2-135m-instruct")
    node = w.browser.current_node()
    assert node is not None and node.quant == "Q4_1"
    # the embedded model is on disk: its marker turns "cached" once the worker answered
    qtbot.waitUntil(lambda: w.browser.current_node().status == "cached", timeout=10_000)
    assert not w.browser.download_btn.isEnabled()
    row = w.family_model.row_of("smollm2-135m-instruct")
    qtbot.waitUntil(lambda: w.family_model._downloaded.get("smollm2-135m-instruct") is True, timeout=10_000)
    assert row >= 0
    assert threads, "no status was probed"
    assert all(t is not MAIN for t in threads), [t.name for t in threads]


def test_an_operation_broadcasts_changed_and_the_markers_follow(
    make_window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a change on disk, one ``ops.changed`` makes the lists re-read their statuses; the
    window calls no model refresh by hand."""
    from app.core import assets

    w = make_window()
    w.nav.setCurrentRow(1)
    w.browser.select_family("smollm2-135m-instruct")
    qtbot.waitUntil(lambda: w.browser.current_node().status == "cached", timeout=10_000)
    family, spec, quant = w.registry.match("smollm2-135m-instruct", "gguf", None, "Q4_1")
    assert w.cache.peek(family, spec, "target", quant) == "cached"
    monkeypatch.setattr(assets, "embedded_status", lambda _p: (False, "gone for this test"))
    with qtbot.waitSignal(w.spec_model.dataChanged, timeout=10_000):
        w.ops.changed.emit()
    qtbot.waitUntil(lambda: w.browser.current_node().status == "absent", timeout=10_000)
    assert w.browser.download_btn.isEnabled()


def test_keyring_presence_is_asked_off_the_gui_thread(
    make_window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import keyring

    from app.core import secrets

    secrets.forget_presence()
    threads: list[threading.Thread] = []

    def get_password(_service: str, _key: str) -> str | None:
        threads.append(threading.current_thread())
        return None

    monkeypatch.setattr(keyring, "get_password", get_password)
    w = make_window()
    qtbot.waitUntil(lambda: len(threads) >= len(secrets.HUBS), timeout=10_000)
    qtbot.waitUntil(lambda: w.ops.pending() == 0, timeout=10_000)
    assert all(t is not MAIN for t in threads)
    before = len(threads)
    assert secrets.has_token("huggingface") is False  # the settings dialog's question: remembered
    assert len(threads) == before


def test_the_mlx_check_runs_on_a_worker_before_the_launch_dialog_opens(
    make_window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Importing mlx_vlm is slow: the first launch dialog for an MLX model finds it already checked
    on a worker, never imports it on the GUI thread."""
    from app.core.engines import capability

    first_call: dict[tuple[str, str], threading.Thread] = {}

    @functools.cache
    def package_problem(distribution: str, module: str, minimum: str) -> str:
        first_call[(distribution, module)] = threading.current_thread()
        return ""

    monkeypatch.setattr(capability, "package_problem", package_problem)
    w = make_window()
    registry: Registry = w.registry
    family = next(f for f in registry.families.values() if any(s.format == "mlx" for s in f.specs))
    spec = next(s for s in family.specs if s.format == "mlx")
    with qtbot.waitSignal(w.launchDialogOpened, timeout=10_000) as opened:
        w.open_launch_dialog(family, spec, spec.quantizations[0])
    opened.args[0].reject()
    mlx = capability.ENGINES["mlx"]
    assert (mlx.distribution, mlx.module) in first_call
    assert first_call[(mlx.distribution, mlx.module)] is not MAIN


def test_operations_run_after_asyncio_run_on_the_gui_thread(ops: Ops, qtbot: Any) -> None:
    """``asyncio.run`` (a script, the MLX suite) ends by setting the thread's loop to None; the
    window's operations must still run on the qasync loop afterwards (a random test order found a
    launch dialog that never opened after it)."""
    import asyncio

    async def elsewhere() -> int:
        return 1

    assert asyncio.run(elsewhere()) == 1
    done: list[int] = []

    async def op() -> None:
        done.append(await ops.run(lambda: 2))
        # the default executor too (``asyncio.to_thread`` of the MCP client and the tool loop)
        done.append(await ops.loop.run_in_executor(None, lambda: 3))

    ops.spawn(op())
    qtbot.waitUntil(lambda: done == [2, 3], timeout=5000)


def test_long_work_gets_a_named_thread_of_its_own_that_ends_with_it(ops: Ops, qtbot: Any) -> None:
    """A model's load and Auto's calibration run on a thread of their own from ops (never one of
    the pool's), started at once, named, and waited for at the end, also while ops shuts down."""
    release = threading.Event()
    seen: dict[str, Any] = {}

    def work(x: int) -> int:
        seen["thread"] = threading.current_thread()
        release.wait(10)
        return x * 2

    done = ops.start_own(work, 21, name="tandem-load")
    qtbot.waitUntil(lambda: "thread" in seen, timeout=5000)
    assert seen["thread"].name == "tandem-load" and seen["thread"].daemon
    assert not ops.join_own(0.05, "tandem-load")  # still working
    assert ops.join_own(0.05, "tandem-auto")  # none of that name runs
    ops.shutdown()  # the window closes: the work is not refused nor dropped
    release.set()
    assert ops.join_own(5) and done.result(timeout=5) == 42
    failed = ops.start_own(lambda: 1 / 0, name="tandem-auto")
    with pytest.raises(ZeroDivisionError):
        failed.result(timeout=5)
