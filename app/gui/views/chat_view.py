"""The chat: message bubbles (Markdown, draft tokens highlighted), stats strips, and a composer.

This widget only shows things and emits what the user asked for; :mod:`app.gui.controllers.chat`
does the work.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QMimeData, QObject, QPoint, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QGuiApplication, QImage, QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core import limits
from app.core.chat import AnswerStats, Message, render_markdown
from app.core.chat.markdown import renders_in_parts, spans_in, stable_prefix
from app.core.engines.base import Sampling
from app.core.images import (
    ACCEPTED_SUFFIXES,
    MAX_IMAGES_PER_MESSAGE,
    CheckedImage,
    ImageError,
    check_image,
    check_image_file,
)
from app.gui import icons
from app.gui.style import DRAFT_HIGHLIGHT
from app.gui.views.attachments import (
    COMPOSER_THUMB_SIDE,
    THUMB_SIDE,
    ThumbnailRow,
    image_error_text,
    image_png,
)
from app.gui.views.chat_links import connect_links
from app.gui.views.stats import StatsDialog, StatsStrip
from app.gui.widgets import ElidedLabel, bind_range

#: a streamed answer's finished blocks go into frozen labels of about this many characters each, so
#: appending a block lays out one bounded label, never the whole answer
FROZEN_LABEL_CHARS = 2000
#: a streamed answer longer than this keeps its frozen labels when it ends (rendering it again as
#: one text held the window 0.3-0.4 s at the end of an 8000-token answer); shorter ones end as one
#: text, as a loaded answer shows (its render takes a few ms)
KEEP_PARTS_CHARS = 8000
#: a conversation opens with its last messages built at once, the earlier ones a batch per turn
EAGER_MESSAGES = 12
EAGER_CHARS = 3000  # about a screenful of text: the newest messages up to this many are built at once
LAZY_BATCH = 4
LAZY_BUDGET_S = 0.006  # building time per event-loop turn (its polish, layout and paint come on top)
REAP_BATCH = 8  # bubbles of a conversation left behind deleted per event-loop turn


class TextLabel(QLabel):
    """A word-wrapped rich-text label that remembers its height per width.

    QLabel lays its whole text out again on every ``heightForWidth`` call, and the chat column
    asks every bubble on each relayout: a long conversation stalled for a time that grew with the
    number of messages. The answer only changes with the text or the font."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._heights: dict[int, int] = {}

    def setText(self, text: str) -> None:
        if text != self.text():
            self._heights.clear()
            super().setText(text)

    def minimumSizeHint(self) -> QSize:
        """One line tall: QLabel's own guess lays a long text out at a narrow width (an answer of
        500 tokens asked for 650 px), and as a minimum that made the chat column taller than its
        bubbles: the view scrolled into a screen of blank space below the last answer. The real
        height comes from :meth:`heightForWidth`, which the column's layout asks."""
        hint = super().minimumSizeHint()
        return QSize(hint.width(), min(hint.height(), self.fontMetrics().lineSpacing() + 2))

    def heightForWidth(self, width: int) -> int:
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = super().heightForWidth(width)
        return height

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._heights.clear()
        super().changeEvent(event)


def shows_empty_note(bubble: MessageBubble) -> bool:
    """An ended assistant answer without text shows a note, rendered in the current language."""
    return bubble.role == "assistant" and not bubble.text and bubble.status != "streaming"


