"""Auto's rules: which measured configuration a launch runs (:func:`choose`), and what it runs
before anything was measured here (:func:`prior`).

A :class:`Measurement` holds one candidate's measured pairs (spec-on / spec-off decode speed, each
pair run back to back) on the calibration's workloads: prose, a code edit, and the same code edit
again ("repeat"). A workload measured several times gives a figure with an interval
(:func:`figure`): the noise of one pair is measured from the repeated pairs of the whole
calibration (:func:`pair_noise`). Two configurations whose figures are not apart by more than
:data:`CAL_Z` standard errors of their difference are a tie (:func:`apart`), and a tie goes to the
cheaper configuration (:func:`cost`): off, then a model-free method, then a drafter (shallower
first), then a drafter with a model-free method.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.core.launch.auto.candidates import OFF, TRAINED_DRAFTERS, Candidate
from app.core.launch.auto.decide import NOISE_FLOOR, OFF_SE, Figure

#: A configuration slower than this on prose is never chosen, whatever it does elsewhere.
PROSE_FLOOR = 0.97
WORKLOADS = ("prose", "code", "repeat")
#: one measured pair's noise (standard deviation of its log ratio) before any pair was repeated
PAIR_NOISE_DEFAULT = 0.08
#: how many repeated pairs' worth of :data:`PAIR_NOISE_DEFAULT` the measured noise starts from
PAIR_NOISE_PRIOR_PAIRS = 2
#: standard errors of their difference two figures must be apart by not to be a tie (one-sided,
#: about 2% per look; two calibrations can then disagree only within a tie)
CAL_Z = 2.0
#: off's figure: plain speed by definition, exact
OFF_FIGURE = Figure(OFF, 0.0, OFF_SE, 0)


@dataclass
class Measurement:
    candidate: Candidate
    #: workload -> spec-on / spec-off decode speed (None: could not be measured); the geometric
    #: mean of the workload's pairs (:attr:`samples`)
    ratios: dict[str, float | None] = field(default_factory=dict)
    #: workload -> figures behind the ratio (tok/s of both sides, acceptance, tokens per round)
    details: dict[str, Any] = field(default_factory=dict)
    #: workload -> every measured pair's ratio (absent: the ratio alone, one pair)
    samples: dict[str, list[float]] = field(default_factory=dict)

    def source(self, workload: str) -> str:
        """The workload whose pairs stand for ``workload``: a drafter keeps nothing between
        requests, so its repeat is its code edit (said in its details)."""
        detail = self.details.get(workload)
        same = detail.get("same_as") if isinstance(detail, dict) else None
        return same if isinstance(same, str) and same in WORKLOADS and same != workload else workload

    def pairs(self, workload: str) -> list[float]:
        """The pair ratios of ``workload`` (the ratio alone when no pairs were kept)."""
        workload = self.source(workload)
        kept = self.samples.get(workload)
        if kept:
            return list(kept)
        ratio = self.ratios.get(workload)
        return [ratio] if ratio is not None and ratio > 0 else []

    def add(self, workload: str, ratio: float | None) -> None:
        """One more pair of ``workload``: kept, and the workload's ratio (and that of every workload
        it stands for) becomes their geometric mean."""
        if ratio is None or ratio <= 0:
            return
        pairs = [*self.pairs(workload), ratio]
        self.samples[workload] = pairs
        mean = math.exp(sum(math.log(r) for r in pairs) / len(pairs))
        for w in WORKLOADS:
            if self.source(w) == workload:
                self.ratios[w] = mean

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
            "samples": {w: list(v) for w, v in self.samples.items()},
            "details": self.details,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Measurement:
        samples = {str(w): [float(x) for x in v] for w, v in (data.get("samples") or {}).items()}
        return cls(
            Candidate.from_json(data),
            dict(data.get("ratios") or {}),
            dict(data.get("details") or {}),
            samples,
        )


def pair_noise(measurements: Sequence[Measurement]) -> dict[str, float]:
    """One pair's noise per workload: the pooled standard deviation of the log ratios of that
    workload wherever it was measured twice or more (a drafter's repeat, which is its code edit,
    counted once), with :data:`PAIR_NOISE_PRIOR_PAIRS` pairs' worth of :data:`PAIR_NOISE_DEFAULT`
    pooled in (two pairs that happen to agree would otherwise make every single pair look exact);
    never below :data:`~app.core.launch.auto.decide.NOISE_FLOOR`.

    Per workload, because the workloads differ: each takes its fixed prompts in turn, and a
    drafter guesses some texts better than others (prose differs most); the same prompt's pairs
    differ only by the machine's timing, about 1% on a quiet machine."""
    out: dict[str, float] = {}
    for w in WORKLOADS:
        squares, freedom = PAIR_NOISE_PRIOR_PAIRS * PAIR_NOISE_DEFAULT**2, PAIR_NOISE_PRIOR_PAIRS
        for m in measurements:
            if m.source(w) != w:
                continue  # another workload's pairs (a drafter's repeat is its code edit)
            logs = [math.log(r) for r in m.samples.get(w, ()) if r > 0]
            if len(logs) >= 2:
                mean = sum(logs) / len(logs)
                squares += sum((x - mean) ** 2 for x in logs)
                freedom += len(logs) - 1
        out[w] = max(NOISE_FLOOR, math.sqrt(squares / freedom))
    return out


