"""A streamed request whose model is not loaded: the stream starts at once and sends keep-alives
while the model loads (a client with a read timeout does not give up), then the answer; a load
that fails ends the stream with the API's error event. In-process server over a model set of the
real embedded model, its load held back a moment so the keep-alives show."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.core.cancel import CancelToken
from app.core.engines.base import LoadRequest
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.modelset import Loaded, ModelEntry, ModelSet, SetConfig
from app.core.serving import LocalServer, ServedModel, ServerConfig

KEY = "k"


@pytest.fixture
def server(smollm2_q4: Path) -> Iterator[str]:
    def load(entry: ModelEntry, cancel: CancelToken) -> Loaded[ServedModel]:
        time.sleep(1.0)  # a load that takes a while
        if entry.id == "broken":
            raise RuntimeError("broken.gguf is not a GGUF file")
        engine = LlamaCppEngine.load(LoadRequest(entry.path, n_ctx=512))
        return Loaded(ServedModel(engine, entry.id), engine.close, lambda: 1)

    entries = [ModelEntry("small", str(smollm2_q4)), ModelEntry("broken", "broken.gguf")]
    models: ModelSet[ServedModel] = ModelSet(entries, load, lambda _e: 1, SetConfig())
    local = LocalServer(None, ServerConfig(KEY, port=0, keepalive_s=0.2), models=models)
    local.start()
    try:
        yield local.address
    finally:
        local.stop()
        models.close()


def _stream(url: str, model: str) -> list[str]:
    body = {"model": model, "stream": True, "max_tokens": 4, "messages": [{"role": "user", "content": "Hi"}]}
    headers = {"Authorization": f"Bearer {KEY}"}
    with httpx.stream("POST", f"{url}/chat/completions", json=body, headers=headers, timeout=120) as r:
        assert r.status_code == 200
        return [line for line in r.iter_lines() if line]


def test_a_stream_keeps_alive_while_its_model_loads_then_answers(server: str) -> None:
    lines = _stream(server, "small")
    first_data = next(i for i, line in enumerate(lines) if line.startswith("data: "))
    assert first_data >= 2 and all(line == ": keep-alive" for line in lines[:first_data])
    assert lines[-1] == "data: [DONE]" and '"model":"small"' in lines[first_data].replace(" ", "")


def test_a_load_that_fails_ends_the_stream_with_an_error_event(server: str) -> None:
    lines = _stream(server, "broken")
    assert lines[0] == ": keep-alive" and lines[-1].startswith("data: ")
    assert "broken.gguf is not a GGUF file" in lines[-1] and '"code": "model_unavailable"' in lines[-1]
