"""The request bodies of the three APIs as pydantic models, and the OpenAPI document built from them.

Each API parser (:mod:`~app.core.serving.protocol`, :mod:`~app.core.serving.responses_api`,
:mod:`~app.core.serving.messages_api`) reads its body through its model first (:func:`check`): a
wrong type or a missing field is a 400 naming the field's path, in the API's own error shape, and
the parser then reads typed fields and applies the rules a schema cannot say (a tool the choice
names must be among the tools, an image must decode, ...). Fields no model names are kept (the
real APIs ignore what they do not know, and clients send many), so the models describe what Tandem
reads, not every field a provider has. Numbers, strings and booleans are taken as JSON gives them
(strict: ``"5"`` is not a number).

``GET /openapi.json`` publishes :func:`openapi` (OpenAPI 3.1): the three ``POST`` operations with
these request schemas, and their answers (:mod:`~app.core.serving.bodies`: JSON, or an event
stream when ``stream`` is true) and errors in each API's shape.
"""

from __future__ import annotations

from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, JsonValue, TypeAdapter, ValidationError

from app.core.serving import bodies as B
from app.core.serving.errors import ApiError

#: a JSON object: a tool's parameter schema, a call's arguments, a response format's schema
JsonObject = dict[str, JsonValue]


class _Open(BaseModel):
    """A JSON object whose unknown fields are kept, as the providers' APIs ignore them."""

    model_config = ConfigDict(extra="allow", strict=True, populate_by_name=True)


class TandemOptions(_Open):
    """``tandem``: Tandem's own request fields, on every API."""

    #: "auto" (what is loaded), "off", or a method name
    speculation: str = "auto"


class JsonSchemaSpec(_Open):
    name: str | None = None
    #: the schema (``schema`` on the wire: the attribute is renamed only because pydantic's
    #: models have a ``schema`` method)
    schema_: JsonObject | None = Field(default=None, alias="schema")
    strict: bool | None = None


# --- OpenAI chat completions ------------------------------------------------------------------------
class ImageUrl(_Open):
    url: str | None = None


class FileRef(_Open):
    """A ``file`` part's file: its bytes as a ``data:`` URL (``file_data``) and its name."""

    file_data: str | None = None
    filename: str | None = None
    file_id: str | None = None


class ChatPart(_Open):
    """A content part: ``text`` (with ``text``), ``image_url`` (a ``data:`` URL) or ``file``."""

    type: str
    text: str | None = None
    image_url: ImageUrl | str | None = None
    file: FileRef | None = None


class CalledFunction(_Open):
    name: str
    #: the arguments object as JSON text (an object is taken too)
    arguments: str | JsonObject = "{}"


class ChatToolCall(_Open):
    """A call an earlier assistant turn made."""

    id: str | None = None
    type: Literal["function"] = "function"
    function: CalledFunction


class ChatMessage(_Open):
    role: Literal["system", "developer", "user", "assistant", "tool"]
    content: str | list[ChatPart] | None = None
    name: str | None = None
    tool_calls: list[ChatToolCall] | None = None
    tool_call_id: str | None = None


class FunctionDef(_Open):
    name: str | None = None
    description: str | None = None
    parameters: JsonObject | None = None
    strict: bool | None = None


class ChatTool(_Open):
    """A tool: ``function`` ones are offered to the model; others run on the provider's side and
    are left out with a warning."""

    type: str
    function: FunctionDef | None = None


class NamedFunction(_Open):
    name: str


class NamedToolChoice(_Open):
    type: Literal["function"]
    function: NamedFunction


class ResponseFormat(_Open):
    type: Literal["text", "json_object", "json_schema"]
    json_schema: JsonSchemaSpec | None = None


class StreamOptions(_Open):
    include_usage: bool | None = None


