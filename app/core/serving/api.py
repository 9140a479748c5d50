"""The local OpenAI- and Anthropic-compatible server: a Starlette app run by uvicorn on its own thread.

``LocalServer(model, config).start()`` binds (127.0.0.1 by default), serves ``GET /v1/models``,
``POST /v1/chat/completions`` and ``POST /v1/responses`` (OpenAI, :mod:`~app.core.serving.protocol`,
:mod:`~app.core.serving.responses_api`) and ``POST /v1/messages`` (Anthropic,
:mod:`~app.core.serving.messages_api`), SSE when ``stream`` is true, until :meth:`LocalServer.stop`.
Every request needs the key (``Authorization: Bearer <key>`` or ``x-api-key: <key>``); bodies and
``max_tokens`` are bounded; errors use the shape of the API the path belongs to.

Requests reach the engine through its public ``generate``: each one is pumped by a short-lived
``tandem-serve-gen-N`` thread that feeds the engine's events to the request's one
:class:`~app.core.answer.AnswerCollector` and moves the text onto the event loop; the response
(and the :class:`ServedRequest` the log shows) is made from that :class:`~app.core.answer.Answer`.
The engine runs one job at a time on its own worker thread, so the server's requests and the GUI
chat share one queue; :class:`Admission` bounds how many server requests may run or wait (the rest
get 429 with ``Retry-After``). A client that disconnects cancels its generation (its
:class:`CancelToken`), so the engine is free for the next request as soon as the current token is
done.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from app.core import images, paths
from app.core.answer import Answer, AnswerCollector
from app.core.cancel import CancelToken
from app.core.engines.base import (
    ChatMessage,
    ContextLengthError,
    Engine,
    EngineError,
    Event,
    InvalidRequestError,
    TokenCounter,
    structured_refusal,
)
from app.core.images import CheckedImage, ImageError, ImageStore
from app.core.serving import messages_api as M
from app.core.serving import protocol as P
from app.core.serving import responses_api as R
from app.core.serving.keys import matches
from app.core.serving.tool_stream import Piece, ToolCallStream

log = logging.getLogger(__name__)

LOOPBACK = ("127.0.0.1", "::1", "localhost")


def is_loopback(host: str) -> bool:
    return host in LOOPBACK


@dataclass(frozen=True)
class ServedModel:
    """What the server serves: the engine, the id clients see, how to read its tool calls."""

    engine: Engine
    model_id: str
    #: the tool-call style of the family (``tool_parser``), or None (tool calls stay text)
    tool_style: str | None = None
    #: the speculative method the engine runs, or None when speculation is off
    spec_method: str | None = None


@dataclass(frozen=True)
class ServerConfig:
    api_key: str
    host: str = "127.0.0.1"
    #: 0 picks a free port
    port: int = 8080
    #: requests that may wait while one runs; one more gets 429
    max_waiting: int = 4
    retry_after_s: int = 5
    limits: P.Limits = field(default_factory=P.Limits)
    #: CORS origins allowed to call the server from a browser; none by default
    cors_origins: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.api_key:
            raise ValueError("the server needs an API key")
        if self.max_waiting < 0:
            raise ValueError("max_waiting must be 0 or more")


@dataclass(frozen=True)
class ServedRequest:
    """One answered request, for the GUI's log and the CLI's output (``tandem serve --json`` prints
    its fields). A small immutable record made from the request's :class:`Answer` by :meth:`of`:
    it crosses to the GUI thread and stays in the log, where the answer's text is not wanted."""

    when: float
    client: str
    stream: bool
    status: str  # "ok" | "cancelled" | "error"
    prompt_tokens: int = 0
    completion_tokens: int = 0
    drafted: int = 0
    accepted: int = 0
    rounds: int = 0
    acceptance_rate: float | None = None
    mean_accepted_length: float | None = None
    decode_tps: float | None = None
    tool_calls: int = 0
    error: str = ""

    @classmethod
    def of(
        cls, answer: Answer, client: str, stream: bool, status: str, tool_calls: int = 0, error: str = ""
    ) -> ServedRequest:
        figures = P.speculation_figures(answer, None)
        return cls(
            time.time(),
            client,
            stream,
            status,
            answer.prompt_tokens,
            answer.completion_tokens,
            figures["drafted"],
            figures["accepted"],
            figures["rounds"],
            figures["acceptance_rate"],
            figures["mean_accepted_length"],
            answer.decode_tps,
            tool_calls,
            error,
        )


