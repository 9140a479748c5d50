"""The chat column: a conversation's bubbles (the newest built at once, earlier ones built above
them a batch per turn), the header and the composer.

This widget only shows things and emits what the user asked for; :mod:`app.gui.controllers.chat`
does the work."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QPoint, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core.chat import Message
from app.core.documents.extract import DocumentError
from app.core.documents.store import Attachment
from app.gui import icons
from app.gui.views.chat.bubble import MessageBubble
from app.gui.views.chat.composer import Composer
from app.gui.views.documents import ChipFacts, facts_text
from app.gui.widgets import ElidedLabel

#: a conversation opens with its last messages built at once, the earlier ones a batch per turn
EAGER_MESSAGES = 12
EAGER_CHARS = 3000  # about a screenful of text: the newest messages up to this many are built at once
LAZY_BATCH = 4
LAZY_BUDGET_S = 0.006  # building time per event-loop turn (its polish, layout and paint come on top)
REAP_BATCH = 8  # bubbles of a conversation left behind deleted per event-loop turn


class ChatView(QWidget):
    """Signals: ``sendRequested(str)``, ``stopRequested()``, ``regenerateRequested(int)``,
    ``editRequested(int)``, ``measureRequested(int)``, ``settingsRequested()``,
    ``highlightToggled(bool)``, ``autoOffRequested()``, ``remeasureRequested()`` (the Auto notice),
    ``documentOpenRequested(object Attachment)`` (a message's document chip clicked),
    ``sourceOpenRequested(int message_id, str filename)`` (an answer's source's document)."""

    sendRequested = Signal(str)
    stopRequested = Signal()
    regenerateRequested = Signal(int)
    editRequested = Signal(int)
    measureRequested = Signal(int)
    autoOffRequested = Signal()
    remeasureRequested = Signal()
    settingsRequested = Signal()
    highlightToggled = Signal(bool)
    documentOpenRequested = Signal(object)
    sourceOpenRequested = Signal(int, str)

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
        # the bubbles sit in a box of their own: clear() drops the box at once (taking many bubbles
        # out of the column one by one holds the window, e.g. on Regenerate in a long conversation)
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
        #: where a stored document name's file is (set like image_path)
        self.document_path: Callable[[str], Path] | None = None
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
        # last (deleting a long conversation's bubbles at once is a visible stall)
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
        if m.documents:
            self.show_documents(b, list(m.documents))
        if m.sources:
            b.set_sources(m.sources)
        if m.role == "tool":
            b.set_tool_result(m.tool_name, m.content)
        else:
            b.set_content(m.content, m.draft_spans)
        if m.tool_calls:
            b.set_tool_calls(list(m.tool_calls))
        b.set_status(m.status)
        b.set_stats(m.stats)

    def show_documents(self, bubble: MessageBubble, documents: list[Attachment]) -> None:
        """A message's documents as chips: each one's name, kind and stored size."""
        chips = []
        for a in documents:
            size: int | None = None
            if self.document_path is not None:
                try:
                    size = self.document_path(a.name).stat().st_size
                except (OSError, DocumentError):  # gone, or a name that is not a document's
                    size = None
            chips.append(ChipFacts(a.filename, facts_text(a.filename, size)))
        bubble.set_documents(documents, chips)

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
        b.documentOpenRequested.connect(self.documentOpenRequested)
        b.sourceOpenRequested.connect(self.sourceOpenRequested)
        return b

    def add_bubble(self, role: str, message_id: int = 0) -> MessageBubble:
        self.empty.hide()
        b = self._new_bubble(role, message_id)
        self._box_layout.addWidget(b)
        self.bubbles.append(b)
        self._stick_to_bottom = True
        return b

    def remove_bubble(self, bubble: MessageBubble) -> None:
        """Take a bubble away (one that stood in for an answer not started)."""
        if bubble in self.bubbles:
            self.bubbles.remove(bubble)
            bubble.hide()
            bubble.deleteLater()
        if not self.bubbles:
            self.empty.show()

    def update_actions(self, generating: bool = False) -> None:
        self._generating = generating
        last_assistant = max((i for i, b in enumerate(self.bubbles) if b.role == "assistant"), default=-1)
        for i, b in enumerate(self.bubbles):
            # a bubble with no row (a load awaited, a refused prompt) has nothing to regenerate
            b.set_can_regenerate(i == last_assistant and not generating and b.message_id != 0)
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
