"""A persistent download queue with observers (no Qt: the GUI wraps it in an item model).

Items live in ``paths.data_dir()/downloads.json``, rewritten atomically on every state change,
so the queue survives an app restart: items that were active when the app stopped (or was
killed) come back as ``queued`` and start again when the queue starts (huggingface_hub and
modelscope skip files already complete in their caches; modelscope also resumes a partial file).

Threading: downloads run on worker threads named ``tandem-download-<n>``. Observers are called
on those threads (and on the caller's thread for add/cancel/remove), with a copy of the item;
they must be cheap and thread-safe (the GUI posts them to the UI thread). Progress reaches
observers about five times a second per active download.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from app.core import paths
from app.core.cache.errors import CacheError, DownloadCancelled
from app.core.cache.manager import CacheManager
from app.core.cache.progress import ProgressEvent
from app.core.cancel import CancelToken
from app.core.registry import Registry, RegistryError

log = logging.getLogger(__name__)

ItemState = Literal["queued", "active", "finished", "failed", "cancelled"]
STORE_VERSION = 1
ERROR_CHARS = 160


@dataclass(frozen=True)
class DownloadItem:
    """One requested download (a target quantization, or the drafter paired with it).

    The one item type of a download: the queue persists it, the CLI prints it and the
    GUI's table model wraps it (qutebrowser's download model pattern); progress lives on it.
    ``size`` is the spec's size label (what the CLI's ``--size`` takes, e.g. ``E2B`` or ``0.135``);
    ``size_text`` is the size as the model browser writes it (``135M``), for the item's name.
    """

    id: str
    family: str
    format: str
    size: str
    quantization: str
    role: str = "target"
    draft_quantization: str | None = None
    hub: str | None = None
    state: ItemState = "queued"
    phase: str = ""
    bytes_done: int = 0
    bytes_total: int = 0
    rate: float = 0.0
    eta: float | None = None
    error: str = ""
    #: the failure's class name and code (``CacheError.code`` or the errno name), so the GUI can
    #: name the right next step after a restart too
    error_type: str = ""
    error_code: str = ""
    path: str = ""
    #: the repository named the file differently from the registry ("... using Y")
    note: str = ""
    #: the size as people write it (the spec's ``size_text``); '' in items stored before it existed
    size_text: str = ""
    created: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)

    @property
    def label(self) -> str:
        return download_label(
            self.family,
            self.format,
            self.size_text or self.size,
            self.quantization,
            self.role,
            self.draft_quantization,
        )

    @property
    def fraction(self) -> float | None:
        """How far it got: 1.0 when finished, else bytes done / total, None while nothing is known."""
        if self.state == "finished":
            return 1.0
        return min(self.bytes_done / self.bytes_total, 1.0) if self.bytes_total else None

    @property
    def busy(self) -> bool:
        """Running with no byte count yet (asking the hub): the only case for a busy bar."""
        return self.state == "active" and self.fraction is None

    @property
    def error_line(self) -> str:
        """The error's first line, short enough for a table row (the tooltip has all of it)."""
        line = self.error.strip().splitlines()[0] if self.error.strip() else ""
        return line if len(line) <= ERROR_CHARS else line[: ERROR_CHARS - 1] + "…"

    @property
    def folder(self) -> str:
        """The folder holding the downloaded file ('' until finished)."""
        return str(Path(self.path).parent) if self.path else ""


def download_label(
    family: str, fmt: str, size: str, quantization: str, role: str, draft_quantization: str | None
) -> str:
    """The one name of a download, in logs and on the Downloads page: ``gemma-4 GGUF E2B Q4_K_M``,
    ``smollm2 GGUF 135M F32`` (``size`` as the model browser writes it, the spec's ``size_text``)."""
    base = f"{family} {fmt.upper()} {size} {quantization}"
    if role == "drafter":
        return f"{base} · drafter {draft_quantization or ''}".rstrip()
    return base


Observer = Callable[[DownloadItem], None]


def default_store() -> Path:
    return paths.data_dir() / "downloads.json"


