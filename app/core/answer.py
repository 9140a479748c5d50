"""One answer from an engine's event stream: the one accumulator every consumer uses.

An engine streams ``TextDelta | Round | Finished`` (:mod:`app.core.engines.base`). The chat, the
CLI, ``tandem bench`` / ``parity``, Auto's calibration, the plain "Measure" run and the local API
server all turn that stream into the same :class:`Answer`, through an :class:`AnswerCollector`::

    answer = collect(generate(engine, messages, sampling, cancel), cancel)  # a plain thread

    collector = AnswerCollector()                                            # a streaming consumer
    async for event in engine.stream(GenerateRequest(messages, sampling)):
        show(collector.feed(event))      # the text this event added ("" for a Round or Finished)
    answer = collector.end()

Like the response object of mlx-lm's ``stream_generate``, the :class:`Answer` is one object that
carries the running figures: :attr:`AnswerCollector.answer` is up to date after every event, so a
consumer may read it (text, draft spans, rounds, token count) while the answer streams.

The rules, the same for every consumer:

* **Figures.** Once the stream's :class:`Finished` has arrived, its totals are the answer's (token
  counts, prompt and decode times, drafted/accepted totals and whether the draft count is known,
  token ids, tool calls; its round count, or the number of :class:`Round` events when the engine
  left it at 0). Before that, and for a stream that ends without one, the figures are what the
  stream showed: completion tokens are the larger of the text deltas' token counts and the
  emitted tokens of the rounds seen (an engine closes a round when the next one starts, so the
  last one may be missing), drafted/accepted are the rounds' sums, the prompt counts 0 tokens,
  and the times are the collector's clock: the prompt took until the first text, the decode from
  the first text to the last event (or to :meth:`AnswerCollector.end`). ``decode_tps`` and the
  acceptance rate always come from these figures through the shared definitions of
  :mod:`app.core.speculative.rounds`.
* **Cancel and a missing Finished.** An answer is *complete* only when its stream delivered a
  :class:`Finished` whose reason is ``stop`` or ``length``. Anything else is *cancelled*: a
  Finished that says ``cancelled``, or no Finished at all, whether the consumer stopped reading
  (a cancel token, Ctrl-C, a client that left) or the stream was cut by an error. A consumer that
  stops after the Finished arrived does not un-complete the answer: it has all of it. The reason
  is settled by :meth:`AnswerCollector.end`; while the stream runs it is ``""``.
* **Errors.** An exception raised by the stream passes through :func:`collect` untouched; a
  consumer that keeps a partial answer on error holds its collector and reads
  :attr:`AnswerCollector.answer` (it is cancelled unless its Finished had arrived).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

from app.core.cancel import CancelToken
from app.core.engines.base import Event, Finished, FinishReason, Round, TextDelta, ToolCall
from app.core.speculative.rounds import DecodeFigures, is_drafting_round, mean_accepted_length
from app.core.speculative.speedup import Speedup, speedup_of

__all__ = ["Answer", "AnswerCollector", "collect"]

#: how an answer ended ("" while it streams); see the module docstring for the rule
AnswerReason = FinishReason | Literal[""]


@dataclass
class Answer(DecodeFigures):
    """One answer and its figures (see the module docstring for where each figure comes from).

    Built by an :class:`AnswerCollector`; constructing one by hand (tests, a stored run) is fine.
    ``decode_tps`` and ``acceptance_rate`` come from :class:`DecodeFigures`.
    """

    #: the streamed text, one entry per text delta (parity maps characters back to tokens with them)
    pieces: list[str] = field(default_factory=list)
    #: ``[start, end)`` character ranges of :attr:`text` that came from accepted drafts, merged
    draft_spans: list[tuple[int, int]] = field(default_factory=list)
    #: the rounds as the engine streamed them
    rounds: list[Round] = field(default_factory=list)
    #: the engine's closing event, None while streaming or when the stream ended without one
    finished: Finished | None = None
    #: "stop" | "length" | "cancelled" once ended, "" while streaming
    reason: AnswerReason = ""
    #: tokens the text deltas carried (their ``token_count``)
    streamed_tokens: int = 0
    completion_tokens: int = 0
    prompt_tokens: int = 0
    prompt_ms: float = 0.0
    decode_ms: float = 0.0
    #: from the collector's start to the first text delta; None when no text came
    ttft_ms: float | None = None
    #: from the collector's start to the end of the stream (to the latest event while it streams)
    wall_ms: float = 0.0
    drafted_total: int = 0
    accepted_total: int = 0
    #: False when some round's draft count was unknown (the acceptance rate is then unknown)
    drafted_known: bool = True
    #: verification passes: the engine's count, else the rounds streamed
    round_count: int = 0
    #: ids of the completion tokens where the engine exposes them all, else None
    token_ids: list[int] | None = None
    #: tool calls the engine parsed itself, from its Finished
    tool_calls: list[ToolCall] = field(default_factory=list)
    #: the engine's top candidates per completion token as ``(id, text, logprob)``, when the caller
    #: asked for them and the engine exposes them (``Finished.candidates``)
    candidates: list[list[tuple[int, str, float]]] | None = None
    _joined: str = field(default="", init=False, repr=False, compare=False)
    _joined_n: int = field(default=0, init=False, repr=False, compare=False)

    @property
    def text(self) -> str:
        """The answer's text so far (joined once per new piece, so reading it per repaint is cheap)."""
        if self._joined_n < len(self.pieces):
            self._joined += "".join(self.pieces[self._joined_n :])
            self._joined_n = len(self.pieces)
        return self._joined

    @property
    def speedup(self) -> Speedup:
        """This answer against plain decoding of its own tokens (:mod:`app.core.speculative.speedup`):
        the engine pool's figure when it gave one, else the answer's own passes'."""
        f = self.finished
        if f is None:
            return Speedup(None)
        if f.speedup is not None:
            return f.speedup
        return speedup_of(f.passes, f.drafted_total)

    @property
    def complete(self) -> bool:
        """Its Finished arrived with reason stop or length."""
        return self.reason in ("stop", "length")

    @property
    def cancelled(self) -> bool:
        """Ended without a Finished, or with one that says cancelled."""
        return self.reason == "cancelled"

    @property
    def drafting_rounds(self) -> int:
        """Rounds that verified a draft (see :func:`is_drafting_round`)."""
        return sum(1 for r in self.rounds if is_drafting_round(r))

    @property
    def mean_accepted_length(self) -> float | None:
        """Tokens emitted per drafting round: the one definition (:func:`mean_accepted_length`)."""
        return mean_accepted_length(self.rounds)