class Admission:
    """At most ``1 + max_waiting`` server requests in flight (running or waiting their turn)."""

    def __init__(self, max_waiting: int) -> None:
        self.limit = 1 + max_waiting
        self._lock = threading.Lock()
        self._count = 0

    def try_enter(self) -> bool:
        with self._lock:
            if self._count >= self.limit:
                return False
            self._count += 1
            return True

    def leave(self) -> None:
        with self._lock:
            self._count -= 1

    @property
    def in_flight(self) -> int:
        with self._lock:
            return self._count


def _is_messages_path(path: str) -> bool:
    """Requests answered in Anthropic's shapes (errors included)."""
    return path.startswith("/v1/messages")


class _Auth:
    """ASGI middleware: every HTTP request needs the key (checked before the body is read), as
    ``Authorization: Bearer <key>`` or (Anthropic's clients) ``x-api-key: <key>``."""

    def __init__(self, app: ASGIApp, key: Callable[[], str]) -> None:
        self.app = app
        self.key = key

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") == "OPTIONS":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        header = headers.get(b"authorization", b"").decode("latin-1")
        scheme, _, given = header.partition(" ")
        bearer = scheme.lower() == "bearer" and matches(given.strip(), self.key())
        x_key = headers.get(b"x-api-key")
        if not bearer and not (x_key is not None and matches(x_key.decode("latin-1").strip(), self.key())):
            shown = header or x_key is not None
            message = (
                "Invalid API key."
                if shown
                else "Missing API key: send 'Authorization: Bearer <key>' or 'x-api-key: <key>'."
            )
            body = (
                M.error_body(401, message)
                if _is_messages_path(str(scope.get("path", "")))
                else P.error_body(message, "invalid_request_error", None, "invalid_api_key")
            )
            response = JSONResponse(body, status_code=401, headers={"WWW-Authenticate": "Bearer"})
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


_DONE = object()


class _Pump:
    """Runs one request's generation on a ``tandem-serve-gen`` thread: its events go into the
    request's one :class:`AnswerCollector` there, and the text they add moves onto the event loop.

    :attr:`answer` is what the engine did (complete even when the client left early); the handler
    reads it once :meth:`texts` has ended."""

    counter = 0

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        events: Callable[[], Iterator[Event]],
        on_end: Callable[[_Pump], None],
    ) -> None:
        _Pump.counter += 1
        self.loop = loop
        self.queue: asyncio.Queue[object] = asyncio.Queue()
        self.cancel = CancelToken()
        self._events = events
        self._on_end = on_end
        self._collector = AnswerCollector()
        #: set by the response handler: how the request ended for the client
        self.status = "cancelled"
        self.tool_calls = 0
        self.error = ""
        self._sides_left = 2  # the engine side (this thread) and the client side (the handler)
        self._sides_lock = threading.Lock()
        self.on_both_done: Callable[[], None] | None = None
        self.thread = threading.Thread(
            target=self._run, name=f"tandem-serve-gen-{_Pump.counter}", daemon=True
        )

    @property
    def answer(self) -> Answer:
        return self._collector.answer

    def side_done(self) -> None:
        """Called once by each side; the request is reported when both are done."""
        with self._sides_lock:
            self._sides_left -= 1
            last = self._sides_left == 0
        if last and self.on_both_done is not None:
            self.on_both_done()

    def _put(self, item: object) -> bool:
        try:
            self.loop.call_soon_threadsafe(self.queue.put_nowait, item)
        except RuntimeError:  # the loop is gone (server stopped): stop the generation
            self.cancel.cancel()
            return False
        return True

    def _run(self) -> None:
        try:
            for ev in self._events():
                text = self._collector.feed(ev)
                if text and not self._put(text):
                    break
        except BaseException as exc:
            self._put(exc)
        finally:
            self._collector.end()
            self._put(_DONE)
            self._on_end(self)

    async def texts(self) -> AsyncIterator[str]:
        """The answer's text as it streams; the engine's error is raised here."""
        while True:
            item = await self.queue.get()
            if item is _DONE:
                return
            if isinstance(item, BaseException):
                raise item
            if isinstance(item, str):
                yield item


