"""Downloading one cache entry: fetch what is missing, verify it, link it.

Runs on the caller's thread (a worker, never the UI thread); the transfer itself runs on a
``tandem-download-io-*`` thread so a cancel is seen within :data:`_POLL` seconds. Uses only the
entry store's public API (:class:`app.core.cache.entry.CacheEntry`).
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.core.cache import listing
from app.core.cache.entry import CacheEntry, Manifest, file_size
from app.core.cache.errors import (
    CacheError,
    DiskSpaceError,
    DownloadCancelled,
    SpecResolutionError,
    VerificationError,
)
from app.core.cache.hubs import Backend
from app.core.cache.plan import Plan
from app.core.cache.progress import Meter, ProgressCallback, ProgressEvent, _Cancelled
from app.core.cache.remote_files import RemoteFile
from app.core.cancel import CancelToken
from app.core.units import human_bytes

log = logging.getLogger(__name__)

_POLL = 0.2  # seconds between progress reports / cancel checks on the caller's thread
#: After a cancel, how long the caller waits for the transfer thread to unwind (longer than
#: huggingface_hub's 10 s read timeout, so a stalled read ends inside it).
CANCEL_JOIN_SECONDS = 15.0


def _hash_ok(path: Path, f: RemoteFile) -> str | None:
    """None when the content matches what the hub announced, else a reason."""
    if f.sha256 is None and f.git_sha1 is None:
        return None
    h256 = hashlib.sha256() if f.sha256 else None
    h1 = hashlib.sha1(f"blob {f.size}\0".encode()) if f.git_sha1 and not f.sha256 else None
    with path.open("rb") as fh:
        while chunk := fh.read(4 * 1024 * 1024):
            if h256:
                h256.update(chunk)
            if h1:
                h1.update(chunk)
    if h256 and h256.hexdigest() != f.sha256:
        return f"sha256 mismatch for {f.path}"
    if h1 and h1.hexdigest() != f.git_sha1:
        return f"checksum mismatch for {f.path}"
    return None


@dataclass
class _Job:
    """One entry of a download (the target, or the projector fetched with it) once the hub
    answered: its resolved plan, the commit, the files the hub announces and those to fetch."""

    entry: CacheEntry
    backend: Backend
    plan: Plan
    commit: str
    remote: list[RemoteFile]
    todo: list[RemoteFile]


def download(
    mgr: CacheEntry, progress: ProgressCallback | None = None, cancel: CancelToken | None = None
) -> Path:
    """Fetch what is missing, verify it, link it into the entry; return :meth:`resolve_path`.

    Runs on the caller's thread (a worker; never the UI thread). ``progress`` is called on
    that thread about five times a second and must be cheap. ``cancel`` stops within a second:
    the partial file is deleted or kept as the hub's resumable ``.incomplete``, never marked
    ready, and :class:`DownloadCancelled` is raised. Raises :class:`DiskSpaceError` before
    starting when the hub's sizes do not fit (and on ENOSPC while writing),
    :class:`VerificationError`, :class:`HubError`, :class:`SpecResolutionError`.

    A vision target's projector (``mmproj``) is fetched with it, in the same transfer:
    one byte count, one cancel, one disk-space check. A projector the repository turns out not
    to have is said in a note and skipped (the target still reads text).
    """
    plan = mgr.plan
    report = progress or (lambda ev: None)
    if plan.kind == "local":
        return mgr.resolve_path()
    if cancel is not None and cancel.cancelled:
        raise DownloadCancelled(f"{mgr.entry_name}: cancelled")
    companion = mgr.projector()
    entries = [mgr] if companion is None else [mgr, companion]
    on_disk = {id(e): e.local_resolution() for e in entries}
    missing = [e for e in entries if on_disk[id(e)] is None]
    if not missing:  # everything is on disk: no network at all (works offline)
        report(ProgressEvent("done", 0, 0, 0.0, 0.0))
        found = on_disk[id(mgr)]
        assert found is not None
        return found
    report(ProgressEvent("checking", 0, 0, 0.0, None))
    jobs: list[_Job] = []
    for entry in missing:
        try:
            jobs.append(_prepare(entry, report))
        except SpecResolutionError as exc:
            if entry is mgr:
                raise
            log.warning("%s: %s", entry.entry_name, exc)  # the target downloads without it
            report(ProgressEvent("checking", 0, 0, 0.0, None, note=f"projector skipped: {exc}"))
    _check_space(mgr, [(j.backend, j.plan, j.todo) for j in jobs])
    for job in jobs:
        old = Manifest.read(job.entry.entry_dir)
        if old is None or not old.complete:  # lets status report partial bytes / totals
            pending = job.entry.new_manifest(
                job.plan, job.commit, [{"path": f.path, "size": f.size, "local": ""} for f in job.remote]
            )
            pending.write(job.entry.entry_dir)
    meter = Meter(sum(f.size for j in jobs for f in j.todo), cancel)
    paths: dict[int, Path] = {}
    for job in jobs:  # each entry is verified and marked complete as soon as its files are in
        fetched = _run_fetch(job.entry, job.backend, job.plan, job.todo, meter, report) if job.todo else {}
        report(meter.snapshot("verifying"))
        paths[id(job.entry)] = _finish(job, fetched, cancel)
    report(ProgressEvent("done", meter.total, meter.total, 0.0, 0.0))
    result = paths.get(id(mgr)) or on_disk[id(mgr)]
    assert result is not None
    return result


def _prepare(mgr: CacheEntry, report: ProgressCallback) -> _Job:
    """Ask the hub what ``mgr`` consists of (the repository's own names) and what is missing."""
    backend = mgr.backend()
    plan = mgr.use_plan(listing.resolve_plan(mgr.plan, backend))  # the repository's own names
    if plan.note:
        log.info("%s: %s", mgr.entry_name, plan.note)
        report(ProgressEvent("checking", 0, 0, 0.0, None, note=plan.note))
    backend.cleanup_orphans(plan.repo_id)
    commit, remote = backend.remote_files(plan)
    todo: list[RemoteFile] = []
    for f in remote:
        p = backend.cached_file(plan.repo_id, plan.revision, f.path)
        if p is None or file_size(p) != f.size:
            todo.append(f)
    return _Job(mgr, backend, plan, commit, remote, todo)


def _finish(job: _Job, fetched: dict[str, Path], cancel: CancelToken | None) -> Path:
    """Verify the job's files (size, and the hub's checksum of what was fetched now, unless the
    backend checked it while fetching), write the complete manifest and the links; return what
    an engine loads."""
    mgr, backend, plan = job.entry, job.backend, job.plan
    files: list[dict[str, Any]] = []
    snapshot_dir = ""
    for f in job.remote:
        local = fetched.get(f.path) or backend.cached_file(plan.repo_id, plan.revision, f.path)
        if local is None or file_size(local) != f.size:
            got = -1 if local is None else file_size(local)
            raise VerificationError(
                f"{plan.repo_id}/{f.path}: expected {f.size} bytes, found {max(got, 0)}; retry the download"
            )
        if f.path in fetched and not backend.checks_content:
            if cancel is not None and cancel.cancelled:
                raise DownloadCancelled(f"{mgr.entry_name}: cancelled")
            bad = _hash_ok(local, f)
            if bad:
                backend.remove(local)
                raise VerificationError(f"{plan.repo_id}: {bad}; the file was removed, retry the download")
        entry: dict[str, Any] = {"path": f.path, "size": f.size, "local": str(local)}
        if f.sha256:
            entry["sha256"] = f.sha256
        files.append(entry)
        if plan.kind == "snapshot" and not snapshot_dir:
            snapshot_dir = str(local)[: -len(f.path)].rstrip("/\\")
    man = mgr.new_manifest(plan, job.commit, files)
    man.snapshot_dir = snapshot_dir
    man.complete = True
    mgr.link(man)
    man.write(mgr.entry_dir)
    return mgr.resolved(man)


def _check_space(mgr: CacheEntry, parts: list[tuple[Backend, Plan, list[RemoteFile]]]) -> None:
    need = sum(
        max(f.size - backend.incomplete_bytes(plan.repo_id, plan.revision, f.path), 0)
        for backend, plan, todo in parts
        for f in todo
    )
    if not need:
        return
    where = parts[0][0].cache_root()
    probe = where
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    free = shutil.disk_usage(probe).free
    if need + mgr.reserve_bytes > free:
        raise DiskSpaceError(
            f"not enough disk space for {mgr.entry_name}: it needs {human_bytes(need)} "
            f"(plus {human_bytes(mgr.reserve_bytes)} kept free) in {where}, "
            f"but only {human_bytes(free)} is free; "
            "free some space or choose a smaller quantization"
        )


def _run_fetch(
    mgr: CacheEntry,
    backend: Backend,
    plan: Plan,
    todo: list[RemoteFile],
    meter: Meter,
    report: ProgressCallback,
) -> dict[str, Path]:
    result: dict[str, Path] = {}
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.update(backend.fetch(plan, todo, meter))
        except BaseException as exc:
            failure.append(exc)

    # daemon only as a last resort: a cancelled transfer is joined below (the library unwinds
    # on its next chunk, deleting its temp file); one stuck in a read that outlives
    # CANCEL_JOIN_SECONDS must not hold up app exit.
    io = threading.Thread(target=run, name=f"tandem-download-io-{mgr.entry_name}", daemon=True)
    io.start()
    while io.is_alive():
        io.join(_POLL)
        if meter.cancelled:
            _join_cancelled(mgr, io, meter, report)
            raise DownloadCancelled(f"{mgr.entry_name}: download cancelled")
        report(meter.snapshot())
    if failure and isinstance(failure[0], _Cancelled):
        raise DownloadCancelled(f"{mgr.entry_name}: download cancelled")
    report(meter.snapshot())
    if failure:
        exc = failure[0]
        if isinstance(exc, CacheError):
            raise exc
        raise CacheError(f"{mgr.entry_name}: {type(exc).__name__}: {exc}")
    return result


def _join_cancelled(mgr: CacheEntry, io: threading.Thread, meter: Meter, report: ProgressCallback) -> None:
    """Wait (bounded) for a cancelled transfer's thread, so no I/O thread outlives the cancel.

    The libraries check the cancel flag once per chunk (256 KB for Hugging Face, whatever
    arrived for ModelScope), so this usually takes well under a second; a read stalled by the
    network ends at the library's own read timeout, within :data:`CANCEL_JOIN_SECONDS`.
    """
    deadline = time.monotonic() + CANCEL_JOIN_SECONDS
    while io.is_alive() and time.monotonic() < deadline:
        report(meter.snapshot("cancelling"))
        io.join(_POLL)
    if io.is_alive():
        log.warning(
            "the transfer of %s is still blocked %.0f s after cancel; leaving it to time out",
            mgr.entry_name,
            CANCEL_JOIN_SECONDS,
        )
