"""How often a drafter's draft survives, position by position: the estimate behind a prediction
for a drafter that did not run on an answer.

A model-free method's drafts are a function of the tokens, so they are replayed exactly over any
answer; a drafter's are not (they come from another model), so its speed on an answer it did not
draft is estimated from the rounds it did draft. Each round of a drafter that drafted ``d`` tokens
of which the target kept ``a`` says: positions ``1 … a`` were accepted, position ``a + 1`` (when
``a < d``) was tried and rejected, and the positions after it were never tried. So per position
``i`` the estimate keeps how many rounds reached it and how many of those kept it; its acceptance is
the second over the first (the chance the draft survives position ``i`` once it survived ``i - 1``).

The depth drafted varies too (a drafter stops early when it is unsure), so the estimate keeps how
many rounds drafted at least ``i`` tokens, and the tokens a round emits are
``1 + sum_i P(drafted >= i) * prod_{j <= i} p_j``.

Estimates are kept per kind of request (prose, code, …) and across kinds; a kind with fewer than
:data:`MIN_ROUNDS` rounds is estimated from all of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from app.core.speculative.rounds import Pass

#: rounds a kind needs before it is estimated on its own
MIN_ROUNDS = 8
#: all kinds together (the key of the estimate across kinds)
ANY = ""


@dataclass
class Positions:
    """Per draft position (index 0 is position 1): rounds that drafted it, reached it, kept it."""

    drafted: list[int] = field(default_factory=list)
    reached: list[int] = field(default_factory=list)
    kept: list[int] = field(default_factory=list)
    rounds: int = 0
    #: how many rounds drafted each depth (what a round of this drafter costs depends on it)
    depths: dict[int, int] = field(default_factory=dict)

    def add(self, drafted: int, accepted: int) -> None:
        accepted = max(0, min(accepted, drafted))
        grow = drafted - len(self.drafted)
        if grow > 0:
            for column in (self.drafted, self.reached, self.kept):
                column.extend([0] * grow)
        for i in range(drafted):
            self.drafted[i] += 1
            if i <= accepted:  # position i + 1 was checked: every earlier one was kept
                self.reached[i] += 1
            if i < accepted:
                self.kept[i] += 1
        self.rounds += 1
        self.depths[drafted] = self.depths.get(drafted, 0) + 1

    def tokens_per_round(self) -> float | None:
        """Tokens a round emits (the accepted drafts and the target's own one), None before any."""
        if not self.rounds:
            return None
        total, survive = 1.0, 1.0
        for i, drafted in enumerate(self.drafted):
            if not self.reached[i]:
                break
            survive *= self.kept[i] / self.reached[i]
            total += drafted / self.rounds * survive
        return total

    def acceptance(self) -> list[float]:
        """Per position, the chance a draft that reached it is kept (positions never reached: 0)."""
        return [k / r if r else 0.0 for k, r in zip(self.kept, self.reached, strict=True)]


@dataclass(frozen=True)
class Estimate:
    """A drafter's expected round on an answer it did not draft."""

    #: tokens a round emits
    tokens_per_round: float
    #: how often it drafts each depth (shares summing to 1)
    depths: dict[int, float]
    #: the rounds the estimate rests on
    rounds: int


class AcceptanceByPosition:
    """Per configuration and kind of request, the acceptance of each draft position, from every
    round the configuration drafted (see the module docstring)."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str], Positions] = {}

    def observe(self, label: str, kind: str, passes: Iterable[Pass]) -> None:
        """Learn from the passes of one answer ``label`` drafted (plain passes: a round that
        drafted nothing says nothing of the drafter's acceptance)."""
        mine = self._seen.setdefault((label, kind), Positions())
        every = self._seen.setdefault((label, ANY), Positions()) if kind != ANY else None
        for p in passes:
            if p.drafted <= 0:
                continue
            mine.add(p.drafted, p.tokens - 1)
            if every is not None:
                every.add(p.drafted, p.tokens - 1)

    def positions(self, label: str, kind: str = ANY) -> Positions | None:
        """The counts behind ``label``'s estimate for ``kind`` (across kinds when that kind has
        too few rounds), None when it never drafted."""
        own = self._seen.get((label, kind))
        if own is not None and own.rounds >= MIN_ROUNDS:
            return own
        every = self._seen.get((label, ANY))
        return every if every is not None and every.rounds else None

    def estimate(self, label: str, kind: str = ANY) -> Estimate | None:
        """``label``'s expected round on a ``kind`` answer, None when it never drafted."""
        found = self.positions(label, kind)
        if found is None:
            return None
        tokens = found.tokens_per_round()
        if tokens is None:
            return None
        depths = {d: n / found.rounds for d, n in found.depths.items()}
        return Estimate(tokens, depths, found.rounds)
