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


@dataclass(frozen=True)
class RoundPoint:
    drafted: int
    accepted: int


@dataclass(frozen=True)
class AnswerStats:
    """What one answer cost and how much speculation helped. Serialisable as plain JSON."""

    completion_tokens: int = 0
    prompt_tokens: int = 0
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

    @property
    def speedup(self) -> float | None:
        """Decode speed relative to plain decoding of the same model on this machine."""
        if not self.speculation or not self.baseline_tps or self.decode_tps <= 0:
            return None
        return self.decode_tps / self.baseline_tps

    @property
    def acceptance_rate(self) -> float | None:
        return self.accepted / self.drafted if self.drafted else None

    @property
    def mean_accepted_length(self) -> float | None:
        """Tokens emitted per verification round (accepted drafts + the target's own token)."""
        drafted_rounds = [r for r in self.per_round if r.drafted > 0]
        if not drafted_rounds:
            return None
        return sum(r.accepted + 1 for r in drafted_rounds) / len(drafted_rounds)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["per_round"] = [[r.drafted, r.accepted] for r in self.per_round]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AnswerStats:
        known = {f for f in cls.__dataclass_fields__ if f != "per_round"}
        kwargs: dict[str, Any] = {k: v for k, v in data.items() if k in known}
        rounds = [RoundPoint(int(d), int(a)) for d, a in data.get("per_round", [])]
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
            self.rounds.append(RoundPoint(event.drafted, event.accepted))
        elif isinstance(event, Finished):
            self.finished = event

    def stats(self, reason: str | None = None) -> AnswerStats:
        """Statistics so far; ``reason`` overrides the finish reason (e.g. "cancelled")."""
        end = self._clock()
        fin = self.finished
        ttft = (self._first - self._start) * 1000.0 if self._first is not None else None
        if fin is not None:
            drafted, accepted = fin.drafted_total, fin.accepted_total
            tps = fin.decode_tps
            tokens = fin.completion_tokens
            rounds = fin.rounds or len(self.rounds)
        else:
            drafted = sum(r.drafted for r in self.rounds)
            accepted = sum(r.accepted for r in self.rounds)
            tokens = self.tokens
            span = (end - self._first) if self._first is not None else 0.0
            tps = tokens / span if span > 0 else 0.0
            rounds = len(self.rounds)
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
        )
