"""ONE client of llama-server's API, shared by the local llama.cpp engine (a llama-server in a child
process, on loopback) and the remote engine (any OpenAI-compatible server; its llama-server kind
reads the per-token timings too).

What both engines need and this module holds once:

- :func:`chat_body`: the streamed chat-completion request for a :class:`Sampling`, tools and
  logprobs (llama-server's fields where the server is one);
- :class:`SSEStream`: Server-Sent Events lines -> JSON chunks (``data:`` and llama-server's
  ``error:`` fields, ``[DONE]``), one malformed event -> :class:`MalformedEvent`;
- :class:`ChunkReader`: chat-completion chunks -> :class:`TextDelta` / :class:`Round` events, the
  finish reason, token ids and top candidates (logprobs), and tool-call fragments joined into
  whole calls; per-token ``timings`` become rounds through :class:`TimingsRounds`;
- :func:`count_prompt_tokens` and :func:`n_ctx_of`: ``/apply-template`` + ``/tokenize`` and
  ``/props``, through a caller-given JSON transport.

The transports stay with their engines, each one long-lived ``httpx.AsyncClient`` on the engine
loop: the local engine's to its child (plain HTTP on loopback), the remote engine's to its server
(TLS, timeouts, no proxy from the environment, typed network errors). A stop cancels the request's
task, which closes its connection, also during a long prompt pass or before the headers came.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from app.core import images
from app.core.engines.base import (
    ChatMessage,
    EngineError,
    Event,
    FinishReason,
    GenerationError,
    Sampling,
    TemplateCaps,
    TextDelta,
    TokenCandidate,
    error_message_of,
)
from app.core.engines.calls import FunctionTool, ToolCall, ToolChoice, new_call_id
from app.core.speculative import TimingsRounds

log = logging.getLogger(__name__)

#: A JSON call on a server's own routes, awaited on the engine loop: (method, path, body or None)
#: -> the answer's object.
JsonCall = Callable[[str, str, "dict[str, Any] | None"], Awaitable["dict[str, Any]"]]


def chat_body(
    messages: Sequence[ChatMessage],
    sampling: Sampling,
    *,
    llama_server: bool = True,
    model: str | None = None,
    top_logprobs: int = 0,
    tools: Sequence[FunctionTool] | None = None,
    tool_choice: ToolChoice | None = None,
    response_format: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The streamed ``/v1/chat/completions`` body for these messages and settings.

    ``llama_server`` adds llama-server's own fields (per-token timings, ``repeat_penalty``, an
    explicit ``top_k`` 0); other servers get the OpenAI fields plus the common ``top_k`` /
    ``repetition_penalty`` extensions only when they change something.
    """
    body: dict[str, Any] = {
        "messages": [images.wire_message(m) for m in messages],
        "stream": True,
        "max_tokens": sampling.max_tokens,
        "temperature": sampling.temperature,
        "top_p": sampling.top_p,
    }
    if model is not None:
        body["model"] = model
    if llama_server:
        body["top_k"] = sampling.top_k
        body["repeat_penalty"] = sampling.repeat_penalty
        body["timings_per_token"] = True
    else:
        if sampling.top_k:
            body["top_k"] = sampling.top_k  # vLLM and SGLang accept this extension
        if sampling.repeat_penalty != 1.0:
            body["repetition_penalty"] = sampling.repeat_penalty
    if sampling.seed is not None:
        body["seed"] = sampling.seed
    if sampling.stop:
        body["stop"] = list(sampling.stop)
        if llama_server:  # its final chunk then says which stop string ended the answer
            body["verbose"] = True
    if top_logprobs:
        body["logprobs"] = True
        body["top_logprobs"] = top_logprobs
    if tools:
        body["tools"] = [dict(t) for t in tools]
        if tool_choice is not None:
            body["tool_choice"] = tool_choice
    if response_format is not None:
        body["response_format"] = dict(response_format)
    return body


class MalformedEvent(GenerationError):
    """An event whose data is not JSON."""


