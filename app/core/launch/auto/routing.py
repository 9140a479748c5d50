"""Per request routes: for each :class:`RequestKind`, the configuration that pays for that kind.

The calibration measures every candidate on three workloads (prose, a code edit, the same code
edit again); each kind reads the workload that resembles it. An engine pool that runs several
configurations at once sends each request to its kind's route; an engine that runs one
configuration uses the launch-wide :func:`app.core.launch.auto.policy.choose` instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.core.launch.auto.candidates import OFF, TRAINED_DRAFTERS, Candidate
from app.core.launch.auto.decide import START_MARGIN, Figure
from app.core.launch.auto.kinds import RequestKind
from app.core.launch.auto.policy import (
    OFF_FIGURE,
    PROSE_FLOOR,
    WORKLOADS,
    Choice,
    Measurement,
    apart,
    cheapest,
    choose,
    figure,
    interval_text,
    pair_noise,
    tie_of_fastest,
)

#: The calibration workload each kind reads (the agent kind reads two, see :func:`routes`).
WORKLOAD_OF = {
    RequestKind.PROSE: ("prose",),
    RequestKind.CODE_EDIT: ("code",),
    RequestKind.REPEAT: ("repeat",),
    RequestKind.AGENT: ("prose", "code"),
    RequestKind.DOCUMENT: ("code",),
}
#: Kinds whose answer may be new prose, where a configuration below :data:`PROSE_FLOOR` on prose is
#: never used (a code edit or a repeat is known to copy, so its own ratio decides).
PROSE_LIKE = frozenset({RequestKind.PROSE, RequestKind.AGENT})


@dataclass(frozen=True)
class Route:
    """One kind's route: the configurations that may serve it with their expected speedup
    (measured ratio, or 1.0 for off), best first; the first is the route."""

    ranked: tuple[tuple[Candidate, float], ...] = ((OFF, 1.0),)
    why: str = ""

    @property
    def candidate(self) -> Candidate:
        return self.ranked[0][0]

    @property
    def expected(self) -> float:
        return self.ranked[0][1]

    def to_json(self) -> dict[str, Any]:
        return {
            "ranked": [{**c.to_json(), "ratio": round(r, 3)} for c, r in self.ranked],
            "why": self.why,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Route:
        ranked = tuple((Candidate.from_json(d), float(d["ratio"])) for d in data["ranked"])
        return cls(ranked or ((OFF, 1.0),), str(data.get("why", "")))


@dataclass(frozen=True)
class Routes:
    """A route per kind (every kind has one; off when nothing pays)."""

    by_kind: Mapping[RequestKind, Route] = field(default_factory=dict)

    def route(self, kind: RequestKind) -> Route:
        return self.by_kind.get(kind) or Route(why="nothing measured for this kind")

    def __getitem__(self, kind: RequestKind) -> Candidate:
        return self.route(kind).candidate

    @property
    def configurations(self) -> list[Candidate]:
        """The distinct configurations the routes use, in kind order (what a pool would run)."""
        out: list[Candidate] = []
        for kind in RequestKind:
            c = self[kind]
            if c not in out:
                out.append(c)
        return out

    def to_json(self) -> dict[str, Any]:
        return {k.value: self.route(k).to_json() for k in RequestKind}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Routes:
        return cls({k: Route.from_json(data[k.value]) for k in RequestKind if k.value in data})

    @classmethod
    def prior(cls, cands: Sequence[Candidate], demoted: Sequence[Candidate] = ()) -> Routes:
        """Routes before anything was measured here: a code edit or a repeat goes to the engine's
        model-free method (it drafts where the text repeats and costs little where it does not),
        a question about documents too (its answer quotes them: the method drafts from the prompt),
        prose to the pair's trained drafter (assistant / MTP / EAGLE-3 / DFlash), an agent turn to
        the trained drafter else the model-free method (its answers are prose or tool calls that
        copy names from the request); any kind else off. Never a demoted candidate."""
        usable = [c for c in cands if c.method != "off" and "+" not in c.method and c not in demoted]
        free = next((c for c in usable if not c.uses_drafter), None)
        trained = next((c for c in usable if c.method in TRAINED_DRAFTERS), None)

        def route(c: Candidate | None, why: str) -> Route:
            return Route(((c, 1.0), (OFF, 1.0)) if c is not None else ((OFF, 1.0),), why)

        return cls(
            {
                RequestKind.PROSE: route(trained, "prior: the trained drafter"),
                RequestKind.CODE_EDIT: route(free, "prior: the model-free method"),
                RequestKind.REPEAT: route(free, "prior: the model-free method"),
                RequestKind.AGENT: route(trained or free, "prior: trained drafter, else model-free"),
                RequestKind.DOCUMENT: route(free or trained, "prior: model-free, else trained drafter"),
            }
        )


@dataclass
class KindFigures:
    """What the calibration says of one kind: the figures of the configurations that may serve it
    (off included), those measured that may not (below the prose floor, at most 1.0x: kept as the
    learner's prior), and why any was left out."""

    usable: dict[Candidate, Figure]
    behind: list[tuple[Candidate, float]] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)


