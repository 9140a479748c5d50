"""A request's prompt as the served model builds it: fitted to its chat template, counted, and
checked against the context before any answer starts."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, cast

from app.core import images
from app.core.documents.extract import DocumentError
from app.core.documents.grounding import ground_to_fit
from app.core.engines.base import (
    ChatMessage,
    Engine,
    EngineError,
    PromptMeasure,
    TemplateCaps,
    TemplateInspector,
    TokenCounter,
)
from app.core.requests.request import ChatRequest, RequestError
from app.core.requests.shaping import shape
from app.core.serving import protocol as P
from app.core.serving.served import ContextOverflow, ServedModel
from app.core.serving.streams import engine_error

log = logging.getLogger(__name__)

#: runs a blocking step off the event loop (the server's preparation thread)
Blocking = Callable[..., Awaitable[Any]]


async def fit(model: ServedModel, req: ChatRequest) -> ChatRequest:
    """Fit ``req`` to the served model's chat template (the engine may be asked once what its
    template renders); every route that builds a prompt goes through it. A request that cannot be
    fitted is a 400 in the API's error shape."""
    engine = model.engine
    caps = await template_caps(engine)
    try:
        return shape(req, caps, model.tool_style, engine.supports_structured_output)
    except RequestError as exc:
        raise P.ApiError(400, exc.message, param=exc.param, code=exc.code) from None


async def template_caps(engine: Engine) -> TemplateCaps:
    """What the engine's chat template renders; an engine that cannot say renders the tools it
    takes and keeps system messages where every template takes them (merged at the start)."""
    if isinstance(engine, TemplateInspector):
        try:
            return await engine.template_caps()
        except EngineError as exc:
            log.info("the chat template's abilities are unknown: %s", exc)
    return TemplateCaps(renders_tools=engine.supports_tools)


async def count_prompt(model: ServedModel, req: ChatRequest, blocking: Blocking) -> int:
    """The prompt's tokens as ``model`` would build it (images reckoned)."""
    engine = model.engine
    if not isinstance(engine, TokenCounter):
        raise P.ApiError(400, f"the {engine.name} engine cannot count tokens")
    req = await fit(model, await ground_request(engine, req, blocking))
    extra = images.estimated_tokens(req.messages)  # images are reckoned, the text counted
    messages = [cast(ChatMessage, images.text_only(m)) for m in req.messages]
    try:
        if isinstance(engine, PromptMeasure):
            count = await engine.measure_prompt(messages, req.tools) + extra
        else:
            count = await blocking(engine.count_prompt_tokens, messages, req.tools) + extra
    except EngineError as exc:
        raise engine_error(exc) from exc
    return count


async def check_context(engine: Engine, req: ChatRequest, blocking: Blocking) -> ChatRequest:
    """Measure the prompt as the engine will build it and refuse, before any answer starts, a
    prompt that leaves no room in the context (an engine that cannot count is not checked);
    the request with its measure."""
    if not isinstance(engine, TokenCounter):
        return req

    def measure() -> tuple[int, int]:
        return engine.count_prompt_tokens(req.messages, req.tools), engine.n_ctx

    try:
        if isinstance(engine, PromptMeasure):  # asked on this loop: no thread
            count, n_ctx = await engine.measure_prompt(req.messages, req.tools), engine.n_ctx
        else:
            count, n_ctx = await blocking(measure)
    except EngineError as exc:
        log.info("the prompt could not be measured before answering: %s", exc)
        return req
    if n_ctx > 0 and count >= n_ctx:
        raise ContextOverflow(count, n_ctx, req.stream)
    return replace(req, prompt_tokens=count, context_tokens=n_ctx)


async def ground_request(engine: Engine, req: ChatRequest, blocking: Blocking) -> ChatRequest:
    """Put the request's documents into its messages (whole, or the passages that answer its
    question: :func:`~app.core.documents.grounding.ground_to_fit`), measured by the engine where it
    counts tokens; the request with its messages grounded and its sources. Documents that leave no
    room are a 400."""
    if not req.documents:
        return req
    counter = engine if isinstance(engine, TokenCounter) else None

    def measure(messages: list[ChatMessage]) -> int:
        assert counter is not None
        text = [cast(ChatMessage, images.text_only(m)) for m in messages]
        return counter.count_prompt_tokens(text, req.tools) + images.estimated_tokens(messages)

    n_ctx = counter.n_ctx if counter is not None else 0
    try:
        grounded = await blocking(
            ground_to_fit,
            req.messages,
            req.documents,
            n_ctx,
            req.sampling.max_tokens,
            measure if counter is not None else None,
        )
    except DocumentError as exc:
        code = "context_length_exceeded" if exc.code == "no_room" else "invalid_document"
        raise P.ApiError(400, str(exc), code=code) from None
    except EngineError as exc:
        raise engine_error(exc) from exc
    return replace(req, messages=grounded.messages, sources=grounded.sources)