class SSEStream:
    """The JSON payloads of a Server-Sent Events stream, until ``[DONE]`` or the end of the lines.

    ``data:`` fields carry chunks; llama-server also sends ``error:`` fields, whose payload is
    wrapped as ``{"error": ...}`` when it is not already an error object. Blank separators,
    comments and other fields are skipped. :attr:`done` tells a stream that ended with its end
    marker from one that was cut. Iterate it over blocking lines, or :meth:`feed` it line by line
    (an async reader does).
    """

    def __init__(self, lines: Iterable[str | bytes], source: str) -> None:
        self._lines = lines
        self._source = source
        #: the stream ended with its end marker (not cut)
        self.done = False

    def feed(self, raw: str | bytes) -> Any:
        """The chunk one line carries, or None (a separator, a comment, the end marker)."""
        line = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        field, _, data = line.strip().partition(":")
        data = data.strip()
        if self.done or field not in ("data", "error") or not data:
            return None
        if data == "[DONE]":
            self.done = True
            return None
        try:
            chunk = json.loads(data)
        except ValueError:
            raise MalformedEvent(f"{self._source} sent a malformed event: {data[:80]!r}") from None
        if field == "error" and not (isinstance(chunk, dict) and "error" in chunk):
            chunk = {"error": chunk}
        return chunk

    def __iter__(self) -> Iterator[Any]:
        for raw in self._lines:
            chunk = self.feed(raw)
            if self.done:
                return
            if chunk is not None:
                yield chunk


