"""Typed errors of the cache layer. Messages are for the user and never contain a token."""

from __future__ import annotations


class CacheError(Exception):
    """Base of every cache/download error; ``str(exc)`` is safe to show and to log.

    ``code`` narrows the cause where one class covers several (a :class:`HubError` is
    ``network``, ``auth`` or ``not_found``), so the GUI can pick the right next step.
    """

    code: str = ""

    def __init__(self, message: str = "", code: str = "") -> None:
        super().__init__(message)
        if code:
            self.code = code


class SpecResolutionError(CacheError, ValueError):
    """The spec cannot be turned into hub files (bad template, missing source...)."""


class NotCachedError(CacheError, FileNotFoundError):
    """The model is not (fully) in the cache; the message says how to download it.

    A FileNotFoundError too, so generic "missing model file" handlers (the CLI's) report it."""


class DownloadCancelled(CacheError):
    """The user cancelled; nothing half-done is marked as ready."""


class DiskSpaceError(CacheError, OSError):
    """Not enough free space, found before starting or hit (ENOSPC) while writing."""


class VerificationError(CacheError):
    """A downloaded file does not have the size or sha256 the hub announced."""


class HubError(CacheError):
    """The hub refused or failed; the message names the repo and file. ``code``: ``network``
    (unreachable, dropped, timed out), ``auth`` (401/403, gated), ``not_found`` (no such repo,
    revision or file), or empty."""
