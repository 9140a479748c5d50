"""The tool loop: the model answers, calls tools with the user's approval, reads their results,
and answers again, until it answers in text.

One loop runs one user message; the window and ``tandem generate`` drive it the same way::

    result = await run_tool_loop(
        engine, hub, conversation, sampling, approve,     # approve(PendingCall) -> bool, awaited
        LoopOptions(tool_choice="add", allowed={"add"}),  # the CLI's --tool-choice / --allow-tools
        on_event=show,                                    # every step, as it happens
    )
    result.outcome, result.line, result.text              # "answered" and the answer, or why not

**Each model turn** offers the running servers' tools (those the user turned off never;
``LoopOptions.offer`` narrows them further) in OpenAI's function-tool shape. The request is fitted
to the model's chat template exactly as the local API server fits an agent's request
(:func:`app.core.requests.shaping.shape`): a template that renders tools gets them and the family's
call format is read back; one that does not (SmolLM2) gets Tandem's compact tool prompt, and a
forced choice becomes a grammar the engine enforces. ``tool_choice`` (``auto``, ``required``,
``none`` or a tool's name) applies to the first turn; later turns use ``later_choice`` (``auto``: a
forced call on every turn would never let the model answer). Every engine event of the turn reaches
``on_event`` as a :class:`ModelEvent`, and its figures (speculation rounds, drafted/accepted,
speed) as the :class:`TurnEnded`'s ``Answer``.

**Each call** the model makes is, in order: refused when no running server offers it or
``LoopOptions.allowed`` does not name it (never run); run at once when the server's rule for it is
``always``; else passed to ``approve`` (the window's Approve / Deny) and run only when it returns
True. An approved call runs on its server within its time limit; the result (cut at
``max_result_chars``) goes back to the model as a ``tool`` message and the loop goes on, up to
``max_turns`` model turns.

**Ending.** A denied or refused call, and a call whose server fails (a timeout, a crash, an error
answer), end the loop with ``outcome`` and one clear ``line``. The conversation stays intact: it
shows exactly what happened in OpenAI's messages shape, every call of an assistant message
answered by a ``tool`` message (its result, or why there is none), so it can be saved, reopened
and sent again. ``conversation`` is the caller's list and is appended to as things happen; a
cancel of the task stops the loop at any step (a model turn, an approval, a running call) and
leaves the list in that same state, the partial answer of a cut turn included, before the
``CancelledError`` propagates.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from dataclasses import dataclass, field
from typing import Literal

from app.core.answer import Answer, AnswerCollector
from app.core.engines.base import (
    ChatMessage,
    Engine,
    EngineError,
    Event,
    GenerateRequest,
    Sampling,
    TemplateCaps,
    TemplateInspector,
)
from app.core.engines.calls import NamedChoice, ToolCall, ToolChoice
from app.core.requests.request import ChatRequest, RequestError
from app.core.requests.shaping import shape
from app.core.requests.tool_style import tool_style_for
from app.core.tools.errors import ToolError, ToolLoopError
from app.core.tools.hub import HubTool, ToolSource

log = logging.getLogger(__name__)

#: model turns per user message unless the caller says otherwise
DEFAULT_MAX_TURNS = 8
#: a tool result longer than this is cut before the model reads it (a whole file, a page)
DEFAULT_MAX_RESULT_CHARS = 20_000

#: ``auto``, ``required``, ``none``, a tool's name, or OpenAI's named-choice object
ToolChoiceArg = Literal["auto", "required", "none"] | str | NamedChoice | None


@dataclass(frozen=True)
class LoopOptions:
    max_turns: int = DEFAULT_MAX_TURNS
    #: the first turn's tool choice (None: auto)
    tool_choice: ToolChoiceArg = None
    #: the choice of the turns after a tool result
    later_choice: Literal["auto", "none"] = "auto"
    #: the tools offered to the model by name (None: every running server's tools)
    offer: Collection[str] | None = None
    #: the tools that may run at all (None: every offered one, by its server's rule); a call of
    #: any other is refused and never runs (``tandem generate --allow-tools``)
    allowed: Collection[str] | None = None
    #: the family's tool-call format (its ``tool_parser``); None reads it off the model's template
    tool_style: str | None = None
    #: a time limit for every call in seconds (None: each server's own)
    call_timeout: float | None = None
    max_result_chars: int = DEFAULT_MAX_RESULT_CHARS

    def __post_init__(self) -> None:
        if self.max_turns < 1:
            raise ValueError("max_turns: must be at least 1")


@dataclass(frozen=True)
class PendingCall:
    """A call waiting for the user's decision."""

    turn: int
    call: ToolCall
    tool: HubTool


