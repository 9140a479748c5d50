"""How much disk a model's files use: its target quantizations, their drafters and projectors.

Files are counted by what they are on disk (device and inode, after following the entry's links
into the hub cache), so a drafter file shared by several target quantizations, or a blob two
families point to, counts once; :meth:`DiskUse.combine` keeps that true for a total over several
families. Unfinished downloads count with the bytes they hold. File stats only, never the
network; meant for a worker thread.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from app.core import assets
from app.core.cache.entry import CacheEntry, Manifest, entries_root
from app.core.cache.errors import SpecResolutionError
from app.core.cache.hubs import Backend, backend_for
from app.core.cache.plan import drafter_entry_name, projector_entry_name
from app.core.registry import Family
from app.core.registry.store import AnySpec

log = logging.getLogger(__name__)

FileKey = tuple[int, int]  # st_dev, st_ino


@dataclass(frozen=True)
class DiskUse:
    """The files a model uses, each once: ``files`` maps a file's identity to its size;
    ``partial`` holds the identities of unfinished downloads among them."""

    files: dict[FileKey, int] = field(default_factory=dict)
    partial: frozenset[FileKey] = frozenset()

    @property
    def bytes(self) -> int:
        return sum(self.files.values())

    @property
    def partial_bytes(self) -> int:
        return sum(self.files[k] for k in self.partial)

    @staticmethod
    def combine(uses: Iterable[DiskUse]) -> DiskUse:
        """One use for several models, a file they share counted once."""
        files: dict[FileKey, int] = {}
        partial: set[FileKey] = set()
        for use in uses:
            files.update(use.files)
            partial |= use.partial
        return DiskUse(files, frozenset(partial))


class _Tally:
    def __init__(self) -> None:
        self.files: dict[FileKey, int] = {}
        self.partial: set[FileKey] = set()

    def add(self, path: Path | None, partial: bool = False) -> None:
        if path is None:
            return
        try:
            st = path.stat()  # follows the entry's and the snapshot's links to the blob
        except OSError:
            return
        key = (st.st_dev, st.st_ino)
        self.files[key] = st.st_size
        if partial:
            self.partial.add(key)

    def add_tree(self, top: Path) -> None:
        for dirpath, _dirs, names in os.walk(top):
            for n in names:
                self.add(Path(dirpath) / n)

    def use(self) -> DiskUse:
        return DiskUse(dict(self.files), frozenset(self.partial))


def _count_entry(entry: CacheEntry, tally: _Tally) -> None:
    """The files of one entry: what its manifest names (or, unfinished, their partial bytes);
    without a manifest, what the hub cache holds for its plan (fetched by another tool)."""
    try:
        plan = entry.plan
    except SpecResolutionError:
        return
    if plan.kind == "local":
        # an imported file uses disk; the small models shipped inside the app are not the user's
        if not assets.is_embedded(plan.local_path):
            tally.add(Path(plan.local_path).expanduser())
        return
    backend: Backend = backend_for(plan.hub)
    man = Manifest.read(entry.entry_dir)
    if man is not None and man.repo_id == plan.repo_id and man.hub == plan.hub:
        for f in man.files:
            local = (
                Path(f["local"])
                if f.get("local")
                else backend.cached_file(man.repo_id, man.revision, f["path"])
            )
            if local is not None and local.exists():
                tally.add(local)
            else:
                tally.add(backend.incomplete_file(man.repo_id, man.revision, f["path"]), partial=True)
        return
    if plan.kind == "snapshot":
        snap = backend.cached_snapshot(plan.repo_id, plan.revision)
        if snap is not None:
            tally.add_tree(snap)
        return
    for name in plan.files:
        found = backend.cached_file(plan.repo_id, plan.revision, name)
        if found is not None:
            tally.add(found)
        else:
            tally.add(backend.incomplete_file(plan.repo_id, plan.revision, name), partial=True)


def _companions(
    family: Family, spec: AnySpec, hub: str, kind: str, quants: list[str | None]
) -> list[CacheEntry]:
    """The drafter or projector entries of ``spec`` that exist (any target quantization), or
    one per drafter quantization probing the hub cache when none does."""
    named = drafter_entry_name if kind == "drafter" else projector_entry_name
    root = entries_root()
    out: list[CacheEntry] = []
    for cq in quants:
        targets = [q for q in spec.quantizations if (root / named(family, spec, q, cq)).exists()]
        for q in targets or spec.quantizations[:1]:
            if kind == "drafter":
                out.append(CacheEntry(family, spec, "drafter", q, hub, draft_quantization=cq))
            else:
                out.append(CacheEntry(family, spec, "projector", q, hub, mmproj_quantization=cq))
    return out


def family_disk_use(family: Family, hub_for: Callable[[AnySpec], str]) -> DiskUse:
    """The disk ``family``'s files use on the hub ``hub_for(spec)`` gives each spec (the one the
    browser shows): every target quantization, its drafters and its projector, each file once."""
    tally = _Tally()
    for spec in family.specs:
        hub = hub_for(spec)
        try:
            for q in spec.quantizations:
                _count_entry(CacheEntry(family, spec, "target", q, hub), tally)
            if spec.declares_drafter(hub):
                dqs: list[str | None] = [*spec.draft_quantizations(hub)] or [None]
                for entry in _companions(family, spec, hub, "drafter", dqs):
                    _count_entry(entry, tally)
            if hub != "local" and spec.declares_projector(hub):
                pqs: list[str | None] = [*spec.mmproj_quantizations(hub)] or [None]
                for entry in _companions(family, spec, hub, "projector", pqs):
                    _count_entry(entry, tally)
        except Exception as exc:  # one unreadable spec must not hide the others' use
            log.warning("disk use of %s %s: %s", family.name, spec.size_label, exc)
    return tally.use()
