"""Resident memory of this process, for the status bar (the engine runs in-process)."""

from __future__ import annotations

import os
import sys


def rss_bytes() -> int | None:
    try:
        import psutil  # optional

        return int(psutil.Process().memory_info().rss)
    except Exception:
        pass
    if sys.platform.startswith("linux"):
        try:
            with open("/proc/self/statm") as fh:
                return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            return None
    try:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return int(peak if sys.platform == "darwin" else peak * 1024)
    except Exception:
        return None
