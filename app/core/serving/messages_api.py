"""Anthropic Messages shapes (``POST /v1/messages``): request checking, answers, stream events, errors.

Pure functions like :mod:`app.core.serving.protocol`: a Messages request becomes the same
:class:`~app.core.serving.protocol.ChatRequest` an OpenAI request does (OpenAI-shaped messages and
tools, which is what the engines take), and the request's :class:`~app.core.answer.Answer` becomes
a Messages answer (:func:`whole`) or stream (:class:`MessageEvents`). Tandem's speculation
figures ride in an extra ``tandem`` field (on the message, and on the stream's ``message_delta``),
as on OpenAI answers.

The mapping:

* ``system`` (a string or text blocks) -> a leading system message; a ``system`` message inside
  ``messages`` (Claude Code sends them) -> a system message in its place;
* a user ``tool_result`` block -> a ``tool`` message (``tool_call_id`` = its ``tool_use_id``), in
  block order with the user's text; an assistant ``tool_use`` block -> an OpenAI tool call;
  ``thinking`` blocks of earlier turns are dropped; any other block (image, document) is refused;
* ``tools`` (``name``, ``description``, ``input_schema``) -> function tools (server tools and
  ``defer_loading`` ones are left out); ``output_config.format`` / ``output_format`` -> a JSON
  schema the answer follows; ``tool_choice``
  ``auto`` / ``any`` / ``tool`` / ``none`` -> ``auto`` / ``required`` / the named function / no tools;
* ``max_tokens`` above the server's limit is held to it (agents send their model's output limit);
* ``stop_reason``: ``tool_use`` when the answer has calls, ``max_tokens`` at the token limit,
  ``model_context_window_exceeded`` when the context ended it first, ``stop_sequence`` (with the
  string) when one of the request's stop sequences did (see :func:`stop_reason`), else ``end_turn``.
"""

from __future__ import annotations

import json
import secrets

from app.core.answer import Answer
from app.core.engines.base import (
    ChatMessage,
    Sampling,
    SamplingError,
    ToolCall,
    WireToolCall,
    check_max_tokens,
)
from app.core.engines.calls import FunctionTool, JsonObject, ToolChoice
from app.core.requests.request import ChatRequest, JsonSchemaFormat
from app.core.serving import bodies as B
from app.core.serving import schemas as S
from app.core.serving.encoding import Served
from app.core.serving.protocol import (
    MAX_IMAGES_PER_REQUEST,
    ApiError,
    ImageParts,
    Limits,
    dropped_tool,
    extension,
    function_tool,
    json_schema_format,
    named_choice,
    speculation_of,
    wire_call,
    with_documents,
)

#: Anthropic's error type for each HTTP status Tandem answers with
ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    405: "invalid_request_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    503: "overloaded_error",
}


def error_body(status: int, message: str) -> B.AnthropicErrorBody:
    """``{"type": "error", "error": {"type", "message"}}`` for an HTTP status."""
    return {"type": "error", "error": {"type": ERROR_TYPES.get(status, "api_error"), "message": message}}


def api_error_body(exc: ApiError) -> B.AnthropicErrorBody:
    return error_body(exc.status, exc.message)


def _blocks(content: str | list[S.Block] | None) -> list[S.Block]:
    if content is None:
        return []
    return [S.Block(type="text", text=content)] if isinstance(content, str) else content


def _text(block: S.Block, where: str) -> str:
    if block.text is None:
        raise ApiError(400, f"{where}.text: expected a string", param=where)
    return block.text


def system_text(system: str | list[S.Block] | None, where: str = "system") -> str:
    parts: list[str] = []
    for i, block in enumerate(_blocks(system)):
        if block.type != "text":
            raise ApiError(400, f"{where}[{i}]: only text blocks are supported (got {block.type!r})")
        parts.append(_text(block, f"{where}[{i}]"))
    return "\n\n".join(p for p in parts if p)