class DownloadQueue:
    """``DownloadQueue(registry).start()``; ``add(...)``; ``subscribe(cb)``; ``shutdown()``.

    ``workers`` downloads run at once (default 1: one big download at full speed beats two at
    half, and progress is easier to read). ``endpoints`` maps a hub to a mirror endpoint, or is a
    function of the hub asked again for every job, so a changed setting reaches the next download
    without a restart (the hub token is likewise read from the keyring for every job).
    """

    def __init__(
        self,
        registry: Registry,
        store: Path | None = None,
        *,
        workers: int = 1,
        endpoints: dict[str, str] | Callable[[str], str | None] | None = None,
    ) -> None:
        self._registry = registry
        self._store = store or default_store()
        self._workers_n = max(1, workers)
        if callable(endpoints):
            self._endpoint_for: Callable[[str], str | None] = endpoints
        else:
            fixed = dict(endpoints or {})
            self._endpoint_for = lambda hub: fixed.get(hub) or None
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._items: dict[str, DownloadItem] = {}
        self._tokens: dict[str, CancelToken] = {}
        self._observers: list[Observer] = []
        self._threads: list[threading.Thread] = []
        self._stopping = False
        self._load()

    # --- persistence -----------------------------------------------------------------------------
    def _load(self) -> None:
        try:
            data = json.loads(self._store.read_text("utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            log.warning("ignoring unreadable download queue %s: %s", self._store, exc)
            return
        if not isinstance(data, dict) or data.get("version") != STORE_VERSION:
            return
        for raw in data.get("items", []):
            try:
                item = DownloadItem(**raw)
            except TypeError:
                continue
            if item.state == "active":  # interrupted by a restart or a crash: do it again
                item = replace(item, state="queued", rate=0.0, eta=None, phase="")
            try:  # items queued by number before sizes were normalized: name them by label
                _fam, spec, _q = self._registry.match(item.family, item.format, item.size, item.quantization)
                item = replace(item, size=spec.size_label, size_text=spec.size_text)
            except ValueError:  # unregistered since: keep what the item says
                pass
            self._items[item.id] = item

    def _save_locked(self) -> None:
        self._store.parent.mkdir(parents=True, exist_ok=True)
        tmp = self._store.with_suffix(".json.tmp")
        payload = {"version": STORE_VERSION, "items": [asdict(i) for i in self._items.values()]}
        tmp.write_text(json.dumps(payload, indent=1), "utf-8")
        os.replace(tmp, self._store)

    # --- observers -------------------------------------------------------------------------------
    def subscribe(self, observer: Observer) -> Callable[[], None]:
        """Call ``observer(item)`` on every change; returns a function that unsubscribes."""
        with self._lock:
            self._observers.append(observer)

        def unsubscribe() -> None:
            with self._lock:
                if observer in self._observers:
                    self._observers.remove(observer)

        return unsubscribe

    def _notify(self, item: DownloadItem) -> None:
        with self._lock:
            observers = list(self._observers)
        for ob in observers:
            try:
                ob(item)
            except Exception:
                log.exception("download observer failed")

    def _update(self, item_id: str, *, persist: bool = True, **changes: Any) -> DownloadItem | None:
        with self._lock:
            old = self._items.get(item_id)
            if old is None:
                return None
            item = replace(old, updated=time.time(), **changes)
            self._items[item_id] = item
            if persist:
                self._save_locked()
        self._notify(item)
        return item

    # --- API -------------------------------------------------------------------------------------
    def items(self) -> list[DownloadItem]:
        with self._lock:
            return list(self._items.values())

    def get(self, item_id: str) -> DownloadItem:
        with self._lock:
            return self._items[item_id]

    def add(
        self,
        family: str,
        fmt: str,
        size: str,
        quantization: str,
        *,
        drafter: bool = False,
        draft_quantization: str | None = None,
        hub: str | None = None,
    ) -> DownloadItem:
        """Queue a download; validated now (unknown model, bad spec) so errors reach the user at once.

        An identical request already queued or active is returned instead of queued twice.
        """
        role = "drafter" if drafter else "target"
        mgr = self._manager_for(family, fmt, size, quantization, role, draft_quantization, hub)
        mgr.plan  # noqa: B018 - raises SpecResolutionError for a spec that cannot be resolved
        size = mgr.spec.size_label  # one name whether it was asked for as "E2B" or "2"
        if drafter and draft_quantization is None:
            draft_quantization = mgr.draft_quantization or _plan_draft_quant(mgr)
        item = DownloadItem(
            id=uuid.uuid4().hex[:12],
            family=family,
            format=fmt,
            size=size,
            quantization=quantization,
            role=role,
            draft_quantization=draft_quantization,
            hub=mgr.plan.hub,
            size_text=mgr.spec.size_text,
        )
        with self._lock:
            for other in self._items.values():
                same = (other.family, other.format, other.size, other.quantization, other.role)
                if (
                    same == (family, fmt, size, quantization, role)
                    and other.draft_quantization == draft_quantization
                    and other.hub == item.hub
                    and other.state in ("queued", "active")
                ):
                    return other
            self._items[item.id] = item
            self._save_locked()
            self._wake.notify_all()
        self._notify(item)
        return item

    def cancel(self, item_id: str) -> None:
        """Cancel a queued or active download (an active one stops within a second)."""
        # Check and set in one locked section: a worker takes an item (queued -> active, with a
        # token) under the same lock, so the item is either still queued here (and cancelled
        # before any worker sees it) or already has a token to cancel.
        with self._lock:
            item = self._items.get(item_id)
            if item is None:
                return
            token = self._tokens.get(item_id)
            changed: DownloadItem | None = None
            if token is None and item.state == "queued":
                changed = replace(item, state="cancelled", rate=0.0, eta=None, updated=time.time())
                self._items[item_id] = changed
                self._save_locked()
                self._wake.notify_all()
        if token is not None:
            token.cancel()  # the worker marks it cancelled when the download unwinds
        if changed is not None:
            self._notify(changed)

    def retry(self, item_id: str) -> None:
        """Queue a failed or cancelled item again."""
        with self._lock:
            item = self._items.get(item_id)
            if item is None or item.state not in ("failed", "cancelled"):
                return
            item = replace(
                item,
                state="queued",
                error="",
                error_type="",
                error_code="",
                rate=0.0,
                eta=None,
                updated=time.time(),
            )
            self._items[item_id] = item
            self._save_locked()
            self._wake.notify_all()
        self._notify(item)

    def remove(self, item_id: str) -> None:
        """Forget an item (cancelling it first when it runs)."""
        self.cancel(item_id)
        with self._lock:
            self._items.pop(item_id, None)
            self._save_locked()

    def forget_finished_of(self, family: str, fmt: str, size: str, quantization: str) -> list[str]:
        """Forget the finished downloads of a target quantization and of its drafters (their files
        were deleted: a "Finished" row would point at a folder that is gone). ``size`` is the
        spec's size label. Returns the ids forgotten; failed and cancelled ones stay (retryable)."""
        with self._lock:
            gone = [
                k
                for k, v in self._items.items()
                if v.state == "finished"
                and (v.family, v.format, v.size, v.quantization) == (family, fmt, size, quantization)
            ]
            for k in gone:
                del self._items[k]
            if gone:
                self._save_locked()
        return gone

    # --- workers ---------------------------------------------------------------------------------
    def start(self) -> None:
        with self._lock:
            self._threads = [t for t in self._threads if t.is_alive()]
            if self._threads:
                return
            self._stopping = False
            for n in range(self._workers_n):
                t = threading.Thread(target=self._work, name=f"tandem-download-{n}")
                self._threads.append(t)
                t.start()

    def shutdown(self, timeout: float = 10.0) -> None:
        """Stop the workers. Active downloads are interrupted and stay queued for next start."""
        with self._lock:
            self._stopping = True
            tokens = list(self._tokens.values())
            self._wake.notify_all()
            threads = list(self._threads)
        for tok in tokens:
            tok.cancel()
        for t in threads:
            t.join(timeout)
        with self._lock:
            self._threads = []

    def wait_idle(self, timeout: float) -> bool:
        """Block until nothing is queued or active (for scripts and tests)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while any(i.state in ("queued", "active") for i in self._items.values()):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._wake.wait(min(left, 0.5))
        return True

    def _next_locked(self) -> DownloadItem | None:
        for item in sorted(self._items.values(), key=lambda i: i.created):
            if item.state == "queued":
                return item
        return None

    def _work(self) -> None:
        while True:
            with self._lock:
                item = None
                while not self._stopping:
                    item = self._next_locked()
                    if item is not None:
                        break
                    self._wake.wait()
                if self._stopping or item is None:
                    return
                token = CancelToken()
                self._tokens[item.id] = token
                item = replace(item, state="active", error="", updated=time.time())
                self._items[item.id] = item
                try:
                    self._save_locked()
                except OSError:
                    log.exception("could not save the download queue")
            try:
                self._notify(item)
                self._run_checked(item, token)
            except Exception as exc:  # never let one item stop the queue: log it, mark it, go on
                log.exception("download worker failed on %s", item.label)
                try:
                    self._fail(item.id, exc, f"{type(exc).__name__}: {exc}")
                except Exception:
                    log.exception("could not mark download %s failed", item.label)
            finally:
                with self._lock:
                    self._tokens.pop(item.id, None)
                    self._wake.notify_all()

    def _run_checked(self, item: DownloadItem, token: CancelToken) -> None:
        """Run ``item`` unless it was cancelled (or removed, or the queue stopped) after the
        worker took it: the state is re-checked now that the item has a token."""
        with self._lock:
            current = self._items.get(item.id)
            if current is None or current.state != "active":
                return  # removed, or changed by someone else meanwhile
            if token.cancelled or self._stopping:
                # interrupted by shutdown: keep it queued so it resumes after a restart
                state: ItemState = "queued" if self._stopping else "cancelled"
                current = replace(current, state=state, rate=0.0, eta=None, phase="", updated=time.time())
                self._items[item.id] = current
                self._save_locked()
            else:
                current = None
        if current is not None:
            self._notify(current)
            return
        self._run(item, token)

    def _run(self, item: DownloadItem, token: CancelToken) -> None:
        def progress(ev: ProgressEvent) -> None:
            if ev.note:
                self._update(item.id, note=ev.note)
            self._update(
                item.id,
                persist=False,
                phase=ev.phase,
                bytes_done=ev.bytes_done,
                bytes_total=ev.bytes_total,
                rate=ev.rate,
                eta=ev.eta,
            )

        try:
            mgr = self._manager_for(
                item.family,
                item.format,
                item.size,
                item.quantization,
                item.role,
                item.draft_quantization,
                item.hub,
            )
            path = mgr.download(progress=progress, cancel=token)
        except DownloadCancelled:
            with self._lock:
                stopping = self._stopping
            # interrupted by shutdown: keep it queued so it resumes after a restart
            state: ItemState = "queued" if stopping else "cancelled"
            self._update(item.id, state=state, rate=0.0, eta=None, phase="")
        except (CacheError, RegistryError, ValueError, OSError) as exc:
            self._fail(item.id, exc, str(exc))
        except Exception as exc:  # unexpected: keep the worker alive, show the details
            log.exception("download %s failed", item.label)
            self._fail(item.id, exc, f"{type(exc).__name__}: {exc}")
        else:
            self._update(item.id, state="finished", path=str(path), rate=0.0, eta=0.0, phase="done")

    def _fail(self, item_id: str, exc: BaseException, message: str) -> None:
        self._update(
            item_id,
            state="failed",
            error=message,
            error_type=type(exc).__name__,
            error_code=_error_code(exc),
            rate=0.0,
            eta=None,
        )

    def _manager_for(
        self,
        family: str,
        fmt: str,
        size: str,
        quantization: str,
        role: str,
        draft_quantization: str | None,
        hub: str | None,
    ) -> CacheManager:
        fam, spec, q = self._registry.match(family, fmt, size, quantization)
        return CacheManager(
            fam,
            spec,
            "drafter" if role == "drafter" else "target",
            q,
            hub,
            draft_quantization=draft_quantization,
            endpoint=self._endpoint_for(hub) if hub else None,
        )


def _error_code(exc: BaseException) -> str:
    code = getattr(exc, "code", "")
    if isinstance(code, str) and code:
        return code
    if isinstance(exc, OSError) and exc.errno is not None:
        return errno.errorcode.get(exc.errno, "")
    return ""


def _plan_draft_quant(mgr: CacheManager) -> str | None:
    hub = mgr.plan.hub
    dqs = mgr.spec.draft_quantizations(hub)
    return dqs[0] if dqs else None
