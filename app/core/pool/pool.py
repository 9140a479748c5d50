"""One served llama.cpp model, several speculative configurations at once: the engine pool.

llama.cpp maps the model file read-only, so two children on the same GGUF share its pages: a
second configuration costs its own KV cache and buffers (and its drafter, when it has one), not
a second copy of the weights. The pool keeps the launch's engine (the *base*, owned by whoever
loaded it) and starts one more child per configuration a request asks for (``tandem.speculation``
``"off"``, a method, or ``"auto"`` routed by the ``route`` rule the caller gives), on demand:

* a child is loaded on the pool's one loader thread, once, however many requests wait for it;
* it is refused, with what it would cost, when that is more than the memory budget leaves;
* it stops after :attr:`PoolConfig.idle_s` without a request (the base never does);
* each child answers several requests at once in its slots (``n_parallel``); llama.cpp picks the
  slot whose cache holds the longest common prefix, so a conversation keeps its prompt cache;
* a configuration Auto routes to that is not running starts in the background while a running
  one answers (:meth:`EnginePool.resolve`): no request waits for a child's start, and the load
  waits until the pool rests (a load beside an answer slows it several times over);
* children take turns (:attr:`PoolConfig.exclusive`): llama.cpp's worker threads spin while they
  work, and two children that each use every core slow each other far more than their share, so
  while one child has requests running, a request for another waits (in arrival order) until
  they end; requests for the running child join it unless another child is waiting;
* the children follow the free cores (:mod:`app.core.engines.threads`): once the pool has rested
  for :attr:`PoolConfig.retune_s`, a child whose automatic thread count no longer fits what other
  programs and models leave free is started again with the count that does, one at a time,
  while requests that arrive meanwhile wait for their turn; a child that answers is never
  restarted for this.

Greedy answers are the same whichever child answers (speculation never changes greedy output).

Whose turn it is lives in :mod:`app.core.pool.turns`, what the pool learns from each answer
(speedups, every configuration's prediction) in :mod:`app.core.pool.learning`, and what it is
given and reports in :mod:`app.core.pool.pool_types`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from app.core.cancel import CancelToken
from app.core.catalog import fit
from app.core.engines import threads
from app.core.engines.base import (
    ChatMessage,
    Engine,
    EngineError,
    Event,
    Finished,
    GenerateRequest,
    LoadRequest,
    Sampling,
    TextDelta,
)
from app.core.engines.capability import model_free_methods
from app.core.engines.worker import LoadProgress
from app.core.pool.learning import PoolLearning
from app.core.pool.pool_types import (
    ChildEngine,
    ChildStatus,
    ConfigStats,
    LearningRoute,
    Loader,
    PoolConfig,
    PoolRefused,
    PoolStatus,
    Route,
)
from app.core.pool.turns import Turns
from app.core.speculative.acceptance import AcceptanceByPosition
from app.core.speculative.options import SpeculationOptions
from app.core.speculative.per_request import AUTO, OFF, Speculation
from app.core.speculative.predict import Alternative
from app.core.speculative.speedup import Speedup
from app.core.units import human_bytes

log = logging.getLogger(__name__)


@dataclass
class _Child:
    label: str
    engine: Engine
    owned: bool
    cost_bytes: int = 0
    active: int = 0
    last_used: float = field(default_factory=time.monotonic)
    idle_timer: asyncio.TimerHandle | None = None
    #: the requests (:func:`_request_key`) whose answers this child produced or was shown
    seen: set[str] = field(default_factory=set)


#: answers the pool keeps to show a child before a repeated request
REMEMBERED_ANSWERS = 32
#: seconds after an answer before it is shown to the other n-gram children (if the pool is idle)
SHARE_DELAY = 0.2
#: how often a background start looks whether the pool is idle
IDLE_POLL = 0.1
#: seconds without a request resolved, started or ended before a background start loads: a request
#: Auto routed is not computing yet while its prompt is measured and its turn taken
START_SETTLE = 1.0
#: answers a background start lets end while it waits for a settled pool; then it loads at once (a
#: pool that never rests, an agent's back-to-back requests, pays one slowed answer, not every gain)
START_PATIENCE = 3


def _request_key(request: GenerateRequest) -> str | None:
    """What makes two requests the same one sent again: their messages' roles and texts (None for a
    request with images or tools, which are not shown to another child)."""
    if request.tools or request.agentic or any(m.get("images") for m in request.messages):
        return None
    text = "\x1e".join(f"{m['role']}\x1f{m['content']}" for m in request.messages)
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()


def _alive(engine: Engine) -> bool:
    """False once a llama.cpp child has ended (other engines have no process to lose)."""
    return not isinstance(engine, ChildEngine) or bool(engine.listening_address)


class EnginePool:
    """The children of one served llama.cpp model (see the module docstring)."""

    def __init__(
        self,
        base: Engine,
        base_request: LoadRequest,
        loader: Loader,
        configurations: Mapping[str, SpeculationOptions],
        config: PoolConfig | None = None,
        route: Route | None = None,
    ) -> None:
        self.config = config or PoolConfig()
        self.base_request = base_request
        self.base_label = base.spec_kind or OFF
        self._configurations = dict(configurations)
        # what the base runs can be started again if its process ends
        self._configurations.setdefault(self.base_label, base_request.speculation)
        self._loader = loader
        self._route = route
        if isinstance(route, LearningRoute):
            route.attach(lambda: list(self._children))  # what runs now (a start must pay for itself)
        self._children: dict[str, _Child] = {self.base_label: _Child(self.base_label, base, owned=False)}
        self._loading: dict[str, asyncio.Task[_Child]] = {}
        #: configurations :meth:`start_soon` starts once the pool is idle
        self._starting: set[str] = set()
        #: when a request was last resolved, started or ended (monotonic), and how many ended
        self._last_activity = time.monotonic()
        self._answered = 0
        self._load_thread = ThreadPoolExecutor(1, thread_name_prefix="tandem-pool-load")
        #: cancelled by :meth:`close`: a child still loading is ended, not waited for
        self._load_cancel = CancelToken()
        self._load_thread.submit(lambda: None).result()  # the thread lives as long as the pool
        self._stats: dict[str, ConfigStats] = {}
        #: whose turn it is to compute, and the requests waiting for theirs
        self._turns = Turns(
            self.config.exclusive,
            lambda label: self._children.get(label),
            lambda label: PoolRefused(f"the {label!r} configuration was stopped"),
        )
        self._closed = False
        #: answers being shown to other children in the background (:meth:`_share`)
        self._tasks: set[asyncio.Task[None]] = set()
        #: the last answers, by request: what a child that did not answer it can be shown
        self._answers: OrderedDict[str, tuple[GenerateRequest, str]] = OrderedDict()
        #: every engine the pool loaded and has not closed (the base is not the pool's)
        self._owned: list[Engine] = []
        self._owned_lock = threading.Lock()
        #: the check of the children's thread counts, due once the pool has rested
        self._retune_timer: asyncio.TimerHandle | None = None
        #: what the answers taught: prices, replay states, acceptance, prediction errors
        self.learning = PoolLearning(base_request, self._configurations, self._kind_of)
        #: what the last checks did: label -> (threads before, threads after)
        self.retuned: list[tuple[str, int, int]] = []

    # --- what may be asked ------------------------------------------------------------------------
    @property
    def route(self) -> Route | None:
        """Auto's rule for this pool (None: "auto" runs the base)."""
        return self._route

    @property
    def launched(self) -> Speculation:
        """The configuration the launch loaded (the base's)."""
        return Speculation(self.base_label)

    def offers(self) -> list[Speculation]:
        """What a request may name: auto, what the base runs, and every configuration given."""
        return [Speculation(name) for name in dict.fromkeys([AUTO, self.base_label, *self._configurations])]

    def options_for(self, label: str) -> SpeculationOptions:
        """The speculation options of configuration ``label``; :class:`PoolRefused` if none."""
        options = self._configurations.get(label)
        if options is None:
            raise PoolRefused(
                f"the speculation {label!r} cannot run here: it is not one of "
                f"{', '.join(map(str, self.offers()))}"
            )
        return options

    def resolve(self, requested: Speculation, request: GenerateRequest) -> Speculation:
        """The configuration that answers a request asking for ``requested`` (never auto).

        Auto's route may name a configuration that is not running: it then starts in the
        background (:meth:`start_soon`) while a running one answers (:meth:`_meanwhile`), so no
        request waits for a child's start and its cold prompt cache; the next requests of that kind
        go to it once it runs. A configuration asked for by name is started for its request."""
        self._last_activity = time.monotonic()
        if not requested.is_auto:
            return requested
        return Speculation(self._routed(request))

    def _routed(self, request: GenerateRequest) -> str:
        """The name of the configuration Auto gives ``request`` (see :meth:`resolve`)."""
        chosen = self._route(request) if self._route is not None else None
        routed = chosen.name if chosen is not None else self.base_label
        key = _request_key(request)
        child = self._children.get(routed)
        if key is not None and (child is None or key not in child.seen):
            # a request answered before: a running n-gram child that saw it drafts it as it is (a
            # chain is not taken for it: between its n-gram drafts its drafter pays a round)
            for other in self._children.values():
                if key in other.seen and other.label in model_free_methods("llama.cpp"):
                    return other.label
        if child is None:
            meanwhile = self._meanwhile()
            if meanwhile is not None:
                self.start_soon(routed)
                log.info(
                    "Auto's %s configuration starts in the background; %s answers meanwhile",
                    routed,
                    meanwhile,
                )
                return meanwhile
        return routed

    def _meanwhile(self) -> str | None:
        """The running configuration that answers while Auto's route starts: the launch's own, else
        any running one (None: nothing runs, the request waits for the start)."""
        if self.base_label in self._children:
            return self.base_label
        return next(iter(self._children), None)

    def start_soon(self, label: str) -> None:
        """Start ``label``'s child in the background, once no answer computes, unless it runs, loads
        or waits to (a refusal, e.g. the memory budget, is logged: the running configurations go on
        answering). A load reads the model and runs a warm-up pass on the cores the answering child
        spins on, and an answer beside it slows to a fraction of its speed.
        Idle means no answer computes or waits for its turn and none was resolved, started or
        ended for :data:`START_SETTLE` (the request that asked for the start is resolved before it
        computes). A pool that does not rest while :data:`START_PATIENCE` answers end loads it then,
        beside the answers."""
        if self._closed or label in self._children or label in self._loading or label in self._starting:
            return
        self._starting.add(label)

        async def start() -> None:
            asked = self._answered
            try:
                while self._busy() or time.monotonic() - self._last_activity < START_SETTLE:
                    if self._answered - asked >= START_PATIENCE:
                        log.info("the pool did not rest: %s loads beside the answers", label)
                        break
                    await asyncio.sleep(IDLE_POLL)
                await self._child(label)
            except EngineError as exc:
                log.info("the %s configuration was not started in the background: %s", label, exc)
            finally:
                self._starting.discard(label)

        self._tasks.add(task := asyncio.get_running_loop().create_task(start()))
        task.add_done_callback(self._tasks.discard)

    # --- answering -----------------------------------------------------------------------------------
    async def stream(self, configuration: Speculation, request: GenerateRequest) -> AsyncIterator[Event]:
        """The request's events from the child running ``configuration`` (started if needed), in
        its turn."""
        label = configuration.name
        child = await self._child(label)
        await self._take_turn(child)
        started = self._last_activity = time.monotonic()
        tokens = drafted = accepted = 0
        decode_s = 0.0
        own: Speedup | None = None
        alts: tuple[Alternative, ...] = ()
        complete = False
        pieces: list[str] = []
        try:
            await self._prime(child, request)
            async for event in child.engine.stream(request):
                if isinstance(event, TextDelta):
                    pieces.append(event.text)
                if isinstance(event, Finished):
                    tokens, decode_s = event.completion_tokens, event.decode_ms / 1000.0
                    drafted, accepted = event.drafted_total, event.accepted_total
                    complete = event.reason in ("stop", "length")
                    if complete:
                        self._remember(child, request, "".join(pieces))
                    event = await self.learning.finished(child.engine, label, request, event, "".join(pieces))
                    own, alts = event.speedup, event.alternatives or ()
                yield event
        except EngineError:
            if not _alive(child.engine):  # the child ended: the next request starts a new one
                self._drop(child)
            raise
        finally:
            self._end_turn(child)
            self._last_activity = time.monotonic()
            self._answered += 1
            stats = self._stats.setdefault(label, ConfigStats())
            stats.requests += 1
            stats.tokens += tokens
            stats.decode_s += decode_s
            stats.drafted += drafted
            stats.accepted += accepted
            log.debug("%s answered in %.2f s", label, time.monotonic() - started)
            if complete and isinstance(self._route, LearningRoute):
                plain = self._stats.get(OFF)
                self._route.observe(
                    request,
                    label,
                    tokens,
                    decode_s,
                    plain.decode_tps if plain is not None else None,
                    own,
                    alts,
                )

    def _kind_of(self, request: GenerateRequest) -> str:
        """The kind Auto gave ``request`` ("" without Auto's router)."""
        route = self._route
        return route.kind_of(request) if isinstance(route, LearningRoute) else ""

    def prediction_errors(self) -> dict[str, tuple[float, int]]:
        """Per configuration, the median of |predicted / measured - 1| of its answers' speed (the
        cost model's error, measured on every answer), and how many answers it rests on."""
        return self.learning.prediction_errors()

    @property
    def acceptance(self) -> AcceptanceByPosition:
        """Per drafter configuration and kind of request, its acceptance by draft position."""
        return self.learning.acceptance

    # --- what the children have seen ---------------------------------------------------------------
    def _remember(self, child: _Child, request: GenerateRequest, answer: str) -> None:
        key = _request_key(request)
        if key is None or not answer:
            return
        self._answers[key] = (request, answer)
        self._answers.move_to_end(key)
        while len(self._answers) > REMEMBERED_ANSWERS:
            self._answers.popitem(last=False)
        child.seen.add(key)
        if not self._closed:
            self._tasks.add(task := asyncio.get_running_loop().create_task(self._share(key)))
            task.add_done_callback(self._tasks.discard)

    async def _share(self, key: str) -> None:
        """Once the pool is idle, show a new answer to the running n-gram children that have not
        seen it, so a repeat of the request drafts from it at once (its prompt pass is then paid
        while nobody waits, not before the repeat's answer)."""
        await asyncio.sleep(SHARE_DELAY)
        for child in list(self._children.values()):
            if self._closed or self._busy():
                return  # busy: a repeat still gets the answer shown first (_prime)
            if key in child.seen or not self._drafts_from_text(child.label) or child.label in self._loading:
                continue
            remembered = self._answers.get(key)
            if remembered is None:
                return
            await self._take_turn(child)
            try:
                await self._show(child, key, *remembered)
            except EngineError as exc:
                log.info("could not show an answer to the %s configuration: %s", child.label, exc)
            finally:
                self._end_turn(child)

    async def _show(self, child: _Child, key: str, earlier: GenerateRequest, answer: str) -> None:
        shown = ChatMessage(role="assistant", content=answer)
        prompt = [*earlier.messages, shown, ChatMessage(role="user", content="ok")]
        async for _event in child.engine.stream(GenerateRequest(prompt, Sampling(max_tokens=1))):
            pass
        child.seen.add(key)

    async def _prime(self, child: _Child, request: GenerateRequest) -> None:
        """Before a request that was answered already, by another child: show this child that answer.

        An n-gram method drafts from text its child has seen (llama.cpp's ngram-mod indexes the
        prompt too), so a request sent again (an agent retrying, a client resending) that goes to
        another configuration than the first time would draft nothing. A one-token request whose
        prompt holds the earlier answer costs one prompt pass and lets the repeat draft from its
        first round (the figures: docs/benchmarks.md, "The engine pool on `tandem serve`")."""
        key = _request_key(request)
        if key is None or key in child.seen or not self._drafts_from_text(child.label):
            return
        remembered = self._answers.get(key)
        if remembered is None:
            return
        await self._show(child, key, *remembered)
        log.info("showed the %s configuration an earlier answer before its repeat", child.label)

    def _busy(self) -> bool:
        """Whether an answer computes or waits for its turn (background work waits for neither)."""
        return any(c.active for c in self._children.values()) or self._turns.queued

    def background(self) -> dict[str, Any]:
        """What the pool does besides answering: the configurations starting (waiting for the pool
        to be idle, or loading), those loading, and whether any such work is pending (a start, or
        an answer to show an n-gram child)."""
        starting = sorted(self._starting | set(self._loading))
        return {"starting": starting, "loading": sorted(self._loading), "busy": bool(starting or self._tasks)}

    def _drafts_from_text(self, label: str) -> bool:
        """Configuration ``label`` runs a model-free method (alone or after a drafter): it drafts
        from the text its child has seen, so an earlier answer shown to it pays."""
        options = self._configurations.get(label)
        method = options.method if options is not None and options.enabled else ""
        free = model_free_methods("llama.cpp")
        return any(part in free for part in method.split("+"))

    async def ready(self, configuration: Speculation) -> None:
        """Start the child of ``configuration`` unless it runs (:class:`PoolRefused` when it cannot)."""
        await self._child(configuration.name)

    def _drop(self, child: _Child) -> None:
        if self._children.get(child.label) is child:
            del self._children[child.label]
            log.warning(
                "the %s configuration's process ended; it starts again on the next request", child.label
            )
        if child.idle_timer is not None:
            child.idle_timer.cancel()
        self._close_later(child.engine)

    @property
    def base(self) -> Engine | None:
        """The engine running the launch's configuration now (None while it restarts)."""
        return self.engine_of(self.launched)

    def engine_of(self, configuration: Speculation) -> Engine | None:
        child = self._children.get(configuration.name)
        return child.engine if child is not None else None

    async def _child(self, label: str) -> _Child:
        if self._closed:
            raise PoolRefused("the server is stopping")
        child = self._children.get(label)
        if child is not None:
            return child
        pending = self._loading.get(label)
        if pending is None:
            options = self.options_for(label)
            cost = self.cost_of(options)
            self._check_budget(label, cost)
            if len(self._children) >= self.config.max_children and not self._stop_one_idle():
                raise PoolRefused(
                    f"{len(self._children)} configurations run already (at most "
                    f"{self.config.max_children}); {label!r} starts once one of them is idle"
                )
            # children that take turns count once in the thread budget; children that compute at
            # the same time each need cores of their own
            group = self.base_request.thread_group if self.config.exclusive else secrets.token_hex(8)
            request = replace(
                self.base_request, speculation=options, n_parallel=self.config.slots, thread_group=group
            )
            # a task of its own: a request that gives up waiting does not stop the load, whose
            # child then serves the next request (or stops when idle) instead of being lost
            pending = asyncio.get_running_loop().create_task(self._load(label, request, cost))
            pending.add_done_callback(lambda t: t.cancelled() or t.exception())  # always retrieved
            self._loading[label] = pending
        return await asyncio.shield(pending)

    async def _load(self, label: str, request: LoadRequest, cost: int) -> _Child:
        loop = asyncio.get_running_loop()
        try:
            engine = await loop.run_in_executor(self._load_thread, self._load_owned, request)
        finally:
            self._loading.pop(label, None)
        child = _Child(label, engine, owned=True, cost_bytes=cost)
        self._children[label] = child
        child.idle_timer = loop.call_later(self.config.idle_s, self._stop_if_idle, child)
        log.info("started the %s configuration (about %s)", label, human_bytes(cost))
        return child

    def _load_owned(self, request: LoadRequest) -> Engine:
        """Load on the loader thread; the engine is the pool's from here, whatever happens on the
        event loop afterwards (:meth:`close` ends it even if the loop never saw it)."""
        engine = self._loader(request, LoadProgress(cancel=self._load_cancel))
        with self._owned_lock:
            if not self._closed:
                self._owned.append(engine)
                return engine
        engine.close()  # the server stopped while it loaded
        raise PoolRefused("the server is stopping")

    def _close_later(self, engine: Engine) -> None:
        """Close ``engine`` on the loader thread (ending a process takes a moment), or here once
        the pool is closed."""
        try:
            self._load_thread.submit(self._close_owned, engine)
        except RuntimeError:  # the thread was shut down
            self._close_owned(engine)

    def _close_owned(self, engine: Engine) -> None:
        with self._owned_lock:
            self._owned = [e for e in self._owned if e is not engine]
        engine.close()

    def cost_of(self, options: SpeculationOptions) -> int:
        """What one more child with ``options`` costs: its KV cache, its drafter (weights and KV)
        and llama.cpp's buffers; the target's weights are shared with the running children."""
        target = Path(self.base_request.model_path)
        ctx = self.base_request.n_ctx
        try:
            kv = fit.file_kv_shape(target).bytes(ctx, "f16")
        except (fit.FitError, OSError, ValueError):
            kv = 0
        drafter = 0
        if options.draft_model_path:
            path = Path(options.draft_model_path)
            with contextlib.suppress(fit.FitError, OSError, ValueError):
                drafter = fit.weights_bytes(path) + fit.file_kv_shape(path).bytes(ctx, "f16")
        return kv + drafter + fit.OVERHEAD_FIXED

    def _check_budget(self, label: str, cost: int) -> None:
        used = sum(c.cost_bytes for c in self._children.values() if c.owned)
        budget = self.config.memory_budget
        left = (budget - used) if budget is not None else int(fit.TIGHT_FRACTION * fit.available_memory())
        if cost > left:
            raise PoolRefused(
                f"the {label!r} configuration needs about {human_bytes(cost)} more memory and "
                f"{human_bytes(max(0, left))} is left for it; it was not started"
            )

    # --- turns ----------------------------------------------------------------------------------------
    async def _take_turn(self, child: _Child) -> None:
        """Wait until ``child`` may compute (:class:`~app.core.pool.turns.Turns`)."""
        if child.idle_timer is not None:
            child.idle_timer.cancel()
            child.idle_timer = None
        if self._retune_timer is not None:
            self._retune_timer.cancel()
            self._retune_timer = None
        await self._turns.take(child)

    def _end_turn(self, child: _Child) -> None:
        child.last_used = time.monotonic()
        if not self._turns.end(child):
            return
        if child.owned and not self._closed:
            loop = asyncio.get_running_loop()
            child.idle_timer = loop.call_later(self.config.idle_s, self._stop_if_idle, child)
        self._rest()

    # --- threads that follow the free cores --------------------------------------------------------
    def _rest(self) -> None:
        """The pool is at rest (no answer computes or waits): check the threads once it stays so."""
        if self.config.retune_s is None or self._closed or self._busy() or self._retune_timer is not None:
            return
        loop = asyncio.get_running_loop()
        self._retune_timer = loop.call_later(self.config.retune_s, self._retune_soon)

    def _retune_soon(self) -> None:
        self._retune_timer = None
        if self._closed:
            return

        async def check() -> None:
            await self.retune()

        self._tasks.add(task := asyncio.get_running_loop().create_task(check()))
        task.add_done_callback(self._tasks.discard)

    async def retune(self) -> list[tuple[str, int, int]]:
        """Start again, one at a time, the idle children whose automatic thread count differs from
        what the free cores give now; returns what changed as ``(label, before, after)``. Requests
        that arrive meanwhile wait for their turn; nothing happens while the pool is not at rest."""
        loop = asyncio.get_running_loop()
        changed: list[tuple[str, int, int]] = []
        for child in list(self._children.values()):
            engine = child.engine
            if not isinstance(engine, ChildEngine) or engine.lease is None or not engine.lease.auto:
                continue
            if self._closed or self._busy() or self._loading or self._turns.running is not None:
                break
            choice = await loop.run_in_executor(self._load_thread, threads.ledger().rechoose, engine.lease)
            before = engine.n_threads
            if choice.threads == before or self._busy() or self._closed or not self._turns.hold():
                continue
            try:
                await loop.run_in_executor(self._load_thread, engine.rethread, choice)
                child.seen.clear()  # a new process has seen nothing
                changed.append((child.label, before, choice.threads))
                log.info("the %s configuration now computes with %d threads", child.label, choice.threads)
            except EngineError as exc:
                log.warning("the %s configuration could not be started again: %s", child.label, exc)
                self._drop(child)
            finally:
                self._turns.release()
        self.retuned.extend(changed)
        return changed

    def threads_of(self) -> dict[str, int]:
        """The threads each running child computes with (llama.cpp children only)."""
        return {
            label: c.engine.n_threads
            for label, c in list(self._children.items())
            if isinstance(c.engine, ChildEngine)
        }

    def _stop_if_idle(self, child: _Child) -> None:
        child.idle_timer = None
        if child.active == 0 and self._children.get(child.label) is child and not self._closed:
            del self._children[child.label]
            log.info("stopped the idle %s configuration", child.label)
            self._close_later(child.engine)

    def _stop_one_idle(self) -> bool:
        waited = self._turns.waited_for()
        idle = [c for c in self._children.values() if c.owned and c.active == 0 and c.label not in waited]
        if not idle:
            return False
        oldest = min(idle, key=lambda c: c.last_used)
        if oldest.idle_timer is not None:
            oldest.idle_timer.cancel()
        del self._children[oldest.label]
        self._close_later(oldest.engine)
        return True

    # --- status and end -------------------------------------------------------------------------------
    def status(self) -> PoolStatus:
        # read from other threads too (the GUI's panel): copies first, then the records
        children = tuple(
            ChildStatus(c.label, c.active, self.config.slots, c.cost_bytes, not c.owned)
            for c in list(self._children.values())
        )
        return PoolStatus(children, {k: replace(v) for k, v in list(self._stats.items())})

    def stop_loading(self) -> None:
        """The first step of stopping: refuse new configurations and end the loads under way (a
        large model loads for seconds), so a request waiting for one is refused at once instead of
        holding the server's shutdown. Safe from any thread; :meth:`close` does it too."""
        with self._owned_lock:
            self._closed = True
        self._load_cancel.cancel()

    def close(self) -> None:
        """Stop every child the pool started (the base stays with its owner), also one that was
        still loading (its load is cancelled, not waited for), and the loader thread."""
        self.stop_loading()
        if isinstance(self._route, LearningRoute):
            self._route.save()
        for task in list(self._tasks):
            with contextlib.suppress(RuntimeError):  # its loop is gone: nothing left to cancel
                task.get_loop().call_soon_threadsafe(task.cancel)
        if self._retune_timer is not None:
            with contextlib.suppress(RuntimeError):
                self._retune_timer.cancel()
            self._retune_timer = None
        for child in list(self._children.values()):
            if child.idle_timer is not None:
                child.idle_timer.cancel()
        self._children = {k: c for k, c in self._children.items() if not c.owned}
        self._load_thread.shutdown(wait=True, cancel_futures=True)  # a cancelled load ends at once
        with self._owned_lock:
            owned, self._owned = self._owned, []
        for engine in owned:
            engine.close()
