"""Turn an engine's event stream into one answer: its text, which parts came from drafts, stats.

The GUI feeds events as they arrive and reads :attr:`AnswerBuilder.text` and
:attr:`AnswerBuilder.draft_spans` to repaint; once the stream ends :meth:`AnswerBuilder.stats`
gives the numbers shown in the statistics strip and stored with the message.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from app.core.engines.base import Event, Finished, Round, TextDelta
from app.core.speculative.rounds import acceptance_rate, mean_accepted_length, round_totals, tokens_per_second


@dataclass(frozen=True)
class RoundPoint:
    """One round of an answer as stored with it (see :class:`app.core.engines.base.Round`).

    ``emitted`` is what the round streamed: ``accepted + 1`` normally, fewer when the answer ended
    inside the round. Rows stored before it was kept load with -1, read as ``accepted + 1`` (what
    was assumed then). ``drafted_known`` is False when the engine could not count the draft.
    """

    drafted: int
    accepted: int
    emitted: int = -1
    drafted_known: bool = True

    def __post_init__(self) -> None:
        if self.emitted < 0:
            object.__setattr__(self, "emitted", self.accepted + 1)

    def to_json(self) -> list[int]:
        row = [self.drafted, self.accepted, self.emitted]
        return row if self.drafted_known else [*row, 0]

    @classmethod
    def from_json(cls, row: Any) -> RoundPoint:
        """``[drafted, accepted]`` (old rows), ``[drafted, accepted, emitted]`` or ``[..., 0]``."""
        values = [int(v) for v in row]
        drafted, accepted = values[0], values[1]
        emitted = values[2] if len(values) > 2 else -1
        known = values[3] != 0 if len(values) > 3 else True
        return cls(drafted, accepted, emitted, known)


@dataclass(frozen=True)
class AnswerStats:
    """What one answer cost and how much speculation helped. Serialisable as plain JSON."""

    completion_tokens: int = 0
    prompt_tokens: int = 0
    #: decode tokens/s; 0.0 when not measurable (fewer than two tokens, no duration)
    decode_tps: float = 0.0
    ttft_ms: float | None = None
    total_ms: float = 0.0
    rounds: int = 0
    drafted: int = 0
    accepted: int = 0
    finish_reason: str = "stop"
    speculation: str = ""
    per_round: list[RoundPoint] = field(default_factory=list)
    #: median decode tok/s of recent plain answers of the same model here (None: not measured yet)
    baseline_tps: float | None = None
    baseline_samples: int = 0
    #: plain decode tok/s of this very prompt, measured on request ("Measure"; None: not yet)
    measured_tps: float | None = None
    #: a remote server's answer: where its acceptance numbers come from ("" for local engines;
    #: ``app.core.engines.remote.acceptance.NOT_REPORTED`` when the server reports none)
    acceptance_source: str = ""

    @property
    def speedup(self) -> float | None:
        """Decode speed relative to plain decoding of the same model on this machine: the direct
        measurement of this answer's prompt when there is one, else the recent plain median."""
        plain = self.measured_tps or self.baseline_tps
        if not self.speculation or not plain or self.decode_tps <= 0:
            return None
        return self.decode_tps / plain

    @property
    def acceptance_rate(self) -> float | None:
        """See :func:`app.core.speculative.rounds.acceptance_rate`."""
        return acceptance_rate(self.accepted, self.drafted, round_totals(self.per_round).drafted_known)

    @property
    def mean_accepted_length(self) -> float | None:
        """Tokens emitted per drafting round: the one definition shared with ``tandem bench``."""
        return mean_accepted_length(self.per_round)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["per_round"] = [r.to_json() for r in self.per_round]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AnswerStats:
        known = {f for f in cls.__dataclass_fields__ if f != "per_round"}
        kwargs: dict[str, Any] = {k: v for k, v in data.items() if k in known}
        if kwargs.get("decode_tps") is None:
            kwargs.pop("decode_tps", None)
        rounds = [RoundPoint.from_json(row) for row in data.get("per_round", [])]
        return cls(**kwargs, per_round=rounds)


class AnswerBuilder:
    """Accumulates events for one answer. Not thread-safe: feed it from one thread (the GUI's)."""

    def __init__(self, speculation: str = "", clock: Callable[[], float] = time.perf_counter) -> None:
        self._clock = clock
        self._start = clock()
        self._first: float | None = None
        self._parts: list[str] = []
        self._length = 0
        self.draft_spans: list[tuple[int, int]] = []
        self.rounds: list[RoundPoint] = []
        self.finished: Finished | None = None
        self.speculation = speculation
        self.tokens = 0

    @property
    def text(self) -> str:
        if len(self._parts) > 1:
            self._parts = ["".join(self._parts)]
        return self._parts[0] if self._parts else ""

    def feed(self, event: Event) -> None:
        if isinstance(event, TextDelta):
            if self._first is None:
                self._first = self._clock()
            start = self._length
            self._parts.append(event.text)
            self._length += len(event.text)
            self.tokens += event.token_count
            if event.from_draft and event.text:
                if self.draft_spans and self.draft_spans[-1][1] == start:
                    self.draft_spans[-1] = (self.draft_spans[-1][0], self._length)
                else:
                    self.draft_spans.append((start, self._length))
        elif isinstance(event, Round):
            self.rounds.append(RoundPoint(event.drafted, event.accepted, event.emitted, event.drafted_known))
        elif isinstance(event, Finished):
            self.finished = event

    def stats(self, reason: str | None = None) -> AnswerStats:
        """Statistics so far; ``reason`` overrides the finish reason (e.g. "cancelled")."""
        end = self._clock()
        fin = self.finished
        ttft = (self._first - self._start) * 1000.0 if self._first is not None else None
        if fin is not None:
            drafted, accepted = fin.drafted_total, fin.accepted_total
            tps = fin.decode_tps or 0.0
            tokens = fin.completion_tokens
            rounds = fin.rounds or len(self.rounds)
        else:
            totals = round_totals(self.rounds)
            drafted, accepted, rounds = totals.drafted, totals.accepted, totals.count
            tokens = self.tokens
            span = (end - self._first) if self._first is not None else 0.0
            tps = tokens_per_second(tokens, span * 1000.0) or 0.0
        return AnswerStats(
            completion_tokens=tokens,
            prompt_tokens=fin.prompt_tokens if fin else 0,
            decode_tps=tps,
            ttft_ms=ttft,
            total_ms=(end - self._start) * 1000.0,
            rounds=rounds,
            drafted=drafted,
            accepted=accepted,
            finish_reason=reason or (fin.reason if fin else "cancelled"),
            speculation=self.speculation,
            per_round=list(self.rounds),
            acceptance_source=str(getattr(fin, "acceptance_source", "") or ""),
        )
