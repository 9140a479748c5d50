"""OpenAI Responses shapes (``POST /v1/responses``): request checking, answers, stream events.

Pure functions like :mod:`app.core.serving.protocol`: a Responses request becomes the same
:class:`~app.core.serving.protocol.ChatRequest` a chat-completions request does, and the request's
:class:`~app.core.answer.Answer` becomes a ``response`` object, or the stream of events that
builds one (:class:`ResponseEvents`). Tandem keeps no responses: ``previous_response_id`` is
refused, a client sends the whole conversation in ``input`` (``store`` is accepted and ignored).

The mapping:

* ``instructions`` -> a leading system message; ``input`` a string -> one user message;
  message items (``role`` user / system / developer / assistant, text or ``input_text`` /
  ``output_text`` parts) -> messages; a ``function_call`` item -> a tool call of the assistant
  turn; a ``function_call_output`` item -> a ``tool`` message; ``reasoning`` items are dropped;
* function ``tools`` (``name``, ``description``, ``parameters``) -> chat tools; ``tool_choice``
  passes through in chat's shape; a ``namespace`` gives its function tools; hosted tools (web
  search, files, ...) are left out with a warning (``tandem.warnings``);
* the answer: a ``message`` item with the text (when there is text), then one ``function_call``
  item per call; ``status`` ``incomplete`` (``max_output_tokens``) at the token limit.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from app.core.answer import Answer
from app.core.engines.base import ChatMessage, Sampling, SamplingError, check_max_tokens
from app.core.serving.protocol import (
    MAX_IMAGES_PER_REQUEST,
    ApiError,
    ChatRequest,
    ImageParts,
    Limits,
    call_id,
    dropped_tool,
    extension,
    image_url_of,
    json_schema_format,
    speculation_of,
)

_TEXT_PARTS = ("text", "input_text", "output_text")


def _number(body: dict[str, Any], key: str, default: float) -> float:
    value = body.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ApiError(400, f"{key}: expected a number, got {value!r}", param=key)
    return float(value)


def _content(content: Any, where: str, found: ImageParts) -> tuple[str, list[str]]:
    """An item's text and image names: a string, or text parts and ``input_image`` parts (a
    ``data:`` URL in ``image_url``; ``file_id`` refers to storage this server does not have)."""
    if isinstance(content, str):
        return content, []
    if not isinstance(content, list):
        raise ApiError(400, f"{where}: expected a string or a list of content parts", param=where)
    parts: list[str] = []
    names: list[str] = []
    for i, part in enumerate(content):
        kind = part.get("type") if isinstance(part, dict) else type(part).__name__
        if kind in _TEXT_PARTS and isinstance(part.get("text"), str):
            parts.append(part["text"])
        elif kind == "input_image":
            if part.get("image_url") is None and part.get("file_id") is not None:
                raise ApiError(
                    400, f"{where}[{i}].file_id: this server keeps no files; send the image as a data URL"
                )
            names.append(found.url(image_url_of(part), f"{where}[{i}].image_url"))
        else:
            raise ApiError(
                400,
                f"{where}[{i}]: only text and input_image parts are supported (got {kind!r})",
                param=where,
            )
    return "".join(parts), names


def _assistant_turn(out: list[ChatMessage]) -> ChatMessage:
    """The assistant message a function_call item belongs to (the last one, or a new one)."""
    if out and out[-1]["role"] == "assistant":
        return out[-1]
    msg: ChatMessage = {"role": "assistant", "content": ""}
    out.append(msg)
    return msg


def input_messages(raw: Any, instructions: Any, found: ImageParts | None = None) -> list[ChatMessage]:
    """The chat messages of a Responses ``input``; its images are decoded into ``found``."""
    found = found if found is not None else ImageParts(MAX_IMAGES_PER_REQUEST)
    out: list[ChatMessage] = []
    if instructions is not None:
        if not isinstance(instructions, str):
            raise ApiError(400, "instructions: expected a string", param="instructions")
        if instructions:
            out.append({"role": "system", "content": instructions})
    if isinstance(raw, str):
        out.append({"role": "user", "content": raw})
        return out
    if not isinstance(raw, list) or not raw:
        raise ApiError(400, "input: expected a string or a non-empty list of items", param="input")
    for i, item in enumerate(raw):
        where = f"input[{i}]"
        if not isinstance(item, dict):
            raise ApiError(400, f"{where}: expected an object", param="input")
        kind = item.get("type", "message")
        if kind == "message":
            role = item.get("role")
            if role not in ("user", "system", "developer", "assistant"):
                raise ApiError(
                    400, f"{where}.role: expected user, system, developer or assistant", param="input"
                )
            text, names = _content(item.get("content"), f"{where}.content", found)
            msg: ChatMessage = {"role": "system" if role == "developer" else role, "content": text}
            if names:
                msg["images"] = found.of_message(names, f"{where}.content", role, param="input")
            out.append(msg)
        elif kind == "function_call":
            name, args = item.get("name"), item.get("arguments", "{}")
            cid = item.get("call_id")
            if not isinstance(name, str) or not isinstance(args, str) or not isinstance(cid, str):
                raise ApiError(
                    400, f"{where}: a function_call needs call_id, name and arguments", param="input"
                )
            turn = _assistant_turn(out)
            call = {"id": cid, "type": "function", "function": {"name": name, "arguments": args}}
            turn["tool_calls"] = [*turn.get("tool_calls", []), call]
        elif kind == "function_call_output":
            cid, output = item.get("call_id"), item.get("output")
            if not isinstance(cid, str):
                raise ApiError(400, f"{where}.call_id: missing", param="input")
            text, names = _content(output or "", f"{where}.output", found)
            if names:
                raise ApiError(
                    400, f"{where}.output: images in tool results are not supported", param="input"
                )
            out.append({"role": "tool", "content": text, "tool_call_id": cid})
        elif kind == "reasoning":
            continue
        else:
            raise ApiError(400, f"{where}: {kind!r} items are not supported", param="input")
    return out


def tools_of(raw: Any, warnings: list[str] | None = None) -> list[dict[str, Any]] | None:
    """Function tools as chat tools; a ``namespace`` (Codex groups its sub-agent tools in one)
    gives its function tools by their own names. Hosted tools (web search, file search, computer
    use, ...) run on OpenAI's side: they are left out with a warning."""
    warnings = warnings if warnings is not None else []
    if raw is None or raw == []:
        return None
    if not isinstance(raw, list):
        raise ApiError(400, "tools: expected a list of tools", param="tools")
    out: list[dict[str, Any]] = []
    for i, t in enumerate(raw):
        kind = t.get("type") if isinstance(t, dict) else None
        if not isinstance(t, dict) or not isinstance(kind, str):
            raise ApiError(400, f"tools[{i}]: expected a tool object with a type", param="tools")
        if kind == "namespace":
            inner = t.get("tools")
            if not isinstance(inner, list):
                raise ApiError(400, f"tools[{i}].tools: expected a list of tools", param="tools")
            for j, sub in enumerate(inner):
                where = f"tools[{i}].tools[{j}]"
                if isinstance(sub, dict) and sub.get("type") == "function":
                    out.append(_function_tool(sub, where))
                else:
                    sub_kind = sub.get("type") if isinstance(sub, dict) else None
                    warnings.append(dropped_tool(where, sub_kind))
        elif kind == "function":
            out.append(_function_tool(t, f"tools[{i}]"))
        else:
            warnings.append(dropped_tool(f"tools[{i}]", kind))
    return out or None


