"""Hugging Face downloads that resume from their partial bytes, in the hub's own cache layout.

huggingface_hub 2.4 writes every attempt to a file with a random name and deletes it when the
attempt fails, so a cancelled or interrupted file starts again from zero. Here the partial file
has a stable name, ``blobs/<etag>.incomplete`` (the name older huggingface_hub releases used), and
is continued with an HTTP ``Range`` request: on Retry, and by a later process after a restart.
The finished file is checked against the size and checksum the hub announces before it becomes
``blobs/<etag>`` with the usual ``snapshots/<commit>/<path>`` link, so other tools see a normal
cache. A partial file whose content turns out wrong is discarded and fetched once more from zero.

A small record per partial file (under Tandem's own cache directory, not the hub's) maps a
repository path to its partial blob, so the offline status can count partial bytes without
asking the hub.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import shutil
from pathlib import Path

from app.core import paths
from app.core.cache.errors import HubError, VerificationError
from app.core.cache.progress import Meter
from app.core.cache.remote_files import RemoteFile

log = logging.getLogger(__name__)

_CHUNK = 256 * 1024  # a cancel is seen once per chunk
_ATTEMPTS = 5  # transfers per file when the connection breaks mid-body (each resumes)
_TIMEOUT = 10.0  # seconds without a byte before a read gives up (then resumes)


class TransferBroke(Exception):
    """The connection ended before the file was complete (the partial bytes are kept)."""


def repo_folder(repo_id: str) -> str:
    return "models--" + repo_id.replace("/", "--")


def _record_file(repo_id: str, revision: str, path: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", f"{revision}@{path}")
    return paths.cache_dir() / "partial" / "huggingface" / repo_folder(repo_id) / f"{safe}.json"


def partial_file(cache_root: Path, repo_id: str, revision: str, path: str) -> Path | None:
    """The partial blob of ``path`` (None when there is none on disk)."""
    rec = _record_file(repo_id, revision, path)
    try:
        blob = json.loads(rec.read_text())["blob"]
        found = cache_root / repo_folder(repo_id) / "blobs" / f"{blob}.incomplete"
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return found if found.is_file() else None


def partial_bytes(cache_root: Path, repo_id: str, revision: str, path: str) -> int:
    """Bytes of ``path`` already on disk in a partial blob (0 when there is none)."""
    found = partial_file(cache_root, repo_id, revision, path)
    try:
        return found.stat().st_size if found is not None else 0
    except OSError:
        return 0


def forget_partial(cache_root: Path, repo_id: str, revision: str, path: str) -> int:
    """Delete the partial blob of ``path`` and its record; return the bytes freed.

    A partial blob another download is writing right now (its lock is held) is left alone."""
    from filelock import FileLock, Timeout

    found = partial_file(cache_root, repo_id, revision, path)
    rec = _record_file(repo_id, revision, path)
    if found is None:
        rec.unlink(missing_ok=True)
        return 0
    etag = found.name.removesuffix(".incomplete")
    lock = FileLock(str(cache_root / ".locks" / repo_folder(repo_id) / f"{etag}.lock"))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        return 0
    except OSError:
        pass  # no lock file could be made: nobody holds it either
    else:
        lock.release()
    try:
        size = found.stat().st_size
        found.unlink()
    except OSError as exc:
        log.warning("could not remove %s: %s", found, exc)
        return 0
    rec.unlink(missing_ok=True)
    return size


def _hash_mismatch(path: Path, f: RemoteFile, etag: str) -> str | None:
    sha256 = f.sha256 or (etag if len(etag) == 64 else None)
    sha1 = f.git_sha1 or (etag if len(etag) == 40 else None)
    if sha256:
        h = hashlib.sha256()
    elif sha1:
        h = hashlib.sha1(f"blob {path.stat().st_size}\0".encode())
    else:
        return None
    with path.open("rb") as fh:
        while chunk := fh.read(4 * 1024 * 1024):
            h.update(chunk)
    want = sha256 or sha1
    return None if h.hexdigest() == want else f"checksum mismatch for {f.path}"


def _link(repo: Path, commit: str, revision: str, path: str, blob: Path) -> Path:
    pointer = repo / "snapshots" / commit / path
    pointer.parent.mkdir(parents=True, exist_ok=True)
    if revision != commit:
        ref = repo / "refs" / revision
        ref.parent.mkdir(parents=True, exist_ok=True)
        ref.write_text(commit)
    if pointer.is_symlink() or pointer.exists():
        pointer.unlink()
    try:
        pointer.symlink_to(os.path.relpath(blob, pointer.parent))
    except OSError:  # no symlinks (some Windows setups): a copy, as huggingface_hub does then
        shutil.copyfile(blob, pointer)
    return pointer


def _transfer(url: str, headers: dict[str, str], part: Path, size: int, meter: Meter, name: str) -> None:
    """Append the missing bytes of ``part`` from ``url``; raise :class:`TransferBroke` when cut."""
    import httpx

    have = part.stat().st_size if part.exists() else 0
    req = dict(headers)
    if have:
        req["Range"] = f"bytes={have}-"
    timeout = httpx.Timeout(_TIMEOUT, connect=_TIMEOUT)
    try:
        with httpx.stream("GET", url, headers=req, follow_redirects=True, timeout=timeout) as resp:
            if resp.status_code == 416:  # the partial is not a prefix of this file any more
                part.unlink(missing_ok=True)
                raise TransferBroke("the hub refused the byte range; starting the file again")
            resp.raise_for_status()
            mode = "ab"
            if have and resp.status_code != 206:  # the server ignored the range: whole file
                log.info("%s: the hub sent the whole file instead of a range; starting again", name)
                mode = "wb"
            with part.open(mode) as out:
                for chunk in resp.iter_bytes(_CHUNK):
                    out.write(chunk)
                    meter.add(len(chunk), name)
    except (httpx.TransportError, httpx.StreamError) as exc:
        raise TransferBroke(f"{type(exc).__name__}: {exc}") from exc
    got = part.stat().st_size if part.exists() else 0
    if got < size:
        raise TransferBroke(f"the connection ended at {got} of {size} bytes")


def fetch_file(
    endpoint: str,
    token: str | None,
    cache_root: Path,
    repo_id: str,
    revision: str,
    f: RemoteFile,
    meter: Meter,
) -> Path:
    """Fetch one repository file into the hub cache, resuming a partial blob; return its path."""
    from filelock import FileLock
    from huggingface_hub import get_hf_file_metadata, hf_hub_url
    from huggingface_hub.utils._headers import build_hf_headers

    url = hf_hub_url(repo_id, f.path, revision=revision, endpoint=endpoint)
    meta = get_hf_file_metadata(url, token=token or None)
    etag = (meta.etag or "").strip('"').lower()
    commit = meta.commit_hash or revision
    size = int(meta.size if meta.size is not None else f.size)
    if not re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", etag):
        raise VerificationError(f"{repo_id}/{f.path}: the hub gave no checksum for the file")
    repo = cache_root / repo_folder(repo_id)
    blob = repo / "blobs" / etag
    part = blob.with_name(f"{etag}.incomplete")
    blob.parent.mkdir(parents=True, exist_ok=True)
    lock = cache_root / ".locks" / repo.name / f"{etag}.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    rec = _record_file(repo_id, revision, f.path)
    with FileLock(str(lock)):
        if blob.is_file() and blob.stat().st_size == size:
            return _link(repo, commit, revision, f.path, blob)
        rec.parent.mkdir(parents=True, exist_ok=True)
        rec.write_text(json.dumps({"blob": etag, "path": f.path, "size": size}))
        have = part.stat().st_size if part.exists() else 0
        if have > size:
            part.unlink()
            have = 0
        if have:
            log.info("%s: resuming at byte %d of %d", f.path, have, size)
            meter.add(have, f.path)
        # a redirect (the CDN) may carry a signed address: the hub's own answer is followed
        where = meta.location or url
        headers = build_hf_headers(token=token or None)
        for redo in (False, True):
            broke: TransferBroke | None = None
            for _attempt in range(_ATTEMPTS):
                try:
                    if (part.stat().st_size if part.exists() else 0) < size:
                        _transfer(where, headers, part, size, meter, f.path)
                    broke = None
                    break
                except TransferBroke as exc:
                    broke = exc
                    log.warning("%s: %s; resuming from the bytes on disk", f.path, exc)
            if broke is not None:
                raise HubError(
                    f"{repo_id}/{f.path}: the connection kept breaking ({broke}); the bytes so far are "
                    "kept and Retry resumes from them",
                    code="network",
                )
            got = part.stat().st_size
            bad = f"expected {size} bytes, found {got}" if got != size else _hash_mismatch(part, f, etag)
            if bad is None:
                break
            part.unlink(missing_ok=True)
            if redo:
                raise VerificationError(
                    f"{repo_id}/{f.path}: {bad}; the file was removed, retry the download"
                )
            log.warning(
                "%s: %s; the partial file was discarded and is fetched again from the start", f.path, bad
            )
        os.replace(part, blob)
        with contextlib.suppress(OSError):
            rec.unlink()
        return _link(repo, commit, revision, f.path, blob)