def _tool_result_text(content: str | list[S.Block] | None, where: str) -> str:
    parts: list[str] = []
    for i, block in enumerate(_blocks(content)):
        if block.type != "text":
            raise ApiError(400, f"{where}[{i}]: only text tool results are supported (got {block.type!r})")
        parts.append(_text(block, f"{where}[{i}]"))
    return "\n".join(parts)


def _user(blocks: list[S.Block], where: str, found: ImageParts) -> list[ChatMessage]:
    out: list[ChatMessage] = []
    text: list[str] = []
    names: list[str] = []
    documents: list[str] = []

    def flush() -> None:
        if text or names or documents:
            msg: ChatMessage = {"role": "user", "content": "\n".join(text)}
            if names:
                msg["images"] = found.of_message(list(names), f"{where}.content")
            out.append(with_documents(msg, documents, "user", f"{where}.content"))
            text.clear()
            names.clear()
            documents.clear()

    for i, block in enumerate(blocks):
        kind, at = block.type, f"{where}.content[{i}]"
        if kind == "text":
            text.append(_text(block, at))
        elif kind == "image":
            names.append(_image(block, found, at))
        elif kind == "document":
            documents.append(_document(block, found, at))
        elif kind == "tool_result":
            flush()
            if not block.tool_use_id:
                raise ApiError(400, f"{at}.tool_use_id: missing", param=at)
            result = _tool_result_text(block.content, f"{at}.content")
            if block.is_error:
                result = f"Error: {result}"
            out.append({"role": "tool", "content": result, "tool_call_id": block.tool_use_id})
        else:
            raise ApiError(400, f"{at}: {kind!r} blocks are not supported in user turns", param=at)
    flush()
    return out


def _image(block: S.Block, found: ImageParts, where: str) -> str:
    """An ``image`` block's source: base64 data, or a ``data:`` URL (nothing is fetched)."""
    source = block.source
    if source is None:
        raise ApiError(400, f"{where}.source: expected an object", param=where)
    if source.type == "base64":
        return found.base64(source.data, source.media_type, f"{where}.source")
    if source.type == "url":
        return found.url(source.url, f"{where}.source.url")
    raise ApiError(400, f"{where}.source.type: expected base64 or url, got {source.type!r}", param=where)


def _document(block: S.Block, found: ImageParts, where: str) -> str:
    """A ``document`` block's source: a base64 file (a PDF, or any kind Tandem reads), plain
    ``text``, ``content`` text blocks, or a ``data:`` URL (nothing is fetched); its ``title`` is
    its file name."""
    source = block.source
    if source is None:
        raise ApiError(400, f"{where}.source: expected an object", param=where)
    docs = found.docs
    if source.type == "base64":
        return docs.base64(source.data, source.media_type, block.title, f"{where}.source")
    if source.type == "text":
        return docs.text(source.data or "", block.title, f"{where}.source")
    if source.type == "content":
        content = source.content
        if isinstance(content, str):
            return docs.text(content, block.title, f"{where}.source")
        if content is None or any(b.type != "text" for b in content):
            raise ApiError(400, f"{where}.source.content: expected text blocks", param=where)
        return docs.text("\n\n".join(b.text or "" for b in content), block.title, f"{where}.source")
    if source.type == "url":
        return docs.data_url(source.url, block.title, f"{where}.source.url")
    raise ApiError(
        400, f"{where}.source.type: expected base64, text, content or url, got {source.type!r}", param=where
    )


