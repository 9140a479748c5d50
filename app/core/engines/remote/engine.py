"""Remote engine: an OpenAI-compatible server (vLLM, SGLang, llama-server, ...) over HTTP(S).

Requests go through ``httpx``; the request body, the event stream, the stop watcher and the
chunk -> event translation are the one llama-server client's (:mod:`app.core.engines.llamaserver`),
shared with the local llama.cpp engine. The engine yields the same events as the local engines
(:class:`TextDelta`, :class:`Round`, :class:`Finished`) and honours :class:`CancelToken` and
:class:`Sampling` (max tokens, stop, seed, temperature, top-p, top-k, repeat penalty).

Acceptance numbers come only from what the server reports (see
:mod:`app.core.engines.remote.acceptance`); llama-server's per-token ``timings`` become rounds
through the same :class:`~app.core.engines.llamaserver.ChunkReader` as the local llama.cpp engine.
A server that reports nothing gets ``drafted``/``accepted`` of None in :class:`RemoteFinished`, never 0.

Every failure is one typed :class:`EngineError` line with a hint. A stream cut mid-answer keeps
the text already delivered: a :class:`RemoteFinished` with reason ``"cancelled"`` and
``interrupted=True`` is yielded first, then :class:`StreamInterrupted` is raised.
"""

from __future__ import annotations

import json
import logging
import ssl
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import httpx

from app.core import images
from app.core.engines.base import (
    CancelToken,
    ChatMessage,
    EngineError,
    Event,
    Finished,
    GenerationError,
    ImagesUnsupportedError,
    LoadRequest,
    Round,
    Sampling,
    TextDelta,
    TokenCandidate,
    error_message_of,
    has_images,
    structured_refusal,
)
from app.core.engines.llamaserver import (
    TOKEN_ID_PREFIX,
    ChunkReader,
    MalformedEvent,
    SSEStream,
    StopWatcher,
    chat_body,
    count_prompt_tokens,
    n_ctx_of,
)
from app.core.engines.remote import acceptance as acc
from app.core.engines.remote.acceptance import ServerMethod, speculation_of_props, speculation_of_vllm_config
from app.core.engines.remote.endpoints import Endpoint, EndpointError

log = logging.getLogger(__name__)

#: ``owned_by`` of GET /v1/models -> the server kind Tandem knows how to read stats from.
_KINDS = {"llamacpp": "llama.cpp", "vllm": "vllm", "sglang": "sglang"}
#: server kinds that constrain output to a ``response_format``
STRUCTURED_KINDS = frozenset(_KINDS.values())


# --- errors ------------------------------------------------------------------------------------------
class RemoteError(EngineError):
    hint = "Check that the server is running and the endpoint URL is right."


class EndpointUnreachable(RemoteError):
    hint = "Start the server, or check the host name and port of the endpoint."


class TLSFailure(RemoteError):
    hint = (
        "The server's HTTPS certificate is not trusted here. Use a certificate from a trusted "
        "authority, or add your own CA to the system's trust store."
    )


class AuthenticationFailed(RemoteError):
    hint = "Set the key in TANDEM_API_KEY or store it for this endpoint (tandem endpoint-key)."


class RemoteModelNotFound(RemoteError):
    hint = "Pick one of the models the server lists (tandem remote-models --endpoint URL)."


class RemoteTimeout(RemoteError):
    hint = "The server is slow or overloaded; try again, or raise the timeout."


class RemoteServerError(RemoteError):
    hint = "See the server's log for details."


class StreamInterrupted(GenerationError):
    """The stream ended before the answer did; ``partial_text`` is what had arrived."""

    hint = "The partial answer is kept. Check the server (it may have stopped) and try again."

    def __init__(self, message: str, partial_text: str = "") -> None:
        super().__init__(message)
        self.partial_text = partial_text


# --- load request, result ------------------------------------------------------------------------------
@dataclass(frozen=True)
class RemoteLoadRequest(LoadRequest):
    """A :class:`LoadRequest` for a server: ``model_path`` is the server's model id ('' = the only one)."""

    endpoint: Endpoint | None = None
    api_key: str | None = field(default=None, repr=False)
    timeout_s: float = 120.0


