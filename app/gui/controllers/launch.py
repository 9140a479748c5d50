"""Launch orchestration: download what is missing, then load; reopen the last launch at start.

One coroutine per launch on the qasync loop (:mod:`app.gui.ops`) reads top to bottom: queue the
missing downloads, ``await`` their ends, load. A newer launch replaces a pending one (its task is
cancelled); the window's shutdown cancels what still waits. The checks that touch the disk or
import an engine package (the last launch's files, the MLX availability check that imports
``mlx_vlm``) run on a worker, never on the GUI thread.

The window shows what happens through the signals; it holds no launch rules.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal

from app.core.engines import capability
from app.core.engines.base import Sampling
from app.core.launch import auto
from app.core.launch.plan import DEFAULT_MODEL
from app.core.registry import Registry
from app.core.settings import LastLaunch, Settings, starting_sampling
from app.core.speculative import DRAFTER_METHODS, SpeculationOptions
from app.gui.cache_bridge import CacheBridge
from app.gui.controllers.chat import ChatController, to_sampling
from app.gui.controllers.chat.models import DiskModel
from app.gui.controllers.downloads import DownloadRequest, DownloadService
from app.gui.controllers.engine_loader import choice_from_record, make_job
from app.gui.engine import EngineHost, LoadJob
from app.gui.errors import UserError
from app.gui.ops import Ops
from app.gui.views.launch_dialog import LaunchChoice

log = logging.getLogger(__name__)


class LaunchCoordinator(QObject):
    """Signals: ``loadStarted(str family)``, ``downloadsQueued()`` (a launch waits for its
    downloads), ``notice(str text, int ms)`` (a status-bar line), ``problem(object UserError)``."""

    loadStarted = Signal(str)
    downloadsQueued = Signal()
    notice = Signal(str, int)
    problem = Signal(object)

    def __init__(
        self,
        ops: Ops,
        registry: Registry,
        cache: CacheBridge,
        engine: EngineHost,
        downloads: DownloadService,
        chat: ChatController,
        settings: Callable[[], Settings],
        loader_kwargs: dict[str, Any],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.ops = ops
        self.registry = registry
        self.cache = cache
        self.engine = engine
        self.downloads = downloads
        self.chat = chat
        self._settings = settings
        self._loader_kwargs = loader_kwargs
        #: the choice of the last load started (the Auto notice reloads it)
        self.current: LaunchChoice | None = None
        self._waiting: dict[str, asyncio.Future[bool]] = {}
        self._pending: asyncio.Task[Any] | None = None
        downloads.completed.connect(self._on_download_completed)

    # --- launch ---------------------------------------------------------------------------------
    def launch(self, choice: LaunchChoice) -> None:
        """Queue what is missing, then load; or load at once when everything is on disk."""
        if not choice.downloads:
            self.start_load(choice)
            return
        ids: list[str] = []
        for role, q in choice.downloads:
            if role == "target":
                req = DownloadRequest(choice.family, choice.spec, "target", choice.quantization)
            else:
                req = DownloadRequest(choice.family, choice.spec, "drafter", choice.quantization, q)
            item_id = self.enqueue(req)
            if item_id is None:
                return
            ids.append(item_id)
        if self._pending is not None:
            self._pending.cancel()  # the newer launch wins
        self._pending = self.ops.spawn(
            self._load_after(choice, ids),
            QCoreApplication.translate("LaunchCoordinator", "The model could not be loaded"),
        )
        self.downloadsQueued.emit()
        self.notice.emit(
            QCoreApplication.translate(
                "LaunchCoordinator", "Downloading; the model loads when the download finishes."
            ),
            8000,
        )

    async def _load_after(self, choice: LaunchChoice, ids: list[str]) -> None:
        futures = [self._done_future(i) for i in ids]
        try:
            results = await asyncio.gather(*futures)
        finally:
            for i in ids:
                self._waiting.pop(i, None)
        if all(results):
            self.start_load(choice)

    def _done_future(self, item_id: str) -> asyncio.Future[bool]:
        future = self._waiting.get(item_id)
        if future is None or future.done():
            future = self.ops.loop.create_future()
            self._waiting[item_id] = future
            state = self.downloads.state(item_id)
            if state in ("finished", "failed", "cancelled"):  # ended before we asked
                future.set_result(state == "finished")
        return future

    def _on_download_completed(self, item_id: str, ok: bool) -> None:
        future = self._waiting.get(item_id)
        if future is not None and not future.done():
            future.set_result(ok)

    @property
    def waiting(self) -> bool:
        """A launch waits for its downloads."""
        return self._pending is not None and not self._pending.done()

    def enqueue(self, request: DownloadRequest) -> str | None:
        try:
            return self.downloads.enqueue(request)
        except Exception as exc:  # an unresolvable spec: say why, never crash
            self.ops.errors.report(
                exc, QCoreApplication.translate("LaunchCoordinator", "The download could not be queued")
            )
            return None

    def start_load(self, choice: LaunchChoice, keep: bool = False) -> None:
        """Load ``choice``; once loaded, the chat answers with its sampling and it is saved as
        the last launch (a load that fails is not reopened at the next start). With ``keep`` the
        model it replaces stays loaded while memory allows, and its answers go on."""
        if self.chat.generating and not keep:
            self.chat.stop()
        self.current = choice
        self.engine.load(make_job(choice, self.cache, **self._loader_kwargs), keep=keep)
        self.loadStarted.emit(choice.remote.label if choice.remote is not None else choice.family.name)

    # --- the chat's "Auto loses here" notice ------------------------------------------
    def switch_auto_off(self) -> bool:
        """Reload the current model with speculation off (the user's answer to the notice)."""
        choice = self.current
        if choice is None or not choice.auto:
            return False
        self.start_load(replace(choice, auto=False, speculation=SpeculationOptions()))
        self.notice.emit(
            QCoreApplication.translate("LaunchCoordinator", "Speculation is off for this model now."), 8000
        )
        return True

    def remeasure(self) -> bool:
        """Forget the current Auto calibration (and its demotions) and reload: the load runs the
        prior at once and Auto measures again in the background."""
        choice = self.current
        info = self.engine.info
        auto_info = info.auto if info is not None else None
        if choice is None or not choice.auto or auto_info is None:
            return False
        if auto_info.plan is not None:
            auto.forget(auto_info.plan.key)
        elif auto_info.stored:
            Path(auto_info.stored).unlink(missing_ok=True)
        self.start_load(choice)
        return True

    def reload_auto(self) -> bool:
        """Reload the current Auto launch: its stored choice changed (a background measurement
        ended, or the running choice lost on real answers). Called between answers."""
        choice = self.current
        if choice is None or not choice.auto or self.chat.generating:
            return False
        self.start_load(choice)
        return True

    # --- start-up -------------------------------------------------------------------------------
    def load_model(self, model: DiskModel) -> bool:
        """Load a model on disk for a conversation that switched to it, with its last launch
        settings; the current model stays loaded while memory allows. False when it cannot be
        loaded (said to the user)."""
        try:
            choice = self.choice_for(model)
        except Exception as exc:
            self.ops.errors.report(
                exc, QCoreApplication.translate("LaunchCoordinator", "The model could not be loaded")
            )
            return False
        self.start_load(choice, keep=True)
        return True

    def job_for(self, label: str) -> LoadJob | None:
        """The load job of the model on disk named ``label`` (for the Local server), or None when
        it is not on disk or cannot be launched."""
        model = next((m for m in self.chat.models.models if m.label == label), None)
        if model is None:
            return None
        try:
            return make_job(self.choice_for(model), self.cache, **self._loader_kwargs)
        except Exception as exc:
            log.warning("%s cannot be loaded for the local server: %s", label, exc)
            return None

    def choice_for(self, model: DiskModel) -> LaunchChoice:
        """A model on disk with its last launch settings (the defaults when it has none, or they
        no longer fit)."""
        preset = self._settings().model_presets.get(model.label)
        if preset is not None:
            try:
                return choice_from_record(preset, self.registry, self.chat.sampling)
            except Exception as exc:  # a spec or a drafter gone since: the defaults
                log.info("the stored settings of %s no longer fit (%s): the defaults", model.label, exc)
        return self.default_choice(
            (model.family.name, model.spec.format, model.spec.size_label, model.quantization)
        )

    def default_choice(self, model: tuple[str, str, str, str] = DEFAULT_MODEL) -> LaunchChoice:
        """A model (the embedded SmolLM2 unless said) on llama.cpp with the default speculation,
        from the family's recommended sampling."""

        settings = self._settings()
        name, fmt, size, quant = model
        family, spec, quant = self.registry.match(name, fmt, size, quant)
        start, _from_card = starting_sampling(settings.sampling, family.sampling)
        # Auto: a fresh install answers its first question with Auto on. The embedded
        # drafter is on disk; Auto drops it when it is the target file itself (it cannot pay).
        draft_quants = spec.draft_quantizations()
        return LaunchChoice(
            family,
            spec,
            quant,
            "llama.cpp",
            SpeculationOptions(draft_quantization=draft_quants[0] if draft_quants else None),
            min(settings.context_length, family.context_length),
            settings.threads,
            to_sampling(start, self.chat.sampling),
            auto=settings.default_speculation == "auto",
            auto_drafter=spec.declares_drafter(),
        )

    def load_default_model(self) -> None:
        """First start: the embedded SmolLM2 on llama.cpp, so the app is ready to chat."""
        try:
            choice = self.default_choice()
        except Exception as exc:
            self.ops.errors.report(
                exc, QCoreApplication.translate("LaunchCoordinator", "The default model is not available")
            )
            return
        self.start_load(choice)

    def load_startup_model(self) -> asyncio.Task[Any]:
        """Reopen the last launch when its files are still on disk, else load the default model
        and say why. The checks run on a worker."""
        return self.ops.spawn(
            self._startup(), QCoreApplication.translate("LaunchCoordinator", "The model could not be loaded")
        )

    async def _startup(self) -> None:
        record = self._settings().last_model
        if record is None:
            self.load_default_model()
            return
        problem = await self.ops.run(self.reopen_problem, record, self.chat.sampling)
        if isinstance(problem, LaunchChoice):
            self.start_load(problem)
            return
        model = f"{record.family} {record.quantization}"
        note = QCoreApplication.translate(
            "LaunchCoordinator", "{model} could not be reopened: {reason}"
        ).format(model=model, reason=problem)
        self.problem.emit(
            UserError(
                QCoreApplication.translate("LaunchCoordinator", "Your last model was not reopened"),
                note,
                QCoreApplication.translate(
                    "LaunchCoordinator",
                    "The default model is loaded instead. Download the model again from the Models page.",
                ),
            )
        )
        self.notice.emit(note, 15000)
        self.load_default_model()

    def reopen_problem(self, record: LastLaunch, sampling: Sampling) -> LaunchChoice | str:
        """The choice to reopen, or why the stored launch cannot be reopened. Blocking (file
        stats, an engine package import): runs on a worker."""
        try:
            family, spec, quant = self.registry.match(
                record.family, record.format, record.size, record.quantization
            )
        except ValueError as exc:
            return str(exc)
        avail = capability.engine_availability(record.engine)
        if not avail.ok:
            return QCoreApplication.translate(
                "LaunchCoordinator", "the {engine} engine is not available ({reason})"
            ).format(engine=record.engine, reason=avail.reason)
        if self.cache.probe(family, spec, "target", quant) != "cached":
            return QCoreApplication.translate("LaunchCoordinator", "its files are no longer on disk")
        method = record.speculation_method
        drafter = method in DRAFTER_METHODS and spec.declares_drafter()
        if drafter and self.cache.probe(family, spec, "drafter", record.draft_quantization) != "cached":
            return QCoreApplication.translate(
                "LaunchCoordinator", "its drafter's files are no longer on disk"
            )
        try:
            choice = choice_from_record(record, self.registry, sampling)
        except ValueError as exc:  # RegistryError, SpeculationError, SamplingError
            return str(exc)
        if (
            choice.auto_drafter
            and self.cache.probe(family, spec, "drafter", record.draft_quantization) != "cached"
        ):
            choice.auto_drafter = False  # Auto measures without a drafter that is gone
        return choice
