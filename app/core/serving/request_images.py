"""The images of the requests being answered, as files the engines read."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import threading
from pathlib import Path
from typing import cast

from app.core import paths
from app.core.engines.base import ChatMessage
from app.core.images import CheckedImage, ImageError, ImageStore
from app.core.serving import protocol as P


class RequestImages:
    """The decoded images of requests being answered, as files in a private directory under the
    cache dir: written when a request is admitted, removed when its last request ends (two
    requests with the same picture share one file) and all of them when the server stops."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._users: dict[str, int] = {}
        self._root: Path | None = None

    def _store(self) -> ImageStore:
        if self._root is None:
            base = paths.cache_dir() / "api-images"
            base.mkdir(parents=True, exist_ok=True)
            self._root = Path(tempfile.mkdtemp(prefix="serve-", dir=base))
        return ImageStore(self._root)

    def acquire(self, found: dict[str, CheckedImage]) -> dict[str, str]:
        """Files of a request's images (name -> path); a full disk is a 507 for this request."""
        with self._lock:
            store = self._store()
            out: dict[str, str] = {}
            try:
                for name, image in found.items():
                    store.put(image)
                    self._users[name] = self._users.get(name, 0) + 1
                    out[name] = str(store.path_of(name))
            except ImageError as exc:
                self._drop(store, list(out))
                raise P.ApiError(507, str(exc), "server_error", code="insufficient_storage") from None
            return out

    def release(self, found: dict[str, CheckedImage]) -> None:
        if not found:
            return
        with self._lock:
            if self._root is not None:
                self._drop(ImageStore(self._root), list(found))

    def _drop(self, store: ImageStore, names: list[str]) -> None:
        for name in names:
            left = self._users.get(name, 0) - 1
            if left > 0:
                self._users[name] = left
                continue
            self._users.pop(name, None)
            with contextlib.suppress(OSError):
                store.path_of(name).unlink()

    def close(self) -> None:
        with self._lock:
            if self._root is not None:
                shutil.rmtree(self._root, ignore_errors=True)
                self._root = None
                self._users.clear()


def with_image_paths(messages: list[ChatMessage], paths_by_name: dict[str, str]) -> list[ChatMessage]:
    out: list[ChatMessage] = []
    for m in messages:
        names = m.get("images")
        if names:
            m = cast(ChatMessage, {**m, "images": [paths_by_name[n] for n in names]})
        out.append(m)
    return out
