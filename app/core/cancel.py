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


def tokens_per_second(tokens: int, ms: float) -> float | None:
    """Decode speed, or None when there is nothing to measure.

    None when the duration is not positive or fewer than two tokens were produced: the first token
    comes out of the prompt pass (llama.cpp reports ~0.001 ms for it, which read as 1,000,000
    tok/s), so one token has no decode interval. Callers show '-' for None, never a made-up rate.
    """
    if tokens < 2 or not ms > 0:
        return None
    return tokens / (ms / 1000.0)
