"""Who may run now on the local server: how many requests are in flight (the rest get 429), and
the context cells of a model whose slots share one KV cache."""

from __future__ import annotations

import asyncio
import threading


class Admission:
    """At most ``limit`` server requests in flight (running or waiting their turn)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._count = 0

    def try_enter(self) -> bool:
        with self._lock:
            if self._count >= self.limit:
                return False
            self._count += 1
            return True

    def leave(self) -> None:
        with self._lock:
            self._count -= 1

    @property
    def in_flight(self) -> int:
        with self._lock:
            return self._count


class ContextBudget:
    """The context cells of a model whose slots share one KV cache (llama.cpp's unified cache):
    requests run at once only while their prompts and the answers they may grow to fit together;
    one that does not waits for running ones to end (one alone always runs)."""

    def __init__(self) -> None:
        self.in_use = 0
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []

    async def acquire(self, need: int, total: int) -> None:
        if not self._waiters and (self.in_use == 0 or self.in_use + need <= total):
            self.in_use += need
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append((need, turn))
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.release(need, total)
            raise
        finally:
            self._waiters = [(n, f) for n, f in self._waiters if f is not turn]

    def release(self, need: int, total: int) -> None:
        self.in_use -= need
        while self._waiters:
            first, turn = self._waiters[0]
            if turn.done():
                self._waiters.pop(0)
                continue
            if self.in_use and self.in_use + first > total:
                return
            self.in_use += first
            turn.set_result(None)
            self._waiters.pop(0)
