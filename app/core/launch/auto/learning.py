"""Routes corrected by the user's real answers: :class:`RouteLearner`.

The calibration measures short answers to three fixed prompts; the user's own requests can behave
otherwise (a drafter that pays on the calibration's prose may lose on their language, a model-free
method may pay on a long conversation that keeps quoting itself), and a calibration's figures are
noisy. Each finished answer gives its configuration's real speedup: its decode tokens/s against
this machine's plain speed for the model (what :mod:`app.core.measure.baselines` records). The
learner keeps those speedups per kind of request and configuration, and each kind's route is
decided by :mod:`app.core.launch.auto.decide`: the calibration is the prior, a route moves only
when another configuration is better beyond the measured noise (more so when that configuration
is not running), off is always a configuration, and a bounded share of answers explores. The
figures are kept beside the calibration result of the launch
(:func:`app.core.launch.auto.store.routes_path`, whose name carries the model, the engine and its
version, and the machine: a change of any starts over).
"""

from __future__ import annotations

import json
import logging
import statistics
import threading
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from app.core.launch.auto.candidates import OFF, Candidate
from app.core.launch.auto.decide import (
    EXPLORE_EVERY,
    EXPLORE_FIRST,
    Decision,
    Figure,
    decide,
    figures,
    noise_of,
)
from app.core.launch.auto.kinds import RequestKind
from app.core.launch.auto.routing import Routes
from app.core.launch.auto.store import CalibrationKey, routes_path

log = logging.getLogger(__name__)

#: Speedups kept per kind and configuration, the newest.
KEEP = 48
#: Shorter answers are dominated by timing noise (the plain baselines skip them too).
MIN_ANSWER_TOKENS = 16
#: Bump when the file's shape changes (an older file is then ignored: learning starts over).
FILE_VERSION = 2

_Samples = dict[RequestKind, dict[Candidate, list[float]]]


@dataclass(frozen=True)
class KindSummary:
    """What Auto learned for one kind: its route now and that route's figure."""

    kind: RequestKind
    figure: Figure
    why: str

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.figure.interval()
        return {
            "kind": self.kind.value,
            "configuration": self.figure.candidate.label,
            "method": self.figure.candidate.method,
            "speedup": round(self.figure.speedup, 3),
            "interval": [round(lo, 3), round(hi, 3)],
            "answers": self.figure.answers,
            "estimates": self.figure.estimates,
            "why": self.why,
        }


def speedup(tokens_per_second: float | None, completion_tokens: int, plain_tps: float | None) -> float | None:
    """An answer's decode speed against the plain speed of the same model here (None when either is
    unknown or the answer is too short to say)."""
    if tokens_per_second is None or plain_tps is None or plain_tps <= 0 or tokens_per_second <= 0:
        return None
    if completion_tokens < MIN_ANSWER_TOKENS:
        return None
    return tokens_per_second / plain_tps


