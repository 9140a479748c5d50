"""The shape every API's stream encoder has (:class:`StreamEvents`), and what an answer says about
the server (:class:`Served`); the API modules write their encoders to it, the server reads them
through :func:`~app.core.serving.streams.event_stream`. Pure: bytes out, no I/O."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from app.core.answer import Answer
from app.core.engines.calls import ToolCall
from app.core.serving.errors import ApiError
from app.core.speculative.per_request import Speculation

#: an SSE comment: keeps a connection open while nothing else is sent
KEEPALIVE = b": keep-alive\n\n"


class StreamEvents(Protocol):
    """One answer's stream in an API's events (one instance per request; it counts what it sent):
    the events that open the stream, a keep-alive, a piece of text, a whole tool call, the closing
    events with the answer's usage and Tandem's figures, or the events of a failure."""

    def start(self) -> list[bytes]: ...

    def keepalive(self) -> bytes: ...

    def text(self, piece: str) -> list[bytes]: ...

    def call(self, call: ToolCall) -> list[bytes]: ...

    def finish(self, answer: Answer) -> list[bytes]: ...

    def fail(self, error: ApiError, answer: Answer) -> list[bytes]: ...


@dataclass(frozen=True)
class Served:
    """What an API's answer says about the server: the model id clients see and the configuration
    that answers the request (off or a method, never auto)."""

    model_id: str
    speculation: Speculation