def figures_for(
    kind: RequestKind,
    measurements: Sequence[Measurement],
    noise: Mapping[str, float],
    demoted: Mapping[Candidate, float] | None = None,
) -> KindFigures:
    """Each measured configuration's figure on ``kind``'s workloads (see :class:`KindFigures`)."""
    out = KindFigures({OFF: OFF_FIGURE})
    for m in measurements:
        c = m.candidate
        if c.method == "off" or "error" in m.details:
            continue
        f = figure(m, WORKLOAD_OF[kind], noise)
        prose = m.ratios.get("prose")
        if demoted and c in demoted:
            out.left_out.append(f"{c.label} demoted")
        elif f is None:
            out.left_out.append(f"{c.label} not measured")
        elif kind in PROSE_LIKE and (prose is None or prose < PROSE_FLOOR):
            out.left_out.append(f"{c.label} below the prose floor")
            out.behind.append((c, min(f.speedup, 1.0)))
        else:
            out.usable[c] = f
    return out


def _given_away(
    launched: Candidate,
    measurements: Sequence[Measurement],
    noise: Mapping[str, float],
    demoted: Mapping[Candidate, float],
) -> dict[RequestKind, Figure]:
    """The kinds another configuration (off included) serves faster than ``launched`` beyond the
    noise, with that configuration's figure (the cheapest of those tied with the fastest)."""
    out: dict[RequestKind, Figure] = {}
    for kind in RequestKind:
        usable = figures_for(kind, measurements, noise, demoted).usable
        here = usable.get(launched, OFF_FIGURE)
        better = [f for f in usable.values() if f is not here and apart(f, here)]
        if better:
            out[kind] = cheapest(tie_of_fastest(better))
    return out


def routed_launch(
    measurements: Sequence[Measurement], demoted: Mapping[Candidate, float] | None = None
) -> tuple[Choice, list[str]]:
    """The launch's configuration when a pool routes each request by its kind (llama.cpp: see
    :data:`~app.core.launch.auto.candidates.ROUTED_ENGINES`), and the workloads it was chosen on.

    :func:`choose` picks one configuration for every kind. On a pool, a kind that another
    configuration serves faster beyond the noise goes to it anyway, so what the launch runs is
    chosen again by the same rule on the workloads of the kinds left to it (every workload when
    each kind is left to it, or none is). The realistic-cost pair shows why: the chain (drafter +
    ngram-mod) has the best mean because ngram-mod drafts repeats, but ngram-mod alone is faster
    there beyond the noise and takes them; on prose and code edits the chain and the drafter alone
    are a tie, which goes to the cheaper drafter (docs/benchmarks.md). Nothing runs before the launch, so no
    start's margin is asked here; :func:`routes` then asks it of every kind that leaves the
    configuration chosen."""
    demoted = demoted or {}
    whole = choose(measurements, demoted)
    given = _given_away(whole.candidate, measurements, pair_noise(measurements), demoted)
    kept = [k for k in RequestKind if k not in given]
    if not given or not kept:
        return whole, list(WORKLOADS)
    workloads = list(dict.fromkeys(w for k in kept for w in WORKLOAD_OF[k]))
    kinds_of: dict[Candidate, list[str]] = {}
    for kind, f in given.items():
        kinds_of.setdefault(f.candidate, []).append(kind.value)
    routed = {c: ", ".join(kinds) for c, kinds in kinds_of.items()}
    narrowed = choose(measurements, demoted, workloads, routed)
    if narrowed.candidate == whole.candidate:
        return whole, workloads
    elsewhere = ", ".join(f"{k.value} -> {f.candidate.label}" for k, f in given.items())
    why = (
        f"{narrowed.candidate.label} for {', '.join(k.value for k in kept)} (on {', '.join(workloads)}), "
        f"since {elsewhere} beyond the noise; {narrowed.why}"
    )
    return Choice(narrowed.candidate, why, narrowed.verdicts), workloads


