"""A document's text, read once when it is attached: plain text, Markdown, source code, CSV, HTML,
PDF (pypdf) and DOCX (python-docx).

:func:`read_document` sniffs the bytes before it trusts the file name (a PDF is a PDF whatever it
is called; a PNG named ``notes.txt`` is refused), bounds the work (:data:`MAX_DOCUMENT_BYTES` in,
:data:`MAX_DOCUMENT_CHARS` out, a DOCX's unpacked size before it is parsed) and gives a
:class:`Document`: the original bytes, their SHA-256 and the text, page by page for a PDF. Anything
it cannot read raises :class:`DocumentError`, whose message is one line naming the file, what is
wrong and what to do, and whose ``code`` names the reason for callers that branch on it.

Text must be UTF-8 (a BOM is dropped), or UTF-16/UTF-32 announced by a BOM; other encodings are
refused rather than guessed, so the model never reads mojibake. Line ends become ``\\n``.
"""

from __future__ import annotations

import codecs
import hashlib
import io
import logging
import re
import stat
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

MAX_DOCUMENT_MB = 32
MAX_DOCUMENT_BYTES = MAX_DOCUMENT_MB * 1024 * 1024
#: the most characters of text one document may give (a guard against a zip bomb DOCX / huge PDF)
MAX_DOCUMENT_CHARS = 20_000_000
#: the largest ``word/document.xml`` a DOCX may unpack to, checked before python-docx parses it
MAX_DOCX_XML_BYTES = 200 * 1024 * 1024
#: the most a DOCX may unpack to in all (python-docx loads every part into memory)
MAX_DOCX_UNPACKED_BYTES = 512 * 1024 * 1024

KINDS = ("text", "markdown", "code", "csv", "html", "pdf", "docx")

_DEFAULT_EXT = {
    "text": "txt",
    "markdown": "md",
    "code": "txt",
    "csv": "csv",
    "html": "html",
    "pdf": "pdf",
    "docx": "docx",
}
_EXT = re.compile(r"[a-z0-9]{1,10}")

_MARKDOWN_EXTS = frozenset({"md", "markdown", "mdown", "mkd", "mkdn"})
_CSV_EXTS = frozenset({"csv", "tsv"})
_HTML_EXTS = frozenset({"html", "htm", "xhtml"})
_CODE_EXTS = frozenset(
    {
        *("py", "pyi", "ipynb", "js", "mjs", "cjs", "ts", "tsx", "jsx", "vue", "svelte"),
        *("c", "h", "cpp", "hpp", "cc", "hh", "cxx", "hxx", "m", "mm", "cs", "java", "kt", "kts"),
        *("swift", "rs", "go", "rb", "php", "scala", "dart", "lua", "r", "pl", "pm", "hs", "ex"),
        *("exs", "erl", "clj", "cljs", "fs", "jl", "zig", "nim", "sh", "bash", "zsh", "fish"),
        *("ps1", "bat", "cmd", "sql", "json", "jsonl", "yaml", "yml", "toml", "ini", "cfg", "xml"),
        *("css", "scss", "sass", "less", "proto", "graphql", "tf", "cmake", "mk", "gradle", "tex"),
    }
)
_CODE_NAMES = frozenset({"makefile", "gnumakefile", "dockerfile", "containerfile", "cmakelists.txt"})

