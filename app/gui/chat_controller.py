"""Runs a conversation: persists messages, drives the engine host, repaints on a timer.

Tokens are buffered by :class:`~app.gui.workers.EngineHost`; a 50 ms timer drains the buffer and
repaints the streaming bubble once per tick, never once per token.

Each complete answer also feeds the speed baselines (:mod:`app.core.chat.baselines`): a plain
answer records its decode speed, a speculative one is compared with the recorded plain speed of
the same target file, engine and thread count, so its strip can show the speedup obtained.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal

from app.core.chat import AnswerBuilder, AnswerStats, ChatStore, Message
from app.core.chat.baselines import BaselineStore
from app.core.chat.store import title_from_message
from app.core.engines.base import ChatMessage, GenerationError, Sampling
from app.gui.errors import ErrorBridge
from app.gui.models.conversations_model import ConversationsModel
from app.gui.views.chat_view import ChatView, MessageBubble, SamplingDialog
from app.gui.workers import EngineHost

log = logging.getLogger(__name__)

FLUSH_INTERVAL_MS = 50


class ChatController(QObject):
    """Signals: ``answerFinished(object AnswerStats)``, ``generatingChanged(bool)``,
    ``conversationChanged(int)``."""

    answerFinished = Signal(object)
    generatingChanged = Signal(bool)
    conversationChanged = Signal(int)

    def __init__(
        self,
        store: ChatStore,
        engine: EngineHost,
        view: ChatView,
        conversations: ConversationsModel,
        errors: ErrorBridge,
        sampling: Sampling,
        system_prompt: str = "",
        parent: QObject | None = None,
        baselines: BaselineStore | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.engine = engine
        self.view = view
        self.conversations = conversations
        self.errors = errors
        self.sampling = sampling
        self.default_system_prompt = system_prompt
        # A tiny JSON file in the user data dir: reading/writing it at answer end is not noticeable.
        self.baselines = baselines or BaselineStore()
        self.conversation_id: int | None = None
        self.generating = False
        self._builder: AnswerBuilder | None = None
        # The engine's info when the answer started: a reload queued behind the answer replaces
        # engine.info before the answer's end is handled.
        self._answer_info: dict[str, Any] = {}
        self._bubble: MessageBubble | None = None
        self._dirty = False
        self._timer = QTimer(self)
        self._timer.setInterval(FLUSH_INTERVAL_MS)
        self._timer.timeout.connect(self._flush)
        engine.generationDone.connect(self._on_generation_done)
        engine.generationFailed.connect(self._on_generation_failed)
        view.sendRequested.connect(self.send)
        view.stopRequested.connect(self.stop)
        view.regenerateRequested.connect(self.regenerate)
        view.editRequested.connect(self.edit)
        view.settingsRequested.connect(self.edit_settings)

    # --- conversations ---------------------------------------------------------------------------
    def open_conversation(self, conversation_id: int | None) -> None:
        if self.generating:
            self.stop()
        self.conversation_id = conversation_id
        if conversation_id is None:
            self.view.clear()
            self.view.set_title(QCoreApplication.translate("ChatController", "New chat"), self._model_label())
        else:
            conv = self.store.conversation(conversation_id)
            self.view.show_messages(self.store.messages(conversation_id))
            self.view.set_title(conv.title, self._model_label())
        self.conversationChanged.emit(conversation_id or 0)

    def refresh_model_label(self) -> None:
        title = (
            self.store.conversation(self.conversation_id).title
            if self.conversation_id
            else QCoreApplication.translate("ChatController", "New chat")
        )
        self.view.set_title(title, self._model_label())

    def _model_label(self) -> str:
        info = self.engine.info
        return (
            str(info.get("label", ""))
            if info
            else QCoreApplication.translate("ChatController", "No model loaded")
        )

    def _ensure_conversation(self, first_text: str) -> int:
        if self.conversation_id is None:
            title = title_from_message(first_text) or QCoreApplication.translate("ChatController", "New chat")
            index = self.conversations.create(title, self.default_system_prompt)
            self.conversation_id = self.conversations.conversation(index.row()).id
            self.view.set_title(title, self._model_label())
            self.conversationChanged.emit(self.conversation_id)
        return self.conversation_id

    # --- turns ----------------------------------------------------------------------------------
    def send(self, text: str) -> None:
        if self.generating:
            return
        if not self.engine.is_loaded:
            self.errors.report(
                GenerationError(
                    QCoreApplication.translate("ChatController", "No model is loaded."),
                    QCoreApplication.translate(
                        "ChatController", "Load a model from the Models page, then send again."
                    ),
                )
            )
            return
        cid = self._ensure_conversation(text)
        msg = self.store.add_message(cid, "user", text)
        self.view.composer.input.clear()
        bubble = self.view.add_bubble("user", msg.id)
        bubble.set_content(text)
        self.conversations.touch(cid)
        self._start()

    def _history(self) -> list[ChatMessage]:
        assert self.conversation_id is not None
        conv = self.store.conversation(self.conversation_id)
        out: list[ChatMessage] = []
        if conv.system_prompt.strip():
            out.append({"role": "system", "content": conv.system_prompt})
        for m in self.store.messages(self.conversation_id):
            if m.role in ("user", "assistant") and m.status != "error" and m.content:
                out.append({"role": m.role, "content": m.content})
        return out

    def _start(self) -> None:
        info = self._answer_info = dict(self.engine.info or {})
        self._builder = AnswerBuilder(str(info.get("speculation", "")))
        self._bubble = self.view.add_bubble("assistant")
        self._bubble.set_content("")
        self._set_generating(True)
        self.engine.generate(self._history(), self.sampling)
        self._timer.start()

    def stop(self) -> None:
        if self.generating:
            self.engine.cancel()

    def _flush(self) -> None:
        builder, bubble = self._builder, self._bubble
        if builder is None or bubble is None:
            return
        events = self.engine.drain()
        for ev in events:
            builder.feed(ev)
        if events:
            bubble.set_content(builder.text, builder.draft_spans)

    def _finish(self, status: str, reason: str | None) -> AnswerStats | None:
        self._timer.stop()
        self._flush()
        builder, bubble = self._builder, self._bubble
        self._builder, self._bubble = None, None
        if builder is None or bubble is None or self.conversation_id is None:
            self._set_generating(False)
            return None
        stats = builder.stats(reason)
        info = self._answer_info
        if status == "complete":
            stats = self._compare_with_baseline(stats, info)
        if status == "error" and not builder.text:
            bubble.setParent(None)
            bubble.deleteLater()
            self.view.bubbles.remove(bubble)
            self._set_generating(False)
            return stats
        msg = self.store.add_message(
            self.conversation_id,
            "assistant",
            builder.text,
            status=status,  # type: ignore[arg-type]
            model=str(info.get("label", "")),
            stats=stats,
            draft_spans=builder.draft_spans,
        )
        bubble.message_id = msg.id
        bubble.set_status(status)
        bubble.set_stats(stats)
        self.conversations.touch(self.conversation_id)
        self._set_generating(False)
        return stats

    def _compare_with_baseline(self, stats: AnswerStats, info: dict[str, Any]) -> AnswerStats:
        """Record a plain answer's speed, or attach the plain speed to a speculative answer."""
        key = str(info.get("baseline_key") or "")
        if not key:
            return stats
        try:
            if not stats.speculation:
                self.baselines.record(key, stats.decode_tps, stats.completion_tokens)
                return stats
            baseline = self.baselines.get(key)
        except OSError as exc:  # a full disk must not cost the answer
            log.warning("speed baseline not updated: %s", exc)
            return stats
        if baseline is None:
            return stats
        return replace(stats, baseline_tps=baseline.tokens_per_second, baseline_samples=baseline.samples)

    def _on_generation_done(self, cancelled: bool) -> None:
        if self._builder is None:
            return
        stats = self._finish("stopped" if cancelled else "complete", "cancelled" if cancelled else None)
        if stats is not None:
            self.answerFinished.emit(stats)

    def _on_generation_failed(self, exc: BaseException) -> None:
        if self._builder is None:
            return
        self._finish("error", "error")
        self.errors.report(
            exc, QCoreApplication.translate("ChatController", "The answer could not be generated")
        )

    def _set_generating(self, on: bool) -> None:
        self.generating = on
        self.view.update_actions(on)
        self.generatingChanged.emit(on)

    # --- regenerate, edit, settings --------------------------------------------------------------
    def _message(self, message_id: int) -> Message | None:
        if self.conversation_id is None:
            return None
        return next((m for m in self.store.messages(self.conversation_id) if m.id == message_id), None)

    def regenerate(self, message_id: int) -> None:
        if self.generating or not self.engine.is_loaded or self.conversation_id is None:
            return
        if self._message(message_id) is None:
            return
        self.store.truncate_from(self.conversation_id, message_id)
        self.view.show_messages(self.store.messages(self.conversation_id))
        self._start()

    def edit(self, message_id: int) -> None:
        """Put the message back into the composer; sending replaces it and everything after."""
        if self.generating or self.conversation_id is None:
            return
        msg = self._message(message_id)
        if msg is None:
            return
        self.store.truncate_from(self.conversation_id, message_id)
        self.view.show_messages(self.store.messages(self.conversation_id))
        self.view.composer.input.setPlainText(msg.content)
        self.view.composer.input.setFocus()

    def edit_settings(self) -> None:
        prompt = (
            self.store.conversation(self.conversation_id).system_prompt
            if self.conversation_id
            else self.default_system_prompt
        )
        dlg = SamplingDialog(self.sampling, prompt, self.view.window())
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def accepted() -> None:
            self.sampling = dlg.sampling(self.sampling)
            text = dlg.system.toPlainText()
            if self.conversation_id:
                self.store.set_system_prompt(self.conversation_id, text)
            else:
                self.default_system_prompt = text

        dlg.accepted.connect(accepted)
        dlg.open()

    def shutdown(self) -> None:
        self._timer.stop()
