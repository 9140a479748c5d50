"""Ctrl-C and SIGTERM, twice in quick succession, stop every long command and leave no llama.cpp
child.

A signal handler must not set a ``threading.Event`` the main thread waits on: a second signal
landing while the event's lock is held deadlocks the process, which then only SIGKILL ends. Every
command goes through :mod:`app.cli.stopping`. These tests run the real ``tandem`` command on
the embedded SmolLM2 model, capture the process tree before signalling, and check that the
process ends within the bound and that every llama.cpp child it had is gone.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest

#: a double signal must end the process within this
EXIT_BOUND_S = 15.0
#: serve runs per signal kind (each loads the model and starts a second configuration)
RUNS = 3
#: the tree's children must be gone this soon after the process ended
CHILDREN_GONE_S = 3.0
LONG_PROMPT = "Count from 1 to 3000, one number per line."


class Tandem:
    """One ``tandem`` command in a session (process group) of its own, its stderr read on a thread.

    Leaving the ``with`` block kills whatever is left of it (its group and every child seen), so a
    failing test leaves nothing running."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app", *args],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its own group: the group signals reach it and its children only
        )
        self.err: list[str] = []
        self.out: list[str] = []
        self.seen: dict[int, psutil.Process] = {}
        self._readers = [
            threading.Thread(target=self._read, args=(self.proc.stderr, self.err), daemon=True),
            threading.Thread(target=self._read, args=(self.proc.stdout, self.out), daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _read(stream: Any, into: list[str]) -> None:
        for line in iter(stream.readline, ""):
            into.append(line)

    def __enter__(self) -> Tandem:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        for child in self.llamacpp_children():
            child.kill()
        for reader in self._readers:
            reader.join(10)
        for pipe in (self.proc.stdout, self.proc.stderr):
            if pipe is not None:
                pipe.close()

    @property
    def stderr(self) -> str:
        return "".join(self.err)

    def wait_for_line(self, pattern: str, timeout: float = 180.0) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.err):
                m = re.search(pattern, line)
                if m:
                    return m
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(f"no line matching {pattern!r}:\n{self.stderr}")

    def tree(self) -> list[psutil.Process]:
        """The process's children now (remembered: the test checks they all end)."""
        children = psutil.Process(self.proc.pid).children(recursive=True)
        for child in children:
            self.seen.setdefault(child.pid, child)
        return children

    def llamacpp_children(self) -> list[psutil.Process]:
        """The children seen so far that still run a llama.cpp host (a zombie does not)."""
        alive = []
        for child in self.seen.values():
            try:
                if child.is_running() and child.status() != psutil.STATUS_ZOMBIE:
                    alive.append(child)
            except psutil.Error:
                continue
        return alive

    def wait_for_children(self, count: int, timeout: float = 180.0) -> None:
        deadline = time.monotonic() + timeout
        while len([c for c in self.tree() if _is_llamacpp(c)]) < count:
            assert self.proc.poll() is None, self.stderr
            assert time.monotonic() < deadline, f"fewer than {count} llama.cpp children:\n{self.stderr}"
            time.sleep(0.05)

    def signal_twice(self, sig: int, group_first: bool = False) -> float:
        """Two ``sig`` back to back (the first to the process group when ``group_first``, as a
        script that signals the group and then the process); returns when they were sent."""
        sent = time.monotonic()
        if group_first:
            os.killpg(self.proc.pid, sig)
        else:
            os.kill(self.proc.pid, sig)
        os.kill(self.proc.pid, sig)
        return sent

    def ended_within(self, since: float, bound: float) -> float:
        """Seconds from ``since`` to the exit; fails (the with block then kills it) past ``bound``."""
        try:
            self.proc.wait(max(0.0, since + bound - time.monotonic()))
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running {bound:.0f} s after the signals:\n{self.stderr}") from None
        took = time.monotonic() - since
        for reader in self._readers:  # everything it printed is read
            reader.join(10)
        return took

    def assert_no_child_left(self) -> None:
        assert self.seen, "no child process was captured before the signals"
        deadline = time.monotonic() + CHILDREN_GONE_S
        while self.llamacpp_children() and time.monotonic() < deadline:
            time.sleep(0.05)
        left = self.llamacpp_children()
        assert not left, f"children left after the exit: {[c.pid for c in left]}\n{self.stderr}"


def _is_llamacpp(proc: psutil.Process) -> bool:
    try:
        return "app.core.engines.llamacpp.host" in " ".join(proc.cmdline())
    except psutil.Error:
        return False


@pytest.fixture
def env() -> dict[str, str]:
    return {**os.environ, "TANDEM_API_KEY": "k", "PYTHONUNBUFFERED": "1"}


class Streaming:
    """A long streamed answer on a thread (the server is busy when the signals come)."""

    def __init__(self, url: str, speculation: str | None) -> None:
        self.url = url
        self.speculation = speculation
        self.first_chunk = threading.Event()
        self.thread = threading.Thread(target=self._run, name="test-stream", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        body: dict[str, Any] = {
            "messages": [{"role": "user", "content": LONG_PROMPT}],
            "max_tokens": 3000,
            "stream": True,
        }
        if self.speculation:
            body["tandem"] = {"speculation": self.speculation}
        try:
            with httpx.stream(
                "POST", self.url + "/chat/completions", json=body, headers={"Authorization": "Bearer k"},
                timeout=120,
            ) as r:  # fmt: skip
                for line in r.iter_lines():
                    if line.startswith("data: {"):
                        self.first_chunk.set()
        except httpx.HTTPError:
            pass  # the server went away: expected here

    def __enter__(self) -> Streaming:
        return self

    def __exit__(self, *exc: object) -> None:
        self.thread.join(30)


def _serve(model: Path, env: dict[str, str]) -> Tandem:
    return Tandem(["serve", "--model-path", str(model), "--port", "0", "--parallel", "2"], env)


@pytest.mark.parametrize(
    ("sig", "group_first"),
    [(signal.SIGINT, False), (signal.SIGTERM, False), (signal.SIGTERM, True)],
    ids=["sigint-twice", "sigterm-twice", "sigterm-group-then-process"],
)
def test_serve_ends_on_two_signals_back_to_back_and_leaves_no_child(
    smollm2_q4: Path, env: dict[str, str], sig: int, group_first: bool
) -> None:
    """While a request streams on a second configuration the pool started (two llama.cpp children)."""
    took = []
    for _ in range(RUNS):
        with _serve(smollm2_q4, env) as serve:
            url = serve.wait_for_line(r"at (http://127\.0\.0\.1:\d+/v1)").group(1)
            serve.wait_for_line("press Ctrl-C to stop")
            with Streaming(url, "ngram-mod") as stream:
                assert stream.first_chunk.wait(120), serve.stderr
                serve.wait_for_children(2)
                sent = serve.signal_twice(sig, group_first)
                took.append(serve.ended_within(sent, EXIT_BOUND_S))
            assert serve.proc.returncode in (0, 128 + sig), serve.stderr
            assert "server stopped" in serve.stderr or "again: exiting now" in serve.stderr
            assert "Traceback" not in serve.stderr
            serve.assert_no_child_left()
    assert max(took) < EXIT_BOUND_S


def test_a_second_signal_during_a_slow_shutdown_forces_the_exit(
    smollm2_q4: Path, env: dict[str, str]
) -> None:
    """A client that sent half a request holds the server's graceful shutdown for 2 s (uvicorn's
    limit); a second Ctrl-C then exits at once, with one line, status 130, and no child left."""
    with _serve(smollm2_q4, env) as serve:
        port = int(serve.wait_for_line(r"127\.0\.0\.1:(\d+)/v1").group(1))
        serve.wait_for_line("press Ctrl-C to stop")
        serve.wait_for_children(1)
        with socket.create_connection(("127.0.0.1", port)) as slow_client:
            slow_client.sendall(
                b"POST /v1/chat/completions HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer k\r\n"
                b'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"messages":'
            )
            time.sleep(0.3)  # the server reads the headers and waits for the rest
            first = time.monotonic()
            serve.proc.send_signal(signal.SIGINT)
            time.sleep(0.5)
            assert serve.proc.poll() is None, "the shutdown was not slow: nothing to force\n" + serve.stderr
            second = time.monotonic()
            serve.proc.send_signal(signal.SIGINT)
            took = serve.ended_within(second, EXIT_BOUND_S)
        assert took < 1.0, f"the forced exit took {took:.2f} s"
        assert time.monotonic() - first < 2.0  # sooner than the graceful shutdown could have ended
        assert serve.proc.returncode == 130, serve.stderr
        forced = [line for line in serve.err if "again: exiting now" in line]
        assert len(forced) == 1 and forced[0].startswith("tandem: Ctrl-C again"), serve.stderr
        assert "server stopped" not in serve.stderr
        serve.assert_no_child_left()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
def test_generate_stops_on_one_signal_with_the_partial_answer(
    smollm2_q4: Path, env: dict[str, str], sig: int
) -> None:
    args = ["generate", "--model-path", str(smollm2_q4), "--prompt", LONG_PROMPT, "--max-tokens", "3000"]
    with Tandem(args, env) as gen:
        deadline = time.monotonic() + 180
        while not "".join(gen.out).count("\n") >= 3:  # the answer streams
            assert gen.proc.poll() is None and time.monotonic() < deadline, gen.stderr
            time.sleep(0.05)
        gen.tree()
        sent = time.monotonic()
        gen.proc.send_signal(sig)
        gen.ended_within(sent, EXIT_BOUND_S)
        assert gen.proc.returncode == 128 + sig, gen.stderr
        assert "(interrupted)" in gen.stderr and "Traceback" not in gen.stderr
        assert "".join(gen.out).count("\n") >= 3  # what was produced is kept
        gen.assert_no_child_left()


def test_generate_ends_on_two_ctrl_c_back_to_back(smollm2_q4: Path, env: dict[str, str]) -> None:
    args = ["generate", "--model-path", str(smollm2_q4), "--prompt", LONG_PROMPT, "--max-tokens", "3000"]
    for _ in range(2):
        with Tandem(args, env) as gen:
            deadline = time.monotonic() + 180
            while not "".join(gen.out).count("\n") >= 3:
                assert gen.proc.poll() is None and time.monotonic() < deadline, gen.stderr
                time.sleep(0.05)
            gen.tree()
            sent = gen.signal_twice(signal.SIGINT)
            gen.ended_within(sent, EXIT_BOUND_S)
            assert gen.proc.returncode == 130, gen.stderr
            assert "Traceback" not in gen.stderr
            gen.assert_no_child_left()


@pytest.fixture
def prompts(tmp_path: Path) -> Path:
    f = tmp_path / "prompts.txt"
    f.write_text(f"{LONG_PROMPT}\n{LONG_PROMPT}\n", "utf-8")
    return f


@pytest.mark.parametrize("command", ["bench", "calibrate"])
def test_bench_and_calibrate_end_on_two_ctrl_c_while_measuring(
    smollm2_q4: Path, env: dict[str, str], prompts: Path, command: str
) -> None:
    """Both load several llama.cpp children in turn; two Ctrl-C while they measure end them all."""
    args = [command, "--model-path", str(smollm2_q4), "--threads", "1"]
    args += (
        ["--prompts", str(prompts), "--max-tokens", "2000", "--spec-method", "ngram-mod"]
        if command == "bench"
        else []
    )
    with Tandem(args, env) as run:
        run.wait_for_children(2 if command == "bench" else 1)
        time.sleep(1.0)  # measuring now
        sent = run.signal_twice(signal.SIGINT)
        run.ended_within(sent, EXIT_BOUND_S)
        assert run.proc.returncode == 130, run.stderr
        assert "Traceback" not in run.stderr
        run.assert_no_child_left()
    if command == "calibrate":  # nothing half-measured was stored
        from app.core.launch.auto.store import store_dir

        assert not list(store_dir().glob("*.json"))