class RouteLearner:
    """Routes per kind from the calibration's :class:`Routes` and the speedups of real answers;
    thread-safe (a pool answers several requests at once). ``path`` None keeps the figures in memory
    only. ``running``, when set (the engine pool sets it), names the configurations running now:
    one that is not must win by more to be started."""

    def __init__(self, routes: Routes, path: Path | None = None, explore_every: int = EXPLORE_EVERY) -> None:
        self.routes = routes
        self.path = path
        #: one routed answer in this many of a kind may explore (0: never; tests of fixed routes)
        self.explore_every = explore_every
        self.running: Callable[[], Collection[Candidate]] | None = None
        self._lock = threading.Lock()
        self._kinds: _Samples = {}
        #: per kind and configuration, its estimated predictions (kept in memory: every answer
        #: gives new ones)
        self._estimates: _Samples = {}
        #: each kind's route now (the calibration's until the answers move it)
        self._current: dict[RequestKind, Candidate] = {}
        #: why each kind's route last moved
        self._moved: dict[RequestKind, str] = {}
        #: answers routed per kind (every EXPLORE_EVERY-th may explore)
        self._turns: dict[RequestKind, int] = {}
        #: kinds whose exploring answer went to a configuration that was not running (it starts
        #: in the background while the route answers): their next answer explores instead
        self._deferred: set[RequestKind] = set()
        #: per configuration, predicted / measured - 1 of the speed of its recent answers (how far
        #: the cost model behind every prediction was from what the answer measured)
        self._errors: dict[Candidate, list[float]] = {}
        if path is not None:
            self._read(path)

    @classmethod
    def for_key(cls, key: CalibrationKey, routes: Routes) -> RouteLearner:
        """The learner of a launch, with the figures stored beside its calibration."""
        return cls(routes, routes_path(key))

    # --- answers ----------------------------------------------------------------------------------
    def observe(self, kind: RequestKind, candidate: Candidate, ratio: float, estimated: bool = False) -> None:
        """One real answer of ``candidate`` on a ``kind`` request, ``ratio`` times plain speed (or
        a replayed prediction of it); ``estimated``: an estimated prediction (see
        :mod:`app.core.launch.auto.decide`)."""
        if ratio <= 0:
            return
        with self._lock:
            per_kind = (self._estimates if estimated else self._kinds).setdefault(kind, {})
            per_kind[candidate] = [*per_kind.get(candidate, []), round(ratio, 4)][-KEEP:]

    def observe_answer(
        self,
        kind: RequestKind,
        candidate: Candidate,
        tokens_per_second: float | None,
        completion_tokens: int,
        plain_tps: float | None,
    ) -> float | None:
        """:meth:`observe` from an answer's decode speed and the plain baseline's (the median of
        recent plain answers, :meth:`app.core.measure.baselines.BaselineStore.get`); returns the
        speedup, None when it could not be judged (nothing is kept then)."""
        ratio = speedup(tokens_per_second, completion_tokens, plain_tps)
        if ratio is not None:
            self.observe(kind, candidate, ratio)
        return ratio

    def observe_error(self, candidate: Candidate, predicted: float, measured: float) -> None:
        """The speed the cost model predicted for an answer of ``candidate`` against the speed the
        answer measured (tokens/s, both positive)."""
        if predicted <= 0 or measured <= 0:
            return
        with self._lock:
            kept = self._errors.get(candidate, [])
            self._errors[candidate] = [*kept, round(predicted / measured - 1.0, 4)][-KEEP:]

    def prediction_errors(self) -> dict[Candidate, tuple[float, int]]:
        """Per configuration, the median of |predicted / measured - 1| over its recent answers, and
        how many answers that rests on."""
        with self._lock:
            return {c: (statistics.median(abs(e) for e in v), len(v)) for c, v in self._errors.items() if v}

    # --- routes -----------------------------------------------------------------------------------
    def table(self, kind: RequestKind) -> dict[Candidate, Figure]:
        """Every configuration's :class:`Figure` for ``kind``: the calibration's ratio as the prior,
        the real answers, the noise measured over all of this kind's answers."""
        with self._lock:
            return self._table(kind)

    def _table(self, kind: RequestKind) -> dict[Candidate, Figure]:
        route = self.routes.route(kind)
        prior = dict(route.ranked)
        samples = self._kinds.get(kind, {})
        candidates = list(dict.fromkeys([*prior, *samples, OFF]))
        noise = noise_of({c: s for c, s in samples.items() if c != OFF})  # off is exact: no noise
        return figures(candidates, prior, samples, noise, self._estimates.get(kind, {}))

    def route(self, kind: RequestKind) -> Candidate:
        """The configuration for the next ``kind`` request (an exploring one now and then, see
        :mod:`app.core.launch.auto.decide`); counts the request."""
        with self._lock:
            turn = self._turns[kind] = self._turns.get(kind, 0) + 1
            deferred = kind in self._deferred
            self._deferred.discard(kind)
        scheduled = self.explore_every > 0 and turn % self.explore_every == EXPLORE_FIRST % self.explore_every
        decision = self._decide(kind, scheduled or deferred)
        if decision.exploring and self.running is not None and decision.candidate not in self.running():
            with self._lock:  # it starts now; the route answers meanwhile, and the next one explores
                self._deferred.add(kind)
        return decision.candidate

    def explain(self, kind: RequestKind) -> Decision:
        """``kind``'s route now, and why (nothing is counted, nothing explores)."""
        return self._decide(kind, False)

    def _decide(self, kind: RequestKind, explore_turn: bool) -> Decision:
        running = self.running() if self.running is not None else None
        with self._lock:
            table = self._table(kind)
            current = self._current.get(kind, self.routes.route(kind).candidate)
            if current not in table:
                current = self.routes.route(kind).candidate
            decision = decide(current, table, running, explore_turn)
            if not decision.exploring and decision.candidate != current:
                log.info("Auto moves %s answers: %s", kind.value, decision.why)
                self._current[kind] = decision.candidate
                self._moved[kind] = decision.why
            elif not decision.exploring and kind in self._moved:
                decision = replace(decision, why=f"{decision.why} (moved here: {self._moved[kind]})")
        return decision

    def summary(self) -> list[KindSummary]:
        """Per kind: the route now, its speedup with an interval and the answers it rests on."""
        out = []
        for kind in RequestKind:
            decision = self.explain(kind)
            out.append(KindSummary(kind, self.table(kind)[decision.candidate], decision.why))
        return out

    # --- storage ----------------------------------------------------------------------------------
    def save(self) -> None:
        """Write the figures atomically (nothing without a path)."""
        if self.path is None:
            return
        with self._lock:
            data = {
                "version": FILE_VERSION,
                "kinds": _samples_json(self._kinds),
                "routes": {k.value: c.to_json() for k, c in self._current.items()},
                "errors": [{**c.to_json(), "errors": list(v)} for c, v in self._errors.items()],
            }
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data), "utf-8")
        tmp.replace(self.path)

    def _read(self, path: Path) -> None:
        try:
            data = json.loads(path.read_text("utf-8"))
            if data.get("version") != FILE_VERSION:
                return
            kinds = _samples_from(data["kinds"])
            current = {RequestKind(k): Candidate.from_json(c) for k, c in data.get("routes", {}).items()}
            errors = {
                Candidate.from_json(r): [float(x) for x in r["errors"]][-KEEP:]
                for r in data.get("errors", [])
            }
        except FileNotFoundError:
            return
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            log.warning("ignoring unreadable %s: %s", path, exc)
            return
        self._kinds, self._current, self._errors = kinds, current, errors


def _samples_json(samples: _Samples) -> dict[str, list[dict[str, Any]]]:
    return {
        kind.value: [{**c.to_json(), "speedups": list(v)} for c, v in per.items()]
        for kind, per in samples.items()
    }


def _samples_from(data: Mapping[str, Any]) -> _Samples:
    out: _Samples = {}
    for kind_name, rows in data.items():
        kind = RequestKind(kind_name)
        out[kind] = {Candidate.from_json(r): [float(x) for x in r["speedups"]][-KEEP:] for r in rows}
    return out
