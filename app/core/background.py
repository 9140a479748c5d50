"""A blocking call its caller can stop waiting for (a hub request that cannot be interrupted).

A search or a repository listing blocks in the HTTP library for up to its timeout, and nothing
interrupts it from outside. Run on an operations worker, it kept that worker (a non-daemon pool
thread, which the interpreter joins at exit) busy after the user cancelled or closed the window:
the app's exit waited for the hub. :class:`Abandonable` runs the call on its own daemon thread;
:meth:`Abandonable.wait` returns its value or raises its error, or raises :class:`Abandoned` as
soon as ``stop()`` is true, and the call then ends in the background without holding anything.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar, cast

T = TypeVar("T")

POLL = 0.05


class Abandoned(Exception):
    """The caller stopped waiting (cancelled, or the application is closing)."""


class Abandonable(Generic[T]):
    """``fn()`` on a daemon thread named ``name``, started by :meth:`wait`."""

    def __init__(self, fn: Callable[[], T], name: str) -> None:
        self._fn = fn
        self._done = threading.Event()
        self._value: T | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def _run(self) -> None:
        try:
            self._value = self._fn()
        except BaseException as exc:  # handed to the waiter, which raises it
            self._error = exc
        finally:
            self._done.set()

    @property
    def alive(self) -> bool:
        """The call still runs (also after its waiter gave up)."""
        return self._thread.is_alive()

    def wait(self, stop: Callable[[], bool]) -> T:
        """Start the call and block until it ends or ``stop()`` turns true (checked every 50 ms)."""
        if stop():
            raise Abandoned()
        if not self._thread.is_alive() and not self._done.is_set():
            self._thread.start()
        while not self._done.wait(POLL):
            if stop():
                raise Abandoned()
        if self._error is not None:
            raise self._error
        return cast(T, self._value)  # set: the call ended without an error