_PDF_MAGIC = b"%PDF-"
_ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
#: signatures of binary files that are not documents -> what the file is, for the message
_BINARY_MAGICS: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"),
    (b"\x00\x00\x01\x00", "an icon"),
    (b"\x7fELF", "a program (ELF)"),
    (b"\xcf\xfa\xed\xfe", "a program (Mach-O)"),
    (b"\xfe\xed\xfa\xcf", "a program (Mach-O)"),
    (b"\xca\xfe\xba\xbe", "a program (Mach-O or Java class)"),
    (b"\x00asm", "a WebAssembly module"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"\xfd7zXZ\x00", "an xz archive"),
    (b"\x28\xb5\x2f\xfd", "a Zstandard archive"),
    (b"Rar!\x1a\x07", "a RAR archive"),
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"OggS", "an audio or video file (Ogg)"),
    (b"fLaC", "an audio file (FLAC)"),
)
_IMAGE_MAGICS = frozenset({b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a"})

#: BOMs in the order they are tried (UTF-32 LE starts with the UTF-16 LE BOM, so it goes first)
_BOMS: tuple[tuple[bytes, str, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32", "UTF-32"),
    (codecs.BOM_UTF8, "utf-8-sig", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16", "UTF-16"),
)
#: the share of control characters above which decoded text counts as binary
_CONTROL_SHARE = 0.1
_CONTROL_SAMPLE = 65536
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f]")

_SNIFF_BYTES = 1024


class DocumentError(Exception):
    """One clear line for the user: what is wrong and what to do.

    ``code`` names the reason: too_large, empty, binary, encoding, encrypted, broken, no_text,
    unreadable, unsupported.
    """

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Page:
    #: 1-based page number for a PDF; None for kinds without pages
    number: int | None
    text: str


@dataclass(frozen=True)
class Document:
    #: the name the user sees (base name only, no directories)
    filename: str
    #: one of :data:`KINDS`
    kind: str
    #: hex SHA-256 of ``data``
    sha256: str
    #: the original bytes, kept so the file can be reopened
    data: bytes = field(repr=False)
    pages: tuple[Page, ...]

    @property
    def name(self) -> str:
        """The stored name, ``<sha256>.<ext>``: the file name's lowercased suffix when it is 1-10
        letters or digits, else the kind's usual one. A PDF or DOCX always gets ``pdf`` / ``docx``
        (its bytes decide what it is, and the stored copy must open as that)."""
        ext = _DEFAULT_EXT[self.kind]
        suffix = Path(self.filename).suffix[1:].lower()
        if self.kind not in ("pdf", "docx") and _EXT.fullmatch(suffix):
            ext = suffix
        return f"{self.sha256}.{ext}"

    @property
    def text(self) -> str:
        """The whole text, pages separated by a blank line."""
        return "\n\n".join(page.text for page in self.pages)

    @property
    def paged(self) -> bool:
        """Whether the pages are real pages with numbers (a PDF)."""
        return self.kind == "pdf"


def document_error_text(exc: DocumentError) -> str:
    """The line to show the user for ``exc``."""
    return str(exc)


def _base_name(filename: str) -> str:
    return filename.replace("\\", "/").rsplit("/", 1)[-1].strip() or "document"


def _suffix(name: str) -> str:
    return Path(name).suffix[1:].lower()


def _size_text(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f}".removesuffix(".0") + " MB"
    if n >= 1024:
        return f"{n / 1024:.1f}".removesuffix(".0") + " KB"
    return f"{n} bytes"


def _too_large(name: str, size: int) -> DocumentError:
    return DocumentError(
        f'"{name}" is {_size_text(size)}; Tandem reads documents up to {_size_text(MAX_DOCUMENT_BYTES)}: '
        "attach a smaller file, or split it",
        "too_large",
    )


def _binary(name: str, what: str = "a binary file") -> DocumentError:
    return DocumentError(f'"{name}" is {what}, not text; attach a text, PDF or DOCX file', "binary")


# --- what a file is --------------------------------------------------------------------------------


def _zip_names(data: bytes) -> list[str] | None:
    """The member names of a ZIP package, or None when it is not a readable one."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return archive.namelist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError):
        return None


def _zip_kind(name: str, data: bytes) -> str:
    """``docx`` for a Word package; every other ZIP package is refused with what it seems to be."""
    names = _zip_names(data)
    if names is not None and "word/document.xml" in names:
        return "docx"
    if _suffix(name) == "docx":
        reason = "it has no word/document.xml" if names is not None else "its ZIP structure is damaged"
        raise _broken_docx(name, reason)
    members = set(names or ())
    if "xl/workbook.xml" in members:
        what, advice = "an Excel workbook", "save it as CSV or PDF and attach that"
    elif "ppt/presentation.xml" in members:
        what, advice = "a PowerPoint presentation", "save it as PDF and attach that"
    elif "mimetype" in members and "content.xml" in members:
        what, advice = "an OpenDocument file", "save it as DOCX or PDF and attach that"
    elif "META-INF/container.xml" in members:
        what, advice = "an EPUB book", "convert it to PDF or text and attach that"
    else:
        what, advice = "a ZIP archive", "unpack it and attach the text, PDF or DOCX files inside"
    raise DocumentError(f'"{name}" is {what}, which Tandem does not read; {advice}', "unsupported")


def _sniff(name: str, data: bytes) -> str:
    """The kind by the bytes' signature first, then by the file name; raises for binary files."""
    head = data[:_SNIFF_BYTES]
    if head.startswith(_PDF_MAGIC):
        return "pdf"
    if head.startswith(_ZIP_MAGICS):
        return _zip_kind(name, data)
    if head.startswith(_OLE_MAGIC):
        raise DocumentError(
            f'"{name}" is an old Microsoft Office file (.doc, .xls or .ppt), which Tandem does not read; '
            "save it as DOCX or PDF and attach that",
            "unsupported",
        )
    if head.startswith(b"{\\rtf"):
        raise DocumentError(
            f'"{name}" is an RTF document, which Tandem does not read; save it as DOCX, PDF or plain '
            "text and attach that",
            "unsupported",
        )
    for magic, what in _BINARY_MAGICS:
        if head.startswith(magic):
            if magic in _IMAGE_MAGICS:
                raise DocumentError(
                    f'"{name}" is {what}, not text; attach it as an image, or attach a text, PDF or '
                    "DOCX file",
                    "binary",
                )
            raise _binary(name, what)
    if head.startswith(b"MZ") and b"\x00" in head[2:64]:
        raise _binary(name, "a Windows program")

    ext = _suffix(name)
    if ext == "pdf":
        return "pdf"
    if ext == "docx":
        raise _broken_docx(name, "it is not a ZIP package")
    if ext in _MARKDOWN_EXTS:
        return "markdown"
    if ext in _CSV_EXTS:
        return "csv"
    if ext in _HTML_EXTS:
        return "html"
    if ext in _CODE_EXTS or name.lower() in _CODE_NAMES:
        return "code"
    return "text"


def kind_of(filename: str, data: bytes) -> str:
    """What ``data`` is (one of :data:`KINDS`), judged by its signature first and then by the name
    ``filename``; raises :class:`DocumentError` ("binary", "unsupported", "broken" for a ``.docx``
    that is no Word package, "encoding") when it is none of them."""
    name = _base_name(filename)
    kind = _sniff(name, data)
    if kind not in ("pdf", "docx"):
        _decode(name, data)
    return kind


# --- text ------------------------------------------------------------------------------------------


def _looks_binary(text: str) -> bool:
    sample = text[:_CONTROL_SAMPLE]
    return "\x00" in sample or len(_CONTROL.findall(sample)) > _CONTROL_SHARE * len(sample)


def _normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _decode(name: str, data: bytes) -> str:
    """``data`` as text: UTF-8, or UTF-16/UTF-32 when a BOM says so."""
    for bom, codec, label in _BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(codec)
            except UnicodeDecodeError:
                if codec == "utf-32":
                    continue  # a UTF-16 LE file whose first character is U+0000 starts the same
                raise DocumentError(
                    f'"{name}" starts with a {label} byte order mark but is not valid {label} text; '
                    "save it as UTF-8 and attach it again",
                    "encoding",
                ) from None
            break
    else:
        if b"\x00" in data:
            raise _binary(name)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            if _looks_binary(data[:_CONTROL_SAMPLE].decode("latin-1")):
                raise _binary(name) from None
            raise DocumentError(
                f'"{name}" is not UTF-8 text; save it as UTF-8 and attach it again', "encoding"
            ) from None
    if _looks_binary(text):
        raise _binary(name)
    return _normalise_newlines(text)


# --- HTML ------------------------------------------------------------------------------------------

#: elements whose content is never text for the reader
_HTML_SKIP = frozenset({"script", "style", "template", "noscript"})
#: elements that start and end a paragraph (a blank line around them)
_HTML_PARAGRAPH = frozenset(
    {"p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table", "ul", "ol", "dl", "hr"}
    | {"section", "article", "header", "footer", "main", "nav", "aside", "figure", "form", "details"}
)
#: elements that start and end a line
_HTML_LINE = frozenset(
    {"br", "div", "li", "tr", "dt", "dd", "caption", "figcaption", "summary", "address", "body"}
    | {"fieldset", "legend", "dialog", "option", "thead", "tbody", "tfoot"}
)


class _HtmlText(HTMLParser):
    """The readable text of an HTML page: block elements break lines (paragraph-like ones leave a
    blank line), list items start with ``- ``, table cells are separated by `` | `` and stay on their
    row's line, whitespace collapses to one space outside ``<pre>``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title = ""
        self._parts: list[str] = []
        self._newlines = 2  # line ends at the end of the text so far; the start counts as a blank line
        self._fresh = True  # at a line's start or just after a "- " / " | ": no space goes first
        self._space = False  # whitespace seen since the last word, written before the next one
        self._skip = 0
        self._pre = 0
        self._in_head = False
        self._in_title = False
        self._in_cell = False
        self._cells = 0  # cells started in the current table row

    def _write(self, text: str) -> None:
        if text:
            self._parts.append(text)
            stripped = text.rstrip("\n")
            ends = len(text) - len(stripped)
            self._newlines = self._newlines + ends if not stripped else ends
            self._fresh = ends > 0

    def _marker(self, text: str) -> None:
        self._write(text)
        self._fresh, self._space = True, False

    def _break(self, blank: bool) -> None:
        """Ends the line (``blank``: and leaves a blank line), counting the line ends already there;
        inside a table cell it is a space, so the row stays on one line."""
        if self._in_cell:
            self._space = True
            return
        self._write("\n" * max(0, (2 if blank else 1) - self._newlines))
        self._fresh, self._space = True, False

    def _block(self, tag: str) -> None:
        if tag in _HTML_PARAGRAPH:
            self._break(blank=True)
        elif tag in _HTML_LINE:
            self._break(blank=False)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HTML_SKIP:
            self._skip += 1
        elif tag == "head":
            self._in_head = True
        elif tag == "body":
            self._in_head = False
        elif tag == "title":
            self._in_title = True
        if self._skip or self._in_head:
            return
        if tag in ("table", "tr"):
            # an end tag of a cell may be left out; a new row or table ends the cell
            self._in_cell, self._cells = False, 0
        elif tag in ("td", "th"):
            self._in_cell = False
            if self._cells:
                self._marker(" | ")
            self._cells += 1
        self._block(tag)
        if tag == "pre":
            self._pre += 1
        elif tag == "li":
            self._marker("- ")
        elif tag in ("td", "th"):
            self._in_cell = True

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _HTML_SKIP and tag not in ("head", "title"):
            self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in _HTML_SKIP:
            self._skip = max(0, self._skip - 1)
            return
        if tag == "head":
            self._in_head = False
        elif tag == "title":
            self._in_title = False
        if self._skip or self._in_head:
            return
        if tag in ("td", "th", "tr", "table"):
            self._in_cell = False
        if tag == "pre":
            self._pre = max(0, self._pre - 1)
        self._block(tag)

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._in_title:
            self.title += data
            return
        if self._in_head or not data:
            return
        if self._pre:
            self._write(data)
            self._space = False
            return
        words = data.split()
        if data[0].isspace():
            self._space = True
        if words:
            self._write((" " if self._space and not self._fresh else "") + " ".join(words))
            self._space = data[-1].isspace()

    def text(self) -> str:
        lines = [line.rstrip() for line in "".join(self._parts).split("\n")]
        return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")


def _html_text(source: str) -> str:
    parser = _HtmlText()
    parser.feed(source)
    parser.close()
    body = parser.text()
    title = " ".join(parser.title.split())
    if title and not body.startswith(title):
        return f"{title}\n\n{body}" if body else title
    return body


# --- PDF -------------------------------------------------------------------------------------------


class _QuietLogger:
    """Raises a logger's level to ERROR while any reader needs it quiet, then restores it; counted,
    so reads in several threads at once leave the level as they found it."""

    def __init__(self, name: str) -> None:
        self._logger = logging.getLogger(name)
        self._lock = threading.Lock()
        self._users = 0
        self._saved = logging.NOTSET

    @contextmanager
    def __call__(self) -> Iterator[None]:
        with self._lock:
            if self._users == 0:
                self._saved = self._logger.level
                self._logger.setLevel(logging.ERROR)
            self._users += 1
        try:
            yield
        finally:
            with self._lock:
                self._users -= 1
                if self._users == 0:
                    self._logger.setLevel(self._saved)


#: pypdf warns through the "pypdf" logger about every irregularity it repairs
_quiet_pypdf = _QuietLogger("pypdf")


def _short_reason(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    reason = lines[0].strip() if lines else ""
    if len(reason) > 100:
        reason = reason[:97].rstrip() + "..."
    return reason or type(exc).__name__


def _broken_pdf(name: str, reason: str) -> DocumentError:
    return DocumentError(
        f'"{name}" is not a readable PDF ({reason}); open it in a PDF viewer, save or print it as a '
        "new PDF and attach that",
        "broken",
    )


def _encrypted_pdf(name: str) -> DocumentError:
    return DocumentError(
        f'"{name}" is protected by a password; remove the protection and attach it again', "encrypted"
    )


def _read_pdf(name: str, data: bytes) -> tuple[Page, ...]:
    if _PDF_MAGIC not in data[:_SNIFF_BYTES]:
        raise _broken_pdf(name, "it has no PDF header")
    from pypdf import PasswordType, PdfReader
    from pypdf.errors import DependencyError

    pages: list[Page] = []
    total = 0
    with _quiet_pypdf():
        try:
            reader = PdfReader(io.BytesIO(data))
            encrypted = reader.is_encrypted
        except Exception as exc:  # pypdf raises many kinds of errors on damaged files
            raise _broken_pdf(name, _short_reason(exc)) from exc
        if encrypted:
            try:
                opened = reader.decrypt("") != PasswordType.NOT_DECRYPTED
            except DependencyError as exc:
                raise DocumentError(
                    f'"{name}" is encrypted in a way Tandem cannot undo here ({_short_reason(exc)}); '
                    "save or print it as an unprotected PDF and attach that",
                    "encrypted",
                ) from exc
            except Exception as exc:
                raise _broken_pdf(name, _short_reason(exc)) from exc
            if not opened:
                raise _encrypted_pdf(name)
        try:
            for number, page in enumerate(reader.pages, start=1):
                text = _normalise_newlines(page.extract_text()).strip()
                total += len(text)
                if total > MAX_DOCUMENT_CHARS:
                    break
                pages.append(Page(number, text))
        except Exception as exc:
            raise _broken_pdf(name, _short_reason(exc)) from exc
    if total > MAX_DOCUMENT_CHARS:
        raise _too_many_chars(name)
    if not pages:
        raise _broken_pdf(name, "it has no pages")
    if not any(page.text.strip() for page in pages):
        raise DocumentError(
            f'"{name}" has no text layer (a scanned PDF?); Tandem does not read text from images: '
            "attach a PDF with text, or its text",
            "no_text",
        )
    return tuple(pages)


# --- DOCX ------------------------------------------------------------------------------------------


def _broken_docx(name: str, reason: str) -> DocumentError:
    return DocumentError(
        f'"{name}" is not a readable DOCX file ({reason}); open it in Word or LibreOffice, save it as '
        "DOCX and attach it again",
        "broken",
    )


def _check_docx_size(name: str, data: bytes) -> None:
    """Refuses a DOCX that would unpack to too much, by the sizes its ZIP directory declares (a
    member is never read past its declared size)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
            main = archive.getinfo("word/document.xml")
    except KeyError:
        raise _broken_docx(name, "it has no word/document.xml") from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        raise _broken_docx(name, _short_reason(exc)) from exc
    unpacked = sum(member.file_size for member in members)
    if main.file_size > MAX_DOCX_XML_BYTES or unpacked > MAX_DOCX_UNPACKED_BYTES:
        raise DocumentError(
            f'"{name}" unpacks to {_size_text(max(main.file_size, unpacked))}, more than Tandem reads '
            f"({_size_text(MAX_DOCX_XML_BYTES)} of text, {_size_text(MAX_DOCX_UNPACKED_BYTES)} in all); "
            "attach a smaller document, or split it",
            "too_large",
        )


def _read_docx(name: str, data: bytes) -> str:
    _check_docx_size(name, data)
    import docx
    from docx.table import Table

    lines: list[str] = []
    try:
        document = docx.Document(io.BytesIO(data))
        for block in document.iter_inner_content():
            if isinstance(block, Table):
                if lines and lines[-1]:
                    lines.append("")  # a table stands apart from the paragraphs, as on the page
                for row in block.rows:
                    cells: list[str] = []
                    previous: object = None
                    for cell in row.cells:
                        # a merged cell is listed once for every grid column it spans
                        if cell._tc is not previous:
                            cells.append(" ".join(cell.text.split()))
                        previous = cell._tc
                    lines.append(" | ".join(cells))
                lines.append("")
            else:
                lines.append(block.text)
    except Exception as exc:  # python-docx and lxml raise many kinds of errors on damaged files
        raise _broken_docx(name, _short_reason(exc)) from exc
    text = _normalise_newlines("\n".join(line.rstrip() for line in lines))
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")


# --- the entry points ------------------------------------------------------------------------------


def _too_many_chars(name: str) -> DocumentError:
    return DocumentError(
        f'"{name}" holds more than {MAX_DOCUMENT_CHARS:,} characters of text; attach a shorter '
        "document, or a part of it",
        "too_large",
    )


def read_document(filename: str, data: bytes) -> Document:
    """The document in ``data``, called ``filename`` (only its base name is kept); raises
    :class:`DocumentError` when it is too large, empty, binary, not UTF-8, protected, damaged, has
    no text layer, or of a kind Tandem does not read."""
    name = _base_name(filename)
    if len(data) > MAX_DOCUMENT_BYTES:
        raise _too_large(name, len(data))
    if not data:
        raise DocumentError(f'"{name}" is empty; attach a file with text in it', "empty")
    kind = _sniff(name, data)
    if kind == "pdf":
        pages = _read_pdf(name, data)
    elif kind == "docx":
        pages = (Page(None, _read_docx(name, data)),)
    else:
        text = _decode(name, data)
        if kind == "html":
            text = _html_text(text)
        pages = (Page(None, text),)
    if sum(len(page.text) for page in pages) > MAX_DOCUMENT_CHARS:
        raise _too_many_chars(name)
    if not any(page.text.strip() for page in pages):
        raise DocumentError(f'"{name}" has no text in it; attach a file with text in it', "empty")
    return Document(name, kind, hashlib.sha256(data).hexdigest(), data, pages)


def read_document_file(path: Path) -> Document:
    """:func:`read_document` of the file at ``path``; its size is checked before it is read."""
    name = _base_name(path.name)
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise DocumentError(
                f'"{name}" cannot be read (it is not a regular file); attach a file', "unreadable"
            )
        if info.st_size > MAX_DOCUMENT_BYTES:
            raise _too_large(name, info.st_size)
        with path.open("rb") as file:
            data = file.read(MAX_DOCUMENT_BYTES + 1)  # a file that grew since stat() is still bounded
    except OSError as exc:
        raise DocumentError(
            f'"{name}" cannot be read ({exc.strerror or _short_reason(exc)}); check that the file exists '
            "and can be opened, then attach it again",
            "unreadable",
        ) from exc
    return read_document(name, data)
