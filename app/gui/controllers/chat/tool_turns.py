"""A message's tool loop in the chat: its model turns, its calls and their approvals.

With MCP servers switched on (``tools.py``), a message runs the tool loop
(:func:`app.core.tools.run_tool_loop`) as its task, on the servers the window keeps running; those
that failed or crashed are started again first, and the answer's bubble notes those that still
fail. Each model turn is a streamed answer of its own row and bubble, read from the pool like any
answer (Auto sends a turn after a tool result to its agent route). Each call is a block with
Approve / Deny / Always allow; a call whose block is not shown (its conversation was left) is
denied, so nothing runs unasked. Each result is stored as a ``tool`` message and shown collapsed.
Only turns without calls are compared with the speed baseline. Stop cancels the task at any step,
and what happened stays stored. The composer shows the servers' states and the tools offered.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QObject, Signal

from app.core.chat import AnswerBuilder, AnswerStats, ChatStore
from app.core.engines.base import ChatMessage, Engine, Sampling
from app.core.speculative.per_request import Speculation
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
from app.gui.controllers.chat.answers import RunningAnswer, RunningAnswers
from app.gui.controllers.chat.endings import AnswerEndings
from app.gui.controllers.chat.pacing import AnswerPacer
from app.gui.controllers.chat.speeds import AnswerSpeeds
from app.gui.controllers.chat.streaming import AnswerStreams
from app.gui.controllers.chat.tools import ChatTools
from app.gui.models.conversations_model import ConversationsModel
from app.gui.views.chat import ChatView


class ToolTurns(QObject):
    """Signals: ``answerFinished(object AnswerStats)`` (a loop ended: its last answer's figures),
    ``approvalRequested(object PendingCall)`` (a tool call waits for Approve / Deny in its block)."""

    answerFinished = Signal(object)
    approvalRequested = Signal(object)

    def __init__(
        self,
        tools: ChatTools,
        answers: RunningAnswers,
        pacer: AnswerPacer,
        streams: AnswerStreams,
        endings: AnswerEndings,
        store: ChatStore,
        view: ChatView,
        conversations: ConversationsModel,
        speeds: AnswerSpeeds,
        sampling: Callable[[], Sampling],
        sync_actions: Callable[[], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.tools = tools
        self.answers = answers
        self.pacer = pacer
        self.streams = streams
        self.endings = endings
        self.store = store
        self.view = view
        self.conversations = conversations
        self.speeds = speeds
        #: the chat's sampling now (the user may change it between answers)
        self._sampling = sampling
        #: the chat's actions follow its running answers
        self._sync_actions = sync_actions
        tools.configChanged.connect(self.show_tools)
        tools.statusChanged.connect(self.show_tools)

    async def run(
        self,
        first: RunningAnswer,
        engine: Engine,
        history: list[ChatMessage],
        choice: Speculation,
        tool_choice: str,
    ) -> None:
        """One message's tool loop on the running servers (those that failed or crashed are
        started again first), turns and calls stored as they happen."""
        assert self.tools.config is not None
        conversation = list(history)
        mine, task = first.conversation_id, first.task
        try:
            conversation = await self.streams.fitted(first, engine, conversation)
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
                self._sampling(),
                lambda pending: self._approve(mine, task, pending),
                replace(self.tools.options, tool_choice=tool_choice),
                on_event=lambda event: self._on_loop_event(mine, task, event),
                generate=self.streams.turns(choice, mine, task),
            )
        except asyncio.CancelledError:
            current = self.answers.current(mine, task)
            if current is not None:
                self.endings.finish(current, "stopped", "cancelled")
            raise
        except Exception as exc:
            current = self.answers.current(mine, task)
            if current is not None:
                self.endings.failed(current, exc)
                return
            raise
        self._end_loop(first, result)

    def _end_loop(self, first: RunningAnswer, result: LoopResult) -> None:
        answer = self.answers.current(first.conversation_id, first.task)
        if answer is None:
            return
        if result.line and answer.bubble is not None:
            answer.bubble.set_tool_note(result.line)  # the one line saying why it ended there
        stats = self.endings.finish(answer, "complete", None)
        if stats is None and result.turns:  # the last turn's row is written: its figures
            stats = self._turn_stats(answer, result.turns[-1].answer)
        if stats is not None:
            self.answerFinished.emit(stats)

    def _turn_stats(self, answer: RunningAnswer, ended: Any) -> AnswerStats:
        b = answer.builder
        return AnswerStats.of(ended, b.speculation, None, b.images, b.max_tokens)

    def _on_loop_event(self, conversation_id: int, task: asyncio.Task[Any] | None, event: LoopEvent) -> None:
        answer = self.answers.current(conversation_id, task)
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

    def _next_turn(self, previous: RunningAnswer) -> None:
        """A new model turn after tool results: its own row and bubble."""
        self.pacer.flush(previous, settle=False)
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
        self.answers.put(
            RunningAnswer(
                previous.conversation_id,
                row.id,
                builder,
                previous.info,
                bubble,
                saved_at=time.monotonic(),
                removed=previous.removed,
                task=previous.task,
            )
        )
        self._sync_actions()

    def _end_turn(self, answer: RunningAnswer, event: TurnEnded) -> None:
        """A model turn ended: its text (calls read out of it), its calls and its figures."""
        self.pacer.flush(answer, settle=False)
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

    def _call_ended(self, answer: RunningAnswer, event: CallEnded) -> None:
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
        answer = self.answers.current(conversation_id, task)
        block = None
        if answer is not None and answer.bubble is not None:
            block = answer.bubble.call_block(pending.call.id)
        if block is None:  # not shown (its conversation was left): nothing runs unasked
            return False
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
        if choice == "always":
            await self.tools.always_allow(pending.tool.server, pending.tool.info.name)
        return choice != "deny"

    def show_tools(self, *_args: object) -> None:
        """The composer's tool choice and indicator follow the servers and their tools."""
        tools = self.tools
        if tools.config is None:
            return
        statuses = tools.statuses()
        servers = [statuses[s.name] for s in tools.config.enabled if s.name in statuses]
        self.view.composer.set_tools(servers, [t.name for t in tools.offered()])
