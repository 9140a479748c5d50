"""``app.cli.stopping``: the first stop signal stops the command, a second one exits at once, and no
signal handler takes a lock. Real signals, raised in this process or sent to a child
Python process; the commands on the real model are in tests/integration/test_stop_signals.py."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from app.cli import stopping

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals")


def test_the_first_signal_outside_a_handled_block_raises_keyboard_interrupt_once() -> None:
    with stopping.installed() as signals:
        assert signals.installed and stopping.current() is signals
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
        assert signals.wait(5) and signals.stopping
        assert signals.exit_code() == 130
    assert stopping.current() is not signals


def test_inside_a_handled_block_the_first_signal_calls_the_stop_and_raises_nothing() -> None:
    stopped = threading.Event()
    with stopping.installed() as signals, signals.handled(stopped.set):
        signal.raise_signal(signal.SIGTERM)
        assert stopped.wait(5)  # called on the watcher thread, not in the handler
        assert signals.wait(5)
        assert signals.exit_code() == 128 + signal.SIGTERM


def test_a_signal_before_the_handled_block_calls_its_stop_at_once() -> None:
    calls: list[str] = []
    with stopping.installed() as signals:
        with pytest.raises(KeyboardInterrupt):  # not handled yet: Python's usual Ctrl-C
            signal.raise_signal(signal.SIGINT)
        assert signals.wait(5)
        with signals.handled(lambda: calls.append("stop")):
            pass
    assert calls == ["stop"]


def test_uninstalling_puts_back_the_handlers_and_the_wakeup_fd() -> None:
    before = {sig: signal.getsignal(sig) for sig in stopping.STOP_SIGNALS}
    with stopping.installed():
        assert signal.getsignal(signal.SIGINT) is not before[signal.SIGINT]
    assert {sig: signal.getsignal(sig) for sig in stopping.STOP_SIGNALS} == before
    assert signal.set_wakeup_fd(-1) == -1  # none was left set
    assert not [t for t in threading.enumerate() if t.name == "tandem-signals"]


def test_off_the_main_thread_it_installs_nothing() -> None:
    seen: list[bool] = []

    def run() -> None:
        with stopping.installed() as signals:
            seen.append(signals.installed)

    t = threading.Thread(target=run, name="test-off-main")
    t.start()
    t.join(5)
    assert seen == [False]


#: a command's shape: the wait, then a shutdown that takes long
_SLOW_SHUTDOWN = textwrap.dedent(
    """
    import sys, time
    from app.cli import stopping
    with stopping.installed() as signals:
        with signals.handled():
            print("waiting", flush=True)
            signals.wait()
        print("stopping", flush=True)
        time.sleep(float(sys.argv[1]))
    print("stopped", flush=True)
    """
)


def _start(shutdown_s: float) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", _SLOW_SHUTDOWN, str(shutdown_s)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stdout is not None and proc.stdout.readline() == "waiting\n"
    return proc


def _finish(proc: subprocess.Popen[str], timeout: float) -> tuple[str, str]:
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError("the process did not end") from None


def test_a_second_signal_during_a_slow_shutdown_exits_at_once_with_one_line() -> None:
    proc = _start(shutdown_s=30)
    assert proc.stdout is not None
    proc.send_signal(signal.SIGTERM)
    assert proc.stdout.readline() == "stopping\n"
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = _finish(proc, 10)
    assert time.monotonic() - sent < 2.0
    assert proc.returncode == 130 and "stopped" not in out
    assert err == "tandem: Ctrl-C again: exiting now, without waiting for the stop to finish\n"


def test_one_signal_lets_the_shutdown_finish() -> None:
    proc = _start(shutdown_s=0.2)
    proc.send_signal(signal.SIGINT)
    out, err = _finish(proc, 10)
    assert proc.returncode == 0 and out == "stopping\nstopped\n" and not err


def test_two_signals_back_to_back_never_deadlock() -> None:
    """The pattern that deadlocks a handler that takes a lock (a second signal while the first
    one's stop holds the event's lock), with the two signals 0 to 70 microseconds apart (each run starts a
    Python process: a few here; tests/integration/test_stop_signals.py runs the real server)."""
    for i in range(8):
        proc = _start(shutdown_s=0.05)
        gap_end = time.perf_counter() + i * 10e-6
        proc.send_signal(signal.SIGINT)
        while time.perf_counter() < gap_end:
            pass
        proc.send_signal(signal.SIGINT)
        _finish(proc, 10)
        assert proc.returncode in (0, 130)
