"""OpenAI chat-completions shapes: request checking, answers, chunks, errors, speculation figures.

Pure functions and dataclasses (no HTTP, no engine), so the rules are tested on their own and the
HTTP layer (:mod:`app.core.serving.api`) only moves bytes. The API's parts the server's pipeline
uses (:data:`app.core.serving.adapter.CHAT`): :func:`parse_request`, :func:`whole`,
:class:`ChatEvents` and :meth:`ApiError.body`.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from app.core import images as img
from app.core.answer import Answer
from app.core.engines.base import MAX_NEW_TOKENS, ChatMessage, Sampling, SamplingError, check_max_tokens
from app.core.engines.calls import (
    FunctionSpec,
    FunctionTool,
    JsonObject,
    NamedChoice,
    ToolCall,
    ToolChoice,
    WireToolCall,
    new_call_id,
)
from app.core.requests.request import AnswerFormat, ChatRequest, JsonSchemaFormat, JsonSchemaSpec
from app.core.serving import bodies as B
from app.core.serving import schemas as S
from app.core.serving.encoding import KEEPALIVE, Served
from app.core.serving.errors import ApiError as ApiError  # re-exported: the server raises it from here
from app.core.serving.errors import error_body as error_body
from app.core.serving.request_documents import DocumentParts
from app.core.speculative import json_rate, per_request
from app.core.speculative.per_request import Speculation

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


class ImageParts:
    """The images of one request, decoded and checked as its messages are read (any API shape):
    at most ``limit`` of them, each one a PNG/JPEG/WebP/GIF/BMP within the file limits; anything
    else is a 400 naming the part."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.count = 0
        self.images: dict[str, img.CheckedImage] = {}
        #: the request's documents, read as its messages are
        self.docs = DocumentParts()

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

    def url(self, url: str | None, where: str) -> str:
        """An OpenAI image URL (a ``data:`` URL; other URLs are refused: nothing is fetched)."""
        if not url:
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

    def base64(self, data: str | None, media_type: str | None, where: str) -> str:
        """Anthropic's ``{"type": "base64", "media_type", "data"}`` source."""
        if data is None or media_type is None:
            raise ApiError(400, f"{where}: a base64 source needs media_type and data strings", param=where)
        return self.url(f"data:{media_type};base64,{data}", where)


def image_url_of(ref: S.ImageUrl | str | None) -> str | None:
    """The URL of an image part: OpenAI's ``{"image_url": {"url"}}`` (or a bare string), the
    Responses ``input_image``'s ``{"image_url": "..."}``."""
    return ref.url if isinstance(ref, S.ImageUrl) else ref


def _content_of(
    content: str | list[S.ChatPart] | None, where: str, found: ImageParts
) -> tuple[str, list[str], list[str]]:
    """A message's text, image names and document names: a string, or a list of ``text``,
    ``image_url`` and ``file`` parts."""
    if content is None or isinstance(content, str):
        return content or "", [], []
    parts: list[str] = []
    names: list[str] = []
    documents: list[str] = []
    for i, part in enumerate(content):
        at = f"{where}[{i}]"
        if part.type == "text" and part.text is not None:
            parts.append(part.text)
        elif part.type == "image_url":
            names.append(found.url(image_url_of(part.image_url), f"{at}.image_url"))
        elif part.type == "file":
            ref = part.file or S.FileRef()
            documents.append(found.docs.data_url(ref.file_data, ref.filename, f"{at}.file", ref.file_id))
        else:
            only = f"{at}: only text, image_url and file parts are supported (got {part.type!r})"
            raise ApiError(400, only, param=where)
    return "".join(parts), names, documents


def with_documents(msg: ChatMessage, documents: list[str], role: str, where: str) -> ChatMessage:
    """``msg`` naming its ``documents`` (a user or system message's only)."""
    if documents:
        if role not in ("user", "system", "developer"):
            raise ApiError(400, f"{where}: documents are only taken in user messages", param=where)
        msg["documents"] = list(dict.fromkeys(documents))
    return msg


def wire_call(call_id: str | None, name: str, arguments: str | JsonObject) -> WireToolCall:
    """An earlier turn's call in the conversation's shape (a new id when the client sent none)."""
    args = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return {"id": call_id or new_call_id(), "type": "function", "function": {"name": name, "arguments": args}}


