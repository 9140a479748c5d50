"""What every configuration would have done on an answer: replayed drafts priced by the cost model.

With greedy decoding every configuration emits the same tokens, so an answer tells what the others
would have done with it: a model-free method's drafts are replayed exactly over the answer's tokens
(:mod:`app.core.speculative.replay`), and the cost model (:class:`~app.core.speculative.speedup.
PlainSteps`: the target's plain step now, and what a pass drafting k tokens costs in plain steps)
turns those passes into a decode speed. The configuration that ran is predicted the same way from
its own passes, so the cost model's error is measured on every answer.

Each prediction says its basis: ``replayed`` when its passes are the configuration's exact ones (a
model-free method replayed over the tokens, the configuration that ran; with sampling instead of
greedy decoding they are the ones it would have made on these tokens), ``estimated`` when its
acceptance is: a drafter that did not run on this answer is predicted from the acceptance it had,
position by position, on the rounds it did draft (:mod:`app.core.speculative.acceptance`).

A chain (a drafter and model-free methods) follows llama.cpp's order of priority: each round the
model-free methods try first, and the drafter drafts only where none of them found anything. So
its model-free rounds are replayed over the answer, and the tokens left to the drafter (those the
replay emitted one plain step at a time) go at the drafter's estimated tokens per round; every
round at the chain's own price per depth, learned once it ran beside plain decoding (``estimated``:
the drafter's share is).

An estimate can be wrong in one direction (a chain's drafter drafts only where the n-gram methods
found nothing, the harder places, so its acceptance there is below its acceptance alone). Where an
estimated configuration runs, its estimate on that answer is set against the speed it measured
(:class:`EstimateBias`), and its later estimates are scaled by the median ratio of its recent
answers: learned only from answers before the one predicted, so the error stays honest.
"""

from __future__ import annotations

import statistics
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from app.core.speculative.acceptance import Estimate
from app.core.speculative.replay import ReplayRound
from app.core.speculative.rounds import Pass
from app.core.speculative.speedup import PlainSteps

PredictionBasis = Literal["replayed", "estimated"]


@dataclass(frozen=True)
class Alternative:
    """One configuration's predicted decode speed on an answer (``tandem.alternatives``)."""

    speculation: str
    #: tokens per round the configuration drafts at most (None: off)
    draft_tokens: int | None
    decode_tokens_per_second: float
    basis: PredictionBasis
    #: the configuration that answered (its measured speed is the answer's)
    ran: bool = False

    def to_json(self) -> dict[str, object]:
        return {
            "speculation": self.speculation,
            "draft_tokens": self.draft_tokens,
            "decode_tokens_per_second": round(self.decode_tokens_per_second, 2),
            "basis": self.basis,
        }


@dataclass(frozen=True)
class Chain:
    """What a chain that did not run is predicted from: its depth, its model-free methods'
    rounds replayed over the answer, and the configuration running its drafter alone with that
    drafter's :class:`~app.core.speculative.acceptance.Estimate`."""

    depth: int | None
    rounds: Sequence[ReplayRound]
    drafter: str
    expected: Estimate


def passes_of(rounds: Sequence[ReplayRound]) -> list[Pass]:
    """Replayed rounds as target passes (their times unknown: 0)."""
    return [Pass(r.drafted, r.emitted, 0.0) for r in rounds]


def plain_steps_spent(
    steps: PlainSteps, label: str, passes: Sequence[Pass], model_free: Sequence[str]
) -> float | None:
    """What ``passes`` of ``label`` cost in plain steps: a model-free method's passes at the price
    its family pays to verify that many tokens (:meth:`PlainSteps.fitted`, every model-free method's
    passes learned together), another's at its own learned price per depth (a depth not seen yet:
    on the line through its own prices); None when a pass cannot be priced yet."""
    spent = 0.0
    for p in passes:
        if not p.drafted:
            spent += 1.0
            continue
        cost = steps.fitted(p.drafted, model_free) if label in model_free else steps.price(label, p.drafted)
        if cost is None:
            return None
        spent += cost
    return spent