def _assistant(blocks: list[S.Block], where: str) -> ChatMessage:
    text: list[str] = []
    calls: list[WireToolCall] = []
    for i, block in enumerate(blocks):
        kind, at = block.type, f"{where}.content[{i}]"
        if kind == "text":
            text.append(_text(block, at))
        elif kind == "tool_use":
            if not block.name:
                raise ApiError(400, f"{at}: a tool_use block needs a name and an input object", param=at)
            calls.append(wire_call(block.id or tool_use_id(), block.name, block.input or {}))
        elif kind in ("thinking", "redacted_thinking"):
            continue  # an earlier turn's reasoning is not replayed
        else:
            raise ApiError(400, f"{at}: {kind!r} blocks are not supported in assistant turns", param=at)
    msg: ChatMessage = {"role": "assistant", "content": "".join(text)}
    if calls:
        msg["tool_calls"] = calls
    return msg


def messages_of(
    raw: list[S.AnthropicMessage], system: str | list[S.Block] | None, found: ImageParts | None = None
) -> list[ChatMessage]:
    """The chat messages of a Messages body; its images are decoded into ``found``."""
    found = found if found is not None else ImageParts(MAX_IMAGES_PER_REQUEST)
    out: list[ChatMessage] = []
    head = system_text(system)
    if head:
        out.append({"role": "system", "content": head})
    for i, m in enumerate(raw):
        where = f"messages[{i}]"
        blocks = _blocks(m.content)
        if m.role == "user":
            out += _user(blocks, where, found)
        elif m.role == "assistant":
            out.append(_assistant(blocks, where))
        else:
            # Claude Code sends system messages mid-conversation; the server decides where they go
            text = system_text(m.content, f"{where}.content")
            if text:
                out.append({"role": "system", "content": text})
    return out


def tools_of(
    raw: list[S.AnthropicTool] | None, warnings: list[str] | None = None
) -> list[FunctionTool] | None:
    """Client tools as chat tools. Server tools (web search, code execution, ...: a ``type``
    other than ``custom``) run on Anthropic's side and are left out with a warning; so are tools
    marked ``defer_loading``, which a model sees only once a tool search finds them."""
    warnings = warnings if warnings is not None else []
    out: list[FunctionTool] = []
    for i, t in enumerate(raw or []):
        if not t.name:
            raise ApiError(400, f"tools[{i}]: expected a tool with a name", param="tools")
        if t.type not in (None, "custom"):
            warnings.append(dropped_tool(f"tools[{i}]", t.type))
            continue
        if t.defer_loading is True:
            continue
        schema: JsonObject = t.input_schema if t.input_schema is not None else {"type": "object"}
        out.append(function_tool(t.name, t.description, schema))
    return out or None


def tool_choice_of(raw: S.AnthropicToolChoice | None) -> tuple[ToolChoice | None, bool]:
    """(the OpenAI tool_choice, whether tools stay on) for a Messages ``tool_choice``."""
    if raw is None:
        return None, True
    if raw.type == "auto":
        return "auto", True
    if raw.type == "any":
        return "required", True
    if raw.type == "none":
        return None, False
    if raw.name is None:
        raise ApiError(400, "tool_choice: expected {'type': 'auto' | 'any' | 'none' | 'tool', ...}")
    return named_choice(raw.name), True


def output_format_of(raw: S.OutputFormat | None, param: str = "output_format") -> JsonSchemaFormat | None:
    """Structured outputs' format (``{"type": "json_schema", "schema": {...}}``) -> chat's
    ``response_format``."""
    if raw is None:
        return None
    return json_schema_format(None, raw.schema_, True, param)


def structured_format_of(req: S.MessagesRequest) -> JsonSchemaFormat | None:
    """The answer's format: ``output_config.format`` (the current field) or ``output_format``
    (the beta's); both at once must agree."""
    config = req.output_config
    current = output_format_of(config.format if config is not None else None, "output_config.format")
    beta = output_format_of(req.output_format)
    if current is not None and beta is not None and current != beta:
        raise ApiError(
            400, "output_config.format and output_format disagree; send one of them", param="output_format"
        )
    return current or beta


