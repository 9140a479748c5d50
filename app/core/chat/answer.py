"""A chat answer's statistics as stored with the message, and the chat's collector.

The accounting itself is :mod:`app.core.answer` (the one accumulator of every consumer):
:class:`AnswerBuilder` is its collector with the chat's speculation label, and
:meth:`AnswerStats.of` turns an :class:`~app.core.answer.Answer` into the numbers the statistics
strip shows and the store keeps (with what the chat adds: the plain baseline and the measured
speed).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from app.core.answer import Answer, AnswerCollector
from app.core.speculative.rounds import acceptance_rate, mean_accepted_length, round_totals


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
    #: what the figures' source leaves out (server-wide counters blurred by concurrent traffic, ...)
    acceptance_note: str = ""
    #: False when the server did not report that figure (``drafted``/``accepted`` are then 0 and mean
    #: "unknown", never "none"); always True for local engines
    drafted_reported: bool = True
    accepted_reported: bool = True
    #: images in the prompt of this answer: its time to first token includes encoding them
    images: int = 0
    #: the answer's Max new tokens (0: not known, e.g. an answer stored before it was recorded)
    max_tokens: int = 0
    #: this answer against plain decoding of its own tokens (:mod:`app.core.speculative.speedup`);
    #: None: not known (an engine without per-pass timings, an answer stored before)
    own_speedup: float | None = None
    #: where the plain step of that figure came from (:data:`app.core.speculative.speedup.Basis`)
    speedup_basis: str = ""
    #: what every configuration would have done on this answer (``tandem.alternatives`` rows, plus
    #: ``ran`` for the one that answered); empty when not predicted
    alternatives: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ending(self) -> str:
        """Why the answer ended, as the window explains it: ``"context"`` (a ``length`` finish
        before Max new tokens: the conversation and the answer filled the model's context),
        ``"max_tokens"``, ``"length"`` (one of the two, Max new tokens not known), else the finish
        reason itself (``"stop"``, ``"cancelled"``, ``"error"``, ...)."""
        if self.finish_reason != "length":
            return self.finish_reason
        if self.max_tokens <= 0:
            return "length"
        return "context" if self.completion_tokens < self.max_tokens else "max_tokens"

    @property
    def speedup(self) -> float | None:
        """Decode speed relative to plain decoding on this machine, the figure the window shows:
        this answer against its own tokens decoded plainly when its engine timed its passes (none
        for an answer that drafted nothing: it was plain decoding), else the direct measurement of
        this answer's prompt, else the recent plain median of the same model."""
        if not self.speculation:
            return None
        if self.speedup_basis == "nothing-drafted":
            return None
        if self.own_speedup is not None:
            return self.own_speedup
        plain = self.measured_tps or self.baseline_tps
        if not plain or self.decode_tps <= 0:
            return None
        if self.drafted_reported and self.drafted == 0:  # plain decoding: no gain to claim
            return min(1.0, self.decode_tps / plain)
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
    def of(
        cls,
        answer: Answer,
        speculation: str = "",
        reason: str | None = None,
        images: int = 0,
        max_tokens: int = 0,
    ) -> AnswerStats:
        """The stored statistics of ``answer``; ``reason`` overrides its finish reason; ``images``
        counts the images its prompt carried; ``max_tokens``: the Max new tokens it ran with."""
        fin = answer.finished
        remote = getattr(fin, "acceptance_source", None)  # set on a remote server's Finished only
        return cls(
            completion_tokens=answer.completion_tokens,
            prompt_tokens=answer.prompt_tokens,
            decode_tps=answer.decode_tps or 0.0,
            ttft_ms=answer.ttft_ms,
            total_ms=answer.wall_ms,
            rounds=answer.round_count,
            drafted=answer.drafted_total,
            accepted=answer.accepted_total,
            finish_reason=reason or answer.reason or "cancelled",
            speculation=speculation,
            per_round=[RoundPoint(r.drafted, r.accepted, r.emitted, r.drafted_known) for r in answer.rounds],
            acceptance_source=str(getattr(fin, "acceptance_source", "") or ""),
            acceptance_note=str(getattr(fin, "acceptance_note", "") or ""),
            # a remote server's RemoteFinished says None for a figure it did not report
            drafted_reported=remote is None or getattr(fin, "drafted", None) is not None,
            accepted_reported=remote is None or getattr(fin, "accepted", None) is not None,
            images=images,
            max_tokens=max_tokens,
            own_speedup=answer.speedup.value,
            speedup_basis=answer.speedup.basis,
            alternatives=[
                {**a.to_json(), "ran": a.ran} for a in ((fin.alternatives if fin is not None else None) or ())
            ],
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AnswerStats:
        known = {f for f in cls.__dataclass_fields__ if f != "per_round"}
        kwargs: dict[str, Any] = {k: v for k, v in data.items() if k in known}
        if kwargs.get("decode_tps") is None:
            kwargs.pop("decode_tps", None)
        rounds = [RoundPoint.from_json(row) for row in data.get("per_round", [])]
        return cls(**kwargs, per_round=rounds)


class AnswerBuilder(AnswerCollector):
    """The chat's collector: an :class:`AnswerCollector` that knows the speculation the answer ran
    with. The GUI feeds it events as they arrive and reads :attr:`text` and :attr:`draft_spans` to
    repaint; :meth:`stats` gives the statistics strip's numbers. Not thread-safe: the GUI's thread."""

    def __init__(
        self,
        speculation: str = "",
        clock: Callable[[], float] = time.perf_counter,
        images: int = 0,
        max_tokens: int = 0,
    ) -> None:
        super().__init__(clock)
        self.speculation = speculation
        #: images in the answer's prompt (their encoding is part of the time to first token)
        self.images = images
        #: the Max new tokens the answer was asked with (tells "context full" from "max tokens")
        self.max_tokens = max_tokens

    @property
    def text(self) -> str:
        return self.answer.text

    @property
    def draft_spans(self) -> list[tuple[int, int]]:
        return self.answer.draft_spans

    def stats(self, reason: str | None = None) -> AnswerStats:
        """Statistics of the answer as it stands (its stream ends here unless more is fed);
        ``reason`` overrides the finish reason (the GUI's "cancelled" or "error")."""
        return AnswerStats.of(self.end(), self.speculation, reason, self.images, self.max_tokens)
