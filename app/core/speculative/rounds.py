"""Rounds and the statistics computed from them: the one definition every layer uses.

A round is one verification pass of the target: it drafted ``drafted`` tokens, accepted
``accepted`` of them, and emitted ``accepted`` draft tokens followed by one token of the target's
own (fewer if generation stopped inside the round). A pass with no draft is a round with
``drafted == 0`` that emits one token, so the emitted counts always add up to the completion.

- :class:`Round` is the event the engines stream (re-exported by :mod:`app.core.engines.base`).
- :class:`RoundAccountant` turns "a round started" + "a token was emitted" into rounds.
- :class:`TimingsRounds` reads llama-server's cumulative per-token ``timings`` (the in-process
  llama.cpp engine and a remote llama-server stream the same counters).
- :func:`acceptance_rate`, :func:`mean_accepted_length`, :func:`tokens_per_second` (and the
  :class:`DecodeFigures` mixin built on them) and :func:`json_rate` are the numbers that the
  engines' ``Finished`` and the one :class:`~app.core.answer.Answer` (which the chat's
  ``AnswerStats``, ``tandem bench``, the CLI and the local API server report) are made of.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from app.core.cancel import tokens_per_second

__all__ = [
    "DecodeFigures",
    "Round",
    "RoundAccountant",
    "RoundTotals",
    "TimingsRounds",
    "acceptance_rate",
    "is_drafting_round",
    "json_rate",
    "mean_accepted_length",
    "round_totals",
    "tokens_per_second",
]


@dataclass(frozen=True)
class Round:
    """One verification pass: ``accepted`` of ``drafted`` draft tokens kept, ``emitted`` streamed.

    ``drafted_known`` is False when the engine cannot tell how many tokens were drafted (an
    mlx-vlm drafter that records only accepted lengths); ``drafted`` is then 0, so no acceptance
    rate is ever computed from a guessed draft count.
    """

    index: int
    drafted: int
    accepted: int
    emitted: int
    drafted_known: bool = True


class RoundAccountant:
    """Turns "a round started with (drafted, accepted)" + "a token was emitted" into rounds.

    Engines call :meth:`start_round` when their counters show a new verification pass, then
    :meth:`token` for each emitted token (returns whether that token came from an accepted draft),
    and :meth:`finish` at the end. Closed rounds are collected from :meth:`pop_closed`.
    """

    def __init__(self) -> None:
        self._index = 0
        self._open: tuple[int, int] | None = None  # (drafted, accepted)
        self._open_emitted = 0
        self._closed: list[Round] = []
        self.drafted_total = 0
        self.accepted_total = 0
        self.emitted_total = 0

    def start_round(self, drafted: int, accepted: int) -> None:
        if drafted < 0 or accepted < 0 or accepted > drafted:
            raise ValueError(f"inconsistent round: drafted={drafted} accepted={accepted}")
        self._close()
        self._open = (drafted, accepted)
        self._open_emitted = 0

    def token(self) -> bool:
        """Account one emitted token; True when it is one of the current round's accepted drafts."""
        if self._open is None or self._open_emitted >= self._open[1] + 1:
            self.start_round(0, 0)
        assert self._open is not None
        from_draft = self._open_emitted < self._open[1]
        self._open_emitted += 1
        self.emitted_total += 1
        return from_draft

    def finish(self) -> None:
        self._close()

    def _close(self) -> None:
        if self._open is not None and self._open_emitted > 0:
            drafted, accepted = self._open
            self._record(Round(self._index, drafted, min(accepted, self._open_emitted), self._open_emitted))
        elif self._open is not None and self._open[0] > 0:
            # A round that drafted but emitted nothing (stopped right there): keep its draft count.
            self._record(Round(self._index, self._open[0], 0, 0))
        self._open = None
        self._open_emitted = 0

    def _record(self, r: Round) -> None:
        self._closed.append(r)
        self._index += 1
        self.drafted_total += r.drafted
        self.accepted_total += r.accepted

    @property
    def round_count(self) -> int:
        return self._index

    def pop_closed(self) -> list[Round]:
        out, self._closed = self._closed, []
        return out


@dataclass(frozen=True)
class Pass:
    """One pass of the target over the answer: a plain step (``drafted`` 0, one token) or the
    verification of a draft (``tokens`` emitted: the accepted drafts and the target's own), with
    its wall time from llama-server's ``predicted_ms`` (drafting included)."""

    drafted: int
    tokens: int
    ms: float