def parse_request(body: object, limits: Limits) -> ChatRequest:
    """Check a decoded Messages body; :class:`ApiError` (400) names the offending field."""
    req = S.check(S.MessagesRequest, body)
    found = ImageParts(limits.max_images)
    messages = messages_of(req.messages, req.system, found)
    if req.max_tokens is None:
        max_tokens = limits.default
    else:
        try:
            max_tokens = check_max_tokens(req.max_tokens)
        except SamplingError as exc:
            raise ApiError(400, f"max_tokens: {exc}", param="max_tokens") from exc
        # Messages requires max_tokens and agents fill in their model's output limit (Claude Code
        # sends 32000): it is a cap, so it is held to the server's rather than refused.
        max_tokens = min(max_tokens, limits.max_tokens)
    stop = req.stop_sequences or []
    if not all(stop) or len(stop) > 8:
        raise ApiError(400, "stop_sequences: expected a list of up to 8 non-empty strings")
    try:
        sampling = Sampling(
            temperature=0.0 if req.temperature is None else req.temperature,
            top_p=1.0 if req.top_p is None else req.top_p,
            top_k=req.top_k or 0,
            max_tokens=max_tokens,
            stop=tuple(stop),
        )
    except SamplingError as exc:
        raise ApiError(400, str(exc)) from exc
    warnings: list[str] = []
    tools = tools_of(req.tools, warnings)
    tool_choice, keep = tool_choice_of(req.tool_choice)
    if not keep:
        tools = None
    return ChatRequest(
        messages,
        sampling,
        stream=bool(req.stream),
        tools=tools,
        tool_choice=tool_choice if tools else None,
        model=req.model,
        response_format=structured_format_of(req),
        images=found.images,
        documents=found.docs.documents,
        speculation=speculation_of(req.tandem),
        warnings=warnings,
    )


# --- answers ----------------------------------------------------------------------------------------
def message_id() -> str:
    return "msg_" + secrets.token_hex(12)


def tool_use_id() -> str:
    return "toolu_" + secrets.token_hex(12)


def tool_use_id_of(call: ToolCall) -> str:
    """The id a call goes by in Messages answers: the call's own id in Anthropic's ``toolu_`` form."""
    return call.id if call.id.startswith("toolu_") else "toolu_" + call.id.removeprefix("call_")


def stop_reason(
    answer: Answer, has_calls: bool, stop: tuple[str, ...], max_tokens: int | None = None
) -> tuple[B.StopReason, str | None]:
    """(stop_reason, stop_sequence). An answer cut before the request's ``max_tokens`` was cut by
    the end of the context: ``model_context_window_exceeded`` (agents tell the two apart; a
    ``max_tokens`` there makes Claude Code report its own output limit as exceeded). A stop string
    that ended the answer is ``stop_sequence`` with that string: as the engine says (llama.cpp and
    llama-server do), or when the text ends with one (an engine that keeps it); else a stop is
    ``end_turn``."""
    if has_calls:
        return "tool_use", None
    if answer.reason == "length":
        if max_tokens is not None and answer.completion_tokens < max_tokens:
            return "model_context_window_exceeded", None
        return "max_tokens", None
    said = answer.finished.stop_sequence if answer.finished is not None else None
    if said is not None and said in stop:
        return "stop_sequence", said
    for s in stop:
        if answer.text.endswith(s):
            return "stop_sequence", s
    return "end_turn", None


def tool_use_block(call: ToolCall) -> B.ToolUseBlock:
    return {"type": "tool_use", "id": tool_use_id_of(call), "name": call.name, "input": call.arguments}


def usage(answer: Answer) -> B.MessagesUsage:
    return {"input_tokens": answer.prompt_tokens, "output_tokens": answer.completion_tokens}