def _messages(raw: list[S.ChatMessage], found: ImageParts) -> list[ChatMessage]:
    out: list[ChatMessage] = []
    for i, m in enumerate(raw):
        where = f"messages[{i}]"
        text, names, documents = _content_of(m.content, f"{where}.content", found)
        msg: ChatMessage = {"role": "system" if m.role == "developer" else m.role, "content": text}
        if names:
            msg["images"] = found.of_message(names, f"{where}.content", m.role, param=where)
        with_documents(msg, documents, m.role, where)
        if m.tool_calls is not None:
            msg["tool_calls"] = [wire_call(c.id, c.function.name, c.function.arguments) for c in m.tool_calls]
        if m.tool_call_id is not None:
            msg["tool_call_id"] = m.tool_call_id
        if m.name is not None:
            msg["name"] = m.name
        out.append(msg)
    return out


def function_tool(
    name: str, description: str | None, parameters: JsonObject | None, strict: bool | None = None
) -> FunctionTool:
    """A tool as the engines take it (chat's shape), from any API's tool."""
    spec: FunctionSpec = {"name": name}
    if description is not None:
        spec["description"] = description
    if parameters is not None:
        spec["parameters"] = parameters
    if strict is not None:
        spec["strict"] = strict
    return {"type": "function", "function": spec}


def _tools(tools: list[S.ChatTool] | None, warnings: list[str]) -> list[FunctionTool] | None:
    out: list[FunctionTool] = []
    for i, t in enumerate(tools or []):
        if t.type != "function":
            warnings.append(dropped_tool(f"tools[{i}]", t.type))
            continue
        fn = t.function
        if fn is None:
            raise ApiError(
                400, f"tools[{i}]: expected {{'type': 'function', 'function': {{...}}}}", param="tools"
            )
        if not fn.name:
            raise ApiError(400, f"tools[{i}].function.name: missing", param="tools")
        out.append(function_tool(fn.name, fn.description, fn.parameters, fn.strict))
    return out or None


def named_choice(name: str) -> NamedChoice:
    return {"type": "function", "function": {"name": name}}


def _tool_choice(raw: Literal["none", "auto", "required"] | S.NamedToolChoice | None) -> ToolChoice | None:
    if raw is None or raw == "none":
        return None
    return raw if isinstance(raw, str) else named_choice(raw.function.name)


def dropped_tool(where: str, kind: str | None) -> str:
    """The warning for a tool the server leaves out: one the client's own server would run
    (web search, file search, computer use, ...), which a local model cannot."""
    return f"{where}: the {kind!r} tool runs on the provider's servers; Tandem cannot run it and left it out"


def json_schema_format(
    name: str | None, schema: JsonObject | None, strict: bool | None, param: str
) -> JsonSchemaFormat:
    """Chat's ``{"type": "json_schema", "json_schema": {...}}`` after checking its fields."""
    if schema is None:
        raise ApiError(400, f"{param}: a json_schema format needs a 'schema' object", param=param)
    spec: JsonSchemaSpec = {"name": name or "response", "schema": schema}
    if strict is not None:
        spec["strict"] = strict
    return {"type": "json_schema", "json_schema": spec}


def response_format_of(raw: S.ResponseFormat | None, param: str = "response_format") -> AnswerFormat | None:
    """A chat ``response_format``: None for free text (absent or ``text``), else a JSON object or
    a JSON schema, which the engine enforces (llama.cpp compiles it to a grammar)."""
    if raw is None or raw.type == "text":
        return None
    if raw.type == "json_object":
        return {"type": "json_object"}
    spec = raw.json_schema
    if spec is None:
        raise ApiError(400, f"{param}.json_schema: expected an object", param=param)
    return json_schema_format(spec.name, spec.schema_, spec.strict, param)


def speculation_of(ext: S.TandemOptions | None) -> Speculation:
    """The request's ``tandem: {"speculation": ...}`` (auto when absent)."""
    if ext is None:
        return per_request.AUTO_CHOICE
    try:
        return Speculation.parse(ext.speculation)
    except ValueError:
        raise ApiError(
            400, 'tandem.speculation: expected "off", "auto" or a method name', param="tandem.speculation"
        ) from None


