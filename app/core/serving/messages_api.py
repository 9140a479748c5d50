"""Anthropic Messages shapes (``POST /v1/messages``): request checking, answers, stream events, errors.

Pure functions like :mod:`app.core.serving.protocol`: a Messages request becomes the same
:class:`~app.core.serving.protocol.ChatRequest` an OpenAI request does (OpenAI-shaped messages and
tools, which is what the engines take), and the request's :class:`~app.core.answer.Answer` becomes
a Messages answer or stream. Tandem's speculation figures ride in an extra ``tandem`` field (on the
message, and on the stream's ``message_delta``), as on OpenAI answers.

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
from typing import Any

from app.core.answer import Answer
from app.core.engines.base import ChatMessage, Sampling, SamplingError, check_max_tokens
from app.core.serving.protocol import (
    MAX_IMAGES_PER_REQUEST,
    ApiError,
    ChatRequest,
    ImageParts,
    Limits,
    dropped_tool,
    extension,
    json_schema_format,
    speculation_of,
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


def error_body(status: int, message: str) -> dict[str, Any]:
    """``{"type": "error", "error": {"type", "message"}}`` for an HTTP status."""
    return {"type": "error", "error": {"type": ERROR_TYPES.get(status, "api_error"), "message": message}}


def api_error_body(exc: ApiError) -> dict[str, Any]:
    return error_body(exc.status, exc.message)


def _number(body: dict[str, Any], key: str, default: float) -> float:
    value = body.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ApiError(400, f"{key}: expected a number, got {value!r}", param=key)
    return float(value)


def _blocks(content: Any, where: str) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if not isinstance(content, list):
        raise ApiError(400, f"{where}: expected a string or a list of content blocks", param=where)
    for i, block in enumerate(content):
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            raise ApiError(400, f"{where}[{i}]: expected a content block object", param=where)
    return content


def _text(block: dict[str, Any], where: str) -> str:
    text = block.get("text")
    if not isinstance(text, str):
        raise ApiError(400, f"{where}.text: expected a string", param=where)
    return text


def system_text(system: Any, where: str = "system") -> str:
    if system is None:
        return ""
    parts: list[str] = []
    for i, block in enumerate(_blocks(system, where)):
        if block["type"] != "text":
            raise ApiError(400, f"{where}[{i}]: only text blocks are supported (got {block['type']!r})")
        parts.append(_text(block, f"{where}[{i}]"))
    return "\n\n".join(p for p in parts if p)


def _tool_result_text(content: Any, where: str) -> str:
    if content is None:
        return ""
    parts: list[str] = []
    for i, block in enumerate(_blocks(content, where)):
        if block["type"] != "text":
            raise ApiError(400, f"{where}[{i}]: only text tool results are supported (got {block['type']!r})")
        parts.append(_text(block, f"{where}[{i}]"))
    return "\n".join(parts)


def _user(blocks: list[dict[str, Any]], where: str, found: ImageParts) -> list[ChatMessage]:
    out: list[ChatMessage] = []
    text: list[str] = []
    names: list[str] = []

    def flush() -> None:
        if text or names:
            msg: ChatMessage = {"role": "user", "content": "\n".join(text)}
            if names:
                msg["images"] = found.of_message(list(names), f"{where}.content")
            out.append(msg)
            text.clear()
            names.clear()

    for i, block in enumerate(blocks):
        kind, at = block["type"], f"{where}.content[{i}]"
        if kind == "text":
            text.append(_text(block, at))
        elif kind == "image":
            names.append(_image(block, found, at))
        elif kind == "tool_result":
            flush()
            call_id = block.get("tool_use_id")
            if not isinstance(call_id, str) or not call_id:
                raise ApiError(400, f"{at}.tool_use_id: missing", param=at)
            result = _tool_result_text(block.get("content"), f"{at}.content")
            if block.get("is_error"):
                result = f"Error: {result}"
            out.append({"role": "tool", "content": result, "tool_call_id": call_id})
        else:
            raise ApiError(400, f"{at}: {kind!r} blocks are not supported in user turns", param=at)
    flush()
    return out


def _image(block: dict[str, Any], found: ImageParts, where: str) -> str:
    """An ``image`` block's source: base64 data, or a ``data:`` URL (nothing is fetched)."""
    source = block.get("source")
    if not isinstance(source, dict):
        raise ApiError(400, f"{where}.source: expected an object", param=where)
    kind = source.get("type")
    if kind == "base64":
        return found.base64(source.get("data"), source.get("media_type"), f"{where}.source")
    if kind == "url":
        return found.url(source.get("url"), f"{where}.source.url")
    raise ApiError(400, f"{where}.source.type: expected base64 or url, got {kind!r}", param=where)


