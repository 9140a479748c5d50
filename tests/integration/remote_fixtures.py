"""A real llama.cpp server on loopback (xllamacpp's ``Server``) with an API key and a drafter.

Shared by the GUI's remote tests: the embedded SmolLM2 F32 target with the Q4_1 drafter, bound to
127.0.0.1, the same settings as ``tests/integration/test_remote_engine.py``.
"""

from __future__ import annotations

import gc
import socket
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
