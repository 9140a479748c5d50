"""One request's generation, read from the engine's async stream on the event loop.

A :class:`Pump` reads the request's events (:meth:`app.core.engines.base.Engine.stream`) in a task
of its own and feeds them to the request's one :class:`~app.core.answer.AnswerCollector`; the
handler reads the text (:meth:`Pump.texts`, :func:`pieces` with tool calls split out and
keep-alives while nothing comes) and builds its API's answer from :attr:`Pump.answer`. No
thread is started per request: stopping the answer is cancelling that task.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

from app.core.answer import Answer, AnswerCollector
from app.core.engines.base import Event
from app.core.serving.served import Outcome
from app.core.serving.tool_stream import Piece, ToolCallStream

_DONE = object()


class Pump:
    """Reads one request's events in a task: they go into the request's one
    :class:`AnswerCollector`, and the text they add into a queue the handler reads.

    :attr:`answer` is what the engine did (complete even when the client left early); the handler
    reads it once :meth:`texts` has ended, and calls :meth:`side_done` once when it is done with
    the request (the request is reported when both the generation and the handler are done)."""

    def __init__(self, events: AsyncIterator[Event], on_end: Callable[[Pump], None]) -> None:
        self.queue: asyncio.Queue[object] = asyncio.Queue()
        self._events = events
        self._on_end = on_end
        self._collector = AnswerCollector()
        #: set by the response handler (:meth:`answered`, :meth:`failed`): how the request ended
        #: for the client; a client that left before either is a cancelled request
        self.status = Outcome.CANCELLED
        self.tool_calls = 0
        self.error = ""
        self._sides_left = 2  # the generation (its task) and the client side (the handler)
        self.on_both_done: Callable[[], None] | None = None
        self.task = asyncio.get_running_loop().create_task(self._run())

    @property
    def answer(self) -> Answer:
        return self._collector.answer

    def answered(self, tool_calls: int) -> None:
        """The client got the whole answer, with ``tool_calls`` calls."""
        self.status, self.tool_calls = Outcome.OK, tool_calls

    def failed(self, exc: BaseException) -> None:
        """The engine failed; the client was told ``exc``."""
        self.status, self.error = Outcome.ERROR, str(exc)

    def stop(self) -> None:
        """Stop the generation (on the event loop's thread)."""
        self.task.cancel()

    def side_done(self) -> None:
        """Called once by each side; the request is reported when both are done."""
        self._sides_left -= 1
        if self._sides_left == 0 and self.on_both_done is not None:
            self.on_both_done()

    async def _run(self) -> None:
        try:
            async for ev in self._events:
                text = self._collector.feed(ev)
                if text:
                    self.queue.put_nowait(text)
        except asyncio.CancelledError:
            pass  # stopped: the answer is cancelled unless its Finished had come
        except Exception as exc:
            self.queue.put_nowait(exc)
        finally:
            self._collector.end()
            self.queue.put_nowait(_DONE)
            self._on_end(self)

    async def texts(self) -> AsyncIterator[str]:
        """The answer's text as it streams; the engine's error is raised here."""
        while True:
            item = await self.queue.get()
            if item is _DONE:
                return
            if isinstance(item, BaseException):
                raise item
            if isinstance(item, str):
                yield item


#: an SSE comment: every client skips it, and it shows the connection is alive


async def pieces(pump: Pump, splitter: ToolCallStream, keepalive_s: float) -> AsyncIterator[Piece | None]:
    """The answer as it streams, split into text and whole tool calls (the family's markup, then
    the calls the engine parsed itself), with None each time ``keepalive_s`` pass with nothing
    to send; the engine's error is raised here."""
    texts = pump.texts().__aiter__()
    while True:
        step = asyncio.ensure_future(texts.__anext__())
        try:
            while True:
                done, _ = await asyncio.wait({step}, timeout=keepalive_s)
                if done:
                    break
                yield None
            text = step.result()
        except StopAsyncIteration:
            break
        finally:
            if not step.done():
                step.cancel()
        for piece in splitter.feed(text):
            if piece:
                yield piece
    for piece in splitter.finish():
        if piece:
            yield piece
    for call in pump.answer.tool_calls:
        yield call