def _assistant(blocks: list[dict[str, Any]], where: str) -> ChatMessage:
    text: list[str] = []
    calls: list[dict[str, Any]] = []
    for i, block in enumerate(blocks):
        kind, at = block["type"], f"{where}.content[{i}]"
        if kind == "text":
            text.append(_text(block, at))
        elif kind == "tool_use":
            name, args = block.get("name"), block.get("input", {})
            if not isinstance(name, str) or not name or not isinstance(args, dict):
                raise ApiError(400, f"{at}: a tool_use block needs a name and an input object", param=at)
            call_id = block.get("id")
            calls.append(
                {
                    "id": call_id if isinstance(call_id, str) and call_id else tool_use_id(),
                    "type": "function",
                    "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)},
                }
            )
        elif kind in ("thinking", "redacted_thinking"):
            continue  # an earlier turn's reasoning is not replayed
        else:
            raise ApiError(400, f"{at}: {kind!r} blocks are not supported in assistant turns", param=at)
    msg: ChatMessage = {"role": "assistant", "content": "".join(text)}
    if calls:
        msg["tool_calls"] = calls
    return msg


def messages_of(raw: Any, system: Any, found: ImageParts | None = None) -> list[ChatMessage]:
    """The chat messages of a Messages body; its images are decoded into ``found``."""
    found = found if found is not None else ImageParts(MAX_IMAGES_PER_REQUEST)
    if not isinstance(raw, list) or not raw:
        raise ApiError(400, "messages: expected a non-empty list of messages", param="messages")
    out: list[ChatMessage] = []
    head = system_text(system)
    if head:
        out.append({"role": "system", "content": head})
    for i, m in enumerate(raw):
        where = f"messages[{i}]"
        if not isinstance(m, dict):
            raise ApiError(400, f"{where}: expected an object", param=where)
        role = m.get("role")
        blocks = _blocks(m.get("content"), f"{where}.content")
        if role == "user":
            out += _user(blocks, where, found)
        elif role == "assistant":
            out.append(_assistant(blocks, where))
        elif role in ("system", "developer"):
            # Claude Code sends system messages mid-conversation; the server decides where they go
            text = system_text(m.get("content"), f"{where}.content")
            if text:
                out.append({"role": "system", "content": text})
        else:
            raise ApiError(
                400, f"{where}.role: expected 'user', 'assistant' or 'system', got {role!r}", param=where
            )
    return out


def tools_of(raw: Any, warnings: list[str] | None = None) -> list[dict[str, Any]] | None:
    """Client tools as chat tools. Server tools (web search, code execution, ...: a ``type``
    other than ``custom``) run on Anthropic's side and are left out with a warning; so are tools
    marked ``defer_loading``, which a model sees only once a tool search finds them."""
    warnings = warnings if warnings is not None else []
    if raw is None or raw == []:
        return None
    if not isinstance(raw, list):
        raise ApiError(400, "tools: expected a list of tools", param="tools")
    out: list[dict[str, Any]] = []
    for i, t in enumerate(raw):
        if not isinstance(t, dict) or not isinstance(t.get("name"), str) or not t["name"]:
            raise ApiError(400, f"tools[{i}]: expected a tool with a name", param="tools")
        kind = t.get("type", "custom")
        if kind not in (None, "custom"):
            warnings.append(dropped_tool(f"tools[{i}]", kind))
            continue
        if t.get("defer_loading") is True:
            continue
        schema = t.get("input_schema", {"type": "object"})
        if not isinstance(schema, dict):
            raise ApiError(400, f"tools[{i}].input_schema: expected a JSON schema object", param="tools")
        fn: dict[str, Any] = {"name": t["name"], "parameters": schema}
        if isinstance(t.get("description"), str):
            fn["description"] = t["description"]
        out.append({"type": "function", "function": fn})
    return out or None


def tool_choice_of(raw: Any) -> tuple[Any, bool]:
    """(the OpenAI tool_choice, whether tools stay on) for a Messages ``tool_choice``."""
    if raw is None:
        return None, True
    kind = raw.get("type") if isinstance(raw, dict) else None
    if kind == "auto":
        return "auto", True
    if kind == "any":
        return "required", True
    if kind == "none":
        return None, False
    if kind == "tool" and isinstance(raw.get("name"), str):
        return {"type": "function", "function": {"name": raw["name"]}}, True
    raise ApiError(400, "tool_choice: expected {'type': 'auto' | 'any' | 'none' | 'tool', ...}")


