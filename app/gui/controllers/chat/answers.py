"""The chat's running answers: one record per streamed answer, at most one running per conversation.

An answer belongs to the conversation it was asked in, not to whatever the view shows: its record
keeps its conversation, its stored row, its bubble while that conversation is shown (None while
it is not) and the task writing it. A tool loop writes one row per model turn: each turn gets a
record of its own, which replaces the previous turn's as its conversation's running answer and
keeps the loop's task, so the task finds the record it writes now with
:meth:`RunningAnswers.current`.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from app.core.chat import AnswerBuilder
from app.core.documents.grounding import Source
from app.core.engines.base import Event
from app.gui.engine.info import ModelInfo
from app.gui.views.chat import MessageBubble


@dataclass(eq=False)
class RunningAnswer:
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
    #: the documents and passages the answer's prompt was given
    sources: tuple[Source, ...] = ()
    #: what the answer does before its first word ("Reading the documents…"; "": nothing special)
    activity: str = ""


class RunningAnswers:
    """The running answer of each conversation that has one."""

    def __init__(self) -> None:
        self._by_conversation: dict[int, RunningAnswer] = {}

    def __contains__(self, conversation_id: object) -> bool:
        return conversation_id in self._by_conversation

    def __bool__(self) -> bool:
        return bool(self._by_conversation)

    def get(self, conversation_id: int) -> RunningAnswer | None:
        return self._by_conversation.get(conversation_id)

    def conversations(self) -> list[int]:
        """The conversations whose answer is being written."""
        return list(self._by_conversation)

    def all(self) -> list[RunningAnswer]:
        """Every running answer (a copy: the caller may end some meanwhile)."""
        return list(self._by_conversation.values())

    def put(self, answer: RunningAnswer) -> None:
        """``answer`` is its conversation's running answer from now on."""
        self._by_conversation[answer.conversation_id] = answer

    def runs(self, answer: RunningAnswer) -> bool:
        """``answer`` is still its conversation's running answer."""
        return self._by_conversation.get(answer.conversation_id) is answer

    def current(self, conversation_id: int, task: asyncio.Task[Any] | None) -> RunningAnswer | None:
        """The answer ``task`` writes now in its conversation (a tool loop's turn), or None once
        it ended."""
        answer = self._by_conversation.get(conversation_id)
        return answer if answer is not None and answer.task is task else None

    def remove(self, answer: RunningAnswer) -> None:
        """``answer`` ended: its conversation has no running answer (unless another replaced it)."""
        if self.runs(answer):
            del self._by_conversation[answer.conversation_id]

    def take_all(self) -> list[RunningAnswer]:
        """Every running answer, none left running here."""
        answers, self._by_conversation = list(self._by_conversation.values()), {}
        return answers