def message(
    mid: str,
    model: str,
    text: str,
    calls: list[ToolCall],
    answer: Answer,
    stop: tuple[str, ...],
    method: str | None,
    max_tokens: int | None = None,
) -> B.MessageBody:
    content: list[B.TextBlock | B.ToolUseBlock] = [{"type": "text", "text": text}] if text else []
    content += [tool_use_block(c) for c in calls]
    reason, sequence = stop_reason(answer, bool(calls), stop, max_tokens)
    return {
        "id": mid,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": reason,
        "stop_sequence": sequence,
        "usage": usage(answer),
        "tandem": extension(answer, method),
    }


def event(kind: str, **fields: object) -> bytes:
    """One Server-Sent Event of a Messages stream: ``event: <type>`` and its JSON data."""
    data = json.dumps({"type": kind, **fields}, ensure_ascii=False)
    return f"event: {kind}\ndata: {data}\n\n".encode()


def error_event(exc: ApiError) -> bytes:
    data = json.dumps(api_error_body(exc), ensure_ascii=False)
    return f"event: error\ndata: {data}\n\n".encode()


def whole(
    served: Served, req: ChatRequest, text: str, calls: list[ToolCall], answer: Answer
) -> B.MessageBody:
    """The whole Messages answer (``stream`` false), Tandem's warnings included."""
    stop, max_tokens = req.sampling.stop, req.sampling.max_tokens
    body = message(
        message_id(), served.model_id, text, calls, answer, stop, served.speculation.method, max_tokens
    )
    body["tandem"] = extension(answer, served.speculation.method, req)
    return body


class MessageEvents:
    """A Messages stream (:class:`~app.core.serving.encoding.StreamEvents`): ``message_start`` and
    a ping, a text block while text comes, one ``tool_use`` block per call, pings to keep the
    connection, then ``message_delta`` (stop reason, usage, Tandem's figures) and
    ``message_stop``; a failure is an ``error`` event."""

    def __init__(self, served: Served, req: ChatRequest) -> None:
        self.model = served.model_id
        self.method = served.speculation.method
        self.req = req
        self.index = 0
        self.text_open = False
        self.calls = 0

    def start(self) -> list[bytes]:
        return [start_event(message_id(), self.model, self.req.prompt_tokens or 0), event("ping")]

    def keepalive(self) -> bytes:
        return event("ping")

    def text(self, piece: str) -> list[bytes]:
        out = []
        if not self.text_open:
            out.append(
                event("content_block_start", index=self.index, content_block={"type": "text", "text": ""})
            )
            self.text_open = True
        out.append(
            event("content_block_delta", index=self.index, delta={"type": "text_delta", "text": piece})
        )
        return out

    def _close_text(self) -> list[bytes]:
        if not self.text_open:
            return []
        self.text_open = False
        self.index += 1
        return [event("content_block_stop", index=self.index - 1)]

    def call(self, call: ToolCall) -> list[bytes]:
        out = self._close_text()
        block = tool_use_block(call)
        args = json.dumps(block["input"], ensure_ascii=False)
        out += [
            event("content_block_start", index=self.index, content_block={**block, "input": {}}),
            event(
                "content_block_delta",
                index=self.index,
                delta={"type": "input_json_delta", "partial_json": args},
            ),
            event("content_block_stop", index=self.index),
        ]
        self.index += 1
        self.calls += 1
        return out

    def finish(self, answer: Answer) -> list[bytes]:
        out = self._close_text()
        sampling = self.req.sampling
        reason, sequence = stop_reason(answer, self.calls > 0, sampling.stop, sampling.max_tokens)
        delta = {"stop_reason": reason, "stop_sequence": sequence}
        tandem = extension(answer, self.method, self.req)
        return [
            *out,
            event("message_delta", delta=delta, usage=usage(answer), tandem=tandem),
            event("message_stop"),
        ]

    def fail(self, error: ApiError, answer: Answer) -> list[bytes]:
        return [error_event(error)]


def start_event(mid: str, model: str, input_tokens: int = 0) -> bytes:
    started: B.MessageBody = {
        "id": mid,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": input_tokens, "output_tokens": 0},
    }
    return event("message_start", message=started)
