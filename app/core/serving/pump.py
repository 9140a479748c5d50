"""One request's generation, moved from the engine's events onto the event loop.

A :class:`Pump` runs the engine's ``generate`` on a ``tandem-serve-gen`` thread and feeds the events
to the request's one :class:`~app.core.answer.AnswerCollector`; the handler reads the text on the
event loop (:meth:`Pump.texts`, :func:`pieces` with tool calls split out and keep-alives while
nothing comes) and builds its API's answer from :attr:`Pump.answer`.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable, Iterator

from app.core.answer import Answer, AnswerCollector
from app.core.cancel import CancelToken
from app.core.engines.base import Event
from app.core.serving.tool_stream import Piece, ToolCallStream

_DONE = object()


class Pump:
    """Runs one request's generation on a ``tandem-serve-gen`` thread: its events go into the
    request's one :class:`AnswerCollector` there, and the text they add moves onto the event loop.

    :attr:`answer` is what the engine did (complete even when the client left early); the handler
    reads it once :meth:`texts` has ended."""

    counter = 0

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        events: Callable[[], Iterator[Event]],
        on_end: Callable[[Pump], None],
    ) -> None:
        Pump.counter += 1
        self.loop = loop
        self.queue: asyncio.Queue[object] = asyncio.Queue()
        self.cancel = CancelToken()
        self._events = events
        self._on_end = on_end
        self._collector = AnswerCollector()
        #: set by the response handler: how the request ended for the client
        self.status = "cancelled"
        self.tool_calls = 0
        self.error = ""
        self._sides_left = 2  # the engine side (this thread) and the client side (the handler)
        self._sides_lock = threading.Lock()
        self.on_both_done: Callable[[], None] | None = None
        self.thread = threading.Thread(target=self._run, name=f"tandem-serve-gen-{Pump.counter}", daemon=True)

    @property
    def answer(self) -> Answer:
        return self._collector.answer

    def side_done(self) -> None:
        """Called once by each side; the request is reported when both are done."""
        with self._sides_lock:
            self._sides_left -= 1
            last = self._sides_left == 0
        if last and self.on_both_done is not None:
            self.on_both_done()

    def _put(self, item: object) -> bool:
        try:
            self.loop.call_soon_threadsafe(self.queue.put_nowait, item)
        except RuntimeError:  # the loop is gone (server stopped): stop the generation
            self.cancel.cancel()
            return False
        return True

    def _run(self) -> None:
        try:
            for ev in self._events():
                text = self._collector.feed(ev)
                if text and not self._put(text):
                    break
        except BaseException as exc:
            self._put(exc)
        finally:
            self._collector.end()
            self._put(_DONE)
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
KEEPALIVE = b": keep-alive\n\n"


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