class MessageBubble(QFrame):
    """One message. Signals: ``editRequested(int)``, ``regenerateRequested(int)``,
    ``measureRequested(int)`` (message ids)."""

    editRequested = Signal(int)
    regenerateRequested = Signal(int)
    measureRequested = Signal(int)

    def __init__(self, role: str, message_id: int = 0, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.role = role
        self.message_id = message_id
        self.text = ""
        self.spans: list[tuple[int, int]] = []
        self.highlight = True
        self.status = "complete"
        #: earlier messages left out of this answer's prompt to fit the context (0: none)
        self.left_out = 0
        #: the loaded family's ``tool_parser`` (tool calls shown as blocks)
        self.tool_style: str | None = None
        self.setObjectName("bubbleUser" if role == "user" else "bubbleAssistant")
        # Preferred, not Minimum, vertically: with Minimum a widget's size hint (its text laid out
        # at another width) is its minimum; the column gives each bubble its height for its width
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(12, 8, 12, 8)
        lay.setSpacing(4)
        head = QHBoxLayout()
        head.setSpacing(6)
        self.role_label = QLabel()
        self.role_label.setObjectName("role")
        self.status_label = QLabel()
        self.status_label.setProperty("muted", True)
        head.addWidget(self.role_label)
        head.addWidget(self.status_label)
        head.addStretch(1)
        self.copy_btn = QToolButton()
        self.copy_btn.clicked.connect(self._copy)
        self.edit_btn = QToolButton()
        self.edit_btn.clicked.connect(lambda: self.editRequested.emit(self.message_id))
        self.regen_btn = QToolButton()
        self.regen_btn.setIcon(icons.icon("refresh"))
        self.regen_btn.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.regen_btn.clicked.connect(lambda: self.regenerateRequested.emit(self.message_id))
        for b in (self.copy_btn, self.edit_btn, self.regen_btn):
            b.setAutoRaise(True)
            head.addWidget(b)
        self.edit_btn.setVisible(role == "user")
        self.regen_btn.setVisible(False)
        lay.addLayout(head)
        # a quiet remark about how the answer was made (e.g. earlier turns left out of the context)
        self.note_label = QLabel()
        self.note_label.setObjectName("bubbleNote")
        self.note_label.setProperty("muted", True)
        self.note_label.setWordWrap(True)
        self.note_label.hide()
        lay.addWidget(self.note_label)
        #: the message's images, above its text; click one to enlarge it
        self.images = ThumbnailRow(THUMB_SIDE)
        lay.addWidget(self.images)
        self.image_paths: list[Path] = []
        self.body = TextLabel()
        self.body.setWordWrap(True)
        self.body.setTextFormat(Qt.TextFormat.RichText)
        connect_links(self.body, lambda: self.text)
        self.body.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.LinksAccessibleByMouse
        )
        self.body.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        # While an answer streams, the finished blocks sit in frozen labels above ``body``, which
        # holds only the block being written: a flush renders and lays out that block alone, not
        # the whole answer. When the answer ends, ``body`` holds it all again.
        self._parts = QVBoxLayout()
        self._parts.setContentsMargins(0, 0, 0, 0)
        self._parts.setSpacing(0)
        self._parts.addWidget(self.body)
        lay.addLayout(self._parts)
        self._frozen: list[QLabel] = []
        self._frozen_html: list[str] = []
        self._frozen_end = 0  # text[:_frozen_end] is in the frozen labels
        self._frozen_chars = 0  # characters of text in the last frozen label
        self.stats_strip = StatsStrip()
        self.stats_strip.hide()
        self.stats_strip.detailsRequested.connect(self._show_details)
        self.stats_strip.measureRequested.connect(lambda: self.measureRequested.emit(self.message_id))
        lay.addWidget(self.stats_strip)
        self.retranslate()

    def set_content(self, text: str, spans: list[tuple[int, int]] | None = None) -> None:
        grows = text.startswith(self.text[: self._frozen_end])
        self.text = text
        self.spans = list(spans or [])
        if (
            self.status == "streaming"
            and grows
            and self.role != "user"
            and renders_in_parts(text, self.tool_style)
        ):
            self._render_streaming()
        else:
            self._render()

    def set_images(self, paths: list[Path]) -> None:
        """Show the message's image files as thumbnails (a missing file shows as an empty one)."""
        if paths != self.image_paths:
            self.image_paths = list(paths)
            self.images.set_images(list(paths))

    def set_highlight(self, on: bool) -> None:
        if on != self.highlight:
            self.highlight = on
            self._render()

    def _markdown(self, text: str, spans: list[tuple[int, int]]) -> str:
        return render_markdown(
            text,
            spans,
            highlight=DRAFT_HIGHLIGHT if self.highlight else None,
            tool_style=self.tool_style,
            tool_label=self.tr("Tool call"),
            copy_label=self.tr("Copy"),
        )

    def _render(self) -> None:
        """The whole message in ``body`` (the frozen labels of a streamed answer go)."""
        self._drop_frozen()
        self.body.show()
        if self.role == "user":
            self.body.setText(render_markdown(self.text, highlight=None, copy_label=self.tr("Copy")))
        elif self.text or self.status == "streaming":
            self.body.setText(self._markdown(self.text or "…", self.spans))
        else:  # ended without a word: say so ("…" read as if it were still thinking)
            note = {
                "stopped": self.tr("Stopped before the first word."),
                "interrupted": self.tr("Interrupted before the first word."),
                "error": self.tr("Failed before the first word."),
            }.get(self.status, self.tr("The model gave an empty answer."))
            self.body.setText(f'<p style="color:#6b7280;"><i>{html.escape(note)}</i></p>')

    def _render_streaming(self) -> None:
        """Freeze the finished blocks (rendered once, appended to a frozen label) and render the
        block being written into ``body``; the parts together are the whole render."""
        text, spans = self.text, self.spans
        end = stable_prefix(text, self._frozen_end)
        if end > self._frozen_end:
            html = self._markdown(text[self._frozen_end : end], spans_in(spans, self._frozen_end, end))
            if not self._frozen or self._frozen_chars >= FROZEN_LABEL_CHARS:
                label = self._frozen_label()
                self._frozen.append(label)
                self._frozen_html.append("")
                self._frozen_chars = 0
                self._parts.insertWidget(len(self._frozen) - 1, label)
            self._frozen_html[-1] += html
            self._frozen[-1].setText(self._frozen_html[-1])
            self._frozen_chars += end - self._frozen_end
            self._frozen_end = end
        tail = text[end:]
        if tail or not end:
            self.body.setText(self._markdown(tail or "…", spans_in(spans, end)))
            self.body.show()
        else:
            self.body.hide()

    def _frozen_label(self) -> QLabel:
        label = TextLabel()
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.RichText)
        connect_links(label, lambda: self.text)
        label.setTextInteractionFlags(self.body.textInteractionFlags())
        label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        return label

    def _drop_frozen(self) -> None:
        for label in self._frozen:
            label.setParent(None)
            label.deleteLater()
        self._frozen.clear()
        self._frozen_html.clear()
        self._frozen_end = self._frozen_chars = 0

    def rendered_html(self) -> str:
        """What the message shows, as one HTML text (the frozen parts and the live one)."""
        live = self.body.text() if self.body.isVisibleTo(self) or not self._frozen else ""
        return "".join(self._frozen_html) + live

    def set_stats(self, stats: AnswerStats | None) -> None:
        if stats is None:
            self.stats_strip.hide()
            return
        self.stats_strip.set_stats(stats)
        self.stats_strip.show()

    def set_status(self, status: str) -> None:
        ended = self.status == "streaming" and status != "streaming"
        self.status = status
        if ended:
            long = len(self.text) > KEEP_PARTS_CHARS
            if long and self._frozen and renders_in_parts(self.text, self.tool_style):
                # the finished blocks stay as they were shown and only the rest is rendered (the
                # parts are the full render, see markdown.stable_prefix; a reload shows one text)
                self._render_streaming()
            else:
                self._render()  # the finished answer as one rich text, as a loaded one shows
        self.retranslate()

    def set_left_out(self, count: int) -> None:
        """Show that ``count`` earlier messages were not sent because the context was full."""
        self.left_out = count
        self.retranslate()

    def set_can_regenerate(self, on: bool) -> None:
        self.regen_btn.setVisible(on)

    def _copy(self) -> None:
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(self.text)

    def _show_details(self) -> None:
        if self.stats_strip.stats is not None:
            dlg = StatsDialog(self.stats_strip.stats, self.window())
            dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            dlg.open()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.role_label.setText(self.tr("You") if self.role == "user" else self.tr("Assistant"))
        if shows_empty_note(self):
            self._render()  # the note of an empty answer is text in the current language
        self.status_label.setText(
            {
                "stopped": self.tr("stopped"),
                "error": self.tr("failed"),
                "interrupted": self.tr("interrupted"),
            }.get(self.status, "")
        )
        self.status_label.setToolTip(
            self.tr(
                "Tandem was closed while this answer was being written; the text saved so far is "
                "shown. Regenerate writes it again."
            )
            if self.status == "interrupted"
            else ""
        )
        self.note_label.setVisible(self.left_out > 0)
        if self.left_out:
            self.note_label.setText(self.tr("Earlier turns were left out to fit the model's context."))
            self.note_label.setToolTip(
                self.tr("Messages not sent to the model: {count}. Only the newest turns fit.").format(
                    count=self.left_out
                )
            )
        self.copy_btn.setText(self.tr("Copy"))
        self.copy_btn.setToolTip(self.tr("Copy the text of this message"))
        self.edit_btn.setText(self.tr("Edit"))
        self.edit_btn.setToolTip(self.tr("Edit and resend: the answers after it are replaced"))
        self.regen_btn.setText(self.tr("Regenerate"))
        self.regen_btn.setToolTip(self.tr("Generate this answer again"))


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