#: asks the user about a call; True runs it, False denies it
Approver = Callable[[PendingCall], Awaitable[bool]]

#: what became of one call
CallStatus = Literal["ok", "denied", "refused", "failed", "skipped", "cancelled"]


@dataclass(frozen=True)
class CallRecord:
    turn: int
    call: ToolCall
    #: the server that offers the tool ("" when none does)
    server: str
    status: CallStatus
    #: what the ``tool`` message says: the result, or why there is none
    content: str
    #: one line for people ("" when the call went well)
    line: str = ""
    error: ToolError | None = None
    ms: float = 0.0


@dataclass
class TurnRecord:
    """One model turn: its answer with the figures (rounds, drafted/accepted, speed), the text
    left once calls were read out of it, and the calls."""

    turn: int
    answer: Answer
    text: str
    calls: list[ToolCall] = field(default_factory=list)


# --- what on_event hears ----------------------------------------------------------------------------
@dataclass(frozen=True)
class TurnStarted:
    turn: int
    #: the names of the tools offered in this turn, and the turn's choice
    tools: tuple[str, ...]
    tool_choice: str


@dataclass(frozen=True)
class ModelEvent:
    """An engine event of a turn (TextDelta | Round | Finished), as it streams."""

    turn: int
    event: Event


@dataclass(frozen=True)
class TurnEnded:
    record: TurnRecord


@dataclass(frozen=True)
class CallStarted:
    """A call allowed (by the user or a rule) and now running on its server."""

    turn: int
    call: ToolCall
    tool: HubTool


@dataclass(frozen=True)
class CallEnded:
    record: CallRecord


LoopEvent = TurnStarted | ModelEvent | TurnEnded | CallStarted | CallEnded

#: how a loop ended
LoopOutcome = Literal["answered", "denied", "refused", "failed", "turn_limit"]


@dataclass
class LoopResult:
    outcome: LoopOutcome
    #: one clear line saying why the loop ended without an answer ("" when answered)
    line: str
    #: the whole conversation (the caller's list), as it now is
    messages: list[ChatMessage]
    turns: list[TurnRecord]
    calls: list[CallRecord]

    @property
    def answered(self) -> bool:
        return self.outcome == "answered"

    @property
    def text(self) -> str:
        """The final answer ("" when the loop ended otherwise)."""
        return self.turns[-1].text if self.answered and self.turns else ""


Generate = Callable[[GenerateRequest], AsyncIterator[Event]]


async def template_caps_of(engine: Engine) -> TemplateCaps:
    """What the engine's chat template renders (llama.cpp asks its child once); an engine that
    cannot say renders the tools it takes."""
    if isinstance(engine, TemplateInspector):
        try:
            return await engine.template_caps()
        except EngineError as exc:
            log.info("the chat template's abilities are unknown: %s", exc)
    return TemplateCaps(renders_tools=engine.supports_tools)


def _choice(value: ToolChoiceArg, offered: list[HubTool], hub: ToolSource) -> ToolChoice | Literal["none"]:
    """The OpenAI-shaped choice of ``value``; :class:`ToolLoopError` for a tool nobody offers."""
    if value is None or value == "auto":
        return "auto"
    if value in ("required", "none"):
        if value == "required" and not offered:
            raise ToolLoopError("tool choice: a tool call is required, but no tool is offered")
        return "required" if value == "required" else "none"
    name = value["function"]["name"] if isinstance(value, dict) else value
    if hub.turned_off(name) is not None:
        raise ToolLoopError(f"tool choice: {name} is turned off in Settings → Tools", tool=name)
    if not any(t.name == name for t in offered):
        known = ", ".join(t.name for t in offered) or "none"
        raise ToolLoopError(
            f"tool choice: no running server offers a tool named {name!r} (offered: {known})", tool=name
        )
    return {"type": "function", "function": {"name": name}}


def _choice_label(choice: ToolChoice | Literal["none"]) -> str:
    return choice if isinstance(choice, str) else choice["function"]["name"]


