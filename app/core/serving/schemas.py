"""The request bodies of the three APIs as pydantic models, and the OpenAPI document built from them.

A body is checked against its model first (:func:`check`): a wrong type or a missing field is a
400 naming the field's path, in the API's own error shape. Fields no model names are kept (the
real APIs ignore what they do not know, and clients send many), so the models describe what Tandem
reads, not every field a provider has. The API parsers (:mod:`~app.core.serving.protocol`,
:mod:`~app.core.serving.responses_api`, :mod:`~app.core.serving.messages_api`) then apply the rules
a schema cannot say (a tool the choice names must be among the tools, an image must decode, ...).

``GET /openapi.json`` publishes :func:`openapi` (OpenAPI 3.1): the three ``POST`` operations with
these request schemas, and their answers (JSON, or an event stream when ``stream`` is true) and
errors in each API's shape.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.json_schema import models_json_schema

from app.core.serving.protocol import ApiError


class _Open(BaseModel):
    """A JSON object whose unknown fields are kept, as the providers' APIs ignore them."""

    model_config = ConfigDict(extra="allow")


#: a content part or block: a ``type`` and the fields of that type (checked by the API parser)
Part = dict[str, Any]
Stop = str | list[str]


# --- OpenAI chat completions ------------------------------------------------------------------------
class ChatMessage(_Open):
    role: Literal["system", "developer", "user", "assistant", "tool"]
    content: str | list[Part] | None = None
    name: str | None = None
    tool_calls: list[dict[str, Any]] | None = None
    tool_call_id: str | None = None


class ChatCompletionRequest(_Open):
    """``POST /v1/chat/completions``."""

    messages: list[ChatMessage] = Field(min_length=1)
    model: str | None = None
    max_tokens: int | None = None
    max_completion_tokens: int | None = None
    temperature: float | None = None
    top_p: float | None = None
    top_k: int | None = None
    seed: int | None = None
    stop: Stop | None = None
    n: int | None = None
    stream: bool | None = None
    stream_options: dict[str, Any] | None = None
    tools: list[dict[str, Any]] | None = None
    tool_choice: str | dict[str, Any] | None = None
    response_format: dict[str, Any] | None = None
    tandem: dict[str, Any] | None = None


# --- OpenAI Responses --------------------------------------------------------------------------------
class ResponsesRequest(_Open):
    """``POST /v1/responses``: ``input`` is a string or a list of items (messages, function calls
    and their outputs); Tandem keeps no responses, so the whole conversation comes each time."""

    input: str | list[dict[str, Any]]
    instructions: str | None = None
    model: str | None = None
    max_output_tokens: int | None = None
    temperature: float | None = None
    top_p: float | None = None
    stream: bool | None = None
    tools: list[dict[str, Any]] | None = None
    tool_choice: str | dict[str, Any] | None = None
    text: dict[str, Any] | None = None
    previous_response_id: str | None = None
    tandem: dict[str, Any] | None = None


# --- Anthropic Messages ------------------------------------------------------------------------------
class AnthropicMessage(_Open):
    role: Literal["user", "assistant", "system", "developer"]
    content: str | list[Part]


class MessagesRequest(_Open):
    """``POST /v1/messages`` (and ``/v1/messages/count_tokens``, where ``max_tokens`` may be left out)."""

    messages: list[AnthropicMessage] = Field(min_length=1)
    max_tokens: int | None = None
    system: str | list[Part] | None = None
    model: str | None = None
    temperature: float | None = None
    top_p: float | None = None
    top_k: int | None = None
    stop_sequences: list[str] | None = None
    stream: bool | None = None
    tools: list[dict[str, Any]] | None = None
    tool_choice: dict[str, Any] | None = None
    output_format: dict[str, Any] | None = None
    output_config: dict[str, Any] | None = None
    tandem: dict[str, Any] | None = None