def figure(m: Measurement, workloads: Sequence[str], noise: Mapping[str, float]) -> Figure | None:
    """``m``'s speedup over ``workloads`` (the geometric mean of theirs) with its standard error
    (each workload's mean of pairs is its ``noise`` / sqrt(pairs) uncertain); None when a workload was
    not measured. Off is exact (plain speed, by definition)."""
    if m.candidate.method == "off":
        return OFF_FIGURE
    weight: dict[str, int] = {}  # a workload standing for another counts its pairs once
    for w in workloads:
        weight[m.source(w)] = weight.get(m.source(w), 0) + 1
    total, variance, fewest = 0.0, 0.0, None
    for w, times in weight.items():
        logs = [math.log(r) for r in m.pairs(w)]
        if not logs:
            return None
        total += times * sum(logs) / len(logs)
        variance += times**2 * noise[w] ** 2 / len(logs)
        fewest = len(logs) if fewest is None else min(fewest, len(logs))
    k = len(workloads)
    return Figure(m.candidate, total / k, math.sqrt(variance) / k, fewest or 0)


def workload_figures(m: Measurement, noise: Mapping[str, float]) -> dict[str, Any]:
    """Per measured workload: the speedup, its interval (:data:`CAL_Z` standard errors) and the
    pairs behind it (what the calibration reports)."""
    out: dict[str, Any] = {}
    for w in WORKLOADS:
        f = figure(m, (w,), noise)
        if f is not None:
            lo, hi = f.interval(CAL_Z)
            out[w] = {
                "speedup": round(f.speedup, 3),
                "interval": [round(lo, 3), round(hi, 3)],
                "pairs": f.answers,
            }
    return out


def apart(better: Figure, worse: Figure, margin: float = 0.0) -> bool:
    """Whether ``better`` beats ``worse`` by more than :data:`CAL_Z` standard errors of the
    difference (plus ``margin``, in log): otherwise the two are a tie."""
    return better.mean - worse.mean > CAL_Z * math.sqrt(better.se**2 + worse.se**2) + margin


def tie_of_fastest(figures: Sequence[Figure]) -> list[Figure]:
    """The fastest of ``figures`` (the first of equal means) and every one not apart from it, in
    their order: the configurations a decision between them cannot tell apart."""
    fastest = max(figures, key=lambda f: f.mean)
    return [f for f in figures if not apart(fastest, f)]


def cheapest(figures: Sequence[Figure]) -> Figure:
    """The cheapest of ``figures`` (:func:`cost`), the faster of equal cost: who a tie goes to."""
    return min(figures, key=lambda f: (cost(f.candidate), -f.mean))


def cost(c: Candidate) -> tuple[int, int]:
    """What a configuration costs to run, for ties (smaller is cheaper): off; a model-free method
    (no second model); a drafter (its model's memory and a pass per drafted token, shallower first);
    a drafter with a model-free method."""
    if c.method == "off":
        return (0, 0)
    depth = c.tokens_per_round or 0
    if "+" in c.method:
        return (3, depth)
    return (2, depth) if c.uses_drafter else (1, 0)


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


def figure_cell(f: Mapping[str, Any] | None) -> str:
    """One workload's figure (an entry of :func:`workload_figures`) as Auto writes it:
    ``1.31x (1.22-1.40)``, its interval in brackets (``-`` when not measured)."""
    if not f:
        return "-"
    lo, hi = f["interval"]
    return f"{f['speedup']:.2f}x ({lo:.2f}-{hi:.2f})"


