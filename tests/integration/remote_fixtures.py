"""A real llama.cpp server on loopback (xllamacpp's ``Server``) with an API key and a drafter.

Shared by the GUI's remote tests: the embedded SmolLM2 F32 target with the Q4_1 drafter, bound to
127.0.0.1, the same settings as ``tests/integration/test_remote_engine.py``.
"""

from __future__ import annotations

import gc
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

KEY = "test-key-3f9c"
N_MAX = 4


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def server_params(target: Path, drafter: Path | None, port: int, key: str = KEY) -> object:
    import xllamacpp

    p = xllamacpp.CommonParams()
    p.model.path = str(target)
    p.n_ctx = 1024
    p.n_parallel = 1
    p.cpuparams.n_threads = 2
    p.cpuparams_batch.n_threads = 2
    p.hostnames = ["127.0.0.1"]
    p.port = port
    p.api_keys = [key]
    p.warmup = False
    p.verbosity = -1
    p.endpoint_metrics = True
    if drafter is not None:
        p.speculative.draft.mparams.path = str(drafter)
        p.speculative.draft.n_max = N_MAX
        p.speculative.types = [xllamacpp.common_speculative_type.COMMON_SPECULATIVE_TYPE_DRAFT_SIMPLE]
    return p


_SERVER_SCRIPT = """
import sys, time, xllamacpp
sys.path.insert(0, sys.argv[5])
from tests.integration.remote_fixtures import server_params
target, drafter, port, key = sys.argv[1:5]
server = xllamacpp.Server(server_params(target, drafter, int(port), key))
server.handle_metrics()
print("ready", flush=True)
while True:
    time.sleep(60)
"""


@contextmanager
def llama_server_process(
    target: Path, drafter: Path, key: str = KEY
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """The same server in a child process, so a test can really kill it mid-answer; yields its
    URL and the process (killed and reaped afterwards)."""
    port = free_port()
    root = str(Path(__file__).resolve().parents[2])
    proc = subprocess.Popen(
        [sys.executable, "-c", _SERVER_SCRIPT, str(target), str(drafter), str(port), key, root],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        yield f"http://127.0.0.1:{port}/v1", proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)
        if proc.stdout is not None:
            proc.stdout.close()


@contextmanager
def llama_server(target: Path, drafter: Path | None, key: str = KEY) -> Iterator[str]:
    """Start a server; yields its OpenAI API root (``http://127.0.0.1:PORT/v1``); stops it after."""
    import xllamacpp

    port = free_port()
    server = xllamacpp.Server(server_params(target, drafter, port, key))
    server.handle_metrics()  # the server's loop is running (safe to destroy afterwards)
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        del server
        gc.collect()
