"""OpenAI Responses shapes (``POST /v1/responses``): request checking, answers, stream events.

Pure functions like :mod:`app.core.serving.protocol`: a Responses request becomes the same
:class:`~app.core.serving.protocol.ChatRequest` a chat-completions request does, and the request's
:class:`~app.core.answer.Answer` becomes a ``response`` object, or the stream of events that
builds one (:func:`whole`, :class:`ResponseEvents`). Tandem keeps no responses: ``previous_response_id`` is
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
from typing import Literal

from app.core.answer import Answer
from app.core.engines.base import ChatMessage, Sampling, SamplingError, ToolCall
from app.core.engines.calls import FunctionTool, ToolChoice
from app.core.requests.request import AnswerFormat, ChatRequest
from app.core.serving import bodies as B
from app.core.serving import schemas as S
from app.core.serving.encoding import KEEPALIVE, Served
from app.core.serving.protocol import (
    MAX_IMAGES_PER_REQUEST,
    ApiError,
    ImageParts,
    Limits,
    add_notes,
    dropped_tool,
    extension,
    function_tool,
    image_url_of,
    json_schema_format,
    max_tokens_of,
    named_choice,
    speculation_of,
    wire_call,
    with_documents,
)

_TEXT_PARTS = ("text", "input_text", "output_text")


def _content(
    content: str | list[S.InputPart] | None, where: str, found: ImageParts, documents: list[str] | None = None
) -> tuple[str, list[str]]:
    """An item's text and image names: a string, or text parts, ``input_image`` parts (a
    ``data:`` URL in ``image_url``; ``file_id`` refers to storage this server does not have) and,
    where ``documents`` collects their names, ``input_file`` parts."""
    if isinstance(content, str):
        return content, []
    if content is None:
        raise ApiError(400, f"{where}: expected a string or a list of content parts", param=where)
    parts: list[str] = []
    names: list[str] = []
    for i, part in enumerate(content):
        if part.type == "input_file" and documents is not None:
            at = f"{where}[{i}]"
            documents.append(found.docs.data_url(part.file_data, part.filename, at, part.file_id))
            continue
        if part.type in _TEXT_PARTS and part.text is not None:
            parts.append(part.text)
        elif part.type == "input_image":
            if part.image_url is None and part.file_id is not None:
                raise ApiError(
                    400, f"{where}[{i}].file_id: this server keeps no files; send the image as a data URL"
                )
            names.append(found.url(image_url_of(part.image_url), f"{where}[{i}].image_url"))
        else:
            raise ApiError(
                400,
                f"{where}[{i}]: only text, input_image and input_file parts are supported "
                f"(got {part.type!r})",
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


def input_messages(
    raw: str | list[S.InputItem], instructions: str | None, found: ImageParts | None = None
) -> list[ChatMessage]:
    """The chat messages of a Responses ``input``; its images are decoded into ``found``."""
    found = found if found is not None else ImageParts(MAX_IMAGES_PER_REQUEST)
    out: list[ChatMessage] = []
    if instructions:
        out.append({"role": "system", "content": instructions})
    if isinstance(raw, str):
        out.append({"role": "user", "content": raw})
        return out
    if not raw:
        raise ApiError(400, "input: expected a string or a non-empty list of items", param="input")
    for i, item in enumerate(raw):
        where = f"input[{i}]"
        if item.type == "message":
            if item.role is None:
                raise ApiError(
                    400, f"{where}.role: expected user, system, developer or assistant", param="input"
                )
            documents: list[str] = []
            text, names = _content(item.content, f"{where}.content", found, documents)
            msg: ChatMessage = {"role": "system" if item.role == "developer" else item.role, "content": text}
            if names:
                msg["images"] = found.of_message(names, f"{where}.content", item.role, param="input")
            out.append(with_documents(msg, documents, item.role, "input"))
        elif item.type == "function_call":
            if item.name is None or item.call_id is None:
                raise ApiError(
                    400, f"{where}: a function_call needs call_id, name and arguments", param="input"
                )
            turn = _assistant_turn(out)
            turn["tool_calls"] = [
                *turn.get("tool_calls", []),
                wire_call(item.call_id, item.name, item.arguments),
            ]
        elif item.type == "function_call_output":
            if item.call_id is None:
                raise ApiError(400, f"{where}.call_id: missing", param="input")
            text, names = _content(item.output or "", f"{where}.output", found)
            if names:
                raise ApiError(
                    400, f"{where}.output: images in tool results are not supported", param="input"
                )
            out.append({"role": "tool", "content": text, "tool_call_id": item.call_id})
        elif item.type == "reasoning":
            continue
        else:
            raise ApiError(400, f"{where}: {item.type!r} items are not supported", param="input")
    return out


def tools_of(
    raw: list[S.ResponsesTool] | None, warnings: list[str] | None = None
) -> list[FunctionTool] | None:
    """Function tools as chat tools; a ``namespace`` (Codex groups its sub-agent tools in one)
    gives its function tools by their own names. Hosted tools (web search, file search, computer
    use, ...) run on OpenAI's side: they are left out with a warning."""
    warnings = warnings if warnings is not None else []
    out: list[FunctionTool] = []
    for i, t in enumerate(raw or []):
        if t.type == "namespace":
            if t.tools is None:
                raise ApiError(400, f"tools[{i}].tools: expected a list of tools", param="tools")
            for j, sub in enumerate(t.tools):
                where = f"tools[{i}].tools[{j}]"
                if sub.type == "function":
                    out.append(_function_tool(sub, where))
                else:
                    warnings.append(dropped_tool(where, sub.type))
        elif t.type == "function":
            out.append(_function_tool(t, f"tools[{i}]"))
        else:
            warnings.append(dropped_tool(f"tools[{i}]", t.type))
    return out or None


