"""What a hub says a repository holds: :class:`RemoteFile`, and the listings fetched earlier, kept on
disk so resolution, sizes and "no such file" work offline (file reads only, never the network)."""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from app.core import paths


@dataclass(frozen=True)
class RemoteFile:
    """A file as the hub announces it. ``sha256`` when the hub gives it (LFS files), or the git
    blob ``sha1`` (small files on Hugging Face), used to verify what was downloaded."""

    path: str
    size: int
    sha256: str | None = None
    git_sha1: str | None = None


def _cache_file(hub: str, repo_id: str, revision: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", f"{repo_id.replace('/', '--')}@{revision}")
    return paths.cache_dir() / "catalog" / "listings" / hub / f"{safe}.json"


def store_listing(hub: str, repo_id: str, revision: str, files: list[RemoteFile]) -> None:
    target = _cache_file(hub, repo_id, revision)
    target.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "hub": hub,
        "repo_id": repo_id,
        "revision": revision,
        "fetched": time.time(),
        "files": [{"path": f.path, "size": f.size} for f in files],
    }
    tmp = target.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data), "utf-8")
    os.replace(tmp, target)


def cached_listing(hub: str, repo_id: str, revision: str) -> list[RemoteFile] | None:
    """The listing fetched earlier, or None (file reads only, never the network)."""
    try:
        data = json.loads(_cache_file(hub, repo_id, revision).read_text("utf-8"))
        return [RemoteFile(str(f["path"]), int(f["size"])) for f in data["files"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None
