"""Scripted engines for tests and benchmarks: an answer written as a blocking generator.

A fake engine in a test writes its answer as a plain generator, ``script(messages, sampling,
cancel, **request fields)``, which may block between events (a test holds an answer midway with a
gate, or paces it with sleeps). :class:`ScriptedStream` gives such a fake the engine protocol's
one way to generate, :meth:`~app.core.engines.base.Engine.stream`: the script runs on a helper
thread of its own and its events are moved onto the reading loop. The script's
:class:`~app.core.cancel.CancelToken` is set when the reading task is cancelled, and reads as set
once the request's soft stop is. Only scripted engines use this: the real
engines stream on the engine loop with no thread per request.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any, cast

from app.core.cancel import CancelToken
from app.core.engines.base import ChatMessage, Event, GenerateRequest, Sampling

__all__ = ["ScriptedStream"]

_END = object()


class _Either(CancelToken):
    """Cancelled when it is, or when the request's soft stop is."""

    def __init__(self, stop: CancelToken | None) -> None:
        super().__init__()
        self._stop = stop

    @property
    def cancelled(self) -> bool:
        return self._event.is_set() or (self._stop is not None and self._stop.cancelled)


class ScriptedStream:
    """Mixin: :meth:`stream` from the blocking :meth:`script` a fake engine writes."""

    def script(
        self,
        messages: Sequence[ChatMessage],
        sampling: Sampling,
        cancel: CancelToken | None = None,
        top_logprobs: int = 0,
        tools: Sequence[Mapping[str, Any]] | None = None,
        tool_choice: Any = None,
        response_format: Mapping[str, Any] | None = None,
    ) -> Iterator[Event]:
        raise NotImplementedError

    async def stream(self, request: GenerateRequest) -> AsyncIterator[Event]:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[object] = asyncio.Queue()
        cancel = _Either(request.stop)

        def put(item: object) -> None:
            try:
                loop.call_soon_threadsafe(queue.put_nowait, item)
            except RuntimeError:  # the loop is closed: nobody reads any more
                cancel.cancel()

        def run() -> None:
            try:
                events = self.script(
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
            except BaseException as exc:  # raised on the reader's side
                put(exc)
            finally:
                put(_END)

        threading.Thread(target=run, name="tandem-scripted-answer", daemon=True).start()
        try:
            while True:
                item = await queue.get()
                if item is _END:
                    return
                if isinstance(item, BaseException):
                    raise item
                yield cast(Event, item)
        finally:
            cancel.cancel()
