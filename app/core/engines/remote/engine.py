"""Remote engine: an OpenAI-compatible server (vLLM, SGLang, llama-server, ...) over HTTP(S).

The engine talks to the server with one long-lived ``httpx.AsyncClient`` on the engine loop
(:func:`~app.core.engines.loop.engine_loop`), as the local llama.cpp engine talks to its child:
:meth:`RemoteEngine.stream` is read there with no thread per request (a cancel of the reading task
closes the connection, also before the server sent its headers), and the blocking calls (connect,
token counts) are the same coroutines run on that loop from the caller's thread. What the server
says about itself (its speculation, vision, context length) is asked once, at connect, so the
properties never wait on the network. The request body and the chunk -> event translation are the
one llama-server client's (:mod:`app.core.engines.llamaserver`), shared with the local llama.cpp
engine. The engine yields the same events as the local engines (:class:`TextDelta`,
:class:`Round`, :class:`Finished`) and honours a cancel and :class:`Sampling` (max tokens, stop,
seed, temperature, top-p, top-k, repeat penalty).

Acceptance numbers come only from what the server reports (see
:mod:`app.core.engines.remote.acceptance`); llama-server's per-token ``timings`` become rounds
through the same :class:`~app.core.engines.llamaserver.ChunkReader` as the local llama.cpp engine.
A server that reports nothing gets ``drafted``/``accepted`` of None in :class:`RemoteFinished`, never 0.

One request's chunks become events in :mod:`~app.core.engines.remote.reading`; the server's models
are listed by :mod:`~app.core.engines.remote.models`. Every failure is one typed :class:`EngineError`
line with a hint (:mod:`~app.core.engines.remote.errors`). A stream cut mid-answer keeps
the text already delivered: a :class:`RemoteFinished` with reason ``"cancelled"`` and
``interrupted=True`` is yielded first, then :class:`StreamInterrupted` is raised.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import httpx

from app.core import images
from app.core.cancel import CancelToken
from app.core.engines.base import (
    ChatMessage,
    EngineError,
    Event,
    GenerateRequest,
    GenerationError,
    ImagesUnsupportedError,
    LoadRequest,
    Sampling,
    TokenCandidate,
    has_images,
    structured_refusal,
)
from app.core.engines.calls import FunctionTool, ToolChoice
from app.core.engines.llamaserver import (
    TOKEN_ID_PREFIX,
    MalformedEvent,
    SSEStream,
    chat_body,
    count_prompt_tokens,
    n_ctx_of,
)
from app.core.engines.loop import engine_loop
from app.core.engines.remote import acceptance as acc
from app.core.engines.remote.acceptance import ServerMethod, speculation_of_props, speculation_of_vllm_config
from app.core.engines.remote.endpoints import Endpoint, EndpointError
from app.core.engines.remote.errors import (
    AuthenticationFailed,
    EndpointUnreachable,
    RemoteError,
    RemoteModelNotFound,
    RemoteServerError,
    RemoteTimeout,
    StreamInterrupted,
    TLSFailure,
    status_error,
    transport_error,
)
from app.core.engines.remote.models import STRUCTURED_KINDS, RemoteModel, list_models, models_of, server_kind
from app.core.engines.remote.reading import RemoteFinished, StreamState

log = logging.getLogger(__name__)

#: what callers import from here (errors, models and results live in their own modules)
__all__ = [
    "STRUCTURED_KINDS",
    "AuthenticationFailed",
    "EndpointUnreachable",
    "RemoteEngine",
    "RemoteError",
    "RemoteFinished",
    "RemoteLoadRequest",
    "RemoteModel",
    "RemoteModelNotFound",
    "RemoteServerError",
    "RemoteTimeout",
    "StreamInterrupted",
    "TLSFailure",
    "list_models",
    "server_kind",
]


# --- load request --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RemoteLoadRequest(LoadRequest):
    """A :class:`LoadRequest` for a server: ``model_path`` is the server's model id ('' = the only one)."""

    endpoint: Endpoint | None = None
    api_key: str | None = field(default=None, repr=False)
    timeout_s: float = 120.0


# --- the engine ----------------------------------------------------------------------------------------
#: how long a blocking call waits for its coroutine beyond the client's own timeouts
_RUN_MARGIN_S = 15.0


def _run(coro: Coroutine[Any, Any, Any], timeout_s: float) -> Any:
    """``coro`` run on the engine loop from a plain thread, waited for at most ``timeout_s``."""
    return engine_loop().run(coro, timeout=timeout_s + _RUN_MARGIN_S)


