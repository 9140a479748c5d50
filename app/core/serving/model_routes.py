"""The model routes of the local server: ``GET /v1/models`` entries (one loaded model, or every
model of a set with its status), ``POST /models/load`` and ``/models/unload`` (llama-server's
router shapes), and the errors a model set answers in each API's shape."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from app.core.engines.base import EngineError, TokenCounter
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.modelset import LoadFailed, ModelSource, ModelStatus, NoRoom, UnknownModel
from app.core.pool.pool_types import LearningRoute
from app.core.registry.abilities import served_abilities
from app.core.serving import protocol as P
from app.core.serving.adapter import MESSAGES, Adapter
from app.core.serving.served import ServedModel


def listing(models: ModelSource[ServedModel]) -> dict[str, Any]:
    """``/v1/models`` of a model set (blocking: estimates read GGUF headers, the registry is read)."""
    models.estimate_all()
    return {
        "object": "list",
        "data": [set_entry(m) for m in models.status()],
        "tandem": {
            "memory_budget_bytes": models.budget,
            "memory_loaded_bytes": models.loaded_memory(),
            "max_loaded": models.max_loaded,
        },
    }


async def load_or_unload(models: ModelSource[ServedModel] | None, body: object, load: bool) -> dict[str, Any]:
    """``POST /models/load`` and ``/models/unload`` with ``{"model": id}``; ``/models/unload`` with
    ``{"all": true}`` (or ``"model": "*"``) unloads every model. A model that answers is unloaded
    when its answers end (``pending``). :class:`P.ApiError` when it cannot be done."""
    if models is None:
        raise P.ApiError(
            400,
            "this server serves one model; start it with --models-dir, --all or "
            "--models-preset to load and unload models",
            code="not_a_model_set",
        )
    if not isinstance(body, dict):
        raise P.ApiError(400, 'expected a JSON object such as {"model": "<id>"}')
    name = body.get("model")
    everything = body.get("all") is True or name == "*"
    if not load and everything:
        done, pending = await models.unload_all()
        return {"success": True, "unloaded": done, "pending": pending}
    if not isinstance(name, str) or not name:
        raise P.ApiError(400, 'name the model: {"model": "<id>"}', param="model")
    try:
        if load:
            entry = await models.load(name)
            return {"success": True, "model": entry.id, "status": "loaded"}
        now = await models.unload(name)
    except UnknownModel as exc:
        raise unknown(exc) from None
    except (NoRoom, LoadFailed) as exc:
        raise P.ApiError(503, str(exc), "server_error", code="model_unavailable") from None
    found = models.find(name)
    status = "unloaded" if now else "unloading when its answers end"
    return {"success": True, "model": found.id if found else name, "status": status}


def unknown(exc: UnknownModel) -> P.ApiError:
    return P.ApiError(404, str(exc), "invalid_request_error", param="model", code="model_not_found")


def sse_error(adapter: Adapter, exc: P.ApiError) -> bytes:
    """An error as the one event of a stream that failed before its answer, in the API's shape."""
    data = json.dumps(dict(adapter.error_body(exc)))
    return (f"event: error\ndata: {data}\n\n" if adapter is MESSAGES else f"data: {data}\n\n").encode()


def model_entry(model: ServedModel) -> dict[str, Any]:
    """The served model as ``/v1/models`` lists it: what it can do, and the context it was loaded
    with (the family's when the engine cannot say). Blocking (the registry is read): a thread."""
    engine = model.engine
    context = None
    if isinstance(engine, TokenCounter):
        try:
            context = engine.n_ctx or None
        except EngineError:
            context = None
    entry = {"id": model.model_id, "object": "model", "created": 0, "owned_by": "tandem"}
    entry |= served_abilities(model.model_id, engine.supports_images, context)
    # the CPU threads each llama.cpp child computes with, by configuration (they follow the free
    # cores: app.core.engines.threads)
    counts = model.pool.threads_of() if model.pool is not None else {}
    if not counts and isinstance(engine, LlamaCppEngine):
        counts = {engine.spec_kind or "off": engine.n_threads}
    if counts:
        entry["tandem"] = {"threads": counts}
    return entry


def set_entry(status: ModelStatus[ServedModel]) -> dict[str, Any]:
    """One model of a set as ``/v1/models`` lists it: the loaded model's entry (abilities, context,
    threads) when loaded, else what its settings say, with its status, memory and speculation."""
    entry = status.entry
    if status.value is not None:
        out = model_entry(replace(status.value, model_id=entry.id))
        speculation = status.value.running.name
    else:
        out = {"id": entry.id, "object": "model", "created": 0, "owned_by": "tandem"}
        out |= served_abilities(entry.registry[0] if entry.registry else entry.id, False, entry.ctx)
        speculation = entry.speculation or "off"
    tandem = dict(out.get("tandem") or {})
    tandem |= {
        "memory_bytes": status.memory_bytes,
        "speculation": speculation,
        "pinned": entry.pinned,
        "ttl": status.ttl_s,
        "active": status.active,
        "waiting": status.waiting,
    }
    if entry.draft_path:
        tandem["drafter"] = Path(entry.draft_path).name
    if entry.aliases:
        tandem["aliases"] = list(entry.aliases)
    if status.error:
        tandem["error"] = status.error
    out["status"] = {"value": status.state.value}
    out["tandem"] = tandem
    return out


def loaded_model(models: ModelSource[ServedModel], name: str | None) -> ServedModel | None:
    """The loaded model ``name`` names (the first loaded one when it names none)."""
    loaded = [m for m in models.status() if m.value is not None]
    found = models.find(name) if name else None
    return next((m.value for m in loaded if found is None or m.entry.id == found.id), None)


async def auto_status(model: ServedModel | None, blocking: Callable[..., Awaitable[Any]]) -> dict[str, Any]:
    """What Auto learned from real answers: per kind of request, the route now, its speedup with
    an interval and the answers it rests on, and what the pool does besides answering
    (configurations starting), and per configuration the cost model's error on its answers
    (``prediction_error``: the median of |predicted / measured - 1| and the answers it rests on).
    ``auto`` false: this model routes nothing by Auto (a fixed configuration, or an engine without
    a pool)."""
    pool = model.pool if model is not None else None
    route = pool.route if pool is not None else None
    if pool is None or not isinstance(route, LearningRoute):
        return {"auto": False, "routes": []}
    rows = await blocking(route.learned)
    errors = {
        label: {"median": round(median, 4), "answers": n}
        for label, (median, n) in pool.prediction_errors().items()
    }
    return {"auto": True, "routes": rows, "background": pool.background(), "prediction_error": errors}
