"""An answer's event stream in any API, read from its :class:`~app.core.serving.pump.Pump` and
written by the API's encoder (:class:`~app.core.serving.encoding.StreamEvents`).

Each stream sends its API's opening events at once (a queued request gets its headers and first
event before its turn), a keep-alive whenever nothing else came for ``keepalive_s``, the answer's
text and tool calls as they come, then its closing events with usage and Tandem's figures; an
engine error ends the stream in the API's error shape. A client that leaves cancels the answer.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from app.core.engines.base import ContextLengthError, EngineError, InvalidRequestError
from app.core.serving import protocol as P
from app.core.serving.encoding import StreamEvents
from app.core.serving.pump import Pump, pieces
from app.core.serving.tool_stream import ToolCallStream

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def engine_error(exc: EngineError) -> P.ApiError:
    if isinstance(exc, ContextLengthError):
        return P.ApiError(400, str(exc), param="messages", code="context_length_exceeded")
    if isinstance(exc, InvalidRequestError):
        return P.ApiError(400, str(exc), code="invalid_request")
    return P.ApiError(500, exc.user_message(), "server_error")


async def event_stream(
    pump: Pump, events: StreamEvents, call_style: str | None, keepalive_s: float
) -> AsyncIterator[bytes]:
    """An answer's stream in one API's events (``events``, the API's encoder): its opening events
    at once, the text and whole tool calls as they come (calls split out of the text in
    ``call_style``), a keep-alive whenever nothing came for ``keepalive_s``, then its closing
    events; an engine error ends it with the API's failure events. The pump records the outcome."""
    splitter = ToolCallStream(call_style)
    calls = 0
    try:
        for data in events.start():
            yield data
        try:
            async for piece in pieces(pump, splitter, keepalive_s):
                if piece is None:
                    yield events.keepalive()
                    continue
                if isinstance(piece, str):
                    out = events.text(piece)
                else:
                    out = events.call(piece)
                    calls += 1
                for data in out:
                    yield data
        except EngineError as exc:
            pump.failed(exc)
            for data in events.fail(engine_error(exc), pump.answer):
                yield data
            return
        for data in events.finish(pump.answer):
            yield data
        pump.answered(calls)
    finally:  # the client left (the task was cancelled) or the answer is complete
        pump.stop()
        pump.side_done()
