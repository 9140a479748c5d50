"""The composer: the message box, its attachments and the Send / Stop button."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QMimeData, QObject, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QImage, QKeyEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core.images import (
    ACCEPTED_SUFFIXES,
    MAX_IMAGES_PER_MESSAGE,
    CheckedImage,
    ImageError,
    check_image,
    check_image_file,
)
from app.gui import icons
from app.gui.views.attachments import (
    COMPOSER_THUMB_SIDE,
    ThumbnailRow,
    image_error_text,
    image_png,
)


class ComposerInput(QPlainTextEdit):
    """The composer's text box; pasted or dropped images and image files become attachments
    (``imagesOffered``: a list of PNG bytes or file paths) instead of text."""

    imagesOffered = Signal(list)

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        return source.hasImage() or _local_files(source) != [] or super().canInsertFromMimeData(source)

    def insertFromMimeData(self, source: QMimeData) -> None:
        files = _local_files(source)
        if files:
            self.imagesOffered.emit(files)
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
    pasted or dropped wait above the text as thumbnails. Signals: ``send(str)``, ``stop()``.

    A refused image (not an image, too large, an SVG, ...) is named in one line under the box and
    nothing else changes; :attr:`attachments` holds the accepted ones until the message is sent.
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
        self.notice = QLabel()
        self.notice.setObjectName("composerNotice")
        self.notice.setWordWrap(True)
        self.notice.hide()
        outer.addWidget(self.notice)
        lay = QHBoxLayout()
        lay.setContentsMargins(0, 0, 0, 0)
        self.attach_btn = QToolButton()
        self.attach_btn.setObjectName("attach")
        self.attach_btn.setIcon(icons.icon("image"))
        self.attach_btn.setAutoRaise(True)
        self.attach_btn.clicked.connect(self._choose_files)
        self.input = ComposerInput()
        self.input.setTabChangesFocus(True)
        self.input.setFixedHeight(64)
        self.input.installEventFilter(self)
        self.input.imagesOffered.connect(self.add_images)
        self.button = QPushButton()
        self.button.setObjectName("primary")
        self.button.setMinimumWidth(84)
        self.button.clicked.connect(self._on_clicked)
        lay.addWidget(self.attach_btn, 0, Qt.AlignmentFlag.AlignBottom)
        lay.addWidget(self.input, 1)
        lay.addWidget(self.button, 0, Qt.AlignmentFlag.AlignBottom)
        outer.addLayout(lay)
        self.generating = False
        #: images waiting to be sent with the message
        self.attachments: list[CheckedImage] = []
        #: the loaded model reads images (None: nothing loaded); attachments to a model that does
        #: not are named in the notice at once, before anything is sent
        self.vision: bool | None = None
        self._refused: list[str] = []
        self.retranslate()

    def set_generating(self, on: bool) -> None:
        self.generating = on
        self.retranslate()

    def set_vision(self, vision: bool | None) -> None:
        self.vision = vision
        self._show_notice()

    # --- attachments --------------------------------------------------------------------------
    def _choose_files(self) -> None:
        patterns = " ".join(f"*.{s}" for s in ACCEPTED_SUFFIXES)
        names, _ = QFileDialog.getOpenFileNames(
            self, self.tr("Attach images"), "", self.tr("Images ({patterns})").format(patterns=patterns)
        )
        if names:
            self.add_images([Path(n) for n in names])

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

    def remove_attachment(self, index: int) -> None:
        if 0 <= index < len(self.attachments):
            del self.attachments[index]
            self._refused = []
            self._attachments_changed()

    def clear_message(self) -> None:
        """Empty the box after a send: text and attachments."""
        self.input.clear()
        self.set_attachments([])

    def _attachments_changed(self) -> None:
        self.thumbs.set_images([a.data for a in self.attachments])
        self._show_notice()

    def _show_notice(self) -> None:
        lines = list(self._refused)
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
        if text or self.attachments:
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
            self.tr("Attach images (PNG, JPEG, WebP, GIF or BMP); you can also paste or drop them here")
        )
        self._show_notice()
