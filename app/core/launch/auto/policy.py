"""Auto's rules: which measured configuration a launch runs (:func:`choose`), and what it runs
before anything was measured here (:func:`prior`).

A :class:`Measurement` holds one candidate's ratios (spec-on / spec-off decode speed) on the
calibration's workloads: prose, a code edit, and the same code edit again ("repeat").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from app.core.launch.auto.candidates import OFF, TRAINED_DRAFTERS, Candidate

#: A configuration slower than this on prose is never chosen, whatever it does elsewhere.
PROSE_FLOOR = 0.97
WORKLOADS = ("prose", "code", "repeat")


@dataclass
class Measurement:
    candidate: Candidate
    #: workload -> spec-on / spec-off decode speed (None: could not be measured)
    ratios: dict[str, float | None] = field(default_factory=dict)
    #: workload -> figures behind the ratio (tok/s of both sides, acceptance, tokens per round)
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def mean(self) -> float | None:
        """Geometric mean of the measured ratios (None when some workload has none)."""
        values = [self.ratios.get(w) for w in WORKLOADS]
        if any(v is None or v <= 0 for v in values):
            return None
        return math.exp(sum(math.log(v) for v in values if v) / len(values))

    def to_json(self) -> dict[str, Any]:
        mean = self.mean
        return {
            **self.candidate.to_json(),
            # full precision: the stored result must choose exactly as the measurement did
            "ratios": dict(self.ratios),
            "mean": None if mean is None else round(mean, 3),
            "details": self.details,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Measurement:
        return cls(Candidate.from_json(data), dict(data.get("ratios") or {}), dict(data.get("details") or {}))


@dataclass
class Choice:
    candidate: Candidate
    why: str
    #: per candidate: (label, "chosen" / "not used" / "excluded: ..." )
    verdicts: list[tuple[str, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            **self.candidate.to_json(),
            "label": self.candidate.label,
            "why": self.why,
            "verdicts": [{"config": c, "verdict": v} for c, v in self.verdicts],
        }


def ratio_text(value: float | None) -> str:
    """A measured ratio as Auto's why line writes it (``1.05x``; ``-`` when not measured)."""
    return "-" if value is None else f"{value:.2f}x"


def _summary(m: Measurement) -> str:
    r = m.ratios
    text = f"{ratio_text(r.get('prose'))} prose, {ratio_text(r.get('code'))} code edit"
    return text + f", {ratio_text(r.get('repeat'))} on repeats"


def choose(measurements: Sequence[Measurement], demoted: dict[Candidate, float] | None = None) -> Choice:
    """The rule. Ties go to the earlier candidate (off first, then simpler configurations).

    ``demoted``: configurations that lost on the user's real answers (candidate -> their speed
    against plain decoding); they are never chosen, whatever the short measurement said.
    """
    demoted = demoted or {}
    best: Measurement | None = None
    verdicts: list[tuple[str, str]] = []
    for m in measurements:
        if m.candidate.method == "off":
            continue
        prose, mean = m.ratios.get("prose"), m.mean
        if m.candidate in demoted:
            verdicts.append(
                (m.candidate.label, f"demoted: {ratio_text(demoted[m.candidate])} vs plain on real answers")
            )
        elif prose is None or mean is None:
            verdicts.append((m.candidate.label, "not measured"))
        elif prose < PROSE_FLOOR:
            verdicts.append((m.candidate.label, f"excluded: {prose:.2f}x on prose is below {PROSE_FLOOR}x"))
        elif mean <= 1.0:
            verdicts.append((m.candidate.label, f"not used: mean {mean:.2f}x, no faster than off"))
        else:
            verdicts.append((m.candidate.label, f"mean {mean:.2f}x"))
            if best is None or mean > (best.mean or 0.0):
                best = m
    parts = []
    for m in measurements:
        if m.candidate.method == "off" or m.candidate in demoted:
            continue
        used = best is not None and m is best
        parts.append(f"{m.candidate.label}: {_summary(m)}{'' if used else ', not used'}")
    if best is None:
        why = "off: no configuration was faster without being slower on prose" + (
            f" ({'; '.join(parts)})" if parts else " (nothing to try)"
        )
        return Choice(OFF, why, verdicts)
    verdicts = [(c, ("chosen, " + v) if c == best.candidate.label else v) for c, v in verdicts]
    return Choice(best.candidate, "; ".join(parts), verdicts)


def qualifies(m: Measurement) -> bool:
    """Whether ``m`` may be chosen: at least the prose floor, and a mean above off."""
    prose, mean = m.ratios.get("prose"), m.mean
    return prose is not None and mean is not None and prose >= PROSE_FLOOR and mean > 1.0


def best_drafter(done: Sequence[Measurement]) -> Measurement | None:
    """The best qualifying drafter-only measurement of ``done`` (a combination runs its depth)."""
    ok = [m for m in done if m.candidate.uses_drafter and "+" not in m.candidate.method and qualifies(m)]
    return max(ok, key=lambda m: m.mean or 0.0, default=None)


def prior(cands: Sequence[Candidate], demoted: Sequence[Candidate] = ()) -> Candidate:
    """What Auto runs before the calibration of ``cands`` is stored (answer at once).

    The pair's trained drafter where there is one (assistant / built-in MTP / EAGLE-3 / DFlash, at
    its default depth), else the engine's model-free method (ngram-mod drafts only where the text
    repeats, so it costs little when it cannot help), else off. ``demoted`` configurations (they
    lost on the user's answers) are skipped. The prior is always one of ``cands``, so the
    measurement compares it with the rest.
    """
    usable = [c for c in cands if c.method != "off" and "+" not in c.method and c not in demoted]
    for c in usable:
        if c.uses_drafter and c.method in TRAINED_DRAFTERS:
            return c
    for c in usable:
        if not c.uses_drafter:
            return c
    return OFF
