"""The model files' flows of the Models page: delete a downloaded model, and refresh a variant's
quantizations from its repositories' listings.

Each flow is one coroutine on the qasync loop (:mod:`app.gui.ops`): the disk and network work
runs on a worker, the confirmation is the delete dialog, and the outcome is said on the page
and in the status bar. The window only connects the page's requests to these methods.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QWidget

from app.core.catalog import listed
from app.core.registry import AnySpec, Family, Registry
from app.core.units import human_bytes
from app.gui.cache_bridge import CacheBridge
from app.gui.controllers.downloads import DownloadService
from app.gui.engine import EngineHost
from app.gui.models.family_model import FamilyModel
from app.gui.ops import Ops
from app.gui.views.browser import BrowserPage
from app.gui.views.delete_dialog import DeleteDialog


class ModelFilesController(QObject):
    """Signals: ``deleteDialogOpened(DeleteDialog)``, ``deleteFinished(bool free_disk, int
    bytes_freed)``, ``refreshFinished(list reports)``."""

    deleteDialogOpened = Signal(object)
    deleteFinished = Signal(bool, object)  # object: byte counts pass 2**31
    refreshFinished = Signal(object)  # the listing reports of a "Refresh from hub"

    def __init__(
        self,
        ops: Ops,
        registry: Registry,
        cache: CacheBridge,
        engine: EngineHost,
        downloads: DownloadService,
        family_model: FamilyModel,
        browser: BrowserPage,
        unload: Callable[[], None],
        status: Callable[[str, int], None],
        window: QWidget,
    ) -> None:
        """``unload()`` unloads the model (its files are open while it is loaded); ``status(text,
        ms)`` shows a line in the status bar; ``window`` parents the delete dialog."""
        super().__init__(window)
        self.ops = ops
        self.registry = registry
        self.cache = cache
        self.engine = engine
        self.downloads = downloads
        self.family_model = family_model
        self.browser = browser
        self._unload = unload
        self._status = status
        self._window = window

    def refresh(self, family: Family, spec: AnySpec) -> None:
        """Read the quantizations ``spec``'s repositories hold now (``refreshFinished`` follows)."""
        self.ops.spawn(self._refresh_flow(family, spec), self.tr("The repository could not be listed"))

    async def _refresh_flow(self, family: Family, spec: AnySpec) -> None:
        """List the spec's repositories on a worker, add what they hold to the registry (kept in
        the listing cache, so it survives a restart) and say what changed."""
        hub = self.cache.hub_for(spec)
        self.browser.notice.show_message(self.tr("Listing the repository…"), "info")
        try:
            reports = await self.ops.run(
                functools.partial(
                    listed.refresh,
                    self.registry,
                    family.name,
                    size=spec.size_label,
                    hub=hub,
                    endpoint=self.cache.endpoint_for(hub),
                )
            )
        except BaseException:
            self.browser.notice.clear_message()  # the error banner says what happened
            raise
        self.family_model.set_registry(self.registry)
        self.browser.select_family(family.name)
        self.ops.changed.emit()  # markers of the added quantizations are probed off the GUI thread
        lines = [self._refresh_text(spec_after, report) for spec_after, report in reports]
        self.browser.notice.show_message("\n".join(lines), "info")
        self.refreshFinished.emit(reports)

    def _refresh_text(self, spec: AnySpec, report: listed.Refresh) -> str:
        text = self.tr("{repo} holds {n} quantizations.").format(repo=report.repo, n=len(report.listed))
        if report.added:
            text += " " + self.tr("Added: {quants}.").format(quants=", ".join(report.added))
        if report.missing:
            text += " " + self.tr("Not in the repository: {quants}.").format(quants=", ".join(report.missing))
        if report.draft_repo:
            held = ", ".join(report.draft_listed) or self.tr("none")
            text += " " + self.tr("Drafter quantizations: {quants}.").format(quants=held)
            if report.draft_added:
                text += " " + self.tr("Added: {quants}.").format(quants=", ".join(report.draft_added))
        return text

    def delete(self, family: Family, spec: AnySpec, quant: str) -> None:
        """Confirm, then delete ``quant``'s entry (``deleteDialogOpened``, ``deleteFinished``)."""
        self.ops.spawn(self._delete_flow(family, spec, quant), self.tr("The files could not be deleted"))

    async def _delete_flow(self, family: Family, spec: AnySpec, quant: str) -> None:
        """Probe, confirm, then delete on a worker: Tandem's entries only unless the user asks to
        free disk space too (the hub files other tools may share); the result is reported with
        the bytes freed. ``deleteDialogOpened`` carries the dialog."""
        manager = self.cache.manager(family, spec, "target", quant)
        status = await self.ops.run(manager.status)  # file stats, a snapshot walk for MLX
        companions = await self.ops.run(manager.companion_bytes)  # its drafters and projector
        loaded = self._is_loaded(family, spec, quant)
        dlg = DeleteDialog(
            family.name,
            quant,
            str(manager.hub),
            size=status.bytes_total + companions,
            has_entry=status.source != "hub-cache",
            parent=self._window,
            loaded=loaded,
        )
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        # the answer carries "free disk" too: the dialog deletes itself once closed
        answer: asyncio.Future[bool | None] = self.ops.loop.create_future()

        def answered(free_disk: bool | None) -> None:
            if not answer.done():
                answer.set_result(free_disk)

        dlg.accepted.connect(lambda: answered(dlg.free_disk))
        dlg.rejected.connect(lambda: answered(None))
        dlg.open()
        self.deleteDialogOpened.emit(dlg)
        free_disk = await answer
        if free_disk is None:
            return
        if self._is_loaded(family, spec, quant):
            # its files are open in the engine (Windows refuses to delete an open file; elsewhere
            # the chat would go on with a model that is no longer on disk): unload it first
            unloaded: asyncio.Future[None] = self.ops.loop.create_future()

            def done() -> None:
                if not unloaded.done():
                    unloaded.set_result(None)

            self.engine.unloaded.connect(done)
            try:
                self._unload()
                await unloaded
            finally:
                self.engine.unloaded.disconnect(done)
        freed = await self.ops.run(manager.delete, free_disk)
        self.downloads.forget_finished_of(family.name, spec, quant)
        self.ops.changed.emit()  # the markers follow, probed off the GUI thread
        self._on_deleted(family.name, quant, free_disk, int(freed))

    def _is_loaded(self, family: Family, spec: AnySpec, quant: str) -> bool:
        """``family``'s ``spec`` at ``quant`` is the model loaded now (its files are open)."""
        info = self.engine.info if self.engine.is_loaded else None
        launch = info.launch if info is not None else None
        if launch is None:
            return False
        try:
            _fam, loaded_spec, _q = self.registry.match(launch.family, launch.format, launch.size)
        except ValueError:
            return False
        return launch.family == family.name and loaded_spec == spec and launch.quantization == quant

    def _on_deleted(self, name: str, quant: str, free_disk: bool, freed: int) -> None:
        model = f"{name} {quant}"
        if not free_disk and freed:  # only an unfinished download's partial file went
            text = self.tr("Removed {model} from Tandem with its unfinished download ({size}).").format(
                model=model, size=human_bytes(freed)
            )
        elif not free_disk:
            text = self.tr("Removed {model} from Tandem; its files stay in the hub cache.")
            text = text.format(model=model)
        elif freed:
            text = self.tr("Deleted {model}: {size} of disk space freed.").format(
                model=model, size=human_bytes(freed)
            )
        else:
            text = self.tr(
                "Removed {model} from Tandem; no disk space was freed (its files are still used by other "
                "Tandem models, or were already gone)."
            ).format(model=model)
        self.browser.notice.show_message(text, "info")
        self._status(text, 10000)
        self.deleteFinished.emit(free_disk, freed)
