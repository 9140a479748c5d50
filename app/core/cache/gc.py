"""Deleting cache entries and freeing the hub-cache files no entry uses any more.

Uses only the entry store's public API (:class:`app.core.cache.entry.CacheEntry`) and the
manifests every entry keeps.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from app.core.cache.entry import CacheEntry, Manifest, entries_root
from app.core.cache.errors import CacheError
from app.core.cache.hubs import backend_for
from app.core.cache.plan import COMPANION_SUFFIXES


def companion_entries(mgr: CacheEntry) -> list[Path]:
    """The entry folders that go with a target's: its drafters' and its projector's (none for a
    drafter or projector entry itself)."""
    found: list[Path] = []
    if mgr.role != "target":
        return found
    for suffix, role in zip(COMPANION_SUFFIXES, ("drafter", "projector"), strict=True):
        prefix = mgr.entry_name + suffix
        for d in sorted(entries_root().glob(prefix + "*")):
            man = Manifest.read(d)
            ours = man is not None and man.role == role and man.target_entry == mgr.entry_name
            orphan = man is None and (d.name == prefix or d.name.startswith(prefix + "-"))
            if ours or orphan:
                found.append(d)
    return found


def companion_bytes(mgr: CacheEntry) -> int:
    """Bytes of the files a target's drafters and projector link (each file once): what deleting
    the target with ``free_disk`` frees beyond its own files, at most (a file another target
    still uses survives)."""
    files: set[Path] = set()
    for d in companion_entries(mgr):
        man = Manifest.read(d)
        if man is not None:
            files.update(p.resolve() for p in man.local_paths() if p.exists())
    return sum(p.stat().st_size for p in files)


def delete(mgr: CacheEntry, free_disk: bool = False) -> int:
    """Remove this entry (a target's drafter and projector entries too); return bytes freed.

    By default only Tandem's entries go (they hold links) and the unfinished downloads of their
    files: a partial file is of no use to any other tool, and nothing would resume it once the
    entry is gone. With ``free_disk`` the hub-cache files of the removed entries that no
    remaining Tandem entry uses are deleted too — other tools sharing the hub cache lose them.
    A file shared by several entries (a drafter or projector of several target quantizations)
    survives, finished or not, while a remaining entry names it.
    """
    plan = mgr.plan
    if plan.kind == "local":
        raise CacheError(f"{mgr.entry_name} is a local model; Tandem never deletes local files")
    doomed = [mgr.entry_dir, *companion_entries(mgr)]
    candidates: list[tuple[str, Path]] = []
    unfinished: set[tuple[str, str, str, str]] = set()  # hub, repo, revision, path
    for d in doomed:
        man = Manifest.read(d)
        if man is not None:
            candidates += [(man.hub, p) for p in man.local_paths()]
            unfinished.update((man.hub, man.repo_id, man.revision, f["path"]) for f in man.files)
        if d.exists():
            shutil.rmtree(d)
    freed = _drop_unfinished(unfinished)
    if not free_disk:
        return freed
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


def _drop_unfinished(files: set[tuple[str, str, str, str]]) -> int:
    """Delete the partial downloads of ``files`` that no remaining entry names; bytes freed."""
    if not files:
        return 0
    named: set[tuple[str, str, str]] = set()  # hub, repo, path named by an entry that stays
    root = entries_root()
    for d in root.iterdir() if root.is_dir() else ():
        man = Manifest.read(d)
        if man is not None:
            named.update((man.hub, man.repo_id, f["path"]) for f in man.files)
    freed = 0
    for hub, repo_id, revision, path in sorted(files):
        if (hub, repo_id, path) not in named:
            freed += backend_for(hub).remove_incomplete(repo_id, revision, path)
    return freed
