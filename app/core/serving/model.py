"""What a loaded engine is served as: model id and tool-call style, and the engine pool around a
loaded llama.cpp engine."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from app.core.engines.base import Engine
from app.core.requests.tool_style import tool_style_for
from app.core.serving.pool import EnginePool
from app.core.serving.pool_types import ChildEngine, Loader, PoolConfig, Route, standard_configurations
from app.core.serving.served import ServedModel
from app.core.speculative.options import SpeculationOptions


def served_model(
    engine: Engine,
    model_path: str,
    family_name: str | None = None,
    tool_parser: str | None = None,
    chat_template: str | None = None,
    override_style: str | None = None,
) -> ServedModel:
    """A :class:`ServedModel` for a loaded engine (the CLI and the GUI build it the same way)."""
    model_id = family_name or Path(model_path).stem or "tandem"
    style = tool_style_for(tool_parser, chat_template, model_path, override_style)
    return ServedModel(engine, model_id, style)


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
