"""How the chat's answers end: stored and shown with their figures, or reported as failed.

An answer ends complete, stopped or failed. Its queued events are shown first; then it is no
longer its conversation's running answer, and the flush timer stops with the last one. When its
conversation is shown, its speculation choice learns which configuration wrote it. Its row and its
bubble take its status and figures; a complete answer is compared with the speed baseline and
counts towards Auto's loss notice. A failed answer that wrote nothing is removed, row and bubble,
and the failure is reported (a prompt too long for the context says what it needs and what to
change). A prompt refused for its documents (gone, or no room for them in the context) is one
line in the answer's place, its row removed and the message kept. A tool loop's last turn,
written when it ended, only ends the loop. An answer whose
conversation was removed writes nothing. At shutdown every running answer's task is cancelled and
what it wrote is kept as stopped; a save that fails then is logged.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, Signal

from app.core.chat import AnswerStats, ChatStore
from app.core.chat.context import ContextOverflowError
from app.core.chat.store import MessageStatus
from app.core.documents.extract import DocumentError
from app.core.engines.base import GenerationError
from app.gui.controllers.chat.answers import RunningAnswer, RunningAnswers
from app.gui.controllers.chat.documents import StoredDocumentError
from app.gui.controllers.chat.pacing import AnswerPacer
from app.gui.controllers.chat.speculation import ConversationSpeculation
from app.gui.controllers.chat.speeds import AnswerSpeeds
from app.gui.errors import ErrorBridge
from app.gui.models.conversations_model import ConversationsModel
from app.gui.views.chat import ChatView
from app.gui.views.documents import document_error_text

log = logging.getLogger(__name__)


class AnswerEndings(QObject):
    """Signals: ``answerFinished(object AnswerStats)`` (a plain answer ended complete or stopped)."""

    answerFinished = Signal(object)

    def __init__(
        self,
        answers: RunningAnswers,
        pacer: AnswerPacer,
        store: ChatStore,
        view: ChatView,
        conversations: ConversationsModel,
        speeds: AnswerSpeeds,
        speculation: ConversationSpeculation,
        errors: ErrorBridge,
        shown: Callable[[], int | None],
        sync_actions: Callable[[], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.answers = answers
        self.pacer = pacer
        self.store = store
        self.view = view
        self.conversations = conversations
        self.speeds = speeds
        self.speculation = speculation
        self.errors = errors
        #: the conversation shown, if any
        self._shown = shown
        #: the chat's actions follow its running answers
        self._sync_actions = sync_actions

    def finish(self, answer: RunningAnswer, status: MessageStatus, reason: str | None) -> AnswerStats | None:
        """End ``answer`` with ``status``: its figures, or None for a tool loop's last turn (its
        row is written already)."""
        self.pacer.flush(answer, settle=False)  # the end changes the bubble again: laid out once, after
        self.answers.remove(answer)
        if not self.answers:
            self.pacer.stop()
        builder, bubble = answer.builder, answer.bubble
        if answer.configuration and answer.conversation_id == self._shown():
            self.speculation.answered(answer.configuration)
        if answer.ended:  # a tool loop's last turn is written already
            return self._after_answer(None)
        stats = builder.stats(reason)
        if status == "complete":
            stats = self.speeds.compare_with_baseline(stats, answer.info)
            self.speeds.note(answer.message_id, stats, answer.info)
        if status == "error" and not builder.text:
            if not answer.removed:
                self.store.delete_message(answer.message_id)
            if bubble is not None:
                bubble.setParent(None)
                bubble.deleteLater()
                self.view.bubbles.remove(bubble)
        else:
            if not answer.removed:
                self.store.update_message(
                    answer.message_id,
                    builder.text,
                    status=status,
                    stats=stats,
                    draft_spans=builder.draft_spans,
                    touch=True,
                )
                self.conversations.touch(answer.conversation_id)
            if bubble is not None:
                bubble.set_status(status)
                bubble.set_stats(stats)
        return self._after_answer(stats)

    def _after_answer(self, stats: AnswerStats | None) -> AnswerStats | None:
        self._sync_actions()
        return stats

    def done(self, answer: RunningAnswer, cancelled: bool) -> None:
        """A plain answer's stream ended, or was cancelled."""
        stats = self.finish(
            answer, "stopped" if cancelled else "complete", "cancelled" if cancelled else None
        )
        if stats is not None:
            self.answerFinished.emit(stats)

    def refused(self, answer: RunningAnswer, line: str) -> None:
        """End ``answer`` before its prompt was sent: its row goes, its place says ``line``."""
        self.answers.remove(answer)
        if not self.answers:
            self.pacer.stop()
        if not answer.removed:
            self.store.delete_message(answer.message_id)
        bubble = answer.bubble
        if bubble is not None:
            bubble.message_id = 0  # no row: nothing to regenerate or measure
            bubble.set_refusal(line)
        self._sync_actions()

    def failed(self, answer: RunningAnswer, exc: BaseException) -> None:
        """End ``answer`` as failed and report ``exc`` (a refusal of its documents: in its place)."""
        if isinstance(exc, DocumentError):
            filename = exc.filename if isinstance(exc, StoredDocumentError) else ""
            self.refused(answer, document_error_text(exc, filename))
            return
        self.finish(answer, "error", "error")
        if isinstance(exc, ContextOverflowError):
            exc = GenerationError(
                QCoreApplication.translate(
                    "ChatController",
                    "This message needs {needed} tokens with the system prompt, but the model's context "
                    "holds {n_ctx} tokens and {reserved} of them are kept for the answer.",
                ).format(needed=exc.needed, n_ctx=exc.n_ctx, reserved=exc.reserved),
                QCoreApplication.translate(
                    "ChatController",
                    "Shorten the message, lower Max new tokens in Sampling, or load the model with a "
                    "larger context length.",
                ),
            )
        self.errors.report(
            exc, QCoreApplication.translate("ChatController", "The answer could not be generated")
        )

    def keep_stopped(self, answer: RunningAnswer) -> None:
        """At shutdown: cancel ``answer``'s task and keep what it wrote, as stopped."""
        if answer.task is not None:
            answer.task.cancel()
        if not answer.removed and not answer.ended:
            builder = answer.builder
            try:
                self.store.update_message(
                    answer.message_id,
                    builder.text,
                    status="stopped",
                    stats=builder.stats("cancelled"),
                    draft_spans=builder.draft_spans,
                    touch=True,
                )
            except sqlite3.Error as exc:
                log.warning("the answer being written was not saved: %s", exc)
