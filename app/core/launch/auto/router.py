"""Auto per request: :class:`RequestRouter`, the rule an engine pool asks which configuration answers
a request. The same router serves ``tandem serve --spec auto`` and the window (its chat and its
Local server): the request's kind (:func:`~app.core.launch.auto.classify`), then that kind's route
(measured here when a calibration is stored, else Auto's prior per kind), corrected by the speed of
the user's real answers (:class:`~app.core.launch.auto.learning.RouteLearner`, fed by the pool
through :meth:`RequestRouter.observe`, its figures kept beside the calibration)."""

from __future__ import annotations

import hashlib
import json
import logging
import statistics
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Collection, Sequence
from typing import Any

from app.core.engines.base import GenerateRequest
from app.core.launch.auto import store
from app.core.launch.auto.candidates import Candidate
from app.core.launch.auto.kinds import RequestKind, classify, text_of
from app.core.launch.auto.learning import MIN_ANSWER_TOKENS, RouteLearner
from app.core.launch.auto.policy import Measurement
from app.core.launch.auto.routing import Routes, routes
from app.core.speculative.options import SpeculationOptions
from app.core.speculative.per_request import Speculation
from app.core.speculative.predict import Alternative
from app.core.speculative.speedup import Speedup

log = logging.getLogger(__name__)

#: Requests whose last message the router remembers, so a request resent in a fresh conversation
#: (as API clients and agents do) counts as a repeat.
RECENT_REQUESTS = 8
#: Routed requests whose kind and conversation are kept until their answer is observed.
PENDING_REQUESTS = 64
#: The learned figures are written after this many observed answers (and when the pool closes).
SAVE_EVERY = 8


def label_of(candidate: Candidate) -> str:
    """The pool's name of a configuration: its method ("off", "draft", "draft+ngram-mod")."""
    return candidate.method