class SamplingDialog(QDialog):
    def __init__(self, sampling: Sampling, system_prompt: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Conversation settings"))
        self.setMinimumWidth(460)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(18, 16, 18, 14)  # like the other dialogs
        lay.setSpacing(12)
        form = QFormLayout()
        self.system = QPlainTextEdit(system_prompt)
        self.system.setPlaceholderText(self.tr("e.g. You are a concise assistant."))
        self.system.setFixedHeight(90)
        self.temperature = QDoubleSpinBox()
        bind_range(self.temperature, limits.TEMPERATURE)
        self.temperature.setValue(sampling.temperature)
        self.top_p = QDoubleSpinBox()
        bind_range(self.top_p, limits.TOP_P)
        self.top_p.setValue(sampling.top_p)
        self.top_k = QSpinBox()
        bind_range(self.top_k, limits.TOP_K)
        self.top_k.setValue(sampling.top_k)
        self.max_tokens = QSpinBox()
        bind_range(self.max_tokens, limits.MAX_TOKENS)
        self.max_tokens.setValue(sampling.max_tokens)
        form.addRow(self.tr("System prompt"), self.system)
        form.addRow(self.tr("Temperature"), self.temperature)
        form.addRow(self.tr("Top-p"), self.top_p)
        form.addRow(self.tr("Top-k"), self.top_k)
        form.addRow(self.tr("Max new tokens"), self.max_tokens)
        lay.addLayout(form)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def sampling(self, base: Sampling) -> Sampling:
        return Sampling(
            temperature=self.temperature.value(),
            top_p=self.top_p.value(),
            top_k=self.top_k.value(),
            max_tokens=self.max_tokens.value(),
            seed=base.seed,
            stop=base.stop,
            repeat_penalty=base.repeat_penalty,  # not edited here: keep the launch's value
        )


class ChatView(QWidget):
    """Signals: ``sendRequested(str)``, ``stopRequested()``, ``regenerateRequested(int)``,
    ``editRequested(int)``, ``measureRequested(int)``, ``settingsRequested()``,
    ``highlightToggled(bool)``, ``autoOffRequested()``, ``remeasureRequested()`` (the Auto notice)."""

    sendRequested = Signal(str)
    stopRequested = Signal()
    regenerateRequested = Signal(int)
    editRequested = Signal(int)
    measureRequested = Signal(int)
    autoOffRequested = Signal()
    remeasureRequested = Signal()
    settingsRequested = Signal()
    highlightToggled = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(6)
        bar = QHBoxLayout()
        bar.setContentsMargins(4, 0, 4, 0)
        self.header = bar  # the chat page adds the speculation choice here
        self.title = ElidedLabel()
        self.title.setObjectName("sectionTitle")
        self.model_label = ElidedLabel()
        self.model_label.setProperty("muted", True)
        titles = QVBoxLayout()
        titles.setSpacing(0)
        titles.addWidget(self.title)
        titles.addWidget(self.model_label)
        bar.addLayout(titles, 1)
        self.highlight_btn = QToolButton()
        self.highlight_btn.setCheckable(True)
        self.highlight_btn.setChecked(True)
        self.highlight_btn.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.highlight_btn.toggled.connect(self._on_highlight)
        self.settings_btn = QToolButton()
        self.settings_btn.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.settings_btn.setIcon(icons.icon("sliders"))
        self.settings_btn.clicked.connect(self.settingsRequested)
        bar.addWidget(self.highlight_btn)
        bar.addWidget(self.settings_btn)
        lay.addLayout(bar)

        self.scroller = QScrollArea()
        self.scroller.setObjectName("chatScroll")
        self.scroller.setWidgetResizable(True)
        self.scroller.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.column = QWidget()
        self.column.setObjectName("chatColumn")
        self.column_layout = QVBoxLayout(self.column)
        self.column_layout.setContentsMargins(8, 8, 8, 8)
        self.column_layout.setSpacing(10)
        self.empty = QLabel()
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.setProperty("muted", True)
        self.column_layout.addWidget(self.empty)
        # the bubbles sit in a box of their own: clear() drops the box at once (taking 200 bubbles
        # out of the column one by one took 0.3-0.5 s, e.g. on Regenerate in a long conversation)
        self.messages_box, self._box_layout = self._new_box()
        self.column_layout.addWidget(self.messages_box)
        self.column_layout.addStretch(1)
        self.scroller.setWidget(self.column)
        lay.addWidget(self.scroller, 1)
        # Auto's choice losing on real answers: said here, with the two ways out
        self.auto_notice = QFrame()
        self.auto_notice.setObjectName("autoNotice")
        notice_lay = QHBoxLayout(self.auto_notice)
        notice_lay.setContentsMargins(8, 4, 8, 4)
        self.auto_text = QLabel()
        self.auto_text.setWordWrap(True)
        self.auto_off_btn = QPushButton()
        self.auto_off_btn.clicked.connect(self._on_auto_off)
        self.remeasure_btn = QPushButton()
        self.remeasure_btn.clicked.connect(self._on_remeasure)
        notice_lay.addWidget(self.auto_text, 1)
        notice_lay.addWidget(self.auto_off_btn)
        notice_lay.addWidget(self.remeasure_btn)
        self.auto_notice.hide()
        self._auto_loss: tuple[str, list[float]] | None = None
        lay.addWidget(self.auto_notice)
        #: where a stored image name's file is (the controller sets it from its chat store)
        self.image_path: Callable[[str], Path] | None = None
        self.composer = Composer()
        self.composer.send.connect(self.sendRequested)
        self.composer.stop.connect(self.stopRequested)
        lay.addWidget(self.composer)
        self.bubbles: list[MessageBubble] = []
        #: earlier messages of the shown conversation still to be built (oldest first)
        self._pending: list[Message] = []
        # A timer, not a chain of posted calls: the loop runs its other timers and events between
        # two batches (posted calls ran two batches back to back), and clear() stops it outright.
        self._build_timer = QTimer(self)
        self._build_timer.setInterval(0)
        self._build_timer.timeout.connect(self._build_pending)
        self._settle_timer = QTimer(self)
        self._settle_timer.setSingleShot(True)
        self._settle_timer.setInterval(100)
        self._settle_timer.timeout.connect(self._settled)
        # the bubbles of the conversation left are deleted a few per turn, the box they sit in
        # last (all at once: 60-180 ms for 200 messages)
        self._doomed: list[QWidget] = []
        self._reap_timer = QTimer(self)
        self._reap_timer.setInterval(0)
        self._reap_timer.timeout.connect(self._reap)
        self._generating = False
        #: the user is reading earlier messages while they are built above: this built bubble stays
        #: this far (column y minus scroll value) from the top of the view, however tall the
        #: messages built above it are (a range delta was fooled by Qt's passing range of 0)
        self._anchor: MessageBubble | None = None
        self._anchor_offset = 0
        self._correcting = False  # the view moves itself, not the reader
        #: the loaded family's ``tool_parser``; None: tagged tool calls are still found by their tags
        self.tool_style: str | None = None
        self._stick_to_bottom = True
        self.scroller.verticalScrollBar().rangeChanged.connect(self._on_range_changed)
        self.scroller.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        self.retranslate()

    # --- content ---------------------------------------------------------------------------------
    @staticmethod
    def _new_box() -> tuple[QWidget, QVBoxLayout]:
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(10)
        return box, lay

    def clear(self) -> None:
        self._pending.clear()  # a lazy build still under way stops here
        self._build_timer.stop()
        self._settle_timer.stop()
        self._anchor = None
        if self.bubbles:
            old = self.messages_box
            self.messages_box, self._box_layout = self._new_box()
            self.column_layout.replaceWidget(old, self.messages_box)
            old.hide()  # not reparented: that restyles every widget in it
            self._doomed += [old, *self.bubbles]
            self._reap_timer.start()
        self.bubbles.clear()
        self.empty.show()

    def _reap(self) -> None:
        for _ in range(REAP_BATCH):
            if not self._doomed:
                self._reap_timer.stop()
                return
            self._doomed.pop().deleteLater()

    def show_messages(self, messages: list[Message]) -> None:
        """Show a conversation: its last messages at once, the earlier ones built above them a
        batch per event-loop turn (a long conversation opens without a stall)."""
        self.clear()
        shown = [m for m in messages if m.role != "system"]
        eager, chars = 0, 0
        while eager < min(EAGER_MESSAGES, len(shown)) and chars < EAGER_CHARS:
            eager += 1
            chars += len(shown[-eager].content)
        for m in shown[len(shown) - eager :]:
            self._show(m, self.add_bubble(m.role, m.id))
        self._pending = shown[: len(shown) - eager]
        if self._pending:
            self._build_timer.start()
        self.update_actions(self._generating)
        self._stick_to_bottom = True

    def _show(self, m: Message, b: MessageBubble) -> None:
        if m.images and self.image_path is not None:
            b.set_images([self.image_path(n) for n in m.images])
        b.set_content(m.content, m.draft_spans)
        b.set_status(m.status)
        b.set_stats(m.stats)

    def _build_pending(self, everything: bool = False) -> None:
        """Build the next batch of earlier messages (newest first), above the ones shown."""
        if not self._pending:
            self._build_timer.stop()
            return
        if not self._stick_to_bottom and self._anchor is None and self.bubbles:
            self._anchor = self.bubbles[0]
            self._anchor_offset = self._anchor_y() - self.scroller.verticalScrollBar().value()
        started = time.perf_counter()
        built = 0
        # newest first, until the batch is full or its time is spent (a long message costs more)
        while self._pending and (
            everything or (built < LAZY_BATCH and time.perf_counter() - started < LAZY_BUDGET_S)
        ):
            m = self._pending.pop()
            b = self._new_bubble(m.role, m.id)
            self._show(m, b)
            b.edit_btn.setEnabled(not self._generating)
            self._box_layout.insertWidget(0, b)
            self.bubbles.insert(0, b)
            built += 1
        if not self._pending:  # once the last batch is laid out, growth below no longer moves the view
            self._build_timer.stop()
            self._settle_timer.start()

    def _anchor_y(self) -> int:
        assert self._anchor is not None
        return self._anchor.mapTo(self.column, QPoint(0, 0)).y()

    def _settled(self) -> None:
        self._anchor = None

    def pending_messages(self) -> int:
        """Earlier messages of the shown conversation not built yet (0 once all are shown)."""
        return len(self._pending)

    def _new_bubble(self, role: str, message_id: int) -> MessageBubble:
        b = MessageBubble(role, message_id)
        b.tool_style = self.tool_style
        b.set_highlight(self.highlight_btn.isChecked())
        b.editRequested.connect(self.editRequested)
        b.regenerateRequested.connect(self.regenerateRequested)
        b.measureRequested.connect(self.measureRequested)
        return b

    def add_bubble(self, role: str, message_id: int = 0) -> MessageBubble:
        self.empty.hide()
        b = self._new_bubble(role, message_id)
        self._box_layout.addWidget(b)
        self.bubbles.append(b)
        self._stick_to_bottom = True
        return b

    def update_actions(self, generating: bool = False) -> None:
        self._generating = generating
        last_assistant = max((i for i, b in enumerate(self.bubbles) if b.role == "assistant"), default=-1)
        for i, b in enumerate(self.bubbles):
            b.set_can_regenerate(i == last_assistant and not generating)
            b.edit_btn.setEnabled(not generating)
        self.composer.set_generating(generating)

    def bubble(self, message_id: int) -> MessageBubble | None:
        found = next((b for b in self.bubbles if b.message_id == message_id), None)
        if found is None and any(m.id == message_id for m in self._pending):
            self._build_pending(everything=True)  # asked for an earlier message: build them all now
            found = next((b for b in self.bubbles if b.message_id == message_id), None)
        return found

    def show_auto_loss(self, label: str, ratios: list[float]) -> None:
        """Auto's choice ``label`` was slower than plain on these answers."""
        self._auto_loss = (label, list(ratios))
        self.retranslate()
        self.auto_notice.show()

    def hide_auto_loss(self) -> None:
        self._auto_loss = None
        self.auto_notice.hide()

    def _on_auto_off(self) -> None:
        self.hide_auto_loss()
        self.autoOffRequested.emit()

    def _on_remeasure(self) -> None:
        self.hide_auto_loss()
        self.remeasureRequested.emit()

    def set_title(self, title: str, model: str) -> None:
        self.title.setText(title)
        self.model_label.setText(model)

    def _on_highlight(self, on: bool) -> None:
        for b in self.bubbles:
            b.set_highlight(on)
        self.highlightToggled.emit(on)

    def _on_scrolled(self, value: int) -> None:
        if self._correcting:
            return
        bar = self.scroller.verticalScrollBar()
        self._stick_to_bottom = value >= bar.maximum() - 4
        if self._stick_to_bottom:
            self._anchor = None
        elif self._anchor is not None:  # the reader moved: keep their new place
            self._anchor_offset = self._anchor_y() - value
        if self._pending and not self._stick_to_bottom and value < self.scroller.viewport().height():
            self._build_pending()  # the reader reached the top of what is built: the next batch now

    def settle(self) -> None:
        """Lay out what a streamed update changed now, scroll included, so the window paints it
        once: left to the event loop, a flush painted the old layout, then the new one, then the
        view scrolled to the bottom (three repaints of the chat column per flush)."""
        for _level in range(4):  # a layout's request reaches its parent's at the next pass
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)

    def _on_range_changed(self, _lo: int, hi: int) -> None:
        bar = self.scroller.verticalScrollBar()
        if self._stick_to_bottom:
            bar.setValue(hi)
        elif self._anchor is not None:  # messages were built above the view
            self._correcting = True
            try:
                bar.setValue(self._anchor_y() - self._anchor_offset)
            finally:
                self._correcting = False

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.highlight_btn.setText(self.tr("Highlight drafted tokens"))
        self.highlight_btn.setToolTip(
            self.tr(
                "Shade the text that came from accepted drafts: the model verified it instead of producing "
                "it one token at a time."
            )
        )
        self.settings_btn.setText(self.tr("Sampling"))
        self.settings_btn.setToolTip(self.tr("System prompt and sampling settings of this conversation"))
        self.empty.setText(
            self.tr("Ask anything. Answers stream here with their speed and acceptance statistics.")
        )
        self.auto_off_btn.setText(self.tr("Switch speculation off"))
        self.remeasure_btn.setText(self.tr("Re-measure"))
        if self._auto_loss is not None:
            label, ratios = self._auto_loss
            slower = [r for r in ratios if r < 1.0]
            self.auto_text.setText(
                self.tr(
                    "Auto chose {method}, but {slower} of your last {n} answers were slower than "
                    "without speculation ({ratios})."
                ).format(
                    method=label,
                    slower=len(slower),
                    n=len(ratios),
                    ratios=", ".join(f"{r:.2f}×" for r in ratios),
                )
            )
