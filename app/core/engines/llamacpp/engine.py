"""llama.cpp engine: an ``xllamacpp.Server`` in a child process, driven by one owner thread.

The Server lives in a spawned child (:mod:`app.core.engines.llamacpp.host`): its native load holds
the GIL for as long as it runs, which froze every Python thread of the app, and a native abort ended the app.
The owner thread of the shared :class:`~app.core.engines.worker.EngineWorker` streams each request
from the child's loopback listener (llama-server's API, random per-session key that never leaves
this process) and turns the chunks into :mod:`base` events; errors become typed exceptions on the
consumer side. A cancel, a consumer that stopped reading, or ``close()`` stop a generation at its
next chunk (the connection is closed, which llama.cpp treats as a cancel); ``close()`` ends the
child, so it returns at once even during a load or a long prompt pass.

Rounds come from the per-token timings: a chunk where ``draft_n`` steps up by d and
``draft_n_accepted`` by a opens a round that emits a accepted draft tokens, then one target token.

The listener is bound to loopback and needs the session key, so neither other local processes nor
web pages in the user's browser can use it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

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
    Sampling,
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
    StopWatcher,
    chat_body,
    count_prompt_tokens,
    n_ctx_of,
    template_caps,
)
from app.core.engines.worker import EngineWorker, Job
from app.core.speculative import SpeculationError
from app.core.speculative.detect import (
    builtin_mtp_problem,
)

log = logging.getLogger(__name__)

#: Seconds without a byte from the child before a request fails (a long prompt pass sends none).
_READ_TIMEOUT = 600.0
#: How long a cut stream waits for the child's exit, to tell a crash from a network hiccup.
_EXIT_WAIT = 0.5
#: How often a request waiting for its first token checks whether it was stopped.
_STOP_POLL = 0.05


@dataclass
class _Request:
    #: builds the request body on the owner thread (images become data URLs there: a 12 MP photo
    #: takes ~0.2 s to downscale and encode, which belongs to the answer's time to first token and
    #: must not block the caller's thread)
    body: Callable[[], dict[str, Any]]
    with_logprobs: bool


class LlamaCppEngine:
    name = "llama.cpp"

    def __init__(self, thread_name: str = "tandem-llamacpp") -> None:
        #: the child process that runs the Server (set by load())
        self._host: ServerProcess | None = None
        #: the owner thread: builds the Server, serves every request, frees it
        self._worker = EngineWorker(thread_name, "llama.cpp", free=self._free)
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

        cfg = HostConfig(
            model_path=str(target),
            n_ctx=req.n_ctx,
            n_threads=req.n_threads or max(1, os.cpu_count() or 1),
            api_key=secrets.token_urlsafe(32),
            chat_template=req.chat_template or "",
            plan=p,
            mmproj_path=str(mmproj) if mmproj is not None else "",
            n_parallel=req.n_parallel,
        )
        try:  # refuses bad settings here, before a process is started
            build_params(cfg)
        except (SpeculationError, TypeError, ValueError, OverflowError) as exc:
            raise ModelLoadError(f"invalid speculative decoding settings: {exc}") from exc

        extras = [name for name, on in (("drafter", p.draft_path), ("vision projector", mmproj)) if on]
        also = "".join(", " + e for e in extras[:-1]) + (f" and {extras[-1]}" if extras else "")
        say("loading model" + also)  # may raise: before the thread
        engine = cls(f"tandem-llamacpp-{target.stem}")
        engine.plan = p
        engine.load_request = replace(
            req, speculation=replace(req.speculation, draft_model_path=p.draft_path or None)
        )
        engine.model_path = str(target)
        engine.mmproj_path = str(mmproj) if mmproj is not None else ""
        engine._api_key = cfg.api_key
        engine._n_ctx = req.n_ctx
        engine._host = ServerProcess(cfg)
        # Waits in a cancellable way: the GUI's Cancel (or Ctrl-C) returns at once and ends the
        # child process with whatever it had loaded.
        engine._worker.run_load(lambda _say: engine._start(target.name, _say), progress)
        return engine

    # --- on the owner thread ----------------------------------------------------------------------
    def _start(self, name: str, say: Callable[[str], None]) -> None:
        host = self._host
        assert host is not None  # set by load() before the job is queued
        try:
            host.start(lambda: self._worker.closed)
        except HostError as exc:
            raise ModelLoadError(
                f"llama.cpp could not load {name}: {exc}",
                "Check that the file is a complete model llama.cpp supports, or pick another file.",
            ) from exc
        say("ready")

    def _free(self) -> None:
        host = self._host
        if host is not None:
            host.stop()  # the model goes with the process

    def _serve(self, request: _Request, job: Job[Event]) -> None:
        if job.stopped():  # cancelled or closed while queued: do not start a prompt pass for nothing
            job.emit(Finished("cancelled", 0, 0, 0.0, 0.0, 0, 0))
            return
        reader = ChunkReader("llama.cpp", request.with_logprobs)

        def on_chunk(chunk: Any) -> bool:
            for event in reader.feed(chunk):
                job.emit(event)
            return job.stopped()  # the caller cancelled, the consumer left, or the engine is closing

        try:
            self._stream_chunks(request.body(), on_chunk, job.stopped)
        except BaseException:
            if not job.stopped():
                raise  # else the connection went with a close or a cancel: that is the stop
        for event in reader.closing_rounds():
            job.emit(event)
        job.emit(_finished(reader, request.with_logprobs, cancelled=job.stopped()))

    def _stream_chunks(
        self, body: dict[str, Any], on_chunk: Callable[[Any], bool], stopped: Callable[[], bool]
    ) -> None:
        """POST a streamed chat request to the child and feed each chunk to ``on_chunk``.

        The connection is shut down when ``on_chunk`` returns True or as soon as ``stopped()``
        says so, also while the child is still in its prompt pass and has not even answered with
        headers (a Stop during a long prompt no longer waits for the first token); llama.cpp
        cancels a request whose connection is gone.
        """
        import http.client
        import socket
        from urllib.parse import urlsplit

        host = self._host
        if host is None or not host.address:
            raise GenerationError("the model is not loaded", "Load a model first.")
        where = urlsplit(host.address)
        conn = http.client.HTTPConnection(where.hostname or "127.0.0.1", where.port, timeout=_READ_TIMEOUT)

        def abort() -> None:
            if conn.sock is not None:
                conn.sock.shutdown(socket.SHUT_RDWR)  # wakes the blocked read

        try:
            conn.connect()
            with StopWatcher(stopped, abort, "tandem-llamacpp-stop"):
                conn.request("POST", "/v1/chat/completions", json.dumps(body).encode(), self._headers())
                response = conn.getresponse()
                if response.status != 200:
                    raise _refusal(response.status, response.read())
                events = SSEStream(response, "llama.cpp")
                for chunk in events:
                    if on_chunk(chunk):
                        return
                if events.done:
                    return
        except (OSError, http.client.HTTPException) as exc:
            if stopped():  # the watcher shut the socket: a stop, not a lost child
                raise GenerationError("the request was stopped") from exc
            raise self._lost(exc) from exc
        finally:
            conn.close()
        if stopped():
            raise GenerationError("the request was stopped")
        raise self._lost(None)  # the stream ended without its end marker

    def _headers(self) -> dict[str, str]:
        """What every call to the child's listener sends: the session key, a JSON body."""
        return {"Authorization": f"Bearer {self._api_key}", "Content-Type": "application/json"}

    def _lost(self, exc: BaseException | None, wait: float = _EXIT_WAIT) -> GenerationError:
        host = self._host
        if host is not None and host.wait_ended(wait):
            return GenerationError(
                f"llama.cpp stopped while answering ({host.exit_description()}).", "Load the model again."
            )
        return GenerationError(f"llama.cpp did not finish its answer: {exc or 'the stream was cut'}")

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
        if self._n_ctx <= 0 and self.listening_address:  # 0 = the model's training context
            self._n_ctx = n_ctx_of(self._listener_call("GET", "/props", None))
        return self._n_ctx

    def count_prompt_tokens(
        self, messages: Sequence[ChatMessage], tools: Sequence[Mapping[str, Any]] | None = None
    ) -> int:
        """Prompt size in tokens with the chat template applied, as a chat request would build it.

        xllamacpp has no tokenize call in Python, so this asks the child's loopback listener with
        the session key. Safe to call from any thread; it does not wait for a running generation.
        """
        return count_prompt_tokens(self._listener_call, messages, tools)

    def template_caps(self) -> TemplateCaps:
        """What the model's chat template renders (asked once of the child, then kept)."""
        if self._caps is None:
            self._caps = template_caps(self._listener_call)
        return self._caps

    def _listener_call(self, method: str, path: str, body: dict[str, Any] | None) -> dict[str, Any]:
        import urllib.request

        address = self.listening_address
        if self._worker.closed or not address:
            raise GenerationError("the model is not loaded", "Load a model first.")
        data = json.dumps(body).encode() if body is not None else None
        try:
            request = urllib.request.Request(address + path, data, self._headers(), method=method)
            with urllib.request.urlopen(request, timeout=60) as r:
                reply = json.loads(r.read())
        except (OSError, ValueError) as exc:  # URLError/HTTPError are OSErrors; bad JSON a ValueError
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

    def generate(
        self,
        messages: Sequence[ChatMessage],
        sampling: Sampling,
        cancel: CancelToken | None = None,
        top_logprobs: int = 0,
        tools: Sequence[Mapping[str, Any]] | None = None,
        tool_choice: Any = None,
        response_format: Mapping[str, Any] | None = None,
    ) -> Iterator[Event]:
        """``tools`` / ``tool_choice`` (OpenAI shapes) go to llama.cpp's jinja chat template,
        ``response_format`` to llama-server's grammar of a JSON object or schema."""
        job = _Request(
            self._body_of(
                GenerateRequest(
                    list(messages),  # the caller may change its list while the request waits
                    sampling,
                    top_logprobs,
                    tools,
                    tool_choice,
                    response_format,
                )
            ),
            bool(top_logprobs),
        )
        return self._worker.stream(lambda j: self._serve(job, j), cancel)

    def _body_of(self, request: GenerateRequest) -> Callable[[], dict[str, Any]]:
        """Check ``request`` against the loaded model; the builder of its body (images are
        encoded when it runs, on the thread that sends it)."""
        if self._worker.closed:
            raise GenerationError("the model is not loaded", "Load a model first.")
        messages = request.messages
        if has_images(messages) and not self.supports_images:
            raise ImagesUnsupportedError(Path(self.model_path).name)

        def body() -> dict[str, Any]:
            try:
                return chat_body(
                    messages,
                    request.sampling,
                    top_logprobs=request.top_logprobs,
                    tools=request.tools,
                    tool_choice=request.tool_choice,
                    response_format=request.response_format,
                )
            except (OSError, ValueError) as exc:
                if not has_images(messages):
                    raise
                # an image file gone or unreadable since it was attached and checked
                raise InvalidRequestError(f"an attached image cannot be sent: {exc}") from exc

        return body

    async def stream(self, request: GenerateRequest) -> AsyncIterator[Event]:
        """The request's events, read from the child on the caller's event loop (no thread).

        Requests run side by side in the child's slots (``LoadRequest.n_parallel``). Cancelling
        the consuming task closes the connection, which ends the request in the child at once.
        """
        import httpx

        build = self._body_of(request)
        # encoding images takes a while (a 12 MP photo ~0.2 s): not on the event loop
        body = await asyncio.to_thread(build) if has_images(request.messages) else build()
        address = self.listening_address
        if not address:
            raise GenerationError("the model is not loaded", "Load a model first.")
        reader = ChunkReader("llama.cpp", bool(request.top_logprobs))
        events = SSEStream((), "llama.cpp")
        # plain HTTP on loopback: no TLS context to build (that alone took ~17 ms a client)
        transport = httpx.AsyncHTTPTransport(verify=False, retries=0)
        timeout = httpx.Timeout(_READ_TIMEOUT, connect=10.0)
        try:
            async with (
                httpx.AsyncClient(transport=transport, timeout=timeout, trust_env=False) as client,
                client.stream(
                    "POST", address + "/v1/chat/completions", json=body, headers=self._headers()
                ) as response,
            ):
                if response.status_code != 200:
                    raise _refusal(response.status_code, await response.aread())
                async for line in response.aiter_lines():
                    # read to the end (nothing follows the end marker) rather than break: a break
                    # leaves httpx's stream generators suspended, and on a loop without asyncgen
                    # hooks (qasync, the window's) they are finalized outside it and fail
                    chunk = None if events.done else events.feed(line)
                    if chunk is not None and not events.done:
                        for event in reader.feed(chunk):
                            yield event
        except httpx.HTTPError as exc:
            raise await self._lost_async(exc) from exc
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
        """Stop a running generation and free the model; returns within a second.

        Ending the child process stops a load or a prompt pass at once, however long it has left.
        """
        self._worker.close(wait=0)
        host = self._host
        if host is not None:
            host.stop()
        self._worker.close()

    def __enter__(self) -> LlamaCppEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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