def check_speculation(
    requested: Speculation, loaded: str | None, offered: Sequence[Speculation] = ()
) -> None:
    """Honour ``tandem.speculation`` or refuse it, by :func:`app.core.speculative.per_request.honoured`
    (the rule the chat's per-conversation choice follows too): a request may ask for what runs,
    "auto", the loaded method, "off" when none is loaded, or what the server's pool ``offered``."""
    if per_request.honoured(requested, loaded, offered):
        return
    running = per_request.running(loaded)
    choices = ", ".join(repr(c.name) for c in dict.fromkeys([per_request.AUTO_CHOICE, running, *offered]))
    raise ApiError(
        400,
        f"tandem.speculation: {requested.name!r} cannot be honoured: this server runs "
        f"{'no speculation' if loaded is None else repr(loaded)} and can answer with {choices}; "
        "anything else needs a reload",
        param="tandem.speculation",
        code="speculation_unavailable",
    )


def max_tokens_of(raw: int | None, param: str, limits: Limits) -> int:
    """The answer's token budget: the request's (at most the server's limit), else the default."""
    if raw is None:
        return limits.default
    try:
        max_tokens = check_max_tokens(raw)
    except SamplingError as exc:
        raise ApiError(400, f"{param}: {exc}", param=param, code="invalid_value") from exc
    if max_tokens > limits.max_tokens:
        raise ApiError(
            400,
            f"{param}: {max_tokens} is more than this server allows ({limits.max_tokens})",
            param=param,
            code="invalid_value",
        )
    return max_tokens


def _or(value: float | None, default: float) -> float:
    return default if value is None else value


def parse_request(body: object, limits: Limits) -> ChatRequest:
    """Check a decoded request body; :class:`ApiError` (400) names the offending field."""
    req = S.check(S.ChatCompletionRequest, body)
    found = ImageParts(limits.max_images)
    messages = _messages(req.messages, found)
    if req.n is not None and req.n != 1:
        raise ApiError(400, "n: only 1 choice per request is supported", param="n")
    if req.max_completion_tokens is not None:
        max_tokens = max_tokens_of(req.max_completion_tokens, "max_completion_tokens", limits)
    else:
        max_tokens = max_tokens_of(req.max_tokens, "max_tokens", limits)
    if req.stop is None:
        stops: tuple[str, ...] = ()
    elif isinstance(req.stop, str):
        stops = (req.stop,)
    elif len(req.stop) <= 4:
        stops = tuple(req.stop)
    else:
        raise ApiError(400, "stop: expected a string or a list of up to 4 strings", param="stop")
    try:
        sampling = Sampling(
            temperature=_or(req.temperature, 0.0),
            top_p=_or(req.top_p, 1.0),
            top_k=req.top_k or 0,
            max_tokens=max_tokens,
            seed=req.seed,
            stop=stops,
            repeat_penalty=_or(req.repeat_penalty, 1.0),
        )
    except SamplingError as exc:
        raise ApiError(400, str(exc)) from exc
    warnings: list[str] = []
    tools = _tools(req.tools, warnings)
    if req.tool_choice == "none":
        tools = None
    return ChatRequest(
        messages,
        sampling,
        stream=bool(req.stream),
        include_usage=req.stream_options is not None and bool(req.stream_options.include_usage),
        tools=tools,
        tool_choice=_tool_choice(req.tool_choice) if tools else None,
        model=req.model,
        response_format=response_format_of(req.response_format),
        images=found.images,
        documents=found.docs.documents,
        speculation=speculation_of(req.tandem),
        warnings=warnings,
    )


# --- answers ----------------------------------------------------------------------------------------
def completion_id() -> str:
    return "chatcmpl-" + secrets.token_hex(12)


def openai_tool_call(call: ToolCall, index: int | None = None) -> B.ChatToolCallOut:
    out: B.ChatToolCallOut = {
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": call.arguments_json()},
    }
    if index is not None:
        out["index"] = index
    return out


FinishReason = Literal["stop", "length", "tool_calls"]


def finish_reason(answer: Answer, has_calls: bool) -> FinishReason:
    if has_calls:
        return "tool_calls"
    return "length" if answer.reason == "length" else "stop"


def usage(answer: Answer) -> B.ChatUsage:
    prompt, completion = answer.prompt_tokens, answer.completion_tokens
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def speculation_figures(answer: Answer, method: str | None) -> B.SpeculationFigures:
    """The request's speculation figures (Tandem's names, plus vLLM's ``num_*`` counters), from
    the answer's figures (:mod:`app.core.answer`) and the shared definitions of
    :mod:`app.core.speculative.rounds`: a round whose draft count the engine could not say
    (mlx-vlm) is a drafting round, and makes the acceptance unknown."""
    drafting = answer.drafting_rounds
    acceptance = answer.acceptance_rate
    mal = answer.mean_accepted_length
    tokens = answer.completion_tokens
    from_drafts = round(min(1.0, answer.accepted_total / tokens), 4) if tokens else None
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
        "from_drafts": from_drafts,
    }


