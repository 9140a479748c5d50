"""Ctrl-C and SIGTERM for every command: the first stops it, a second leaves at once.

A Python signal handler runs on the main thread between two bytecodes, wherever that thread is,
also inside a lock it holds. ``tandem serve``'s handler used to set the ``threading.Event`` the
main thread waited on: a second signal that landed while the event's lock was held (by the wait,
or by the first handler's own ``set()``) waited for that lock forever, and the server could only
be killed with SIGKILL. Here no signal handler takes a lock. The C-level handler writes the
signal's number to a socket (:func:`signal.set_wakeup_fd`), whatever the main thread is doing,
and a watcher thread reads it:

* the **first** signal stops the command. Inside :meth:`StopSignals.handled` the command's stop
  function is called on the watcher thread (it sets an event, or cancels a task through its loop's
  ``call_soon_threadsafe``); elsewhere the Python handler raises ``KeyboardInterrupt`` once on the
  main thread, as Python's own Ctrl-C does, and the command unwinds (closing its engines).
* a **second** signal, while that stop is still under way, forces the exit: one line on stderr,
  every llama.cpp child of this process killed, exit status 128 + the signal's number. (A child
  also ends when its stdin closes, which the exit does; a child still loading a model cannot
  notice that until the load is done, so it is killed.)

:func:`main <app.cli.commands.main>` installs one :class:`StopSignals` around every command
(:func:`installed`); a command finds it with :func:`current`. SIGINT and SIGTERM are handled
whatever disposition the process inherited (a shell starts background jobs with SIGINT ignored).
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

from app.core.engines.llamacpp import host as llamacpp_host

log = logging.getLogger(__name__)

#: the signals that stop a command (Ctrl-Break too on Windows)
STOP_SIGNALS: tuple[int, ...] = (signal.SIGINT, signal.SIGTERM) + (
    (signal.SIGBREAK,) if hasattr(signal, "SIGBREAK") else ()
)
#: how long a forced exit waits for its line to reach stderr (a full pipe must not hold it)
_LINE_WAIT = 0.5


def describe(signum: int) -> str:
    """``Ctrl-C`` for SIGINT, else the signal's name."""
    if signum == signal.SIGINT:
        return "Ctrl-C"
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


