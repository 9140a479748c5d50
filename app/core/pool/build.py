"""The engine pool around a loaded llama.cpp engine, as the window, ``tandem serve`` and the Local
server build it."""

from __future__ import annotations

from collections.abc import Mapping

from app.core.engines.base import Engine
from app.core.pool.pool import EnginePool
from app.core.pool.pool_types import ChildEngine, Loader, PoolConfig, Route, standard_configurations
from app.core.speculative.options import SpeculationOptions


def pool_for(
    engine: Engine,
    loader: Loader,
    drafter: tuple[str, str] | None = None,
    config: PoolConfig | None = None,
    route: Route | None = None,
    extra: Mapping[str, SpeculationOptions] | None = None,
) -> EnginePool | None:
    """A pool around a loaded llama.cpp engine (None for other engines: they serve what they run).

    ``drafter`` is the launch's drafter as ``(method, path)`` when it is not the one running
    (Auto chose a model-free method); else the running one is offered. ``extra``: more
    configurations by name (the ones Auto's routes use, at their measured depths)."""
    if not isinstance(engine, ChildEngine) or engine.load_request is None:
        return None
    request = engine.load_request
    spec = request.speculation
    if drafter is None and spec.enabled and spec.draft_model_path:
        drafter = (spec.method, spec.draft_model_path)
    config = config or PoolConfig(slots=request.n_parallel)
    configurations = standard_configurations(drafter)
    configurations.update(extra or {})
    return EnginePool(engine, request, loader, configurations, config, route)