def extension(answer: Answer, method: str | None, req: ChatRequest | None = None) -> B.TandemExtension:
    """The ``tandem`` object of an answer: speculation figures and timings of this request, and
    (:func:`add_notes`) what the server left out of ``req`` and the sources it was given."""
    out: B.TandemExtension = {
        "speculative_decoding": speculation_figures(answer, method),
        "timings": {
            "prompt_ms": round(answer.prompt_ms, 2),
            "decode_ms": round(answer.decode_ms, 2),
            "decode_tokens_per_second": json_rate(answer.decode_tps),
        },
    }
    own = answer.speedup
    if own.value is not None:  # this answer against its own tokens decoded plainly
        out["speedup"] = round(own.value, 3)
        out["speedup_basis"] = own.basis
    done = answer.finished
    if done is not None and done.alternatives:  # what each configuration would have done here
        out["alternatives"] = [a.to_json() for a in done.alternatives]
    if req is not None:
        add_notes(out, req)
    return out


def add_notes(out: B.TandemExtension, req: ChatRequest) -> None:
    """``req``'s notes on an answer's ``tandem`` object: what the server left out (``warnings``)
    and the documents and passages the prompt was given (``sources``), when there are any."""
    if req.warnings:
        out["warnings"] = list(req.warnings)
    if req.sources:
        out["sources"] = [source.to_json() for source in req.sources]


def completion(
    cid: str, model: str, content: str, calls: list[ToolCall], answer: Answer, method: str | None
) -> B.ChatCompletion:
    message: B.AnswerMessage = {"role": "assistant", "content": content if content or not calls else None}
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


def chunk(cid: str, model: str, delta: B.ChunkDelta, reason: FinishReason | None = None) -> B.ChatChunk:
    return {
        "id": cid,
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": reason}],
    }


def sse(data: Mapping[str, object] | str) -> bytes:
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    return f"data: {text}\n\n".encode()


def whole(
    served: Served, req: ChatRequest, text: str, calls: list[ToolCall], answer: Answer
) -> B.ChatCompletion:
    """The whole answer of a chat completion (``stream`` false), Tandem's warnings included."""
    body = completion(completion_id(), served.model_id, text, calls, answer, served.speculation.method)
    body["tandem"] = extension(answer, served.speculation.method, req)
    return body


class ChatEvents:
    """A chat-completions stream (:class:`~app.core.serving.encoding.StreamEvents`): the role,
    content deltas, one tool-call delta per call, the final chunk with usage and Tandem's figures
    (and a usage-only chunk when ``stream_options.include_usage``), then ``[DONE]``."""

    def __init__(self, served: Served, req: ChatRequest) -> None:
        self.cid = completion_id()
        self.model = served.model_id
        self.method = served.speculation.method
        self.req = req
        self.calls = 0

    def start(self) -> list[bytes]:
        return [sse(chunk(self.cid, self.model, {"role": "assistant", "content": ""}))]

    def keepalive(self) -> bytes:
        return KEEPALIVE

    def text(self, piece: str) -> list[bytes]:
        return [sse(chunk(self.cid, self.model, {"content": piece}))] if piece else []

    def call(self, call: ToolCall) -> list[bytes]:
        wire = openai_tool_call(call, index=self.calls)
        self.calls += 1
        return [sse(chunk(self.cid, self.model, {"tool_calls": [wire]}))]

    def finish(self, answer: Answer) -> list[bytes]:
        final = chunk(self.cid, self.model, {}, finish_reason(answer, self.calls > 0))
        final["usage"] = usage(answer)
        final["tandem"] = extension(answer, self.method, self.req)
        out = [sse(final)]
        if self.req.include_usage:
            tail = chunk(self.cid, self.model, {})
            tail["choices"] = []
            tail["usage"] = final["usage"]
            tail["tandem"] = final["tandem"]
            out.append(sse(tail))
        return [*out, sse("[DONE]")]

    def fail(self, error: ApiError, answer: Answer) -> list[bytes]:
        return [sse(error.body()), sse("[DONE]")]