def _summary(m: Measurement, noise: Mapping[str, float]) -> str:
    f = workload_figures(m, noise)
    text = f"{figure_cell(f.get('prose'))} prose, {figure_cell(f.get('code'))} code edit"
    return text + f", {figure_cell(f.get('repeat'))} on repeats"


def choose(
    measurements: Sequence[Measurement],
    demoted: Mapping[Candidate, float] | None = None,
    workloads: Sequence[str] = WORKLOADS,
    routed: Mapping[Candidate, str] | None = None,
) -> Choice:
    """The rule: of the configurations that qualify (not below the prose floor, a mean over the
    workloads above off), the fastest by mean, except that every configuration not apart from it
    (:func:`apart`, off included) is a tie and the cheapest of the tie is chosen (:func:`cost`).

    ``demoted``: configurations that lost on the user's real answers (candidate -> their speed
    against plain decoding); they are never chosen, whatever the short measurement said.
    ``workloads``: the workloads the mean is taken over (a pool's launch, which serves only some
    kinds of request, reads theirs: :func:`app.core.launch.auto.routing.choose_routed`); the prose
    floor holds whatever they are (a running configuration may answer any request meanwhile).
    ``routed``: configurations a pool sends some kinds to (candidate -> those kinds), said in the
    reason instead of "not used".
    """
    demoted, routed = demoted or {}, routed or {}
    noise = pair_noise(measurements)
    verdicts: list[tuple[str, str]] = []
    eligible: list[Figure] = [OFF_FIGURE]
    for m in measurements:
        if m.candidate.method == "off":
            continue
        prose, fig = m.ratios.get("prose"), figure(m, workloads, noise)
        mean = None if fig is None else fig.speedup
        if m.candidate in demoted:
            verdicts.append(
                (m.candidate.label, f"demoted: {ratio_text(demoted[m.candidate])} vs plain on real answers")
            )
        elif prose is None or mean is None or fig is None:
            verdicts.append((m.candidate.label, "not measured"))
        elif prose < PROSE_FLOOR:
            verdicts.append((m.candidate.label, f"excluded: {prose:.2f}x on prose is below {PROSE_FLOOR}x"))
        elif mean <= 1.0:
            verdicts.append((m.candidate.label, f"not used: mean {mean:.2f}x, no faster than off"))
        else:
            verdicts.append((m.candidate.label, f"mean {interval_text(fig)}"))
            eligible.append(fig)
    tie = tie_of_fastest(eligible)
    chosen = cheapest(tie)
    best = (
        next((m for m in measurements if m.candidate == chosen.candidate), None)
        if chosen.candidate != OFF
        else None
    )
    tied_with = [f.candidate.label for f in tie if f is not chosen]
    parts = []
    for m in measurements:
        if m.candidate.method == "off" or m.candidate in demoted:
            continue
        used = best is not None and m is best
        note = "" if used else f", for {routed[m.candidate]}" if m.candidate in routed else ", not used"
        parts.append(f"{m.candidate.label}: {_summary(m, noise)}{note}")
    if best is None:
        if tied_with:
            why = (
                f"off: {', '.join(tied_with)} not apart from off beyond the noise (a tie goes to the cheaper)"
            )
        else:
            why = "off: no configuration was faster without being slower on prose"
        why += f" ({'; '.join(parts)})" if parts else " (nothing to try)"
        return Choice(OFF, why, [(c, f"tie with off, {v}" if c in tied_with else v) for c, v in verdicts])
    out: list[tuple[str, str]] = []
    routed_labels = {c.label: kinds for c, kinds in routed.items()}
    for c, v in verdicts:
        if c == best.candidate.label:
            v = "chosen, " + v + (f", the cheapest of a tie with {', '.join(tied_with)}" if tied_with else "")
        elif c in tied_with:
            v = f"tie, costs more: {v}"
        if c in routed_labels:  # used, for other kinds of request
            v = f"for {routed_labels[c]}; {v.removeprefix('not used: ')}"
        out.append((c, v))
    return Choice(best.candidate, "; ".join(parts), out)


def interval_text(f: Figure) -> str:
    """A figure as Auto writes it: ``1.31x [1.22-1.40]`` (the interval: :data:`CAL_Z` standard errors)."""
    lo, hi = f.interval(CAL_Z)
    return f"{f.speedup:.2f}x [{lo:.2f}-{hi:.2f}]"


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