def check(model: type[BaseModel], body: Any) -> None:
    """:class:`ApiError` (400) naming the first field of ``body`` that does not fit ``model``."""
    if not isinstance(body, dict):
        raise ApiError(400, "the request body must be a JSON object")
    try:
        model.model_validate(body)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"]) or "body"
        raise ApiError(400, f"{where}: {first['msg']}", param=where.split(".")[0]) from None


# --- the published document --------------------------------------------------------------------------
class OpenAIErrorDetail(BaseModel):
    message: str
    type: str
    param: str | None = None
    code: str | None = None


class OpenAIError(BaseModel):
    error: OpenAIErrorDetail


class AnthropicErrorDetail(BaseModel):
    type: str
    message: str


class AnthropicError(BaseModel):
    type: Literal["error"]
    error: AnthropicErrorDetail


class ChatCompletion(_Open):
    id: str
    object: Literal["chat.completion"]
    model: str
    choices: list[dict[str, Any]]
    usage: dict[str, int]


class Response(_Open):
    id: str
    object: Literal["response"]
    status: str
    model: str
    output: list[dict[str, Any]]


class Message(_Open):
    id: str
    type: Literal["message"]
    role: Literal["assistant"]
    content: list[dict[str, Any]]
    stop_reason: str | None
    usage: dict[str, int]


class TokenCount(BaseModel):
    input_tokens: int


_ROUTES: tuple[tuple[str, str, type[BaseModel], type[BaseModel], type[BaseModel], bool], ...] = (
    ("/v1/chat/completions", "Chat completions (OpenAI)", ChatCompletionRequest, ChatCompletion, OpenAIError,
     True),
    ("/v1/responses", "Responses (OpenAI)", ResponsesRequest, Response, OpenAIError, True),
    ("/v1/messages", "Messages (Anthropic)", MessagesRequest, Message, AnthropicError, True),
    ("/v1/messages/count_tokens", "Count tokens (Anthropic)", MessagesRequest, TokenCount, AnthropicError,
     False),
)  # fmt: skip
#: the statuses every POST may answer with, besides 200
_ERRORS = {
    "400": "the request is malformed, asks for what cannot be honoured, or does not fit the context",
    "401": "no key, or a wrong one",
    "413": "the body is too large",
    "429": "too many requests are waiting",
    "500": "the engine failed",
    "503": "no model is loaded",
    "507": "an image could not be stored (disk full)",
}


#: one event of a stream: its name (Responses and Messages name theirs) and its JSON data
_SSE_EVENT = {
    "type": "object",
    "properties": {"event": {"type": "string"}, "data": {"type": "string"}},
    "required": ["data"],
}


def openapi() -> dict[str, Any]:
    """The OpenAPI 3.1 document of the local server."""
    models = {m for route in _ROUTES for m in route[2:5]}
    _, defs = models_json_schema(
        [(m, "validation") for m in sorted(models, key=lambda m: m.__name__)],
        ref_template="#/components/schemas/{model}",
    )

    def ref(model: type[BaseModel]) -> dict[str, str]:
        return {"$ref": f"#/components/schemas/{model.__name__}"}

    paths: dict[str, Any] = {}
    for path, summary, request, answer, error, streams in _ROUTES:
        ok: dict[str, Any] = {"application/json": {"schema": ref(answer)}}
        if streams:
            ok["text/event-stream"] = {"schema": _SSE_EVENT}
        responses: dict[str, Any] = {"200": {"description": "the answer", "content": ok}}
        for status, why in _ERRORS.items():
            responses[status] = {"description": why, "content": {"application/json": {"schema": ref(error)}}}
        paths[path] = {
            "post": {
                "summary": summary,
                "operationId": path.strip("/").replace("/", "_"),
                "requestBody": {"required": True, "content": {"application/json": {"schema": ref(request)}}},
                "responses": responses,
            }
        }
    return {
        "openapi": "3.1.0",
        "info": {"title": "Tandem local server", "version": "1"},
        "paths": paths,
        "components": {
            "schemas": defs.get("$defs", {}),
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "apiKey": {"type": "apiKey", "in": "header", "name": "x-api-key"},
            },
        },
        "security": [{"bearer": []}, {"apiKey": []}],
    }