def _function_tool(t: dict[str, Any], where: str) -> dict[str, Any]:
    if not isinstance(t.get("name"), str) or not t["name"]:
        raise ApiError(400, f"{where}.name: missing", param="tools")
    fn: dict[str, Any] = {"name": t["name"], "parameters": t.get("parameters") or {"type": "object"}}
    if isinstance(t.get("description"), str):
        fn["description"] = t["description"]
    return {"type": "function", "function": fn}


def tool_choice_of(raw: Any) -> Any:
    if raw is None or raw in ("auto", "required", "none"):
        return raw
    if isinstance(raw, dict) and raw.get("type") == "function" and isinstance(raw.get("name"), str):
        return {"type": "function", "function": {"name": raw["name"]}}
    raise ApiError(400, "tool_choice: expected auto, required, none or a function", param="tool_choice")


def text_format_of(text: Any) -> dict[str, Any] | None:
    """``text.format`` (text, json_object, or json_schema with ``name`` / ``schema`` / ``strict``
    on the format itself) -> chat's ``response_format``."""
    if text is None:
        return None
    fmt = text.get("format") if isinstance(text, dict) else "?"
    kind = fmt.get("type") if isinstance(fmt, dict) else None
    if fmt is None or kind == "text":
        return None
    if kind == "json_object":
        return {"type": "json_object"}
    if kind == "json_schema":
        assert isinstance(fmt, dict)
        return json_schema_format(fmt.get("name"), fmt.get("schema"), fmt.get("strict"), "text.format")
    raise ApiError(400, "text.format: expected type text, json_object or json_schema", param="text.format")


