"""llama.cpp engine: an ``xllamacpp.Server`` in a child process, read over one HTTP client.

The Server lives in a spawned child (:mod:`app.core.engines.llamacpp.host`): its native load holds
the GIL for as long as it runs, which froze every Python thread of the app, and a native abort
ended the app. :meth:`LlamaCppEngine.load` starts it on the caller's thread and waits, cancellably,
until it listens. Every request is then read from the child's loopback listener (llama-server's
API, random per-session key that never leaves this process) on the engine loop
(:mod:`app.core.engines.loop`) with the engine's one long-lived ``httpx.AsyncClient``, and its
chunks become :mod:`base` events; errors become typed exceptions on the consumer side. A cancel or
a consumer that stops reading closes the request's connection, which llama.cpp treats as a cancel;
``close()`` ends the child, so it returns at once even during a load or a long prompt pass.

Rounds come from the per-token timings: a chunk where ``draft_n`` steps up by d and
``draft_n_accepted`` by a opens a round that emits a accepted draft tokens, then one target token.

The listener is bound to loopback and needs the session key, so neither other local processes nor
web pages in the user's browser can use it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import httpx

from app.core.engines import threads
from app.core.engines.base import (
    CancelToken,
    ChatMessage,
    EngineUnavailable,
    Event,
    Finished,
    GenerateRequest,
    GenerationError,
    ImagesUnsupportedError,
    InvalidRequestError,
    LoadRequest,
    ModelLoadError,
    TemplateCaps,
    error_message_of,
    has_images,
)
from app.core.engines.llamacpp import translate
from app.core.engines.llamacpp.checks import (
    MethodRefusedError,
    check_drafter,
    check_mmproj,
    check_native_types,
    gguf_facts,
    model_facts,
    probe,
    refuse_known_aborts,
    refuse_without_vision,
)
from app.core.engines.llamacpp.host import HostConfig, HostError, ServerProcess, build_params
from app.core.engines.llamaserver import (
    ChunkReader,
    SSEStream,
    chat_body,
    count_prompt_tokens,
    n_ctx_of,
    prompt_token_ids,
    template_caps,
)
from app.core.engines.loop import engine_loop
from app.core.engines.worker import EngineClosed, LoadCancelled, cancel_of
from app.core.speculative import SpeculationError
from app.core.speculative.detect import (
    builtin_mtp_problem,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Seconds without a byte from the child before a request fails (a long prompt pass sends none).
_READ_TIMEOUT = 600.0
#: How long a cut stream waits for the child's exit, to tell a crash from a network hiccup.
_EXIT_WAIT = 0.5
#: How often a request whose stream was cut checks whether the child has ended.
_STOP_POLL = 0.05
#: Seconds a listener call (token count, template, props) may take.
_CALL_TIMEOUT = 60.0


class LlamaCppEngine:
    name = "llama.cpp"

    def __init__(self) -> None:
        #: the child process that runs the Server (set by load())
        self._host: ServerProcess | None = None
        #: the one HTTP client to the child, on the engine loop (:meth:`_http`)
        self._client: httpx.AsyncClient | None = None
        #: set by close(): no request starts, a load under way ends
        self._closed = False
        self.plan: translate.LlamaCppPlan = translate.LlamaCppPlan()
        self.model_path = ""
        #: the vision projector the target was loaded with ("" for a text-only load)
        self.mmproj_path = ""
        #: the loopback listener's per-session key (token counting goes through that listener)
        self._api_key = ""
        self._n_ctx = 0
        self._caps: TemplateCaps | None = None
        #: what the engine was loaded from (the drafter's path as resolved): a pool starts other
        #: configurations of the same model from it
        self.load_request: LoadRequest | None = None
        #: the child's threads and why (:mod:`app.core.engines.threads`); its lease in the ledger
        self.thread_choice: threads.ThreadChoice | None = None
        self._lease: threads.Lease | None = None

    # --- loading -----------------------------------------------------------------------------
    @classmethod
    def load(cls, req: LoadRequest, progress: Callable[[str], None] | None = None) -> LlamaCppEngine:
        try:
            import xllamacpp  # noqa: F401 - checked here; the child process uses it
        except ImportError as exc:  # pragma: no cover - xllamacpp is a hard dependency
            raise EngineUnavailable(f"xllamacpp cannot be imported: {exc}") from exc
        say = progress or (lambda _msg: None)
        target = Path(req.model_path)
        say(f"checking {target.name}")
        target_vocab = probe(target, "model")
        try:
            p = translate.plan(req.speculation, req.family_name, req.size_in_billions)
        except SpeculationError as exc:
            raise ModelLoadError(str(exc), "Fix the speculative decoding settings and load again.") from exc
        target_facts = model_facts(target)
        mmproj = Path(req.mmproj_path) if req.mmproj_path else None
        if mmproj is not None:
            say(f"checking vision projector {mmproj.name}")
            check_mmproj(mmproj, target)
        drafter_arch = ""
        if p.draft_path:
            drafter = Path(p.draft_path)
            if drafter.is_dir():
                found = sorted(drafter.rglob("*.gguf"))
                if not found:
                    raise ModelLoadError(f"no .gguf drafter found in {drafter}")
                drafter = found[0]
                p = translate.LlamaCppPlan(**{**p.__dict__, "draft_path": str(drafter)})
            say(f"checking drafter {drafter.name}")
            draft_vocab = probe(drafter, "drafter")
            p = check_drafter(
                p, req.speculation.method, target, target_facts, target_vocab, drafter, draft_vocab
            )
            refuse_known_aborts(p, target, drafter)
            if p.user_driven:
                check_native_types(p, drafter)
            drafter_arch = gguf_facts(drafter).architecture
        else:
            # a drafter type with no drafter file drafts nothing, silently (llama.cpp only logs it)
            needs_file = [t for t in p.types if t in ("DRAFT_SIMPLE", "DRAFT_EAGLE3", "DRAFT_DFLASH")]
            if needs_file:
                raise MethodRefusedError(
                    f"refused: {', '.join(needs_file)} needs a drafter file "
                    "(speculative.draft.mparams.path); without one it drafts nothing"
                )
            if "DRAFT_MTP" in p.types:  # mtp with no drafter file: the target's own heads
                problem = builtin_mtp_problem(target_facts, target.name)
                if problem:
                    raise MethodRefusedError(f"refused: {problem}")

        if mmproj is not None and p.speculative:
            refuse_without_vision(p, drafter_arch, mmproj)

        group = req.thread_group or str(target.resolve())
        ledger = threads.ledger()
        choice, lease = ledger.lease(req.n_threads, group, req.max_threads)
        log.info("llama.cpp threads for %s: %s", target.name, choice.describe())
        cfg = HostConfig(
            model_path=str(target),
            n_ctx=req.n_ctx,
            n_threads=choice.threads,
            api_key=secrets.token_urlsafe(32),
            chat_template=req.chat_template or "",
            plan=p,
            mmproj_path=str(mmproj) if mmproj is not None else "",
            n_parallel=req.n_parallel,
        )
        try:  # refuses bad settings here, before a process is started
            build_params(cfg)
        except (SpeculationError, TypeError, ValueError, OverflowError) as exc:
            ledger.release(lease)
            raise ModelLoadError(f"invalid speculative decoding settings: {exc}") from exc

        extras = [name for name, on in (("drafter", p.draft_path), ("vision projector", mmproj)) if on]
        also = "".join(", " + e for e in extras[:-1]) + (f" and {extras[-1]}" if extras else "")
        say("loading model" + also)  # may raise: before the child starts
        engine = cls()
        engine.plan = p
        engine.load_request = replace(
            req,
            speculation=replace(req.speculation, draft_model_path=p.draft_path or None),
            thread_group=group,
        )
        engine.thread_choice = choice
        engine._lease = lease
        engine.model_path = str(target)
        engine.mmproj_path = str(mmproj) if mmproj is not None else ""
        engine._api_key = cfg.api_key
        engine._n_ctx = req.n_ctx
        engine._host = ServerProcess(cfg)
        # Waits in a cancellable way: the GUI's Cancel (or Ctrl-C) returns at once and ends the
        # child process with whatever it had loaded.
        try:
            engine._start(target.name, say, cancel_of(progress))
            engine._lease = ledger.bind(lease, engine._host.pid)
            # children of other processes that chose their threads after this one did, while it
            # loaded: this one has not answered yet, so it makes room now
            fewer = ledger.crowded_by_newer(engine._lease) if lease.auto else None
            if fewer is not None and fewer < choice.threads:
                engine.rethread(threads.shared_choice(choice, fewer), progress)
        except BaseException:
            engine.close()
            raise
        return engine

    @property
    def lease(self) -> threads.Lease | None:
        """The child's lease in the thread ledger (None before a load and after close)."""
        return self._lease

    @property
    def n_threads(self) -> int:
        """The threads the child computes with (0 before a load)."""
        host = self._host
        return host.cfg.n_threads if host is not None else 0

    def rethread(self, choice: threads.ThreadChoice, progress: Callable[[str], None] | None = None) -> None:
        """Start the child again with ``choice.threads`` threads (the model's pages stay in the OS's
        cache, so this is a fraction of the first load). Only for an engine that answers nothing:
        the caller makes sure no request runs or starts meanwhile."""
        host = self._host
        if host is None or self._closed or choice.threads == host.cfg.n_threads:
            return
        log.info("llama.cpp threads for %s: %s", Path(self.model_path).name, choice.describe())
        host.stop()
        self._host = ServerProcess(replace(host.cfg, n_threads=choice.threads))
        self.thread_choice = choice
        self._start(Path(self.model_path).name, progress or (lambda _msg: None), cancel_of(progress))
        if self._lease is not None:
            self._lease = threads.ledger().bind(self._lease, self._host.pid, choice.threads)

    # --- loading, on the caller's thread ------------------------------------------------------------
    def _start(self, name: str, say: Callable[[str], None], cancel: CancelToken | None) -> None:
        """Start the child and wait for its listener; a cancel (or :meth:`close`) ends it at once."""
        host = self._host
        assert host is not None  # set by load() before it starts
        if cancel is not None and cancel.cancelled:
            raise LoadCancelled()
        try:
            host.start(lambda: self._closed or (cancel is not None and cancel.cancelled))
        except HostError as exc:
            if cancel is not None and cancel.cancelled:
                raise LoadCancelled() from exc
            raise ModelLoadError(
                f"llama.cpp could not load {name}: {exc}",
                "Check that the file is a complete model llama.cpp supports, or pick another file.",
            ) from exc
        if self._n_ctx <= 0:  # the model's own context: asked now, on this thread, not later on the loop
            try:
                self._n_ctx = n_ctx_of(self._listener_call("GET", "/props", None))
            except GenerationError as exc:
                log.info("llama.cpp did not say its context length yet: %s", exc)
        say("ready")

    def _headers(self) -> dict[str, str]:
        """What every call to the child's listener sends: the session key, a JSON body."""
        return {"Authorization": f"Bearer {self._api_key}", "Content-Type": "application/json"}

    def _lost(self, exc: BaseException | None, wait: float = _EXIT_WAIT) -> GenerationError:
        if self._closed:  # close() ended the child under the request: not a crash
            return EngineClosed()
        host = self._host
        if host is not None and host.wait_ended(wait):
            return GenerationError(
                f"llama.cpp stopped while answering ({host.exit_description()}).", "Load the model again."
            )
        return GenerationError(f"llama.cpp did not finish its answer: {exc or 'the stream was cut'}")

    def _http(self) -> httpx.AsyncClient:
        """The engine's one HTTP client to its child (created on the engine loop, kept until
        :meth:`close`): every request and every listener call reuse its connections."""
        if self._client is None:
            # plain HTTP on loopback: no TLS context to build, no proxy from the environment
            self._client = httpx.AsyncClient(
                transport=httpx.AsyncHTTPTransport(verify=False, retries=0),
                timeout=httpx.Timeout(_READ_TIMEOUT, connect=10.0),
                trust_env=False,
            )
        return self._client

    # --- public API --------------------------------------------------------------------------------
    @property
    def listening_address(self) -> str:
        host = self._host
        return host.address if host is not None and host.alive else ""

    @property
    def speculative(self) -> bool:
        return self.plan.speculative

    @property
    def n_ctx(self) -> int:
        """The context length the model runs with (llama.cpp's own figure when one was asked)."""
        # 0 = the model's training context, asked at load; asked here only if the child did not say
        # then, and never from the engine loop (an isinstance check of a protocol reads this)
        if self._n_ctx <= 0 and self.listening_address and not engine_loop().on_loop():
            self._n_ctx = n_ctx_of(self._listener_call("GET", "/props", None))
        return self._n_ctx

    def count_prompt_tokens(
        self, messages: Sequence[ChatMessage], tools: Sequence[Mapping[str, Any]] | None = None
    ) -> int:
        """:meth:`measure_prompt` from a plain thread."""
        return engine_loop().run(self.measure_prompt(messages, tools), timeout=2 * _CALL_TIMEOUT + 5)

    async def measure_prompt(
        self, messages: Sequence[ChatMessage], tools: Sequence[Mapping[str, Any]] | None = None
    ) -> int:
        """Prompt size in tokens with the chat template applied, as a chat request would build it,
        awaited on any event loop (the calls run on the engine loop). xllamacpp has no tokenize call
        in Python, so this asks the child's loopback listener with the session key; it does not
        wait for a running generation."""
        return await self._on_engine_loop(count_prompt_tokens(self._call, messages, tools))

    def prompt_token_ids(
        self, messages: Sequence[ChatMessage], tools: Sequence[Mapping[str, Any]] | None = None
    ) -> list[int]:
        """The prompt's token ids as the child builds them for a chat request (chat template and
        special tokens applied): what llama.cpp's model-free drafters saw (see
        :mod:`app.core.speculative.replay`). From a plain thread."""
        return engine_loop().run(prompt_token_ids(self._call, messages, tools), timeout=2 * _CALL_TIMEOUT + 5)

    async def replay_token_ids(
        self, messages: Sequence[ChatMessage], tools: Sequence[Mapping[str, Any]] | None, text: str
    ) -> tuple[list[int], list[int]]:
        """The prompt's token ids as the child built them, and ``text`` (an answer's) tokenized
        again, without special tokens; awaited on any event loop. llama-server streams no ids for
        drafted tokens, so an answer's ids are read back from its text; the caller checks their
        count."""

        async def read() -> tuple[list[int], list[int]]:
            prompt = await prompt_token_ids(self._call, messages, tools)
            asked = {"content": text, "add_special": False}
            got = (await self._call("POST", "/tokenize", asked)).get("tokens")
            if not isinstance(got, list) or not all(isinstance(t, int) for t in got):
                raise GenerationError("llama-server's /tokenize returned no token ids")
            return prompt, list(got)

        return await self._on_engine_loop(read())

    async def template_caps(self) -> TemplateCaps:
        """What the model's chat template renders (asked once of the child, then kept), awaited on
        any event loop."""
        if self._caps is None:
            self._caps = await self._on_engine_loop(template_caps(self._call))
        return self._caps

    async def _on_engine_loop(self, coro: Coroutine[Any, Any, T]) -> T:
        """Await ``coro`` on the engine loop, where the child's client lives: directly there, else
        handed over to it (another event loop: the window's, a test's)."""
        loop = engine_loop()
        if loop.on_loop():
            return await coro
        return await asyncio.wrap_future(loop.submit(coro))

    def _listener_call(self, method: str, path: str, body: dict[str, Any] | None) -> dict[str, Any]:
        """A call to the child's listener from a plain thread (on the engine loop: :meth:`_call`)."""
        return engine_loop().run(self._call(method, path, body), timeout=_CALL_TIMEOUT + 5)

    async def _call(self, method: str, path: str, body: dict[str, Any] | None) -> dict[str, Any]:
        address = self.listening_address
        if self._closed or not address:
            raise GenerationError("the model is not loaded", "Load a model first.")
        for attempt in range(_SEND_ATTEMPTS):
            try:
                r = await self._http().request(
                    method, address + path, json=body, headers=self._headers(), timeout=_CALL_TIMEOUT
                )
                r.raise_for_status()
                reply = r.json()
                break
            except (httpx.HTTPError, ValueError) as exc:
                if isinstance(exc, httpx.HTTPError) and _stale(exc, False, attempt):
                    log.info("llama.cpp had closed the kept-alive connection (%s); asking again", exc)
                    continue
                raise GenerationError(f"llama.cpp could not measure the prompt: {exc}") from exc
        if not isinstance(reply, dict):
            raise GenerationError(f"llama.cpp answered {path} with {reply!r}")
        return reply

    @property
    def supports_tools(self) -> bool:
        """llama-server renders ``tools`` with the model's jinja chat template and parses the calls."""
        return True

    @property
    def supports_images(self) -> bool:
        """llama.cpp reads images with the target's vision projector (``LoadRequest.mmproj_path``):
        True when the target was loaded with one."""
        return bool(self.mmproj_path)

    @property
    def supports_structured_output(self) -> bool:
        """llama-server turns ``response_format`` (a JSON object, a JSON schema) into a grammar that
        constrains sampling, the drafter's proposals included."""
        return True

    @property
    def candidates_with_speculation(self) -> bool:
        """llama-server's logprobs with a drafter running are not the target's own: parity runs
        compare token ids only."""
        return False

    @property
    def spec_kind(self) -> str | None:
        """The method llama.cpp actually runs (``mtp`` when a Gemma 4 assistant was recognised), or None.

        Several native types are joined with ``+`` in the order given.
        """
        if not self.plan.speculative:
            return None
        names = translate.METHOD_BY_TYPE
        return "+".join(names.get(t, t.lower()) for t in self.plan.types)

    def _check(self, request: GenerateRequest) -> None:
        """Refuse a request the loaded model cannot take."""
        if self._closed:
            raise EngineClosed()
        if has_images(request.messages) and not self.supports_images:
            raise ImagesUnsupportedError(Path(self.model_path).name)

    def _body(self, request: GenerateRequest) -> dict[str, Any]:
        try:
            return chat_body(
                request.messages,
                request.sampling,
                top_logprobs=request.top_logprobs,
                tools=request.tools,
                tool_choice=request.tool_choice,
                response_format=request.response_format,
            )
        except (OSError, ValueError) as exc:
            if not has_images(request.messages):
                raise
            # an image file gone or unreadable since it was attached and checked
            raise InvalidRequestError(f"an attached image cannot be sent: {exc}") from exc

    async def stream(self, request: GenerateRequest) -> AsyncIterator[Event]:
        """The request's events, read from the child on the engine loop (no thread per request);
        a caller on another event loop gets them relayed (:meth:`EngineLoop.relay`).

        Requests run side by side in the child's slots (``LoadRequest.n_parallel``). Cancelling
        the consuming task closes the connection, which ends the request in the child at once.
        """
        self._check(request)
        reader = ChunkReader("llama.cpp", bool(request.top_logprobs))
        async for event in engine_loop().relay(lambda: self._stream(request, reader)):
            yield event

    async def _stream(self, request: GenerateRequest, reader: ChunkReader) -> AsyncIterator[Event]:
        """On the engine loop: POST the request to the child and turn its chunks into events."""
        self._check(request)
        if has_images(request.messages):  # encoding a large photo is slow: not on the loop
            body = await asyncio.to_thread(self._body, request)
        else:
            body = self._body(request)
        address = self.listening_address
        if not address:
            raise GenerationError("the model is not loaded", "Load a model first.")
        events = SSEStream((), "llama.cpp")
        stop = request.stop
        stopped = False  # the request's soft stop ended it (see GenerateRequest.stop)
        for attempt in range(_SEND_ATTEMPTS):
            answered = False
            try:
                async with self._http().stream(
                    "POST", address + "/v1/chat/completions", json=body, headers=self._headers()
                ) as response:
                    answered = True
                    if response.status_code != 200:
                        raise _refusal(response.status_code, await response.aread())
                    async for line in response.aiter_lines():
                        if stop is not None and stop.cancelled and not events.done:
                            stopped = True  # leaving the response closes the connection: the
                            break  # child ends the request
                        # read to the end (nothing follows the end marker) rather than break: a
                        # break leaves httpx's stream generators suspended until they are finalized
                        chunk = None if events.done else events.feed(line)
                        if chunk is not None and not events.done:
                            for event in reader.feed(chunk):
                                yield event
                break
            except httpx.HTTPError as exc:
                if self._closed:
                    break  # close() ended the child under the request: a stop, not a failure
                if _stale(exc, answered, attempt) and self.listening_address:
                    log.info("llama.cpp had closed the kept-alive connection (%s); sending again", exc)
                    continue
                raise await self._lost_async(exc) from exc
        if not events.done and (self._closed or stopped):
            for event in reader.closing_rounds():
                yield event
            yield _finished(reader, bool(request.top_logprobs), cancelled=True)
            return
        if not events.done:
            raise await self._lost_async(None)  # the stream ended without its end marker
        for event in reader.closing_rounds():
            yield event
        yield _finished(reader, bool(request.top_logprobs), cancelled=False)

    async def _lost_async(self, exc: BaseException | None) -> GenerationError:
        """:meth:`_lost` without blocking the event loop while the child's exit is awaited."""
        host = self._host
        for _ in range(int(_EXIT_WAIT / _STOP_POLL)):
            if host is None or not host.alive:
                break
            await asyncio.sleep(_STOP_POLL)
        return self._lost(exc, wait=0.0)

    def close(self) -> None:
        """Stop every request and free the model; returns at once.

        Ending the child process stops a load or a prompt pass at once, however long it has left;
        the requests reading from it end with the connection."""
        self._closed = True
        host = self._host
        if host is not None:
            host.stop()
        lease, self._lease = self._lease, None
        if lease is not None:
            threads.ledger().release(lease)
        client, self._client = self._client, None
        loop = engine_loop()
        if client is not None and loop.running:
            with contextlib.suppress(RuntimeError):  # the loop ended first: the sockets went with it
                loop.submit(client.aclose())

    def __enter__(self) -> LlamaCppEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: A request is sent at most twice: again only when its kept-alive connection was found closed.