class _RequestImages:
    """The decoded images of requests being answered, as files in a private directory under the
    cache dir: written when a request is admitted, removed when its last request ends (two
    requests with the same picture share one file) and all of them when the server stops."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._users: dict[str, int] = {}
        self._root: Path | None = None

    def _store(self) -> ImageStore:
        if self._root is None:
            base = paths.cache_dir() / "api-images"
            base.mkdir(parents=True, exist_ok=True)
            self._root = Path(tempfile.mkdtemp(prefix="serve-", dir=base))
        return ImageStore(self._root)

    def acquire(self, found: dict[str, CheckedImage]) -> dict[str, str]:
        """Files of a request's images (name -> path); a full disk is a 507 for this request."""
        with self._lock:
            store = self._store()
            out: dict[str, str] = {}
            try:
                for name, image in found.items():
                    store.put(image)
                    self._users[name] = self._users.get(name, 0) + 1
                    out[name] = str(store.path_of(name))
            except ImageError as exc:
                self._drop(store, list(out))
                raise P.ApiError(507, str(exc), "server_error", code="insufficient_storage") from None
            return out

    def release(self, found: dict[str, CheckedImage]) -> None:
        if not found:
            return
        with self._lock:
            if self._root is not None:
                self._drop(ImageStore(self._root), list(found))

    def _drop(self, store: ImageStore, names: list[str]) -> None:
        for name in names:
            left = self._users.get(name, 0) - 1
            if left > 0:
                self._users[name] = left
                continue
            self._users.pop(name, None)
            with contextlib.suppress(OSError):
                store.path_of(name).unlink()

    def close(self) -> None:
        with self._lock:
            if self._root is not None:
                shutil.rmtree(self._root, ignore_errors=True)
                self._root = None
                self._users.clear()


def _with_image_paths(messages: list[ChatMessage], paths_by_name: dict[str, str]) -> list[ChatMessage]:
    out: list[ChatMessage] = []
    for m in messages:
        names = m.get("images")
        if names:
            m = cast(ChatMessage, {**m, "images": [paths_by_name[n] for n in names]})
        out.append(m)
    return out