class ChunkReader:
    """Chat-completion chunks of one request -> events, and what the request's end needs.

    ``timings`` (llama-server with ``timings_per_token``) give each chunk's token count and the
    rounds; without them a chunk with text counts as ``fallback_tokens(chunk)`` tokens (one by
    default). Token ids and candidates are recorded when ``with_logprobs``.
    """

    def __init__(
        self, source: str, with_logprobs: bool = False, error: Callable[[str], Exception] = GenerationError
    ) -> None:
        self.source = source
        #: the exception type an error event or a malformed chunk becomes (takes the message)
        self.error = error
        self.with_logprobs = with_logprobs
        self.timing = TimingsRounds()
        self.reason: FinishReason = "stop"
        self.pieces: list[str] = []
        self.ids: list[int] = []
        #: every streamed token had its id (a chunk without logprobs entries breaks this)
        self.ids_complete = with_logprobs
        self.candidates: list[list[TokenCandidate]] = []
        #: the text of each token in :attr:`ids` (its bytes where the server sends them)
        self.texts: list[str] = []
        #: tool-call fragments per call index, in arrival order
        self.tool_parts: dict[int, list[Mapping[str, Any]]] = {}
        #: tokens of the chunks that came without timings (counted by ``fallback_tokens``)
        self.untimed_tokens = 0
        #: the stop string that ended the answer, as llama-server's verbose final chunk says
        self.stop_sequence: str | None = None

    @property
    def text_started(self) -> bool:
        return bool(self.pieces)

    @property
    def saw_timings(self) -> bool:
        return bool(self.timing.timings)

    def feed(
        self, chunk: Any, fallback_tokens: Callable[[Mapping[str, Any], str], int] | None = None
    ) -> list[Event]:
        """The events one chunk carries (closed rounds first, then its text)."""
        if not isinstance(chunk, Mapping):
            raise self.error(f"unexpected event from {self.source}: {str(chunk)[:80]!r}")
        if "error" in chunk or ("code" in chunk and "message" in chunk):
            msg = error_message_of(chunk) or " ".join(str(chunk.get("error", chunk)).split())[:300]
            raise self.error(f"{self.source} reported an error: {msg}")
        choices = chunk.get("choices") or []
        choice: Mapping[str, Any] = choices[0] if choices and isinstance(choices[0], Mapping) else {}
        delta = choice.get("delta") or {}
        if not isinstance(delta, Mapping):
            delta = {}
        text = str(delta.get("content") or "")
        for part in delta.get("tool_calls") or []:
            if isinstance(part, Mapping):
                fragment = dict(part.get("function") or {})
                if part.get("id"):  # the first fragment of a call names it
                    fragment["id"] = part["id"]
                self.tool_parts.setdefault(int(part.get("index", 0)), []).append(fragment)
        timings = chunk.get("timings")
        from_draft = False
        if isinstance(timings, Mapping) and timings:
            n_tokens, from_draft = self.timing.step(timings)
        else:
            n_tokens = fallback_tokens(chunk, text) if fallback_tokens is not None else (1 if text else 0)
            self.untimed_tokens += n_tokens
        events: list[Event] = list(self.timing.pop_closed())
        if self.with_logprobs:
            self._logprobs(choice, text, n_tokens)
        if text:
            self.pieces.append(text)
        if text or n_tokens:
            events.append(TextDelta(text, n_tokens, from_draft))
        finish = choice.get("finish_reason")
        if finish:
            self.reason = "length" if finish == "length" else "stop"
        verbose = chunk.get("__verbose")
        if isinstance(verbose, Mapping) and verbose.get("stop_type") == "word":
            word = verbose.get("stopping_word")
            self.stop_sequence = word if isinstance(word, str) and word else None
        return events

    def _logprobs(self, choice: Mapping[str, Any], text: str, n_tokens: int) -> None:
        entries = (choice.get("logprobs") or {}).get("content") or []
        end_of_generation = bool(choice.get("finish_reason")) and not text and not entries
        if len(entries) != n_tokens and not end_of_generation:  # the stop token carries no logprobs
            self.ids_complete = False
        for e in entries:
            token_id = entry_token_id(e) if isinstance(e, Mapping) else None
            if token_id is None:
                self.ids_complete = False
                continue
            self.ids.append(token_id)
            row: list[TokenCandidate] = []
            for c in e.get("top_logprobs") or []:
                cid = entry_token_id(c) if isinstance(c, Mapping) else None
                if cid is not None and c.get("logprob") is not None:
                    row.append(TokenCandidate(cid, entry_text(c), float(c["logprob"])))
            self.candidates.append(row)
            self.texts.append(entry_text(e))

    def closing_rounds(self) -> list[Event]:
        """Close the last round (llama-server timings); the rounds not yet given out."""
        return list(self.timing.finish()) if self.saw_timings else []

    @property
    def token_ids(self) -> list[int] | None:
        return list(self.ids) if self.with_logprobs and self.ids_complete else None

    def tool_calls(self) -> list[ToolCall] | None:
        """Streamed ``tool_calls`` fragments (name once, arguments in pieces) -> whole calls."""
        calls: list[ToolCall] = []
        for index in sorted(self.tool_parts):
            parts = self.tool_parts[index]
            name = "".join(str(f.get("name") or "") for f in parts)
            raw = "".join(str(f.get("arguments") or "") for f in parts)
            call_id = next((str(f["id"]) for f in parts if f.get("id")), "")
            try:
                arguments = json.loads(raw) if raw.strip() else {}
            except json.JSONDecodeError:
                log.info("%s tool call %r has arguments that are not JSON: %r", self.source, name, raw[:60])
                continue
            if name and isinstance(arguments, dict):
                calls.append(ToolCall(call_id or new_call_id(), name, arguments))
        return calls or None


#: vLLM's form of a token in logprobs when asked ``return_tokens_as_token_ids``
TOKEN_ID_PREFIX = "token_id:"


def entry_token_id(entry: Mapping[str, Any]) -> int | None:
    """The id of a logprobs entry: llama-server's ``id``, else vLLM's ``token_id:N`` token."""
    raw = entry.get("id")
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    token = entry.get("token")
    if isinstance(token, str) and token.startswith(TOKEN_ID_PREFIX):
        try:
            return int(token[len(TOKEN_ID_PREFIX) :])
        except ValueError:
            return None
    return None


