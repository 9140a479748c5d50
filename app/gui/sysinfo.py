"""Resident memory of the app for the status bar: this process plus the llama.cpp engine's child
process (the model lives there; without it the figure would leave out the model)."""

from __future__ import annotations

import os
import sys

from app.core.engines.llamacpp.host import live_processes


def rss_bytes() -> int | None:
    """This process's resident memory plus that of the engine children still running."""
    own = _rss(os.getpid())
    if own is None:
        return None
    return own + sum(_rss(pid) or 0 for pid in live_processes())


def _rss(pid: int) -> int | None:
    try:
        import psutil  # optional

        return int(psutil.Process(pid).memory_info().rss)
    except Exception:
        pass
    if sys.platform.startswith("linux"):
        try:
            with open(f"/proc/{pid}/statm") as fh:
                return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            return None
    if pid != os.getpid():
        return None  # another process's size needs psutil outside Linux
    try:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return int(peak if sys.platform == "darwin" else peak * 1024)
    except Exception:
        return None
