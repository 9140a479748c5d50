"""Per request routes: for each :class:`RequestKind`, the configuration that pays for that kind.

The calibration measures every candidate on three workloads (prose, a code edit, the same code
edit again); each kind reads the workload that resembles it. An engine pool that runs several
configurations at once sends each request to its kind's route; an engine that runs one
configuration uses the launch-wide :func:`app.core.launch.auto.policy.choose` instead.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.core.launch.auto.candidates import OFF, TRAINED_DRAFTERS, Candidate
from app.core.launch.auto.kinds import RequestKind
from app.core.launch.auto.policy import PROSE_FLOOR, Measurement

#: The calibration workload each kind reads (the agent kind reads two, see :func:`routes`).
WORKLOAD_OF = {
    RequestKind.PROSE: ("prose",),
    RequestKind.CODE_EDIT: ("code",),
    RequestKind.REPEAT: ("repeat",),
    RequestKind.AGENT: ("prose", "code"),
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
            }
        )


def _geometric(values: Sequence[float | None]) -> float | None:
    if not values or any(v is None or v <= 0 for v in values):
        return None
    return math.exp(sum(math.log(v) for v in values if v) / len(values))


def kind_ratio(m: Measurement, kind: RequestKind) -> float | None:
    """What ``m`` measured on ``kind``'s workloads (geometric mean where a kind reads two)."""
    return _geometric([m.ratios.get(w) for w in WORKLOAD_OF[kind]])


def routes(measurements: Sequence[Measurement], demoted: Mapping[Candidate, float] | None = None) -> Routes:
    """Per kind, the measured candidate with the best ratio on that kind's workload, when it beats
    off (ties go to the earlier, simpler candidate); demoted candidates never. The candidates that
    do not qualify follow off in the route's ranking with what was measured (at most 1.0 for one
    below the prose floor), as the prior Auto's learner starts from.

    Prose and agent turns keep the launch rule's prose floor: a configuration below
    :data:`PROSE_FLOOR` on prose is not used for them, since their answer may be new prose. A code
    edit or a repeat is known to copy text, so its own workload decides.

    An agent turn has no workload of its own: its answer is either prose for the user or a tool
    call whose arguments copy names, paths and code from the request and the tool results. It reads
    the geometric mean of prose and code edit: a configuration must pay on both sides (or at least
    not lose on prose) to serve a turn whose shape is unknown before the answer starts.
    """
    demoted = demoted or {}
    by_kind: dict[RequestKind, Route] = {}
    for kind in RequestKind:
        scored: list[tuple[Candidate, float]] = []
        #: measured but not chosen (below off or the prose floor): kept after off, with their
        #: figure, as the learner's prior, so real answers can still prove the calibration wrong
        behind: list[tuple[Candidate, float]] = []
        left_out: list[str] = []
        for m in measurements:
            c = m.candidate
            if c.method == "off":
                continue
            ratio = kind_ratio(m, kind)
            prose = m.ratios.get("prose")
            if c in demoted:
                left_out.append(f"{c.label} demoted")
            elif ratio is None:
                left_out.append(f"{c.label} not measured")
            elif kind in PROSE_LIKE and (prose is None or prose < PROSE_FLOOR):
                left_out.append(f"{c.label} below the prose floor")
                behind.append((c, min(ratio, 1.0)))
            elif ratio > 1.0:
                scored.append((c, ratio))
            else:
                behind.append((c, ratio))
        scored.sort(key=lambda cr: -cr[1])  # stable: ties keep the measuring order
        behind.sort(key=lambda cr: -cr[1])
        ranked = (*scored, (OFF, 1.0), *behind)
        best = ranked[0]
        why = (
            f"{best[0].label}: {best[1]:.2f}x on {' + '.join(WORKLOAD_OF[kind])}"
            if best[0] != OFF
            else "off: nothing measured beats it"
        )
        if left_out:
            why += f" ({'; '.join(left_out)})"
        by_kind[kind] = Route(ranked, why)
    return Routes(by_kind)