class ChatCompletionRequest(_Open):
    """``POST /v1/chat/completions``."""

    messages: list[ChatMessage] = Field(min_length=1)
    model: str | None = None
    max_tokens: int | None = None
    max_completion_tokens: int | None = None
    temperature: float | None = None
    top_p: float | None = None
    top_k: int | None = None
    repeat_penalty: float | None = None
    seed: int | None = None
    stop: str | list[str] | None = None
    n: int | None = None
    stream: bool | None = None
    stream_options: StreamOptions | None = None
    tools: list[ChatTool] | None = None
    tool_choice: Literal["none", "auto", "required"] | NamedToolChoice | None = None
    response_format: ResponseFormat | None = None
    tandem: TandemOptions | None = None


# --- OpenAI Responses --------------------------------------------------------------------------------
class InputPart(_Open):
    """A content part: ``input_text`` / ``output_text`` / ``text``, ``input_image`` or
    ``input_file`` (``file_data`` as a ``data:`` URL, ``filename``)."""

    type: str
    text: str | None = None
    image_url: str | ImageUrl | None = None
    file_id: str | None = None
    file_data: str | None = None
    filename: str | None = None


class InputItem(_Open):
    """An item of ``input``: a ``message`` (the default), a ``function_call`` an earlier turn
    made, its ``function_call_output``, or a ``reasoning`` item (dropped)."""

    type: str = "message"
    role: Literal["user", "system", "developer", "assistant"] | None = None
    content: str | list[InputPart] | None = None
    call_id: str | None = None
    name: str | None = None
    arguments: str = "{}"
    output: str | list[InputPart] | None = None


class ResponsesTool(_Open):
    """A tool: ``function`` (flat: ``name``, ``description``, ``parameters``), a ``namespace`` of
    tools, or a hosted tool (left out with a warning)."""

    type: str
    name: str | None = None
    description: str | None = None
    parameters: JsonObject | None = None
    strict: bool | None = None
    tools: list[ResponsesTool] | None = None


class ResponsesNamedChoice(_Open):
    type: Literal["function"]
    name: str


class TextFormat(_Open):
    type: Literal["text", "json_object", "json_schema"]
    name: str | None = None
    schema_: JsonObject | None = Field(default=None, alias="schema")
    strict: bool | None = None


class TextOptions(_Open):
    format: TextFormat | None = None


class ResponsesRequest(_Open):
    """``POST /v1/responses``: ``input`` is a string or a list of items (messages, function calls
    and their outputs); Tandem keeps no responses, so the whole conversation comes each time."""

    input: str | list[InputItem]
    instructions: str | None = None
    model: str | None = None
    max_output_tokens: int | None = None
    temperature: float | None = None
    top_p: float | None = None
    stream: bool | None = None
    tools: list[ResponsesTool] | None = None
    tool_choice: Literal["none", "auto", "required"] | ResponsesNamedChoice | None = None
    text: TextOptions | None = None
    previous_response_id: str | None = None
    tandem: TandemOptions | None = None


# --- Anthropic Messages ------------------------------------------------------------------------------
class ImageSource(_Open):
    """An ``image`` or ``document`` block's source: ``base64`` (``media_type``, ``data``), ``text``
    (``data``), ``url``, or ``content`` (text blocks)."""

    type: str
    media_type: str | None = None
    data: str | None = None
    url: str | None = None
    content: str | list[Block] | None = None


class Block(_Open):
    """A content block: ``text``, ``image``, ``tool_use`` (assistant), ``tool_result`` (user),
    ``thinking`` (dropped); each with the fields of its type."""

    type: str
    text: str | None = None
    source: ImageSource | None = None
    id: str | None = None
    name: str | None = None
    input: JsonObject | None = None
    tool_use_id: str | None = None
    content: str | list[Block] | None = None
    is_error: bool | None = None
    #: a ``document`` block's name
    title: str | None = None


class AnthropicMessage(_Open):
    role: Literal["user", "assistant", "system", "developer"]
    content: str | list[Block]


class AnthropicTool(_Open):
    """A client tool (``custom``, the default type), or a server tool (left out with a warning)."""

    name: str
    type: str | None = None
    description: str | None = None
    input_schema: JsonObject | None = None
    defer_loading: bool | None = None