def parse_request(body: Any, limits: Limits) -> ChatRequest:
    """Check a decoded Responses body; :class:`ApiError` (400) names the offending field."""
    if not isinstance(body, dict):
        raise ApiError(400, "the request body must be a JSON object")
    if body.get("previous_response_id") is not None:
        raise ApiError(
            400,
            "previous_response_id: this server keeps no responses; send the whole conversation in input",
            param="previous_response_id",
        )
    found = ImageParts(limits.max_images)
    messages = input_messages(body.get("input"), body.get("instructions"), found)
    raw_max = body.get("max_output_tokens")
    if raw_max is None:
        max_tokens = limits.default
    else:
        try:
            max_tokens = check_max_tokens(raw_max)
        except SamplingError as exc:
            raise ApiError(400, f"max_output_tokens: {exc}", param="max_output_tokens") from exc
        if max_tokens > limits.max_tokens:
            raise ApiError(
                400,
                f"max_output_tokens: {max_tokens} is more than this server allows ({limits.max_tokens})",
                param="max_output_tokens",
            )
    try:
        sampling = Sampling(
            temperature=_number(body, "temperature", 0.0),
            top_p=_number(body, "top_p", 1.0),
            max_tokens=max_tokens,
        )
    except SamplingError as exc:
        raise ApiError(400, str(exc)) from exc
    model = body.get("model")
    if model is not None and not isinstance(model, str):
        raise ApiError(400, "model: expected a string", param="model")
    warnings: list[str] = []
    tools = tools_of(body.get("tools"), warnings)
    tool_choice = tool_choice_of(body.get("tool_choice"))
    if tool_choice == "none":
        tools = None
    return ChatRequest(
        messages,
        sampling,
        stream=bool(body.get("stream", False)),
        tools=tools,
        tool_choice=tool_choice if tools else None,
        model=model,
        response_format=text_format_of(body.get("text")),
        images=found.images,
        speculation=speculation_of(body),
        warnings=warnings,
    )


# --- answers ----------------------------------------------------------------------------------------
def response_id() -> str:
    return "resp_" + secrets.token_hex(12)


def _item_id(prefix: str) -> str:
    return f"{prefix}_" + secrets.token_hex(12)


def usage(answer: Answer) -> dict[str, Any]:
    prompt, completion = answer.prompt_tokens, answer.completion_tokens
    return {
        "input_tokens": prompt,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": completion,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": prompt + completion,
    }


def message_item(item_id: str, text: str, status: str = "completed") -> dict[str, Any]:
    content = [{"type": "output_text", "text": text, "annotations": []}] if status == "completed" else []
    return {"type": "message", "id": item_id, "status": status, "role": "assistant", "content": content}


def call_item(item_id: str, call: dict[str, Any], status: str = "completed") -> dict[str, Any]:
    args = json.dumps(call["arguments"], ensure_ascii=False) if status == "completed" else ""
    return {
        "type": "function_call",
        "id": item_id,
        "call_id": call.get("call_id") or call_id(),
        "name": call["name"],
        "arguments": args,
        "status": status,
    }


def response(
    rid: str,
    model: str,
    created: int,
    output: list[dict[str, Any]],
    answer: Answer | None,
    method: str | None,
) -> dict[str, Any]:
    """The ``response`` object; ``answer`` None while it is in progress."""
    if answer is None:
        status, incomplete = "in_progress", None
    elif answer.reason == "length" and not any(i["type"] == "function_call" for i in output):
        status, incomplete = "incomplete", {"reason": "max_output_tokens"}
    else:
        status, incomplete = "completed", None
    body: dict[str, Any] = {
        "id": rid,
        "object": "response",
        "created_at": created,
        "status": status,
        "error": None,
        "incomplete_details": incomplete,
        "model": model,
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": None if answer is None else usage(answer),
    }
    if answer is not None:
        body["tandem"] = extension(answer, method)
    return body


