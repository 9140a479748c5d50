"""The cache entry callers use: :class:`CacheManager` is a :class:`~app.core.cache.entry.CacheEntry`
(status, resolve, adopt, link) with its two other jobs, downloading
(:func:`app.core.cache.fetch.download`) and deleting (:func:`app.core.cache.gc.delete`).

Those jobs live in their own modules and use only the entry's public API (one class did
all three); this module only joins them, so imports run one way: manager -> fetch, gc -> entry.
"""

from __future__ import annotations

from pathlib import Path

from app.core.cache import fetch, gc
from app.core.cache.entry import CacheEntry, EntryStatus, Manifest, entries_root, file_size
from app.core.cache.progress import ProgressCallback
from app.core.cancel import CancelToken

__all__ = ["CacheManager", "EntryStatus", "Manifest", "entries_root", "file_size"]


class CacheManager(CacheEntry):
    """A cache entry that can be downloaded and deleted; see :class:`CacheEntry` for the rest."""

    def download(self, progress: ProgressCallback | None = None, cancel: CancelToken | None = None) -> Path:
        """Fetch, verify and link this entry."""
        return fetch.download(self, progress, cancel)

    def delete(self, free_disk: bool = False) -> int:
        """Remove this entry (and its drafters), optionally freeing disk."""
        return gc.delete(self, free_disk)

    def companion_bytes(self) -> int:
        """Bytes of the files of this target's drafters and projector (see :func:`gc.companion_bytes`)."""
        return gc.companion_bytes(self)
