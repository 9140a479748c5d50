"""Hub backends: the standard Hugging Face cache and ModelScope's cache, through their own libraries.

Each backend answers two kinds of questions:

- offline, cheap (file stats only, safe to run for the whole registry when the browser opens):
  where is a repo file in the hub's cache, how many bytes of an unfinished one are on disk;
- online: what files (size, sha256) the hub announces, and fetching them with byte progress and
  cancel: Hugging Face files through :mod:`app.core.cache.hf_resume` (Range requests that resume
  a partial blob), ModelScope files through its library's ``progress_callbacks``.

Cache locations and endpoints are read from the environment at call time, not at import time
(huggingface_hub freezes ``HF_HUB_CACHE``/``HF_ENDPOINT`` in constants when first imported), so a
setting or a test fixture that changes them later is honoured.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

from app.core.cache import hf_resume
from app.core.cache.errors import DiskSpaceError, HubError, VerificationError
from app.core.cache.plan import Plan
from app.core.cache.progress import Meter, _Cancelled
from app.core.cache.remote_files import RemoteFile, cached_listing

log = logging.getLogger(__name__)

_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_SHA1 = re.compile(r"^[0-9a-f]{40}$")


class Backend(Protocol):
    name: str
    #: ``fetch`` checks every file it returns against the hub's checksum itself, so the caller
    #: does not read the bytes a second time (a 20 GB file took minutes to hash twice)
    checks_content: bool

    def cache_root(self) -> Path: ...
    def cached_file(self, repo_id: str, revision: str, path: str) -> Path | None: ...
    def cached_snapshot(self, repo_id: str, revision: str) -> Path | None: ...
    def incomplete_bytes(self, repo_id: str, revision: str, path: str) -> int: ...
    def incomplete_file(self, repo_id: str, revision: str, path: str) -> Path | None: ...
    def remove_incomplete(self, repo_id: str, revision: str, path: str) -> int: ...
    def remote_files(self, plan: Plan) -> tuple[str, list[RemoteFile]]: ...
    def fetch(self, plan: Plan, files: list[RemoteFile], meter: Meter) -> dict[str, Path]: ...
    def cleanup_orphans(self, repo_id: str | None = None) -> list[Path]: ...
    def owned_paths(self, local: Path) -> list[Path]: ...
    def remove(self, local: Path) -> int: ...


def scrub(text: str, token: str | None) -> str:
    """Remove a token from any text that may reach the user or a log."""
    if token:
        text = text.replace(token, "***")
    return re.sub(r"(?i)(bearer\s+)[A-Za-z0-9._~+/=-]{8,}", r"\1***", text)


def _nospace(exc: BaseException) -> bool:
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        if isinstance(cur, OSError) and cur.errno == errno.ENOSPC:
            return True
        failed = getattr(cur, "failed_files", None)  # modelscope aggregates per-file errors
        if isinstance(failed, dict) and any(
            _nospace(e) for e in failed.values() if isinstance(e, BaseException)
        ):
            return True
        cur = cur.__cause__ or cur.__context__
    return False


def _find_cancel(exc: BaseException) -> bool:
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        if isinstance(cur, _Cancelled):
            return True
        failed = getattr(cur, "failed_files", None)
        if isinstance(failed, dict) and any(isinstance(e, _Cancelled) for e in failed.values()):
            return True
        cur = cur.__cause__ or cur.__context__
    return False


def translate_error(exc: BaseException, what: str, token: str | None, where: Path) -> BaseException:
    """Map a library error to our typed errors with a token-free message."""
    if _find_cancel(exc):
        return _Cancelled()
    if _nospace(exc):
        return DiskSpaceError(
            f"the disk ran out of space while downloading {what} into {where}; free some space and "
            "retry (the download resumes or restarts cleanly; nothing incomplete is marked ready)"
        )
    name = type(exc).__name__
    msg = scrub(str(exc).strip().splitlines()[0] if str(exc).strip() else name, token)
    code = hub_error_code(exc, name, msg)
    hint = {
        "network": (
            "; check the network, or the hub endpoint (HF_ENDPOINT / MODELSCOPE_ENDPOINT, or the settings)"
        ),
        "auth": "; check the repo id, or store a token for this hub if the repo is private or gated",
        "not_found": "; check the repo id and the file names in the model entry",
    }.get(code, "")
    return HubError(f"{what}: {name}: {msg}{hint}", code=code)


# httpx / requests / urllib3 class names of transport failures (the libraries wrap socket errors)
_NETWORK_NAMES = (
    "Connect",
    "Timeout",
    "Network",
    "RemoteProtocol",
    "ProtocolError",
    "Disconnected",
    "ReadError",
    "WriteError",
)
_NOT_FOUND_NAMES = ("RepositoryNotFound", "RevisionNotFound", "EntryNotFound", "NotExist", "NotFound")


def _chain(exc: BaseException) -> list[BaseException]:
    out: list[BaseException] = []
    cur: BaseException | None = exc
    while cur is not None and cur not in out and len(out) < 20:
        out.append(cur)
        cur = cur.__cause__ or cur.__context__
    return out


def hub_error_code(exc: BaseException, name: str, msg: str) -> str:
    """``network``, ``auth``, ``not_found`` or empty: the cause, for the hint the user gets."""
    chain = _chain(exc)
    names = [type(e).__name__ for e in chain]
    # the library's own classification first: Hugging Face answers 401 for a missing repo too
    if any("GatedRepo" in n for n in names):
        return "auth"
    if any(k in n for n in names for k in _NOT_FOUND_NAMES):
        return "not_found"
    if re.search(r"\b(401|403)\b", msg):
        return "auth"
    if re.search(r"\b404\b", msg):
        return "not_found"
    if any(k in n for n in names for k in _NETWORK_NAMES) or any(
        isinstance(e, ConnectionError | TimeoutError) for e in chain
    ):
        return "network"
    return ""


def missing_file_error(plan: Plan, name: str, err: HubError) -> HubError | None:
    """A 401/404 for one file of a repository whose listing is known and lacks it: say "no such
    file" (olah, like the real hub for some repos, answers 401 for a missing file, which would
    otherwise read as "repository not found or private")."""
    if err.code not in ("auth", "not_found"):
        return None
    files = cached_listing(plan.hub, plan.repo_id, plan.revision)
    if files is None or any(f.path == name for f in files):
        return None
    return HubError(
        f"no such file in repo {plan.repo_id}@{plan.revision}: {name}; check the file names in the "
        "model entry (the repository exists and was listed)",
        code="not_found",
    )


def err_code(exc: BaseException) -> str:
    code = getattr(exc, "code", "")
    return code if isinstance(code, str) else ""


def _prune_empty(start: Path, stop: Path) -> None:
    cur = start
    while cur != stop and stop in cur.parents:
        try:
            cur.rmdir()
        except OSError:
            return
        cur = cur.parent


# --- Hugging Face --------------------------------------------------------------------------------


def hf_cache_root() -> Path:
    """The standard Hugging Face hub cache, resolved like huggingface_hub does, at call time."""
    for var in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"):
        if os.environ.get(var):
            return Path(os.path.expandvars(os.environ[var])).expanduser()
    if os.environ.get("HF_HOME"):
        return Path(os.path.expandvars(os.environ["HF_HOME"])).expanduser() / "hub"
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg).expanduser() / "huggingface" / "hub"


def hf_endpoint(explicit: str | None = None) -> str:
    return (explicit or os.environ.get("HF_ENDPOINT") or "https://huggingface.co").rstrip("/")


def _repo_folder(repo_id: str) -> str:
    return "models--" + repo_id.replace("/", "--")


def _hf_bar(meter: Meter, filename: str) -> type[Any]:
    """The ``tqdm_class`` handed to huggingface_hub: silent, it only feeds ``meter``."""
    from tqdm.auto import tqdm

    class Bar(tqdm):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["disable"] = True  # no terminal output, no tqdm monitor thread
            super().__init__(*args, **kwargs)

        def update(self, n: float | None = 1) -> bool | None:
            meter.add(int(n or 0), filename)
            return None

    return Bar


class HuggingFaceBackend:
    name = "huggingface"
    checks_content = True  # hf_resume verifies size and checksum before a blob is final

    def __init__(self, endpoint: str | None = None, token: str | None = None) -> None:
        self.endpoint = hf_endpoint(endpoint)
        self.token = token

    def cache_root(self) -> Path:
        return hf_cache_root()

    def _repo_dir(self, repo_id: str) -> Path:
        return self.cache_root() / _repo_folder(repo_id)

    def _commit(self, repo_id: str, revision: str) -> str | None:
        if _SHA1.match(revision):
            return revision
        ref = self._repo_dir(repo_id) / "refs" / revision
        try:
            return ref.read_text().strip() or None
        except OSError:
            return None

    def cached_snapshot(self, repo_id: str, revision: str) -> Path | None:
        commit = self._commit(repo_id, revision)
        if commit is None:
            return None
        snap = self._repo_dir(repo_id) / "snapshots" / commit
        return snap if snap.is_dir() else None

    def cached_file(self, repo_id: str, revision: str, path: str) -> Path | None:
        snap = self.cached_snapshot(repo_id, revision)
        if snap is None:
            return None
        p = snap / path
        return p if p.is_file() else None  # is_file follows the symlink into blobs/

    def incomplete_bytes(self, repo_id: str, revision: str, path: str) -> int:
        # the resumable ``<etag>.incomplete`` of an earlier, cancelled or killed, attempt
        return hf_resume.partial_bytes(self.cache_root(), repo_id, revision, path)

    def incomplete_file(self, repo_id: str, revision: str, path: str) -> Path | None:
        return hf_resume.partial_file(self.cache_root(), repo_id, revision, path)

    def remove_incomplete(self, repo_id: str, revision: str, path: str) -> int:
        """Delete the partial blob of a file (not one a running download holds); bytes freed."""
        freed = hf_resume.forget_partial(self.cache_root(), repo_id, revision, path)
        repo = self._repo_dir(repo_id)
        if freed and not any(True for _ in _walk_files(repo / "snapshots")):
            for sub in ("blobs", "refs"):
                _rm_tree_if_no_files(repo / sub)
            _prune_empty(repo, self.cache_root())
        return freed

    def _meta_error(self, exc: BaseException, what: str) -> HubError:
        err = translate_error(exc, what, self.token, self.cache_root())
        return err if isinstance(err, HubError) else HubError(f"{what}: {err}", code=err_code(err))

    def remote_files(self, plan: Plan) -> tuple[str, list[RemoteFile]]:
        from huggingface_hub import get_hf_file_metadata, hf_hub_url, snapshot_download

        token: str | bool | None = self.token or None
        if plan.kind == "snapshot":
            try:
                infos = snapshot_download(
                    plan.repo_id,
                    revision=plan.revision,
                    cache_dir=self.cache_root(),
                    endpoint=self.endpoint,
                    token=token,
                    dry_run=True,
                    tqdm_class=_hf_bar(Meter(0, None), ""),
                )
            except Exception as exc:
                raise self._meta_error(exc, f"{plan.repo_id}@{plan.revision}") from None
            assert isinstance(infos, list)
            commit = str(infos[0].commit_hash) if infos else (self._commit(plan.repo_id, plan.revision) or "")
            return commit, [RemoteFile(i.filename, int(i.file_size or 0)) for i in infos]
        files: list[RemoteFile] = []
        commit = ""
        for name in plan.files:
            url = hf_hub_url(plan.repo_id, name, revision=plan.revision, endpoint=self.endpoint)
            try:
                meta = get_hf_file_metadata(url, token=token)
            except Exception as exc:
                err = self._meta_error(exc, f"{plan.repo_id}/{name}@{plan.revision}")
                raise (missing_file_error(plan, name, err) or err) from None
            etag = (meta.etag or "").strip('"').lower()
            files.append(
                RemoteFile(
                    name,
                    int(meta.size or 0),
                    sha256=etag if _SHA256.match(etag) else None,
                    git_sha1=etag if _SHA1.match(etag) else None,
                )
            )
            commit = meta.commit_hash or commit
        return commit, files

    def fetch(self, plan: Plan, files: list[RemoteFile], meter: Meter) -> dict[str, Path]:
        out: dict[str, Path] = {}
        for f in files:
            meter.check()
            try:
                out[f.path] = hf_resume.fetch_file(
                    self.endpoint, self.token, self.cache_root(), plan.repo_id, plan.revision, f, meter
                )
            except (HubError, VerificationError):
                raise
            except BaseException as exc:
                raise translate_error(
                    exc, f"{plan.repo_id}/{f.path}", self.token, self.cache_root()
                ) from None
        return out

    def _lock_free(self, lock: Path) -> bool:
        from filelock import FileLock, Timeout

        fl = FileLock(str(lock))
        try:
            fl.acquire(timeout=0)
        except Timeout:
            return False
        except OSError:
            return True  # no lock file could be made: nobody holds it either
        fl.release()
        return True

    def cleanup_orphans(self, repo_id: str | None = None) -> list[Path]:
        """Delete ``blobs/<etag>.<random>.incomplete`` that no live download holds the lock of.

        huggingface_hub writes to such uniquely named files under ``.locks/<repo>/<etag>.lock``;
        only a killed process leaves one behind and no later process can resume it, so it is
        pure waste. Tandem's own ``<etag>.incomplete`` is kept: the next attempt resumes it.
        """
        root = self.cache_root()
        repos = [root / _repo_folder(repo_id)] if repo_id else sorted(root.glob("models--*"))
        removed: list[Path] = []
        for repo in repos:
            for inc in sorted((repo / "blobs").glob("*.*.incomplete")):
                etag = inc.name.split(".", 1)[0]
                lock = root / ".locks" / repo.name / f"{etag}.lock"
                if lock.parent.is_dir() and not self._lock_free(lock):
                    continue
                try:
                    inc.unlink()
                    removed.append(inc)
                    log.info("removed orphaned partial download %s", inc)
                except OSError as exc:
                    log.warning("could not remove %s: %s", inc, exc)
        return removed

    def owned_paths(self, local: Path) -> list[Path]:
        """The blob a snapshot path points to (what deleting it frees)."""
        try:
            return [local.resolve(strict=True)]
        except OSError:
            return []

    def remove(self, local: Path) -> int:
        """Delete a snapshot file and its blob (unless another snapshot of the repo links it)."""
        root = self.cache_root()
        try:
            rel = local.relative_to(root)
        except ValueError:
            return 0
        repo = root / rel.parts[0]
        blob = None
        with contextlib.suppress(OSError):
            blob = local.resolve(strict=True)
        local.unlink(missing_ok=True)
        _prune_empty(local.parent, repo / "snapshots")
        freed = 0
        if blob is not None and blob.is_file() and (repo / "blobs") in blob.parents:
            still = any(p.is_symlink() and p.resolve() == blob for p in _walk_files(repo / "snapshots"))
            if not still:
                freed = blob.stat().st_size
                blob.unlink()
        snaps = repo / "snapshots"
        if not snaps.exists() or not any(snaps.iterdir()):
            for sub in ("snapshots", "refs", "blobs"):
                _rm_tree_if_no_files(repo / sub)
            _prune_empty(repo, root)
        return freed


def _walk_files(top: Path) -> Iterator[Path]:
    if not top.is_dir():
        return
    for dirpath, _dirs, names in os.walk(top):
        for n in names:
            yield Path(dirpath) / n


def _rm_tree_if_no_files(top: Path) -> None:
    if not top.is_dir():
        return
    if top.name == "refs":
        for f in _walk_files(top):
            f.unlink(missing_ok=True)
    if any(True for _ in _walk_files(top)):
        return
    for dirpath, _dirs, _names in sorted(os.walk(top), key=lambda t: -len(t[0])):
        with contextlib.suppress(OSError):
            Path(dirpath).rmdir()


# --- ModelScope ----------------------------------------------------------------------------------


def modelscope_cache_root() -> Path:
    env = os.environ.get("MODELSCOPE_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "modelscope"


def modelscope_endpoint(explicit: str | None = None) -> str:
    return (explicit or os.environ.get("MODELSCOPE_ENDPOINT") or "https://www.modelscope.cn").rstrip("/")


class ModelScopeBackend:
    name = "modelscope"
    checks_content = False  # its library's check is not relied on: the caller hashes the file

    def __init__(self, endpoint: str | None = None, token: str | None = None) -> None:
        self.endpoint = modelscope_endpoint(endpoint)
        self.token = token

    def cache_root(self) -> Path:
        return modelscope_cache_root()

    def _dirs(self, repo_id: str, revision: str) -> list[Path]:
        """Where modelscope keeps (or kept, in older versions) a repo, newest layout first."""
        root = self.cache_root()
        owner, _, name = repo_id.partition("/")
        safe = name.replace(".", "___")
        return [
            root / "models" / repo_id.replace("/", "--") / "snapshots" / revision,
            root / "models" / owner / safe,
            root / owner / name,
            root / owner / safe,
            root / "hub" / owner / name,
            root / "hub" / owner / safe,
            root / "models" / owner / name,
        ]

    def cached_snapshot(self, repo_id: str, revision: str) -> Path | None:
        for d in self._dirs(repo_id, revision):
            if d.is_dir() and any(d.iterdir()):
                return d
        return None

    def cached_file(self, repo_id: str, revision: str, path: str) -> Path | None:
        for d in self._dirs(repo_id, revision):
            p = d / path
            if p.is_file() and not p.with_name(p.name + ".incomplete").exists():
                return p
        return None

    def incomplete_bytes(self, repo_id: str, revision: str, path: str) -> int:
        # modelscope resumes ``<file>.incomplete`` with Range, so these bytes are real progress.
        p = self.incomplete_file(repo_id, revision, path)
        try:
            return p.stat().st_size if p is not None else 0
        except OSError:
            return 0

    def incomplete_file(self, repo_id: str, revision: str, path: str) -> Path | None:
        p = self._dirs(repo_id, revision)[0] / (path + ".incomplete")
        return p if p.is_file() else None

    def remove_incomplete(self, repo_id: str, revision: str, path: str) -> int:
        """Delete a file's ``.incomplete`` (the next download would have resumed it)."""
        p = self.incomplete_file(repo_id, revision, path)
        if p is None:
            return 0
        try:
            freed = p.stat().st_size
            p.unlink()
        except OSError as exc:
            log.warning("could not remove %s: %s", p, exc)
            return 0
        _prune_empty(p.parent, self.cache_root())
        return freed

    def remote_files(self, plan: Plan) -> tuple[str, list[RemoteFile]]:
        from modelscope_hub import HubApi

        try:
            api = HubApi(endpoint=self.endpoint, token=self.token or None)
            listing = api.list_repo_files(plan.repo_id, "model", revision=plan.revision, recursive=True)
        except Exception as exc:
            err = translate_error(exc, f"{plan.repo_id}@{plan.revision}", self.token, self.cache_root())
            raise (err if isinstance(err, HubError) else HubError(str(err), code=err_code(err))) from None
        by_path = {f.path: f for f in listing if not f.is_dir}
        files: list[RemoteFile] = []
        names = plan.files if plan.kind == "files" else tuple(sorted(by_path))
        for name in names:
            info = by_path.get(name)
            if info is None:
                raise HubError(
                    f"no such file in repo {plan.repo_id}@{plan.revision}: {name}; check the file names "
                    "in the model entry (the repository exists and was listed)",
                    code="not_found",
                )
            sha = (info.sha256 or "").lower()
            files.append(RemoteFile(name, int(info.size or 0), sha256=sha if _SHA256.match(sha) else None))
        return plan.revision, files

    def fetch(self, plan: Plan, files: list[RemoteFile], meter: Meter) -> dict[str, Path]:
        from modelscope.hub.callback import ProgressCallback
        from modelscope.hub.snapshot_download import snapshot_download

        class Callback(ProgressCallback):  # type: ignore[misc]
            def update(self, size: int) -> None:
                meter.add(int(size), str(self.filename))

        patterns = [_fn_escape(f.path) for f in files]
        try:
            out = snapshot_download(
                plan.repo_id,
                revision=plan.revision,
                cache_dir=str(self.cache_root()),
                allow_patterns=patterns,
                progress_callbacks=[Callback],
                endpoint=self.endpoint,
                token=self.token or None,
                max_workers=2,
            )
        except BaseException as exc:
            raise translate_error(exc, plan.repo_id, self.token, self.cache_root()) from None
        base = Path(str(out))
        return {f.path: base / f.path for f in files}

    def cleanup_orphans(self, repo_id: str | None = None) -> list[Path]:
        return []  # modelscope's ``.incomplete`` files are resumed by the next download

    def owned_paths(self, local: Path) -> list[Path]:
        return [local] if local.is_file() else []

    def remove(self, local: Path) -> int:
        root = self.cache_root()
        if root not in local.parents or not local.is_file():
            return 0
        freed = local.stat().st_size
        local.unlink()
        local.with_name(local.name + ".incomplete").unlink(missing_ok=True)
        _prune_empty(local.parent, root)
        return freed


def _fn_escape(path: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in path)


def backend_for(hub: str, endpoint: str | None = None, token: str | None = None) -> Backend:
    if hub == "huggingface":
        return HuggingFaceBackend(endpoint, token)
    if hub == "modelscope":
        return ModelScopeBackend(endpoint, token)
    raise ValueError(f"hub: unknown hub {hub!r}; use huggingface or modelscope")
