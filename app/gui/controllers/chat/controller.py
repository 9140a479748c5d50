"""Runs a conversation: persists messages, answers them from the engine host, shows them.

Each answer is a task on the qasync loop that reads the engine's async stream (``streaming.py``:
:meth:`~app.gui.engine.EngineHost.stream`, the pool's child for the conversation's speculation
choice, on the engine loop). Its events are queued and shown by the flush timer, which also saves
the answer's row as it grows (``pacing.py``); its end is stored and shown, or its failure reported
(``endings.py``). Stop cancels the task, which closes the request in the engine.

An answer belongs to the conversation it was asked in (``answers.py``), and each conversation may
have one answer running: switching to another conversation mid-answer leaves it running there
(its bubble is detached before the view deletes it, its text keeps being saved, and it gets its
bubble back when its conversation is shown again), and the other conversation can ask at once.
The answers run side by side in the engine: a llama.cpp pool's slots, MLX's owner thread in turn.
A deleted conversation's answer is stopped and never written. While the shown conversation is
answering, or a measurement runs, it takes no new message, regeneration or edit.

With MCP servers switched on (``tools.py``), a message runs the tool loop as its task instead
(``tool_turns.py``), unless its tool choice is ``none``. The composer's tool choice is the
message's ``tool_choice`` (auto, none: a plain answer, any tool, or a named one), as the CLI's
``--tool-choice``; after a message, the composer's choice is auto again.

A message's documents are stored with it (copied into the chat store) and shown as chips; before
each answer the conversation's documents are put into its prompt, whole or the passages that
answer it, on a worker (``documents.py``), and the answer keeps and shows its sources.

What the controller works with arrives in one :class:`ChatContext`; the prompt and the titles
(``history.py``), the conversation's speculation choice (``speculation.py``), the speed
comparisons and Auto's loss notice (``speeds.py``) and "Measure" (``measure.py``) are its helpers.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal

from app.core.chat import AnswerBuilder, Message
from app.core.chat.store import title_from_message
from app.core.documents.extract import Document, DocumentError
from app.core.engines.base import (
    ChatMessage,
    GenerationError,
    ImagesUnsupportedError,
)
from app.core.images import CheckedImage, ImageError, check_image_file, image_count
from app.core.measure.baselines import BaselineStore
from app.core.speculative import per_request
from app.gui.controllers.chat.answers import RunningAnswer, RunningAnswers
from app.gui.controllers.chat.awaiting import AwaitedLoad
from app.gui.controllers.chat.context import ChatContext
from app.gui.controllers.chat.documents import ChatDocuments
from app.gui.controllers.chat.endings import AnswerEndings
from app.gui.controllers.chat.history import ConversationHistory, image_title, new_chat_title
from app.gui.controllers.chat.measure import AnswerMeasure
from app.gui.controllers.chat.models import ConversationModels
from app.gui.controllers.chat.pacing import AnswerPacer
from app.gui.controllers.chat.speculation import ConversationSpeculation
from app.gui.controllers.chat.speeds import AnswerSpeeds
from app.gui.controllers.chat.streaming import AnswerStreams
from app.gui.controllers.chat.tool_turns import ToolTurns
from app.gui.controllers.chat.tools import ChatTools
from app.gui.engine.info import ModelInfo
from app.gui.ops import Ops
from app.gui.views.attachments import image_error_text
from app.gui.views.chat import SamplingDialog
from app.gui.views.documents import document_error_text

log = logging.getLogger(__name__)


class ChatController(QObject):
    """Signals: ``answerFinished(object AnswerStats)``, ``generatingChanged(bool)``,
    ``conversationChanged(int)``, ``measured(int message_id, object AnswerStats)``,
    ``autoOffRequested()`` / ``remeasureRequested()`` (the user's answer to "Auto loses here";
    the launch coordinator relaunches without speculation or recalibrates),
    ``approvalRequested(object PendingCall)`` (a tool call waits for Approve / Deny in its block)."""

    answerFinished = Signal(object)
    generatingChanged = Signal(bool)
    conversationChanged = Signal(int)
    measured = Signal(int, object)
    autoOffRequested = Signal()
    remeasureRequested = Signal()
    approvalRequested = Signal(object)

    def __init__(self, context: ChatContext, parent: QObject | None = None) -> None:
        super().__init__(parent)
        store, engine, view = context.store, context.engine, context.view
        self.store = store
        self.engine = engine
        self.view = view
        self.conversations = context.conversations
        self.errors = context.errors
        self.sampling = context.sampling
        self.default_system_prompt = context.system_prompt
        self._registry = context.registry
        self.conversation_id: int | None = None
        self.history = ConversationHistory(store)
        #: the running answer of each conversation that has one
        self._answers = RunningAnswers()
        self._generating = False
        #: shows and saves the running answers as they grow (its timer's tick is :meth:`_flush`)
        self.pacer = AnswerPacer(self._answers, store, view, self)
        self.speeds = AnswerSpeeds(
            context.baselines,
            lambda: engine.info.label if engine.info is not None else None,
            view.show_auto_loss,
            context.auto_demotes,
        )
        self.speculation = ConversationSpeculation(
            store, engine, context.errors, lambda: self.conversation_id, context.speculation
        )
        #: the conversation's model, switched to before its answer
        self.models = ConversationModels(
            store,
            engine,
            context.ops,
            context.registry,
            lambda: self.conversation_id,
            context.model_choice,
            self,
        )
        #: a message waiting for its conversation's model to load
        self.awaiting = AwaitedLoad(view, self._start, lambda: self.conversation_id, self._sync_actions)
        #: ends the answers: their rows, bubbles and figures, or the failure reported
        self.endings = AnswerEndings(
            self._answers,
            self.pacer,
            store,
            view,
            self.conversations,
            self.speeds,
            self.speculation,
            context.errors,
            lambda: self.conversation_id,
            self._sync_actions,
            self,
        )
        self.endings.answerFinished.connect(self.answerFinished)
        #: runs each answer's task (a window's operations, or the chat's own without one)
        self.ops = context.ops or Ops(context.errors, self)
        #: puts each answer's documents into its prompt; opens the documents' files
        self.documents = ChatDocuments(store, self.ops, context.errors, lambda: self.sampling)
        #: reads each answer from the engine host
        self.streams = AnswerStreams(
            self._answers, engine, self.ops, self.endings, lambda: self.sampling, self.documents.grounded
        )
        self.measurer = AnswerMeasure(
            self,
            store,
            engine,
            view,
            context.errors,
            self.speeds,
            context.ops,
            context.plain_engine,
            self,
        )
        self.measurer.runningChanged.connect(lambda _on: self._sync_actions())
        self.measurer.measured.connect(self.measured)
        #: the MCP servers offered to the model (None without ops: no tools)
        self.tools: ChatTools | None = None
        #: runs a message's tool loop (None without tools)
        self.tool_turns: ToolTurns | None = None
        if context.ops is not None:
            self.tools = ChatTools(context.ops, self)
            self.tool_turns = ToolTurns(
                self.tools,
                self._answers,
                self.pacer,
                self.streams,
                self.endings,
                store,
                view,
                self.conversations,
                self.speeds,
                lambda: self.sampling,
                self._sync_actions,
                self,
            )
            self.tool_turns.answerFinished.connect(self.answerFinished)
            self.tool_turns.approvalRequested.connect(self.approvalRequested)
            context.ops.spawn(
                self.tools.reload(),
                QCoreApplication.translate("ChatController", "The tool servers could not be read"),
            )
        self.pacer.timer.timeout.connect(self._flush)
        self.conversations.conversationRemoved.connect(self._on_conversation_removed)
        view.sendRequested.connect(self.send)
        view.stopRequested.connect(self.stop)
        view.regenerateRequested.connect(self.regenerate)
        view.editRequested.connect(self.edit)
        view.settingsRequested.connect(self.edit_settings)
        view.measureRequested.connect(self.measurer.measure)
        view.autoOffRequested.connect(self.autoOffRequested)
        view.remeasureRequested.connect(self.remeasureRequested)
        engine.loaded.connect(self._on_engine_loaded)
        engine.loadFailed.connect(lambda _exc: self.awaiting.drop())
        engine.loadCancelled.connect(self.awaiting.drop)
        engine.loadProgress.connect(self.awaiting.progress)
        engine.unloaded.connect(self.speculation.sync)
        engine.unloaded.connect(lambda: view.composer.set_vision(None))
        view.image_path = store.image_path
        view.document_path = store.document_path
        view.documentOpenRequested.connect(self.documents.open_document)
        view.sourceOpenRequested.connect(
            lambda message_id, filename: self.documents.open_source(
                self.conversation_id, message_id, filename
            )
        )
        view.composer.set_ops(self.ops)  # documents are read on its threads

    @property
    def baselines(self) -> BaselineStore:
        return self.speeds.baselines

    @property
    def measuring(self) -> bool:
        return self.measurer.running

    @property
    def generating(self) -> bool:
        """An answer is being written, in any conversation."""
        return self._generating

    def answering(self) -> list[int]:
        """The conversations whose answer is being written."""
        return self._answers.conversations()

    def answer_task(self, conversation_id: int) -> asyncio.Task[Any] | None:
        """The task writing ``conversation_id``'s answer (a plain answer or a tool loop), or None."""
        answer = self._answers.get(conversation_id)
        return answer.task if answer is not None else None

    # --- conversations ---------------------------------------------------------------------------
    def open_conversation(self, conversation_id: int | None) -> None:
        """Show a conversation at once; answers streaming into others go on there."""
        for running in self._answers.all():
            running.bubble = None  # the view deletes its bubbles below
        answer = self._answers.get(conversation_id) if conversation_id is not None else None
        self.conversation_id = conversation_id
        if conversation_id is None:
            self.speculation.new_choice = per_request.AUTO_CHOICE  # a new conversation starts at Auto
            self.models.new_choice = ""  # and with the loaded model
            self.view.clear()
            self.view.set_title(new_chat_title(), self._model_label())
        else:
            conv = self.store.conversation(conversation_id)
            self.view.show_messages(self.store.messages(conversation_id))
            self.view.set_title(conv.title, self._model_label())
            if answer is not None:
                self._attach(answer)
        self._sync_actions()
        self.speculation.sync()
        self.models.sync()
        self.conversationChanged.emit(conversation_id or 0)

    def _attach(self, answer: RunningAnswer) -> None:
        """Give a still-running answer of the shown conversation its bubble back."""
        bubble = next((b for b in self.view.bubbles if b.message_id == answer.message_id), None)
        if bubble is None:
            bubble = self.view.add_bubble("assistant", answer.message_id)
        bubble.set_status("streaming")
        bubble.set_content(answer.builder.text, answer.builder.draft_spans)
        bubble.set_left_out(answer.left_out)
        bubble.set_sources(answer.sources)
        bubble.set_activity(answer.activity)
        answer.bubble = bubble

    def _on_conversation_removed(self, conversation_id: int) -> None:
        answer = self._answers.get(conversation_id)
        if answer is not None:
            answer.removed = True  # its row went with the conversation: write nothing more
            self._cancel(answer)
        if conversation_id == self.conversation_id:
            self.open_conversation(None)
        else:
            self._sync_actions()

    def refresh_model_label(self) -> None:
        title = (
            self.store.conversation(self.conversation_id).title if self.conversation_id else new_chat_title()
        )
        self.view.set_title(title, self._model_label())

    def _model_label(self) -> str:
        info = self.engine.info
        return (
            info.label
            if info is not None
            else QCoreApplication.translate("ChatController", "No model loaded")
        )

    def _ensure_conversation(self, first_text: str) -> int:
        if self.conversation_id is None:
            title = title_from_message(first_text) or new_chat_title()
            index = self.conversations.create(title, self.default_system_prompt)
            self.conversation_id = self.conversations.conversation(index.row()).id
            self.speculation.store_new(self.conversation_id)
            self.models.store_new(self.conversation_id)
            self.view.set_title(title, self._model_label())
            self.conversationChanged.emit(self.conversation_id)
        return self.conversation_id

    # --- turns ----------------------------------------------------------------------------------
    def busy_here(self) -> bool:
        """The shown conversation is answering or waits for its model (or a measurement runs:
        it needs the CPU)."""
        if self.measurer.running:
            return True
        if self.awaiting.holds(self.conversation_id):
            return True
        return self.conversation_id is not None and self.conversation_id in self._answers

    def send(self, text: str) -> None:
        if self.busy_here() or self.awaiting.pending:
            return
        loading = self.models.prepare()  # the conversation's model answers; "": it does now
        if not loading and not self._can_answer():
            return
        stored = self._store_message(text)
        if stored is None:
            return
        cid, tool_choice = stored
        if loading:  # answered once its model is loaded
            self.awaiting.wait(cid, loading, tool_choice)
        else:
            self._start(tool_choice)

    def _can_answer(self) -> bool:
        """The loaded model can answer the composer's message; else say why (the message stays)."""
        if not self.engine.is_loaded:
            if self.engine.busy:  # a load is under way: the message waits
                error = GenerationError(
                    QCoreApplication.translate("ChatController", "The model is still loading."),
                    QCoreApplication.translate(
                        "ChatController",
                        "Your message stays in the box; send it again once the load bar is gone.",
                    ),
                )
            else:
                error = GenerationError(
                    QCoreApplication.translate("ChatController", "No model is loaded."),
                    QCoreApplication.translate(
                        "ChatController", "Load a model from the Models page, then send again."
                    ),
                )
            self.errors.report(error)
            return False
        if self.speculation.refuse():
            return False
        info = self.engine.info
        if self.view.composer.attachments and info is not None and not info.vision:
            # said before anything is stored or sent; the message and its images stay in the box
            self.errors.report(ImagesUnsupportedError(info.label))
            return False
        return True

    def _store_message(self, text: str) -> tuple[int, str] | None:
        """Store and show the composer's message (its images and documents copied into the
        store): its conversation and tool choice; None when they could not be stored (said)."""
        composer = self.view.composer
        try:
            names = [self.store.images.put(img) for img in list(composer.attachments)]
            attached = [self.store.documents.put(doc) for doc in composer.read_documents()]
        except ImageError as exc:  # a full disk: nothing is stored, the box keeps everything
            self.errors.report(GenerationError(image_error_text(exc)))
            return None
        except DocumentError as exc:
            self.errors.report(GenerationError(document_error_text(exc)))
            return None
        cid = self._ensure_conversation(
            text or (attached[0].filename if attached else image_title(len(names)))
        )
        msg = self.store.add_message(cid, "user", text, images=names, documents=attached)
        tool_choice = composer.tool_choice()  # this message's; the box goes back to auto
        composer.clear_message()
        bubble = self.view.add_bubble("user", msg.id)
        bubble.set_images([self.store.image_path(n) for n in names])
        self.view.show_documents(bubble, attached)
        bubble.set_content(text)
        self.conversations.touch(cid)
        return cid, tool_choice

    def _start(self, tool_choice: str = "auto") -> None:
        """Answer the shown conversation's last message; ``tool_choice``: auto, none, required
        or a tool's name (the first model turn's, as an API request's ``tool_choice``)."""
        cid = self.conversation_id
        assert cid is not None
        history = self.history.prompt(cid)
        info = self.engine.info or ModelInfo()
        row = self.store.add_message(cid, "assistant", "", status="streaming", model=info.label)
        bubble = self.view.add_bubble("assistant", row.id)
        bubble.set_status("streaming")
        bubble.set_content("")
        # "off" is honoured only by an engine that runs none: its answers name no speculation
        off = self.speculation.choice.is_off
        builder = AnswerBuilder(
            "" if off else info.speculation,
            images=image_count(history),
            max_tokens=self.sampling.max_tokens,
        )
        answer = RunningAnswer(cid, row.id, builder, info, bubble, saved_at=time.monotonic())
        self._answers.put(answer)
        engine = self.engine.current_engine
        choice = self.speculation.choice  # this conversation's, whatever is shown later
        failure = QCoreApplication.translate("ChatController", "The answer could not be generated")
        turns = self.tool_turns
        if turns is not None and turns.tools.enabled and engine is not None and tool_choice != "none":
            answer.task = self.ops.spawn(turns.run(answer, engine, history, choice, tool_choice), failure)
        else:
            answer.task = self.ops.spawn(self.streams.run(answer, history, choice), failure)
        self.pacer.start()
        self._sync_actions()

    def stop(self) -> None:
        """Stop the shown conversation's answer (the others go on), or the load its message
        waits for."""
        if self.awaiting.holds(self.conversation_id):
            self.engine.cancel()  # the load ends cancelled: the message stays, unanswered
            return
        answer = self._answers.get(self.conversation_id) if self.conversation_id is not None else None
        if answer is not None:
            self._cancel(answer)

    def _cancel(self, answer: RunningAnswer) -> None:
        if answer.task is not None:
            answer.task.cancel()  # the request ends in the engine; a tool loop at whatever step

    def _flush(self) -> None:
        """The flush timer's tick (``pacing.py``)."""
        self.pacer.tick()

    def _sync_actions(self) -> None:
        """The view's actions, the conversation list's marks and ``generating`` follow the
        running answers."""
        self.view.update_actions(self.busy_here())
        self.conversations.set_answering(frozenset(self._answers.conversations()))
        generating = bool(self._answers)
        if generating != self._generating:
            self._generating = generating
            self.generatingChanged.emit(generating)

    # --- regenerate, edit, settings --------------------------------------------------------------
    def history_before(self, message_id: int) -> list[ChatMessage]:
        """The prompt answer ``message_id`` was written for."""
        assert self.conversation_id is not None
        return self.history.before(self.conversation_id, message_id)

    def _on_engine_loaded(self, info: ModelInfo) -> None:
        style: str | None = None
        if self._registry is not None and info.family:
            try:
                style = self._registry.get(info.family).tool_parser
            except Exception:  # a family removed meanwhile: tagged calls are still found
                style = None
        self.view.tool_style = style
        self.view.composer.set_vision(info.vision)
        self.speculation.sync()
        self.speeds.reset()
        self.view.hide_auto_loss()
        self.models.sync()
        self.awaiting.loaded(info)

    def message(self, message_id: int) -> Message | None:
        if self.conversation_id is None:
            return None
        return self.history.message(self.conversation_id, message_id)

    def regenerate(self, message_id: int) -> None:
        if self.busy_here() or not self.engine.is_loaded or self.conversation_id is None:
            return
        if self.message(message_id) is None or self.speculation.refuse():
            return
        self.store.truncate_from(self.conversation_id, message_id)
        self.view.show_messages(self.store.messages(self.conversation_id))
        self._start()

    def edit(self, message_id: int) -> None:
        """Put the message back into the composer; sending replaces it and everything after."""
        if self.busy_here() or self.conversation_id is None:
            return
        msg = self.message(message_id)
        if msg is None:
            return
        kept: list[CheckedImage] = []
        for name in msg.images:  # read before the truncation: the box gets the images back
            try:
                kept.append(check_image_file(self.store.image_path(name)))
            except ImageError:
                log.warning("image %s of message %d is gone; edited without it", name, message_id)
        documents: list[Document] = []
        for attachment in msg.documents:  # and its documents, as they were read
            try:
                documents.append(self.store.documents.open(attachment))
            except DocumentError:
                log.warning(
                    "document %s of message %d is gone; edited without it", attachment.name, message_id
                )
        self.store.truncate_from(self.conversation_id, message_id)
        self.view.show_messages(self.store.messages(self.conversation_id))
        self.view.composer.input.setPlainText(msg.content)
        self.view.composer.set_attachments(kept)
        self.view.composer.set_documents(documents)
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
        self.pacer.stop()
        answers = self._answers.take_all()
        for answer in answers:
            self.endings.keep_stopped(answer)
        if self.tools is not None:
            self.tools.shutdown()  # every MCP server's process ends now
