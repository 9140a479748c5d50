"""The loaded model as it answers: its engine and, for llama.cpp, its engine pool with Auto's router.

* A loaded llama.cpp model gets its :class:`~app.core.pool.pool.EnginePool`, the same one the
  Local server serves: a conversation's speculation (off, a method, Auto routed per request by
  the same router as ``tandem serve``) is a per-request choice answered by the pool's child for it,
  started beside the loaded one on first use, never a reload. Other engines run what they
  loaded; one that switches per request (:class:`~app.core.engines.base.SpeculationSwitch`, MLX)
  offers its own choices.
* The pool decides on the engine loop, where it lives; answers are the engine's async stream on
  the engine loop (:mod:`app.core.engines.loop`), relayed to the caller's loop as they come. No
  thread per answer; cancelling the consumer stops the request in the engine.
* A :class:`LoadedModel` is built on a load thread (Auto's routes are read from disk there),
  read on the GUI thread, and closed on a load thread (:mod:`app.gui.engine.loading`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import AsyncIterator, Callable

from app.core.engines.base import (
    Engine,
    Event,
    GenerateRequest,
    GenerationError,
    LoadRequest,
    SpeculationSwitch,
)
from app.core.engines.loop import engine_loop
from app.core.launch.auto.router import RequestRouter
from app.core.pool.build import pool_for
from app.core.pool.pool import EnginePool
from app.core.speculative import per_request
from app.core.speculative.per_request import Speculation
from app.gui.engine.info import ModelInfo

log = logging.getLogger(__name__)

#: the pool's loader for a configuration started for a request (the launch's engine)
PoolLoader = Callable[[LoadRequest, Callable[[str], None]], Engine]


class LoadedModel:
    """One loaded model and its pool (None: the engine runs what it loaded). ``LoadedModel()`` is
    no model: nothing is offered, Auto is "off" and :meth:`stream` refuses."""

    def __init__(self, engine: Engine | None = None, pool: EnginePool | None = None) -> None:
        self.engine = engine
        self.pool = pool
        #: answers being read from it (a model that answers is never closed to make room)
        self.active = 0

    @classmethod
    def serve(cls, engine: Engine, info: ModelInfo, pool_loader: PoolLoader | None) -> LoadedModel:
        """``engine`` as it answers: with its pool when ``pool_loader`` can start the pool's
        configurations (load thread)."""
        return cls(engine, pool_of(info, engine, pool_loader))

    @property
    def empty(self) -> bool:
        return self.engine is None and self.pool is None

    def offers(self) -> list[Speculation]:
        """What a conversation may choose without a reload: the pool's configurations (auto and
        off included), or what an engine that switches per request offers (MLX), else nothing
        beyond what the loaded engine runs."""
        pool, engine = self.pool, self.engine
        if pool is not None:
            return pool.offers()
        if isinstance(engine, SpeculationSwitch):
            return [per_request.AUTO_CHOICE, *engine.offers()]
        return []

    @property
    def routed(self) -> bool:
        """Auto picks each answer's configuration by its kind (a pool with Auto's router)."""
        return self.pool is not None and self.pool.route is not None

    @property
    def launched(self) -> Speculation:
        """The configuration the launch loaded (off without speculation)."""
        if self.pool is not None:
            return self.pool.launched
        engine = self.engine
        return per_request.running(engine.spec_kind if engine is not None else None)

    async def resolve(
        self, choice: Speculation, request: GenerateRequest, loop: asyncio.AbstractEventLoop
    ) -> Speculation:
        """The configuration that answers ``request`` for a conversation choosing ``choice``
        (Auto routed by its kind), decided on the engine loop where the pool lives. Without a
        pool Auto is what the launch loaded."""
        pool = self.pool
        if pool is None:
            return self.launched if choice.is_auto else choice

        async def decide() -> Speculation:
            configuration = pool.resolve(choice, request)
            log.debug("a conversation choosing %s is answered by %s", choice, configuration)
            return configuration

        return await asyncio.wrap_future(engine_loop().submit(decide()), loop=loop)

    async def stream(
        self,
        configuration: Speculation,
        request: GenerateRequest,
        loop: asyncio.AbstractEventLoop,
        started: Callable[[], None],
    ) -> AsyncIterator[Event]:
        """``request``'s events from ``configuration`` (the pool's child for it, started
        on first use), read on the engine loop and handed to ``loop`` as they come; ``started`` is
        called once, after the first event was handed on."""
        engine, pool = self.engine, self.pool
        if engine is None:
            raise GenerationError("no model is loaded", "Load a model from the Models page first.")

        def produce() -> AsyncIterator[Event]:
            if pool is not None:
                return pool.stream(configuration, request)
            if isinstance(engine, SpeculationSwitch):  # the engine switches inside its own loop
                return engine.stream(dataclasses.replace(request, speculation=configuration))
            return engine.stream(request)

        first = True
        self.active += 1
        try:
            async for event in engine_loop().relay(produce, loop):
                yield event
                if first:
                    first = False
                    started()
        finally:
            self.active -= 1

    def stop_loading(self) -> None:
        """Refuse new configurations and end the pool's loads under way (any thread)."""
        if self.pool is not None:
            self.pool.stop_loading()

    def close(self) -> None:
        """Close the pool's children, then the engine (load thread)."""
        if self.pool is not None:
            try:
                self.pool.close()
            except Exception:
                log.exception("closing the engine pool failed")
        if self.engine is not None:
            try:
                self.engine.close()
            except Exception:
                log.exception("closing the engine failed")


def pool_of(info: ModelInfo, engine: Engine, pool_loader: PoolLoader | None) -> EnginePool | None:
    """The loaded llama.cpp model's pool (None without ``pool_loader``: the engine runs what it
    loaded), with Auto's routes for the model (load thread: the routes are read from disk)."""
    if pool_loader is None:
        return None
    plan = info.routes_plan
    route: RequestRouter | None = None
    if plan is not None:
        try:
            route = RequestRouter.for_model(plan.key, plan.candidates, plan.drafter_path)
        except Exception:  # no routes: Auto answers on the loaded configuration
            log.exception("Auto's routes for the loaded model could not be read")
    configurations = route.configurations() if route is not None else None
    drafter = (
        (plan.drafter_method, plan.drafter_path)
        if plan and plan.drafter_method and plan.drafter_path
        else None
    )
    # "auto" is routed per request on an Auto launch; on a launch with a fixed method it is that
    # method (the rule of `tandem serve`), and the routes only add their configurations
    routed = route if info.auto is not None else None
    return pool_for(engine, pool_loader, drafter, route=routed, extra=configurations)
