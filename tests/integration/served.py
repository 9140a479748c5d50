"""The local API server on loopback over a real engine, for the tests of its APIs (chat completions,
Responses, Messages, structured output, per-request speculation): the SmolLM2 engines they serve,
and a server that closes its clients and stops when the test ends, also when it fails."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import openai
import pytest

from app.core.engines.base import Engine, LoadRequest
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.serving import LocalServer, ServedModel, ServedRequest, ServerConfig
from app.core.speculative import SpeculationOptions

KEY = "test-key-123"


@pytest.fixture(scope="module")
def q4_engine(smollm2_q4: Path) -> Iterator[LlamaCppEngine]:
    """SmolLM2 Q4_1 alone on real llama.cpp."""
    eng = LlamaCppEngine.load(LoadRequest(str(smollm2_q4), n_ctx=1024))
    yield eng
    eng.close()


@pytest.fixture(scope="module")
def pair_engine(smollm2_f32: Path, smollm2_q4: Path) -> Iterator[LlamaCppEngine]:
    """SmolLM2 F32 with its Q4_1 drafter, 4 tokens a round, on real llama.cpp."""
    options = SpeculationOptions(enabled=True, draft_model_path=str(smollm2_q4), num_speculative_tokens=4)
    eng = LlamaCppEngine.load(LoadRequest(str(smollm2_f32), options, n_ctx=1024))
    yield eng
    eng.close()


def served_model(engine: Engine, style: str | None = None) -> ServedModel:
    """The engine as the server serves it (model id ``smollm2``, tool-call ``style``)."""
    return ServedModel(engine, "smollm2", style)


class Served:
    """``with Served(model) as s``: a started server, ``s.openai()`` / ``s.anthropic()`` clients
    (closed with it), ``s.log`` of the served requests."""

    def __init__(self, model: ServedModel, **config: Any) -> None:
        self.log: list[ServedRequest] = []
        self._clients: list[openai.OpenAI | anthropic.Anthropic] = []
        self.server = LocalServer(model, ServerConfig(KEY, port=0, **config), on_request=self.log.append)

    def __enter__(self) -> Served:
        self.server.start()
        return self

    def __exit__(self, *exc: object) -> None:
        for c in self._clients:
            c.close()
        self.server.stop()

    @property
    def url(self) -> str:
        """The OpenAI base URL (``.../v1``)."""
        return self.server.address

    @property
    def root(self) -> str:
        """The server's root, where Anthropic's client adds ``/v1/messages``."""
        return f"http://127.0.0.1:{self.server.port}"

    def openai(self, key: str = KEY) -> openai.OpenAI:
        client = openai.OpenAI(base_url=self.url, api_key=key, max_retries=0, timeout=120)
        self._clients.append(client)
        return client

    def anthropic(self, key: str = KEY) -> anthropic.Anthropic:
        client = anthropic.Anthropic(base_url=self.root, api_key=key, max_retries=0, timeout=120)
        self._clients.append(client)
        return client
