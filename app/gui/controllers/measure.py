"""The plain engine the chat's "Measure" runs on: the loaded model's file, engine and
thread count with speculation off, through the one launch path (:func:`app.core.launch.plan.plan_launch`).

Blocking (files resolved, weights loaded): the chat controller calls it through ``ops.run``.
"""

from __future__ import annotations

from app.core.engines.base import Engine, LoadRequest
from app.core.launch.plan import LaunchChoice, fit_context, load_engine, plan_launch
from app.core.measure.plain import plain_context
from app.core.registry import Registry
from app.core.speculative import SpeculationOptions
from app.gui.cache_bridge import CacheBridge
from app.gui.controllers.engine_loader import Loader
from app.gui.engine import ModelInfo


def plain_engine(
    registry: Registry,
    cache: CacheBridge,
    info: ModelInfo,
    prompt_tokens: int,
    completion_tokens: int,
    loader: Loader = load_engine,
) -> Engine:
    """Load the engine of ``info`` (the loaded model's launch) without speculation, with a context
    just large enough for the prompt and the answer."""
    record = info.launch
    if record is None:
        raise ValueError("This answer's model was not launched from the registry; it cannot be measured.")
    family, spec, quant = registry.match(record.family, record.format, record.size, record.quantization)
    n_ctx = plain_context(
        prompt_tokens, completion_tokens, fit_context(record.n_ctx or family.context_length, family)
    )
    choice = LaunchChoice(family, spec, quant, record.engine, SpeculationOptions(), n_ctx, record.threads)
    plan = plan_launch(choice, cache.resolve)
    request: LoadRequest = plan.request
    return loader(plan.engine, request, lambda _message: None)