class TimingsRounds:
    """llama-server's per-token ``timings`` -> rounds, tokens and the request's timing figures.

    With ``timings_per_token`` every streamed chunk carries cumulative counters: ``predicted_n``
    (tokens so far), ``draft_n`` and ``draft_n_accepted`` (draft tokens so far). A rise of
    ``draft_n`` opens a round; the rise of ``predicted_n`` is the chunk's token count. The
    in-process llama.cpp engine and the remote engine (a llama-server endpoint) both read them here.
    """

    def __init__(self) -> None:
        self.rounds = RoundAccountant()
        #: the last non-empty ``timings`` seen (the final one holds the request's totals)
        self.timings: Mapping[str, Any] = {}
        #: the server reported draft counters at least once (it ran speculation)
        self.saw_draft_counters = False
        self._pn = 0
        self._dn = 0
        self._da = 0
        self._ms = 0.0
        #: the target's passes after the first token (which the prompt pass produced), in order
        self.passes: list[Pass] = []

    def step(self, timings: Mapping[str, Any]) -> tuple[int, bool]:
        """Read one chunk's timings: (tokens it carries, whether all of them were accepted drafts)."""
        if timings:
            self.timings = timings
        if "draft_n" in timings:
            self.saw_draft_counters = True
        pn = int(timings.get("predicted_n", self._pn))
        dn = int(timings.get("draft_n", self._dn))
        da = int(timings.get("draft_n_accepted", self._da))
        if dn > self._dn:
            self.rounds.start_round(dn - self._dn, da - self._da)
        n = max(0, pn - self._pn)
        ms = float(timings.get("predicted_ms", self._ms) or 0.0)
        if n and self._pn and ms > self._ms:  # a new pass (the tokens of one pass share its time)
            self.passes.append(Pass(dn - self._dn, n, ms - self._ms))
        elif n and self.passes:  # more tokens of the last pass
            last = self.passes[-1]
            self.passes[-1] = Pass(last.drafted, last.tokens + n, last.ms)
        self._ms = max(self._ms, ms)
        self._dn, self._da = dn, da
        self._pn = pn
        flags = [self.rounds.token() for _ in range(n)]
        return n, bool(flags) and all(flags)

    def pop_closed(self) -> list[Round]:
        return self.rounds.pop_closed()

    def finish(self) -> list[Round]:
        """Close the last round; the rounds not yet collected."""
        self.rounds.finish()
        return self.rounds.pop_closed()

    @property
    def prompt_tokens(self) -> int:
        """Prompt tokens, the ones served from the prompt cache included."""
        return int(self.timings.get("prompt_n", 0)) + int(self.timings.get("cache_n", 0))

    @property
    def prompt_ms(self) -> float:
        return float(self.timings.get("prompt_ms", 0.0))

    @property
    def decode_ms(self) -> float:
        return float(self.timings.get("predicted_ms", 0.0))


class _RoundLike(Protocol):
    @property
    def drafted(self) -> int: ...

    @property
    def accepted(self) -> int: ...

    @property
    def emitted(self) -> int: ...


def is_drafting_round(r: _RoundLike) -> bool:
    """A round that verified a draft: it drafted tokens, or the engine could not say how many."""
    return r.drafted > 0 or not getattr(r, "drafted_known", True)


def mean_accepted_length(rounds: Iterable[_RoundLike]) -> float | None:
    """Mean accepted length: tokens emitted per drafting round, the one definition of Tandem.

    Counts, over the rounds that verified a draft, the tokens each actually emitted: its accepted
    draft tokens plus the target's own token, so a round cut short by an end-of-generation token or
    the max-tokens limit counts only what it emitted (not accepted + 1). Rounds without a draft
    are left out. None when no round drafted. The chat's statistics, ``tandem bench`` and the
    CLI all report this number.
    """
    drafting = [r.emitted for r in rounds if is_drafting_round(r)]
    return sum(drafting) / len(drafting) if drafting else None


def acceptance_rate(accepted: int, drafted: int, drafted_known: bool = True) -> float | None:
    """Accepted over drafted draft tokens; None when nothing was drafted or the count is unknown."""
    if not drafted_known or not drafted:
        return None
    return accepted / drafted


class DecodeFigures:
    """Decode speed and acceptance of one generation from its totals.

    Mixed into the engines' ``Finished`` and :class:`app.core.answer.Answer`, which hold these fields.
    """

    completion_tokens: int
    decode_ms: float
    drafted_total: int
    accepted_total: int
    drafted_known: bool

    @property
    def decode_tps(self) -> float | None:
        """Decode tokens/s; None when not measurable (see :func:`tokens_per_second`)."""
        return tokens_per_second(self.completion_tokens, self.decode_ms)

    @property
    def acceptance_rate(self) -> float | None:
        """See :func:`acceptance_rate`; None when the draft count is unknown."""
        return acceptance_rate(self.accepted_total, self.drafted_total, self.drafted_known)


def json_rate(tps: float | None) -> float | None:
    """A decode speed as written in JSON output: two decimals, null when not measurable."""
    return None if tps is None else round(tps, 2)


@dataclass(frozen=True)
class RoundTotals:
    """What a list of rounds adds up to (for an answer that ended without its ``Finished``)."""

    count: int
    drafted: int
    accepted: int
    emitted: int
    drafted_known: bool


def round_totals(rounds: Iterable[_RoundLike]) -> RoundTotals:
    rows = list(rounds)
    return RoundTotals(
        count=len(rows),
        drafted=sum(r.drafted for r in rows),
        accepted=sum(r.accepted for r in rows),
        emitted=sum(r.emitted for r in rows),
        drafted_known=all(getattr(r, "drafted_known", True) for r in rows),
    )
