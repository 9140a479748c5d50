"""The composer: the message box, its attachments and the Send / Stop button; with MCP servers on,
the message's tool choice and the tools offered, with each server's state.

The box grows with its text up to a third of the window's height, then scrolls. Files attached
with the button, dropped or pasted are images when their suffix says so, documents otherwise; a
document is read off the GUI thread (:meth:`Composer.set_ops`), its chip saying so meanwhile, and
the message is sent once every document is read."""

from __future__ import annotations

import html
from dataclasses import dataclass
from math import ceil
from pathlib import Path

from PySide6.QtCore import QEvent, QMimeData, QObject, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QImage, QKeyEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core.documents.extract import Document, DocumentError
from app.core.images import (
    ACCEPTED_SUFFIXES,
    MAX_IMAGES_PER_MESSAGE,
    CheckedImage,
    ImageError,
    check_image,
    check_image_file,
)
from app.core.tools.client import ServerState, ServerStatus
from app.gui import icons
from app.gui.ops import Ops
from app.gui.views.attachments import (
    COMPOSER_THUMB_SIDE,
    ThumbnailRow,
    image_error_text,
    image_png,
)
from app.gui.views.documents import (
    DOCUMENT_SUFFIXES,
    MAX_DOCUMENTS_PER_MESSAGE,
    ChipFacts,
    DocumentChipRow,
    document_error_text,
    document_facts,
    read_for_chat,
    size_text,
)

#: the message box's height at rest (about three lines), and the share of the window it may grow to
MIN_INPUT_HEIGHT = 64
MAX_INPUT_SHARE = 1 / 3


@dataclass(eq=False)
class PendingDocument:
    """A document in the composer: being read (``document`` None), then read."""

    path: Path
    filename: str
    size: int | None
    document: Document | None = None

    @property
    def reading(self) -> bool:
        return self.document is None

    def chip(self) -> ChipFacts:
        if self.document is None:
            return ChipFacts(
                self.filename, size_text(self.size) if self.size is not None else "", reading=True
            )
        return ChipFacts(self.filename, document_facts(self.document))


class ComposerInput(QPlainTextEdit):
    """The composer's text box; a pasted image becomes an attachment (``imagesOffered``: a list
    of PNG bytes), pasted or dropped files too (``filesOffered``: a list of paths), instead of
    text. Its height follows its text, from :data:`MIN_INPUT_HEIGHT` up to a third of the window's
    height; past that it scrolls."""

    imagesOffered = Signal(list)
    filesOffered = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(MIN_INPUT_HEIGHT)
        self.document().documentLayout().documentSizeChanged.connect(lambda _size: self.fit_height())
        self._window: QWidget | None = None

    def wanted_height(self, limit: int | None = None) -> int:
        """The height that shows the whole text (or more than ``limit``, once it is passed)."""
        doc = self.document()
        # around the viewport: the frame and the style's padding, as they are now
        chrome = self.height() - self.viewport().height()
        # the viewport must be taller than the text (not equal) for QPlainTextEdit to hide its
        # scroll bar: two pixels more
        height = doc.documentMargin() * 2 + chrome + 2
        block = doc.begin()
        while block.isValid() and (limit is None or height <= limit):
            height += self.blockBoundingRect(block).height()  # its wrapped lines, laid out
            block = block.next()
        return ceil(height)

    def max_height(self) -> int:
        window = self.window()
        return max(MIN_INPUT_HEIGHT, int(window.height() * MAX_INPUT_SHARE)) if window is not self else 0

    def fit_height(self) -> None:
        """Grow or shrink to the text, within the limits."""
        top = self.max_height() or MIN_INPUT_HEIGHT
        height = max(MIN_INPUT_HEIGHT, min(self.wanted_height(top), top))
        if height != self.height():
            self.setFixedHeight(height)

    def showEvent(self, event: QShowEvent) -> None:
        window = self.window()
        if window is not self._window:  # the window's height sets the limit
            if self._window is not None:
                self._window.removeEventFilter(self)
            self._window = window
            window.installEventFilter(self)
        super().showEvent(event)
        self.fit_height()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self.fit_height()  # a theme's font or padding: the lines take another height

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():  # lines wrap anew
            self.fit_height()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window and event.type() == QEvent.Type.Resize:
            self.fit_height()
        return super().eventFilter(watched, event)

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        return source.hasImage() or _local_files(source) != [] or super().canInsertFromMimeData(source)

    def insertFromMimeData(self, source: QMimeData) -> None:
        files = _local_files(source)
        if files:
            self.filesOffered.emit(files)
        elif source.hasImage():
            image = source.imageData()
            if isinstance(image, QImage) and not image.isNull():
                self.imagesOffered.emit([image_png(image)])
        else:
            super().insertFromMimeData(source)