class AnthropicToolChoice(_Open):
    type: Literal["auto", "any", "none", "tool"]
    name: str | None = None


class OutputFormat(_Open):
    type: Literal["json_schema"]
    schema_: JsonObject | None = Field(default=None, alias="schema")


class OutputConfig(_Open):
    format: OutputFormat | None = None


class MessagesRequest(_Open):
    """``POST /v1/messages`` (and ``/v1/messages/count_tokens``, where ``max_tokens`` may be left out)."""

    messages: list[AnthropicMessage] = Field(min_length=1)
    max_tokens: int | None = None
    system: str | list[Block] | None = None
    model: str | None = None
    temperature: float | None = None
    top_p: float | None = None
    top_k: int | None = None
    stop_sequences: list[str] | None = None
    stream: bool | None = None
    tools: list[AnthropicTool] | None = None
    tool_choice: AnthropicToolChoice | None = None
    output_format: OutputFormat | None = None
    output_config: OutputConfig | None = None
    tandem: TandemOptions | None = None


Request = TypeVar("Request", bound=BaseModel)


def check(model: type[Request], body: object) -> Request:
    """``body`` read as ``model``; :class:`ApiError` (400) naming the first field that does not fit."""
    if not isinstance(body, dict):
        raise ApiError(400, "the request body must be a JSON object")
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"]) or "body"
        raise ApiError(400, f"{where}: {first['msg']}", param=where.split(".")[0]) from None


# --- the published document --------------------------------------------------------------------------
#: (path, summary, request, answer, error, streams) of every POST operation
_ROUTES: tuple[tuple[str, str, type[BaseModel], type, type, bool], ...] = (
    ("/v1/chat/completions", "Chat completions (OpenAI)", ChatCompletionRequest, B.ChatCompletion,
     B.OpenAIErrorBody, True),
    ("/v1/responses", "Responses (OpenAI)", ResponsesRequest, B.ResponseBody, B.OpenAIErrorBody, True),
    ("/v1/messages", "Messages (Anthropic)", MessagesRequest, B.MessageBody, B.AnthropicErrorBody, True),
    ("/v1/messages/count_tokens", "Count tokens (Anthropic)", MessagesRequest, B.TokenCount,
     B.AnthropicErrorBody, False),
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
_SSE_EVENT: JsonObject = {
    "type": "object",
    "properties": {"event": {"type": "string"}, "data": {"type": "string"}},
    "required": ["data"],
}


def _ref(kind: type) -> JsonObject:
    return {"$ref": f"#/components/schemas/{kind.__name__}"}


def openapi() -> JsonObject:
    """The OpenAPI 3.1 document of the local server."""
    kinds = {k for route in _ROUTES for k in route[2:5]}
    _, defs = TypeAdapter.json_schemas(
        [(k.__name__, "validation", TypeAdapter(k)) for k in sorted(kinds, key=lambda k: k.__name__)],
        ref_template="#/components/schemas/{model}",
    )
    paths: JsonObject = {}
    for path, summary, request, answer, error, streams in _ROUTES:
        ok: JsonObject = {"application/json": {"schema": _ref(answer)}}
        if streams:
            ok["text/event-stream"] = {"schema": _SSE_EVENT}
        responses: JsonObject = {"200": {"description": "the answer", "content": ok}}
        for status, why in _ERRORS.items():
            responses[status] = {"description": why, "content": {"application/json": {"schema": _ref(error)}}}
        paths[path] = {
            "post": {
                "summary": summary,
                "operationId": path.strip("/").replace("/", "_"),
                "requestBody": {"required": True, "content": {"application/json": {"schema": _ref(request)}}},
                "responses": responses,
            }
        }
    schemas: JsonValue = defs.get("$defs", {})
    return {
        "openapi": "3.1.0",
        "info": {"title": "Tandem local server", "version": "1"},
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "apiKey": {"type": "apiKey", "in": "header", "name": "x-api-key"},
            },
        },
        "security": [{"bearer": []}, {"apiKey": []}],
    }
