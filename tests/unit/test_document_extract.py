"""Reading an attached document's text (app/core/documents/extract.py) from real files: text in its
encodings, Markdown, code, CSV, HTML, PDF (app/devtools/pdf.py writes them) and DOCX, and every way
a file is refused, each with one line that names the file and says what to do."""

from __future__ import annotations

import hashlib
import io
import logging
import random
import re
import zipfile
from pathlib import Path

import pytest

from app.core.documents import extract
from app.core.documents.extract import (
    Document,
    DocumentError,
    Page,
    document_error_text,
    kind_of,
    read_document,
    read_document_file,
)
from app.devtools.images import image_bytes
from app.devtools.pdf import docx_bytes, encrypted_pdf_bytes, image_only_pdf_bytes, pdf_bytes


def _refused(filename: str, data: bytes) -> DocumentError:
    with pytest.raises(DocumentError) as caught:
        read_document(filename, data)
    return caught.value


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


# --- text kinds ------------------------------------------------------------------------------------


def test_utf8_text_gives_one_page_with_its_words_and_a_stored_name() -> None:
    data = b"Quokka marmalade\r\nzebra crossing\rthird line\n"
    doc = read_document("notes.TXT", data)
    assert doc.kind == "text" and doc.filename == "notes.TXT"
    assert doc.pages == (Page(None, "Quokka marmalade\nzebra crossing\nthird line\n"),)
    assert doc.text == doc.pages[0].text and not doc.paged
    assert doc.data == data and doc.sha256 == hashlib.sha256(data).hexdigest()
    assert doc.name == f"{doc.sha256}.txt"  # the suffix, lowercased
    assert re.fullmatch(r"[0-9a-f]{64}\.txt", doc.name)


@pytest.mark.parametrize(
    ("filename", "ext"),
    [("README", "txt"), ("weird.name.!!", "txt"), ("data.verylongsuffix", "txt"), ("a.Log", "log")],
)
def test_the_stored_name_takes_a_plain_suffix_or_the_kinds_own(filename: str, ext: str) -> None:
    doc = read_document(filename, b"some words")
    assert doc.name == f"{doc.sha256}.{ext}"


def test_only_the_base_name_is_kept() -> None:
    assert read_document("/home/me/docs/plan.md", b"# Plan").filename == "plan.md"
    assert read_document("C:\\Users\\me\\plan.md", b"# Plan").filename == "plan.md"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-8-sig"])
def test_a_bom_announces_utf16_utf32_and_is_dropped(encoding: str) -> None:
    text = "Grüße aus Köln: naïve café, 東京\r\nsecond line"
    bom = {"utf-16-be": b"\xfe\xff"}.get(encoding, b"")
    doc = read_document("greeting.txt", bom + text.encode(encoding))
    assert doc.text == "Grüße aus Köln: naïve café, 東京\nsecond line"


def test_markdown_code_and_csv_are_kept_as_written() -> None:
    md = read_document("guide.markdown", b"# Title\n\n- item *one*\n")
    assert (md.kind, md.text, md.name.rsplit(".", 1)[1]) == (
        "markdown",
        "# Title\n\n- item *one*\n",
        "markdown",
    )
    code = read_document("tool.py", b"def f(x):\n    return x  # indentation kept\n")
    assert code.kind == "code" and code.text == "def f(x):\n    return x  # indentation kept\n"
    assert read_document("Makefile", b"all:\n\tcc main.c\n").kind == "code"
    table = 'name,age\r\n"Smith, Jo",42\r\n'
    csv = read_document("people.csv", table.encode())
    assert csv.kind == "csv" and csv.text == 'name,age\n"Smith, Jo",42\n'
    assert read_document("people.tsv", b"a\tb\n1\t2\n").kind == "csv"