def _function_tool(t: S.ResponsesTool, where: str) -> FunctionTool:
    if not t.name:
        raise ApiError(400, f"{where}.name: missing", param="tools")
    return function_tool(t.name, t.description, t.parameters or {"type": "object"})


def tool_choice_of(
    raw: Literal["none", "auto", "required"] | S.ResponsesNamedChoice | None,
) -> ToolChoice | None:
    """Chat's tool choice for a Responses one ("none" is None: the request then has no tools)."""
    if raw is None or raw == "none":
        return None
    return raw if isinstance(raw, str) else named_choice(raw.name)


def text_format_of(text: S.TextOptions | None) -> AnswerFormat | None:
    """``text.format`` (text, json_object, or json_schema with ``name`` / ``schema`` / ``strict``
    on the format itself) -> chat's ``response_format``."""
    fmt = text.format if text is not None else None
    if fmt is None or fmt.type == "text":
        return None
    if fmt.type == "json_object":
        return {"type": "json_object"}
    return json_schema_format(fmt.name, fmt.schema_, fmt.strict, "text.format")


def parse_request(body: object, limits: Limits) -> ChatRequest:
    """Check a decoded Responses body; :class:`ApiError` (400) names the offending field."""
    req = S.check(S.ResponsesRequest, body)
    if req.previous_response_id is not None:
        raise ApiError(
            400,
            "previous_response_id: this server keeps no responses; send the whole conversation in input",
            param="previous_response_id",
        )
    found = ImageParts(limits.max_images)
    messages = input_messages(req.input, req.instructions, found)
    max_tokens = max_tokens_of(req.max_output_tokens, "max_output_tokens", limits)
    try:
        sampling = Sampling(
            temperature=0.0 if req.temperature is None else req.temperature,
            top_p=1.0 if req.top_p is None else req.top_p,
            max_tokens=max_tokens,
        )
    except SamplingError as exc:
        raise ApiError(400, str(exc)) from exc
    warnings: list[str] = []
    tools = tools_of(req.tools, warnings)
    tool_choice = tool_choice_of(req.tool_choice)
    if req.tool_choice == "none":
        tools = None
    return ChatRequest(
        messages,
        sampling,
        stream=bool(req.stream),
        tools=tools,
        tool_choice=tool_choice if tools else None,
        model=req.model,
        response_format=text_format_of(req.text),
        images=found.images,
        documents=found.docs.documents,
        speculation=speculation_of(req.tandem),
        warnings=warnings,
    )