def _local_files(source: QMimeData) -> list[Path]:
    return [Path(u.toLocalFile()) for u in source.urls() if u.isLocalFile()] if source.hasUrls() else []


class Composer(QFrame):
    """Multi-line input: Enter sends, Shift+Enter adds a line; images attached with the button,
    pasted or dropped wait above the text as thumbnails, documents as chips. Signals:
    ``send(str)``, ``stop()``.

    With MCP servers switched on, a row under the box holds the tools indicator (how many tools
    the model is offered; its tooltip and menu list each server with its state and its tools, and
    a tool picked in the menu becomes the message's choice) and the message's tool choice
    (:meth:`tool_choice`: auto, none, required or a tool's name; back to auto after each send).

    A refused image (not an image, too large, an SVG, ...) or document (binary, too large, a
    scanned or protected PDF, ...) is named in one line under the box and nothing else changes;
    :attr:`attachments` holds the accepted images and :attr:`documents` the documents until the
    message is sent.
    """

    send = Signal(str)
    stop = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("composer")
        self.setAcceptDrops(True)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(8, 6, 8, 6)
        outer.setSpacing(4)
        self.thumbs = ThumbnailRow(COMPOSER_THUMB_SIDE, removable=True)
        self.thumbs.removeRequested.connect(self.remove_attachment)
        outer.addWidget(self.thumbs)
        self.doc_chips = DocumentChipRow(removable=True)
        self.doc_chips.removeRequested.connect(self.remove_document)
        outer.addWidget(self.doc_chips)
        self.notice = QLabel()
        self.notice.setObjectName("composerNotice")
        self.notice.setWordWrap(True)
        self.notice.hide()
        outer.addWidget(self.notice)
        lay = QHBoxLayout()
        lay.setContentsMargins(0, 0, 0, 0)
        self.attach_btn = QToolButton()
        self.attach_btn.setObjectName("attach")
        self.attach_btn.setIcon(icons.icon("paperclip"))
        self.attach_btn.setAutoRaise(True)
        self.attach_btn.clicked.connect(self._choose_files)
        self.input = ComposerInput()
        self.input.setTabChangesFocus(True)
        self.input.installEventFilter(self)
        self.input.imagesOffered.connect(self.add_images)
        self.input.filesOffered.connect(self.add_files)
        self.button = QPushButton()
        self.button.setObjectName("primary")
        self.button.setMinimumWidth(84)
        self.button.clicked.connect(self._on_clicked)
        lay.addWidget(self.attach_btn, 0, Qt.AlignmentFlag.AlignBottom)
        lay.addWidget(self.input, 1)
        lay.addWidget(self.button, 0, Qt.AlignmentFlag.AlignBottom)
        outer.addLayout(lay)
        # the tools row: shown while some server is switched on
        self.tools_row = QWidget()
        tools = QHBoxLayout(self.tools_row)
        tools.setContentsMargins(0, 0, 0, 0)
        tools.setSpacing(6)
        self.tools_btn = QToolButton()
        self.tools_btn.setObjectName("toolsIndicator")
        self.tools_btn.setIcon(icons.icon("tool"))
        self.tools_btn.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.tools_btn.setAutoRaise(True)
        self.tools_btn.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.tools_menu = QMenu(self.tools_btn)
        self.tools_btn.setMenu(self.tools_menu)
        self.choice_label = QLabel()
        self.choice_label.setProperty("muted", True)
        self.tool_choice_box = QComboBox()
        self.tool_choice_box.setObjectName("toolChoice")
        self.tool_choice_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.choice_label.setBuddy(self.tool_choice_box)
        tools.addWidget(self.tools_btn)
        tools.addSpacing(6)
        tools.addWidget(self.choice_label)
        tools.addWidget(self.tool_choice_box)
        tools.addStretch(1)
        self.tools_row.hide()
        outer.addWidget(self.tools_row)
        #: the enabled servers' states and the names of the tools offered (see set_tools)
        self.servers: list[ServerStatus] = []
        self.tool_names: list[str] = []
        self.generating = False
        #: images waiting to be sent with the message
        self.attachments: list[CheckedImage] = []
        #: the loaded model reads images (None: nothing loaded); attachments to a model that does
        #: not are named in the notice at once, before anything is sent
        self.vision: bool | None = None
        #: documents waiting to be sent with the message (some may still be being read)
        self.documents: list[PendingDocument] = []
        #: reads documents off the GUI thread (None: read at once, on this thread)
        self.ops: Ops | None = None
        self._refused: list[str] = []
        #: Send was pressed while documents were being read: the message goes once they are
        self.send_when_read = False
        self.retranslate()

    def set_ops(self, ops: Ops | None) -> None:
        """The window's operations: documents are read on its threads."""
        self.ops = ops

    def set_generating(self, on: bool) -> None:
        self.generating = on
        self.retranslate()

    def set_vision(self, vision: bool | None) -> None:
        self.vision = vision
        self._show_notice()

    # --- attachments --------------------------------------------------------------------------
    def file_filters(self) -> list[str]:
        """The attach dialog's filters: everything supported, images, documents, any file."""
        images = " ".join(f"*.{s}" for s in ACCEPTED_SUFFIXES)
        documents = " ".join(f"*.{s}" for s in DOCUMENT_SUFFIXES)
        return [
            self.tr("Images and documents ({patterns})").format(patterns=f"{images} {documents}"),
            self.tr("Images ({patterns})").format(patterns=images),
            self.tr("Documents ({patterns})").format(patterns=documents),
            self.tr("All files (*)"),
        ]

    def _choose_files(self) -> None:
        names, _ = QFileDialog.getOpenFileNames(
            self, self.tr("Attach images or documents"), "", ";;".join(self.file_filters())
        )
        if names:
            self.add_files([Path(n) for n in names])

    def add_files(self, files: list[Path]) -> None:
        """Attach files: images by their suffix, every other file as a document."""
        images: list[bytes | Path] = [f for f in files if f.suffix[1:].lower() in ACCEPTED_SUFFIXES]
        documents = [f for f in files if f.suffix[1:].lower() not in ACCEPTED_SUFFIXES]
        refused: list[str] = []
        if images:
            self.add_images(images)
            refused = list(self._refused)
        if documents:
            self.add_documents(documents, keep=refused)

    def add_images(self, sources: list[bytes | Path]) -> None:
        """Check and attach images (files or bytes); refused ones are named in the notice."""
        self._refused = []
        for i, src in enumerate(sources):
            if len(self.attachments) >= MAX_IMAGES_PER_MESSAGE:
                self._refused.append(
                    self.tr("At most {n} images per message; the rest were not attached.").format(
                        n=MAX_IMAGES_PER_MESSAGE
                    )
                )
                break
            try:
                if isinstance(src, Path):
                    image = check_image_file(src)
                else:
                    image = check_image(src, self.tr("pasted image {n}").format(n=i + 1))
            except ImageError as exc:
                self._refused.append(image_error_text(exc))
                continue
            if all(a.sha256 != image.sha256 for a in self.attachments):
                self.attachments.append(image)
        self._attachments_changed()

    def set_attachments(self, images: list[CheckedImage]) -> None:
        self.attachments = list(images)
        self._refused = []
        self._attachments_changed()

    # --- documents ----------------------------------------------------------------------------
    def add_documents(self, files: list[Path], keep: list[str] | None = None) -> None:
        """Attach documents: each is read off the GUI thread, its chip saying so meanwhile; a
        refused one is named in the notice (after the lines in ``keep``)."""
        self._refused = list(keep or [])
        for path in files:
            if len(self.documents) >= MAX_DOCUMENTS_PER_MESSAGE:
                self._refused.append(
                    self.tr("At most {n} documents per message; the rest were not attached.").format(
                        n=MAX_DOCUMENTS_PER_MESSAGE
                    )
                )
                break
            if any(d.path == path for d in self.documents):
                continue
            try:
                size: int | None = path.stat().st_size
            except OSError:
                size = None
            pending = PendingDocument(path, path.name, size)
            self.documents.append(pending)
            self._read(pending)
        self._documents_changed()

    def _read(self, pending: PendingDocument) -> None:
        if self.ops is None or self.ops.closed:
            try:
                document = read_for_chat(pending.path)
            except Exception as exc:
                self._on_refused(pending, exc)
            else:
                self._on_read(pending, document)
            return
        (
            self.ops.query(read_for_chat, pending.path, parent=self)
            .success(lambda document: self._on_read(pending, document))
            .failure(lambda exc: self._on_refused(pending, exc))
            .run()
        )

    def _on_read(self, pending: PendingDocument, document: Document) -> None:
        if pending not in self.documents:  # removed while it was read
            return
        if any(d.document is not None and d.document.sha256 == document.sha256 for d in self.documents):
            self.documents.remove(pending)  # the same content is attached already
        else:
            pending.document = document
        self._documents_changed()
        if self.send_when_read and not self.reading():
            self.send_when_read = False
            if not self.generating:
                self._on_clicked()

    def _on_refused(self, pending: PendingDocument, exc: BaseException) -> None:
        if pending not in self.documents:
            return
        self.send_when_read = False  # the user sees what was refused first
        self.documents.remove(pending)
        if isinstance(exc, DocumentError):
            line = document_error_text(exc, pending.filename)
        else:
            line = f"{pending.filename}: {exc}"
        self._refused.append(line)
        self._documents_changed()

    def set_documents(self, documents: list[Document]) -> None:
        """The box's documents (already read): an edited message's."""
        self.documents = [PendingDocument(Path(d.filename), d.filename, len(d.data), d) for d in documents]
        self.send_when_read = False
        self._refused = []
        self._documents_changed()

    def remove_document(self, index: int) -> None:
        if 0 <= index < len(self.documents):
            del self.documents[index]
            self._refused = []
            self._documents_changed()
            if self.send_when_read and not self.reading():
                self.send_when_read = False
                self._on_clicked()

    def read_documents(self) -> list[Document]:
        """The documents read so far, in the order they were attached."""
        return [d.document for d in self.documents if d.document is not None]

    def reading(self) -> list[str]:
        """The file names of the documents still being read."""
        return [d.filename for d in self.documents if d.reading]

    def _documents_changed(self) -> None:
        self.doc_chips.set_chips([d.chip() for d in self.documents])
        self._show_notice()

    def remove_attachment(self, index: int) -> None:
        if 0 <= index < len(self.attachments):
            del self.attachments[index]
            self._refused = []
            self._attachments_changed()

    def clear_message(self) -> None:
        """Empty the box after a send: text, attachments and the message's tool choice."""
        self.input.clear()
        self.set_attachments([])
        self.set_documents([])
        self.tool_choice_box.setCurrentIndex(0)

    # --- tools ----------------------------------------------------------------------------------
    def tool_choice(self) -> str:
        """This message's tool choice: ``auto``, ``none``, ``required`` or a tool's name."""
        if self.tools_row.isHidden():
            return "auto"
        return str(self.tool_choice_box.currentData() or "auto")

    def set_tools(self, servers: list[ServerStatus], tool_names: list[str]) -> None:
        """Show the enabled ``servers`` (their states) and the tools offered (``tool_names``);
        nothing when no server is on. The chosen tool stays chosen while it is offered."""
        self.servers = list(servers)
        self.tool_names = list(tool_names)
        self.tools_row.setVisible(bool(servers))
        self._fill_choices()
        self._show_tools()

    def _fill_choices(self) -> None:
        box = self.tool_choice_box
        current = box.currentData()
        box.blockSignals(True)
        box.clear()
        box.addItem(self.tr("Auto"), "auto")
        box.addItem(self.tr("None"), "none")
        box.addItem(self.tr("Any tool"), "required")
        for name in self.tool_names:
            box.addItem(self.tr("Call {name}").format(name=name), name)
        index = box.findData(current) if current is not None else 0
        box.setCurrentIndex(max(0, index))
        box.blockSignals(False)

    def _choose_tool(self, name: str) -> None:
        """A tool picked in the indicator's menu: this message calls it."""
        index = self.tool_choice_box.findData(name)
        if index >= 0:
            self.tool_choice_box.setCurrentIndex(index)

    def _state_text(self, status: ServerStatus) -> str:
        if status.state is ServerState.RUNNING:
            return self.tr("running")
        if status.state is ServerState.STARTING:
            return self.tr("starting")
        if status.state is ServerState.FAILED:
            reason = status.reason.removeprefix(f"{status.name}: ") or status.name
            return self.tr("failed: {reason}").format(reason=reason)
        return self.tr("not started")

    def _show_tools(self) -> None:
        running = [s for s in self.servers if s.state is ServerState.RUNNING]
        starting = [s for s in self.servers if s.state is ServerState.STARTING]
        failed = [s for s in self.servers if s.state is ServerState.FAILED]
        n = len(self.tool_names)
        text = self.tr("1 tool") if n == 1 else self.tr("{n} tools").format(n=n)
        if starting:
            text = self.tr("{tools} · starting…").format(tools=text)
        elif failed:
            names = ", ".join(s.name for s in failed)
            text = self.tr("{tools} · {servers} failed").format(tools=text, servers=names)
        self.tools_btn.setText(text)
        self.tools_btn.setProperty("failed", bool(failed))
        offered = set(self.tool_names)
        title = self.tr("Tools the model is offered")
        lines = [f"<b>{html.escape(title)}</b>"]
        self.tools_menu.clear()
        for status in self.servers:
            state = self._state_text(status)
            listed = [t.name for t in status.tools if t.name in offered]
            head = f"{status.name}: {state}"
            lines.append(html.escape(head))
            action = self.tools_menu.addAction(head)
            action.setEnabled(False)
            for name in listed:
                lines.append("&nbsp;&nbsp;• " + html.escape(name))
                tool = self.tools_menu.addAction("    " + name)
                tool.setToolTip(self.tr("Call {name}").format(name=name))
                tool.triggered.connect(lambda _on=False, n=name: self._choose_tool(n))
        if not running and not starting and not failed:
            lines.append(html.escape(self.tr("The servers have not started yet.")))
        lines.append(html.escape(self.tr("Turn tools on or off in Settings → Tools.")))
        self.tools_btn.setToolTip("<br>".join(lines))

    def _attachments_changed(self) -> None:
        self.thumbs.set_images([a.data for a in self.attachments])
        self._show_notice()

    def _show_notice(self) -> None:
        lines = list(self._refused)
        reading = self.reading()
        if self.send_when_read and reading:
            lines.append(self.tr("Sending once {file} is read…").format(file=reading[0]))
        if self.attachments and self.vision is False:
            lines.append(self.tr("The loaded model cannot read images: load a vision model to send these."))
        self.notice.setText("\n".join(lines))
        self.notice.setVisible(bool(lines))

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        data = event.mimeData()
        if data.hasImage() or _local_files(data):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        self.input.insertFromMimeData(event.mimeData())
        event.acceptProposedAction()

    # --- sending --------------------------------------------------------------------------------
    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if obj is self.input and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not (
                event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            ):
                self._on_clicked()
                return True
        return super().eventFilter(obj, event)

    def _on_clicked(self) -> None:
        if self.generating:
            self.stop.emit()
            return
        text = self.input.toPlainText().strip()
        reading = self.reading()
        if reading:  # sent once every document is read (the notice says so); the box keeps all
            self.send_when_read = True
            self._show_notice()
            return
        if text or self.attachments or self.documents:
            self.send.emit(text)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.input.setPlaceholderText(
            self.tr("Message the model (Enter to send, Shift+Enter for a new line)")
        )
        self.button.setText(self.tr("Stop") if self.generating else self.tr("Send"))
        self.attach_btn.setToolTip(
            self.tr(
                "Attach images (PNG, JPEG, WebP, GIF or BMP) or documents (text, Markdown, code, CSV, "
                "HTML, PDF or DOCX); you can also paste or drop them here"
            )
        )
        self.choice_label.setText(self.tr("Tool choice:"))
        self.tool_choice_box.setToolTip(
            self.tr(
                "For this message: Auto lets the model decide; None offers no tools; Any tool or a "
                "named tool makes the model call one first. Back to Auto after sending."
            )
        )
        self._fill_choices()
        self._show_tools()
        self._show_notice()
