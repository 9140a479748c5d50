"""Qt side of the persistent download queue (``app.core.cache.queue.DownloadQueue``).

The core queue runs downloads on its own ``tandem-download-<n>`` threads and calls observers on
them. :class:`DownloadService` forwards each change through a queued signal to the GUI thread,
where state changes update the model at once and byte counts are left to the model's throttled
refresh. The queue persists itself, so the panel shows the same items after a restart. The model's
rows are the queue's own items: there is one download item type.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from app.core.cache.queue import DownloadItem, DownloadQueue
from app.core.registry import AnySpec, Family, Registry
from app.gui.cache_bridge import CacheBridge, Role
from app.gui.errors import UserError, hint_for_name
from app.gui.models.downloads_model import DownloadsModel

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DownloadRequest:
    family: Family
    spec: AnySpec
    role: Role
    quantization: str
    draft_quantization: str | None = None


class DownloadService(QObject):
    """Signals: ``completed(str id, bool ok)``, ``failed(str id, str error)``."""

    completed = Signal(str, bool)
    failed = Signal(str, str)
    _changed = Signal(object)

    def __init__(
        self,
        registry: Registry,
        cache: CacheBridge,
        model: DownloadsModel,
        parent: QObject | None = None,
        store: Path | None = None,
    ) -> None:
        super().__init__(parent)
        self.cache = cache
        self.model = model
        # asked for every job: a hub endpoint changed in Settings applies to the next download
        self.queue = DownloadQueue(registry, store, endpoints=cache.endpoint_for)
        self._states: dict[str, str] = {}
        for item in self.queue.items():
            self._states[item.id] = item.state
            model.upsert(item)
        self._changed.connect(self._on_changed)
        self._unsubscribe = self.queue.subscribe(self._changed.emit)
        self.queue.start()

    def enqueue(self, request: DownloadRequest) -> str:
        """Queue (or find the identical queued/active) download; raises for an unresolvable spec."""
        spec = request.spec
        item = self.queue.add(
            request.family.name,
            spec.format,
            spec.size_label,
            request.quantization,
            drafter=request.role == "drafter",
            draft_quantization=request.draft_quantization if request.role == "drafter" else None,
            hub=self.cache.hub_for(spec),
        )
        return item.id

    def cancel(self, item_id: str) -> None:
        self.queue.cancel(item_id)

    def failure(self, item_id: str, message: str, title: str) -> UserError:
        """What the banner says about a failed download: its message and the next step that fits
        its cause (the error table in :mod:`app.gui.errors`), not one hint for every failure."""
        try:
            item = self.queue.get(item_id)
        except KeyError:
            return UserError(title, message, hint_for_name(""))
        return UserError(title, message or item.error, hint_for_name(item.error_type, item.error_code))

    def state(self, item_id: str) -> str:
        """The core state of ``item_id`` (``finished``, ``failed``, ...), '' when unknown."""
        try:
            return self.queue.get(item_id).state
        except KeyError:
            return ""

    def retry(self, item_id: str) -> None:
        self.queue.retry(item_id)

    def forget_finished_of(self, family: str, spec: AnySpec, quantization: str) -> None:
        """The model's files were deleted: its finished rows (and its drafters') leave the list."""
        for item_id in self.queue.forget_finished_of(family, spec.format, spec.size_label, quantization):
            self.model.remove(item_id)
            self._states.pop(item_id, None)

    def folder(self, item_id: str) -> str:
        row = self.model.row_of(item_id)
        return self.model.item(row).folder if row >= 0 else ""

    def shutdown(self) -> None:
        self._unsubscribe()
        self.queue.shutdown()

    def _on_changed(self, item: DownloadItem) -> None:
        previous = self._states.get(item.id)
        self._states[item.id] = item.state
        if previous == item.state and item.state == "active":
            self.model.progress(item)
            return
        self.model.upsert(item)
        if item.state != previous:
            if item.state == "finished":
                self.completed.emit(item.id, True)
            elif item.state in ("failed", "cancelled"):
                if item.state == "failed":
                    self.failed.emit(item.id, item.error)
                self.completed.emit(item.id, False)