def output_of(text: str, calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = [message_item(_item_id("msg"), text)] if text else []
    return out + [call_item(_item_id("fc"), c) for c in calls]


class ResponseEvents:
    """The events of one streamed response, in order, each with its ``sequence_number``: feed it
    the answer's pieces (:meth:`text`, :meth:`call`) and end with :meth:`finish` or :meth:`fail`."""

    def __init__(self, model: str, method: str | None, warnings: list[str] | None = None) -> None:
        self.warnings = warnings or []
        self.rid = response_id()
        self.model = model
        self.method = method
        self.created = int(time.time())
        self.output: list[dict[str, Any]] = []
        self._seq = 0
        self._text_id: str | None = None
        self._text: list[str] = []

    def _event(self, kind: str, **fields: Any) -> bytes:
        data = json.dumps({"type": kind, "sequence_number": self._seq, **fields}, ensure_ascii=False)
        self._seq += 1
        return f"event: {kind}\ndata: {data}\n\n".encode()

    def _now(self, answer: Answer | None) -> dict[str, Any]:
        body = response(self.rid, self.model, self.created, self.output, answer, self.method)
        if answer is not None and self.warnings:
            body["tandem"]["warnings"] = list(self.warnings)
        return body

    def start(self) -> list[bytes]:
        return [
            self._event("response.created", response=self._now(None)),
            self._event("response.in_progress", response=self._now(None)),
        ]

    def text(self, piece: str) -> list[bytes]:
        out: list[bytes] = []
        index = len(self.output)
        if self._text_id is None:
            self._text_id = _item_id("msg")
            item = message_item(self._text_id, "", "in_progress")
            out.append(self._event("response.output_item.added", output_index=index, item=item))
            part = {"type": "output_text", "text": "", "annotations": []}
            out.append(
                self._event(
                    "response.content_part.added",
                    item_id=self._text_id,
                    output_index=index,
                    content_index=0,
                    part=part,
                )
            )
        self._text.append(piece)
        out.append(
            self._event(
                "response.output_text.delta",
                item_id=self._text_id,
                output_index=index,
                content_index=0,
                delta=piece,
                logprobs=[],
            )
        )
        return out

    def _close_text(self) -> list[bytes]:
        if self._text_id is None:
            return []
        item_id, text, index = self._text_id, "".join(self._text), len(self.output)
        self._text_id, self._text = None, []
        item = message_item(item_id, text)
        out = [
            self._event(
                "response.output_text.done",
                item_id=item_id,
                output_index=index,
                content_index=0,
                text=text,
                logprobs=[],
            ),
            self._event(
                "response.content_part.done",
                item_id=item_id,
                output_index=index,
                content_index=0,
                part=item["content"][0],
            ),
            self._event("response.output_item.done", output_index=index, item=item),
        ]
        self.output.append(item)
        return out

    def call(self, call: dict[str, Any]) -> list[bytes]:
        out = self._close_text()
        index, item_id = len(self.output), _item_id("fc")
        item = call_item(item_id, call)
        added = {**item, "arguments": "", "status": "in_progress"}
        args = item["arguments"]
        out += [
            self._event("response.output_item.added", output_index=index, item=added),
            self._event(
                "response.function_call_arguments.delta", item_id=item_id, output_index=index, delta=args
            ),
            self._event(
                "response.function_call_arguments.done",
                item_id=item_id,
                output_index=index,
                name=item["name"],
                arguments=args,
            ),
            self._event("response.output_item.done", output_index=index, item=item),
        ]
        self.output.append(item)
        return out

    def finish(self, answer: Answer) -> list[bytes]:
        out = self._close_text()
        final = self._now(answer)
        kind = "response.incomplete" if final["status"] == "incomplete" else "response.completed"
        return [*out, self._event(kind, response=final)]

    def fail(self, exc: ApiError, answer: Answer) -> list[bytes]:
        failed = self._now(answer)
        failed["status"] = "failed"
        failed["error"] = {"code": exc.code or exc.type, "message": exc.message}
        return [
            self._event("error", code=exc.code or exc.type, message=exc.message, param=exc.param),
            self._event("response.failed", response=failed),
        ]
