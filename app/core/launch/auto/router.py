"""Auto per request: :class:`RequestRouter`, the rule an engine pool asks which configuration answers
a request. The same router serves ``tandem serve --spec auto`` and the window (its chat and its
Local server): the request's kind (:func:`~app.core.launch.auto.classify`), then that kind's route
(measured here when a calibration is stored, else Auto's prior per kind)."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Sequence

from app.core.engines.base import GenerateRequest
from app.core.launch.auto import store
from app.core.launch.auto.candidates import Candidate
from app.core.launch.auto.kinds import RequestKind, classify, text_of
from app.core.launch.auto.routing import Routes, routes
from app.core.speculative.options import SpeculationOptions

#: Requests whose last message the router remembers, so a request resent in a fresh conversation
#: (as API clients and agents do) counts as a repeat.
RECENT_REQUESTS = 8


def label_of(candidate: Candidate) -> str:
    """The pool's name of a configuration: its method ("off", "draft", "draft+ngram-mod")."""
    return candidate.method


class RequestRouter:
    """Auto's rule per request for an engine pool (see the module docstring)."""

    def __init__(self, routes: Routes, drafter_path: str | None, measured: bool) -> None:
        self.routes = routes
        self.drafter_path = drafter_path
        self.measured = measured
        self._recent: deque[str] = deque(maxlen=RECENT_REQUESTS)
        self._lock = threading.Lock()

    @classmethod
    def for_model(
        cls, key: store.CalibrationKey, candidates: Sequence[Candidate], drafter_path: str | None
    ) -> RequestRouter:
        """The routes of a model: measured ones when a calibration is stored for ``key``, else the
        prior per kind over ``candidates`` (nothing is measured before the first answer)."""
        demoted = store.load_demoted(key)
        stored = store.load_result(key)
        if stored is not None:
            return cls(routes(stored.measurements, demoted), drafter_path, True)
        return cls(Routes.prior(candidates, list(demoted)), drafter_path, False)

    def configurations(self) -> dict[str, SpeculationOptions]:
        """The configurations the routes use, by pool name (the measured depth of each method)."""
        return {label_of(c): c.options(self.drafter_path) for c in self.routes.configurations}

    def __call__(self, request: GenerateRequest) -> str:
        with self._lock:
            recent = list(self._recent)
            last = next((m for m in reversed(request.messages) if m.get("role") == "user"), None)
            if last is not None:
                self._recent.append(text_of(last))
        kind = classify(request.messages, request.tools, recent=recent)
        return label_of(self.routes[kind])

    def describe(self) -> str:
        return "; ".join(f"{kind.value} -> {self.routes[kind].label}" for kind in RequestKind)
