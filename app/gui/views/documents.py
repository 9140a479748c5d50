"""Documents in the chat: chips in the composer and on messages, an answer's sources, a passage's
dialog, and the one line a refused document gets.

A chip shows a document's icon, file name and facts (kind, pages, size), or that it is being
read; in the composer its × removes it, on a message a click opens the stored copy. An answer
that was given documents lists them under its text ("Sources (N)", collapsed): each source's file,
page and first line; a click shows the passage, with a button to open its document. Opening is a
signal here: the controller copies the stored file under its own name and hands it to the system
(:func:`open_copy`).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QSize, Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core import paths
from app.core.documents.extract import MAX_DOCUMENT_MB, Document, DocumentError, read_document_file
from app.core.documents.grounding import Source, estimated_tokens
from app.core.documents.index import index_of
from app.gui import icons
from app.gui.widgets import ElidedLabel, FlowLayout

#: the most documents one message carries
MAX_DOCUMENTS_PER_MESSAGE = 8
#: a document longer than this (estimated tokens) gets its passage index built when it is read,
#: off the GUI thread, so the question that needs it does not wait for it
INDEX_AT_READ_TOKENS = 4096
#: the suffixes the file dialog's "Documents" filter shows (any other file can still be chosen
#: under "All files": its bytes decide what it is)
DOCUMENT_SUFFIXES = (
    *("txt", "md", "markdown", "csv", "tsv", "html", "htm", "pdf", "docx", "log", "rst"),
    *("py", "js", "ts", "tsx", "jsx", "json", "yaml", "yml", "toml", "ini", "xml", "sql", "sh"),
    *("c", "h", "cpp", "hpp", "cs", "java", "kt", "swift", "rs", "go", "rb", "php", "css", "tex"),
)
#: a chip's width range (pixels): long names are elided inside it
CHIP_MIN_WIDTH = 150
CHIP_MAX_WIDTH = 260
#: the characters of a passage's first line shown in the sources list
SOURCE_LINE_CHARS = 160


def read_for_chat(path: Path) -> Document:
    """Read a document the user attached (blocking: run it off the GUI thread); a long one's
    passage index is built now too."""
    document = read_document_file(path)
    if estimated_tokens(document.text) > INDEX_AT_READ_TOKENS:
        index_of(document)
    return document


def size_text(n: int) -> str:
    """A file's size, in the units a file manager shows."""
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MB".replace(".0 MB", " MB")
    if n >= 1024:
        return f"{max(1, round(n / 1024))} KB"
    return QCoreApplication.translate("Documents", "{n} bytes").format(n=n)


def kind_text(filename: str) -> str:
    """A document's kind as its suffix says it ("PDF", "TXT"); "" for a name without one."""
    suffix = Path(filename).suffix[1:]
    return suffix.upper() if 0 < len(suffix) <= 10 else ""


def pages_text(pages: int) -> str:
    if pages == 1:
        return QCoreApplication.translate("Documents", "1 page")
    return QCoreApplication.translate("Documents", "{n} pages").format(n=pages)


def facts_text(filename: str, size: int | None, pages: int | None = None) -> str:
    """A chip's second line: kind, pages (a PDF's) and size."""
    parts = [kind_text(filename)]
    if pages is not None:
        parts.append(pages_text(pages))
    if size is not None:
        parts.append(size_text(size))
    return " · ".join(p for p in parts if p)


def document_facts(document: Document) -> str:
    return facts_text(document.filename, len(document.data), len(document.pages) if document.paged else None)


