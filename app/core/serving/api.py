"""The local OpenAI- and Anthropic-compatible server: a Starlette app run by uvicorn on the engine loop.

``LocalServer(model, config).start()`` binds (127.0.0.1 by default), serves ``GET /v1/models``,
``POST /v1/chat/completions`` and ``POST /v1/responses`` (OpenAI, :mod:`~app.core.serving.protocol`,
:mod:`~app.core.serving.responses_api`) and ``POST /v1/messages`` (Anthropic,
:mod:`~app.core.serving.messages_api`), SSE when ``stream`` is true, until :meth:`LocalServer.stop`.
Every request needs the key (``Authorization: Bearer <key>`` or ``x-api-key: <key>``); bodies and
``max_tokens`` are bounded; errors use the shape of the API the path belongs to.

Every API goes through one pipeline with its :class:`~app.core.serving.adapter.Adapter`: the
request is validated once (its API's parser, which reads the body through the API's schema),
takes a place in the :class:`Admission` queue before any work that costs the engine, is fitted
to the model's chat template (:mod:`~app.core.requests.shaping`) and measured against the context
(a prompt that does not fit is a 400 before any stream starts); then it reaches the engine's async
stream (through the model's :class:`~app.core.pool.pool.EnginePool` when it has one, with the
configuration its ``tandem.speculation`` asks for), read by a task of its own
(:mod:`~app.core.serving.pump`, no thread per request) that feeds the events to the request's one
:class:`~app.core.answer.AnswerCollector`; the response (the adapter's stream encoder through
:func:`~app.core.serving.streams.event_stream`, or its whole body, and the :class:`ServedRequest`
the log shows) is made from that :class:`~app.core.answer.Answer`. ``GET /v1/tandem/auto`` says
what Auto learned on a launch that routes by it. uvicorn serves on the engine loop
(:mod:`app.core.engines.loop`), where the pool and the engines' clients live, so the window's chat
and its Local server are answered by the same pool, in its slots. :class:`Admission` bounds how
many server requests may run or wait (the rest get 429 with ``Retry-After``). A client that
disconnects cancels its request's task, which closes the request in the engine.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp

from app.core import images
from app.core.engines.base import (
    EngineError,
    Event,
    SpeculationSwitch,
    ToolCall,
    structured_refusal,
)
from app.core.engines.loop import engine_loop
from app.core.modelset import Lease, LoadFailed, ModelSource, NoRoom, UnknownModel
from app.core.pool.pool_types import PoolRefused
from app.core.requests.request import ChatRequest
from app.core.serving import messages_api as M
from app.core.serving import model_routes as R_
from app.core.serving import protocol as P
from app.core.serving import schemas as S
from app.core.serving.adapter import CHAT, MESSAGES, RESPONSES, Adapter
from app.core.serving.admission import Admission, ContextBudget
from app.core.serving.auth import Auth, is_messages_path
from app.core.serving.encoding import Served
from app.core.serving.prompt import check_context, count_prompt, fit, ground_request
from app.core.serving.pump import Pump
from app.core.serving.request_images import RequestImages, with_image_paths
from app.core.serving.served import ContextOverflow, Outcome, ServedModel, ServedRequest
from app.core.serving.streams import SSE_HEADERS, engine_error, event_stream
from app.core.speculative.per_request import Speculation

log = logging.getLogger(__name__)

T = TypeVar("T")

LOOPBACK = ("127.0.0.1", "::1", "localhost")


def is_loopback(host: str) -> bool:
    return host in LOOPBACK


@dataclass(frozen=True)
class ServerConfig:
    api_key: str
    host: str = "127.0.0.1"
    #: 0 picks a free port
    port: int = 8080
    #: requests that may wait while ``parallel`` run; one more gets 429
    max_waiting: int = 16
    retry_after_s: int = 5
    limits: P.Limits = field(default_factory=P.Limits)
    #: CORS origins allowed to call the server from a browser; none by default
    cors_origins: tuple[str, ...] = ()
    #: requests answered at once (the served llama.cpp model's slots)
    parallel: int = 1
    #: a stream with nothing to send for this long (waiting its turn, or reading a long prompt)
    #: sends a keep-alive, so clients with a read timeout do not give up on it
    keepalive_s: float = 10.0

    def __post_init__(self) -> None:
        if not self.api_key:
            raise ValueError("the server needs an API key")
        if self.max_waiting < 0:
            raise ValueError("max_waiting must be 0 or more")
        if self.parallel < 1:
            raise ValueError("parallel must be at least 1")


class LocalServer:
    """One HTTP server over one served model; :meth:`start` and :meth:`stop` from any thread."""

    def __init__(
        self,
        model: ServedModel | None,
        config: ServerConfig,
        on_request: Callable[[ServedRequest], None] | None = None,
        models: ModelSource[ServedModel] | None = None,
    ) -> None:
        self.config = config
        self._model = model
        #: many models behind this server, loaded on request (``model`` is then unused)
        self.models = models
        self.on_request = on_request
        self.admission = Admission(config.parallel + config.max_waiting)
        self._pumps: set[Pump] = set()
        self._pumps_lock = threading.Lock()
        self._uvicorn: uvicorn.Server | None = None
        #: uvicorn's serving coroutine on the engine loop (:mod:`app.core.engines.loop`)
        self._serving: concurrent.futures.Future[None] | None = None
        self._sock: socket.socket | None = None
        self._startup_error: BaseException | None = None
        #: the image files of requests being answered (engines read images from files)
        self._images = RequestImages()
        #: each served model's context cells, shared by its requests answered at once
        self._budgets: dict[str, ContextBudget] = {}
        #: the one thread for the blocking steps before an answer (template and token counts on
        #: the engine, the registry, image files): shared by every request, started with the server
        self._prep = ThreadPoolExecutor(1, thread_name_prefix="tandem-serve-prep")
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
        return self._serving is not None and not self._serving.done()

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
        self._prep.submit(lambda: None).result()  # the thread lives as long as the server
        # served on the engine loop, beside the engine pool and the engines' clients
        self._serving = engine_loop().submit(self._serve())
        deadline = time.monotonic() + timeout
        while not self._uvicorn.started:
            if self._serving.done() or time.monotonic() > deadline:
                self.stop()
                raise OSError(f"the API server did not start: {self._startup_error or 'timed out'}")
            time.sleep(0.02)

    async def _serve(self) -> None:
        assert self._uvicorn is not None and self._sock is not None
        try:
            await self._uvicorn.serve(sockets=[self._sock])
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # reported by start() / logged
            self._startup_error = exc
            log.exception("the API server stopped with an error")

    def stop(self, timeout: float = 5.0) -> None:
        """Cancel running generations, stop serving, and wait for the server's threads to end."""
        with self._pumps_lock:
            pumps = list(self._pumps)
        for pump in pumps:
            with contextlib.suppress(RuntimeError):  # the loop is closed: the task went with it
                pump.task.get_loop().call_soon_threadsafe(pump.stop)
        if self._uvicorn is not None:
            self._uvicorn.should_exit = True
        serving = self._serving
        if serving is not None:
            try:
                serving.result(timeout)
            except concurrent.futures.TimeoutError:
                log.warning("the API server did not end within %.0f s", timeout)
                serving.cancel()
            except BaseException:
                pass
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        self._serving = None
        self._uvicorn = None
        self._images.close()
        self._prep.shutdown(wait=True, cancel_futures=True)
        self._prep = ThreadPoolExecutor(1, thread_name_prefix="tandem-serve-prep")  # for a restart

    async def _blocking(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a blocking step before an answer on the server's one preparation thread."""
        return await asyncio.get_running_loop().run_in_executor(self._prep, fn, *args)

    # --- the app -------------------------------------------------------------------------------------
    def _build_app(self) -> ASGIApp:
        middleware = [Middleware(Auth, key=lambda: self.config.api_key)]
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
            Route("/models", self._models, methods=["GET"]),
            Route("/models/load", self._load_model, methods=["POST"]),
            Route("/models/unload", self._unload_model, methods=["POST"]),
            Route("/v1/models/load", self._load_model, methods=["POST"]),
            Route("/v1/models/unload", self._unload_model, methods=["POST"]),
            Route("/openapi.json", self._openapi, methods=["GET"]),
            Route("/v1/chat/completions", self._chat, methods=["POST"]),
            Route("/v1/messages", self._messages, methods=["POST"]),
            Route("/v1/messages/count_tokens", self._count_tokens, methods=["POST"]),
            Route("/v1/responses", self._responses, methods=["POST"]),
            Route("/v1/tandem/auto", self._auto, methods=["GET"]),
        ]
        app = Starlette(
            routes=routes, middleware=middleware, exception_handlers={404: _not_found, 405: _not_allowed}
        )
        return app

    async def _auto(self, request: Request) -> Response:
        """What Auto learned from real answers (:func:`model_routes.auto_status`); with a model
        set, ``?model=<id>`` names one of its loaded models."""
        model = self._model
        if self.models is not None:
            model = R_.loaded_model(self.models, request.query_params.get("model"))
        return JSONResponse(await R_.auto_status(model, self._blocking))

    async def _openapi(self, request: Request) -> Response:
        return JSONResponse(S.openapi())

    async def _models(self, request: Request) -> Response:
        """Every model served: with a model set, each with its ``status`` and memory; else the
        one loaded model (:mod:`~app.core.serving.model_routes`)."""
        if self.models is not None:
            return JSONResponse(await self._blocking(R_.listing, self.models))
        model = self._model
        data = [] if model is None else [await self._blocking(R_.model_entry, model)]
        return JSONResponse({"object": "list", "data": data})

    async def _load_model(self, request: Request) -> Response:
        return await self._load_or_unload(request, True)

    async def _unload_model(self, request: Request) -> Response:
        return await self._load_or_unload(request, False)

    async def _load_or_unload(self, request: Request, load: bool) -> Response:
        try:
            body = await self._read_body(request)
            return JSONResponse(await R_.load_or_unload(self.models, body, load))
        except P.ApiError as exc:
            return _error_response(exc)

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

    async def _parse(self, request: Request, adapter: Adapter) -> tuple[ChatRequest, float | None]:
        """Read and check a request (once: the API's schema, then its parser's own rules), and the
        idle time it asks its model to stay loaded (``ttl``, as LM Studio takes it);
        :class:`P.ApiError` if not (a model set that does not serve the model it names: 404)."""
        body = await self._read_body(request)
        req = adapter.parse(body, self.config.limits)
        ttl = body.get("ttl") if isinstance(body, dict) else None
        if ttl is not None and (isinstance(ttl, bool) or not isinstance(ttl, int | float) or ttl <= 0):
            raise P.ApiError(400, "ttl must be a number of seconds above 0", param="ttl")
        if self.models is not None and self.models.find(req.model) is None:
            raise R_.unknown(UnknownModel(req.model or "", self.models.ids))
        return req, float(ttl) if ttl is not None else None

    async def _model_for(
        self, req: ChatRequest, ttl: float | None
    ) -> tuple[ServedModel, Lease[ServedModel] | None]:
        """The model that answers ``req``: the served one, or the set's, loaded first (the lease
        is released when the answer ends)."""
        if self.models is None:
            if self._model is None:
                raise P.ApiError(503, "No model is loaded.", "server_error", code="model_not_loaded")
            return self._model, None
        try:
            lease = await self.models.acquire(req.model, ttl)
        except UnknownModel as exc:
            raise R_.unknown(exc) from None
        except (NoRoom, LoadFailed) as exc:
            raise P.ApiError(503, str(exc), "server_error", code="model_unavailable") from None
        return lease.value, lease

    async def _admit(
        self, request: Request, req: ChatRequest, ttl: float | None
    ) -> tuple[ServedModel, ChatRequest, Speculation, Lease[ServedModel] | None]:
        """Give a checked request its model (loading it when a set serves it) and take a place in
        the queue; :class:`P.ApiError` if not."""
        model, lease = await self._model_for(req, ttl)
        try:
            model, req, configuration = await self._admit_to(request, model, req)
        except BaseException:
            if lease is not None:
                lease.release()
            raise
        return model, req, configuration, lease

    async def _admit_to(
        self, request: Request, model: ServedModel, req: ChatRequest
    ) -> tuple[ServedModel, ChatRequest, Speculation]:
        if req.images and not model.engine.supports_images:
            raise P.ApiError(
                400,
                f"the loaded model ({model.model_id}) cannot read images; load a vision model or "
                "send text only",
                param="messages",
                code="model_cannot_see",
            )
        P.check_speculation(req.speculation, model.engine.spec_kind, model.offered())
        if req.response_format is not None and not model.engine.supports_structured_output:
            raise P.ApiError(
                400,
                structured_refusal(f"the {model.engine.name} engine"),
                param="response_format",
                code="unsupported",
            )
        # a place in the queue before any work that costs the engine (the template probe, the
        # prompt's tokenize round trip, a configuration's start): a burst over the limit is
        # refused at once and costs nothing
        if not self.admission.try_enter():
            raise P.ApiError(
                429,
                f"The server is busy ({self.admission.limit} requests running or waiting); retry later.",
                "rate_limit_exceeded",
                code="queue_full",
                headers={"Retry-After": str(self.config.retry_after_s)},
            )
        try:
            req = await fit(model, await ground_request(model.engine, req, self._blocking))
            for warning in req.warnings:
                log.info("request from %s: %s", _client_of(request), warning)
            req = await check_context(model.engine, req, self._blocking)
            configuration = await self._configuration(model, req)
            if req.images:
                paths = await self._blocking(self._images.acquire, req.images)
                req = replace(req, messages=with_image_paths(req.messages, paths))
        except BaseException:
            self.admission.leave()
            raise
        return model, req, configuration

    async def _configuration(self, model: ServedModel, req: ChatRequest) -> Speculation:
        """The configuration that answers this request (never auto): with a pool, the one it asks
        for (Auto's route for auto), its child started now; :class:`P.ApiError` 503 if it cannot.
        Without a pool, what the engine runs, or what an engine that switches per request runs
        for it (checked by ``check_speculation``)."""
        pool = model.pool
        if pool is None:
            return model.running if req.speculation.is_auto else req.speculation
        label = pool.resolve(req.speculation, req.generate_request())
        try:
            await pool.ready(label)
        except PoolRefused as exc:
            raise P.ApiError(
                503, exc.user_message(), "server_error", code="configuration_unavailable"
            ) from exc
        except EngineError as exc:
            raise P.ApiError(
                503,
                f"the {label.name!r} configuration could not start: {exc}",
                "server_error",
                code="configuration_unavailable",
            ) from exc
        return label

    async def _serve_api(self, request: Request, adapter: Adapter) -> Response:
        """The one path of every API: admit the request, start its pump, then stream the API's
        events or wait for the whole answer and build the API's body; errors in the API's shape."""

        def error(exc: P.ApiError) -> JSONResponse:
            return JSONResponse(dict(adapter.error_body(exc)), status_code=exc.status, headers=exc.headers)

        try:
            req, ttl = await self._parse(request, adapter)
        except P.ApiError as exc:
            return error(exc)
        if req.stream and self.models is not None and not self.models.is_loaded(req.model):
            # its model loads first: the stream starts now and keeps the client waiting with
            # keep-alives (a load takes seconds), and a failure ends it in the API's error event
            return StreamingResponse(
                self._stream_after_load(request, adapter, req, ttl),
                media_type="text/event-stream",
                headers=SSE_HEADERS,
            )
        try:
            model, req, configuration, lease = await self._admit(request, req, ttl)
        except P.ApiError as exc:
            if isinstance(exc, ContextOverflow):
                self._record_overflow(_client_of(request), exc)
            return error(exc)
        pump = self._start_pump(model, req, configuration, _client_of(request), lease)
        served = Served(model.model_id, configuration)
        if req.stream:
            return StreamingResponse(
                event_stream(pump, adapter.events(served, req), req.call_style, self.config.keepalive_s),
                media_type="text/event-stream",
                headers=SSE_HEADERS,
            )
        try:
            try:
                text, calls = await self._whole_answer(pump, model, req, request)
            except EngineError as exc:
                pump.failed(exc)
                return error(engine_error(exc))
            return JSONResponse(dict(adapter.whole(served, req, text, calls, pump.answer)))
        finally:
            pump.side_done()

    async def _stream_after_load(
        self, request: Request, adapter: Adapter, req: ChatRequest, ttl: float | None
    ) -> AsyncIterator[bytes]:
        """A stream whose model loads first: keep-alives while it loads (and waits for room),
        then the answer's events; an error before the answer is the API's error event."""
        admitting = asyncio.ensure_future(self._admit(request, req, ttl))
        handed = False
        try:
            while not admitting.done():
                done, _ = await asyncio.wait({admitting}, timeout=self.config.keepalive_s)
                if not done:
                    yield b": keep-alive\n\n"
            try:
                model, req, configuration, lease = admitting.result()
            except P.ApiError as exc:
                if isinstance(exc, ContextOverflow):
                    self._record_overflow(_client_of(request), exc)
                yield R_.sse_error(adapter, exc)
                return
            handed = True
        finally:
            if not handed:  # the client left while its model loaded: what it held goes back
                admitting.cancel()
                with contextlib.suppress(BaseException):
                    _, _, _, held = await admitting
                    self.admission.leave()
                    if held is not None:
                        held.release()
        pump = self._start_pump(model, req, configuration, _client_of(request), lease)
        served = Served(model.model_id, configuration)
        async for data in event_stream(
            pump, adapter.events(served, req), req.call_style, self.config.keepalive_s
        ):
            yield data

    async def _chat(self, request: Request) -> Response:
        """OpenAI's ``POST /v1/chat/completions``."""
        return await self._serve_api(request, CHAT)

    async def _messages(self, request: Request) -> Response:
        """Anthropic's ``POST /v1/messages``: the same queue, engine and answer, Messages shapes."""
        return await self._serve_api(request, MESSAGES)

    def _start_pump(
        self,
        model: ServedModel,
        req: ChatRequest,
        configuration: Speculation,
        client: str,
        lease: Lease[ServedModel] | None = None,
    ) -> Pump:
        request = req.generate_request()
        if model.pool is not None:
            events = model.pool.stream(configuration, request)
        elif isinstance(model.engine, SpeculationSwitch):  # switched inside the engine's own loop
            events = model.engine.stream(replace(request, speculation=configuration))
        else:
            events = model.engine.stream(request)
        if self.config.parallel > 1 and req.prompt_tokens is not None and req.context_tokens:
            events = self._within_context(
                self._budgets.setdefault(model.model_id, ContextBudget()),
                events,
                req.prompt_tokens + req.sampling.max_tokens,
                req.context_tokens,
            )

        def ended(p: Pump) -> None:
            with self._pumps_lock:
                self._pumps.discard(p)
            self._images.release(req.images)
            self.admission.leave()
            if lease is not None:
                lease.release()
            p.side_done()

        def report() -> None:
            if pump.status is Outcome.OK and pump.answer.cancelled:  # e.g. the server stopped it
                pump.status = Outcome.CANCELLED
            self._record(client, req.stream, pump, configuration, model.model_id)

        pump = Pump(events, ended)
        pump.on_both_done = report
        with self._pumps_lock:
            self._pumps.add(pump)
        return pump

    async def _within_context(
        self, budget: ContextBudget, events: AsyncIterator[Event], need: int, total: int
    ) -> AsyncIterator[Event]:
        """``events`` once the request's prompt and longest answer fit beside the running ones of
        its model."""
        need = min(need, total)
        await budget.acquire(need, total)
        try:
            async for event in events:
                yield event
        finally:
            budget.release(need, total)

    async def _count_tokens(self, request: Request) -> Response:
        """Anthropic's ``POST /v1/messages/count_tokens``: the prompt's size as a Messages request
        with this body would be built (chat template, tools, images reckoned), from an engine that
        can count (llama.cpp, llama-server, vLLM)."""
        try:
            body = await self._read_body(request)
            if isinstance(body, dict) and "max_tokens" not in body:
                body = {**body, "max_tokens": 1}  # not part of a count request
            req = M.parse_request(body, self.config.limits)
            model, lease = await self._model_for(req, None)
            try:
                return JSONResponse({"input_tokens": await count_prompt(model, req, self._blocking)})
            finally:
                if lease is not None:
                    lease.release()
        except P.ApiError as exc:
            return _messages_error(exc)

    async def _responses(self, request: Request) -> Response:
        """OpenAI's ``POST /v1/responses``: the same queue, engine and answer, Responses shapes."""
        return await self._serve_api(request, RESPONSES)

    async def _whole_answer(
        self, pump: Pump, model: ServedModel, req: ChatRequest, request: Request
    ) -> tuple[str, list[ToolCall]]:
        """Wait for the whole answer (a client that leaves cancels it): its text and tool calls.
        The engine's error propagates."""

        async def watch() -> None:
            while True:
                message = await request.receive()
                if message["type"] == "http.disconnect":
                    pump.stop()
                    return

        watcher = asyncio.create_task(watch())
        try:
            async for _text in pump.texts():
                pass  # the whole answer is read from the pump once it ends
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
        text, calls = req.calls_of(pump.answer)
        pump.answered(len(calls))
        return text, calls

    def _record_overflow(self, client: str, exc: ContextOverflow) -> None:
        """Report a request refused before answering because its prompt did not fit."""
        if self.on_request is None:
            return
        record = ServedRequest(
            time.time(),
            client,
            exc.stream,
            Outcome.ERROR,
            prompt_tokens=exc.prompt_tokens,
            error=exc.message,
            context_tokens=exc.n_ctx,
        )
        try:
            self.on_request(record)
        except Exception:  # a listener's error must not break the answer
            log.exception("the served-request listener failed")

    def _record(self, client: str, stream: bool, pump: Pump, configuration: Speculation, model: str) -> None:
        """Report a request once its generation has ended (on the event loop)."""
        if self.on_request is None:
            return
        answer = pump.answer
        record = ServedRequest.of(
            answer, client, stream, pump.status, pump.tool_calls, pump.error, configuration.name, model
        )
        try:
            self.on_request(record)
        except Exception:  # a listener's error must not break the answer
            log.exception("the served-request listener failed")


def _client_of(request: Request) -> str:
    return f"{request.client.host}:{request.client.port}" if request.client else "?"


def _error_response(exc: P.ApiError) -> JSONResponse:
    return JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers)


def _messages_error(exc: P.ApiError) -> JSONResponse:
    return JSONResponse(M.api_error_body(exc), status_code=exc.status, headers=exc.headers)


def _error_for(request: Request, exc: P.ApiError) -> JSONResponse:
    return _messages_error(exc) if is_messages_path(request.url.path) else _error_response(exc)


async def _not_found(request: Request, exc: Exception) -> Response:
    return _error_for(request, P.ApiError(404, f"no such endpoint: {request.url.path}", code="not_found"))


async def _not_allowed(request: Request, exc: Exception) -> Response:
    return _error_for(request, P.ApiError(405, f"{request.method} is not allowed on {request.url.path}"))


__all__ = ["LocalServer", "ServedModel", "ServedRequest", "ServerConfig", "is_loopback"]
