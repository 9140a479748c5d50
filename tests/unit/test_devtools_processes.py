"""A helper process started with ``ends_with_parent`` goes when the process that started it is
killed, before any teardown could run (so the loopback hubs of a killed test run are not left
orphaned)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

STARTER = """
import subprocess, sys
from app.devtools.processes import ends_with_parent
child = subprocess.Popen(["sleep", "120"], preexec_fn=ends_with_parent())
print(child.pid, flush=True)
sys.stdin.read()
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"  # a zombie has ended
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_the_child_ends_when_its_starter_is_killed() -> None:
    with subprocess.Popen(
        [sys.executable, "-c", STARTER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    ) as starter:
        _check(starter)


def _check(starter: subprocess.Popen[str]) -> None:
    try:
        assert starter.stdout is not None
        pid = int(starter.stdout.readline())
        assert _alive(pid)
        starter.send_signal(signal.SIGKILL)  # no teardown, no atexit
        starter.wait(10)
        deadline = time.monotonic() + 10
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(pid), "the helper process outlived the process that started it"
    finally:
        if starter.poll() is None:
            starter.kill()
            starter.wait(5)