def entry_text(entry: Mapping[str, Any]) -> str:
    """The text of a logprobs entry: its token, or its ``bytes`` where the token is an id
    placeholder (vLLM keeps the decoded bytes of the chosen token there); a placeholder stays
    as it is when no bytes say more."""
    token = str(entry.get("token") or "")
    raw = entry.get("bytes")
    if token.startswith(TOKEN_ID_PREFIX) and isinstance(raw, list) and raw:
        try:
            decoded = bytes(int(b) for b in raw).decode("utf-8", "replace")
        except (TypeError, ValueError):
            return token
        if decoded != token:
            return decoded
    return token


def n_ctx_of(props: Mapping[str, Any]) -> int:
    """The context length in llama-server's ``/props`` answer (0 when it says none)."""
    settings = props.get("default_generation_settings") or {}
    return int((settings.get("n_ctx") if isinstance(settings, Mapping) else 0) or props.get("n_ctx") or 0)


async def count_prompt_tokens(
    call: JsonCall, messages: Sequence[ChatMessage], tools: Sequence[Mapping[str, Any]] | None = None
) -> int:
    """The prompt's size in the server's tokens, chat template and generation prompt applied, as a
    chat request builds it (``/apply-template``, then ``/tokenize`` with the special tokens);
    ``tools`` are rendered by the template as a request with them would be."""
    body: dict[str, Any] = {"messages": [images.text_only(m) for m in messages]}
    if tools:
        body["tools"] = [dict(t) for t in tools]
    prompt = (await call("POST", "/apply-template", body)).get("prompt")
    if not isinstance(prompt, str):
        raise GenerationError("llama-server's /apply-template returned no prompt")
    tokens = (await call("POST", "/tokenize", {"content": prompt, "add_special": True})).get("tokens")
    n = len(tokens) if isinstance(tokens, list) else 0
    return n + images.estimated_tokens(messages)


async def prompt_token_ids(
    call: JsonCall, messages: Sequence[ChatMessage], tools: Sequence[Mapping[str, Any]] | None = None
) -> list[int]:
    """The prompt's token ids as a chat request builds them (``/apply-template``, then ``/tokenize``
    with the special tokens), for the text of the messages (images are left out)."""
    body: dict[str, Any] = {"messages": [images.text_only(m) for m in messages]}
    if tools:
        body["tools"] = [dict(t) for t in tools]
    prompt = (await call("POST", "/apply-template", body)).get("prompt")
    if not isinstance(prompt, str):
        raise GenerationError("llama-server's /apply-template returned no prompt")
    tokens = (await call("POST", "/tokenize", {"content": prompt, "add_special": True})).get("tokens")
    if not isinstance(tokens, list) or not all(isinstance(t, int) for t in tokens):
        raise GenerationError("llama-server's /tokenize returned no token ids")
    return list(tokens)


#: markers no template writes by itself, to see where a late system message lands
_PROBE = "tandem-probe-system"
_BEFORE, _AFTER = "tandem-probe-answer", "tandem-probe-question"


async def template_caps(call: JsonCall) -> TemplateCaps:
    """What llama-server's chat template renders: tools from ``/props``' ``chat_template_caps``;
    whether a system message after the first turn keeps its place, by rendering one
    (a template that raises on it, or moves or drops it, does not)."""
    caps = (await call("GET", "/props", None)).get("chat_template_caps")
    renders_tools = bool(caps.get("supports_tools")) if isinstance(caps, Mapping) else False
    probe = [
        {"role": "user", "content": "tandem-probe-first"},
        {"role": "assistant", "content": _BEFORE},
        {"role": "system", "content": _PROBE},
        {"role": "user", "content": _AFTER},
    ]
    try:
        prompt = (await call("POST", "/apply-template", {"messages": probe})).get("prompt")
    except EngineError:
        prompt = None
    where = [prompt.find(m) for m in (_BEFORE, _PROBE, _AFTER)] if isinstance(prompt, str) else []
    anywhere = bool(where) and 0 <= where[0] < where[1] < where[2]
    return TemplateCaps(renders_tools, anywhere)
