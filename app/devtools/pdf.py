"""Real PDF and DOCX files for the tests and benchmarks, made here (no network, nothing committed).

:func:`pdf_bytes` writes a PDF 1.4 file by hand: one page per string, the text set in the standard
Helvetica font (Type1, WinAnsiEncoding) as a real text layer, with an exact cross-reference table, so
pypdf reads it without a warning and ``page.extract_text()`` gives the words back.
:func:`image_only_pdf_bytes` draws only filled shapes (a stand-in for a scanned PDF: no text layer),
:func:`encrypted_pdf_bytes` protects a :func:`pdf_bytes` file with a password (RC4-128, which pypdf
does without the ``cryptography`` package), and :func:`docx_bytes` writes a Word file with
python-docx.
"""

from __future__ import annotations

import hashlib
import io
import textwrap
from collections.abc import Sequence

#: characters per line of text on a page
LINE_CHARS = 90

_PAGE_WIDTH, _PAGE_HEIGHT = 612, 792  # US Letter, in points
_MARGIN = 56
_FONT_SIZE = 10
_LEADING = 13  # points from one baseline to the next


def _pdf_string(text: str) -> bytes:
    """``text`` as a PDF literal string in WinAnsiEncoding: ``(``, ``)`` and ``\\`` escaped, every
    byte outside printable ASCII written as an octal escape, characters cp1252 lacks as ``?``."""
    out = bytearray(b"(")
    for byte in text.encode("cp1252", errors="replace"):
        if byte in b"()\\":
            out += b"\\" + bytes([byte])
        elif 32 <= byte < 127:
            out.append(byte)
        else:
            out += b"\\%03o" % byte
    out += b")"
    return bytes(out)


def _lines(text: str) -> list[str]:
    """``text`` wrapped at :data:`LINE_CHARS`; its own line breaks are kept, blank lines too."""
    lines: list[str] = []
    for paragraph in text.splitlines():
        lines.extend(textwrap.wrap(paragraph, LINE_CHARS) or [""])
    return lines


def _text_stream(text: str) -> bytes:
    """A content stream that sets ``text`` line by line from the page's top left corner; lines past
    the bottom margin run off the visible page but stay in the text layer."""
    ops = [b"BT", b"/F1 %d Tf" % _FONT_SIZE, b"%d %d Td" % (_MARGIN, _PAGE_HEIGHT - _MARGIN)]
    for i, line in enumerate(_lines(text)):
        if i:
            ops.append(b"0 %d Td" % -_LEADING)
        if line:
            ops.append(_pdf_string(line) + b" Tj")
    ops.append(b"ET")
    return b"\n".join(ops) + b"\n"


def _shapes_stream(seed: int) -> bytes:
    """A content stream of filled rectangles and a filled path, with no text operator."""
    shift = 20 * (seed % 5)
    return b"\n".join(
        [
            b"0.85 0.85 0.85 rg",
            b"0 0 %d %d re f" % (_PAGE_WIDTH, _PAGE_HEIGHT),
            b"0.1 0.1 0.1 rg",
            b"%d 600 300 14 re f" % (72 + shift),
            b"%d 570 260 14 re f" % (72 + shift),
            b"0.3 0.4 0.7 rg",
            b"100 100 m 300 220 l 220 400 l h f",
            b"",
        ]
    )


def _write(contents: Sequence[bytes], *, with_font: bool, title: str | None) -> bytes:
    """A whole PDF file with one page per content stream: catalog, page tree, the font, the pages
    and their streams, the document information, the cross-reference table and the trailer."""
    n = len(contents)
    if n < 1:
        raise ValueError("a PDF needs at least one page")
    # object numbers: 1 catalog, 2 page tree, 3 font, then a page and its content stream per page,
    # then the information dictionary
    first_page = 4
    page_numbers = [first_page + 2 * i for i in range(n)]
    info_number = first_page + 2 * n
    resources = b"<< /Font << /F1 3 0 R >> >>" if with_font else b"<< >>"

    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % p for p in page_numbers), n),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    for number, stream in zip(page_numbers, contents, strict=True):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Resources %s /Contents %d 0 R >>"
            % (_PAGE_WIDTH, _PAGE_HEIGHT, resources, number + 1)
        )
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
    info = b"<< /Producer (Tandem devtools)"
    if title is not None:
        info += b" /Title " + _pdf_string(title)
    objects.append(info + b" >>")
    assert len(objects) == info_number

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")  # the binary comment marks the file as binary
    offsets: list[int] = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref_at = len(out)
    # each cross-reference entry is exactly 20 bytes, its end of line included
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    file_id = hashlib.md5(bytes(out), usedforsecurity=False).hexdigest().encode()
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R /ID [<%s> <%s>] >>\n" % (
        len(objects) + 1,
        info_number,
        file_id,
        file_id,
    )
    out += b"startxref\n%d\n%%%%EOF\n" % xref_at
    return bytes(out)


def pdf_bytes(pages: Sequence[str], *, title: str | None = None) -> bytes:
    """A PDF with one page per string of ``pages``, its text wrapped at :data:`LINE_CHARS` characters
    a line (about 50 lines fit a page); ``title`` goes into the document information."""
    return _write([_text_stream(text) for text in pages], with_font=True, title=title)


def image_only_pdf_bytes(n_pages: int = 1) -> bytes:
    """A PDF of ``n_pages`` pages that only paint shapes: no text operator, no font."""
    return _write([_shapes_stream(i) for i in range(n_pages)], with_font=False, title=None)


def encrypted_pdf_bytes(text: str, password: str = "secret") -> bytes:
    """A one-page :func:`pdf_bytes` PDF encrypted with RC4-128 for the user password ``password``
    (``""`` gives a file that opens without one); the owner password differs from it."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_bytes([text]))))
    writer.encrypt(user_password=password, owner_password=password + "-owner", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def docx_bytes(paragraphs: Sequence[str], table: Sequence[Sequence[str]] | None = None) -> bytes:
    """A Word document of ``paragraphs`` followed by ``table`` (rows of cell texts), if given."""
    import docx

    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    if table:
        columns = max(len(row) for row in table)
        grid = document.add_table(rows=len(table), cols=columns)
        for row, cells in zip(grid.rows, table, strict=True):
            for cell, value in zip(row.cells, cells, strict=False):
                cell.text = value
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()
