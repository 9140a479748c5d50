"""Files kept by their content: ``<root>/ab/abcdef….<ext>``, named by their SHA-256.

The same bytes stored twice are one file, and callers refer to a file by its name. A file is
written completely (temporary file, fsync, rename) before its name is returned, so a reference
saved after :meth:`ContentStore.put` never names a partial file, whenever the process dies.
Files nothing refers to any more are removed by :meth:`ContentStore.collect`.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

#: the prefix of a file being written
INCOMING = ".incoming-"


def _mtime(p: Path) -> float:
    try:
        return p.stat().st_mtime
    except OSError:
        return time.time()


class ContentStore:
    """Content-addressed files under ``root`` whose names match ``pattern``; ``error(message,
    code)`` makes the exception raised for a name that is not one of them (``bad_name``) and for a
    file that cannot be written (``save_failed``); ``what`` names a file in those messages."""

    def __init__(
        self, root: Path, pattern: re.Pattern[str], what: str, error: Callable[[str, str], Exception]
    ) -> None:
        self.root = root
        self._pattern = pattern
        self._what = what
        self._error = error

    def path_of(self, name: str) -> Path:
        """The file of a stored name (``<sha256>.<ext>``)."""
        if not self._pattern.match(name):
            raise self._error(f"not a stored {self._what} name: {name!r}", "bad_name")
        return self.root / name[:2] / name

    def put_bytes(self, name: str, data: bytes) -> str:
        """Store ``data`` as ``name`` (once per content); the file is complete on disk (fsynced)
        when this returns."""
        target = self.path_of(name)
        if target.is_file() and target.stat().st_size == len(data):
            return name
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=INCOMING, dir=target.parent)
        except OSError as exc:
            raise self._save_failed(exc) from None
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, target)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise self._save_failed(exc) from None
        return name

    def _save_failed(self, exc: OSError) -> Exception:
        return self._error(
            f"cannot save the {self._what} ({exc.strerror or exc}); free some disk space", "save_failed"
        )

    def names(self) -> set[str]:
        """Every stored name."""
        if not self.root.is_dir():
            return set()
        return {p.name for p in self.root.glob("??/*") if self._pattern.match(p.name)}

    def collect(self, referenced: Iterable[str], min_age: float = 0.0) -> int:
        """Remove stored files not in ``referenced`` and leftover partial files older than
        ``min_age`` seconds (a file being attached by another window is younger); return how many
        files were removed."""
        keep = set(referenced)
        now = time.time()
        removed = 0
        if not self.root.is_dir():
            return 0
        for p in self.root.glob("??/*"):
            stale = p.name.startswith(INCOMING) or (self._pattern.match(p.name) and p.name not in keep)
            if stale and p.is_file() and (min_age <= 0 or now - _mtime(p) >= min_age):
                with contextlib.suppress(OSError):
                    p.unlink()
                    removed += 1
        for d in self.root.glob("??"):
            with contextlib.suppress(OSError):
                d.rmdir()  # only when empty
        return removed