def output_format_of(raw: Any, param: str = "output_format") -> dict[str, Any] | None:
    """Structured outputs' format (``{"type": "json_schema", "schema": {...}}``) -> chat's
    ``response_format``."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or raw.get("type") != "json_schema":
        raise ApiError(400, f"{param}: expected {{'type': 'json_schema', 'schema': {{...}}}}", param=param)
    return json_schema_format(None, raw.get("schema"), True, param)


def structured_format_of(body: dict[str, Any]) -> dict[str, Any] | None:
    """The answer's format: ``output_config.format`` (the current field) or ``output_format``
    (the beta's); both at once must agree."""
    config = body.get("output_config")
    if config is not None and not isinstance(config, dict):
        raise ApiError(400, "output_config: expected an object", param="output_config")
    current = output_format_of((config or {}).get("format"), "output_config.format")
    beta = output_format_of(body.get("output_format"))
    if current is not None and beta is not None and current != beta:
        raise ApiError(
            400, "output_config.format and output_format disagree; send one of them", param="output_format"
        )
    return current or beta


def parse_request(body: Any, limits: Limits) -> ChatRequest:
    """Check a decoded Messages body; :class:`ApiError` (400) names the offending field."""
    if not isinstance(body, dict):
        raise ApiError(400, "the request body must be a JSON object")
    found = ImageParts(limits.max_images)
    messages = messages_of(body.get("messages"), body.get("system"), found)
    raw_max = body.get("max_tokens")
    if raw_max is None:
        max_tokens = limits.default
    else:
        try:
            max_tokens = check_max_tokens(raw_max)
        except SamplingError as exc:
            raise ApiError(400, f"max_tokens: {exc}", param="max_tokens") from exc
        # Messages requires max_tokens and agents fill in their model's output limit (Claude Code
        # sends 32000): it is a cap, so it is held to the server's rather than refused.
        max_tokens = min(max_tokens, limits.max_tokens)
    stop = body.get("stop_sequences") or []
    if not isinstance(stop, list) or not all(isinstance(s, str) and s for s in stop) or len(stop) > 8:
        raise ApiError(400, "stop_sequences: expected a list of up to 8 non-empty strings")
    top_k = body.get("top_k", 0)
    try:
        sampling = Sampling(
            temperature=_number(body, "temperature", 0.0),
            top_p=_number(body, "top_p", 1.0),
            top_k=top_k,
            max_tokens=max_tokens,
            stop=tuple(stop),
        )
    except SamplingError as exc:
        raise ApiError(400, str(exc)) from exc
    model = body.get("model")
    if model is not None and not isinstance(model, str):
        raise ApiError(400, "model: expected a string", param="model")
    warnings: list[str] = []
    tools = tools_of(body.get("tools"), warnings)
    tool_choice, keep = tool_choice_of(body.get("tool_choice"))
    if not keep:
        tools = None
    return ChatRequest(
        messages,
        sampling,
        stream=bool(body.get("stream", False)),
        tools=tools,
        tool_choice=tool_choice if tools else None,
        model=model,
        response_format=structured_format_of(body),
        images=found.images,
        speculation=speculation_of(body),
        warnings=warnings,
    )


# --- answers ----------------------------------------------------------------------------------------
def message_id() -> str:
    return "msg_" + secrets.token_hex(12)


def tool_use_id() -> str:
    return "toolu_" + secrets.token_hex(12)


def stop_reason(
    answer: Answer, has_calls: bool, stop: tuple[str, ...], max_tokens: int | None = None
) -> tuple[str, str | None]:
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


def tool_use_block(call: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": tool_use_id(), "name": call["name"], "input": call["arguments"]}


def usage(answer: Answer) -> dict[str, int]:
    return {"input_tokens": answer.prompt_tokens, "output_tokens": answer.completion_tokens}


def message(
    mid: str,
    model: str,
    text: str,
    calls: list[dict[str, Any]],
    answer: Answer,
    stop: tuple[str, ...],
    method: str | None,
    max_tokens: int | None = None,
) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
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


def event(kind: str, **fields: Any) -> bytes:
    """One Server-Sent Event of a Messages stream: ``event: <type>`` and its JSON data."""
    data = json.dumps({"type": kind, **fields}, ensure_ascii=False)
    return f"event: {kind}\ndata: {data}\n\n".encode()


def error_event(exc: ApiError) -> bytes:
    data = json.dumps(api_error_body(exc), ensure_ascii=False)
    return f"event: error\ndata: {data}\n\n".encode()


def start_event(mid: str, model: str, input_tokens: int = 0) -> bytes:
    return event(
        "message_start",
        message={
            "id": mid,
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": input_tokens, "output_tokens": 0},
        },
    )
