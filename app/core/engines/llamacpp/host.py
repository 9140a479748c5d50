"""The llama.cpp ``Server`` in a child process of its own.

xllamacpp's ``Server(...)`` holds the GIL for the whole native load (measured: a 0.86 s load of
the 135M F32 model is a 0.86 s stall of every Python thread, the GUI's included; a model of a few
GB stalls for seconds), so a window could neither repaint nor close while a model loaded. The
Server therefore lives in a spawned child process, and the app talks to the loopback HTTP
listener the Server opens anyway (llama-server's OpenAI-compatible API, protected by a random
per-session key): the streamed chunks are the same dicts the in-process callback received.

What this buys besides a fluid window:

* a load or an answer is stopped at once by ending the process (closing the window, Cancel);
* a native abort (``GGML_ASSERT``) ends the child, not the app: the user gets an error line.

The child lives exactly as long as its parent wants it: it waits on its stdin and exits when the
parent closes it or goes away (the pipe closes when the parent dies, however it dies). It is a
plain ``python -m`` process, not a ``multiprocessing`` one, so it never re-imports the caller's
``__main__``; the frozen executables run it on :data:`FROZEN_FLAG`.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import IO, Any

from app.core.engines.llamacpp.translate import LlamaCppPlan, apply
from app.core.engines.worker import also_close_at_exit

#: The argument the frozen executables recognise (packaging/tandem_entry.py) to run :func:`main`.
FROZEN_FLAG = "--tandem-llamacpp-host"
#: How often a waiting load checks whether it was cancelled.
_POLL = 0.05
#: How long :meth:`ServerProcess.stop` waits for the killed child to be reaped.
_REAP_WAIT = 2.0


@dataclass(frozen=True)
class HostConfig:
    """Everything the child needs to build the Server (plain data: it crosses the process line)."""

    model_path: str
    n_ctx: int
    n_threads: int
    api_key: str
    chat_template: str
    plan: LlamaCppPlan
    #: the target's vision projector (``mmproj`` GGUF), "" for a text-only load
    mmproj_path: str = ""
    #: requests the Server answers at once (slots); each one may use the whole context
    n_parallel: int = 1


class HostError(Exception):
    """The child could not build the Server, or ended before it was ready."""


def build_params(cfg: HostConfig) -> Any:
    """The ``xllamacpp.CommonParams`` for ``cfg`` (the parent builds it too, to refuse bad settings
    before a process is started)."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = cfg.model_path
    params.n_ctx = cfg.n_ctx
    params.n_parallel = max(1, cfg.n_parallel)
    # every slot may grow to the whole context; the cells are shared, not split per slot
    params.kv_unified = True
    params.cpuparams.n_threads = cfg.n_threads
    params.cpuparams_batch.n_threads = cfg.n_threads
    params.api_keys = [cfg.api_key]
    params.verbosity = -1
    params.warmup = False
    params.endpoint_metrics = True  # used as a readiness barrier; the listener needs the key
    if cfg.chat_template:
        params.chat_template = cfg.chat_template
    if cfg.mmproj_path:
        params.mmproj.path = cfg.mmproj_path
    apply(params, cfg.plan)
    return params


def _config_json(cfg: HostConfig) -> str:
    return json.dumps(asdict(cfg))


def _config_from_json(text: str) -> HostConfig:
    data = json.loads(text)
    return HostConfig(**{**data, "plan": LlamaCppPlan(**data["plan"])})


def main() -> int:
    """The child: read the config, build the Server, say where it listens, wait for the parent.

    The protocol runs on the child's stdin/stdout (one JSON line each way); llama.cpp's own output
    is sent to stderr so nothing it prints can garble it. The child ends when its stdin closes:
    the parent closed it, or the parent is gone, however it went.
    """
    if hasattr(signal, "SIGINT"):  # Ctrl-C in the terminal is the parent's to handle
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    answer = os.fdopen(os.dup(1), "w", encoding="utf-8")
    try:
        os.dup2(2, 1)  # what llama.cpp prints goes where the app's own errors go
    except OSError:  # a windowed executable may have no stderr at all
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    try:
        import xllamacpp

        cfg = _config_from_json(sys.stdin.readline())
        server = xllamacpp.Server(build_params(cfg))
        server.handle_metrics()  # readiness barrier: answered by the server's main loop
        reply = {"ready": str(server.listening_address)}
    except BaseException as exc:  # everything is reported; the child has no one else to tell
        reply = {"error": f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__}
    answer.write(json.dumps(reply) + "\n")
    answer.flush()
    if "ready" in reply:
        with contextlib.suppress(OSError):
            sys.stdin.read()  # returns at EOF: the parent let go
    # The OS frees the model at once; ~Server can hang on a loop that is still busy.
    os._exit(0 if "ready" in reply else 1)