_SEND_ATTEMPTS = 2


def _stale(exc: httpx.HTTPError, answered: bool, attempt: int) -> bool:
    """The request never reached the child: it was written on a kept-alive connection that the
    child's HTTP server had closed in the meantime (it closes idle and counted-out connections),
    and the child sent nothing back. Safe to send once more, on a new connection."""
    return (
        not answered
        and attempt + 1 < _SEND_ATTEMPTS
        and isinstance(exc, (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError))
    )


def _finished(reader: ChunkReader, with_logprobs: bool, cancelled: bool) -> Finished:
    """The :class:`Finished` of a request whose chunks ``reader`` read."""
    t, counts = reader.timing, reader.timing.rounds
    return Finished(
        reason="cancelled" if cancelled else reader.reason,
        prompt_tokens=t.prompt_tokens,
        completion_tokens=counts.emitted_total,
        prompt_ms=t.prompt_ms,
        decode_ms=t.decode_ms,
        drafted_total=counts.drafted_total,
        accepted_total=counts.accepted_total,
        rounds=counts.round_count,
        token_ids=reader.token_ids,
        tool_calls=reader.tool_calls(),
        stop_sequence=reader.stop_sequence,
        candidates=reader.candidates if with_logprobs else None,
        passes=tuple(t.passes) if reader.saw_timings else None,
    )


def _refusal(status: int, raw: bytes) -> GenerationError:
    """The error of a request the child answered with ``status`` (400: the request itself)."""
    message = f"llama.cpp: {_error_message(status, raw)}"
    return InvalidRequestError(message) if status == 400 else GenerationError(message)


def _error_message(status: int, raw: bytes) -> str:
    """The message of an HTTP error answer of llama-server (``{"error": {"message": ...}}``)."""
    try:
        body = json.loads(raw or b"{}")
    except ValueError:
        body = None
    return error_message_of(body) or f"HTTP {status}"
