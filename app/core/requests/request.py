"""One chat request as every entry point becomes it, and the error a request can be refused with.

The HTTP APIs (:mod:`app.core.serving`) parse their bodies into a :class:`ChatRequest`; the tool
loop (:mod:`app.core.tools.loop`) builds one for each model turn. Both then fit it to the model
(:mod:`app.core.requests.shaping`) and turn it into the engine's
:class:`~app.core.engines.base.GenerateRequest`. A request this layer refuses raises
:class:`RequestError`; each caller says it in its own way (an HTTP API as a 400 in its error shape,
the tool loop as one line).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, NotRequired, TypedDict

from app.core import images as img
from app.core.answer import Answer
from app.core.chat.tool_parsers import parse_tool_calls
from app.core.documents.extract import Document
from app.core.documents.grounding import Source
from app.core.engines.base import ChatMessage, GenerateRequest, Sampling
from app.core.engines.calls import FunctionTool, JsonObject, ToolCall, ToolChoice
from app.core.speculative.per_request import AUTO_CHOICE, Speculation


class RequestError(ValueError):
    """A request that cannot be answered as sent: ``message`` for the client, the request field
    at fault (``param``) and a short ``code`` when there is one."""

    def __init__(self, message: str, param: str | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.param = param
        self.code = code


class JsonSchemaSpec(TypedDict):
    name: str
    schema: JsonObject
    strict: NotRequired[bool]


class JsonSchemaFormat(TypedDict):
    type: Literal["json_schema"]
    json_schema: JsonSchemaSpec


class JsonObjectFormat(TypedDict):
    type: Literal["json_object"]


#: what the answer must follow, in chat's ``response_format`` shape (free text is None)
AnswerFormat = JsonObjectFormat | JsonSchemaFormat


@dataclass(frozen=True)
class ChatRequest:
    """One request as every entry point becomes it (the three HTTP APIs, the tool loop),
    immutable: each step before the engine (shaping, the image files, the prompt's measure)
    returns a new one."""

    messages: list[ChatMessage]
    sampling: Sampling
    stream: bool = False
    include_usage: bool = False
    tools: list[FunctionTool] | None = None
    tool_choice: ToolChoice | None = None
    model: str | None = None
    #: a JSON object or schema the answer must follow, in chat's shape (:func:`response_format_of`)
    response_format: AnswerFormat | None = None
    #: ``tandem.speculation`` of the request: auto (the server's rule), off or a method
    speculation: Speculation = AUTO_CHOICE
    #: the request's images by stored name (the ``images`` of its messages name them until the
    #: server writes them to files and puts the paths there instead)
    images: dict[str, img.CheckedImage] = field(default_factory=dict)
    #: the request's documents by stored name (the ``documents`` of its messages name them until
    #: the server puts them, or their passages, into the messages' text)
    documents: dict[str, Document] = field(default_factory=dict)
    #: the documents and passages the prompt was given (``tandem.sources`` of the answer)
    sources: tuple[Source, ...] = ()
    #: what the server left out and why (hosted tools it cannot run), sent back with the answer
    warnings: list[str] = field(default_factory=list)
    #: how tool calls are read out of the answer (set by :func:`~app.core.requests.shaping.shape`)
    call_style: str | None = None
    #: an agent's turn: it offered tools or carried tool calls or results before
    #: :func:`~app.core.requests.shaping.shape` fitted it to the template (set there)
    agentic: bool = False
    #: the prompt's size in the model's tokens, when the server measured it before answering
    prompt_tokens: int | None = None
    #: the served model's context in tokens, when the prompt was measured against it
    context_tokens: int = 0

    def calls_of(self, answer: Answer) -> tuple[str, list[ToolCall]]:
        """The answer's text for the user and its tool calls: those written in its text in the
        request's :attr:`call_style` (read out of the text), then those the engine returned."""
        text, calls = answer.text, list(answer.tool_calls)
        if self.call_style:
            text, written = parse_tool_calls(text, self.call_style)
            calls = written + calls
        return text, calls

    def generate_request(self) -> GenerateRequest:
        """What the engine is asked: the shaped messages, sampling, tools and answer format. The
        speculation is not carried: the pool, or an engine that switches per request, is given
        the configuration that answers (the request's choice resolved)."""
        return GenerateRequest(
            self.messages,
            self.sampling,
            tools=self.tools or None,
            tool_choice=self.tool_choice,
            response_format=self.response_format,
            agentic=self.agentic,
        )