def _tool_message(call: ToolCall, content: str) -> ChatMessage:
    return {"role": "tool", "tool_call_id": call.id, "name": call.name, "content": content}


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n[... {len(text) - limit} more characters cut]"


class _Run:
    """The state of one loop (see :func:`run_tool_loop`)."""

    def __init__(
        self,
        engine: Engine,
        hub: ToolSource,
        conversation: list[ChatMessage],
        sampling: Sampling,
        approve: Approver,
        options: LoopOptions,
        on_event: Callable[[LoopEvent], None] | None,
        generate: Generate,
    ) -> None:
        self.engine = engine
        self.hub = hub
        self.messages = conversation
        self.sampling = sampling
        self.approve = approve
        self.options = options
        self._on_event = on_event
        self.generate = generate
        self.turns: list[TurnRecord] = []
        self.calls: list[CallRecord] = []
        #: calls of the last assistant message that have no tool message yet
        self.unanswered: list[ToolCall] = []
        #: the call running on its server now, if any
        self.running: ToolCall | None = None

    def emit(self, event: LoopEvent) -> None:
        if self._on_event is not None:
            self._on_event(event)

    def result(self, outcome: LoopOutcome, line: str = "") -> LoopResult:
        return LoopResult(outcome, line, self.messages, self.turns, self.calls)

    async def run(self) -> LoopResult:
        o = self.options
        offered = [t for t in self.hub.tools() if o.offer is None or t.name in set(o.offer)]
        first = _choice(o.tool_choice, offered, self.hub)
        caps = await template_caps_of(self.engine)
        style = o.tool_style
        if style is None and caps.renders_tools and offered:
            try:
                style = await asyncio.to_thread(tool_style_for, None, None, self.engine.model_path)
            except ValueError:
                style = None
        try:
            for turn in range(1, o.max_turns + 1):
                choice = first if turn == 1 else o.later_choice
                tools = [] if choice == "none" else offered
                record = await self.model_turn(turn, tools, choice, caps, style)
                if not record.calls:
                    self.messages.append({"role": "assistant", "content": record.text})
                    return self.result("answered")
                self.messages.append(
                    {
                        "role": "assistant",
                        "content": record.text,
                        "tool_calls": [c.wire() for c in record.calls],
                    }
                )
                self.unanswered = list(record.calls)
                if turn == o.max_turns:
                    line = f"Stopped after {o.max_turns} model turns without an answer in text."
                    self.skip_rest(turn, "Not run: the limit of model turns for one message was reached.")
                    return self.result("turn_limit", line)
                ended = await self.run_calls(turn, offered)
                if ended is not None:
                    return ended
            raise AssertionError("unreachable: the last turn returns")  # pragma: no cover
        except BaseException:
            # cancelled (or failed) between a call and its result: answer every call, so the
            # conversation can be sent again
            running = self.running
            if running is not None and any(c is running for c in self.unanswered):
                stopped = "Stopped while it ran: the message was stopped; its result is unknown."
                tool = self.hub.tool(running.name)
                server = tool.server if tool else ""
                self.answer_call(CallRecord(len(self.turns), running, server, "cancelled", stopped))
            self.skip_rest(len(self.turns), "Not run: the message was stopped.", status="cancelled")
            raise

    async def model_turn(
        self,
        turn: int,
        tools: list[HubTool],
        choice: ToolChoice | Literal["none"],
        caps: TemplateCaps,
        style: str | None,
    ) -> TurnRecord:
        fitted = ChatRequest(
            messages=list(self.messages),
            sampling=self.sampling,
            tools=[t.function_tool() for t in tools] or None,
            tool_choice=None if choice == "none" or not tools else choice,
        )
        try:
            fitted = shape(fitted, caps, style, self.engine.supports_structured_output)
        except RequestError as exc:
            raise ToolLoopError(exc.message) from None
        request = fitted.generate_request()
        self.emit(TurnStarted(turn, tuple(t.name for t in tools), _choice_label(choice)))
        collector = AnswerCollector()
        events = self.generate(request)
        try:
            async for event in events:
                collector.feed(event)
                self.emit(ModelEvent(turn, event))
        except BaseException:
            answer = collector.end()
            if answer.text:  # the cut turn's text is part of what happened
                self.messages.append({"role": "assistant", "content": answer.text})
            raise
        finally:
            close = getattr(events, "aclose", None)
            if close is not None:
                with contextlib.suppress(Exception):
                    await close()
        answer = collector.end()
        text, calls = fitted.calls_of(answer)
        record = TurnRecord(turn, answer, text, calls)
        self.turns.append(record)
        self.emit(TurnEnded(record))
        return record

    def answer_call(self, record: CallRecord) -> None:
        self.messages.append(_tool_message(record.call, record.content))
        self.unanswered = [c for c in self.unanswered if c is not record.call]
        self.calls.append(record)
        self.emit(CallEnded(record))

    def skip_rest(self, turn: int, content: str, status: CallStatus = "skipped") -> None:
        for call in list(self.unanswered):
            tool = self.hub.tool(call.name)
            self.answer_call(CallRecord(turn, call, tool.server if tool else "", status, content))

    async def run_calls(self, turn: int, offered: list[HubTool]) -> LoopResult | None:
        """Decide and run the turn's calls in order; the result that ends the loop, or None."""
        o = self.options
        by_name = {t.name: t for t in offered}
        for call in list(self.unanswered):
            tool = by_name.get(call.name)
            if tool is None and self.hub.turned_off(call.name) is not None:
                line = f"The model called {call.name}, which is turned off; nothing ran."
                self.answer_call(
                    CallRecord(turn, call, "", "refused", f"Not run: {call.name} is turned off.", line)
                )
                return self.end_early(turn, "refused", line)
            if tool is None:
                line = f"The model called {call.name}, which no running server offers; nothing ran."
                self.answer_call(
                    CallRecord(
                        turn, call, "", "refused", f"Not run: there is no tool named {call.name}.", line
                    )
                )
                return self.end_early(turn, "refused", line)
            if o.allowed is not None and call.name not in set(o.allowed):
                line = f"{call.name} is not allowed here; it did not run."
                self.answer_call(
                    CallRecord(
                        turn, call, tool.server, "refused", "Not run: this tool is not allowed here.", line
                    )
                )
                return self.end_early(turn, "refused", line)
            if tool.approval != "always" and not await self.approve(PendingCall(turn, call, tool)):
                line = f"{call.name} was denied; it did not run."
                self.answer_call(
                    CallRecord(turn, call, tool.server, "denied", "Not run: the user denied this call.", line)
                )
                return self.end_early(turn, "denied", line)
            self.emit(CallStarted(turn, call, tool))
            self.running = call
            try:
                result = await self.hub.call(call.name, call.arguments, o.call_timeout)
            except ToolError as exc:
                self.running = None
                self.answer_call(
                    CallRecord(turn, call, tool.server, "failed", f"Error: {exc}", str(exc), exc)
                )
                return self.end_early(turn, "failed", str(exc))
            self.running = None
            self.answer_call(
                CallRecord(turn, call, tool.server, "ok", _cut(result.text, o.max_result_chars), ms=result.ms)
            )
        return None

    def end_early(self, turn: int, outcome: LoopOutcome, line: str) -> LoopResult:
        self.skip_rest(turn, "Not run: an earlier call of this turn did not complete.")
        return self.result(outcome, line)


async def run_tool_loop(
    engine: Engine,
    hub: ToolSource,
    conversation: list[ChatMessage],
    sampling: Sampling,
    approve: Approver,
    options: LoopOptions | None = None,
    *,
    on_event: Callable[[LoopEvent], None] | None = None,
    generate: Generate | None = None,
) -> LoopResult:
    """Run one user message's tool loop (see the module docstring).

    ``conversation`` ends with the user's message and is appended to in place. ``generate``
    streams one request (default: ``engine``'s :meth:`~app.core.engines.base.Engine.stream`;
    the window passes its pool's router, so a turn after a tool result takes Auto's agent
    route). ``engine`` is asked what its chat template renders and whether it has a grammar.
    Raises :class:`~app.core.tools.errors.ToolLoopError` before anything is sent when the
    options cannot be met, an engine's error as it is, and ``CancelledError`` on a cancel.
    """
    run = _Run(
        engine,
        hub,
        conversation,
        sampling,
        approve,
        options or LoopOptions(),
        on_event,
        generate or engine.stream,
    )
    return await run.run()