# --- answers ----------------------------------------------------------------------------------------
def response_id() -> str:
    return "resp_" + secrets.token_hex(12)


def _item_id(prefix: str) -> str:
    return f"{prefix}_" + secrets.token_hex(12)


def usage(answer: Answer) -> B.ResponsesUsage:
    prompt, completion = answer.prompt_tokens, answer.completion_tokens
    return {
        "input_tokens": prompt,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": completion,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": prompt + completion,
    }


def message_item(
    item_id: str, text: str, status: Literal["in_progress", "completed"] = "completed"
) -> B.MessageItem:
    content: list[B.OutputText] = (
        [{"type": "output_text", "text": text, "annotations": []}] if status == "completed" else []
    )
    return {"type": "message", "id": item_id, "status": status, "role": "assistant", "content": content}


def call_item(
    item_id: str, call: ToolCall, status: Literal["in_progress", "completed"] = "completed"
) -> B.FunctionCallItem:
    args = call.arguments_json() if status == "completed" else ""
    return {
        "type": "function_call",
        "id": item_id,
        "call_id": call.id,
        "name": call.name,
        "arguments": args,
        "status": status,
    }


def response(
    rid: str,
    model: str,
    created: int,
    output: list[B.OutputItem],
    answer: Answer | None,
    method: str | None,
) -> B.ResponseBody:
    """The ``response`` object; ``answer`` None while it is in progress."""
    status: B.ResponseStatus
    incomplete: B.IncompleteDetails | None = None
    if answer is None:
        status = "in_progress"
    elif answer.reason == "length" and not any(i["type"] == "function_call" for i in output):
        status, incomplete = "incomplete", {"reason": "max_output_tokens"}
    else:
        status = "completed"
    body: B.ResponseBody = {
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


def output_of(text: str, calls: list[ToolCall]) -> list[B.OutputItem]:
    out: list[B.OutputItem] = [message_item(_item_id("msg"), text)] if text else []
    return out + [call_item(_item_id("fc"), c) for c in calls]


def whole(
    served: Served, req: ChatRequest, text: str, calls: list[ToolCall], answer: Answer
) -> B.ResponseBody:
    """The whole response (``stream`` false), Tandem's warnings included."""
    body = response(
        response_id(),
        served.model_id,
        int(time.time()),
        output_of(text, calls),
        answer,
        served.speculation.method,
    )
    if "tandem" in body:
        add_notes(body["tandem"], req)
    return body


class ResponseEvents:
    """The events of one streamed response, in order, each with its ``sequence_number``: feed it
    the answer's pieces (:meth:`text`, :meth:`call`) and end with :meth:`finish` or :meth:`fail`."""

    def __init__(self, served: Served, req: ChatRequest) -> None:
        self.req = req
        self.rid = response_id()
        self.model = served.model_id
        self.method = served.speculation.method
        self.created = int(time.time())
        self.output: list[B.OutputItem] = []
        self._seq = 0
        self._text_id: str | None = None
        self._text: list[str] = []

    def _next(self) -> int:
        """The next event's ``sequence_number``."""
        self._seq += 1
        return self._seq - 1

    @staticmethod
    def _sse(event: B.ResponseStreamEvent) -> bytes:
        data = json.dumps(event, ensure_ascii=False)
        return f"event: {event['type']}\ndata: {data}\n\n".encode()

    def _now(self, answer: Answer | None) -> B.ResponseBody:
        body = response(self.rid, self.model, self.created, self.output, answer, self.method)
        if answer is not None and "tandem" in body:
            add_notes(body["tandem"], self.req)
        return body

    def keepalive(self) -> bytes:
        return KEEPALIVE

    def start(self) -> list[bytes]:
        return [
            self._sse(
                {"type": "response.created", "sequence_number": self._next(), "response": self._now(None)}
            ),
            self._sse(
                {"type": "response.in_progress", "sequence_number": self._next(), "response": self._now(None)}
            ),
        ]

    def text(self, piece: str) -> list[bytes]:
        out: list[bytes] = []
        index = len(self.output)
        if self._text_id is None:
            item_id = self._text_id = _item_id("msg")
            item = message_item(item_id, "", "in_progress")
            out.append(
                self._sse(
                    {
                        "type": "response.output_item.added",
                        "sequence_number": self._next(),
                        "output_index": index,
                        "item": item,
                    }
                )
            )
            out.append(
                self._sse(
                    {
                        "type": "response.content_part.added",
                        "sequence_number": self._next(),
                        "item_id": item_id,
                        "output_index": index,
                        "content_index": 0,
                        "part": {"type": "output_text", "text": "", "annotations": []},
                    }
                )
            )
        self._text.append(piece)
        out.append(
            self._sse(
                {
                    "type": "response.output_text.delta",
                    "sequence_number": self._next(),
                    "item_id": self._text_id,
                    "output_index": index,
                    "content_index": 0,
                    "delta": piece,
                    "logprobs": [],
                }
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
            self._sse(
                {
                    "type": "response.output_text.done",
                    "sequence_number": self._next(),
                    "item_id": item_id,
                    "output_index": index,
                    "content_index": 0,
                    "text": text,
                    "logprobs": [],
                }
            ),
            self._sse(
                {
                    "type": "response.content_part.done",
                    "sequence_number": self._next(),
                    "item_id": item_id,
                    "output_index": index,
                    "content_index": 0,
                    "part": item["content"][0],
                }
            ),
            self._sse(
                {
                    "type": "response.output_item.done",
                    "sequence_number": self._next(),
                    "output_index": index,
                    "item": item,
                }
            ),
        ]
        self.output.append(item)
        return out

    def call(self, call: ToolCall) -> list[bytes]:
        out = self._close_text()
        index, item_id = len(self.output), _item_id("fc")
        item = call_item(item_id, call)
        args = item["arguments"]
        out += [
            self._sse(
                {
                    "type": "response.output_item.added",
                    "sequence_number": self._next(),
                    "output_index": index,
                    "item": call_item(item_id, call, "in_progress"),
                }
            ),
            self._sse(
                {
                    "type": "response.function_call_arguments.delta",
                    "sequence_number": self._next(),
                    "item_id": item_id,
                    "output_index": index,
                    "delta": args,
                }
            ),
            self._sse(
                {
                    "type": "response.function_call_arguments.done",
                    "sequence_number": self._next(),
                    "item_id": item_id,
                    "output_index": index,
                    "name": item["name"],
                    "arguments": args,
                }
            ),
            self._sse(
                {
                    "type": "response.output_item.done",
                    "sequence_number": self._next(),
                    "output_index": index,
                    "item": item,
                }
            ),
        ]
        self.output.append(item)
        return out

    def finish(self, answer: Answer) -> list[bytes]:
        out = self._close_text()
        final = self._now(answer)
        kind: Literal["response.completed", "response.incomplete"] = (
            "response.incomplete" if final["status"] == "incomplete" else "response.completed"
        )
        return [*out, self._sse({"type": kind, "sequence_number": self._next(), "response": final})]

    def fail(self, exc: ApiError, answer: Answer) -> list[bytes]:
        failed = self._now(answer)
        failed["status"] = "failed"
        failed["error"] = {"code": exc.code or exc.type, "message": exc.message}
        return [
            self._sse(
                {
                    "type": "error",
                    "sequence_number": self._next(),
                    "code": exc.code or exc.type,
                    "message": exc.message,
                    "param": exc.param,
                }
            ),
            self._sse({"type": "response.failed", "sequence_number": self._next(), "response": failed}),
        ]
