"""Model cache and downloads: one CacheManager per (spec, role, quantization).

Public surface:

- :class:`CacheManager` — ``status()``, ``download(progress, cancel)``, ``resolve_path()``,
  ``delete(free_disk)``, ``entry_dir``;
- :func:`registry_status` / :func:`spec_status` — offline statuses for the browser and
  ``tandem models --json`` (a vision target's projector has its own marker);
- :func:`projector_on_disk` — the ``mmproj`` file a launch loads, when it is downloaded;
- :class:`DownloadQueue` (``app.core.cache.queue``) — persistent queue with observers;
- :class:`CancelToken`, :class:`ProgressEvent`, the typed errors.
"""

from app.core.cache.errors import (
    CacheError,
    DiskSpaceError,
    DownloadCancelled,
    HubError,
    NotCachedError,
    SpecResolutionError,
    VerificationError,
)
from app.core.cache.hubs import hf_cache_root, modelscope_cache_root
from app.core.cache.manager import CacheManager, EntryStatus, entries_root
from app.core.cache.plan import Plan, drafter_entry_name, make_plan, projector_entry_name, target_entry_name
from app.core.cache.progress import ProgressEvent
from app.core.cache.status import SpecStatus, projector_on_disk, registry_status, spec_status
from app.core.cancel import CancelToken

__all__ = [
    "CacheError",
    "CacheManager",
    "CancelToken",
    "DiskSpaceError",
    "DownloadCancelled",
    "EntryStatus",
    "HubError",
    "NotCachedError",
    "Plan",
    "ProgressEvent",
    "SpecResolutionError",
    "SpecStatus",
    "VerificationError",
    "drafter_entry_name",
    "entries_root",
    "hf_cache_root",
    "make_plan",
    "modelscope_cache_root",
    "projector_entry_name",
    "projector_on_disk",
    "registry_status",
    "spec_status",
    "target_entry_name",
]