@dataclass(frozen=True)
class RemoteFinished(Finished):
    """:class:`Finished` plus where the acceptance numbers come from.

    ``drafted``/``accepted`` are None when the server did not report them (``drafted_total`` and
    ``accepted_total`` are then 0 with ``drafted_known`` False, for code that reads only ints).
    """

    acceptance_source: str = acc.NOT_REPORTED
    acceptance_note: str = ""
    drafted: int | None = None
    accepted: int | None = None
    #: the stream was cut before the answer ended (reason is then "cancelled")
    interrupted: bool = False
    server_kind: str = "openai"
    #: the server's model id that answered
    model: str = ""
    #: the speculation method the server says it runs (see :class:`ServerMethod`), where it said so
    method: str | None = None
    method_source: str = ""
    #: draft tokens per round the server is configured for, where it says
    draft_depth: int | None = None


@dataclass(frozen=True)
class RemoteModel:
    id: str
    owned_by: str = ""


def server_kind(owned_by: str) -> str:
    return _KINDS.get(owned_by.strip().lower(), "openai")


# --- error mapping -------------------------------------------------------------------------------------
def _causes(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        yield cur
        cur = cur.__cause__ or cur.__context__


def _transport_error(exc: httpx.TransportError, endpoint: Endpoint) -> RemoteError:
    where = endpoint.url
    if isinstance(exc, httpx.TimeoutException):
        return RemoteTimeout(f"{where}: the server did not answer in time ({type(exc).__name__})")
    for cause in _causes(exc):
        if isinstance(cause, ssl.SSLCertVerificationError):
            return TLSFailure(f"{where}: TLS certificate check failed ({cause.verify_message})")
        if isinstance(cause, ssl.SSLError):
            return TLSFailure(f"{where}: TLS handshake failed ({cause.reason or cause})")
        if isinstance(cause, ConnectionRefusedError):
            return EndpointUnreachable(f"{where}: connection refused (nothing listens on that port)")
    text = str(exc) or type(exc).__name__
    if "Name or service not known" in text or "nodename nor servname" in text or "getaddrinfo" in text:
        return EndpointUnreachable(f"{where}: cannot resolve the host name {endpoint.host!r}")
    if isinstance(exc, httpx.ConnectError):
        return EndpointUnreachable(f"{where}: cannot connect ({text})")
    return RemoteError(f"{where}: network error ({text})")


def _error_message(response: httpx.Response) -> str:
    try:
        body: Any = json.loads(response.read() or b"null")
    except (ValueError, httpx.HTTPError):
        body = None
    msg = error_message_of(body)
    if msg:
        return msg
    try:
        text = response.text
    except httpx.HTTPError:
        text = ""
    return " ".join(text.split())[:300] or response.reason_phrase


def _status_error(response: httpx.Response, endpoint: Endpoint, model: str = "") -> RemoteError:
    code = response.status_code
    msg = _error_message(response)
    if code in (401, 403):
        what = "the API key was refused" if code == 401 else "this key may not use this server"
        return AuthenticationFailed(f"{endpoint.url}: {code} {what} ({msg})")
    if code == 404:
        if model:
            return RemoteModelNotFound(f"{endpoint.url}: model {model!r} not found ({msg})")
        return RemoteError(
            f"{endpoint.url}: 404, no OpenAI API here ({msg})",
            "Check the path: most servers answer under /v1, e.g. http://host:8000/v1",
        )
    return RemoteServerError(f"{endpoint.url}: server error {code} ({msg})")


# --- the engine ----------------------------------------------------------------------------------------
class RemoteEngine:
    name = "remote"

    def __init__(self, client: httpx.Client, endpoint: Endpoint, model: str, kind: str) -> None:
        self._client = client
        self.endpoint = endpoint
        self.model = model
        self.server_kind = kind
        self.model_path = model
        self._closed = False
        self._busy = threading.Lock()
        self._n_ctx: int | None = None
        self._server_method: ServerMethod | None = None
        self._vision: bool | None = None
        #: token id -> text, for candidates a vLLM server names by id only (``/detokenize``)
        self._token_texts: dict[int, str] = {}

    # --- connecting ------------------------------------------------------------------------------
    @classmethod
    def load(cls, req: LoadRequest, progress: Callable[[str], None] | None = None) -> RemoteEngine:
        if not isinstance(req, RemoteLoadRequest) or req.endpoint is None:
            raise EndpointError("the remote engine needs an endpoint URL (--endpoint)")
        return cls.connect(req.endpoint, req.model_path, req.api_key, req.timeout_s, progress)

    @classmethod
    def connect(
        cls,
        endpoint: Endpoint,
        model: str = "",
        api_key: str | None = None,
        timeout_s: float = 120.0,
        progress: Callable[[str], None] | None = None,
    ) -> RemoteEngine:
        """Check the endpoint, list its models and pick ``model`` ('' = the only one served)."""
        endpoint.check()
        say = progress or (lambda _msg: None)
        headers = {"Accept": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        client = httpx.Client(
            base_url=endpoint.url,
            headers=headers,
            timeout=httpx.Timeout(timeout_s, connect=min(10.0, timeout_s)),
            follow_redirects=False,
            trust_env=False,  # no proxy or netrc credentials from the environment
        )
        try:
            say(f"connecting to {endpoint.label}")
            models = _list_models(client, endpoint)
            ids = [m.id for m in models]
            if not model:
                if len(models) != 1:
                    raise RemoteModelNotFound(
                        f"{endpoint.url} serves {len(models)} models; pick one: {', '.join(ids) or '(none)'}"
                    )
                chosen = models[0]
            else:
                found = [m for m in models if m.id == model]
                if not found:
                    raise RemoteModelNotFound(
                        f"{endpoint.url} does not serve {model!r}; it serves: {', '.join(ids) or '(none)'}"
                    )
                chosen = found[0]
            say(f"ready ({chosen.id})")
            return cls(client, endpoint, chosen.id, server_kind(chosen.owned_by))
        except BaseException:
            client.close()
            raise

    @property
    def spec_kind(self) -> str | None:
        """The speculation method the server runs, as far as it tells (see :attr:`server_method`):
        its configured method, "speculative" when it only shows drafting counters, None when it
        runs none or does not say."""
        return self.server_method.method

    @property
    def server_method(self) -> ServerMethod:
        """What the server says about its speculation (asked once per connection)."""
        if self._server_method is None:
            self._server_method = self._probe_method()
        return self._server_method

    def _probe_method(self) -> ServerMethod:
        if self.server_kind == "vllm":
            return self._vllm_method()
        if self.server_kind == "llama.cpp":
            try:
                return speculation_of_props(self._root_call("GET", "/props", None))
            except EngineError as exc:
                return ServerMethod(None, f"/props not readable ({exc})")
        return ServerMethod(None, "this server does not say whether it speculates")

    def _vllm_method(self) -> ServerMethod:
        """vLLM's speculative config from ``/server_info`` (its development routes, on with
        ``VLLM_SERVER_DEV_MODE=1``), else what ``/metrics`` shows: drafting counters exist only
        on a server started with a speculative config (their per-position series give the depth)."""
        try:
            r = self._client.get(self.endpoint.server_root + "/server_info", timeout=10.0)
            if r.status_code == 200:
                found = speculation_of_vllm_config(r.json())
                if found is not None:
                    return found
        except (httpx.HTTPError, ValueError):
            pass
        try:
            r = self._client.get(self.endpoint.server_root + "/metrics", timeout=10.0)
        except httpx.HTTPError as exc:
            return ServerMethod(None, f"/metrics not readable ({type(exc).__name__})")
        if r.status_code != 200:
            return ServerMethod(None, f"/metrics answered HTTP {r.status_code}")
        return acc.vllm_method_from_metrics(r.text)

    @property
    def supports_tools(self) -> bool:
        """``tools`` are sent; the server renders them or answers with its own error."""
        return True

    @property
    def supports_images(self) -> bool:
        """llama-server says in ``/props`` (``modalities.vision``, true when started with an
        mmproj); other servers do not say, so images are sent and a server that cannot see answers
        with its own error (shown as it comes)."""
        if self._vision is None:
            self._vision = True
            if self.server_kind == "llama.cpp":
                try:
                    modalities = self._root_call("GET", "/props", None).get("modalities")
                    self._vision = bool(isinstance(modalities, Mapping) and modalities.get("vision"))
                except EngineError as exc:
                    log.info(
                        "%s: /props not readable, images are sent as they come: %s", self.endpoint.label, exc
                    )
        return self._vision

    @property
    def supports_structured_output(self) -> bool:
        """llama-server, vLLM and SGLang constrain output to ``response_format``; another
        OpenAI-compatible server might ignore it and answer free text, so it is not sent there."""
        return self.server_kind in STRUCTURED_KINDS

    @property
    def candidates_with_speculation(self) -> bool:
        """vLLM returns logprobs (and with them token ids) of answers it speculated; llama-server
        and others are not relied on for that."""
        return self.server_kind == "vllm"

    def list_models(self) -> list[RemoteModel]:
        return _list_models(self._client, self.endpoint)

    # --- context length and token counts (history trimming) -----------------------------
    @property
    def n_ctx(self) -> int:
        """The server's context length per request, 0 when it does not say (nothing is trimmed).

        llama-server reports it in ``/props``; vLLM with each ``/tokenize`` answer
        (``max_model_len``). Asked once per connection; a server whose counting routes fail is
        treated as one that does not say.
        """
        if self._n_ctx is None:
            self._n_ctx = 0
            try:
                if self.server_kind == "llama.cpp":
                    n_ctx = n_ctx_of(self._root_call("GET", "/props", None))
                    self.count_prompt_tokens([{"role": "user", "content": "hi"}])  # the routes exist
                    self._n_ctx = n_ctx
                elif self.server_kind == "vllm":
                    probe = self._root_call("POST", "/tokenize", self._vllm_tokenize_body([]))
                    self._n_ctx = int(probe.get("max_model_len") or 0)
            except (EngineError, TypeError, ValueError) as exc:
                log.info("%s: context length unknown, history is not trimmed: %s", self.endpoint.label, exc)
        return self._n_ctx

    def count_prompt_tokens(
        self, messages: Sequence[ChatMessage], tools: Sequence[Mapping[str, Any]] | None = None
    ) -> int:
        """The prompt's size in the server's own tokens, chat template applied (only asked when
        :attr:`n_ctx` is known); vLLM's count leaves ``tools`` out."""
        if self.server_kind == "llama.cpp":
            return count_prompt_tokens(self._root_call, messages, tools)
        if self.server_kind == "vllm":
            counted = self._root_call("POST", "/tokenize", self._vllm_tokenize_body(messages))
            return int(counted.get("count") or 0) + images.estimated_tokens(messages)
        raise RemoteServerError(f"{self.endpoint.url}: this server cannot count tokens")

    def _vllm_tokenize_body(self, messages: Sequence[ChatMessage]) -> dict[str, Any]:
        return {
            "model": self.model,
            "messages": [images.text_only(m) for m in messages] or [{"role": "user", "content": ""}],
            "add_generation_prompt": True,
        }

    def _root_call(self, method: str, path: str, body: dict[str, Any] | None) -> dict[str, Any]:
        """A JSON call on the server's own (non-OpenAI) routes, with the connection's key."""
        try:
            r = self._client.request(method, self.endpoint.server_root + path, json=body, timeout=30.0)
        except httpx.TransportError as exc:
            raise _transport_error(exc, self.endpoint) from exc
        if r.status_code != 200:
            raise RemoteServerError(f"{self.endpoint.url}: {method} {path} answered HTTP {r.status_code}")
        try:
            data = r.json()
        except ValueError as exc:
            raise RemoteServerError(f"{self.endpoint.url}: {path} did not answer JSON") from exc
        if not isinstance(data, dict):
            raise RemoteServerError(f"{self.endpoint.url}: {path} answered {type(data).__name__}")
        return data

    # --- generation --------------------------------------------------------------------------------
    def _body(
        self,
        messages: Sequence[ChatMessage],
        sampling: Sampling,
        tools: Sequence[dict[str, Any]] | None = None,
        tool_choice: Any = None,
        response_format: Mapping[str, Any] | None = None,
        top_logprobs: int = 0,
    ) -> dict[str, Any]:
        body = chat_body(
            messages,
            sampling,
            llama_server=self.server_kind == "llama.cpp",
            model=self.model,
            top_logprobs=top_logprobs,
            tools=tools,
            tool_choice=tool_choice,
            response_format=response_format,
        )
        if top_logprobs and self.server_kind == "vllm":
            body["return_tokens_as_token_ids"] = True  # ids, not ambiguous token strings
        body["stream_options"] = {"include_usage": True}
        if self.server_kind == "sglang":
            body["return_meta_info"] = True
        elif self.server_kind == "vllm":
            body["stream_options"]["continuous_usage_stats"] = True
        return body

    def generate(
        self,
        messages: Sequence[ChatMessage],
        sampling: Sampling,
        cancel: CancelToken | None = None,
        top_logprobs: int = 0,
        tools: Sequence[dict[str, Any]] | None = None,
        tool_choice: Any = None,
        response_format: Mapping[str, Any] | None = None,
    ) -> Iterator[Event]:
        """``tools`` / ``tool_choice`` (OpenAI shapes) go to the server, which renders and parses
        them where it was started to (vLLM ``--enable-auto-tool-choice``, llama-server ``--jinja``);
        ``response_format`` only to a server that constrains output to it (else an error)."""
        if self._closed:
            raise GenerationError("the remote connection was closed", "Connect again.")
        if response_format is not None and not self.supports_structured_output:
            raise GenerationError(structured_refusal(f"this {self.server_kind} server"))
        if has_images(messages) and not self.supports_images:
            raise ImagesUnsupportedError(self.model)
        body = self._body(messages, sampling, tools, tool_choice, response_format, max(0, top_logprobs))
        return self._stream(body, cancel or CancelToken())

    def _vllm_counters(self) -> dict[str, float] | None:
        try:
            r = self._client.get(self.endpoint.server_root + "/metrics", timeout=5.0)
            if r.status_code != 200:
                return None
            return acc.vllm_counter_snapshot(r.text)
        except (httpx.HTTPError, ValueError):
            return None

    def _stream(self, body: dict[str, Any], cancel: CancelToken) -> Iterator[Event]:
        with self._busy:
            server_method = self.server_method
            before = self._vllm_counters() if self.server_kind == "vllm" else None
            state = _StreamState(self.server_kind, self.model, with_logprobs=bool(body.get("logprobs")))
            started = time.perf_counter()
            try:
                with self._client.stream("POST", "/chat/completions", json=body) as response:
                    if response.status_code != 200:
                        raise _status_error(response, self.endpoint, self.model)
                    kind = response.headers.get("content-type", "")
                    if "text/event-stream" not in kind:
                        raise RemoteServerError(
                            f"{self.endpoint.url}: the server did not stream events (content type {kind!r})"
                        )
                    with StopWatcher(lambda: cancel.cancelled, response.close, "tandem-remote-cancel"):
                        yield from self._read(response, state, started, cancel)
            except httpx.TransportError as exc:
                raise _transport_error(exc, self.endpoint) from exc
            if state.acceptance is None and before is not None and not state.cancelled:
                after = self._vllm_counters()
                if after is not None:
                    state.acceptance = acc.vllm_counter_delta(before, after)
            yield from state.closing_rounds()
            if state.reader.with_logprobs and self.server_kind == "vllm" and not state.cancelled:
                self._name_candidates(state.reader.candidates)
            yield replace(
                state.finish(started),
                method=server_method.method,
                method_source=server_method.source,
                draft_depth=server_method.depth,
            )

    def _name_candidates(self, rows: list[list[TokenCandidate]]) -> None:
        """Give the candidates a vLLM server named only by id their text (``/detokenize`` once per
        id and connection); a server without that route leaves the ``token_id:N`` names."""
        for row in rows:
            for i, c in enumerate(row):
                if not c.text.startswith(TOKEN_ID_PREFIX):
                    continue
                text = self._token_texts.get(c.id)
                if text is None:
                    try:
                        answer = self._root_call(
                            "POST", "/detokenize", {"model": self.model, "tokens": [c.id]}
                        )
                    except EngineError:
                        return
                    text = str(answer.get("prompt", c.text))
                    self._token_texts[c.id] = text
                row[i] = TokenCandidate(c.id, text, c.logprob)

    def _read(
        self, response: httpx.Response, state: _StreamState, started: float, cancel: CancelToken
    ) -> Iterator[Event]:
        """The events of a streamed answer; a cut keeps the text that arrived (see the module doc)."""
        try:
            for chunk in SSEStream(response.iter_lines(), "the server"):
                yield from state.on_chunk(chunk, time.perf_counter())
                if cancel.cancelled:
                    state.cancelled = True
                    break
        except (httpx.TransportError, httpx.StreamError) as exc:
            if cancel.cancelled:
                state.cancelled = True
            elif state.text_started:
                yield state.finish(started, interrupted=True)
                raise StreamInterrupted(
                    f"{self.endpoint.url}: the stream was cut mid-answer after "
                    f"{state.completion_tokens()} tokens ({type(exc).__name__})",
                    "".join(state.pieces),
                ) from exc
            elif not isinstance(exc, httpx.TransportError):
                raise RemoteServerError(
                    f"{self.endpoint.url}: the server did not stream events ({exc})"
                ) from exc
            else:
                raise _transport_error(exc, self.endpoint) from exc
        except (RemoteServerError, MalformedEvent) as exc:
            message = f"{self.endpoint.url}: {exc}"
            if state.text_started:
                yield state.finish(started, interrupted=True)
                raise StreamInterrupted(message, "".join(state.pieces)) from exc
            raise RemoteServerError(message) from exc

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        with self._busy:  # wait for a running request to end its stream
            self._client.close()

    def __enter__(self) -> RemoteEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _list_models(client: httpx.Client, endpoint: Endpoint) -> list[RemoteModel]:
    try:
        r = client.get("/models")
    except httpx.TransportError as exc:
        raise _transport_error(exc, endpoint) from exc
    if r.status_code != 200:
        raise _status_error(r, endpoint)
    try:
        data = r.json()
        items = data["data"]
        return [RemoteModel(str(m["id"]), str(m.get("owned_by") or "")) for m in items]
    except (ValueError, KeyError, TypeError) as exc:
        raise RemoteServerError(f"{endpoint.url}: GET /models did not return an OpenAI model list") from exc


def list_models(endpoint: Endpoint, api_key: str | None, timeout_s: float = 30.0) -> list[RemoteModel]:
    """The models an endpoint serves (GET /v1/models)."""
    endpoint.check()
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    with httpx.Client(
        base_url=endpoint.url, headers=headers, timeout=timeout_s, follow_redirects=False, trust_env=False
    ) as client:
        return _list_models(client, endpoint)


class _StreamState:
    """One request's chunks -> events (the shared :class:`ChunkReader`), plus what only remote
    servers report: usage, vLLM / SGLang acceptance figures, and times measured here."""

    def __init__(self, kind: str, model: str = "", with_logprobs: bool = False) -> None:
        self.kind = kind
        self.model = model
        self.reader = ChunkReader("the server", with_logprobs=with_logprobs, error=RemoteServerError)
        self.cancelled = False
        self.usage: Mapping[str, Any] = {}
        self.last_usage_completion = 0
        self.first_at: float | None = None
        self.last_at: float | None = None
        self.acceptance: acc.Acceptance | None = None

    @property
    def text_started(self) -> bool:
        return self.reader.text_started

    @property
    def pieces(self) -> list[str]:
        return self.reader.pieces

    def on_chunk(self, chunk: Any, now: float) -> Iterator[Event]:
        if isinstance(chunk, Mapping) and "error" not in chunk:
            usage = chunk.get("usage")
            if isinstance(usage, Mapping):
                self.usage = usage
            if self.kind == "vllm":
                self.acceptance = acc.vllm_request_metrics(chunk) or self.acceptance
            elif self.kind == "sglang":
                meta = acc.find_sglang_meta(chunk)
                if meta is not None:
                    self.acceptance = acc.sglang_meta_info(meta) or self.acceptance
        events = self.reader.feed(chunk, self._untimed_tokens)
        if any(isinstance(e, TextDelta) for e in events):
            if self.first_at is None:
                self.first_at = now
            self.last_at = now
        yield from events

    def _untimed_tokens(self, chunk: Mapping[str, Any], text: str) -> int:
        """Tokens of a chunk without llama-server timings: vLLM's continuous usage, else 1 a text."""
        usage = chunk.get("usage")
        if isinstance(usage, Mapping) and chunk.get("choices"):  # vLLM continuous usage stats
            done = int(usage.get("completion_tokens") or 0)
            n = max(0, done - self.last_usage_completion)
            self.last_usage_completion = done
            return n
        return 1 if text else 0

    def completion_tokens(self) -> int:
        if self.reader.saw_timings:
            return self.reader.timing.rounds.emitted_total
        reported = self.usage.get("completion_tokens") if self.usage else None
        return int(reported) if isinstance(reported, int) else self.reader.untimed_tokens

    def closing_rounds(self) -> Iterator[Event]:
        if self.reader.saw_timings:
            yield from self.reader.closing_rounds()
        elif self.acceptance is not None and self.acceptance.per_round:
            for i, (drafted, accepted) in enumerate(self.acceptance.per_round):
                yield Round(i, drafted, accepted, accepted + 1)

    def _final_acceptance(self) -> acc.Acceptance:
        if self.reader.timing.saw_draft_counters:
            counts = self.reader.timing.rounds
            return acc.Acceptance(
                "llama.cpp timings", counts.drafted_total, counts.accepted_total, counts.round_count
            )
        return self.acceptance or acc.UNREPORTED

    def finish(self, started: float, interrupted: bool = False) -> RemoteFinished:
        a = self._final_acceptance()
        rounds = a.rounds if a.rounds is not None else 0
        if self.reader.saw_timings:
            timing = self.reader.timing
            prompt_ms, decode_ms, prompt_tokens = timing.prompt_ms, timing.decode_ms, timing.prompt_tokens
            rounds = timing.rounds.round_count
        else:  # measured here: time to first token, then first to last token
            first = self.first_at if self.first_at is not None else started
            prompt_ms = (first - started) * 1000.0
            decode_ms = ((self.last_at or first) - first) * 1000.0
            prompt_tokens = int(self.usage.get("prompt_tokens") or 0) if self.usage else 0
        return RemoteFinished(
            reason="cancelled" if (self.cancelled or interrupted) else self.reader.reason,
            prompt_tokens=prompt_tokens,
            completion_tokens=self.completion_tokens(),
            prompt_ms=prompt_ms,
            decode_ms=decode_ms,
            drafted_total=a.drafted or 0,
            accepted_total=a.accepted or 0,
            rounds=rounds,
            drafted_known=a.drafted is not None,
            tool_calls=self.reader.tool_calls(),
            stop_sequence=self.reader.stop_sequence,
            token_ids=self.reader.token_ids,
            candidates=[list(row) for row in self.reader.candidates]
            if self.reader.token_ids is not None
            else None,
            acceptance_source=a.source,
            acceptance_note=a.note,
            drafted=a.drafted,
            accepted=a.accepted,
            interrupted=interrupted,
            server_kind=self.kind,
            model=self.model,
        )
