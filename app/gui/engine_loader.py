"""From a launch choice to a :class:`~app.gui.workers.LoadJob` whose loader runs on the engine thread.

Everything blocking (resolving cache paths, deriving embedded files, loading weights) happens in
the loader, so the dialog returns at once and the load shows progress and can be cancelled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QCoreApplication

from app.core.chat.baselines import baseline_key
from app.core.engines.base import Engine, LoadRequest
from app.core.launch import check_speculation, load_engine
from app.core.speculative import DRAFTER_METHODS
from app.gui.cache_bridge import CacheBridge
from app.gui.views.launch_dialog import LaunchChoice
from app.gui.workers import LoadJob

Loader = Callable[[str, LoadRequest, Callable[[str], None]], Engine]


def speculation_label(choice: LaunchChoice) -> str:
    opts = choice.speculation
    if not opts.enabled:
        return ""
    if opts.method in DRAFTER_METHODS:
        dq = opts.draft_quantization or ""
        return f"{opts.method} {dq}".strip()
    return opts.method


def model_label(choice: LaunchChoice) -> str:
    return f"{choice.family.name} {choice.spec.size_label} {choice.quantization}"


def make_job(choice: LaunchChoice, cache: CacheBridge, loader: Loader = load_engine) -> LoadJob:
    family, spec, quant = choice.family, choice.spec, choice.quantization
    info: dict[str, Any] = {
        "engine": choice.engine,
        "speculation": speculation_label(choice),
        "family": family.name,
        "size": spec.size_label,
        "quantization": quant,
        "format": spec.format,
    }

    def run(progress: Callable[[str], None]) -> Engine:
        progress(QCoreApplication.translate("EngineLoader", "Locating model files"))
        target = cache.resolve(family, spec, "target", quant)
        # Plain and speculative answers of this target file, engine and thread count are compared
        # (the key stats the file, so it is computed here, on the engine thread).
        info["baseline_key"] = baseline_key(choice.engine, str(target), choice.threads)
        options = check_speculation(family, spec, choice.engine, choice.speculation)
        if options.enabled and options.method in DRAFTER_METHODS and not options.draft_model_path:
            drafter = cache.resolve(family, spec, "drafter", quant, options.draft_quantization)
            options = options.with_drafter(str(drafter))
        req = LoadRequest(
            model_path=str(target),
            speculation=options,
            n_ctx=choice.n_ctx,
            n_threads=choice.threads,
            chat_template=family.chat_template,
            family_name=family.name,
            size_in_billions=float(spec.size_in_billions),
        )
        return loader(choice.engine, replace(req), progress)

    return LoadJob(label=model_label(choice), loader=run, info=info)
