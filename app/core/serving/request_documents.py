"""The documents of a request, read and checked as its messages are read (any API shape).

OpenAI Chat's ``file`` parts (``file_data`` as a ``data:`` URL, ``filename``), the Responses
``input_file`` parts (the same two fields) and Anthropic's ``document`` blocks (a ``base64`` PDF,
``text``, or ``content`` text blocks; ``title``) become :class:`~app.core.documents.extract.Document`
by :func:`~app.core.documents.extract.read_document`; a message names them in its ``documents``.
Anything that cannot be read (a broken or encrypted PDF, one without a text layer, a binary file,
an unknown encoding, a file over the limit, a file id or URL, which would need fetching) is a 400
naming the part. Nothing is fetched.
"""

from __future__ import annotations

import base64
import binascii
import re
import urllib.parse

from app.core.documents.extract import Document, DocumentError, read_document
from app.core.serving.errors import ApiError

#: the most documents one request may carry (all its messages together)
MAX_DOCUMENTS_PER_REQUEST = 16

#: a file name for a document sent without one, by its media type
_SUFFIX_OF_TYPE = {
    "application/pdf": ".pdf",
    "text/plain": ".txt",
    "text/markdown": ".md",
    "text/html": ".html",
    "text/csv": ".csv",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ".docx",
}
_DATA_URL = re.compile(r"^data:(?P<type>[^;,]*)(;[^;,]*)*?(?P<b64>;base64)?,(?P<data>.*)$", re.DOTALL)
_INVALID = "invalid_document"


def _filename(filename: str | None, media_type: str | None, n: int) -> str:
    if filename and filename.strip():
        return filename.strip().replace("\\", "/").rsplit("/", 1)[-1] or f"document-{n}"
    return f"document-{n}{_SUFFIX_OF_TYPE.get((media_type or '').lower(), '.txt')}"


class DocumentParts:
    """The documents of one request, by stored name (:attr:`documents`)."""

    def __init__(self, limit: int = MAX_DOCUMENTS_PER_REQUEST) -> None:
        self.limit = limit
        self.count = 0
        self.documents: dict[str, Document] = {}

    def _add(self, filename: str | None, media_type: str | None, data: bytes, where: str) -> str:
        self.count += 1
        if self.count > self.limit:
            too_many = f"{where}: more than {self.limit} documents in one request"
            raise ApiError(400, too_many, param=where, code="too_many_documents")
        try:
            document = read_document(_filename(filename, media_type, self.count), data)
        except DocumentError as exc:
            raise ApiError(400, f"{where}: {exc}", param=where, code=_INVALID) from None
        self.documents.setdefault(document.name, document)
        return document.name

    def data_url(self, url: str | None, filename: str | None, where: str, file_id: str | None = None) -> str:
        """An OpenAI ``file_data`` (a ``data:`` URL); a ``file_id`` is refused (nothing is uploaded
        to this server)."""
        if not url:
            if file_id:
                raise ApiError(
                    400,
                    f"{where}: file ids are not taken (this server keeps no uploaded files); send the "
                    "file's bytes as file_data, a data: URL",
                    param=where,
                    code=_INVALID,
                )
            raise ApiError(400, f"{where}: expected file_data, a data: URL", param=where)
        found = _DATA_URL.match(url)
        if found is None:
            raise ApiError(400, f"{where}: file_data must be a data: URL", param=where, code=_INVALID)
        raw = found["data"]
        data = _base64(raw, where) if found["b64"] else urllib.parse.unquote_to_bytes(raw)
        return self._add(filename, found["type"], data, where)

    def base64(self, data: str | None, media_type: str | None, filename: str | None, where: str) -> str:
        """Anthropic's ``{"type": "base64", "media_type", "data"}`` document source."""
        if data is None:
            raise ApiError(400, f"{where}: a base64 source needs a data string", param=where)
        return self._add(filename, media_type, _base64(data, where), where)

    def text(self, text: str, filename: str | None, where: str) -> str:
        """A document sent as text (Anthropic's ``text`` and ``content`` sources)."""
        return self._add(filename, "text/plain", text.encode("utf-8"), where)


def _base64(raw: str, where: str) -> bytes:
    try:
        return base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError):
        message = f"{where}: the file's data is not valid base64"
        raise ApiError(400, message, param=where, code=_INVALID) from None