def test_html_gives_readable_text_without_scripts_styles_or_head() -> None:
    page = b"""<!DOCTYPE html><html><head><title>Pelican  Report</title>
    <style>body { color: red }</style><meta charset="utf-8"><script>var hidden = "xylophone";</script>
    </head><body><h1>Findings</h1><p>Fish &amp; chips cost &pound;5 &lt;today&gt;.</p>
    <script type="module">alert("nope")</script>
    <ul><li>first point</li><li>second point</li></ul>
    <table><tr><th>Name</th><th>Size</th></tr><tr><td>Ann</td><td>3</td></tr></table>
    <div>line<br>break</div><pre>  keep   this
      spacing</pre><noscript>enable javascript</noscript></body></html>"""
    doc = read_document("report.html", page)
    assert doc.kind == "html"
    text = doc.text
    assert text.startswith("Pelican Report\n\nFindings\n\nFish & chips cost £5 <today>.")
    for gone in ("xylophone", "color", "alert", "charset", "javascript", "<", "&amp;"):
        assert gone not in text.replace("<today>", "")
    assert "- first point\n- second point" in text
    assert "Name | Size\nAnn | 3" in text
    assert "line\nbreak" in text
    assert "  keep   this\n      spacing" in text
    assert "\n\n\n" not in text


# --- PDF -------------------------------------------------------------------------------------------


def test_a_multi_page_pdf_gives_numbered_pages_with_their_words() -> None:
    texts = [
        "Aardvark opening page. " + "The quick brown fox jumps over the lazy dog. " * 8,
        "Second page mentions a brontosaurus (and a backslash \\ too).",
        "Third page: café crème, the last one.",
    ]
    data = pdf_bytes(texts, title="Field notes")
    doc = read_document("notes.pdf", data)
    assert doc.kind == "pdf" and doc.paged
    assert [page.number for page in doc.pages] == [1, 2, 3]
    assert "Aardvark opening page." in doc.pages[0].text
    assert doc.pages[0].text.count("lazy dog") == 8
    assert "brontosaurus (and a backslash \\ too)." in doc.pages[1].text
    assert "café crème" in doc.pages[2].text
    assert doc.text == "\n\n".join(page.text for page in doc.pages)
    assert doc.name == f"{doc.sha256}.pdf"


def test_the_generated_pdf_reads_without_pypdf_warnings(caplog: pytest.LogCaptureFixture) -> None:
    from pypdf import PdfReader

    caplog.set_level(logging.DEBUG, logger="pypdf")
    data = pdf_bytes(["one two three", "four five"], title="Tandem (test)")
    reader = PdfReader(io.BytesIO(data), strict=True)
    assert [page.extract_text() for page in reader.pages] == ["one two three", "four five"]
    assert reader.metadata is not None and reader.metadata.title == "Tandem (test)"
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_pdf_is_known_by_its_bytes_whatever_its_name() -> None:
    doc = read_document("renamed.txt", pdf_bytes(["hidden pdf content"]))
    assert doc.kind == "pdf" and doc.text == "hidden pdf content"
    assert doc.name.endswith(".pdf")  # the stored copy opens as what it is


