"""MCP servers the tool tests run for real (stdio subprocesses, streamable HTTP on loopback), and
what those tests share: a keyring that keeps values in memory, the calc server's configuration,
and a check that no server process outlives a test."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import keyring
import psutil
from keyring.backend import KeyringBackend

from app.core.tools import vault
from app.core.tools.config import Approval, ServerConfig, make_server

CALC = Path(__file__).with_name("calc.py")


class MemoryKeyring(KeyringBackend):
    """A keyring backend that keeps its values in a dict (a real backend of the keyring API: the
    values go through ``keyring.set_password`` / ``get_password`` as on a desktop)."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.values.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.values[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        from keyring.errors import PasswordDeleteError

        if self.values.pop((service, username), None) is None:
            raise PasswordDeleteError(username)


@contextmanager
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    ring = MemoryKeyring()
    keyring.set_keyring(ring)
    vault.forget_session_values()
    try:
        yield ring
    finally:
        keyring.set_keyring(previous)
        vault.forget_session_values()


def calc_server(
    name: str = "calc",
    *args: str,
    env: dict[str, str] | None = None,
    timeout: float = 60.0,
    rules: dict[str, Approval] | None = None,
) -> ServerConfig:
    """The calc server as a configured stdio server (its values stored like an import's)."""
    server, _ = make_server(
        name, command=sys.executable, args=[str(CALC), *args], env=env or {}, timeout=timeout, rules=rules
    )
    return server


def server_children(marker: str = str(CALC)) -> list[psutil.Process]:
    """This process's running children whose command line holds ``marker`` (the calc server's
    path by default; a llama.cpp child of the same test is not one); zombies do not count."""
    out = []
    for p in psutil.Process().children(recursive=True):
        try:
            if p.status() != psutil.STATUS_ZOMBIE and any(marker in part for part in p.cmdline()):
                out.append(p)
        except psutil.Error:
            continue
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def calc_http() -> Iterator[str]:
    """The calc server on streamable HTTP on loopback, in a subprocess ended on exit; its URL."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, str(CALC), "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the calc HTTP server did not start") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