def document_error_text(exc: DocumentError, filename: str = "") -> str:
    """A refused or unreadable document's one line in the user's language, naming the file (the
    core's English line for a reason without a translation)."""

    reasons = {
        "too_large": lambda: QCoreApplication.translate(
            "Documents",
            "the file is larger than Tandem reads ({limit} MB, or too much text); attach a smaller "
            "file, or split it",
        ).format(limit=MAX_DOCUMENT_MB),
        "empty": lambda: QCoreApplication.translate("Documents", "the file has no text in it"),
        "binary": lambda: QCoreApplication.translate(
            "Documents", "this is a binary file, not text; attach a text, PDF or DOCX file"
        ),
        "encoding": lambda: QCoreApplication.translate(
            "Documents",
            "the text is in an encoding Tandem does not read; save it as UTF-8 and attach it again",
        ),
        "encrypted": lambda: QCoreApplication.translate(
            "Documents", "the PDF is protected by a password; remove the protection and attach it again"
        ),
        "broken": lambda: QCoreApplication.translate(
            "Documents",
            "the file is damaged and cannot be read; save it again (print a PDF to a new PDF) and "
            "attach that",
        ),
        "no_text": lambda: QCoreApplication.translate(
            "Documents",
            "the PDF has no text layer (a scanned document?); Tandem does not read text in images "
            "(no OCR): attach a PDF with text, or the text itself",
        ),
        "unreadable": lambda: QCoreApplication.translate(
            "Documents", "the file cannot be read; check that it exists and can be opened"
        ),
        "unsupported": lambda: QCoreApplication.translate(
            "Documents",
            "Tandem does not read this kind of file; save it as DOCX, PDF or plain text and attach that",
        ),
        "save_failed": lambda: QCoreApplication.translate(
            "Documents", "the document cannot be saved; free some disk space and send again"
        ),
        "no_memory": lambda: QCoreApplication.translate(
            "Documents",
            "the document is too large to index in the memory left; close other programs or unload a "
            "model, or attach a shorter part of it",
        ),
        "missing": lambda: QCoreApplication.translate(
            "Documents", "a document of this conversation is no longer stored; edit the message"
        ),
        "no_room": lambda: QCoreApplication.translate(
            "Documents",
            "The documents leave no room in the model's context: start a new conversation, or load "
            "the model with a larger context.",
        ),
    }
    make = reasons.get(exc.code)
    if make is None:
        return str(exc)
    return f"{filename}: {make()}" if filename and exc.code != "no_room" else make()


def open_copy(stored: Path, filename: str) -> Path:
    """Copy a stored document (named ``<sha256>.<ext>``) to the cache under the name it was
    attached under (what the user's viewer shows and saves as), once per content; the copy."""
    name = Path(filename).name or stored.name
    target = paths.cache_dir() / "opened-documents" / stored.name.split(".", 1)[0][:16] / name
    if not (target.is_file() and target.stat().st_size == stored.stat().st_size):
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(stored, target)
    return target


@dataclass(frozen=True)
class ChipFacts:
    """What a chip shows: the file name, its facts line, and whether it is still being read."""

    filename: str
    facts: str = ""
    reading: bool = False


