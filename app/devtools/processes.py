"""Helper processes of the tests and benchmarks end with the process that started them.

A test run that is killed (a CI timeout, Ctrl-C twice, a crashed interpreter) never reaches its
fixtures' teardown; without this, its loopback hub servers stayed running, orphaned, one per run.
On Linux the kernel sends the child SIGTERM when its parent goes (``PR_SET_PDEATHSIG``);
elsewhere the teardown's own stop is all there is.
"""

from __future__ import annotations

import ctypes
import signal
import sys
from collections.abc import Callable

_PR_SET_PDEATHSIG = 1


def _set_parent_death_signal() -> None:  # runs in the child, between fork and exec
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)


def ends_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` for :class:`subprocess.Popen` that ties the child's life to this process.

    The kernel counts the *thread* that started the child as its parent: start such children from
    a thread that lives as long as they should (the tests' main thread)."""
    return _set_parent_death_signal if sys.platform.startswith("linux") else None
