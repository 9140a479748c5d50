"""Cancel tokens and progress accounting shared by both hub backends.

Library hooks (huggingface_hub's ``tqdm_class``, modelscope's ``progress_callbacks``) run on the
libraries' own I/O threads; they only bump counters under a lock (and raise when cancelled). The
thread that called ``CacheManager.download`` polls those counters a few times a second and calls
the user's progress callback, so callbacks always run on the caller's worker thread and are
rate-limited no matter how small the library's chunks are.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from app.core.cancel import CancelToken


@dataclass(frozen=True)
class ProgressEvent:
    """One progress report.

    ``phase``: ``checking`` (asking the hub), ``downloading``, ``cancelling`` (waiting for the
    transfer to stop), ``verifying``, ``done``.
    ``bytes_done``/``bytes_total`` count only what this download transfers (files already in the
    hub cache are not counted), ``rate`` is bytes/s over the last seconds, ``eta`` seconds or None.
    """

    phase: str
    bytes_done: int
    bytes_total: int
    rate: float
    eta: float | None
    file: str = ""
    #: the repository named the file differently from the registry: which file is used instead
    note: str = ""


ProgressCallback = Callable[[ProgressEvent], None]


class _Cancelled(BaseException):
    """Raised inside a library hook to unwind the library's download loop.

    A BaseException so library code that catches ``Exception`` to retry cannot swallow it.
    """


class Meter:
    """Thread-safe byte counter with a smoothed rate."""

    def __init__(self, total: int, cancel: CancelToken | None) -> None:
        self.total = total
        self._cancel = cancel
        self._lock = threading.Lock()
        self._done = 0
        self._file = ""
        self._samples: list[tuple[float, int]] = [(time.monotonic(), 0)]

    def add(self, n: int, file: str = "") -> None:
        if self._cancel is not None and self._cancel.cancelled:
            raise _Cancelled()
        with self._lock:
            self._done += n
            if file:
                self._file = file

    @property
    def cancelled(self) -> bool:
        return self._cancel is not None and self._cancel.cancelled

    def check(self) -> None:
        if self._cancel is not None and self._cancel.cancelled:
            raise _Cancelled()

    def snapshot(self, phase: str = "downloading") -> ProgressEvent:
        now = time.monotonic()
        with self._lock:
            done, file = self._done, self._file
        self._samples.append((now, done))
        while len(self._samples) > 2 and now - self._samples[0][0] > 5.0:
            self._samples.pop(0)
        t0, d0 = self._samples[0]
        rate = (done - d0) / (now - t0) if now > t0 else 0.0
        rate = max(rate, 0.0)
        left = max(self.total - done, 0)
        eta = left / rate if rate > 0 else None
        return ProgressEvent(
            phase, min(done, self.total) if self.total else done, self.total, rate, eta, file
        )