def _client_for(endpoint: Endpoint, api_key: str | None, timeout_s: float) -> httpx.AsyncClient:
    headers = {"Accept": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    return httpx.AsyncClient(
        base_url=endpoint.url,
        headers=headers,
        timeout=httpx.Timeout(timeout_s, connect=min(10.0, timeout_s)),
        follow_redirects=False,
        trust_env=False,  # no proxy or netrc credentials from the environment
    )


class RemoteEngine:
    name = "remote"

    def __init__(
        self, client: httpx.AsyncClient, endpoint: Endpoint, model: str, kind: str, timeout_s: float = 120.0
    ) -> None:
        #: the engine's one HTTP client, used on the engine loop only
        self._client = client
        self.endpoint = endpoint
        self.model = model
        self.server_kind = kind
        self.model_path = model
        self._timeout_s = timeout_s
        self._closed = False
        #: one request at a time (vLLM's counters are read before and after it); made on the loop
        self._turn: asyncio.Lock | None = None
        #: the responses being read, closed by :meth:`close`
        self._open: set[httpx.Response] = set()
        self._n_ctx: int | None = None
        #: llama-server's /props reply (or why it could not be read), asked once at connect
        self._props_reply: dict[str, Any] | EngineError | None = None
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
        """Check the endpoint, list its models and pick ``model`` ('' = the only one served); then
        ask what the server says about itself (speculation, vision, context length), once."""
        endpoint.check()
        say = progress or (lambda _msg: None)
        client = _client_for(endpoint, api_key, timeout_s)
        try:
            say(f"connecting to {endpoint.label}")
            models = _run(models_of(client, endpoint), timeout_s)
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
            engine = cls(client, endpoint, chosen.id, server_kind(chosen.owned_by), timeout_s)
            _run(engine._probe(), timeout_s * 3)
            say(f"ready ({chosen.id})")
            return engine
        except BaseException:
            with contextlib.suppress(Exception):
                _run(client.aclose(), 5.0)
            raise

    async def _props(self) -> dict[str, Any]:
        """llama-server's ``/props``, asked once per connection (its speculation, vision and
        context length all come from it); a failure is raised again to every reader."""
        if self._props_reply is None:
            try:
                self._props_reply = await self._root_call("GET", "/props", None)
            except EngineError as exc:
                self._props_reply = exc
        if isinstance(self._props_reply, EngineError):
            raise self._props_reply
        return self._props_reply

    async def _probe(self) -> None:
        """What the server says about itself, asked once per connection (on the engine loop)."""
        self._server_method = await self._probe_method()
        self._vision = await self._probe_vision()
        self._n_ctx = await self._probe_n_ctx()

    @property
    def spec_kind(self) -> str | None:
        """The speculation method the server runs, as far as it tells (see :attr:`server_method`):
        its configured method, "speculative" when it only shows drafting counters, None when it
        runs none or does not say."""
        return self.server_method.method

    @property
    def server_method(self) -> ServerMethod:
        """What the server says about its speculation (asked at connect)."""
        return self._server_method or ServerMethod(None, "not asked")

    async def _probe_method(self) -> ServerMethod:
        if self.server_kind == "vllm":
            return await self._vllm_method()
        if self.server_kind == "llama.cpp":
            try:
                return speculation_of_props(await self._props())
            except EngineError as exc:
                return ServerMethod(None, f"/props not readable ({exc})")
        return ServerMethod(None, "this server does not say whether it speculates")

    async def _vllm_method(self) -> ServerMethod:
        """vLLM's speculative config from ``/server_info`` (its development routes, on with
        ``VLLM_SERVER_DEV_MODE=1``), else what ``/metrics`` shows: drafting counters exist only
        on a server started with a speculative config (their per-position series give the depth)."""
        try:
            r = await self._client.get(self.endpoint.server_root + "/server_info", timeout=10.0)
            if r.status_code == 200:
                found = speculation_of_vllm_config(r.json())
                if found is not None:
                    return found
        except (httpx.HTTPError, ValueError):
            pass
        try:
            r = await self._client.get(self.endpoint.server_root + "/metrics", timeout=10.0)
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
        with its own error (shown as it comes). Asked at connect."""
        return True if self._vision is None else self._vision

    async def _probe_vision(self) -> bool:
        if self.server_kind != "llama.cpp":
            return True
        try:
            modalities = (await self._props()).get("modalities")
        except EngineError as exc:
            log.info("%s: /props not readable, images are sent as they come: %s", self.endpoint.label, exc)
            return True
        return bool(isinstance(modalities, Mapping) and modalities.get("vision"))

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
        return list(_run(models_of(self._client, self.endpoint), self._timeout_s))

    # --- context length and token counts (history trimming) -----------------------------
    @property
    def n_ctx(self) -> int:
        """The server's context length per request, 0 when it does not say (nothing is trimmed).

        llama-server reports it in ``/props``; vLLM with each ``/tokenize`` answer
        (``max_model_len``). Asked at connect; a server whose counting routes fail is treated as
        one that does not say.
        """
        return self._n_ctx or 0

    async def _probe_n_ctx(self) -> int:
        try:
            if self.server_kind == "llama.cpp":
                n_ctx = n_ctx_of(await self._props())
                hello: list[ChatMessage] = [{"role": "user", "content": "hi"}]
                await count_prompt_tokens(self._root_call, hello, None)
                return n_ctx  # the counting routes exist
            if self.server_kind == "vllm":
                probe = await self._root_call("POST", "/tokenize", self._vllm_tokenize_body([]))
                return int(probe.get("max_model_len") or 0)
        except (EngineError, TypeError, ValueError) as exc:
            log.info("%s: context length unknown, history is not trimmed: %s", self.endpoint.label, exc)
        return 0

    def count_prompt_tokens(
        self, messages: Sequence[ChatMessage], tools: Sequence[Mapping[str, Any]] | None = None
    ) -> int:
        """:meth:`measure_prompt` from a plain thread."""
        if self._closed:
            raise GenerationError("the remote connection was closed", "Connect again.")
        counted: int = _run(self.measure_prompt(messages, tools), 60.0)
        return counted

    async def measure_prompt(
        self, messages: Sequence[ChatMessage], tools: Sequence[Mapping[str, Any]] | None = None
    ) -> int:
        """The prompt's size in the server's own tokens, chat template applied (only asked when
        :attr:`n_ctx` is known); vLLM's count leaves ``tools`` out. Awaited on any event loop (the
        calls run on the engine loop)."""
        loop = engine_loop()
        if not loop.on_loop():
            return await asyncio.wrap_future(loop.submit(self.measure_prompt(messages, tools)))
        if self.server_kind == "llama.cpp":
            return await count_prompt_tokens(self._root_call, messages, tools)
        if self.server_kind == "vllm":
            counted = await self._root_call("POST", "/tokenize", self._vllm_tokenize_body(messages))
            return int(counted.get("count") or 0) + images.estimated_tokens(messages)
        raise RemoteServerError(f"{self.endpoint.url}: this server cannot count tokens")

    def _vllm_tokenize_body(self, messages: Sequence[ChatMessage]) -> dict[str, Any]:
        return {
            "model": self.model,
            "messages": [images.text_only(m) for m in messages] or [{"role": "user", "content": ""}],
            "add_generation_prompt": True,
        }

    async def _root_call(self, method: str, path: str, body: dict[str, Any] | None) -> dict[str, Any]:
        """A JSON call on the server's own (non-OpenAI) routes, with the connection's key."""
        try:
            r = await self._client.request(method, self.endpoint.server_root + path, json=body, timeout=30.0)
        except httpx.TransportError as exc:
            raise transport_error(exc, self.endpoint) from exc
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
        tools: Sequence[FunctionTool] | None = None,
        tool_choice: ToolChoice | None = None,
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

    def _request_body(self, request: GenerateRequest) -> dict[str, Any]:
        """The request checked against the connection and the server; its body."""
        if self._closed:
            raise GenerationError("the remote connection was closed", "Connect again.")
        if request.response_format is not None and not self.supports_structured_output:
            raise GenerationError(structured_refusal(f"this {self.server_kind} server"))
        if has_images(request.messages) and not self.supports_images:
            raise ImagesUnsupportedError(self.model)
        return self._body(
            request.messages,
            request.sampling,
            request.tools,
            request.tool_choice,
            request.response_format,
            max(0, request.top_logprobs),
        )

    async def stream(self, request: GenerateRequest) -> AsyncIterator[Event]:
        """The request's events, read on the engine loop (no thread per request); a caller on
        another event loop gets them relayed. Cancelling the consuming task closes the
        connection."""
        body = self._request_body(request)
        state = StreamState(self.server_kind, self.model, with_logprobs=bool(body.get("logprobs")))
        started = time.perf_counter()
        async for event in engine_loop().relay(lambda: self._stream(body, state, started, request.stop)):
            yield event

    async def _vllm_counters(self) -> dict[str, float] | None:
        try:
            r = await self._client.get(self.endpoint.server_root + "/metrics", timeout=5.0)
            if r.status_code != 200:
                return None
            return acc.vllm_counter_snapshot(r.text)
        except (httpx.HTTPError, ValueError):
            return None

    def _finished(self, state: StreamState, started: float) -> RemoteFinished:
        method = self.server_method
        return replace(
            state.finish(started), method=method.method, method_source=method.source, draft_depth=method.depth
        )

    async def _stream(
        self, body: dict[str, Any], state: StreamState, started: float, stop: CancelToken | None = None
    ) -> AsyncIterator[Event]:
        """On the engine loop: one request at a time on this connection, its chunks as events; a
        set ``stop`` ends it at the next chunk, closed by a ``cancelled`` finish."""
        if self._turn is None:
            self._turn = asyncio.Lock()
        async with self._turn:
            if self._closed:
                raise GenerationError("the remote connection was closed", "Connect again.")
            before = await self._vllm_counters() if self.server_kind == "vllm" else None
            try:
                async with self._client.stream("POST", "/chat/completions", json=body) as response:
                    if response.status_code != 200:
                        await response.aread()
                        raise status_error(response, self.endpoint, self.model)
                    kind = response.headers.get("content-type", "")
                    if "text/event-stream" not in kind:
                        raise RemoteServerError(
                            f"{self.endpoint.url}: the server did not stream events (content type {kind!r})"
                        )
                    self._open.add(response)
                    try:
                        async with contextlib.aclosing(self._read(response, state, started)) as reading:
                            async for event in reading:
                                yield event
                                if stop is not None and stop.cancelled:
                                    state.cancelled = True  # leaving the response closes the connection
                                    break
                    finally:
                        self._open.discard(response)
            except httpx.TransportError as exc:
                if not self.closed:
                    raise transport_error(exc, self.endpoint) from exc
                state.cancelled = True  # close() ended the connection under the request
            if state.acceptance is None and before is not None and not state.cancelled:
                after = await self._vllm_counters()
                if after is not None:
                    state.acceptance = acc.vllm_counter_delta(before, after)
            for event in state.closing_rounds():
                yield event
            if state.reader.with_logprobs and self.server_kind == "vllm" and not state.cancelled:
                await self._name_candidates(state.reader.candidates)
            yield self._finished(state, started)

    async def _name_candidates(self, rows: list[list[TokenCandidate]]) -> None:
        """Give the candidates a vLLM server named only by id their text (``/detokenize`` once per
        id and connection); a server without that route leaves the ``token_id:N`` names."""
        for row in rows:
            for i, c in enumerate(row):
                if not c.text.startswith(TOKEN_ID_PREFIX):
                    continue
                text = self._token_texts.get(c.id)
                if text is None:
                    try:
                        answer = await self._root_call(
                            "POST", "/detokenize", {"model": self.model, "tokens": [c.id]}
                        )
                    except EngineError:
                        return
                    text = str(answer.get("prompt", c.text))
                    self._token_texts[c.id] = text
                row[i] = TokenCandidate(c.id, text, c.logprob)

    async def _read(
        self, response: httpx.Response, state: StreamState, started: float
    ) -> AsyncGenerator[Event, None]:
        """The events of a streamed answer; a cut keeps the text that arrived (see the module doc)."""
        events = SSEStream((), "the server")
        try:
            async for line in response.aiter_lines():
                # read to the end (nothing follows the end marker) rather than break: a break
                # leaves httpx's stream generators suspended until they are finalized
                chunk = None if events.done else events.feed(line)
                if chunk is not None and not events.done:
                    for event in state.on_chunk(chunk, time.perf_counter()):
                        yield event
        except (httpx.TransportError, httpx.StreamError) as exc:
            if self._closed:
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
                raise transport_error(exc, self.endpoint) from exc
        except (RemoteServerError, MalformedEvent) as exc:
            message = f"{self.endpoint.url}: {exc}"
            if state.text_started:
                yield state.finish(started, interrupted=True)
                raise StreamInterrupted(message, "".join(state.pieces)) from exc
            raise RemoteServerError(message) from exc

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """End the requests being read (each ends as stopped) and the connection; returns at once."""
        if self._closed:
            return
        self._closed = True
        loop = engine_loop()
        if loop.running:
            with contextlib.suppress(RuntimeError):  # the loop ended first: the sockets went with it
                loop.submit(self._close_all())

    async def _close_all(self) -> None:
        for response in list(self._open):
            await response.aclose()
        await self._client.aclose()

    def __enter__(self) -> RemoteEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
