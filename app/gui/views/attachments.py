"""Images in the chat: thumbnails in the composer and in messages, and a viewer.

Thumbnails are decoded at their small size (``QImageReader.setScaledSize``), so a photo-sized
image costs a fraction of a full decode on the GUI thread.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QEvent, QIODevice, QSize, Qt, Signal
from PySide6.QtGui import QGuiApplication, QImage, QImageReader, QImageWriter, QPixmap, QResizeEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core.images import MAX_IMAGE_MB, MAX_IMAGE_PIXELS, ImageError
from app.gui import icons

#: the longest side of a thumbnail in a message and in the composer
THUMB_SIDE = 96
COMPOSER_THUMB_SIDE = 56


def _reader(source: bytes | Path) -> tuple[QImageReader, QBuffer | None]:
    if isinstance(source, Path):
        return QImageReader(str(source)), None
    buf = QBuffer()
    buf.setData(QByteArray(source))
    buf.open(QIODevice.OpenModeFlag.ReadOnly)
    return QImageReader(buf), buf


def load_image(source: bytes | Path, side: int | None = None) -> QImage:
    """``source`` decoded, scaled to fit ``side`` pixels when given (decoded at that size); a null
    image when Qt cannot read it."""
    reader, buf = _reader(source)
    reader.setAutoTransform(True)
    size = reader.size()
    if side is not None and size.isValid() and max(size.width(), size.height()) > side:
        reader.setScaledSize(size.scaled(QSize(side, side), Qt.AspectRatioMode.KeepAspectRatio))
    image = reader.read()
    if buf is not None:
        buf.close()
    return image


def image_png(image: QImage) -> bytes:
    """A pasted image (Qt's) as PNG bytes, to be checked like a file."""
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    QImageWriter(buf, QByteArray(b"png")).write(image)
    data = bytes(buf.data().data())
    buf.close()
    return data


def image_error_text(exc: ImageError) -> str:
    """A refused image's one line in the user's language (the core's English one for a reason
    without a translation)."""

    f = exc.facts
    mb = f.get("mb")
    mb = mb if isinstance(mb, float) else 0.0
    reasons = {
        "empty": lambda: QCoreApplication.translate("Attachments", "the file is empty"),
        "too_large": lambda: QCoreApplication.translate(
            "Attachments", "the image is {mb:.1f} MB; the limit is {limit} MB (save it smaller or as JPEG)"
        ).format(mb=mb, limit=MAX_IMAGE_MB),
        "svg": lambda: QCoreApplication.translate(
            "Attachments", "SVG drawings are not supported; export it as PNG or JPEG and attach that"
        ),
        "format": lambda: QCoreApplication.translate(
            "Attachments", "{fmt} images are not supported; use PNG, JPEG, WebP, GIF or BMP"
        ).format(fmt=f.get("fmt") or "?"),
        "too_many_pixels": lambda: QCoreApplication.translate(
            "Attachments", "the image has more than {limit} megapixels; scale it down and attach it again"
        ).format(limit=MAX_IMAGE_PIXELS // 1_000_000),
        "unreadable": lambda: QCoreApplication.translate(
            "Attachments", "this is not an image Tandem can read (PNG, JPEG, WebP, GIF or BMP)"
        ),
        "damaged": lambda: QCoreApplication.translate("Attachments", "the image is damaged or cut short"),
        "read_failed": lambda: QCoreApplication.translate("Attachments", "the file cannot be read"),
        "save_failed": lambda: QCoreApplication.translate(
            "Attachments", "the image cannot be saved; free some disk space and send again"
        ),
    }
    make = reasons.get(exc.kind)
    if make is None:
        return str(exc)
    return f"{exc.source}: {make()}" if exc.source else make()


class Thumbnail(QToolButton):
    """One image as a small button: click to enlarge; with ``removable`` a corner × removes it."""

    removeRequested = Signal()

    def __init__(
        self, source: bytes | Path, side: int, removable: bool = False, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.source = source
        self.setObjectName("thumbnail")
        self.setAutoRaise(True)
        image = load_image(source, side * 2)  # crisp on a 2x screen
        pixmap = QPixmap.fromImage(image)
        self.setIcon(pixmap)
        self.setIconSize(image.size().scaled(QSize(side, side), Qt.AspectRatioMode.KeepAspectRatio))
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.clicked.connect(self._open)
        self.remove_btn: QToolButton | None = None
        if removable:
            self.remove_btn = QToolButton(self)
            self.remove_btn.setObjectName("thumbnailRemove")
            self.remove_btn.setIcon(icons.icon("close", "#ffffff"))
            self.remove_btn.setAutoRaise(True)
            self.remove_btn.setFixedSize(18, 18)
            self.remove_btn.clicked.connect(self.removeRequested)
        self.retranslate()

    def resizeEvent(self, event: QResizeEvent) -> None:
        if self.remove_btn is not None:
            self.remove_btn.move(self.width() - self.remove_btn.width(), 0)
        super().resizeEvent(event)

    def _open(self) -> None:
        ImageViewer(self.source, self.window()).open()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setToolTip(self.tr("Click to enlarge"))
        if self.remove_btn is not None:
            self.remove_btn.setToolTip(self.tr("Remove this image"))


class ThumbnailRow(QWidget):
    """A row of thumbnails; ``removeRequested(int)`` with the index of the one to remove."""

    removeRequested = Signal(int)

    def __init__(self, side: int, removable: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.side = side
        self.removable = removable
        self._lay = QHBoxLayout(self)
        self._lay.setContentsMargins(0, 0, 0, 0)
        self._lay.setSpacing(6)
        self._lay.addStretch(1)
        self.thumbs: list[Thumbnail] = []
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.hide()

    def set_images(self, sources: list[bytes | Path]) -> None:
        for t in self.thumbs:
            self._lay.removeWidget(t)
            t.deleteLater()
        self.thumbs = []
        for i, src in enumerate(sources):
            t = Thumbnail(src, self.side, self.removable, self)
            t.removeRequested.connect(lambda i=i: self.removeRequested.emit(i))
            self._lay.insertWidget(i, t)
            self.thumbs.append(t)
        self.setVisible(bool(sources))


class ImageViewer(QDialog):
    """An image at up to the screen's size, with its file facts."""

    def __init__(self, source: bytes | Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setObjectName("imageViewer")
        screen = (parent.screen() if parent is not None else None) or QGuiApplication.primaryScreen()
        avail = screen.availableGeometry().size() if screen is not None else QSize(1280, 800)
        side = max(200, min(avail.width(), avail.height()) * 85 // 100)
        full = load_image(source)
        shown = load_image(source, side)
        lay = QVBoxLayout(self)
        area = QScrollArea()
        area.setWidgetResizable(True)
        area.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.picture = QLabel()
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.picture.setPixmap(QPixmap.fromImage(shown))
        area.setWidget(self.picture)
        lay.addWidget(area, 1)
        self.facts = QLabel()
        self.facts.setProperty("muted", True)
        lay.addWidget(self.facts)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self._size = full.size()
        self._bytes = len(source) if isinstance(source, bytes) else _file_size(source)
        self.resize(min(avail.width(), shown.width() + 60), min(avail.height(), shown.height() + 110))
        self.retranslate()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Image"))
        self.facts.setText(
            self.tr("{w} × {h} pixels, {kb} KB").format(
                w=self._size.width(), h=self._size.height(), kb=max(1, self._bytes // 1024)
            )
        )


def _file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
