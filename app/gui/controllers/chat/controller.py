"""Runs a conversation: persists messages, reads answers from the engine host, repaints on a timer.

Each answer is a task on the qasync loop that awaits the engine's async stream
(:meth:`~app.gui.workers.EngineHost.stream`: the pool's child for the conversation's speculation
choice, on the engine loop). Its events are queued; a timer drains the queue and repaints the
streaming bubble once per tick, never once per token. Stop cancels the task, which closes the
request in the engine.

An answer belongs to the conversation it was asked in (:class:`_Answer`), not to whatever the
view shows, and each conversation may have one answer running: switching to another conversation
mid-answer leaves it running there (its bubble is detached before the view deletes it, its text
keeps being saved, and it gets its bubble back when its conversation is shown again), and the
other conversation can ask at once. The answers run side by side in the engine: a llama.cpp
pool's slots, MLX's owner thread in turn. A deleted conversation's answer is stopped and never
written.

The answer's row is saved as it grows, at most every :data:`~.pacing.SAVE_INTERVAL_S`, so a crash
or a kill loses at most that much of it; the next start shows it as ``interrupted`` with
Regenerate. How often it is shown and saved: ``pacing.py``.

With MCP servers switched on (``tools.py``), a message runs the tool loop
(:func:`app.core.tools.run_tool_loop`) as its task instead, on the servers the window keeps
running: each model turn is a streamed answer of its own row, read from the pool like any answer
(Auto sends a turn after a tool result to its agent route), each call a block with Approve / Deny
/ Always allow, each result a collapsed ``tool`` message; Stop cancels the task at any step and
what happened stays stored. The composer's tool choice is the message's ``tool_choice``
(auto, none: a plain answer, any tool, or a named one), as the CLI's ``--tool-choice``; the
composer shows the servers' states and the tools offered.

What the controller works with arrives in one :class:`ChatContext`; the prompt and the titles
(``history.py``), the conversation's speculation choice (``speculation.py``), the speed
comparisons and Auto's loss notice (``speeds.py``) and "Measure" (``measure.py``) are its helpers.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal

from app.core.chat import AnswerBuilder, AnswerStats, Message
from app.core.chat.context import ContextOverflowError, fit_history
from app.core.chat.store import MessageStatus, title_from_message
from app.core.engines.base import (
    ChatMessage,
    Engine,
    Event,
    GenerateRequest,
    GenerationError,
    ImagesUnsupportedError,
    TokenCounter,
)
from app.core.images import CheckedImage, ImageError, check_image_file, image_count
from app.core.measure.baselines import BaselineStore
from app.core.speculative import per_request
from app.core.tools.client import ServerState
from app.core.tools.loop import (
    CallEnded,
    CallStarted,
    LoopEvent,
    LoopResult,
    ModelEvent,
    PendingCall,
    TurnEnded,
    TurnStarted,
    run_tool_loop,
)
from app.gui.controllers.chat.context import ChatContext
from app.gui.controllers.chat.history import ConversationHistory, image_title, new_chat_title
from app.gui.controllers.chat.measure import AnswerMeasure
from app.gui.controllers.chat.pacing import (
    FLUSH_COST_WINDOW,
    FLUSH_INTERVAL_MS,
    LONG_ANSWER_CHARS,
    SAVE_INTERVAL_S,
    flush_interval,
    typical_cost,
)
from app.gui.controllers.chat.speculation import ConversationSpeculation
from app.gui.controllers.chat.speeds import AnswerSpeeds
from app.gui.controllers.chat.tools import ChatTools
from app.gui.ops import Ops
from app.gui.views.attachments import image_error_text
from app.gui.views.chat import MessageBubble, SamplingDialog
from app.gui.workers import ModelInfo

log = logging.getLogger(__name__)


@dataclass(eq=False)
class _Answer:
    """One streamed answer, tied to its own conversation and its own stored row."""

    conversation_id: int
    message_id: int
    builder: AnswerBuilder
    #: the engine's info when the answer started: a reload queued behind the answer replaces
    #: engine.info before the answer's end is handled
    info: ModelInfo
    #: None while its conversation is not shown (the view deleted the bubble)
    bubble: MessageBubble | None
    saved_at: float = 0.0
    saved_len: int = 0
    #: earlier messages left out of the prompt to fit the context
    left_out: int = 0
    #: its conversation was deleted: nothing more is written
    removed: bool = False
    #: what the last flushes cost (ms, newest last), see pacing.flush_interval
    flush_costs: list[float] = field(default_factory=list)
    #: the answer's task on the qasync loop (a plain answer or a tool loop)
    task: asyncio.Task[Any] | None = None
    #: a tool loop's events not shown yet (the host keeps its own)
    queued: list[Event] = field(default_factory=list)
    #: a tool loop's turn that ended: its row is written, only the loop goes on
    ended: bool = False
    #: the pool's configuration that wrote the answer ("" before it is known)
    configuration: str = ""


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
        self._answers: dict[int, _Answer] = {}
        self._generating = False
        self.speeds = AnswerSpeeds(
            context.baselines,
            lambda: engine.info.label if engine.info is not None else None,
            view.show_auto_loss,
            context.auto_demotes,
        )
        self.speculation = ConversationSpeculation(
            store, engine, context.errors, lambda: self.conversation_id, context.speculation
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
        #: runs each answer's task (a window's operations, or the chat's own without one)
        self.ops = context.ops or Ops(context.errors, self)
        if context.ops is not None:
            self.tools = ChatTools(context.ops, self)
            self.tools.configChanged.connect(self._show_tools)
            self.tools.statusChanged.connect(self._show_tools)
            context.ops.spawn(
                self.tools.reload(),
                QCoreApplication.translate("ChatController", "The tool servers could not be read"),
            )
        self._timer = QTimer(self)
        self._timer.setInterval(FLUSH_INTERVAL_MS)
        self._timer.timeout.connect(self._flush)
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
        engine.unloaded.connect(self.speculation.sync)
        engine.unloaded.connect(lambda: view.composer.set_vision(None))
        view.image_path = store.image_path

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
        return list(self._answers)

    def answer_task(self, conversation_id: int) -> asyncio.Task[Any] | None:
        """The task writing ``conversation_id``'s answer (a plain answer or a tool loop), or None."""
        answer = self._answers.get(conversation_id)
        return answer.task if answer is not None else None

    def _current(self, conversation_id: int, task: asyncio.Task[Any] | None) -> _Answer | None:
        """The answer ``task`` writes now in its conversation (a tool loop's turn), or None once
        it ended."""
        answer = self._answers.get(conversation_id)
        return answer if answer is not None and answer.task is task else None

    # --- conversations ---------------------------------------------------------------------------
    def open_conversation(self, conversation_id: int | None) -> None:
        """Show a conversation at once; answers streaming into others go on there."""
        for running in self._answers.values():
            running.bubble = None  # the view deletes its bubbles below
        answer = self._answers.get(conversation_id) if conversation_id is not None else None
        self.conversation_id = conversation_id
        if conversation_id is None:
            self.speculation.new_choice = per_request.AUTO  # a new conversation starts at Auto
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
        self.conversationChanged.emit(conversation_id or 0)

    def _attach(self, answer: _Answer) -> None:
        """Give a still-running answer of the shown conversation its bubble back."""
        bubble = next((b for b in self.view.bubbles if b.message_id == answer.message_id), None)
        if bubble is None:
            bubble = self.view.add_bubble("assistant", answer.message_id)
        bubble.set_status("streaming")
        bubble.set_content(answer.builder.text, answer.builder.draft_spans)
        bubble.set_left_out(answer.left_out)
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
            self.view.set_title(title, self._model_label())
            self.conversationChanged.emit(self.conversation_id)
        return self.conversation_id

    # --- turns ----------------------------------------------------------------------------------
    def busy_here(self) -> bool:
        """The shown conversation is answering (or a measurement runs: it needs the CPU)."""
        if self.measurer.running:
            return True
        return self.conversation_id is not None and self.conversation_id in self._answers

    def send(self, text: str) -> None:
        if self.busy_here():
            return
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
            return
        if self.speculation.refuse():
            return
        composer = self.view.composer
        attached = list(composer.attachments)
        info = self.engine.info
        if attached and info is not None and not info.vision:
            # said before anything is stored or sent; the message and its images stay in the box
            self.errors.report(ImagesUnsupportedError(info.label))
            return
        try:
            names = [self.store.images.put(img) for img in attached]
        except ImageError as exc:  # a full disk: nothing is stored, the box keeps everything
            self.errors.report(GenerationError(image_error_text(exc)))
            return
        cid = self._ensure_conversation(text or image_title(len(names)))
        msg = self.store.add_message(cid, "user", text, images=names)
        tool_choice = composer.tool_choice()  # this message's; the box goes back to auto
        composer.clear_message()
        bubble = self.view.add_bubble("user", msg.id)
        bubble.set_images([self.store.image_path(n) for n in names])
        bubble.set_content(text)
        self.conversations.touch(cid)
        self._start(tool_choice)

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
        off = self.speculation.choice == per_request.OFF
        builder = AnswerBuilder(
            "" if off else info.speculation,
            images=image_count(history),
            max_tokens=self.sampling.max_tokens,
        )
        answer = _Answer(cid, row.id, builder, info, bubble, saved_at=time.monotonic())
        self._answers[cid] = answer
        engine = self.engine.current_engine
        choice = self.speculation.choice  # this conversation's, whatever is shown later
        failure = QCoreApplication.translate("ChatController", "The answer could not be generated")
        if self.tools is not None and self.tools.enabled and engine is not None and tool_choice != "none":
            answer.task = self.ops.spawn(
                self._run_tools(answer, engine, history, choice, tool_choice), failure
            )
        else:
            answer.task = self.ops.spawn(self._run_answer(answer, history, choice), failure)
        if not self._timer.isActive():
            self._timer.setInterval(FLUSH_INTERVAL_MS)
            self._timer.start()
        self._sync_actions()

    def stop(self) -> None:
        """Stop the shown conversation's answer (the others go on)."""
        answer = self._answers.get(self.conversation_id) if self.conversation_id is not None else None
        if answer is not None:
            self._cancel(answer)

    def _cancel(self, answer: _Answer) -> None:
        if answer.task is not None:
            answer.task.cancel()  # the request ends in the engine; a tool loop at whatever step

    def _flush(self) -> None:
        """The timer's tick: every running answer takes its new events; the shown one is
        repainted, and its cost sets the next tick."""
        for answer in list(self._answers.values()):
            self._flush_answer(answer)

    def _flush_answer(self, answer: _Answer, settle: bool = True) -> None:
        events, answer.queued = answer.queued, []
        for ev in events:
            answer.builder.feed(ev)
        if events and answer.bubble is not None:
            started = time.perf_counter()
            answer.bubble.set_content(answer.builder.text, answer.builder.draft_spans)
            if settle:
                self.view.settle()
            costs = answer.flush_costs
            costs.append((time.perf_counter() - started) * 1000)
            del costs[:-FLUSH_COST_WINDOW]
            interval = flush_interval(typical_cost(costs), len(answer.builder.text) > LONG_ANSWER_CHARS)
            if self._timer.interval() != interval:
                self._timer.setInterval(interval)
        now = time.monotonic()
        if now - answer.saved_at >= SAVE_INTERVAL_S and len(answer.builder.text) != answer.saved_len:
            self._save_partial(answer, now)

    def _save_partial(self, answer: _Answer, now: float) -> None:
        """Keep the text so far on disk: a crash loses at most one interval of the answer."""
        answer.saved_at = now
        if answer.removed:
            return
        try:
            self.store.update_message(
                answer.message_id, answer.builder.text, draft_spans=answer.builder.draft_spans
            )
        except sqlite3.Error as exc:  # a full or locked disk must not stop the answer
            log.warning("streaming answer not saved: %s", exc)
            return
        answer.saved_len = len(answer.builder.text)

    def _finish(self, answer: _Answer, status: MessageStatus, reason: str | None) -> AnswerStats | None:
        self._flush_answer(answer, settle=False)  # the end changes the bubble again: laid out once, after
        if self._answers.get(answer.conversation_id) is answer:
            del self._answers[answer.conversation_id]
        if not self._answers:
            self._timer.stop()
        builder, bubble = answer.builder, answer.bubble
        if answer.configuration and answer.conversation_id == self.conversation_id:
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

    def _sync_actions(self) -> None:
        self.view.update_actions(self.busy_here())
        self.conversations.set_answering(frozenset(self._answers))
        generating = bool(self._answers)
        if generating != self._generating:
            self._generating = generating
            self.generatingChanged.emit(generating)

    def _on_generation_done(self, answer: _Answer, cancelled: bool) -> None:
        stats = self._finish(
            answer, "stopped" if cancelled else "complete", "cancelled" if cancelled else None
        )
        if stats is not None:
            self.answerFinished.emit(stats)

    def _on_generation_failed(self, answer: _Answer, exc: BaseException) -> None:
        self._finish(answer, "error", "error")
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

    def _on_history_trimmed(self, answer: _Answer, dropped: int) -> None:
        answer.left_out = dropped
        if answer.bubble is not None:
            answer.bubble.set_left_out(dropped)

    # --- a plain answer ---------------------------------------------------------------------------------
    async def _fitted(
        self, answer: _Answer, engine: Engine | None, history: list[ChatMessage]
    ) -> list[ChatMessage]:
        """The newest turns of ``history`` that fit the model's context (measured on a worker:
        the tokenizer is a request to the engine)."""
        if not isinstance(engine, TokenCounter):
            return history
        fitted = await self.ops.run(
            fit_history, history, engine.count_prompt_tokens, engine.n_ctx, self.sampling.max_tokens
        )
        if fitted.dropped:
            self._on_history_trimmed(answer, fitted.dropped)
        return fitted.messages

    async def _run_answer(self, answer: _Answer, history: list[ChatMessage], choice: str) -> None:
        """One answer: the configuration for the conversation's ``choice`` (Auto routed by the
        request's kind), then its events, queued for the flush timer."""
        mine = answer.conversation_id
        try:
            conversation = await self._fitted(answer, self.engine.current_engine, history)
            request = GenerateRequest(conversation, self.sampling)
            label = await self.engine.resolve(choice, request, self.ops.loop)
            self._configured(answer, label)
            async for event in self.engine.stream(label, request, self.ops.loop):
                answer.queued.append(event)
        except asyncio.CancelledError:
            if self._answers.get(mine) is answer:
                self._on_generation_done(answer, True)
            raise
        except Exception as exc:
            if self._answers.get(mine) is answer:
                self._on_generation_failed(answer, exc)
            return
        if self._answers.get(mine) is answer:
            self._on_generation_done(answer, False)

    def _configured(self, answer: _Answer, label: str) -> None:
        """The answer runs on configuration ``label`` (of the pool, or of an engine switching per
        request): its stats name it."""
        if not self.engine.offers():
            return
        answer.configuration = label
        if label == self.engine.base_label:
            named = answer.info.speculation  # what the launch runs, with its depth
        else:
            named = "" if label == per_request.OFF else label
        answer.builder.speculation = named

    # --- the tool loop ------------------------------------------------------------------
    async def _run_tools(
        self, first: _Answer, engine: Engine, history: list[ChatMessage], choice: str, tool_choice: str
    ) -> None:
        """One message's tool loop on the running servers (those that failed or crashed are
        started again first), turns and calls stored as they happen."""
        assert self.tools is not None and self.tools.config is not None
        conversation = list(history)
        mine, task = first.conversation_id, first.task

        async def generate(request: GenerateRequest) -> AsyncIterator[Event]:
            """One model turn from the pool: the conversation's choice, Auto routed by the turn's
            kind (a turn after a tool result is an agent turn)."""
            label = await self.engine.resolve(choice, request, self.ops.loop)
            current = self._current(mine, task)
            if current is not None:
                self._configured(current, label)
            async for event in self.engine.stream(label, request, self.ops.loop):
                yield event

        try:
            conversation = await self._fitted(first, engine, conversation)
            hub = await self.tools.ensure_running(restart_failed=True)
            if hub is None:  # the window is closing
                raise asyncio.CancelledError
            failed = [s for s in hub.statuses().values() if s.state is ServerState.FAILED]
            if failed and first.bubble is not None:
                first.bubble.set_tool_note("\n".join(s.reason or s.name for s in failed))
            result = await run_tool_loop(
                engine,
                hub,
                conversation,
                self.sampling,
                lambda pending: self._approve(mine, task, pending),
                replace(self.tools.options, tool_choice=tool_choice),
                on_event=lambda event: self._on_loop_event(mine, task, event),
                generate=generate,
            )
        except asyncio.CancelledError:
            current = self._current(mine, task)
            if current is not None:
                self._finish(current, "stopped", "cancelled")
            raise
        except Exception as exc:
            current = self._current(mine, task)
            if current is not None:
                self._on_generation_failed(current, exc)
                return
            raise
        self._end_loop(first, result)

    def _end_loop(self, first: _Answer, result: LoopResult) -> None:
        answer = self._current(first.conversation_id, first.task)
        if answer is None:
            return
        if result.line and answer.bubble is not None:
            answer.bubble.set_tool_note(result.line)  # the one line saying why it ended there
        stats = self._finish(answer, "complete", None)
        if stats is None and result.turns:  # the last turn's row is written: its figures
            stats = self._turn_stats(answer, result.turns[-1].answer)
        if stats is not None:
            self.answerFinished.emit(stats)

    def _turn_stats(self, answer: _Answer, ended: Any) -> AnswerStats:
        b = answer.builder
        return AnswerStats.of(ended, b.speculation, None, b.images, b.max_tokens)

    def _on_loop_event(self, conversation_id: int, task: asyncio.Task[Any] | None, event: LoopEvent) -> None:
        answer = self._current(conversation_id, task)
        if answer is None or answer.task is None:
            return
        if isinstance(event, ModelEvent):
            answer.queued.append(event.event)
        elif isinstance(event, TurnStarted) and event.turn > 1:
            self._next_turn(answer)
        elif isinstance(event, TurnEnded):
            self._end_turn(answer, event)
        elif isinstance(event, CallStarted):
            block = answer.bubble.call_block(event.call.id) if answer.bubble is not None else None
            if block is not None:
                block.set_state("running")
        elif isinstance(event, CallEnded):
            self._call_ended(answer, event)

    def _next_turn(self, previous: _Answer) -> None:
        """A new model turn after tool results: its own row and bubble."""
        self._flush_answer(previous, settle=False)
        row = self.store.add_message(
            previous.conversation_id, "assistant", "", status="streaming", model=previous.info.label
        )
        b = previous.builder
        builder = AnswerBuilder(b.speculation, images=b.images, max_tokens=b.max_tokens)
        bubble = None
        if previous.bubble is not None:
            bubble = self.view.add_bubble("assistant", row.id)
            bubble.set_status("streaming")
            bubble.set_content("")
        self._answers[previous.conversation_id] = _Answer(
            previous.conversation_id,
            row.id,
            builder,
            previous.info,
            bubble,
            saved_at=time.monotonic(),
            removed=previous.removed,
            task=previous.task,
        )
        self._sync_actions()

    def _end_turn(self, answer: _Answer, event: TurnEnded) -> None:
        """A model turn ended: its text (calls read out of it), its calls and its figures."""
        self._flush_answer(answer, settle=False)
        record = event.record
        stats = self._turn_stats(answer, record.answer)
        if not record.calls:  # a calling turn is short and grammar-bound: only answers are compared
            stats = self.speeds.compare_with_baseline(stats, answer.info)
        calls = [c.wire() for c in record.calls]
        answer.ended = True
        if not answer.removed:
            self.store.update_message(
                answer.message_id,
                record.text,
                status="complete",
                stats=stats,
                draft_spans=answer.builder.draft_spans if not record.calls else [],
                tool_calls=calls,
                touch=True,
            )
            self.conversations.touch(answer.conversation_id)
        if answer.bubble is not None:
            spans = answer.builder.draft_spans if not record.calls else []
            answer.bubble.set_content(record.text, spans)
            answer.bubble.set_status("complete")
            answer.bubble.set_stats(stats)
            if calls:
                answer.bubble.set_tool_calls(calls)
            self.view.settle()

    def _call_ended(self, answer: _Answer, event: CallEnded) -> None:
        r = event.record
        if not answer.removed:
            msg = self.store.add_message(
                answer.conversation_id, "tool", r.content, tool_call_id=r.call.id, tool_name=r.call.name
            )
            if answer.bubble is not None:
                block = answer.bubble.call_block(r.call.id)
                if block is not None:
                    block.set_state(r.status, r.line)
                result = self.view.add_bubble("tool", msg.id)
                result.set_tool_result(r.call.name, r.content)
                self.view.settle()

    async def _approve(
        self, conversation_id: int, task: asyncio.Task[Any] | None, pending: PendingCall
    ) -> bool:
        """Ask the user about a call in its block; "Always allow" also sets the tool's rule."""
        answer = self._current(conversation_id, task)
        block = None
        if answer is not None and answer.bubble is not None:
            block = answer.bubble.call_block(pending.call.id)
        if block is None:  # not shown (its conversation was left): nothing runs unasked
            return False
        assert self.tools is not None
        decided: asyncio.Future[str] = self.tools.ops.loop.create_future()

        def on_decided(choice: str) -> None:
            if not decided.done():
                decided.set_result(choice)

        block.decided.connect(on_decided)
        block.ask()
        self.approvalRequested.emit(pending)
        try:
            choice = await decided
        finally:
            block.decided.disconnect(on_decided)
        if choice == "always" and self.tools is not None:
            await self.tools.always_allow(pending.tool.server, pending.tool.info.name)
        return choice != "deny"

    def _show_tools(self, *_args: object) -> None:
        """The composer's tool choice and indicator follow the servers and their tools."""
        tools = self.tools
        if tools is None or tools.config is None:
            return
        statuses = tools.statuses()
        servers = [statuses[s.name] for s in tools.config.enabled if s.name in statuses]
        self.view.composer.set_tools(servers, [t.name for t in tools.offered()])

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
        self.store.truncate_from(self.conversation_id, message_id)
        self.view.show_messages(self.store.messages(self.conversation_id))
        self.view.composer.input.setPlainText(msg.content)
        self.view.composer.set_attachments(kept)
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
        answers, self._answers = list(self._answers.values()), {}
        for answer in answers:
            self._keep_stopped(answer)
        if self.tools is not None:
            self.tools.shutdown()  # every MCP server's process ends now

    def _keep_stopped(self, answer: _Answer) -> None:
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
