"""Downloads: a queue worked through on one download thread, reported to a DownloadsModel.

Each job runs :meth:`CacheManager.download` with a progress callback (called on the download
thread several times a second: it only forwards numbers through a queued signal) and a cancel
token. Started / progress / finished / failed / cancelled reach the GUI as signals.
"""

from __future__ import annotations

import itertools
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace

from PySide6.QtCore import QObject, Signal

from app.core.cache import CancelToken, DownloadCancelled, ProgressEvent
from app.core.registry import AnySpec, Family
from app.gui.cache_bridge import CacheBridge, Role
from app.gui.models.downloads_model import DownloadItem, DownloadsModel

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DownloadRequest:
    family: Family
    spec: AnySpec
    role: Role
    quantization: str
    draft_quantization: str | None = None

    def label(self) -> str:
        base = f"{self.family.name} {self.spec.format.upper()} {self.spec.size_label} {self.quantization}"
        if self.role == "drafter":
            return f"{base} · drafter {self.draft_quantization or ''}".rstrip()
        return base

    def key(self) -> tuple[str, str, float, str, str, str | None]:
        return (
            self.family.name,
            self.spec.format,
            self.spec.size_in_billions,
            self.role,
            self.quantization,
            self.draft_quantization if self.role == "drafter" else None,
        )


_STOP = object()


class DownloadService(QObject):
    """Signals: ``itemChanged(object DownloadItem)``, ``completed(str id, bool ok)``,
    ``failed(str id, object exc)``."""

    itemChanged = Signal(object)
    completed = Signal(str, bool)
    failed = Signal(str, object)
    _progress = Signal(str, object)

    def __init__(self, cache: CacheBridge, model: DownloadsModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.cache = cache
        self.model = model
        self._ids = itertools.count(1)
        self._requests: dict[str, DownloadRequest] = {}
        self._cancels: dict[str, CancelToken] = {}
        self._jobs: queue.Queue[object] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._progress.connect(self._on_progress)
        self.itemChanged.connect(model.upsert)

    # --- GUI-thread API ----------------------------------------------------------------------
    def enqueue(self, request: DownloadRequest) -> str:
        """Queue ``request`` unless the same one is already queued or running; returns its id."""
        for item_id, req in self._requests.items():
            row = self.model.row_of(item_id)
            if req.key() == request.key() and row >= 0 and self.model.item(row).state in ("queued", "active"):
                return item_id
        item_id = f"dl{next(self._ids)}"
        self._requests[item_id] = request
        self._cancels[item_id] = CancelToken()
        self.itemChanged.emit(DownloadItem(item_id, request.label()))
        self._start_thread()
        self._jobs.put(item_id)
        return item_id

    def cancel(self, item_id: str) -> None:
        token = self._cancels.get(item_id)
        if token is not None:
            token.cancel()
        row = self.model.row_of(item_id)
        if row >= 0 and self.model.item(row).state == "queued":
            self.itemChanged.emit(replace(self.model.item(row), state="cancelled"))

    def retry(self, item_id: str) -> str | None:
        req = self._requests.get(item_id)
        if req is None:
            return None
        self.model.remove(item_id)
        return self.enqueue(req)

    def folder(self, item_id: str) -> str:
        req = self._requests.get(item_id)
        if req is None:
            return ""
        dq = req.draft_quantization if req.role == "drafter" else None
        return str(self.cache.entry_dir(req.family, req.spec, req.role, req.quantization, dq))

    def request(self, item_id: str) -> DownloadRequest | None:
        return self._requests.get(item_id)

    def shutdown(self) -> None:
        for token in self._cancels.values():
            token.cancel()
        thread, self._thread = self._thread, None
        if thread is not None:
            self._jobs.put(_STOP)
            thread.join(30)

    def _start_thread(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="tandem-downloads", daemon=False)
            self._thread.start()

    def _on_progress(self, item_id: str, ev: ProgressEvent) -> None:
        self.model.set_progress(item_id, ev.bytes_done, ev.bytes_total, ev.rate, ev.eta)

    def _reporter(self, item_id: str) -> Callable[[ProgressEvent], None]:
        def report(ev: ProgressEvent) -> None:
            self._progress.emit(item_id, ev)

        return report

    # --- download thread -------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            item_id = self._jobs.get()
            if item_id is _STOP:
                return
            assert isinstance(item_id, str)
            token = self._cancels[item_id]
            req = self._requests[item_id]
            base = DownloadItem(item_id, req.label(), folder="")
            if token.cancelled:
                self.itemChanged.emit(replace(base, state="cancelled"))
                continue
            self.itemChanged.emit(replace(base, state="active"))
            dq = req.draft_quantization if req.role == "drafter" else None
            try:
                manager = self.cache.manager(req.family, req.spec, req.role, req.quantization, dq)
                path = manager.download(self._reporter(item_id), token)
            except DownloadCancelled:
                self.itemChanged.emit(replace(base, state="cancelled"))
                self.completed.emit(item_id, False)
            except Exception as exc:
                log.warning("download %s failed: %s", req.label(), exc)
                self.itemChanged.emit(replace(base, state="failed", error=str(exc)))
                self.failed.emit(item_id, exc)
                self.completed.emit(item_id, False)
            else:
                size = path.stat().st_size if path.is_file() else 0
                self.itemChanged.emit(
                    replace(base, state="done", done=size, total=size, folder=str(path.parent))
                )
                self.completed.emit(item_id, True)
            finally:
                self._cancels[item_id] = CancelToken()  # a retry gets a fresh token
