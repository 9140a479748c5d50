"""One cache entry per (spec, role, quantization): the entry store (status, resolve, adopt, link).

Downloading an entry (:mod:`app.core.cache.fetch`) and deleting / collecting garbage
(:mod:`app.core.cache.gc`) live in their own modules and use only :class:`CacheEntry`'s public
API; :class:`app.core.cache.manager.CacheManager` adds them as ``download()`` / ``delete()``, so
imports run one way (manager -> fetch, gc -> entry) with no cycle.

Layout: the app cache (``paths.models_root()``: ``cache_dir()/models`` unless the "Model cache"
setting moves it) holds one entry per target quantization
(``<name>-<format>-<size>b-<quant>``), per drafter of a target quantization
(``...-draft-<draft_quant>``) and per vision projector of one (``...-mmproj-<precision>``, fetched
with its target). An entry holds no model bytes: a ``manifest.json`` (hub, repo,
commit, every file with its size and checksum and its path in the hub cache) and symlinks to the
files in the hub's own cache (the standard Hugging Face cache, ModelScope's cache). So a model
fetched earlier with other tools is found and reused, ``hf cache scan`` sees Tandem's downloads,
and a drafter file shared by several target quantizations exists once on disk.

"Cached" means every expected file is present with the expected size; an entry's manifest is
marked complete only after the downloaded files were verified (size, and sha256 where the hub
gives one).
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from app.core import assets, paths
from app.core.cache import listing
from app.core.cache.errors import (
    NotCachedError,
    SpecResolutionError,
)
from app.core.cache.hubs import Backend, backend_for
from app.core.cache.plan import HubChoice, Plan, Role, make_plan
from app.core.registry import Family
from app.core.registry.store import AnySpec

log = logging.getLogger(__name__)

State = Literal["cached", "partial", "absent", "invalid"]
MANIFEST = "manifest.json"
MANIFEST_VERSION = 1
DEFAULT_RESERVE_BYTES = 256 * 1024 * 1024  # keep this much free after a download


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


def file_size(p: Path) -> int:
    try:
        return p.stat().st_size
    except OSError:
        return -1


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
            size = file_size(Path(dirpath) / n)
            total += max(size, 0)
    if not (snap / "config.json").is_file():
        return False, total
    if not any((snap / t).is_file() for t in _TOKENIZER_FILES):
        return False, total
    return _weights_complete(snap), total


class CacheEntry:
    """Cache entry of one target quantization, or of the drafter paired with it.

    ``CacheManager(family, spec, "target", "Q4_K_M", "huggingface")``,
    ``CacheManager(family, spec, "drafter", "Q4_K_M", "huggingface", draft_quantization="Q8_0")`` or
    ``CacheManager(family, spec, "projector", "Q4_K_M", "huggingface", mmproj_quantization="F16")``
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
        mmproj_quantization: str | None = None,
        endpoint: str | None = None,
        token: str | None = None,
        reserve_bytes: int = DEFAULT_RESERVE_BYTES,
    ) -> None:
        self.family = family
        self.spec = spec
        self.role: Role = role
        self.quantization = quantization or spec.quantizations[0]
        self.draft_quantization = draft_quantization
        self.mmproj_quantization = mmproj_quantization
        self.endpoint = endpoint
        self._token = token
        self.reserve_bytes = reserve_bytes
        self._plan: Plan | None = None
        self._plan_error: str | None = None
        try:
            self._plan = make_plan(
                family, spec, role, self.quantization, hub, draft_quantization, mmproj_quantization
            )
            self._plan = listing.resolve_plan_offline(self._plan)  # file patterns
        except ValueError as exc:
            self._plan_error = str(exc)
        self.hub: HubChoice | str = self._plan.hub if self._plan else (hub or "?")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.entry_name!r}, hub={self.hub!r})"

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
        from app.core.cache.plan import drafter_entry_name, projector_entry_name, target_entry_name

        if self.role == "drafter":
            return drafter_entry_name(self.family, self.spec, self.quantization, self.draft_quantization)
        if self.role == "projector":
            return projector_entry_name(self.family, self.spec, self.quantization, self.mmproj_quantization)
        return target_entry_name(self.family, self.spec, self.quantization)

    @property
    def entry_dir(self) -> Path:
        return entries_root() / self.entry_name

    def projector(self, mmproj_quantization: str | None = None) -> CacheEntry | None:
        """The entry of this target's vision projector (``mmproj``) on the same hub, with the same
        endpoint and token, or None when the spec declares none there.

        Without ``mmproj_quantization``: a precision already on disk for this target, else the
        first one the registry lists (the one a download fetches).
        """
        if self.role != "target" or self._plan is None or self._plan.kind != "files":
            return None
        hub = self._plan.hub
        if not self.spec.declares_projector(hub):
            return None
        choices: list[str | None] = [mmproj_quantization] if mmproj_quantization else []
        if not choices:
            choices = [*self.spec.mmproj_quantizations(hub)] or [None]
        entries = [
            type(self)(
                self.family,
                self.spec,
                "projector",
                self.quantization,
                hub,
                mmproj_quantization=pq,
                endpoint=self.endpoint,
                token=self._token,
                reserve_bytes=self.reserve_bytes,
            )
            for pq in choices
        ]
        return next((e for e in entries if e.status().state == "cached"), entries[0])

    def backend(self) -> Backend:
        """The hub client for this entry (token from the keyring unless one was given)."""
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
            return EntryStatus("cached", file_size(p), file_size(p), source="local")
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
                actual = file_size(local) if local is not None else -1
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
                present += max(file_size(p), 0)
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
        only what is missing goes to the hub.
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
        self.link(man)  # links removed by hand (or never made) come back
        return self.resolved(man)

    def path_on_disk(self) -> Path | None:
        """The engine path when every file is already on disk, or None: a read-only probe.

        Unlike :meth:`local_resolution` it never adopts, links or writes anything, so a probe
        (a fit estimate, a listing) cannot bring back an entry the user just deleted while its
        files stay in the hub cache.
        """
        plan = self.plan
        if plan.kind == "local":
            return None
        st = self.status()
        if st.state != "cached":
            return None
        if st.source == "hub-cache":
            backend = backend_for(plan.hub)
            if plan.kind == "snapshot":
                return backend.cached_snapshot(plan.repo_id, plan.revision)
            return backend.cached_file(plan.repo_id, plan.revision, plan.files[0])
        man = Manifest.read(self.entry_dir)
        return self.resolved(man) if man is not None and man.complete else None

    def resolved(self, man: Manifest) -> Path:
        if man.kind == "snapshot":
            link = self.entry_dir / "model"
            return link if link.is_dir() else Path(man.snapshot_dir)
        first = man.files[0]
        link = self.entry_dir / "files" / first["path"]
        return link if link.is_file() else Path(first["local"])

    def use_plan(self, plan: Plan) -> Plan:
        """Adopt ``plan`` (file patterns resolved against the hub's listing) and return it."""
        self._plan = plan
        return plan

    def download_command(self) -> str:
        fmt, size = self.spec.format, self.spec.size_label
        cmd = f"tandem download {self.family.name} --format {fmt} --size {size} --quant {self.quantization}"
        if self.role == "drafter":
            cmd += " --drafter"
            if self.draft_quantization:
                cmd += f" --draft-quant {self.draft_quantization}"
        # a projector is fetched by its target's download: the target's command brings it
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
                    files.append({"path": rel, "size": file_size(p), "local": str(p)})
        else:
            for name in plan.files:
                found = backend.cached_file(plan.repo_id, plan.revision, name)
                assert found is not None
                files.append({"path": name, "size": file_size(found), "local": str(found)})
        man = self.new_manifest(plan, "", files)
        man.snapshot_dir = snapshot_dir
        man.complete = True
        self.link(man)
        man.write(self.entry_dir)

    def new_manifest(self, plan: Plan, commit: str, files: list[dict[str, Any]]) -> Manifest:
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

    def link(self, man: Manifest) -> None:
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


def _relink(link: Path, target: str, directory: bool = False) -> None:
    """Point ``link`` at ``target``, leaving a link that already does alone."""
    if link.is_symlink():
        if os.readlink(link) == target:
            return
        link.unlink()
    elif link.exists():
        link.unlink()
    link.symlink_to(target, target_is_directory=directory)
