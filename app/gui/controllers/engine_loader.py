"""From a launch choice to a :class:`~app.gui.engine.loading.LoadJob` whose loader runs on a load
thread (:mod:`app.gui.engine.loading`).

Everything blocking (resolving cache paths, deriving embedded files, loading weights) happens in
the loader, so the dialog returns at once and the load shows progress and can be cancelled.

The job's ``info`` carries the choice's sampling (the chat uses it once the model is loaded) and
the launch record that is saved as the last launch and reopened at the next start.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QCoreApplication

from app.core.engines.base import Engine, LoadRequest, Sampling
from app.core.engines.remote.engine import RemoteEngine
from app.core.launch import auto
from app.core.launch.plan import (
    AutoLaunch,
    LaunchChoice,
    LaunchError,
    fit_context,
    load_engine,
    memory_of,
    plan_auto,
    plan_launch,
    plan_remote,
)
from app.core.measure.baselines import baseline_key
from app.core.registry import Registry
from app.core.settings import LastLaunch, SamplingDefaults
from app.core.speculative import DRAFTER_METHODS, SpeculationOptions
from app.gui.cache_bridge import CacheBridge
from app.gui.engine import AutoPick, LoadJob, ModelInfo
from app.gui.views.remote_tab import remember

log = logging.getLogger(__name__)

Loader = Callable[[str, LoadRequest, Callable[[str], None]], Engine]


#: The one name the stats strip and the status bar give an Auto launch.
AUTO_LABEL = "Auto"


def auto_label(chosen: auto.Candidate) -> str:
    """What the stats strip names: "Auto: ngram-mod 64/round", "Auto: off"."""
    return f"{AUTO_LABEL}: {chosen.label}"


def speculation_label(choice: LaunchChoice) -> str:
    if choice.auto:
        return AUTO_LABEL
    opts = choice.speculation
    if not opts.enabled:
        return ""
    if opts.method in DRAFTER_METHODS:
        # a found drafter has a file, not a quantization of a declared one
        dq = opts.draft_quantization or (Path(opts.draft_model_path).name if opts.draft_model_path else "")
        return f"{opts.method} {dq}".strip()
    return opts.method


def model_label(choice: LaunchChoice) -> str:
    """The loaded model as the window names it, its size as the browser writes it (135M, E4B)."""
    if choice.remote is not None:
        return choice.remote.label
    return f"{choice.family.name} {choice.spec.size_text} {choice.quantization}"


def launch_record(choice: LaunchChoice) -> LastLaunch:
    """The choice as the settings store it (engine-neutral, no resolved paths)."""
    opts, s = choice.speculation, choice.sampling
    return LastLaunch(
        family=choice.family.name,
        format=choice.spec.format,
        size=str(choice.spec.size_in_billions),
        quantization=choice.quantization,
        engine=choice.engine,
        speculation_method="auto" if choice.auto else (opts.method if opts.enabled else None),
        draft_quantization=opts.draft_quantization if opts.enabled or choice.auto else None,
        # a found drafter: the file the launch used, reopened only while it exists
        draft_model_path=opts.draft_model_path if opts.enabled or choice.auto else None,
        num_speculative_tokens=opts.num_speculative_tokens if opts.enabled else None,
        n_ctx=choice.n_ctx,
        threads=choice.threads,
        sampling=SamplingDefaults(
            temperature=s.temperature,
            top_p=s.top_p,
            top_k=s.top_k,
            max_tokens=s.max_tokens,
            repeat_penalty=s.repeat_penalty,
        ),
    )


def choice_from_record(record: LastLaunch, registry: Registry, fallback: Sampling) -> LaunchChoice:
    """Rebuild a stored launch; raises ``RegistryError`` / ``ValueError`` when it no longer fits
    the registry (family removed, spec or quantization gone, bad speculation)."""
    family, spec, quant = registry.match(record.family, record.format, record.size, record.quantization)
    is_auto = record.speculation_method == "auto"
    found = record.draft_model_path
    if found and not Path(found).is_file():
        if not is_auto:
            raise ValueError(f"its drafter's file is no longer on disk ({found})")
        found = None  # Auto measures without a found drafter that is gone
    if is_auto:
        options = SpeculationOptions(draft_quantization=record.draft_quantization, draft_model_path=found)
    elif record.speculation_method:
        options = SpeculationOptions.build(
            enabled=True,
            method=record.speculation_method,
            draft_quantization=record.draft_quantization,
            num_speculative_tokens=record.num_speculative_tokens,
            draft_model_path=found,
        )
    else:
        options = SpeculationOptions()
    s = record.sampling
    sampling = (
        Sampling(
            temperature=s.temperature,
            top_p=s.top_p,
            top_k=s.top_k,
            max_tokens=s.max_tokens,
            repeat_penalty=s.repeat_penalty,
            seed=fallback.seed,
            stop=fallback.stop,
        )
        if s is not None
        else fallback
    )
    n_ctx = fit_context(record.n_ctx, family) if record.n_ctx else 0  # 0 (or none kept): Auto
    return LaunchChoice(
        family,
        spec,
        quant,
        record.engine,
        options,
        n_ctx,
        record.threads,
        sampling,
        auto=is_auto,
        auto_drafter=is_auto and record.draft_quantization is not None,
    )


def make_job(choice: LaunchChoice, cache: CacheBridge, loader: Loader = load_engine) -> LoadJob:
    if choice.remote is not None:
        return remote_job(choice, loader)
    family, spec, quant = choice.family, choice.spec, choice.quantization
    info = ModelInfo(
        engine=choice.engine,
        speculation=speculation_label(choice),
        family=family.name,
        size=spec.size_label,
        quantization=quant,
        format=spec.format,
        sampling=choice.sampling,  # the chat answers with it once the model is loaded
        launch=launch_record(choice),
    )

    def run(progress: Callable[[str], None]) -> Engine:
        progress(QCoreApplication.translate("EngineLoader", "Locating model files"))
        if choice.auto:
            engine_name, request = auto_request(choice, cache, info)
        else:
            # The one launch path: the CLI's `resolve` builds its request the same way.
            plan = plan_launch(choice, cache.resolve)
            engine_name, request = plan.engine, plan.request
            if engine_name == "llama.cpp":  # the conversation's Auto routes per request from it
                info.routes_plan = routes_plan(choice, cache)
        # Plain and speculative answers of this target file, engine and thread count are compared
        # (the key stats the file, so it is computed here, on the engine thread).
        info.baseline_key = baseline_key(choice.engine, request.model_path, choice.threads)
        info.memory_bytes = memory_of(request)
        return loader(engine_name, request, progress)

    return LoadJob(label=model_label(choice), loader=run, info=info)


def routes_plan(choice: LaunchChoice, cache: CacheBridge) -> AutoLaunch | None:
    """The Auto launch of a model launched without Auto (its calibration key, candidates and
    drafter), or None when it has none (a drafter not on disk is simply not offered)."""
    try:
        # the declared drafter when this launch runs it (it is on disk then)
        return plan_auto(replace(choice, auto=True, auto_drafter=choice.speculation.enabled), cache.resolve)
    except (LaunchError, OSError, ValueError) as exc:
        log.info("no Auto routes for this launch: %s", exc)
        return None


def remote_job(choice: LaunchChoice, loader: Loader = load_engine) -> LoadJob:
    """A remote server: connect, check the model, chat. The server's own launch
    settings decide speculation (its stats come from what it reports), so no speculation label,
    no speed baseline (another machine's speed) and no last-launch record (no files to reopen)."""
    target = choice.remote
    assert target is not None
    info = ModelInfo(
        engine="remote", family=target.label, endpoint=target.endpoint.url, sampling=choice.sampling
    )

    def run(progress: Callable[[str], None]) -> Engine:
        url = target.endpoint.url
        progress(QCoreApplication.translate("EngineLoader", "Connecting to {url}").format(url=url))
        plan = plan_remote(choice)  # the endpoint's key from the keyring, on the engine thread
        engine = loader(plan.engine, plan.request, progress)
        remote = engine if isinstance(engine, RemoteEngine) else None
        info.server_kind = remote.server_kind if remote is not None else ""
        info.remote_model = remote.model if remote is not None else target.model
        remember(target.endpoint, target.api_key or "")  # it answered: keep the URL and a typed key
        return engine

    return LoadJob(label=model_label(choice), loader=run, info=info)


def auto_request(choice: LaunchChoice, cache: CacheBridge, info: ModelInfo) -> tuple[str, LoadRequest]:
    """Auto's load request (engine thread): the stored calibration's choice, else the prior.

    A launch never waits for a calibration: with nothing measured here, the first
    answer runs on the pair's best prior (:func:`app.core.launch.auto.prior`) and the
    :class:`~app.gui.controllers.auto_tuner.AutoTuner` measures while the user is idle, from
    ``info.auto.plan``. Configurations that lost on the user's answers are skipped either way.
    """
    plan = plan_auto(choice, cache.resolve)
    result = auto.load_result(plan.key)
    if result is not None:
        chosen = result.choice
        stored = str(result.stored_path)
        pick = AutoPick(chosen.candidate.label, chosen.why, stored, True, chosen.candidate, plan)
    else:
        candidate = plan.prior(auto.load_demoted(plan.key))
        pick = AutoPick(candidate.label, "", "", False, candidate, plan)
    info.speculation = auto_label(pick.candidate or auto.OFF)
    info.auto = pick
    return plan.engine, plan.request(pick.candidate or auto.OFF, result)
