"""An engine's answer read from a plain thread: the CLI, the calibration, ``bench``, ``parity``.

Every engine has one way to generate, :meth:`~app.core.engines.base.Engine.stream`, an async
stream read on the engines' one event loop (:mod:`app.core.engines.loop`). :func:`events` reads it
from a thread that is not that loop, as a blocking iterator, with no thread of its own: the request
runs on the engine loop and its events are handed over as they come.

A :class:`~app.core.cancel.CancelToken` stops it softly first: it is the request's
:attr:`~app.core.engines.base.GenerateRequest.stop`, so the engine ends the answer at its next step
and closes it with its own ``cancelled`` :class:`~app.core.engines.base.Finished` (its rounds and
token ids). A stream that does not end within :data:`STOP_GRACE_S` (no step comes: a long prompt
pass) is cancelled on the loop (llama.cpp's connection to its child closes, which ends the request
there), and the events end with a ``cancelled`` Finished that counts what was streamed. A reader
that stops early cancels the request at once.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from app.core.cancel import CancelToken
from app.core.engines.base import (
    ChatMessage,
    Engine,
    Event,
    Finished,
    GenerateRequest,
    Round,
    Sampling,
    TextDelta,
)
from app.core.engines.calls import FunctionTool, ToolChoice
from app.core.engines.loop import engine_loop
from app.core.speculative.per_request import Speculation

__all__ = ["STOP_GRACE_S", "events", "generate"]

#: how long a stopped request may take to end with the engine's own Finished
STOP_GRACE_S = 1.0


def events(engine: Engine, request: GenerateRequest, cancel: CancelToken | None = None) -> Iterator[Event]:
    """The events of ``request`` on ``engine``, read on this (non-loop) thread; see the module
    docstring for ``cancel``."""
    started = time.perf_counter()
    first: float | None = None  # when the first text came
    tokens = drafted = accepted = rounds = 0
    finished = False
    if cancel is not None:
        request = replace(request, stop=cancel)
    for event in engine_loop().iterate(lambda: engine.stream(request), cancel, STOP_GRACE_S):
        if isinstance(event, TextDelta):
            first = time.perf_counter() if first is None else first
            tokens += event.token_count
        elif isinstance(event, Round):
            rounds += 1
            drafted += event.drafted
            accepted += event.accepted
        finished = isinstance(event, Finished)
        yield event
    if not finished:  # stopped before the engine's own end: what was streamed, then the end
        now = time.perf_counter()
        first = now if first is None else first
        yield Finished(
            reason="cancelled",
            prompt_tokens=0,
            completion_tokens=tokens,
            prompt_ms=(first - started) * 1000.0,
            decode_ms=(now - first) * 1000.0,
            drafted_total=drafted,
            accepted_total=accepted,
            rounds=rounds,
        )


def generate(
    engine: Engine,
    messages: Sequence[ChatMessage],
    sampling: Sampling,
    cancel: CancelToken | None = None,
    top_logprobs: int = 0,
    tools: Sequence[FunctionTool] | None = None,
    tool_choice: ToolChoice | None = None,
    response_format: Mapping[str, Any] | None = None,
    speculation: Speculation | None = None,
) -> Iterator[Event]:
    """:func:`events` of one request given by its parts (``tools`` / ``tool_choice`` /
    ``response_format`` in OpenAI chat shapes; ``speculation`` for an engine that switches per
    request)."""
    request = GenerateRequest(
        list(messages),  # the caller may change its list while the request waits
        sampling,
        top_logprobs,
        tools,
        tool_choice,
        response_format,
        speculation=speculation,
    )
    return events(engine, request, cancel)
