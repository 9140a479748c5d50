"""One cache manager per (spec, role, quantization): status, download, resolve, delete.

Layout: the app cache (``paths.models_root()``: ``cache_dir()/models`` unless the "Model cache"
setting moves it) holds one entry per target quantization
(``<name>-<format>-<size>b-<quant>``) and per drafter of a target quantization
(``...-draft-<draft_quant>``). An entry holds no model bytes: a ``manifest.json`` (hub, repo,
commit, every file with its size and checksum and its path in the hub cache) and symlinks to the
files in the hub's own cache (the standard Hugging Face cache, ModelScope's cache). So a model
fetched earlier with other tools is found and reused, ``hf cache scan`` sees Tandem's downloads,
and a drafter file shared by several target quantizations exists once on disk.

"Cached" means every expected file is present with the expected size; an entry's manifest is
marked complete only after the downloaded files were verified (size, and sha256 where the hub
gives one).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from app.core import assets, paths
from app.core.cache.errors import (
    CacheError,
    DiskSpaceError,
    DownloadCancelled,
    NotCachedError,
    SpecResolutionError,
    VerificationError,
)
from app.core.cache.hubs import Backend, RemoteFile, backend_for
from app.core.cache.plan import HubChoice, Plan, Role, make_plan
from app.core.cache.progress import Meter, ProgressCallback, ProgressEvent, _Cancelled
from app.core.cancel import CancelToken
from app.core.registry import Family
from app.core.registry.store import AnySpec

log = logging.getLogger(__name__)

State = Literal["cached", "partial", "absent", "invalid"]
MANIFEST = "manifest.json"
MANIFEST_VERSION = 1
DEFAULT_RESERVE_BYTES = 256 * 1024 * 1024  # keep this much free after a download
_POLL = 0.2  # seconds between progress reports / cancel checks on the caller's thread
#: After a cancel, how long the caller waits for the transfer thread to unwind (longer than
#: huggingface_hub's 10 s read timeout, so a stalled read ends inside it).
CANCEL_JOIN_SECONDS = 15.0


def entries_root() -> Path:
    return paths.models_root()


@dataclass(frozen=True)
class EntryStatus:
    """Status of one cache entry (one target or drafter quantization).

    ``source``: ``entry`` (a complete Tandem entry), ``hub-cache`` (found in the hub cache without
    a Tandem entry, e.g. fetched by another tool; downloading it only links it), ``local`` (a
    ``sources.local`` file) or empty. ``bytes_total`` is 0 when unknown (nothing asked the hub yet).
    """

    state: State
    bytes_present: int = 0
    bytes_total: int = 0
    reason: str = ""
    source: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.state}
        if self.state == "partial":
            out["bytes"] = self.bytes_present
            out["total"] = self.bytes_total
        if self.state == "cached" and self.bytes_total:
            out["bytes"] = self.bytes_total
        if self.state == "invalid" or (self.state == "absent" and self.reason):
            out["reason"] = self.reason
        if self.source:
            out["source"] = self.source
        return out


@dataclass
class Manifest:
    hub: str
    repo_id: str
    revision: str
    commit: str
    kind: str
    role: str
    target_entry: str
    files: list[dict[str, Any]] = field(default_factory=list)  # path, size, sha256, git_sha1, local
    complete: bool = False
    snapshot_dir: str = ""
    created: float = field(default_factory=time.time)

    @classmethod
    def read(cls, entry_dir: Path) -> Manifest | None:
        try:
            data = json.loads((entry_dir / MANIFEST).read_text("utf-8"))
            if data.pop("version", None) != MANIFEST_VERSION:
                return None
            return cls(**data)
        except (OSError, ValueError, TypeError):
            return None

    def write(self, entry_dir: Path) -> None:
        entry_dir.mkdir(parents=True, exist_ok=True)
        tmp = entry_dir / (MANIFEST + ".tmp")
        tmp.write_text(json.dumps({"version": MANIFEST_VERSION, **self.__dict__}, indent=1), "utf-8")
        os.replace(tmp, entry_dir / MANIFEST)

    def local_paths(self) -> list[Path]:
        return [Path(f["local"]) for f in self.files if f.get("local")]


def _file_size(p: Path) -> int:
    try:
        return p.stat().st_size
    except OSError:
        return -1


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


_SHARD = re.compile(r"^(?P<stem>.+)-(?P<n>\d+)-of-(?P<total>\d+)\.safetensors$")
_TOKENIZER_FILES = ("tokenizer.json", "tokenizer.model", "tokenizer_config.json")


def _weights_complete(snap: Path) -> bool:
    """Every weight file the snapshot needs is there: all files the index names, else every
    shard of each ``-0000k-of-0000N`` series (and at least one ``*.safetensors``)."""
    index = snap / "model.safetensors.index.json"
    if index.is_file():
        try:
            weight_map = json.loads(index.read_text("utf-8")).get("weight_map", {})
            shards = {str(s) for s in weight_map.values()}
        except (OSError, ValueError, AttributeError):
            return False
        return bool(shards) and all((snap / s).is_file() for s in shards)
    names = [p.name for p in snap.glob("*.safetensors") if p.is_file()]
    if not names:
        return False
    series: dict[tuple[str, int], set[int]] = {}
    for name in names:
        m = _SHARD.match(name)
        if m is not None:
            series.setdefault((m["stem"], int(m["total"])), set()).add(int(m["n"]))
    return all(found == set(range(1, total + 1)) for (_stem, total), found in series.items())


def _snapshot_looks_complete(snap: Path) -> tuple[bool, int]:
    """Heuristic for an mlx snapshot found in a hub cache without a Tandem manifest: config.json,
    a complete set of weights (:func:`_weights_complete`) and tokenizer files."""
    total = 0
    for dirpath, _d, names in os.walk(snap):
        for n in names:
            size = _file_size(Path(dirpath) / n)
            total += max(size, 0)
    if not (snap / "config.json").is_file():
        return False, total
    if not any((snap / t).is_file() for t in _TOKENIZER_FILES):
        return False, total
    return _weights_complete(snap), total


class CacheManager:
    """Cache entry of one target quantization, or of the drafter paired with it.

    ``CacheManager(family, spec, "target", "Q4_K_M", "huggingface")`` or
    ``CacheManager(family, spec, "drafter", "Q4_K_M", "huggingface", draft_quantization="Q8_0")``
    (the drafter always comes from the hub chosen for its target; its entry is named after the
    target quantization, so several target quantizations may share one drafter file).

    ``hub`` is ``huggingface``, ``modelscope`` or ``local`` (None: the spec's first hub, else
    local). ``endpoint`` overrides ``HF_ENDPOINT``/``MODELSCOPE_ENDPOINT`` (mirrors); ``token``
    overrides the keyring token. Construction never raises for a bad spec: :meth:`status` reports
    it as ``invalid`` and the other methods raise :class:`SpecResolutionError`.
    """

    def __init__(
        self,
        family: Family,
        spec: AnySpec,
        role: Role = "target",
        quantization: str | None = None,
        hub: str | None = None,
        *,
        draft_quantization: str | None = None,
        endpoint: str | None = None,
        token: str | None = None,
        reserve_bytes: int = DEFAULT_RESERVE_BYTES,
    ) -> None:
        self.family = family
        self.spec = spec
        self.role: Role = role
        self.quantization = quantization or spec.quantizations[0]
        self.draft_quantization = draft_quantization
        self.endpoint = endpoint
        self._token = token
        self.reserve_bytes = reserve_bytes
        self._plan: Plan | None = None
        self._plan_error: str | None = None
        try:
            self._plan = make_plan(family, spec, role, self.quantization, hub, draft_quantization)
            self._plan = _catalog_listing().resolve_plan_offline(self._plan)  # file patterns (issue 10)
        except ValueError as exc:
            self._plan_error = str(exc)
        self.hub: HubChoice | str = self._plan.hub if self._plan else (hub or "?")

    def __repr__(self) -> str:
        return f"CacheManager({self.entry_name!r}, hub={self.hub!r})"

    # --- resolution ------------------------------------------------------------------------------
    @property
    def plan(self) -> Plan:
        if self._plan is None:
            raise SpecResolutionError(f"{self.family.name}: {self._plan_error}")
        return self._plan

    @property
    def entry_name(self) -> str:
        if self._plan is not None:
            return self._plan.entry_name
        from app.core.cache.plan import drafter_entry_name, target_entry_name

        if self.role == "drafter":
            return drafter_entry_name(self.family, self.spec, self.quantization, self.draft_quantization)
        return target_entry_name(self.family, self.spec, self.quantization)

    @property
    def entry_dir(self) -> Path:
        return entries_root() / self.entry_name

    def _backend(self) -> Backend:
        token = self._token
        if token is None:
            from app.core import secrets

            token = secrets.get_token(self.plan.hub)
        return backend_for(self.plan.hub, self.endpoint, token)

    # --- status (offline) ------------------------------------------------------------------------
    def status(self) -> EntryStatus:
        """Cheap offline probe: file stats only, never the network, never raises."""
        try:
            plan = self.plan
        except SpecResolutionError as exc:
            return EntryStatus("invalid", reason=str(exc))
        try:
            if plan.kind == "local":
                return self._local_status(plan)
            return self._hub_status(plan, backend_for(plan.hub))
        except Exception as exc:  # a probe must never break a listing
            log.warning("status of %s failed: %s", self.entry_name, exc)
            return EntryStatus("invalid", reason=f"status probe failed: {exc}")

    def _local_status(self, plan: Plan) -> EntryStatus:
        if assets.is_embedded(plan.local_path):
            ok, note = assets.embedded_status(plan.local_path)
            return (
                EntryStatus("cached", source="local")
                if ok
                else EntryStatus("absent", reason=note, source="local")
            )
        p = Path(plan.local_path).expanduser()
        if p.exists():
            return EntryStatus("cached", _file_size(p), _file_size(p), source="local")
        return EntryStatus("absent", reason=f"{p} does not exist", source="local")

    def _hub_status(self, plan: Plan, backend: Backend) -> EntryStatus:
        man = Manifest.read(self.entry_dir)
        if man is not None and man.repo_id == plan.repo_id and man.hub == plan.hub:
            present = total = 0
            ok = True
            for f in man.files:
                size = int(f["size"])
                total += size
                local = (
                    Path(f["local"])
                    if f.get("local")
                    else backend.cached_file(plan.repo_id, plan.revision, f["path"])
                )
                actual = _file_size(local) if local is not None else -1
                if actual == size:
                    present += size
                else:
                    ok = False
                    present += min(
                        max(backend.incomplete_bytes(plan.repo_id, plan.revision, f["path"]), 0), size
                    )
            if ok and man.complete:
                return EntryStatus("cached", total, total, source="entry")
            return EntryStatus("partial" if present else "absent", present, total)
        # no Tandem entry: look in the hub cache (files another tool may have fetched)
        if plan.kind == "snapshot":
            snap = backend.cached_snapshot(plan.repo_id, plan.revision)
            if snap is None:
                return EntryStatus("absent")
            complete, size = _snapshot_looks_complete(snap)
            return EntryStatus(
                "cached" if complete else "partial", size, size if complete else 0, source="hub-cache"
            )
        present = 0
        found = 0
        for name in plan.files:
            p = backend.cached_file(plan.repo_id, plan.revision, name)
            if p is not None:
                found += 1
                present += max(_file_size(p), 0)
            else:
                present += backend.incomplete_bytes(plan.repo_id, plan.revision, name)
        if found == len(plan.files):
            return EntryStatus("cached", present, present, source="hub-cache")
        return EntryStatus("partial" if present else "absent", present, 0)

    # --- resolve ---------------------------------------------------------------------------------
    def resolve_path(self) -> Path:
        """What an engine loads: the (first) gguf file, or the mlx snapshot directory.

        Raises :class:`NotCachedError` (with the download command) unless fully cached. A model
        found only in the hub cache is linked into a Tandem entry on the way (no network).
        """
        plan = self.plan
        if plan.kind == "local":
            if assets.is_embedded(plan.local_path):
                # a missing package raises AssetMissing, whose message names the package to install
                return assets.resolve(plan.local_path)
            st = self._local_status(plan)
            if st.state != "cached":
                raise NotCachedError(f"{self.entry_name}: {st.reason}")
            return assets.resolve(plan.local_path)
        found = self.local_resolution()
        if found is None:
            st = self.status()
            raise NotCachedError(f"{self.entry_name} is {st.state}; run: {self.download_command()}")
        return found

    def local_resolution(self) -> Path | None:
        """The engine path when every file is already on disk (a complete Tandem entry, or the
        hub's own cache, e.g. filled by another tool or by an earlier download whose entry was
        removed), linking the entry on the way; None when something must be fetched.

        File stats only, never the network: a download of a cached model succeeds offline, and
        only what is missing goes to the hub (issue 8, item 14).
        """
        plan = self.plan
        if plan.kind == "local":
            return None
        st = self.status()
        if st.state != "cached":
            return None
        if st.source == "hub-cache":
            self._adopt(plan, backend_for(plan.hub))
        man = Manifest.read(self.entry_dir)
        if man is None or not man.complete:
            return None
        self._link(man)  # links removed by hand (or never made) come back
        return self._resolved(man)

    def _resolved(self, man: Manifest) -> Path:
        if man.kind == "snapshot":
            link = self.entry_dir / "model"
            return link if link.is_dir() else Path(man.snapshot_dir)
        first = man.files[0]
        link = self.entry_dir / "files" / first["path"]
        return link if link.is_file() else Path(first["local"])

    def download_command(self) -> str:
        fmt, size = self.spec.format, self.spec.size_label
        cmd = f"tandem download {self.family.name} --format {fmt} --size {size} --quant {self.quantization}"
        if self.role == "drafter":
            cmd += " --drafter"
            if self.draft_quantization:
                cmd += f" --draft-quant {self.draft_quantization}"
        if self._plan is not None and self._plan.hub != "local":
            cmd += f" --hub {self._plan.hub}"
        return cmd

    def _adopt(self, plan: Plan, backend: Backend) -> None:
        """Write a complete manifest for files found in the hub cache (no network)."""
        files: list[dict[str, Any]] = []
        snapshot_dir = ""
        if plan.kind == "snapshot":
            snap = backend.cached_snapshot(plan.repo_id, plan.revision)
            assert snap is not None
            snapshot_dir = str(snap)
            for dirpath, _d, names in os.walk(snap):
                for n in sorted(names):
                    p = Path(dirpath) / n
                    rel = p.relative_to(snap).as_posix()
                    files.append({"path": rel, "size": _file_size(p), "local": str(p)})
        else:
            for name in plan.files:
                found = backend.cached_file(plan.repo_id, plan.revision, name)
                assert found is not None
                files.append({"path": name, "size": _file_size(found), "local": str(found)})
        man = self._new_manifest(plan, "", files)
        man.snapshot_dir = snapshot_dir
        man.complete = True
        self._link(man)
        man.write(self.entry_dir)

    def _new_manifest(self, plan: Plan, commit: str, files: list[dict[str, Any]]) -> Manifest:
        from app.core.cache.plan import target_entry_name

        return Manifest(
            hub=plan.hub,
            repo_id=plan.repo_id,
            revision=plan.revision,
            commit=commit,
            kind=plan.kind,
            role=self.role,
            target_entry=target_entry_name(self.family, self.spec, self.quantization),
            files=files,
        )

    def _link(self, man: Manifest) -> None:
        """Symlink the hub files into the entry (best effort: resolve_path falls back to the
        hub path where symlinks are not allowed, e.g. Windows without developer mode)."""
        self.entry_dir.mkdir(parents=True, exist_ok=True)
        try:
            if man.kind == "snapshot":
                _relink(self.entry_dir / "model", man.snapshot_dir, directory=True)
                return
            for f in man.files:
                link = self.entry_dir / "files" / f["path"]
                link.parent.mkdir(parents=True, exist_ok=True)
                _relink(link, f["local"])
        except OSError as exc:
            log.info("could not link %s into %s (%s); using hub paths", man.repo_id, self.entry_dir, exc)

    # --- download --------------------------------------------------------------------------------
    def download(self, progress: ProgressCallback | None = None, cancel: CancelToken | None = None) -> Path:
        """Fetch what is missing, verify it, link it into the entry; return :meth:`resolve_path`.

        Runs on the caller's thread (a worker; never the UI thread). ``progress`` is called on
        that thread about five times a second and must be cheap. ``cancel`` stops within a second:
        the partial file is deleted or kept as the hub's resumable ``.incomplete``, never marked
        ready, and :class:`DownloadCancelled` is raised. Raises :class:`DiskSpaceError` before
        starting when the hub's sizes do not fit (and on ENOSPC while writing),
        :class:`VerificationError`, :class:`HubError`, :class:`SpecResolutionError`.
        """
        plan = self.plan
        report = progress or (lambda ev: None)
        if plan.kind == "local":
            return self.resolve_path()
        if cancel is not None and cancel.cancelled:
            raise DownloadCancelled(f"{self.entry_name}: cancelled")
        on_disk = self.local_resolution()
        if on_disk is not None:  # everything is on disk: no network at all (works offline)
            report(ProgressEvent("done", 0, 0, 0.0, 0.0))
            return on_disk
        backend = self._backend()
        report(ProgressEvent("checking", 0, 0, 0.0, None))
        plan = self._plan = _catalog_listing().resolve_plan(plan, backend)  # file patterns (issue 10)
        backend.cleanup_orphans(plan.repo_id)
        commit, remote = backend.remote_files(plan)
        todo: list[RemoteFile] = []
        for f in remote:
            p = backend.cached_file(plan.repo_id, plan.revision, f.path)
            if p is None or _file_size(p) != f.size:
                todo.append(f)
        self._check_space(backend, todo, plan)
        pending = self._new_manifest(
            plan, commit, [{"path": f.path, "size": f.size, "local": ""} for f in remote]
        )
        old = Manifest.read(self.entry_dir)
        if old is None or not old.complete:
            pending.write(self.entry_dir)  # lets status report partial bytes / totals
        meter = Meter(sum(f.size for f in todo), cancel)
        fetched = self._run_fetch(backend, plan, todo, meter, report) if todo else {}
        # verify
        report(ProgressEvent("verifying", meter.total, meter.total, 0.0, 0.0))
        files: list[dict[str, Any]] = []
        snapshot_dir = ""
        for f in remote:
            local = fetched.get(f.path) or backend.cached_file(plan.repo_id, plan.revision, f.path)
            if local is None or _file_size(local) != f.size:
                got = -1 if local is None else _file_size(local)
                raise VerificationError(
                    f"{plan.repo_id}/{f.path}: expected {f.size} bytes, found {max(got, 0)}; "
                    "retry the download"
                )
            if f.path in fetched:
                if cancel is not None and cancel.cancelled:
                    raise DownloadCancelled(f"{self.entry_name}: cancelled")
                bad = _hash_ok(local, f)
                if bad:
                    backend.remove(local)
                    raise VerificationError(
                        f"{plan.repo_id}: {bad}; the file was removed, retry the download"
                    )
            entry: dict[str, Any] = {"path": f.path, "size": f.size, "local": str(local)}
            if f.sha256:
                entry["sha256"] = f.sha256
            files.append(entry)
            if plan.kind == "snapshot" and not snapshot_dir:
                snapshot_dir = str(local)[: -len(f.path)].rstrip("/\\")
        man = self._new_manifest(plan, commit, files)
        man.snapshot_dir = snapshot_dir
        man.complete = True
        self._link(man)
        man.write(self.entry_dir)
        report(ProgressEvent("done", meter.total, meter.total, 0.0, 0.0))
        return self._resolved(man)

    def _check_space(self, backend: Backend, todo: list[RemoteFile], plan: Plan) -> None:
        need = sum(
            max(f.size - backend.incomplete_bytes(plan.repo_id, plan.revision, f.path), 0) for f in todo
        )
        if not need:
            return
        where = backend.cache_root()
        probe = where
        while not probe.exists() and probe != probe.parent:
            probe = probe.parent
        free = shutil.disk_usage(probe).free
        if need + self.reserve_bytes > free:
            raise DiskSpaceError(
                f"not enough disk space for {self.entry_name}: it needs {_human(need)} "
                f"(plus {_human(self.reserve_bytes)} kept free) in {where}, but only {_human(free)} is free; "
                "free some space or choose a smaller quantization"
            )

    def _run_fetch(
        self,
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
        io = threading.Thread(target=run, name=f"tandem-download-io-{self.entry_name}", daemon=True)
        io.start()
        while io.is_alive():
            io.join(_POLL)
            if meter.cancelled:
                self._join_cancelled(io, meter, report)
                raise DownloadCancelled(f"{self.entry_name}: download cancelled")
            report(meter.snapshot())
        if failure and isinstance(failure[0], _Cancelled):
            raise DownloadCancelled(f"{self.entry_name}: download cancelled")
        report(meter.snapshot())
        if failure:
            exc = failure[0]
            if isinstance(exc, CacheError):
                raise exc
            raise CacheError(f"{self.entry_name}: {type(exc).__name__}: {exc}")
        return result

    def _join_cancelled(self, io: threading.Thread, meter: Meter, report: ProgressCallback) -> None:
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
                self.entry_name,
                CANCEL_JOIN_SECONDS,
            )

    # --- delete ----------------------------------------------------------------------------------
    def delete(self, free_disk: bool = False) -> int:
        """Remove this entry (a target's drafter entries too); return bytes freed.

        By default only Tandem's entries go (0 bytes: they hold links). With ``free_disk`` the
        hub-cache files of the removed entries that no remaining Tandem entry uses are deleted
        too — other tools sharing the hub cache lose them — and their bytes are returned. A
        drafter shared by several target quantizations survives while one still uses it.
        """
        plan = self.plan
        if plan.kind == "local":
            raise CacheError(f"{self.entry_name} is a local model; Tandem never deletes local files")
        doomed = [self.entry_dir]
        if self.role == "target":
            prefix = self.entry_name + "-draft"
            for d in sorted(entries_root().glob(prefix + "*")):
                man = Manifest.read(d)
                ours = man is not None and man.role == "drafter" and man.target_entry == self.entry_name
                orphan = man is None and (d.name == prefix or d.name.startswith(prefix + "-"))
                if ours or orphan:
                    doomed.append(d)
        candidates: list[tuple[str, Path]] = []
        for d in doomed:
            man = Manifest.read(d)
            if man is not None:
                candidates += [(man.hub, p) for p in man.local_paths()]
            if d.exists():
                shutil.rmtree(d)
        if not free_disk:
            return 0
        if plan.kind == "files" or plan.kind == "snapshot":
            # files the hub cache has for this plan even without a manifest (found, not linked)
            backend = backend_for(plan.hub)
            if plan.kind == "files":
                for name in plan.files:
                    p = backend.cached_file(plan.repo_id, plan.revision, name)
                    if p is not None:
                        candidates.append((plan.hub, p))
        in_use: set[Path] = set()
        for d in entries_root().iterdir():
            man = Manifest.read(d)
            if man is None:
                continue
            for p in man.local_paths():
                in_use.add(p)
                in_use.update(backend_for(man.hub).owned_paths(p))
        freed = 0
        seen: set[Path] = set()
        for hub, p in candidates:
            if p in seen:
                continue
            seen.add(p)
            backend = backend_for(hub)
            owned = backend.owned_paths(p)
            if p in in_use or any(o in in_use for o in owned):
                continue
            freed += backend.remove(p)
        return freed


def _catalog_listing() -> Any:
    from app.core.catalog import listing  # imported late: the catalog builds on this package

    return listing


def _relink(link: Path, target: str, directory: bool = False) -> None:
    """Point ``link`` at ``target``, leaving a link that already does alone."""
    if link.is_symlink():
        if os.readlink(link) == target:
            return
        link.unlink()
    elif link.exists():
        link.unlink()
    link.symlink_to(target, target_is_directory=directory)


def _human(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024:
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TB"
