"""One cancel token for every long operation (generation, downloads)."""

from __future__ import annotations

import threading


class CancelToken:
    """Set from any thread; workers check it between steps (tokens, chunks)."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def wait(self, timeout: float) -> bool:
        """Block up to ``timeout`` seconds; True once cancelled."""
        return self._event.wait(timeout)


def tokens_per_second(tokens: int, ms: float) -> float:
    return tokens / (ms / 1000.0) if ms > 0 else 0.0
