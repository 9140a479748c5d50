"""The remote engine's token counts on a vLLM endpoint (vLLM cannot run here: a loopback server
answers ``/v1/models`` and ``/tokenize`` in vLLM's documented shapes, and records what it got)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from app.core.engines.base import ChatMessage
from app.core.engines.remote.endpoints import Endpoint
from app.core.engines.remote.engine import RemoteEngine

RECEIVED: list[dict[str, Any]] = []
#: what the server says it is in ``/v1/models`` (``owned_by``)
OWNED_BY = {"kind": "vllm"}


class _VLLM(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def _json(self, status: int, body: object) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        if self.path == "/v1/models":
            self._json(200, {"object": "list", "data": [{"id": "org/model", "owned_by": OWNED_BY["kind"]}]})
        else:
            self._json(404, {"error": "not found"})

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        RECEIVED.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
        if self.path != "/tokenize":
            self._json(404, {"error": "not found"})
            return
        # one "token" per word of every message, plus 3 per message for the template
        count = sum(len(str(m["content"]).split()) + 3 for m in body["messages"])
        self._json(200, {"count": count, "max_model_len": 4096, "tokens": list(range(count))})


@pytest.fixture
def vllm_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _VLLM)
    thread = threading.Thread(target=server.serve_forever, name="test-vllm", daemon=True)
    thread.start()
    RECEIVED.clear()
    OWNED_BY["kind"] = "vllm"
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_vllm_context_length_and_counts_come_from_its_tokenize_route(vllm_url: str) -> None:
    engine = RemoteEngine.connect(Endpoint.parse(vllm_url), "", "k-123")
    try:
        assert engine.server_kind == "vllm"
        assert engine.n_ctx == 4096
        messages: list[ChatMessage] = [{"role": "user", "content": "three words here"}]
        assert engine.count_prompt_tokens(messages) == 6
    finally:
        engine.close()
    last = RECEIVED[-1]
    assert last["path"] == "/tokenize" and last["auth"] == "Bearer k-123"
    assert last["body"] == {"model": "org/model", "messages": messages, "add_generation_prompt": True}


def test_a_server_that_cannot_tell_its_context_is_not_trimmed(vllm_url: str) -> None:
    """An SGLang or unknown server: n_ctx 0, which the chat reads as "send everything"."""
    OWNED_BY["kind"] = "sglang"
    engine = RemoteEngine.connect(Endpoint.parse(vllm_url), "", None)
    try:
        assert engine.server_kind == "sglang"
        assert engine.n_ctx == 0
        assert not [r for r in RECEIVED if r["path"] == "/tokenize"]  # nothing asked of it
    finally:
        engine.close()