def choose_routed(
    measurements: Sequence[Measurement], demoted: Mapping[Candidate, float] | None = None
) -> Choice:
    """The launch's configuration on a pool (:func:`routed_launch`)."""
    return routed_launch(measurements, demoted)[0]


def routes(measurements: Sequence[Measurement], demoted: Mapping[Candidate, float] | None = None) -> Routes:
    """Per kind, the configuration that serves it: the launch's own (:func:`choose_routed`, the
    one running) unless the calibration says otherwise beyond its noise. Each candidate's figure on a
    kind is its speedup over the kind's workloads with an interval (:func:`figure`).

    * A configuration measured slower than off beyond the noise on a kind does not serve it: off does.
    * Another configuration takes a kind only when it beats the launch's beyond the noise
      (:func:`apart`) and by :data:`START_MARGIN` more: it is not running, and its load (in the
      background, on the same cores), its memory and its cold prompt cache must pay for
      themselves. Of those that do, the fastest, or the cheapest of those tied with it
      (:func:`cost`).
    * A tie keeps the launch's configuration.

    Prose and agent turns keep the launch rule's prose floor: a configuration below
    :data:`PROSE_FLOOR` on prose does not serve them, since their answer may be new prose. A code
    edit or a repeat is known to copy text, so its own workload decides. An agent turn reads the
    geometric mean of prose and code edit: its answer is prose for the user or a tool call copying
    names, paths and code from the request, unknown before the answer starts. A question about
    documents reads the code edit: like an edit, its answer copies parts of a text the prompt holds
    and writes the rest anew.

    Every other candidate follows the route in its ranking with its figure (at most 1.0 for one
    below the prose floor), as the prior Auto's learner starts from; demoted candidates never serve.
    """
    demoted = demoted or {}
    launched = choose_routed(measurements, demoted).candidate
    noise = pair_noise(measurements)
    by_kind: dict[RequestKind, Route] = {}
    for kind in RequestKind:
        workloads = WORKLOAD_OF[kind]
        kind_figures = figures_for(kind, measurements, noise, demoted)
        usable, left_out = kind_figures.usable, kind_figures.left_out
        behind = kind_figures.behind
        here = usable.get(launched, OFF_FIGURE)
        over = ", ".join(workloads)
        if here.candidate != OFF and apart(OFF_FIGURE, here):
            route, why = (
                OFF_FIGURE,
                f"off: {here.candidate.label} {interval_text(here)} on {over} is slower beyond the noise",
            )
        else:
            better = [f for f in usable.values() if f is not here and apart(f, here, START_MARGIN)]
            if better:
                route = cheapest(tie_of_fastest(better))
                why = (
                    f"{route.candidate.label}: {interval_text(route)} on {over}, beyond the noise and a "
                    f"start above {here.candidate.label} {interval_text(here)}"
                )
            else:
                route = here
                why = (
                    f"{here.candidate.label}: {interval_text(here)} on {over}"
                    + (", the launch's configuration" if here.candidate == launched else "")
                    + ("; nothing else is faster beyond the noise" if len(usable) > 1 else "")
                )
        rest = sorted((f for f in usable.values() if f is not route), key=lambda f: -f.mean)
        ranked = (  # off's figure is exactly 1.0x
            *((f.candidate, f.speedup) for f in (route, *rest)),
            *sorted(behind, key=lambda cr: -cr[1]),
        )
        if left_out:
            why += f" ({'; '.join(left_out)})"
        by_kind[kind] = Route(ranked, why)
    return Routes(by_kind)