class AnswerCollector:
    """Feeds one stream's events into one :class:`Answer`. Not thread-safe: one feeding thread.

    The clock starts when the collector is made, so make it just before the request starts
    (``collect`` does); ``clock`` returns seconds (tests pass a fake one).
    """

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self._clock = clock
        self._start = clock()
        self._first: float | None = None
        self._length = 0
        self._drafted = 0
        self._accepted = 0
        self._emitted = 0
        self._known = True
        #: the answer so far, updated in place by every :meth:`feed`
        self.answer = Answer()

    def feed(self, event: Event) -> str:
        """Add one event; returns the text it added ("" for a Round or a Finished)."""
        now = self._clock()
        a = self.answer
        text = ""
        if isinstance(event, TextDelta):
            text = event.text
            if self._first is None:
                self._first = now
                a.ttft_ms = (now - self._start) * 1000.0
            start = self._length
            a.pieces.append(text)
            self._length += len(text)
            a.streamed_tokens += event.token_count
            if event.from_draft and text:
                spans = a.draft_spans
                if spans and spans[-1][1] == start:
                    spans[-1] = (spans[-1][0], self._length)
                else:
                    spans.append((start, self._length))
        elif isinstance(event, Round):
            a.rounds.append(event)
            self._drafted += event.drafted
            self._accepted += event.accepted
            self._emitted += event.emitted
            self._known = self._known and event.drafted_known
        elif isinstance(event, Finished):
            a.finished = event
            a.reason = event.reason
        self._figures(now)
        return text

    def end(self) -> Answer:
        """The stream is over (or the consumer stopped reading): stamp the time and settle the
        reason by the rule (complete only with a Finished of reason stop or length)."""
        a = self.answer
        self._figures(self._clock())
        a.reason = a.finished.reason if a.finished is not None else "cancelled"
        return a

    def collect(self, events: Iterable[Event], cancel: CancelToken | None = None) -> Answer:
        """Feed every event and :meth:`end`. A set ``cancel`` token stops the reading at the next
        event (the stream is closed there); the answer is then cancelled unless its Finished had
        already arrived. An exception from the stream propagates (:attr:`answer` keeps the part)."""
        it = iter(events)
        for event in it:
            self.feed(event)
            if cancel is not None and cancel.cancelled:
                close = getattr(it, "close", None)
                if callable(close):
                    close()
                break
        return self.end()

    def _figures(self, now: float) -> None:
        a, fin = self.answer, self.answer.finished
        a.wall_ms = (now - self._start) * 1000.0
        if fin is not None:
            a.completion_tokens = fin.completion_tokens
            a.prompt_tokens = fin.prompt_tokens
            a.prompt_ms = fin.prompt_ms
            a.decode_ms = fin.decode_ms
            a.drafted_total = fin.drafted_total
            a.accepted_total = fin.accepted_total
            a.drafted_known = fin.drafted_known
            a.round_count = fin.rounds or len(a.rounds)
            a.token_ids = fin.token_ids
            a.tool_calls = list(fin.tool_calls or [])
            a.candidates = (
                [[(c.id, c.text, c.logprob) for c in row] for row in fin.candidates]
                if fin.candidates is not None
                else None
            )
            return
        a.completion_tokens = max(a.streamed_tokens, self._emitted)
        a.prompt_tokens = 0
        a.prompt_ms = a.ttft_ms or 0.0
        a.decode_ms = (now - self._first) * 1000.0 if self._first is not None else 0.0
        a.drafted_total = self._drafted
        a.accepted_total = self._accepted
        a.drafted_known = self._known
        a.round_count = len(a.rounds)
        a.token_ids = None
        a.tool_calls = []
        a.candidates = None


def collect(
    events: Iterable[Event], cancel: CancelToken | None = None, clock: Callable[[], float] = time.perf_counter
) -> Answer:
    """The simple loop: one stream into one ended :class:`Answer` (see
    :meth:`AnswerCollector.collect` for ``cancel``). The clock starts here, which is when a lazy
    stream (:func:`app.core.engines.blocking.generate`) starts its request."""
    return AnswerCollector(clock).collect(events, cancel)