class DocumentChip(QFrame):
    """One document: icon, name, facts; signals ``openRequested()`` (a click, when ``openable``)
    and ``removeRequested()`` (its ×, when ``removable``)."""

    openRequested = Signal()
    removeRequested = Signal()

    def __init__(
        self, chip: ChipFacts, removable: bool = False, openable: bool = False, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.chip = chip
        self.openable = openable
        self.setObjectName("documentChip")
        self.setProperty("reading", chip.reading)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(6, 4, 4, 4)
        lay.setSpacing(6)
        self._lay = lay
        self.icon = QLabel()
        self.icon.setPixmap(icons.icon("file").pixmap(QSize(22, 22)))
        self.icon.setFixedSize(24, 24)
        lay.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignVCenter)
        texts = QVBoxLayout()
        texts.setContentsMargins(0, 0, 0, 0)
        texts.setSpacing(0)
        self.name = ElidedLabel(chip.filename)
        self.name.setObjectName("documentName")
        self.facts = QLabel()
        self.facts.setObjectName("documentFacts")
        texts.addWidget(self.name)
        texts.addWidget(self.facts)
        lay.addLayout(texts, 1)
        self.remove_btn: QToolButton | None = None
        if removable:
            self.remove_btn = QToolButton()
            self.remove_btn.setObjectName("documentRemove")
            self.remove_btn.setIcon(icons.icon("close"))
            self.remove_btn.setIconSize(QSize(14, 14))
            self.remove_btn.setAutoRaise(True)
            self.remove_btn.clicked.connect(self.removeRequested)
            lay.addWidget(self.remove_btn, 0, Qt.AlignmentFlag.AlignTop)
        if openable:
            self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.retranslate()

    def _fit_width(self) -> None:
        """As wide as the name and the facts need, within the chip's range (a longer name is
        elided, its tooltip whole)."""
        self.name.ensurePolished()  # measured in the stylesheet's font
        self.facts.ensurePolished()
        text = max(
            self.name.fontMetrics().horizontalAdvance(self.chip.filename),
            self.facts.fontMetrics().horizontalAdvance(self.facts.text()),
        )
        margins = self._lay.contentsMargins()
        chrome = margins.left() + margins.right() + self.icon.width() + 6 + 2 * self.frameWidth() + 8
        if self.remove_btn is not None:
            chrome += 6 + self.remove_btn.sizeHint().width()
        self.setFixedWidth(max(CHIP_MIN_WIDTH, min(CHIP_MAX_WIDTH, text + chrome)))

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if (
            self.openable
            and event.button() == Qt.MouseButton.LeftButton
            and self.rect().contains(event.position().toPoint())
        ):
            self.openRequested.emit()
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fit_width()
        super().changeEvent(event)

    def retranslate(self) -> None:
        chip = self.chip
        self.facts.setText(self.tr("Reading…") if chip.reading else chip.facts)
        if chip.reading:
            tip = self.tr("Reading {file}…").format(file=chip.filename)
        elif self.openable:
            tip = self.tr("Open {file}").format(file=chip.filename)
        else:
            tip = chip.filename
        self.setToolTip(tip)
        if self.remove_btn is not None:
            self.remove_btn.setToolTip(self.tr("Remove this document"))
        self._fit_width()


