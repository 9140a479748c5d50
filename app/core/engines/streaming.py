"""Any engine's answer as an async stream: the one way the event loop reads an engine.

:func:`stream` gives the events of one request as an ``AsyncIterator``: an engine that streams on
the event loop itself (:class:`~app.core.engines.base.StreamingEngine`: llama.cpp reads its child
and the remote engine its server there, MLX hands its worker thread's events over) is read
directly; an engine that only has the blocking :meth:`~app.core.engines.base.Engine.generate` (a
scripted engine in a test) is iterated on a helper thread of its own while the request runs, its events
moved onto the loop. Either way a cancel of the consuming task stops the generation: the native
stream closes its connection, the bridged one sets the request's :class:`CancelToken`, which
every engine checks between tokens.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from typing import cast

from app.core.cancel import CancelToken
from app.core.engines.base import Engine, Event, GenerateRequest, StreamingEngine

_END = object()


async def stream(engine: Engine, request: GenerateRequest) -> AsyncIterator[Event]:
    """The events of ``request`` on ``engine``, read on the running event loop."""
    if isinstance(engine, StreamingEngine):
        async for event in engine.stream(request):
            yield event
        return
    async for event in _bridged(engine, request):
        yield event


async def _bridged(engine: Engine, request: GenerateRequest) -> AsyncIterator[Event]:
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[object] = asyncio.Queue()
    cancel = CancelToken()

    def put(item: object) -> None:
        try:
            loop.call_soon_threadsafe(queue.put_nowait, item)
        except RuntimeError:  # the loop is closed: nobody reads any more
            cancel.cancel()

    def run() -> None:
        try:
            events = engine.generate(
                request.messages,
                request.sampling,
                cancel,
                top_logprobs=request.top_logprobs,
                tools=request.tools,
                tool_choice=request.tool_choice,
                response_format=request.response_format,
            )
            for event in events:
                put(event)
                if cancel.cancelled:
                    break
        except BaseException as exc:  # raised on the consumer's side
            put(exc)
        finally:
            put(_END)

    thread = threading.Thread(target=run, name="tandem-stream-bridge", daemon=True)
    thread.start()
    try:
        while True:
            item = await queue.get()
            if item is _END:
                return
            if isinstance(item, BaseException):
                raise item
            yield cast(Event, item)  # the queue holds events, errors and the end marker
    finally:
        cancel.cancel()
