"""What the server needs of each API, in one shape: an :class:`Adapter` per API.

An API is its request schema and parser, its whole-answer body, its stream of events and its error
body; each API module writes these once (:mod:`~app.core.serving.protocol` for chat completions,
:mod:`~app.core.serving.responses_api`, :mod:`~app.core.serving.messages_api`), and this module
names them as :data:`CHAT`, :data:`RESPONSES` and :data:`MESSAGES`. The server
(:mod:`~app.core.serving.api`) has one pipeline for all three: it validates the body once (the
adapter's schema, then its parser's rules that a schema cannot say), admits the request, shapes it,
runs it, and writes the answer, the stream or the error with the adapter, so each (answer, API)
pair is written in exactly one place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from app.core.answer import Answer
from app.core.engines.calls import ToolCall
from app.core.requests.request import ChatRequest
from app.core.serving import messages_api as M
from app.core.serving import protocol as P
from app.core.serving import responses_api as R
from app.core.serving import schemas as S
from app.core.serving.encoding import Served, StreamEvents
from app.core.serving.errors import ApiError


@dataclass(frozen=True)
class Adapter:
    """One API, as the server's pipeline uses it."""

    #: the request body's pydantic model (the schema check, and the published document)
    schema: type[BaseModel]
    #: the body (a dict) -> the one request every API becomes (raises ApiError)
    parse: Callable[[Any, P.Limits], ChatRequest]
    #: the whole answer's body (``stream`` false)
    whole: Callable[[Served, ChatRequest, str, list[ToolCall], Answer], Mapping[str, object]]
    #: the answer's stream of events (``stream`` true)
    events: Callable[[Served, ChatRequest], StreamEvents]
    #: an error's body in the API's shape
    error_body: Callable[[ApiError], Mapping[str, object]]


CHAT = Adapter(S.ChatCompletionRequest, P.parse_request, P.whole, P.ChatEvents, ApiError.body)
RESPONSES = Adapter(S.ResponsesRequest, R.parse_request, R.whole, R.ResponseEvents, ApiError.body)
MESSAGES = Adapter(S.MessagesRequest, M.parse_request, M.whole, M.MessageEvents, M.api_error_body)