def predict(
    steps: PlainSteps,
    plain_step_ms: float,
    tokens: int,
    ran: tuple[str, int | None, Sequence[Pass]],
    replayed: Mapping[str, tuple[int | None, Sequence[ReplayRound]]],
    model_free: Sequence[str],
    estimated: Mapping[str, tuple[int | None, Estimate]] | None = None,
    chains: Mapping[str, Chain] | None = None,
    *,
    sampled: bool = False,
) -> list[Alternative]:
    """The predicted decode speed of plain decoding, of the configuration that ran (``ran``: its
    label, depth and passes), of each replayed model-free configuration (label -> depth and
    rounds) and of each drafter that did not run (``estimated``: label -> depth and its expected
    round) and of each chain that did not run (``chains``), at ``plain_step_ms`` a plain step;
    configurations whose passes cannot be priced yet are left out. A ``sampled`` answer (not
    greedy) would have had other tokens under another configuration, so what is replayed over it
    is an estimate, and its basis says so."""
    if plain_step_ms <= 0 or tokens <= 0:
        return []
    out = [Alternative("off", None, 1000.0 / plain_step_ms, "replayed", ran=ran[0] == "off")]
    label, depth, passes = ran
    if label != "off":
        spent = plain_steps_spent(steps, label, passes, model_free)
        if spent is not None:
            out.append(
                Alternative(label, depth, tokens * 1000.0 / (spent * plain_step_ms), "replayed", ran=True)
            )
    for other, (other_depth, rounds) in replayed.items():
        if other == label:
            continue
        spent = plain_steps_spent(steps, other, passes_of(rounds), model_free)
        if spent is None:
            continue
        emitted = sum(r.emitted for r in rounds) or tokens
        basis: PredictionBasis = "estimated" if sampled else "replayed"
        out.append(Alternative(other, other_depth, emitted * 1000.0 / (spent * plain_step_ms), basis))
    for other, (other_depth, expected) in (estimated or {}).items():
        if other == label or other in replayed:
            continue
        tps = drafter_tps(steps, plain_step_ms, other, expected)
        if tps is not None:
            out.append(Alternative(other, other_depth, tps, "estimated"))
    for other, chain in (chains or {}).items():
        if other == label:
            continue
        tps = chain_tps(steps, plain_step_ms, other, chain, tokens)
        if tps is not None:
            out.append(Alternative(other, chain.depth, tps, "estimated"))
    return out


def drafter_tps(steps: PlainSteps, plain_step_ms: float, label: str, expected: Estimate) -> float | None:
    """Drafter ``label``'s estimated decode speed from its ``expected`` round (None: unpriced)."""
    per_round = round_cost(steps, label, expected)
    if per_round is None:
        return None
    return expected.tokens_per_round * 1000.0 / (per_round * plain_step_ms)


def chain_tps(steps: PlainSteps, plain_step_ms: float, label: str, chain: Chain, tokens: int) -> float | None:
    """Chain ``label``'s estimated decode speed on an answer of ``tokens`` tokens (None: unpriced)."""
    spent = chain_steps_spent(steps, label, chain)
    if spent is None:
        return None
    emitted = sum(r.emitted for r in chain.rounds) or tokens
    return emitted * 1000.0 / (spent * plain_step_ms)


#: answers per configuration whose estimate is kept against its measured speed
ESTIMATE_ANSWERS_KEPT = 16
#: answers a configuration needs before its estimates are scaled
ESTIMATE_ANSWERS_MIN = 2
#: the largest scaling either way (an odd answer never turns an estimate around)
ESTIMATE_SCALE_LIMIT = 2.0


@dataclass
class EstimateBias:
    """Per estimated configuration (a drafter, a chain), measured / estimated speed on the answers
    it ran, its estimate worked out before the answer was learned from; estimates of it on other
    answers are scaled by the median of its recent ones."""

    _ratios: dict[str, deque[float]] = field(default_factory=dict)

    def observe(self, label: str, estimated_tps: float, measured_tps: float) -> None:
        if estimated_tps > 0 and measured_tps > 0:
            kept = self._ratios.setdefault(label, deque(maxlen=ESTIMATE_ANSWERS_KEPT))
            kept.append(measured_tps / estimated_tps)

    def factor(self, label: str) -> float | None:
        """The scale of ``label``'s estimates (None until it ran on enough answers)."""
        kept = self._ratios.get(label)
        if kept is None or len(kept) < ESTIMATE_ANSWERS_MIN:
            return None
        median = statistics.median(kept)
        return min(ESTIMATE_SCALE_LIMIT, max(1.0 / ESTIMATE_SCALE_LIMIT, median))

    def corrected(self, alternatives: Sequence[Alternative]) -> list[Alternative]:
        """``alternatives`` with every estimated one scaled by its configuration's factor."""
        out = []
        for alt in alternatives:
            scale = self.factor(alt.speculation) if alt.basis == "estimated" and not alt.ran else None
            if scale is not None:
                alt = replace(alt, decode_tokens_per_second=alt.decode_tokens_per_second * scale)
            out.append(alt)
        return out


def chain_steps_spent(steps: PlainSteps, label: str, chain: Chain) -> float | None:
    """What chain ``label``'s answer costs in plain steps: its replayed model-free rounds, and the
    tokens its model-free methods left to plain steps in rounds of its drafter (see the module
    docstring), each round at the chain's own learned price for its depth (a chain's round pays
    for both kinds of drafting: its drafter also follows the tokens the n-gram rounds emit); None
    before the chain ran beside plain decoding."""
    spent, left = 0.0, 0
    for r in chain.rounds:
        if not r.drafted:
            left += r.emitted
            continue
        cost = steps.price(label, r.drafted)
        if cost is None:
            return None
        spent += cost
    if left:
        per_round = round_cost(steps, label, chain.expected)
        if per_round is None:
            return None
        spent += left / chain.expected.tokens_per_round * per_round
    return spent


def round_cost(steps: PlainSteps, label: str, expected: Estimate) -> float | None:
    """What an expected round of ``label`` (a drafter, or a chain's drafter rounds) costs in plain
    steps: each depth it drafts at its price (:meth:`PlainSteps.price`), weighted by how often it
    drafts it; None when it has no price at all."""
    total = 0.0
    for depth, share in expected.depths.items():
        cost = steps.price(label, depth)
        if cost is None:
            return None
        total += share * cost
    return total or None
