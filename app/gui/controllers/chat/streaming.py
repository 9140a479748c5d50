"""How an answer reads the engine: its prompt fitted to the context, its configuration, its events.

A prompt's documents are put in first (``documents.py``), then it is fitted to the model's
context on a worker (the engine's tokenizer counts it; the
rule: :func:`app.core.chat.context.fit_history`), and the answer's bubble says how many earlier
messages were left out. The conversation's speculation choice is resolved for each request (Auto
routed by the request's kind); when the engine offers configurations, the answer's stats name the
one that wrote it: the launch's own speculation with its depth, or none for "off". A plain
answer's events are queued for the flush timer (``pacing.py``), and how its stream ended is handed
to ``endings.py`` while it is still its conversation's running answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from app.core.chat.context import fit_history
from app.core.engines.base import ChatMessage, Engine, Event, GenerateRequest, Sampling, TokenCounter
from app.core.speculative.per_request import Speculation
from app.core.tools.loop import Generate
from app.gui.controllers.chat.answers import RunningAnswer, RunningAnswers
from app.gui.controllers.chat.endings import AnswerEndings
from app.gui.engine import EngineHost
from app.gui.ops import Ops

#: puts a history's documents in for an answer: (answer, engine, history) -> what the engine reads
Grounder = Callable[[RunningAnswer, Engine | None, list[ChatMessage]], Awaitable[list[ChatMessage]]]


class AnswerStreams:
    """Reads the running answers from the engine host."""

    def __init__(
        self,
        answers: RunningAnswers,
        engine: EngineHost,
        ops: Ops,
        endings: AnswerEndings,
        sampling: Callable[[], Sampling],
        ground: Grounder | None = None,
    ) -> None:
        self.answers = answers
        self.engine = engine
        self.ops = ops
        self.endings = endings
        #: the chat's sampling now (the user may change it between answers)
        self._sampling = sampling
        #: puts the documents in (None: messages go as they are)
        self._ground = ground

    async def fitted(
        self, answer: RunningAnswer, engine: Engine | None, history: list[ChatMessage]
    ) -> list[ChatMessage]:
        """The newest turns of ``history`` that fit the model's context (measured on a worker:
        the tokenizer is a request to the engine), its documents put in first."""
        if self._ground is not None:
            history = await self._ground(answer, engine, history)
        if not isinstance(engine, TokenCounter):
            return history
        fitted = await self.ops.run(
            fit_history, history, engine.count_prompt_tokens, engine.n_ctx, self._sampling().max_tokens
        )
        if fitted.dropped:
            self._on_history_trimmed(answer, fitted.dropped)
        return fitted.messages

    def _on_history_trimmed(self, answer: RunningAnswer, dropped: int) -> None:
        answer.left_out = dropped
        if answer.bubble is not None:
            answer.bubble.set_left_out(dropped)

    def configured(self, answer: RunningAnswer, configuration: Speculation) -> None:
        """The answer runs on ``configuration`` (of the pool, or of an engine switching per
        request): its stats name it."""
        if not self.engine.offers():
            return
        answer.configuration = configuration.name
        if configuration == self.engine.launched:
            named = answer.info.speculation  # what the launch runs, with its depth
        else:
            named = "" if configuration.is_off else configuration.name
        answer.builder.speculation = named

    async def run(self, answer: RunningAnswer, history: list[ChatMessage], choice: Speculation) -> None:
        """One answer: the configuration for the conversation's ``choice`` (Auto routed by the
        request's kind), then its events, queued for the flush timer."""
        try:
            conversation = await self.fitted(answer, self.engine.current_engine, history)
            request = GenerateRequest(conversation, self._sampling())
            configuration = await self.engine.resolve(choice, request, self.ops.loop)
            self.configured(answer, configuration)
            async for event in self.engine.stream(configuration, request, self.ops.loop):
                answer.queued.append(event)
        except asyncio.CancelledError:
            if self.answers.runs(answer):
                self.endings.done(answer, True)
            raise
        except Exception as exc:
            if self.answers.runs(answer):
                self.endings.failed(answer, exc)
            return
        if self.answers.runs(answer):
            self.endings.done(answer, False)

    def turns(self, choice: Speculation, conversation_id: int, task: asyncio.Task[Any] | None) -> Generate:
        """How a tool loop's model turns are read: from the pool, for the conversation's
        ``choice``, Auto routed by the turn's kind (a turn after a tool result is an agent turn);
        each names its configuration in the turn ``task`` writes then."""

        async def generate(request: GenerateRequest) -> AsyncIterator[Event]:
            configuration = await self.engine.resolve(choice, request, self.ops.loop)
            current = self.answers.current(conversation_id, task)
            if current is not None:
                self.configured(current, configuration)
            async for event in self.engine.stream(configuration, request, self.ops.loop):
                yield event

        return generate
