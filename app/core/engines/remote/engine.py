"""Remote engine: an OpenAI-compatible server (vLLM, SGLang, llama-server, ...) over HTTP(S).

Requests go through ``httpx`` and the streamed Server-Sent Events are read with ``httpx-sse``
(no hand-written SSE parsing). The engine yields the same events as the local engines
(:class:`TextDelta`, :class:`Round`, :class:`Finished`) and honours :class:`CancelToken` and
:class:`Sampling` (max tokens, stop, seed, temperature, top-p, top-k, repeat penalty).

Acceptance numbers come only from what the server reports (see
:mod:`app.core.engines.remote.acceptance`); llama-server's per-token ``timings`` become rounds through the
same :class:`TimingsRounds` as the in-process llama.cpp engine. A server that reports nothing
gets ``drafted``/``accepted`` of None in :class:`RemoteFinished`, never 0.

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
from dataclasses import dataclass, field
from typing import Any

import httpx
from httpx_sse import SSEError, connect_sse

from app.core.engines.base import (
    CancelToken,
    ChatMessage,
    EngineError,
    Event,
    Finished,
    FinishReason,
    GenerationError,
    LoadRequest,
    Round,
    Sampling,
    TextDelta,
    TokenCandidate,
    error_message_of,
)
from app.core.engines.remote import acceptance as acc
from app.core.engines.remote.endpoints import Endpoint, EndpointError
from app.core.speculative import TimingsRounds

log = logging.getLogger(__name__)

#: ``owned_by`` of GET /v1/models -> the server kind Tandem knows how to read stats from.
_KINDS = {"llamacpp": "llama.cpp", "vllm": "vllm", "sglang": "sglang"}


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
        self.last_candidates: list[list[TokenCandidate]] | None = None
        self._n_ctx: int | None = None

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

    def list_models(self) -> list[RemoteModel]:
        return _list_models(self._client, self.endpoint)

    # --- context length and token counts (history trimming, issue 8) -----------------------------
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
                    props = self._root_call("GET", "/props", None)
                    settings = props.get("default_generation_settings") or {}
                    n_ctx = int(settings.get("n_ctx") or props.get("n_ctx") or 0)
                    self.count_prompt_tokens([{"role": "user", "content": "hi"}])  # the routes exist
                    self._n_ctx = n_ctx
                elif self.server_kind == "vllm":
                    probe = self._root_call("POST", "/tokenize", self._vllm_tokenize_body([]))
                    self._n_ctx = int(probe.get("max_model_len") or 0)
            except (EngineError, TypeError, ValueError) as exc:
                log.info("%s: context length unknown, history is not trimmed: %s", self.endpoint.label, exc)
        return self._n_ctx

    def count_prompt_tokens(self, messages: Sequence[ChatMessage]) -> int:
        """The prompt's size in the server's own tokens, chat template applied (only asked when
        :attr:`n_ctx` is known)."""
        if self.server_kind == "llama.cpp":
            body = {"messages": [dict(m) for m in messages]}
            prompt = self._root_call("POST", "/apply-template", body).get("prompt")
            if not isinstance(prompt, str):
                raise RemoteServerError(f"{self.endpoint.url}: /apply-template returned no prompt")
            tokens = self._root_call("POST", "/tokenize", {"content": prompt, "add_special": True})
            return len(tokens.get("tokens") or [])
        if self.server_kind == "vllm":
            counted = self._root_call("POST", "/tokenize", self._vllm_tokenize_body(messages))
            return int(counted.get("count") or 0)
        raise RemoteServerError(f"{self.endpoint.url}: this server cannot count tokens")

    def _vllm_tokenize_body(self, messages: Sequence[ChatMessage]) -> dict[str, Any]:
        return {
            "model": self.model,
            "messages": [dict(m) for m in messages] or [{"role": "user", "content": ""}],
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
    def _body(self, messages: Sequence[ChatMessage], sampling: Sampling) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [dict(m) for m in messages],
            "stream": True,
            "stream_options": {"include_usage": True},
            "max_tokens": sampling.max_tokens,
            "temperature": sampling.temperature,
            "top_p": sampling.top_p,
        }
        if sampling.top_k:
            body["top_k"] = sampling.top_k  # vLLM, SGLang and llama-server accept this extension
        if sampling.seed is not None:
            body["seed"] = sampling.seed
        if sampling.stop:
            body["stop"] = list(sampling.stop)
        if sampling.repeat_penalty != 1.0:
            key = "repeat_penalty" if self.server_kind == "llama.cpp" else "repetition_penalty"
            body[key] = sampling.repeat_penalty
        if self.server_kind == "llama.cpp":
            body["timings_per_token"] = True
        elif self.server_kind == "sglang":
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
    ) -> Iterator[Event]:
        if self._closed:
            raise GenerationError("the remote connection was closed", "Connect again.")
        self.last_candidates = None  # servers do not expose drafted-token candidates uniformly
        return self._stream(self._body(messages, sampling), cancel or CancelToken())

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
            before = self._vllm_counters() if self.server_kind == "vllm" else None
            state = _StreamState(self.server_kind, self.model)
            started = time.perf_counter()
            done = threading.Event()
            watcher: threading.Thread | None = None
            try:
                with connect_sse(self._client, "POST", "/chat/completions", json=body) as source:
                    response = source.response
                    if response.status_code != 200:
                        raise _status_error(response, self.endpoint, self.model)

                    def watch() -> None:  # closes the stream when cancelled while waiting for data
                        while not done.is_set():
                            if cancel.wait(0.05):
                                if not done.is_set():
                                    response.close()
                                return

                    watcher = threading.Thread(target=watch, name="tandem-remote-cancel")
                    watcher.start()
                    try:
                        for sse in source.iter_sse():
                            if sse.data.strip() == "[DONE]":
                                break
                            try:
                                chunk = json.loads(sse.data)
                            except ValueError as exc:
                                raise RemoteServerError(
                                    f"{self.endpoint.url}: the server sent a malformed event"
                                ) from exc
                            yield from state.on_chunk(chunk, time.perf_counter())
                            if cancel.cancelled:
                                state.cancelled = True
                                break
                    except (httpx.TransportError, httpx.StreamError, SSEError) as exc:
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
                    except RemoteServerError as exc:
                        if state.text_started:
                            yield state.finish(started, interrupted=True)
                            raise StreamInterrupted(str(exc), "".join(state.pieces)) from exc
                        raise
            except httpx.TransportError as exc:
                raise _transport_error(exc, self.endpoint) from exc
            finally:
                done.set()
                if watcher is not None:
                    watcher.join()
            if state.acceptance is None and before is not None and not state.cancelled:
                after = self._vllm_counters()
                if after is not None:
                    state.acceptance = acc.vllm_counter_delta(before, after)
            yield from state.closing_rounds()
            yield state.finish(started)

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
    """Chunk dicts -> events for one request; keeps what is needed for :class:`RemoteFinished`."""

    def __init__(self, kind: str, model: str = "") -> None:
        self.kind = kind
        self.model = model
        self.timing = TimingsRounds()
        self.pieces: list[str] = []
        self.text_started = False
        self.cancelled = False
        self.reason: FinishReason = "stop"
        self.usage: Mapping[str, Any] = {}
        self.timings: Mapping[str, Any] = {}
        self.last_usage_completion = 0
        self.streamed_tokens = 0
        self.first_at: float | None = None
        self.last_at: float | None = None
        self.acceptance: acc.Acceptance | None = None
        self._last_from_draft = False

    def on_chunk(self, chunk: Any, now: float) -> Iterator[Event]:
        if not isinstance(chunk, Mapping):
            raise RemoteServerError(f"unexpected event from the server: {str(chunk)[:80]!r}")
        if "error" in chunk:
            msg = error_message_of(chunk) or " ".join(str(chunk["error"]).split())[:300]
            raise RemoteServerError(f"the server reported an error: {msg}")
        usage = chunk.get("usage")
        if isinstance(usage, Mapping):
            self.usage = usage
        timings = chunk.get("timings")
        if isinstance(timings, Mapping) and timings:
            self.timings = timings
        if self.kind == "vllm":
            self.acceptance = acc.vllm_request_metrics(chunk) or self.acceptance
        elif self.kind == "sglang":
            meta = acc.find_sglang_meta(chunk)
            if meta is not None:
                self.acceptance = acc.sglang_meta_info(meta) or self.acceptance
        choices = chunk.get("choices") or []
        choice: Mapping[str, Any] = choices[0] if choices and isinstance(choices[0], Mapping) else {}
        delta = choice.get("delta") or {}
        text = (delta.get("content") or "") if isinstance(delta, Mapping) else ""
        n_tokens = self._tokens_in(chunk, timings if isinstance(timings, Mapping) else None, text)
        yield from self.timing.pop_closed()
        if text or n_tokens:
            if self.first_at is None:
                self.first_at = now
            self.last_at = now
        if text:
            self.text_started = True
            self.pieces.append(text)
        if text or n_tokens:
            yield TextDelta(text, n_tokens, self._last_from_draft)
        finish = choice.get("finish_reason")
        if finish:
            self.reason = "length" if finish == "length" else "stop"

    def _tokens_in(self, chunk: Mapping[str, Any], timings: Mapping[str, Any] | None, text: str) -> int:
        """Tokens carried by this chunk, from the server's own counters where it has them."""
        self._last_from_draft = False
        if self.kind == "llama.cpp" and timings:
            n, self._last_from_draft = self.timing.step(timings)
            self.streamed_tokens += n
            return n
        usage = chunk.get("usage")
        if isinstance(usage, Mapping) and chunk.get("choices"):  # vLLM continuous usage stats
            done = int(usage.get("completion_tokens") or 0)
            n = max(0, done - self.last_usage_completion)
            self.last_usage_completion = done
            self.streamed_tokens += n
            return n
        if text:
            self.streamed_tokens += 1
            return 1
        return 0

    def completion_tokens(self) -> int:
        if self.kind == "llama.cpp" and self.timings:
            return self.timing.rounds.emitted_total
        reported = self.usage.get("completion_tokens") if self.usage else None
        return int(reported) if isinstance(reported, int) else self.streamed_tokens

    def closing_rounds(self) -> Iterator[Round]:
        if self.kind == "llama.cpp" and self.timings:
            yield from self.timing.finish()
        elif self.acceptance is not None and self.acceptance.per_round:
            for i, (drafted, accepted) in enumerate(self.acceptance.per_round):
                yield Round(i, drafted, accepted, accepted + 1)

    def _final_acceptance(self) -> acc.Acceptance:
        if self.kind == "llama.cpp" and self.timing.saw_draft_counters:
            counts = self.timing.rounds
            return acc.Acceptance(
                "llama.cpp timings", counts.drafted_total, counts.accepted_total, counts.round_count
            )
        return self.acceptance or acc.UNREPORTED

    def finish(self, started: float, interrupted: bool = False) -> RemoteFinished:
        a = self._final_acceptance()
        t = self.timings
        if self.kind == "llama.cpp" and t:
            timing = self.timing
            prompt_ms, decode_ms, prompt_tokens = timing.prompt_ms, timing.decode_ms, timing.prompt_tokens
        else:  # measured here: time to first token, then first to last token
            first = self.first_at if self.first_at is not None else started
            prompt_ms = (first - started) * 1000.0
            decode_ms = ((self.last_at or first) - first) * 1000.0
            prompt_tokens = int(self.usage.get("prompt_tokens") or 0) if self.usage else 0
        rounds = a.rounds if a.rounds is not None else 0
        if self.kind == "llama.cpp" and self.timings:
            rounds = self.timing.rounds.round_count
        return RemoteFinished(
            reason="cancelled" if (self.cancelled or interrupted) else self.reason,
            prompt_tokens=prompt_tokens,
            completion_tokens=self.completion_tokens(),
            prompt_ms=prompt_ms,
            decode_ms=decode_ms,
            drafted_total=a.drafted or 0,
            accepted_total=a.accepted or 0,
            rounds=rounds,
            drafted_known=a.drafted is not None,
            acceptance_source=a.source,
            acceptance_note=a.note,
            drafted=a.drafted,
            accepted=a.accepted,
            interrupted=interrupted,
            server_kind=self.kind,
            model=self.model,
        )