def test_a_cut_short_pdf_is_broken() -> None:
    data = pdf_bytes(["first page words", "second page words"])
    error = _refused("cut.pdf", data[: len(data) // 2])
    assert error.code == "broken"
    assert str(error).startswith('"cut.pdf" is not a readable PDF (')


def test_garbage_named_pdf_is_broken_for_want_of_a_pdf_header() -> None:
    garbage = random.Random(7).randbytes(4096)
    error = _refused("scan.pdf", garbage)
    assert error.code == "broken"
    assert "(it has no PDF header)" in str(error)


def test_a_pdf_header_over_garbage_is_broken() -> None:
    error = _refused("bad.pdf", b"%PDF-1.7\n" + random.Random(8).randbytes(4096))
    assert error.code == "broken"


def test_a_password_protected_pdf_is_refused() -> None:
    error = _refused("secret.pdf", encrypted_pdf_bytes("classified words", password="hunter2"))
    assert error.code == "encrypted"
    assert str(error) == (
        '"secret.pdf" is protected by a password; remove the protection and attach it again'
    )


def test_an_encrypted_pdf_that_opens_without_a_password_is_read() -> None:
    doc = read_document("open.pdf", encrypted_pdf_bytes("readable despite encryption", password=""))
    assert doc.pages == (Page(1, "readable despite encryption"),)


def test_a_pdf_of_pictures_only_has_no_text_layer() -> None:
    error = _refused("scan.pdf", image_only_pdf_bytes(3))
    assert error.code == "no_text"
    assert "no text layer" in str(error)


def test_reading_a_pdf_leaves_the_pypdf_logger_as_it_was() -> None:
    logger = logging.getLogger("pypdf")
    before = logger.level
    read_document("a.pdf", pdf_bytes(["words"]))
    with pytest.raises(DocumentError):
        read_document("b.pdf", b"%PDF-1.4\n" + random.Random(1).randbytes(2000))
    assert logger.level == before


# --- DOCX ------------------------------------------------------------------------------------------


def test_docx_paragraphs_and_table_rows_in_order() -> None:
    data = docx_bytes(
        ["Heliotrope introduction.", "", "Second paragraph, with Ümlauts."],
        table=[["City", "Population"], ["Oslo", "709000"]],
    )
    assert kind_of("report.docx", data) == "docx"
    doc = read_document("report.docx", data)
    assert doc.kind == "docx" and not doc.paged and doc.pages[0].number is None
    assert doc.text == (
        "Heliotrope introduction.\n\nSecond paragraph, with Ümlauts.\n\nCity | Population\nOslo | 709000"
    )
    assert doc.name == f"{doc.sha256}.docx"


def test_a_merged_docx_cell_is_read_once() -> None:
    import docx

    document = docx.Document()
    document.add_paragraph("Before the table")
    grid = document.add_table(rows=2, cols=3)
    grid.cell(0, 0).merge(grid.cell(0, 1)).text = "wide"
    grid.cell(0, 2).text = "right"
    for column, value in enumerate(["x", "y", "z"]):
        grid.cell(1, column).text = value
    document.add_paragraph("After the table")
    out = io.BytesIO()
    document.save(out)
    text = read_document("merged.docx", out.getvalue()).text
    assert text == "Before the table\n\nwide | right\nx | y | z\n\nAfter the table"


def test_a_docx_named_zip_without_a_document_part_is_broken() -> None:
    error = _refused("letter.docx", _zip({"hello.txt": b"not word"}))
    assert error.code == "broken"
    assert "no word/document.xml" in str(error)


def test_a_docx_that_is_no_zip_is_broken() -> None:
    assert _refused("letter.docx", b"plain words, no zip").code == "broken"


def test_a_docx_whose_parts_are_not_word_xml_is_broken() -> None:
    data = _zip({"word/document.xml": b"<not really xml", "[Content_Types].xml": b"<nope"})
    assert _refused("odd.docx", data).code == "broken"


def test_a_docx_that_unpacks_too_far_is_too_large(monkeypatch: pytest.MonkeyPatch) -> None:
    data = docx_bytes(["padding " * 5000])
    monkeypatch.setattr(extract, "MAX_DOCX_XML_BYTES", 10_000)
    error = _refused("bomb.docx", data)
    assert error.code == "too_large"


def test_other_zip_packages_are_unsupported() -> None:
    plain = _refused("bundle.zip", _zip({"a.txt": b"a"}))
    assert plain.code == "unsupported" and "unpack it" in str(plain)
    sheet = _refused("sheet.xlsx", _zip({"xl/workbook.xml": b"<workbook/>"}))
    assert sheet.code == "unsupported" and "Excel workbook" in str(sheet)


def test_an_old_word_file_is_unsupported() -> None:
    error = _refused("old.doc", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600)
    assert error.code == "unsupported" and "DOCX" in str(error)


# --- refusals --------------------------------------------------------------------------------------


def test_an_image_named_txt_is_binary() -> None:
    error = _refused("notes.txt", image_bytes())
    assert error.code == "binary"
    assert str(error).startswith('"notes.txt" is a PNG image, not text;')


def test_bytes_with_nuls_or_controls_are_binary() -> None:
    assert _refused("prog.txt", b"\x7fELF\x02\x01\x01" + b"\x00" * 100).code == "binary"
    assert _refused("data.txt", b"abc\x00def").code == "binary"
    error = _refused("ctl.txt", bytes(range(1, 9)) * 50)
    assert error.code == "binary"
    assert str(error) == '"ctl.txt" is a binary file, not text; attach a text, PDF or DOCX file'
    with pytest.raises(DocumentError, match="binary file"):
        kind_of("data.txt", b"abc\x00def")


def test_latin1_text_is_refused_as_not_utf8() -> None:
    error = _refused("lettre.txt", "Café crème, déjà vu à Noël".encode("latin-1"))
    assert error.code == "encoding"
    assert str(error) == '"lettre.txt" is not UTF-8 text; save it as UTF-8 and attach it again'


def test_over_the_size_limit_is_too_large(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(extract, "MAX_DOCUMENT_BYTES", 100)
    error = _refused("big.txt", b"x" * 101)
    assert error.code == "too_large"
    assert str(error).startswith('"big.txt" is 101 bytes; Tandem reads documents up to 100 bytes')
    assert read_document("fits.txt", b"x" * 100).text == "x" * 100


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(extract, "MAX_DOCUMENT_BYTES", 1024)
    path = tmp_path / "huge.md"
    path.write_bytes(b"# big\n" * 1000)
    with pytest.raises(DocumentError) as caught:
        read_document_file(path)
    assert caught.value.code == "too_large" and "huge.md" in str(caught.value)


def test_too_many_characters_is_too_large(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(extract, "MAX_DOCUMENT_CHARS", 50)
    assert _refused("long.txt", b"y" * 51).code == "too_large"
    assert _refused("long.pdf", pdf_bytes(["word " * 20, "more " * 20])).code == "too_large"


def test_empty_and_blank_files_are_empty() -> None:
    assert _refused("nothing.txt", b"").code == "empty"
    assert _refused("blank.md", b"  \r\n\t \n").code == "empty"
    assert _refused("blank.html", b"<html><head><title></title></head><body> </body></html>").code == "empty"
    assert _refused("blank.docx", docx_bytes(["", "   "])).code == "empty"


def test_read_document_file_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "paper.pdf"
    path.write_bytes(pdf_bytes(["on disk"]))
    doc = read_document_file(path)
    assert (doc.filename, doc.kind, doc.text) == ("paper.pdf", "pdf", "on disk")


def test_a_missing_file_or_a_folder_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(DocumentError) as caught:
        read_document_file(tmp_path / "gone.txt")
    assert caught.value.code == "unreadable"
    assert str(caught.value).startswith('"gone.txt" cannot be read (No such file or directory)')
    with pytest.raises(DocumentError) as caught:
        read_document_file(tmp_path)
    assert caught.value.code == "unreadable"


def test_kind_of_sniffs_before_it_trusts_the_name() -> None:
    assert kind_of("a.md", b"# hi") == "markdown"
    assert kind_of("a.htm", b"<p>hi</p>") == "html"
    assert kind_of("a.rs", b"fn main() {}") == "code"
    assert kind_of("a.log", b"plain") == "text"
    assert kind_of("a.md", pdf_bytes(["x"])) == "pdf"
    assert kind_of("a.bin", docx_bytes(["x"])) == "docx"
    with pytest.raises(DocumentError) as caught:
        kind_of("a.md", image_bytes(fmt="JPEG"))
    assert caught.value.code == "binary"
    with pytest.raises(DocumentError) as caught:
        kind_of("a.txt", "é".encode("latin-1"))
    assert caught.value.code == "encoding"


@pytest.mark.parametrize(
    ("filename", "data", "code"),
    [
        ("a.txt", b"", "empty"),
        ("b.txt", b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, "binary"),
        ("c.txt", "é".encode("latin-1"), "encoding"),
        ("d.pdf", b"junk", "broken"),
        ("e.zip", b"PK\x05\x06" + b"\x00" * 18, "unsupported"),
        ("f.gz", b"\x1f\x8b\x08" + b"\x00" * 20, "binary"),
        ("g.txt", b"\xff\xfe\x00\xd8", "encoding"),  # a UTF-16 BOM before a lone surrogate
    ],
)
def test_every_message_is_one_line_that_starts_with_the_file_name(
    filename: str, data: bytes, code: str
) -> None:
    error = _refused(filename, data)
    assert error.code == code
    message = document_error_text(error)
    assert message == str(error) and "\n" not in message
    assert message.startswith(f'"{filename}" ')
    assert ";" in message  # what is wrong; what to do


def test_documents_are_values() -> None:
    one = read_document("x.txt", b"same")
    assert one == read_document("x.txt", b"same")
    assert isinstance(one, Document) and "data=" not in repr(one)
