"""``tandem: {"speculation": ...}`` on a request: what runs is honoured ("auto", the
loaded method, "off" when nothing is loaded), anything else is one 400 naming what is loaded, on
all three APIs, with the real clients against real llama.cpp (SmolLM2 alone and with a drafter)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anthropic
import openai

from app.core.engines.base import LoadRequest
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.serving import LocalServer, ServedModel, ServerConfig
from tests.integration.served import KEY, pair_engine

__all__ = ["pair_engine"]  # fixtures


HI: Any = [{"role": "user", "content": "Count from 1 to 30 separated by commas."}]


def _ask(server: LocalServer, speculation: str) -> list[object]:
    """The same request on chat completions, Responses and Messages: each answer or its error."""
    ext = {"tandem": {"speculation": speculation}}
    out: list[object] = []
    with openai.OpenAI(base_url=server.address, api_key=KEY, max_retries=0, timeout=120) as client:
        try:
            out.append(client.chat.completions.create(model="x", messages=HI, max_tokens=4, extra_body=ext))
        except openai.BadRequestError as exc:
            out.append(exc)
        try:
            out.append(client.responses.create(model="x", input=HI, max_output_tokens=4, extra_body=ext))
        except openai.BadRequestError as exc:
            out.append(exc)
    root = f"http://127.0.0.1:{server.port}"
    with anthropic.Anthropic(base_url=root, api_key=KEY, max_retries=0, timeout=120) as claude:
        try:
            out.append(claude.messages.create(model="x", max_tokens=4, messages=HI, extra_body=ext))
        except anthropic.BadRequestError as exc:
            out.append(exc)
    return out


def _served(engine: LlamaCppEngine) -> LocalServer:
    server = LocalServer(ServedModel(engine, "smollm2", None), ServerConfig(KEY, port=0))
    server.start()
    return server


def _message(exc: object) -> str:
    assert isinstance(exc, openai.BadRequestError | anthropic.BadRequestError), exc
    body: Any = exc.body
    return str(body["error"]["message"] if "error" in body else body["message"])


def test_a_model_without_speculation_honours_off_and_auto(smollm2_q4: Path) -> None:
    engine = LlamaCppEngine.load(LoadRequest(str(smollm2_q4), n_ctx=1024))
    server = _served(engine)
    try:
        answered = _ask(server, "off") + _ask(server, "auto")
        refused = _ask(server, "draft")
    finally:
        server.stop()
        engine.close()
    assert not any(isinstance(a, Exception) for a in answered)
    for exc in refused:
        message = _message(exc)
        assert "'draft' cannot be honoured" in message and "runs no speculation" in message
    assert (
        isinstance(refused[0], openai.BadRequestError)
        and refused[0].body["code"] == "speculation_unavailable"
    )  # type: ignore[index]


def test_a_drafting_model_honours_its_method_and_refuses_off(pair_engine: LlamaCppEngine) -> None:
    server = _served(pair_engine)
    try:
        answered = _ask(server, "draft") + _ask(server, "AUTO")
        off = _ask(server, "off")
        other = _ask(server, "ngram-mod")
    finally:
        server.stop()
    assert not any(isinstance(a, Exception) for a in answered)
    chat = answered[0]
    assert isinstance(chat, openai.types.chat.ChatCompletion)
    assert (chat.model_extra or {})["tandem"]["speculative_decoding"]["method"] == "draft"
    for exc in off + other:
        assert "this server runs 'draft'" in _message(exc) and "needs a reload" in _message(exc)
    assert "'off' cannot be honoured" in _message(off[2])  # the Messages API says it too
