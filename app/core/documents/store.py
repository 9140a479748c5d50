"""Attached documents kept by content under ``<data dir>/documents``, and their text.

A message refers to a document by its stored name (``<sha256>.<ext>``, :attr:`Document.name`)
and keeps the name the user attached it under (:class:`Attachment`), so moving or deleting the
original loses nothing. The text read out of a file is kept too (``<cache dir>/document-text``),
so a long PDF is read once, not at every question or start.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.core import paths
from app.core.content_store import ContentStore
from app.core.documents.extract import Document, DocumentError, Page, read_document

_NAME = re.compile(r"^[0-9a-f]{64}\.[a-z0-9]{1,10}$")
#: bump when what extraction gives changes (kept texts of another version are read again)
TEXT_VERSION = 1


@dataclass(frozen=True)
class Attachment:
    """A document of a message: its stored name and the file name the user sees."""

    name: str
    filename: str

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "filename": self.filename}

    @classmethod
    def from_json(cls, raw: Any) -> Attachment:
        if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
            raise ValueError(f"not an attachment: {raw!r}")
        name = raw["name"]
        filename = raw.get("filename")
        return cls(name, filename if isinstance(filename, str) and filename else name)

    @classmethod
    def of(cls, document: Document) -> Attachment:
        return cls(document.name, document.filename)


def _error(message: str, code: str) -> DocumentError:
    return DocumentError(message, code)


class DocumentStore(ContentStore):
    """Content-addressed document files under ``root`` (``<data dir>/documents`` by default)."""

    def __init__(self, root: Path | str | None = None, text_dir: Path | None = None) -> None:
        super().__init__(
            Path(root) if root is not None else paths.data_dir() / "documents", _NAME, "document", _error
        )
        self._text_dir = text_dir

    def put(self, document: Document) -> Attachment:
        """Store ``document`` (once per content) and keep its text; complete on disk on return."""
        self.put_bytes(document.name, document.data)
        self._keep_text(document)
        return Attachment.of(document)

    def open(self, attachment: Attachment) -> Document:
        """The stored document of ``attachment`` (its text as kept, else read again);
        :class:`DocumentError` when the file is gone or unreadable."""
        path = self.path_of(attachment.name)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise DocumentError(
                f"{attachment.filename}: the stored copy cannot be read ({exc.strerror or exc})", "unreadable"
            ) from None
        kept = self._kept_text(attachment.name)
        if kept is not None:
            return Document(attachment.filename, kept[1], kept[0], data, kept[2])
        document = read_document(attachment.filename, data)
        self._keep_text(document)
        return document

    def _text_root(self) -> Path:
        return self._text_dir if self._text_dir is not None else paths.cache_dir() / "document-text"

    def _keep_text(self, document: Document) -> None:
        target = self._text_root() / f"{document.sha256}.json"
        pages = [{"number": p.number, "text": p.text} for p in document.pages]
        data = {"version": TEXT_VERSION, "kind": document.kind, "pages": pages}
        with contextlib.suppress(OSError):  # only a cache: the document is read again without it
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_suffix(".tmp")
            tmp.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
            tmp.replace(target)

    def _kept_text(self, name: str) -> tuple[str, str, tuple[Page, ...]] | None:
        sha = name.split(".", 1)[0]
        try:
            data = json.loads((self._text_root() / f"{sha}.json").read_text("utf-8"))
            if data.get("version") != TEXT_VERSION:
                return None
            pages = tuple(Page(p["number"], p["text"]) for p in data["pages"])
            return sha, str(data["kind"]), pages
        except (OSError, ValueError, KeyError, TypeError):
            return None