def _command() -> list[str]:
    if getattr(sys, "frozen", False):  # the bundle's executable runs this module on a flag
        return [sys.executable, FROZEN_FLAG]
    return [sys.executable, "-m", "app.core.engines.llamacpp.host"]


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "it did not answer"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"it ended with {name}" + (" (a native abort)" if name == "SIGABRT" else "")
    return f"it exited with code {code}"


class ServerProcess:
    """One child process running one ``xllamacpp.Server``; safe to :meth:`stop` from any thread."""

    def __init__(self, cfg: HostConfig) -> None:
        self.cfg = cfg
        self.address = ""
        self._lock = threading.Lock()
        self._stopped = False
        self._proc: subprocess.Popen[str] | None = None

    def start(self, stop_requested: Callable[[], bool]) -> str:
        """Start the child and wait until its Server listens; returns the listener's address.

        The wait checks ``stop_requested`` every few milliseconds (a cancelled load returns at once
        and leaves nothing running). Raises :class:`HostError` when the child fails or ends.
        """
        flags = getattr(subprocess, "CREATE_NO_WINDOW", 0)  # no console window pops up on Windows
        with self._lock:
            if self._stopped:
                raise HostError("stopped before it started")
            proc = subprocess.Popen(
                _command(),
                # a native abort ends the child at once instead of attaching gdb for a backtrace
                env={**os.environ, "GGML_NO_BACKTRACE": "1"},
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                creationflags=flags,
            )
            self._proc = proc
        with _live_lock:
            _live.add(self)
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(_config_json(self.cfg) + "\n")
            proc.stdin.flush()
        except OSError:
            pass  # the child is gone already: its exit is reported below
        replies: list[str] = []
        reader = threading.Thread(
            target=_read_line, args=(proc.stdout, replies), name="tandem-llamacpp-start", daemon=True
        )
        reader.start()
        while reader.is_alive():
            if stop_requested() or self._stopped:
                self.stop()
                reader.join(_REAP_WAIT)
                raise HostError("stopped while loading")
            reader.join(_POLL)
        if self._stopped:
            raise HostError("stopped while loading")
        try:
            reply = json.loads(replies[0]) if replies and replies[0].strip() else {}
        except ValueError:
            reply = {}
        if "ready" in reply:
            self.address = str(reply["ready"])
            return self.address
        self.stop()
        if "error" in reply:
            raise HostError(str(reply["error"]))
        raise HostError(f"the llama.cpp process ended while loading: {self.exit_description()}")

    @property
    def pid(self) -> int:
        """The child's process id (0 before it starts)."""
        proc = self._proc
        return proc.pid if proc is not None else 0

    @property
    def alive(self) -> bool:
        proc = self._proc
        return proc is not None and proc.poll() is None

    def wait_ended(self, timeout: float) -> bool:
        """True once the child has ended (waits up to ``timeout`` seconds for it)."""
        proc = self._proc
        if proc is None:
            return self._stopped
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        return True

    def exit_description(self) -> str:
        proc = self._proc
        return _describe_exit(proc.poll() if proc is not None else None)

    def stop(self) -> None:
        """End the child now (the model goes with it). Idempotent; returns in milliseconds."""
        with self._lock:
            self._stopped = True
            proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(_REAP_WAIT)
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        if proc.poll() is not None:
            with _live_lock:
                _live.discard(self)


_live: set[ServerProcess] = set()
_live_lock = threading.Lock()


def live_processes() -> list[int]:
    """Pids of child processes started here that have not been reaped yet (tests check none is left)."""
    with _live_lock:
        hosts = list(_live)
    return [h._proc.pid for h in hosts if h._proc is not None and h._proc.poll() is None]


def stop_all() -> None:
    """End every child started here (a load under way ends with :class:`HostError`)."""
    with _live_lock:
        hosts = list(_live)
    for host in hosts:
        host.stop()


also_close_at_exit(stop_all)


def kill_live() -> list[int]:
    """Kill every child started here that still runs, without waiting for any; their pids.

    For a forced exit (a second Ctrl-C, :mod:`app.cli.stopping`): the process ends right after, so
    nothing is reaped and no other lock is taken; a child still loading a model would otherwise
    live until its load is done (it reads its closed stdin only then). Safe from any thread."""
    if not _live_lock.acquire(timeout=1.0):  # held only for a set update: never this long
        return []
    try:
        hosts = list(_live)
    finally:
        _live_lock.release()
    killed = []
    for h in hosts:
        proc = h._proc
        if proc is not None and proc.returncode is None:
            with contextlib.suppress(OSError):
                proc.kill()  # poll()s without waiting for a lock, then sends SIGKILL
                killed.append(proc.pid)
    return killed


def _read_line(stream: IO[str], out: list[str]) -> None:
    with contextlib.suppress(OSError, ValueError):
        out.append(stream.readline())


if __name__ == "__main__":
    sys.exit(main())
