"""One message of the chat: its Markdown (drafted tokens highlighted), images, documents, actions
and stats strip. A streamed answer renders its finished blocks once, into frozen labels.

A user message shows its documents as chips (a click asks to open the stored copy); an answer
that was given documents lists its sources under its text (a click shows the passage).

An answer that calls tools shows each call as a :class:`ToolCallBlock` under its text; a call's
result is a ``tool`` message, shown collapsed (its header says which tool; a click shows it)."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core.chat import AnswerStats, render_markdown
from app.core.chat.markdown import renders_in_parts, spans_in, stable_prefix
from app.core.chat.render import Colors
from app.core.documents.grounding import Source
from app.core.documents.store import Attachment
from app.core.engines.calls import WireToolCall
from app.gui import icons
from app.gui.style import chat_colors
from app.gui.views.attachments import (
    THUMB_SIDE,
    ThumbnailRow,
)
from app.gui.views.chat.links import connect_links
from app.gui.views.chat.rich_text import RichText
from app.gui.views.chat.text_label import TextLabel
from app.gui.views.chat.tool_call import ToolCallBlock
from app.gui.views.documents import ChipFacts, DocumentChipRow, SourceDialog, SourcesPanel
from app.gui.views.stats import StatsDialog, StatsStrip

# TextLabel: the label of each block of a message's text (see rich_text)
__all__ = [
    "FROZEN_LABEL_CHARS",
    "KEEP_PARTS_CHARS",
    "MessageBubble",
    "TextLabel",
    "shows_empty_note",
    "shows_writing_note",
]

#: a streamed answer's finished blocks go into frozen labels of about this many characters each, so
#: appending a block lays out one bounded label, never the whole answer
FROZEN_LABEL_CHARS = 2000
#: a streamed answer longer than this keeps its frozen labels when it ends (rendering a long answer
#: again as one text holds the window at its end); shorter ones end as one text, as a loaded
#: answer shows
KEEP_PARTS_CHARS = 8000


def shows_empty_note(bubble: MessageBubble) -> bool:
    """An ended assistant answer without text (white space only included) shows a note, rendered
    in the current language."""
    return (
        bubble.role == "assistant"
        and not bubble.text.strip()
        and not bubble.calls
        and bubble.status != "streaming"
    )


def shows_writing_note(bubble: MessageBubble) -> bool:
    """An answer being written shows a note until its first character other than white space
    (rendered Markdown shows every character the model wrote, see
    :mod:`app.core.chat.render.shown`)."""
    return bubble.role == "assistant" and bubble.status == "streaming" and not bubble.text.strip()


def _fenced(text: str) -> str:
    """``text`` as one Markdown code block (a fence longer than any backtick run inside it)."""
    longest = run = 0
    for ch in text:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}\n{text}\n{ticks}"


class MessageBubble(QFrame):
    """One message. Signals: ``editRequested(int)``, ``regenerateRequested(int)``,
    ``measureRequested(int)`` (message ids), ``documentOpenRequested(object Attachment)`` (a
    document chip clicked), ``sourceOpenRequested(int message_id, str filename)`` (a source's
    document asked for)."""

    editRequested = Signal(int)
    regenerateRequested = Signal(int)
    measureRequested = Signal(int)
    documentOpenRequested = Signal(object)
    sourceOpenRequested = Signal(int, str)

    def __init__(self, role: str, message_id: int = 0, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.role = role
        self.message_id = message_id
        self.text = ""
        self.spans: list[tuple[int, int]] = []
        self.highlight = True
        #: the colours and labels of the last render: a new palette or language renders again
        self._look: tuple[Colors, str, str, str] | None = None
        self.status = "complete"
        #: earlier messages left out of this answer's prompt to fit the context (0: none)
        self.left_out = 0
        #: the loaded family's ``tool_parser`` (tool calls shown as blocks)
        self.tool_style: str | None = None
        #: an answer's tool calls, one block each, under its text
        self.calls: list[ToolCallBlock] = []
        #: a ``tool`` message: the tool whose result it is
        self.tool_name = ""
        #: what an answer not written yet is doing ("Reading the documents…"); "" for the usual note
        self.activity = ""
        self.setObjectName({"user": "bubbleUser", "tool": "bubbleTool"}.get(role, "bubbleAssistant"))
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
        # a tool's result: collapsed under its call; this shows or hides it
        self.result_btn = QToolButton()
        self.result_btn.setCheckable(True)
        self.result_btn.setAutoRaise(True)
        self.result_btn.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.result_btn.setArrowType(Qt.ArrowType.RightArrow)
        self.result_btn.toggled.connect(self._on_result_toggled)
        self.result_btn.setVisible(role == "tool")
        head.addWidget(self.result_btn)
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
        #: a user message's documents, as chips under its images; click one to open it
        self.documents: list[Attachment] = []
        self.doc_chips = DocumentChipRow(openable=True)
        self.doc_chips.openRequested.connect(self._on_document_clicked)
        lay.addWidget(self.doc_chips)
        # the text in blocks no wider than the bubble: a long code line scrolls inside its block
        # and never widens the conversation
        self.body = RichText()
        connect_links(self.body, lambda: self.text)
        # While an answer streams, the finished blocks sit in frozen labels above ``body``, which
        # holds only the block being written: a flush renders and lays out that block alone, not
        # the whole answer. When the answer ends, ``body`` holds it all again.
        self._parts = QVBoxLayout()
        self._parts.setContentsMargins(0, 0, 0, 0)
        self._parts.setSpacing(0)
        self._parts.addWidget(self.body)
        lay.addLayout(self._parts)
        # why a tool loop ended without an answer, or a server that did not start: one line
        self.tool_note = QLabel()
        self.tool_note.setObjectName("toolNote")
        self.tool_note.setWordWrap(True)
        self.tool_note.hide()
        self._calls_box = QVBoxLayout()
        self._calls_box.setContentsMargins(0, 0, 0, 0)
        self._calls_box.setSpacing(6)
        lay.addLayout(self._calls_box)
        lay.addWidget(self.tool_note)
        self._frozen: list[RichText] = []
        self._frozen_html: list[str] = []
        self._frozen_end = 0  # text[:_frozen_end] is in the frozen labels
        self._frozen_chars = 0  # characters of text in the last frozen label
        #: an answer's sources: the documents and passages it was given
        self.sources_panel = SourcesPanel()
        self.sources_panel.sourceRequested.connect(self.show_source)
        lay.addWidget(self.sources_panel)
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

    def set_tool_calls(self, calls: list[WireToolCall]) -> list[ToolCallBlock]:
        """Show the answer's calls, one block each, under its text; returns the blocks."""
        for block in self.calls:
            block.setParent(None)
            block.deleteLater()
        self.calls = [ToolCallBlock(c) for c in calls]
        for block in self.calls:
            self._calls_box.addWidget(block)
        self._render()
        return self.calls

    def set_tool_note(self, line: str) -> None:
        """One line under the answer's calls (a denied call, a server that failed)."""
        self.tool_note.setText(line)
        self.tool_note.setVisible(bool(line))

    def call_block(self, call_id: str) -> ToolCallBlock | None:
        return next((b for b in self.calls if b.call_id == call_id), None)

    def set_tool_result(self, name: str, content: str) -> None:
        """A ``tool`` message: the result of ``name``, collapsed until the user opens it."""
        self.tool_name = name
        self.set_content(content)
        self.retranslate()

    def _on_result_toggled(self, on: bool) -> None:
        self.result_btn.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.body.setVisible(on)

    def set_images(self, paths: list[Path]) -> None:
        """Show the message's image files as thumbnails (a missing file shows as an empty one)."""
        if paths != self.image_paths:
            self.image_paths = list(paths)
            self.images.set_images(list(paths))

    def set_documents(self, documents: list[Attachment], chips: list[ChipFacts]) -> None:
        """Show the message's documents as chips (``chips``: what each one shows)."""
        self.documents = list(documents)
        self.doc_chips.set_chips(chips)

    def _on_document_clicked(self, index: int) -> None:
        if 0 <= index < len(self.documents):
            self.documentOpenRequested.emit(self.documents[index])

    def set_sources(self, sources: tuple[Source, ...]) -> None:
        """Show the documents and passages the answer was given (none: nothing shown)."""
        self.sources_panel.set_sources(tuple(sources))

    def show_source(self, index: int) -> SourceDialog | None:
        """Open the dialog of source ``index``: its passage, and a button to open its document."""
        sources = self.sources_panel.sources
        if not 0 <= index < len(sources):
            return None
        source = sources[index]
        dlg = SourceDialog(source, self.window())
        dlg.openRequested.connect(lambda: self.sourceOpenRequested.emit(self.message_id, source.filename))
        dlg.open()
        return dlg

    def set_refusal(self, line: str) -> None:
        """An answer that was never asked: the one line saying why, in its place."""
        self.activity = ""
        self.set_status("error")
        self.body.hide()
        self.copy_btn.hide()  # nothing was written
        self.set_tool_note(line)

    def set_activity(self, text: str) -> None:
        """What the answer does before its first word (shown in place of "Writing the answer…");
        "" for the usual note."""
        if text != self.activity:
            self.activity = text
            if shows_writing_note(self):
                self._render()

    def set_highlight(self, on: bool) -> None:
        if on != self.highlight:
            self.highlight = on
            self._render()

    def _current_look(self) -> tuple[Colors, str, str, str]:
        return (
            chat_colors(self.palette()),
            self.tr("Copy"),
            self.tr("Tool call"),
            self.tr("Writing the answer…"),
        )

    def _note(self, text: str) -> str:
        """A quiet line of the bubble's own (not the model's text)."""
        assert self._look is not None
        return f'<p style="color:{self._look[0].muted};"><i>{html.escape(text)}</i></p>'

    def _markdown(self, text: str, spans: list[tuple[int, int]]) -> str:
        assert self._look is not None
        colors, copy_label, tool_label, _writing = self._look
        return render_markdown(
            text,
            spans,
            highlight=colors.draft if self.highlight else None,
            colors=colors,
            tool_style=self.tool_style,
            tool_label=tool_label,
            copy_label=copy_label,
            live=self.status == "streaming",
        )

    def _render(self) -> None:
        """The whole message in ``body`` (the frozen labels of a streamed answer go)."""
        self._drop_frozen()
        self.body.show()
        self._look = colors, copy_label, _tool, writing = self._current_look()
        if self.role == "user":
            self.body.setText(
                render_markdown(self.text, highlight=None, colors=colors, copy_label=copy_label)
            )
        elif self.role == "tool":
            self.body.setText(
                render_markdown(_fenced(self.text), highlight=None, colors=colors, copy_label=copy_label)
            )
            self.body.setVisible(self.result_btn.isChecked())
        elif self.calls and not self.text.strip() and self.status != "streaming":
            self.body.hide()  # the calls say it all
        elif shows_writing_note(self):
            self.body.setText(self._note(self.activity or writing))
        elif self.text.strip():
            self.body.setText(self._markdown(self.text, self.spans))
        else:  # ended without a word: say so ("…" read as if it were still thinking)
            note = {
                "stopped": self.tr("Stopped before the first word."),
                "interrupted": self.tr("Interrupted before the first word."),
                "error": self.tr("Failed before the first word."),
            }.get(self.status, self.tr("The model gave an empty answer."))
            self.body.setText(self._note(note))

    def refresh_look(self) -> None:
        """Render again when the palette (light / dark) or the language (a code block's Copy
        link, a tool call's label) changed since the last render."""
        if self._look is None or self._look == self._current_look():
            return
        if self._frozen or (self.status == "streaming" and self.body.isHidden()):
            self._drop_frozen()  # a streamed answer in parts: its frozen labels are rendered anew
            self._look = self._current_look()
            self._render_streaming()
        else:
            self._render()

    def _render_streaming(self) -> None:
        """Freeze the finished blocks (rendered once, appended to a frozen label) and render the
        block being written into ``body``; the parts together are the whole render."""
        text, spans = self.text, self.spans
        if self._look is None or not self._frozen:
            self._look = self._current_look()
        end = stable_prefix(text, self._frozen_end)
        if end > self._frozen_end:
            html = self._markdown(text[self._frozen_end : end], spans_in(spans, self._frozen_end, end))
            if not self._frozen or self._frozen_chars >= FROZEN_LABEL_CHARS:
                label = self._frozen_label()
                self._frozen.append(label)
                self._frozen_html.append("")
                self._frozen_chars = 0
                self._parts.insertWidget(len(self._frozen) - 1, label)
                label.show()  # laid out with this flush (a layout shows a new widget a turn later)
            self._frozen_html[-1] += html
            self._frozen[-1].setText(self._frozen_html[-1])
            self._frozen_chars += end - self._frozen_end
            self._frozen_end = end
        tail = text[end:]
        assert self._look is not None
        if not end and shows_writing_note(self):
            self.body.setText(self._note(self.activity or self._look[3]))
            self.body.show()
        elif tail.strip():
            self.body.setText(self._markdown(tail, spans_in(spans, end)))
            self.body.show()
        else:
            self.body.hide()

    def _frozen_label(self) -> RichText:
        label = RichText()
        connect_links(label, lambda: self.text)
        label.setTextInteractionFlags(self.body.textInteractionFlags())
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
        kind = event.type()
        if kind == QEvent.Type.LanguageChange:
            self.retranslate()
            self.refresh_look()
        elif kind in (QEvent.Type.PaletteChange, QEvent.Type.StyleChange):
            self.refresh_look()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.role_label.setText(
            {"user": self.tr("You"), "tool": self.tr("Tool result")}.get(self.role, self.tr("Assistant"))
        )
        if self.role == "tool":
            self.result_btn.setText(self.tr("Result of {name}").format(name=self.tool_name))
            self.result_btn.setToolTip(self.tr("Show or hide what the tool returned"))
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
