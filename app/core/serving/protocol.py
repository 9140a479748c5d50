"""OpenAI chat-completions shapes: request checking, answers, chunks, errors, speculation figures.

Pure functions and dataclasses (no HTTP, no engine), so the rules are tested on their own and the
HTTP layer (:mod:`app.core.serving.api`) only moves bytes.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from app.core import images as img
from app.core.answer import Answer
from app.core.engines.base import MAX_NEW_TOKENS, ChatMessage, Sampling, SamplingError, check_max_tokens
from app.core.speculative import json_rate, per_request

ROLES = ("system", "developer", "user", "assistant", "tool")


class ApiError(Exception):
    """An error answered in OpenAI's shape ``{"error": {"message", "type", "param", "code"}}``."""

    def __init__(
        self,
        status: int,
        message: str,
        type_: str = "invalid_request_error",
        param: str | None = None,
        code: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.type = type_
        self.param = param
        self.code = code
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        return error_body(self.message, self.type, self.param, self.code)


def error_body(message: str, type_: str, param: str | None = None, code: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": type_, "param": param, "code": code}}


#: the most images one request may carry unless its server's :class:`Limits` say otherwise
MAX_IMAGES_PER_REQUEST = 16


@dataclass(frozen=True)
class Limits:
    """Bounds of one request."""

    #: a body's limit: room for a few large images (20 MB each as files, a third more in base64)
    max_body_bytes: int = 64_000_000
    #: the most images one request may carry (all its messages together)
    max_images: int = MAX_IMAGES_PER_REQUEST
    #: the largest max_tokens a request may ask for
    max_tokens: int = 8192
    #: max_tokens when a request names none; None: the answer runs until it ends, the context is
    #: full or it reaches ``max_tokens`` (what agents expect: their requests often name none)
    default_max_tokens: int | None = None

    def __post_init__(self) -> None:
        check_max_tokens(self.max_tokens)
        if self.default_max_tokens is not None and not 1 <= self.default_max_tokens <= self.max_tokens:
            raise ValueError("default_max_tokens must be between 1 and max_tokens")
        if self.max_tokens > MAX_NEW_TOKENS:
            raise ValueError("max_tokens is too large")

    @property
    def default(self) -> int:
        """The answer's token budget when a request names none."""
        return self.max_tokens if self.default_max_tokens is None else self.default_max_tokens


@dataclass
class ChatRequest:
    messages: list[ChatMessage]
    sampling: Sampling
    stream: bool = False
    include_usage: bool = False
    tools: list[dict[str, Any]] | None = None
    tool_choice: Any = None
    model: str | None = None
    #: a JSON object or schema the answer must follow, in chat's shape (:func:`response_format_of`)
    response_format: dict[str, Any] | None = None
    #: ``tandem.speculation`` of the request: "auto" (what is loaded), "off" or a method name
    speculation: str = "auto"
    #: the request's images by stored name (the ``images`` of its messages name them until the
    #: server writes them to files and puts the paths there instead)
    images: dict[str, img.CheckedImage] = field(default_factory=dict)
    #: what the server left out and why (hosted tools it cannot run), sent back with the answer
    warnings: list[str] = field(default_factory=list)
    #: how tool calls are read out of the answer (set by :func:`~app.core.serving.shaping.shape`)
    call_style: str | None = None
    #: the prompt's size in the model's tokens, when the server measured it before answering
    prompt_tokens: int | None = None


class ImageParts:
    """The images of one request, decoded and checked as its messages are read (any API shape):
    at most ``limit`` of them, each one a PNG/JPEG/WebP/GIF/BMP within the file limits; anything
    else is a 400 naming the part."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.count = 0
        self.images: dict[str, img.CheckedImage] = {}

    def _add(self, checked: img.CheckedImage, where: str) -> str:
        self.count += 1
        if self.count > self.limit:
            raise ApiError(
                400,
                f"{where}: more than {self.limit} images in one request",
                param=where,
                code="too_many_images",
            )
        self.images.setdefault(checked.name, checked)
        return checked.name

    def url(self, url: Any, where: str) -> str:
        """An OpenAI image URL (a ``data:`` URL; other URLs are refused: nothing is fetched)."""
        if not isinstance(url, str) or not url:
            raise ApiError(400, f"{where}: expected an image URL string", param=where)
        try:
            return self._add(img.decode_data_url(url), where)
        except img.ImageError as exc:
            raise ApiError(400, f"{where}: {exc}", param=where, code="invalid_image") from None

    def of_message(
        self, names: list[str], where: str, role: str = "user", param: str | None = None
    ) -> list[str]:
        """One message's image names: a user message's, at most
        :data:`~app.core.images.MAX_IMAGES_PER_MESSAGE` (``param`` names the field in errors,
        ``where`` by default)."""
        if role != "user":
            raise ApiError(400, f"{where}: images are only taken in user messages", param=param or where)
        try:
            img.check_count(len(names))
        except img.ImageError as exc:
            raise ApiError(400, f"{where}: {exc}", param=where, code="too_many_images") from None
        return names

    def base64(self, data: Any, media_type: Any, where: str) -> str:
        """Anthropic's ``{"type": "base64", "media_type", "data"}`` source."""
        if not isinstance(data, str) or not isinstance(media_type, str):
            raise ApiError(400, f"{where}: a base64 source needs media_type and data strings", param=where)
        return self.url(f"data:{media_type};base64,{data}", where)


def image_url_of(part: dict[str, Any]) -> Any:
    """The URL of an OpenAI ``image_url`` part (``{"image_url": {"url"}}`` or a bare string) or of
    a Responses ``input_image`` part (``{"image_url": "..."}``)."""
    ref = part.get("image_url")
    return ref.get("url") if isinstance(ref, dict) else ref


def _number(body: dict[str, Any], key: str, default: float) -> float:
    value = body.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ApiError(400, f"{key}: expected a number, got {value!r}", param=key)
    return float(value)


def _content_of(content: Any, where: str, found: ImageParts) -> tuple[str, list[str]]:
    """A message's text and image names: a string, or a list of ``text`` and ``image_url`` parts."""
    if content is None or isinstance(content, str):
        return content or "", []
    if isinstance(content, list):
        parts: list[str] = []
        names: list[str] = []
        for i, part in enumerate(content):
            kind = part.get("type") if isinstance(part, dict) else type(part).__name__
            at = f"{where}[{i}]"
            if kind == "text" and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif kind == "image_url":
                names.append(found.url(image_url_of(part), f"{at}.image_url"))
            else:
                raise ApiError(
                    400, f"{at}: only text and image_url parts are supported (got {kind!r})", param=where
                )
        return "".join(parts), names
    raise ApiError(400, f"{where}: expected a string or a list of content parts", param=where)


def _messages(raw: Any, found: ImageParts) -> list[ChatMessage]:
    if not isinstance(raw, list) or not raw:
        raise ApiError(400, "messages: expected a non-empty list of messages", param="messages")
    out: list[ChatMessage] = []
    for i, m in enumerate(raw):
        where = f"messages[{i}]"
        if not isinstance(m, dict):
            raise ApiError(400, f"{where}: expected an object", param=where)
        role = m.get("role")
        if role not in ROLES:
            raise ApiError(
                400, f"{where}.role: expected one of {', '.join(ROLES)}, got {role!r}", param=where
            )
        text, names = _content_of(m.get("content"), f"{where}.content", found)
        msg: ChatMessage = {"role": "system" if role == "developer" else role, "content": text}
        if names:
            msg["images"] = found.of_message(names, f"{where}.content", role, param=where)
        if m.get("tool_calls") is not None:
            msg["tool_calls"] = m["tool_calls"]
        if m.get("tool_call_id") is not None:
            msg["tool_call_id"] = m["tool_call_id"]
        if m.get("name") is not None:
            msg["name"] = m["name"]
        out.append(msg)
    return out


def _tools(body: dict[str, Any], warnings: list[str]) -> list[dict[str, Any]] | None:
    tools = body.get("tools")
    if tools is None or tools == []:
        return None
    if not isinstance(tools, list):
        raise ApiError(400, "tools: expected a list of tools", param="tools")
    out: list[dict[str, Any]] = []
    for i, t in enumerate(tools):
        if not isinstance(t, dict):
            raise ApiError(400, f"tools[{i}]: expected a tool object", param="tools")
        if t.get("type") != "function":
            warnings.append(dropped_tool(f"tools[{i}]", t.get("type")))
            continue
        fn = t.get("function")
        if not isinstance(fn, dict):
            raise ApiError(
                400, f"tools[{i}]: expected {{'type': 'function', 'function': {{...}}}}", param="tools"
            )
        if not isinstance(fn.get("name"), str) or not fn["name"]:
            raise ApiError(400, f"tools[{i}].function.name: missing", param="tools")
        out.append(t)
    return out or None


def dropped_tool(where: str, kind: Any) -> str:
    """The warning for a tool the server leaves out: one the client's own server would run
    (web search, file search, computer use, ...), which a local model cannot."""
    return f"{where}: the {kind!r} tool runs on the provider's servers; Tandem cannot run it and left it out"


def json_schema_format(name: Any, schema: Any, strict: Any, param: str) -> dict[str, Any]:
    """Chat's ``{"type": "json_schema", "json_schema": {...}}`` after checking its fields."""
    if not isinstance(schema, dict):
        raise ApiError(400, f"{param}: a json_schema format needs a 'schema' object", param=param)
    if name is not None and not isinstance(name, str):
        raise ApiError(400, f"{param}: 'name' must be a string", param=param)
    spec: dict[str, Any] = {"name": name or "response", "schema": schema}
    if strict is not None:
        spec["strict"] = bool(strict)
    return {"type": "json_schema", "json_schema": spec}


def response_format_of(raw: Any, param: str = "response_format") -> dict[str, Any] | None:
    """A chat ``response_format``: None for free text (absent or ``text``), else a JSON object or
    a JSON schema, which the engine enforces (llama.cpp compiles it to a grammar)."""
    kind = raw.get("type") if isinstance(raw, dict) else None
    if raw is None or kind == "text":
        return None
    if kind == "json_object":
        return {"type": "json_object"}
    if kind == "json_schema":
        spec = raw.get("json_schema")
        if not isinstance(spec, dict):
            raise ApiError(400, f"{param}.json_schema: expected an object", param=param)
        return json_schema_format(spec.get("name"), spec.get("schema"), spec.get("strict"), param)
    raise ApiError(400, f"{param}: expected type text, json_object or json_schema", param=param)


def speculation_of(body: dict[str, Any]) -> str:
    """The request's ``tandem: {"speculation": ...}`` ("auto" when absent)."""
    ext = body.get("tandem")
    if ext is None:
        return "auto"
    value = ext.get("speculation", "auto") if isinstance(ext, dict) else None
    if not isinstance(value, str) or not value.strip():
        raise ApiError(
            400, 'tandem.speculation: expected "off", "auto" or a method name', param="tandem.speculation"
        )
    return value.strip().lower()


def check_speculation(requested: str, loaded: str | None, offered: Sequence[str] = ()) -> None:
    """Honour ``tandem.speculation`` or refuse it, by :func:`app.core.speculative.per_request.honoured`
    (the rule the chat's per-conversation choice follows too): a request may ask for what runs,
    "auto", the loaded method, "off" when none is loaded, or what the server's pool ``offered``."""
    if per_request.honoured(requested, loaded, offered):
        return
    running = per_request.running(loaded)
    choices = ", ".join(repr(c) for c in dict.fromkeys([per_request.AUTO, running, *offered]))
    raise ApiError(
        400,
        f"tandem.speculation: {requested!r} cannot be honoured: this server runs "
        f"{'no speculation' if loaded is None else repr(loaded)} and can answer with {choices}",
        param="tandem.speculation",
        code="speculation_unavailable",
    )


def parse_request(body: Any, limits: Limits) -> ChatRequest:
    """Check a decoded request body; :class:`ApiError` (400) names the offending field."""
    if not isinstance(body, dict):
        raise ApiError(400, "the request body must be a JSON object")
    found = ImageParts(limits.max_images)
    messages = _messages(body.get("messages"), found)
    if body.get("n", 1) != 1:
        raise ApiError(400, "n: only 1 choice per request is supported", param="n")
    raw_max = body.get("max_completion_tokens", body.get("max_tokens"))
    param = "max_completion_tokens" if "max_completion_tokens" in body else "max_tokens"
    if raw_max is None:
        max_tokens = limits.default
    else:
        try:
            max_tokens = check_max_tokens(raw_max)
        except SamplingError as exc:
            raise ApiError(400, f"{param}: {exc}", param=param, code="invalid_value") from exc
        if max_tokens > limits.max_tokens:
            raise ApiError(
                400,
                f"{param}: {max_tokens} is more than this server allows ({limits.max_tokens})",
                param=param,
                code="invalid_value",
            )
    stop = body.get("stop")
    if stop is None:
        stops: tuple[str, ...] = ()
    elif isinstance(stop, str):
        stops = (stop,)
    elif isinstance(stop, list) and all(isinstance(s, str) for s in stop) and len(stop) <= 4:
        stops = tuple(stop)
    else:
        raise ApiError(400, "stop: expected a string or a list of up to 4 strings", param="stop")
    seed = body.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ApiError(400, f"seed: expected a whole number, got {seed!r}", param="seed")
    top_k = body.get("top_k", 0)
    try:
        sampling = Sampling(
            temperature=_number(body, "temperature", 0.0),
            top_p=_number(body, "top_p", 1.0),
            top_k=top_k,
            max_tokens=max_tokens,
            seed=seed,
            stop=stops,
            repeat_penalty=_number(body, "repeat_penalty", 1.0),
        )
    except SamplingError as exc:
        raise ApiError(400, str(exc)) from exc
    stream_options = body.get("stream_options") or {}
    model = body.get("model")
    if model is not None and not isinstance(model, str):
        raise ApiError(400, "model: expected a string", param="model")
    warnings: list[str] = []
    tools = _tools(body, warnings)
    tool_choice = body.get("tool_choice")
    if tool_choice == "none":
        tools = None
    return ChatRequest(
        messages,
        sampling,
        stream=bool(body.get("stream", False)),
        include_usage=isinstance(stream_options, dict) and bool(stream_options.get("include_usage")),
        tools=tools,
        tool_choice=tool_choice if tools else None,
        model=model,
        response_format=response_format_of(body.get("response_format")),
        images=found.images,
        speculation=speculation_of(body),
        warnings=warnings,
    )


# --- answers ----------------------------------------------------------------------------------------
def completion_id() -> str:
    return "chatcmpl-" + secrets.token_hex(12)


def call_id() -> str:
    return "call_" + secrets.token_hex(12)


def openai_tool_call(call: dict[str, Any], index: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": call_id(),
        "type": "function",
        "function": {"name": call["name"], "arguments": json.dumps(call["arguments"], ensure_ascii=False)},
    }
    if index is not None:
        out["index"] = index
    return out


def finish_reason(answer: Answer, has_calls: bool) -> str:
    if has_calls:
        return "tool_calls"
    return "length" if answer.reason == "length" else "stop"


def usage(answer: Answer) -> dict[str, int]:
    prompt, completion = answer.prompt_tokens, answer.completion_tokens
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def speculation_figures(answer: Answer, method: str | None) -> dict[str, Any]:
    """The request's speculation figures (Tandem's names, plus vLLM's ``num_*`` counters), from
    the answer's figures (:mod:`app.core.answer`) and the shared definitions of
    :mod:`app.core.speculative.rounds`: a round whose draft count the engine could not say
    (mlx-vlm) is a drafting round, and makes the acceptance unknown."""
    drafting = answer.drafting_rounds
    acceptance = answer.acceptance_rate
    mal = answer.mean_accepted_length
    return {
        "enabled": method is not None,
        "method": method,
        "drafted": answer.drafted_total,
        "accepted": answer.accepted_total,
        "rounds": answer.round_count,
        "drafting_rounds": drafting,
        "acceptance_rate": None if acceptance is None else round(acceptance, 4),
        "mean_accepted_length": None if mal is None else round(mal, 4),
        "num_drafts": drafting,
        "num_draft_tokens": answer.drafted_total,
        "num_accepted_tokens": answer.accepted_total,
    }


def extension(answer: Answer, method: str | None, warnings: list[str] | None = None) -> dict[str, Any]:
    """The ``tandem`` object of an answer: speculation figures and timings of this request, and
    what the server left out of it (``warnings``, when anything)."""
    out: dict[str, Any] = {
        "speculative_decoding": speculation_figures(answer, method),
        "timings": {
            "prompt_ms": round(answer.prompt_ms, 2),
            "decode_ms": round(answer.decode_ms, 2),
            "decode_tokens_per_second": json_rate(answer.decode_tps),
        },
    }
    if warnings:
        out["warnings"] = list(warnings)
    return out


def completion(
    cid: str, model: str, content: str, calls: list[dict[str, Any]], answer: Answer, method: str | None
) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content if content or not calls else None}
    if calls:
        message["tool_calls"] = [openai_tool_call(c) for c in calls]
    return {
        "id": cid,
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason(answer, bool(calls))}],
        "usage": usage(answer),
        "tandem": extension(answer, method),
    }


def chunk(cid: str, model: str, delta: dict[str, Any], reason: str | None = None) -> dict[str, Any]:
    return {
        "id": cid,
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": reason}],
    }


def sse(data: dict[str, Any] | str) -> bytes:
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    return f"data: {text}\n\n".encode()