class StopSignals:
    """The stop signals of one command (see the module docstring); a context manager.

    Installed only on the main thread (the only one Python lets handle signals); elsewhere it is
    inert: :attr:`installed` is False and nothing stops the command.
    """

    def __init__(self, signals: tuple[int, ...] = STOP_SIGNALS) -> None:
        self.signals = signals
        #: the first stop signal, once one came
        self.signum: int | None = None
        self.installed = False
        self._first = threading.Event()  # set by the watcher thread only
        self._count = 0  # read and written by the watcher thread only
        #: what the first signal calls (inside :meth:`handled`), on the watcher thread
        self._on_stop: Callable[[], object] | None = None
        #: the first signal's Python handler has run, or its stop was handed to ``_on_stop``
        self._decided = False
        #: the handlers the signals had (``signal.getsignal`` values)
        self._previous: dict[int, Any] = {}
        self._previous_fd = -1
        self._reader: socket.socket | None = None
        self._writer: socket.socket | None = None
        self._watcher: threading.Thread | None = None

    # --- what a command asks ------------------------------------------------------------------------
    @property
    def stopping(self) -> bool:
        """True once a stop signal came."""
        return self._first.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the first stop signal (True once it came). Safe on the main thread: the
        event is set by the watcher thread, never by a signal handler."""
        return self._first.wait(timeout)

    def exit_code(self, default: int = signal.SIGINT) -> int:
        """128 + the first signal's number (130 for Ctrl-C): the status of a command it stopped."""
        return 128 + int(self.signum if self.signum is not None else default)

    @contextlib.contextmanager
    def handled(self, stop: Callable[[], object] | None = None) -> Iterator[None]:
        """Inside the block the first signal calls ``stop`` (once, on the watcher thread; it must
        not block: set an event, schedule a call on a loop) instead of raising KeyboardInterrupt.
        A signal that came before the block calls it at once."""
        once = _Once(stop or (lambda: None))
        self._on_stop = once
        try:
            if self._first.is_set():  # came before the block (its KeyboardInterrupt did not fire)
                self._decided = True
                once()
            yield
        finally:
            self._on_stop = None
            if self._first.is_set():  # handled here: its Python handler must not raise later
                self._decided = True

    # --- install / uninstall -------------------------------------------------------------------------
    def __enter__(self) -> StopSignals:
        if threading.current_thread() is not threading.main_thread():
            return self
        reader, writer = socket.socketpair()
        writer.setblocking(False)
        self._reader, self._writer = reader, writer
        self._previous_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
        for sig in self.signals:
            self._previous[sig] = signal.signal(sig, self._handler)
        self._watcher = threading.Thread(target=self._watch, name="tandem-signals", daemon=True)
        self._watcher.start()
        self.installed = True
        return self

    def __exit__(self, *exc: object) -> None:
        if not self.installed:
            return
        self.installed = False
        signal.set_wakeup_fd(self._previous_fd)
        for sig, handler in self._previous.items():
            # None: a handler not set from Python, which cannot be put back; the default then
            signal.signal(sig, signal.SIG_DFL if handler is None else handler)
        assert self._reader is not None and self._writer is not None and self._watcher is not None
        with contextlib.suppress(OSError):
            self._writer.shutdown(socket.SHUT_RDWR)  # the watcher reads the end
        self._writer.close()
        self._watcher.join(5)
        self._reader.close()

    # --- the two sides of a signal ------------------------------------------------------------------
    def _handler(self, signum: int, frame: FrameType | None) -> None:
        """The Python-level handler (main thread): raises KeyboardInterrupt for the first signal
        unless a stop function takes it; takes no lock, ever."""
        if self.signum is None:
            self.signum = signum
        if self._decided:
            return
        self._decided = True
        if self._on_stop is None:
            raise KeyboardInterrupt

    def _watch(self) -> None:
        reader = self._reader
        assert reader is not None
        while True:
            try:
                data = reader.recv(64)
            except OSError:
                return
            if not data:  # uninstalled
                return
            for signum in data:
                if signum in self.signals:
                    self._arrived(signum)

    def _arrived(self, signum: int) -> None:
        self._count += 1
        if self._count > 1:
            force_exit(signum)
        if self.signum is None:
            self.signum = signum
        self._first.set()
        stop = self._on_stop
        if stop is not None:
            try:
                stop()
            except Exception:  # a stop that failed: the second signal still forces the exit
                log.exception("stopping on %s failed", describe(signum))


class _Once:
    """``fn`` called at most once, from whichever thread asks first (never from a signal handler)."""

    def __init__(self, fn: Callable[[], object]) -> None:
        self._fn = fn
        self._lock = threading.Lock()
        self._done = False

    def __call__(self) -> None:
        with self._lock:
            if self._done:
                return
            self._done = True
        self._fn()


def force_exit(signum: int) -> None:
    """A second stop signal: end every llama.cpp child, say so in one line, exit now.

    Called on the watcher thread; nothing here waits for the main thread or for a lock it may hold
    (no import either: the main thread may hold the import lock)."""
    killed = llamacpp_host.kill_live()
    also = f" (ended {len(killed)} llama.cpp process{'es' if len(killed) != 1 else ''})" if killed else ""
    line = f"tandem: {describe(signum)} again: exiting now, without waiting for the stop to finish{also}\n"
    writer = threading.Thread(target=_write_stderr, args=(line,), name="tandem-signals-exit", daemon=True)
    writer.start()
    writer.join(_LINE_WAIT)
    os._exit(128 + signum)


def _write_stderr(line: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        fd = sys.stderr.fileno() if sys.stderr is not None else 2
        os.write(fd, line.encode("utf-8", "replace"))


_current: StopSignals | None = None


def current() -> StopSignals:
    """The stop signals of the running command (an inert one when none is installed)."""
    return _current if _current is not None else StopSignals()


@contextlib.contextmanager
def installed() -> Iterator[StopSignals]:
    """Install the stop signals for one command (on the main thread; inert elsewhere)."""
    global _current
    previous = _current
    with StopSignals() as signals:
        _current = signals if signals.installed else previous
        try:
            yield signals
        finally:
            _current = previous