class LocalServer:
    """One HTTP server over one served model; :meth:`start` and :meth:`stop` from any thread."""

    def __init__(
        self,
        model: ServedModel | None,
        config: ServerConfig,
        on_request: Callable[[ServedRequest], None] | None = None,
    ) -> None:
        self.config = config
        self._model = model
        self.on_request = on_request
        self.admission = Admission(config.max_waiting)
        self._pumps: set[_Pump] = set()
        self._pumps_lock = threading.Lock()
        self._uvicorn: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._sock: socket.socket | None = None
        self._startup_error: BaseException | None = None
        #: the image files of requests being answered (engines read images from files)
        self._images = _RequestImages()
        self.port = 0
        self.app = self._build_app()

    # --- model -----------------------------------------------------------------------------------
    @property
    def model(self) -> ServedModel | None:
        return self._model

    def set_model(self, model: ServedModel | None) -> None:
        """Serve another model (or none: requests get 503) from the next request on."""
        self._model = model

    # --- lifecycle ---------------------------------------------------------------------------------
    @property
    def address(self) -> str:
        host = self.config.host
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{self.port}/v1"

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, timeout: float = 20.0) -> None:
        """Bind and serve; returns once requests are answered. OSError when the port is taken."""
        if self.running:
            return
        family = socket.AF_INET6 if ":" in self.config.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.config.host, self.config.port))
        except OSError:
            sock.close()
            raise
        sock.listen(64)
        self._sock = sock
        self.port = sock.getsockname()[1]
        if not is_loopback(self.config.host):
            log.warning(
                "the API server listens on %s: other machines on the network can reach it "
                "(every request still needs the API key)",
                self.config.host,
            )
        cfg = uvicorn.Config(
            self.app,
            log_level="warning",
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=2,
            loop="asyncio",
            http="h11",
        )
        self._uvicorn = uvicorn.Server(cfg)
        self._startup_error = None
        self._thread = threading.Thread(target=self._serve, name="tandem-serve", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._uvicorn.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise OSError(f"the API server did not start: {self._startup_error or 'timed out'}")
            time.sleep(0.02)

    def _serve(self) -> None:
        assert self._uvicorn is not None and self._sock is not None
        try:
            self._uvicorn.run(sockets=[self._sock])
        except BaseException as exc:  # reported by start() / logged
            self._startup_error = exc
            log.exception("the API server stopped with an error")

    def stop(self, timeout: float = 5.0) -> None:
        """Cancel running generations, stop serving, and wait for the server's threads to end."""
        with self._pumps_lock:
            pumps = list(self._pumps)
        for pump in pumps:
            pump.cancel.cancel()
        if self._uvicorn is not None:
            self._uvicorn.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                log.warning("the API server thread did not end within %.0f s", timeout)
        for pump in pumps:
            pump.thread.join(timeout)
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        self._thread = None
        self._uvicorn = None
        self._images.close()

    # --- the app -------------------------------------------------------------------------------------
    def _build_app(self) -> ASGIApp:
        middleware = [Middleware(_Auth, key=lambda: self.config.api_key)]
        if self.config.cors_origins:
            middleware.insert(
                0,
                Middleware(
                    CORSMiddleware,
                    allow_origins=list(self.config.cors_origins),
                    allow_methods=["GET", "POST"],
                    allow_headers=["Authorization", "Content-Type", "x-api-key", "anthropic-version"],
                ),
            )
        routes = [
            Route("/v1/models", self._models, methods=["GET"]),
            Route("/v1/chat/completions", self._chat, methods=["POST"]),
            Route("/v1/messages", self._messages, methods=["POST"]),
            Route("/v1/messages/count_tokens", self._count_tokens, methods=["POST"]),
            Route("/v1/responses", self._responses, methods=["POST"]),
        ]
        app = Starlette(
            routes=routes, middleware=middleware, exception_handlers={404: _not_found, 405: _not_allowed}
        )
        return app

    async def _models(self, request: Request) -> Response:
        model = self._model
        data = [] if model is None else [_model_entry(model)]
        return JSONResponse({"object": "list", "data": data})

    async def _read_body(self, request: Request) -> Any:
        limit = self.config.limits.max_body_bytes
        declared = request.headers.get("content-length")
        too_big = P.ApiError(
            400,
            f"the request body is larger than {limit} bytes (an image may be at most "
            f"{images.MAX_IMAGE_MB} MB)",
            param=None,
            code="request_too_large",
        )
        if declared is not None and declared.isdigit() and int(declared) > limit:
            raise too_big
        chunks: list[bytes] = []
        size = 0
        async for piece in request.stream():
            size += len(piece)
            if size > limit:
                raise too_big
            chunks.append(piece)
        try:
            return json.loads(b"".join(chunks) or b"null")
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise P.ApiError(400, f"the request body is not valid JSON: {exc}") from exc

    async def _admit(
        self, request: Request, parse: Callable[[Any, P.Limits], P.ChatRequest]
    ) -> tuple[ServedModel, P.ChatRequest]:
        """Read and check a request and take a place in the queue; :class:`P.ApiError` if not."""
        body = await self._read_body(request)
        req = parse(body, self.config.limits)
        model = self._model
        if model is None:
            raise P.ApiError(503, "No model is loaded.", "server_error", code="model_not_loaded")
        if req.images and not model.engine.supports_images:
            raise P.ApiError(
                400,
                f"the loaded model ({model.model_id}) cannot read images; load a vision model or "
                "send text only",
                param="messages",
                code="model_cannot_see",
            )
        if req.tools and not model.engine.supports_tools:
            raise P.ApiError(
                400,
                f"the {model.engine.name} engine cannot render tools",
                param="tools",
                code="unsupported",
            )
        P.check_speculation(req.speculation, model.spec_method)
        if req.response_format is not None and not model.engine.supports_structured_output:
            raise P.ApiError(
                400,
                structured_refusal(f"the {model.engine.name} engine"),
                param="response_format",
                code="unsupported",
            )
        if not self.admission.try_enter():
            raise P.ApiError(
                429,
                f"The server is busy ({self.admission.limit} requests running or waiting); retry later.",
                "rate_limit_exceeded",
                code="queue_full",
                headers={"Retry-After": str(self.config.retry_after_s)},
            )
        if req.images:
            try:
                paths = await asyncio.to_thread(self._images.acquire, req.images)
            except BaseException:
                self.admission.leave()
                raise
            req.messages = _with_image_paths(req.messages, paths)
        return model, req

    async def _serve_api(
        self,
        request: Request,
        parse: Callable[[Any, P.Limits], P.ChatRequest],
        error: Callable[[P.ApiError], Response],
        stream: Callable[[_Pump, ServedModel, P.ChatRequest], AsyncIterator[bytes]],
        build: Callable[[ServedModel, P.ChatRequest, str, list[dict[str, Any]], Answer], dict[str, Any]],
    ) -> Response:
        """The one path of every API: admit the request, start its pump, then stream the API's
        events or wait for the whole answer and build the API's body; errors in the API's shape."""
        try:
            model, req = await self._admit(request, parse)
        except P.ApiError as exc:
            return error(exc)
        pump = self._start_pump(model, req, _client_of(request))
        if req.stream:
            return StreamingResponse(
                stream(pump, model, req), media_type="text/event-stream", headers=_SSE_HEADERS
            )
        try:
            try:
                text, calls = await self._whole_answer(pump, model, req, request)
            except EngineError as exc:
                pump.status, pump.error = "error", str(exc)
                return error(_engine_error(exc))
            return JSONResponse(build(model, req, text, calls, pump.answer))
        finally:
            pump.side_done()

    async def _chat(self, request: Request) -> Response:
        """OpenAI's ``POST /v1/chat/completions``."""
        return await self._serve_api(
            request,
            P.parse_request,
            _error_response,
            self._stream,
            lambda model, _req, text, calls, answer: P.completion(
                P.completion_id(), model.model_id, text, calls, answer, model.spec_method
            ),
        )

    async def _messages(self, request: Request) -> Response:
        """Anthropic's ``POST /v1/messages``: the same queue, engine and answer, Messages shapes."""
        return await self._serve_api(
            request,
            M.parse_request,
            _messages_error,
            self._messages_stream,
            lambda model, req, text, calls, answer: M.message(
                M.message_id(), model.model_id, text, calls, answer, req.sampling.stop, model.spec_method
            ),
        )

    def _start_pump(self, model: ServedModel, req: P.ChatRequest, client: str) -> _Pump:
        loop = asyncio.get_running_loop()

        def events() -> Iterator[Event]:
            return model.engine.generate(
                req.messages,
                req.sampling,
                pump.cancel,
                tools=req.tools or None,
                tool_choice=req.tool_choice,
                response_format=req.response_format,
            )

        def ended(p: _Pump) -> None:
            with self._pumps_lock:
                self._pumps.discard(p)
            self._images.release(req.images)
            self.admission.leave()
            p.side_done()

        def report() -> None:
            if pump.status == "ok" and pump.answer.cancelled:  # e.g. the server stopped it
                pump.status = "cancelled"
            self._record(client, req.stream, pump)

        pump = _Pump(loop, events, ended)
        pump.on_both_done = report
        with self._pumps_lock:
            self._pumps.add(pump)
        pump.thread.start()
        return pump

    async def _count_tokens(self, request: Request) -> Response:
        """Anthropic's ``POST /v1/messages/count_tokens``: the prompt's size with the chat template
        applied, from an engine that can count (llama.cpp, llama-server, vLLM); tools are not counted."""
        try:
            body = await self._read_body(request)
            if not isinstance(body, dict):
                raise P.ApiError(400, "the request body must be a JSON object")
            found = P.ImageParts(self.config.limits.max_images)
            messages = M.messages_of(body.get("messages"), body.get("system"), found)
            extra = images.estimated_tokens(messages)  # images are reckoned, the text counted
            messages = [cast(ChatMessage, images.text_only(m)) for m in messages]
            model = self._model
            if model is None:
                raise P.ApiError(503, "No model is loaded.")
            engine = model.engine
            if not isinstance(engine, TokenCounter):
                raise P.ApiError(400, f"the {engine.name} engine cannot count tokens")
            try:
                count = await asyncio.to_thread(engine.count_prompt_tokens, messages) + extra
            except EngineError as exc:
                raise _engine_error(exc) from exc
        except P.ApiError as exc:
            return _messages_error(exc)
        return JSONResponse({"input_tokens": count})

    async def _responses(self, request: Request) -> Response:
        """OpenAI's ``POST /v1/responses``: the same queue, engine and answer, Responses shapes."""
        return await self._serve_api(
            request,
            R.parse_request,
            _error_response,
            self._responses_stream,
            lambda model, _req, text, calls, answer: R.response(
                R.response_id(),
                model.model_id,
                int(time.time()),
                R.output_of(text, calls),
                answer,
                model.spec_method,
            ),
        )

    async def _whole_answer(
        self, pump: _Pump, model: ServedModel, req: P.ChatRequest, request: Request
    ) -> tuple[str, list[dict[str, Any]]]:
        """Wait for the whole answer (a client that leaves cancels it): its text and tool calls.
        The engine's error propagates."""

        async def watch() -> None:
            while True:
                message = await request.receive()
                if message["type"] == "http.disconnect":
                    pump.cancel.cancel()
                    return

        watcher = asyncio.create_task(watch())
        try:
            async for _text in pump.texts():
                pass  # the whole answer is read from the pump once it ends
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
        answer = pump.answer
        text = answer.text
        calls: list[dict[str, Any]] = []
        if model.tool_style and req.tools:
            from app.core.chat.tool_parsers import parse_tool_calls

            text, calls = parse_tool_calls(text, model.tool_style)
        calls += answer.tool_calls
        pump.status, pump.tool_calls = "ok", len(calls)
        return text, calls

    async def _stream(self, pump: _Pump, model: ServedModel, req: P.ChatRequest) -> AsyncIterator[bytes]:
        cid = P.completion_id()
        mid = model.model_id
        splitter = ToolCallStream(model.tool_style if req.tools else None)
        n_calls = 0

        def pieces_out(pieces: list[Piece]) -> list[bytes]:
            nonlocal n_calls
            out: list[bytes] = []
            for piece in pieces:
                if isinstance(piece, str):
                    if piece:
                        out.append(P.sse(P.chunk(cid, mid, {"content": piece})))
                else:
                    call = P.openai_tool_call(piece, index=n_calls)
                    n_calls += 1
                    out.append(P.sse(P.chunk(cid, mid, {"tool_calls": [call]})))
            return out

        try:
            yield P.sse(P.chunk(cid, mid, {"role": "assistant", "content": ""}))
            try:
                async for piece in _pieces(pump, splitter):
                    for data in pieces_out([piece]):
                        yield data
            except EngineError as exc:
                pump.status, pump.error = "error", str(exc)
                yield P.sse(_engine_error(exc).body())
                yield P.sse("[DONE]")
                return
            answer = pump.answer
            final = P.chunk(cid, mid, {}, P.finish_reason(answer, n_calls > 0))
            final["usage"] = P.usage(answer)
            final["tandem"] = P.extension(answer, model.spec_method)
            yield P.sse(final)
            if req.include_usage:
                tail = P.chunk(cid, mid, {})
                tail["choices"] = []
                tail["usage"] = final["usage"]
                tail["tandem"] = final["tandem"]
                yield P.sse(tail)
            pump.status, pump.tool_calls = "ok", n_calls
            yield P.sse("[DONE]")
        finally:  # the client left (the task was cancelled) or the answer is complete
            pump.cancel.cancel()
            pump.side_done()

    async def _messages_stream(
        self, pump: _Pump, model: ServedModel, req: P.ChatRequest
    ) -> AsyncIterator[bytes]:
        """A Messages stream: a text block while text comes, one ``tool_use`` block per call."""
        splitter = ToolCallStream(model.tool_style if req.tools else None)
        index, text_open, n_calls = 0, False, 0
        try:
            yield M.start_event(M.message_id(), model.model_id)
            yield M.event("ping")
            try:
                async for piece in _pieces(pump, splitter):
                    if isinstance(piece, str):
                        if not text_open:
                            block = {"type": "text", "text": ""}
                            yield M.event("content_block_start", index=index, content_block=block)
                            text_open = True
                        delta = {"type": "text_delta", "text": piece}
                        yield M.event("content_block_delta", index=index, delta=delta)
                        continue
                    if text_open:
                        yield M.event("content_block_stop", index=index)
                        index, text_open = index + 1, False
                    block = M.tool_use_block(piece)
                    args = json.dumps(block["input"], ensure_ascii=False)
                    yield M.event("content_block_start", index=index, content_block={**block, "input": {}})
                    delta = {"type": "input_json_delta", "partial_json": args}
                    yield M.event("content_block_delta", index=index, delta=delta)
                    yield M.event("content_block_stop", index=index)
                    index, n_calls = index + 1, n_calls + 1
            except EngineError as exc:
                pump.status, pump.error = "error", str(exc)
                yield M.error_event(_engine_error(exc))
                return
            if text_open:
                yield M.event("content_block_stop", index=index)
            answer = pump.answer
            reason, sequence = M.stop_reason(answer, n_calls > 0, req.sampling.stop)
            yield M.event(
                "message_delta",
                delta={"stop_reason": reason, "stop_sequence": sequence},
                usage=M.usage(answer),
                tandem=P.extension(answer, model.spec_method),
            )
            yield M.event("message_stop")
            pump.status, pump.tool_calls = "ok", n_calls
        finally:  # the client left (the task was cancelled) or the answer is complete
            pump.cancel.cancel()
            pump.side_done()

    async def _responses_stream(
        self, pump: _Pump, model: ServedModel, req: P.ChatRequest
    ) -> AsyncIterator[bytes]:
        """A Responses stream: a message item while text comes, one function_call item per call."""
        events = R.ResponseEvents(model.model_id, model.spec_method)
        splitter = ToolCallStream(model.tool_style if req.tools else None)
        n_calls = 0
        try:
            for data in events.start():
                yield data
            try:
                async for piece in _pieces(pump, splitter):
                    if isinstance(piece, str):
                        out = events.text(piece)
                    else:
                        out = events.call(piece)
                        n_calls += 1
                    for data in out:
                        yield data
            except EngineError as exc:
                pump.status, pump.error = "error", str(exc)
                for data in events.fail(_engine_error(exc), pump.answer):
                    yield data
                return
            for data in events.finish(pump.answer):
                yield data
            pump.status, pump.tool_calls = "ok", n_calls
        finally:  # the client left (the task was cancelled) or the answer is complete
            pump.cancel.cancel()
            pump.side_done()

    def _record(self, client: str, stream: bool, pump: _Pump) -> None:
        """Report a request once its generation has ended (on the pump's thread)."""
        if self.on_request is None:
            return
        record = ServedRequest.of(pump.answer, client, stream, pump.status, pump.tool_calls, pump.error)
        try:
            self.on_request(record)
        except Exception:  # a listener's error must not break the answer
            log.exception("the served-request listener failed")


_SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def _client_of(request: Request) -> str:
    return f"{request.client.host}:{request.client.port}" if request.client else "?"


async def _pieces(pump: _Pump, splitter: ToolCallStream) -> AsyncIterator[Piece]:
    """The answer as it streams, split into text and whole tool calls (the family's markup, then
    the calls the engine parsed itself); the engine's error is raised here."""
    async for text in pump.texts():
        for piece in splitter.feed(text):
            if piece:
                yield piece
    for piece in splitter.finish():
        if piece:
            yield piece
    for call in pump.answer.tool_calls:
        yield call


def _model_entry(model: ServedModel) -> dict[str, Any]:
    from app.core.registry.abilities import served_abilities  # what the model can do, as listed

    entry = {"id": model.model_id, "object": "model", "created": 0, "owned_by": "tandem"}
    return {**entry, **served_abilities(model.model_id, model.engine.supports_images)}


def _engine_error(exc: EngineError) -> P.ApiError:
    if isinstance(exc, ContextLengthError):
        return P.ApiError(400, str(exc), param="messages", code="context_length_exceeded")
    if isinstance(exc, InvalidRequestError):
        return P.ApiError(400, str(exc), code="invalid_request")
    return P.ApiError(500, exc.user_message(), "server_error")


def _error_response(exc: P.ApiError) -> JSONResponse:
    return JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers)


def _messages_error(exc: P.ApiError) -> JSONResponse:
    return JSONResponse(M.api_error_body(exc), status_code=exc.status, headers=exc.headers)


def _error_for(request: Request, exc: P.ApiError) -> JSONResponse:
    return _messages_error(exc) if _is_messages_path(request.url.path) else _error_response(exc)


async def _not_found(request: Request, exc: Exception) -> Response:
    return _error_for(request, P.ApiError(404, f"no such endpoint: {request.url.path}", code="not_found"))


async def _not_allowed(request: Request, exc: Exception) -> Response:
    return _error_for(request, P.ApiError(405, f"{request.method} is not allowed on {request.url.path}"))


__all__ = ["LocalServer", "ServedModel", "ServedRequest", "ServerConfig", "is_loopback"]
