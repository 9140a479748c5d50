"""Round accounting shared by the engines.

A round is one verification pass of the target: it drafted ``drafted`` tokens, accepted
``accepted`` of them, and emitted ``accepted`` draft tokens followed by one token of the target's
own (fewer if generation stopped inside the round). A pass with no draft is a round with
``drafted == 0`` that emits one token, so the emitted counts always add up to the completion.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class RoundStats:
    index: int
    drafted: int
    accepted: int
    emitted: int


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
        self._closed: list[RoundStats] = []
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
            self._record(
                RoundStats(self._index, drafted, min(accepted, self._open_emitted), self._open_emitted)
            )
        elif self._open is not None and self._open[0] > 0:
            # A round that drafted but emitted nothing (stopped right there): keep its draft count.
            self._record(RoundStats(self._index, self._open[0], 0, 0))
        self._open = None
        self._open_emitted = 0

    def _record(self, stats: RoundStats) -> None:
        self._closed.append(stats)
        self._index += 1
        self.drafted_total += stats.drafted
        self.accepted_total += stats.accepted

    @property
    def round_count(self) -> int:
        return self._index

    def pop_closed(self) -> list[RoundStats]:
        out, self._closed = self._closed, []
        return out


class _RoundLike(Protocol):
    @property
    def drafted(self) -> int: ...

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