class RequestRouter:
    """Auto's rule per request for an engine pool (see the module docstring)."""

    def __init__(
        self,
        routes: Routes,
        drafter_path: str | None,
        measured: bool,
        learner: RouteLearner | None = None,
        plain_tps: float | None = None,
    ) -> None:
        self.routes = routes
        self.drafter_path = drafter_path
        self.measured = measured
        #: corrects each kind's route by the real answers' speedups (None: the routes as measured)
        self.learner = learner
        #: this machine's plain decode speed for the model, from the calibration (None: unknown
        #: until the pool's "off" configuration has answered)
        self.plain_tps = plain_tps
        self._recent: deque[str] = deque(maxlen=RECENT_REQUESTS)
        self._pending: OrderedDict[str, RequestKind] = OrderedDict()
        self._unsaved = 0
        self._lock = threading.Lock()

    @classmethod
    def for_model(
        cls, key: store.CalibrationKey, candidates: Sequence[Candidate], drafter_path: str | None
    ) -> RequestRouter:
        """The routes of a model: measured ones when a calibration is stored for ``key``, else the
        prior per kind over ``candidates`` (nothing is measured before the first answer); both
        corrected by the real answers learned for ``key``."""
        demoted = store.load_demoted(key)
        stored = store.load_result(key)
        if stored is not None:
            measured = routes(stored.measurements, demoted)
            return cls(
                measured,
                drafter_path,
                True,
                RouteLearner.for_key(key, measured),
                plain_speed(stored.measurements),
            )
        prior = Routes.prior(candidates, list(demoted))
        return cls(prior, drafter_path, False, RouteLearner.for_key(key, prior))

    def configurations(self) -> dict[str, SpeculationOptions]:
        """The configurations the routes may use, by pool name (the measured depth of each
        method): each kind's route and the alternatives the learner may move it to."""
        out: dict[str, SpeculationOptions] = {}
        for candidate in self._candidates():
            out.setdefault(label_of(candidate), candidate.options(self.drafter_path))
        return out

    def _candidates(self) -> list[Candidate]:
        found = list(self.routes.configurations)
        for kind in RequestKind:
            for candidate, _ratio in self.routes.route(kind).ranked:
                if candidate not in found:
                    found.append(candidate)
        return found

    def __call__(self, request: GenerateRequest) -> Speculation:
        with self._lock:
            recent = list(self._recent)
            last = next((m for m in reversed(request.messages) if m.get("role") == "user"), None)
            if last is not None:
                self._recent.append(text_of(last))
        kind = (
            RequestKind.AGENT if request.agentic else classify(request.messages, request.tools, recent=recent)
        )
        with self._lock:
            self._pending[_identity(request)] = kind
            while len(self._pending) > PENDING_REQUESTS:
                self._pending.popitem(last=False)
        chosen = self.learner.route(kind) if self.learner is not None else self.routes[kind]
        return Speculation(label_of(chosen))

    def attach(self, running: Callable[[], Collection[str]]) -> None:
        """The pool's running configurations by name (the learner starts another one only for a
        clear gain)."""
        learner = self.learner
        if learner is None:
            return

        def candidates() -> list[Candidate]:
            names = set(running())
            return [c for c in self._candidates() if label_of(c) in names]

        learner.running = candidates

    def observe(
        self,
        request: GenerateRequest,
        label: str,
        completion_tokens: int,
        decode_s: float,
        plain_tps: float | None = None,
        own: Speedup | None = None,
        alternatives: Sequence[Alternative] = (),
    ) -> float | None:
        """One finished answer of ``request`` (routed here) by configuration ``label``: its speedup
        goes to the learner. That is the answer against its own tokens decoded plainly (``own``,
        :mod:`app.core.speculative.speedup`; 1.0 for an answer that drafted nothing) where the
        engine timed its passes, else its speed against plain speed (``plain_tps``, else the
        calibration's). ``alternatives``: what the other configurations would have done on the
        same answer (:mod:`app.core.speculative.predict`); each is evidence for its configuration
        too, as its predicted speed over plain decoding's on the same answer (an estimated one
        weighs less, :mod:`app.core.launch.auto.decide`), so one answer measures every
        configuration and Auto explores only what it can only estimate.
        Returns the speedup, None when it could not be judged (an unrouted request, a short
        answer, no plain speed known)."""
        with self._lock:
            routed = self._pending.pop(_identity(request), None)
        if routed is None or self.learner is None or decode_s <= 0:
            return None
        candidate = next((c for c in self._candidates() if label_of(c) == label), None)
        if candidate is None:
            return None
        kind = routed
        ratio: float | None
        if own is not None and own.value is not None and completion_tokens >= MIN_ANSWER_TOKENS:
            ratio = own.value
            self.learner.observe(kind, candidate, ratio)
        else:
            plain = plain_tps if plain_tps is not None else self.plain_tps
            ratio = self.learner.observe_answer(
                kind, candidate, completion_tokens / decode_s, completion_tokens, plain
            )
        ran = next((a for a in alternatives if a.ran), None)
        if ran is not None:
            self.learner.observe_error(candidate, ran.decode_tokens_per_second, completion_tokens / decode_s)
        plain_alt = next((a for a in alternatives if a.speculation == "off"), None)
        if plain_alt is not None and completion_tokens >= MIN_ANSWER_TOKENS:
            by_label = {label_of(c): c for c in self._candidates()}
            for alt in alternatives:
                other = by_label.get(alt.speculation)
                if alt.ran or other is None or other == candidate:
                    continue
                self.learner.observe(
                    kind,
                    other,
                    alt.decode_tokens_per_second / plain_alt.decode_tokens_per_second,
                    estimated=alt.basis != "replayed",
                )
        if ratio is not None:
            with self._lock:
                self._unsaved += 1
                due = self._unsaved >= SAVE_EVERY
            if due:
                self.save()
        return ratio

    def kind_of(self, request: GenerateRequest) -> str:
        """The kind ``request`` was routed as ("" when it was not routed here, or was already
        observed)."""
        with self._lock:
            kind = self._pending.get(_identity(request))
        return kind.value if kind is not None else ""

    def save(self) -> None:
        """Write what was learned and not yet written (nothing without a learner)."""
        with self._lock:
            unsaved, self._unsaved = self._unsaved, 0
        if self.learner is None or not unsaved:
            return
        try:
            self.learner.save()
        except OSError as exc:  # a full disk or a read-only home: the routes go on in memory
            log.warning("could not keep the routes learned from real answers: %s", exc)

    def learned(self) -> list[dict[str, Any]]:
        """What Auto learned, per kind: the route now, its speedup with an interval, the answers it
        rests on (:meth:`RouteLearner.summary`); the routes as measured without a learner."""
        if self.learner is not None:
            return [s.to_json() for s in self.learner.summary()]
        return [{"kind": k.value, "configuration": self.routes[k].label, "answers": 0} for k in RequestKind]

    def describe(self) -> str:
        return "; ".join(f"{kind.value} -> {self.routes[kind].label}" for kind in RequestKind)


def plain_speed(measurements: Sequence[Measurement]) -> float | None:
    """The median plain decode speed the calibration measured (its off side of every pair)."""
    speeds: list[float] = []
    for m in measurements:
        for detail in m.details.values():
            if isinstance(detail, dict) and isinstance(detail.get("off_tps"), (int, float)):
                speeds.append(float(detail["off_tps"]))
    return statistics.median(speeds) if speeds else None


def _identity(request: GenerateRequest) -> str:
    """What ties a routed request to its answer (the same messages and tools are the same request,
    whichever object carries them)."""
    text = json.dumps([request.messages, request.tools], sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()