class DocumentChipRow(QWidget):
    """Chips that wrap onto more lines; ``removeRequested(int)`` and ``openRequested(int)`` with
    the index of the chip."""

    removeRequested = Signal(int)
    openRequested = Signal(int)

    def __init__(
        self, removable: bool = False, openable: bool = False, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.removable = removable
        self.openable = openable
        self._flow = FlowLayout(self, h_spacing=6, v_spacing=6)
        self.chips: list[DocumentChip] = []
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.hide()

    def set_chips(self, chips: list[ChipFacts]) -> None:
        if [c.chip for c in self.chips] == chips:
            return
        for c in self.chips:
            self._flow.removeWidget(c)
            c.setParent(None)
            c.deleteLater()
        self.chips = []
        for i, facts in enumerate(chips):
            chip = DocumentChip(facts, self.removable, self.openable, self)
            chip.removeRequested.connect(lambda i=i: self.removeRequested.emit(i))
            chip.openRequested.connect(lambda i=i: self.openRequested.emit(i))
            self._flow.addWidget(chip)
            chip.show()
            self.chips.append(chip)
        self.setVisible(bool(chips))
        self.updateGeometry()


def source_place(source: Source) -> str:
    """Where a source comes from, in the user's language: its file and page, or the whole file."""
    if source.whole:
        return QCoreApplication.translate("Documents", "{file} · whole document").format(file=source.filename)
    if source.page is not None:
        return QCoreApplication.translate("Documents", "{file} · page {page}").format(
            file=source.filename, page=source.page
        )
    return source.filename


def first_line(text: str) -> str:
    """A passage's beginning on one line (a heading alone says little: its lines are joined)."""
    line = " ".join(text.split())
    return line if len(line) <= SOURCE_LINE_CHARS else line[: SOURCE_LINE_CHARS - 1].rstrip() + "…"


class _SourceRow(QFrame):
    """One source in the list: where it comes from, and its first line; ``clicked()``."""

    clicked = Signal()

    def __init__(self, source: Source, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source = source
        self.setObjectName("sourceRow")
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(6, 3, 6, 3)
        lay.setSpacing(6)
        icon = QLabel()
        icon.setPixmap(icons.icon("file").pixmap(QSize(16, 16)))
        icon.setFixedSize(16, 16)
        self.place = QLabel()
        self.place.setObjectName("sourcePlace")
        self.line = ElidedLabel(first_line(source.text))
        self.line.setProperty("muted", True)
        lay.addWidget(icon)
        lay.addWidget(self.place)
        lay.addWidget(self.line, 1)
        self.retranslate()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self.rect().contains(event.position().toPoint()):
            self.clicked.emit()
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.place.setText(source_place(self.source))
        self.setToolTip(self.tr("Show this passage"))


class SourcesPanel(QWidget):
    """An answer's sources under its text: "Sources (N)", a click shows or hides the list;
    ``sourceRequested(int)`` with the index of the source clicked."""

    sourceRequested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.sources: tuple[Source, ...] = ()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 2, 0, 0)
        lay.setSpacing(2)
        self.toggle = QToolButton()
        self.toggle.setObjectName("sourcesToggle")
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.toggled.connect(self._on_toggled)
        lay.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        self.list = QFrame()
        self.list.setObjectName("sourcesList")
        self._rows_lay = QVBoxLayout(self.list)
        self._rows_lay.setContentsMargins(4, 2, 4, 2)
        self._rows_lay.setSpacing(1)
        self.list.hide()
        lay.addWidget(self.list)
        self.rows: list[_SourceRow] = []
        self.hide()
        self.retranslate()

    def set_sources(self, sources: tuple[Source, ...]) -> None:
        if sources == self.sources:
            return
        self.sources = tuple(sources)
        for row in self.rows:
            row.setParent(None)
            row.deleteLater()
        self.rows = []
        for i, source in enumerate(self.sources):
            row = _SourceRow(source)
            row.clicked.connect(lambda i=i: self.sourceRequested.emit(i))
            self._rows_lay.addWidget(row)
            self.rows.append(row)
        self.setVisible(bool(self.sources))
        self.retranslate()

    def set_expanded(self, on: bool) -> None:
        self.toggle.setChecked(on)

    def _on_toggled(self, on: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.list.setVisible(on)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.toggle.setText(self.tr("Sources ({n})").format(n=len(self.sources)))
        self.toggle.setToolTip(self.tr("The documents and passages this answer was given"))


class SourceDialog(QDialog):
    """One source's passage (selectable), with a button to open its document;
    ``openRequested()``."""

    openRequested = Signal()

    def __init__(self, source: Source, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source = source
        self.setObjectName("sourceDialog")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        lay = QVBoxLayout(self)
        self.place = QLabel()
        self.place.setObjectName("sectionTitle")
        self.place.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.place)
        self.note = QLabel()
        self.note.setProperty("muted", True)
        self.note.setWordWrap(True)
        lay.addWidget(self.note)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setPlainText(source.text)
        lay.addWidget(self.text, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.open_btn = QPushButton()
        self.open_btn.setIcon(icons.icon("file"))
        buttons.addButton(self.open_btn, QDialogButtonBox.ButtonRole.ActionRole)
        self.open_btn.clicked.connect(self.openRequested)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.resize(640, 420)
        self.retranslate()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Source"))
        self.place.setText(source_place(self.source))
        self.note.setText(
            self.tr("The model was given the whole document; its beginning is shown here.")
            if self.source.whole
            else self.tr("The model was given this passage with the question.")
        )
        self.open_btn.setText(self.tr("Open the document"))
        self.open_btn.setToolTip(
            self.tr("Open the stored copy of {file} with the system's viewer").format(
                file=self.source.filename
            )
        )
