"""Routes corrected by the user's real answers: :class:`RouteLearner`.

The calibration measures 40-token answers to three fixed prompts; the user's own requests can
behave otherwise (a drafter that pays on the calibration's prose may lose on their language, a
model-free method may pay on a long conversation that keeps quoting itself). Each finished answer
gives its configuration's real speedup: its decode tokens/s against this machine's plain speed for
the model (what :mod:`app.core.measure.baselines` records). The learner keeps those speedups per
kind, and per conversation (a conversation keeps its own character: one user's code review
repeats far more than another's), and a route moves to another configuration only when the
route's real figure falls clearly below the other's (:data:`MARGIN`), each figure counting once it
rests on :data:`MIN_SAMPLES` answers. A configuration without enough real answers is judged by
what the calibration measured. The figures are kept beside the calibration result of the launch
(:func:`app.core.launch.auto.store.routes_path`).
"""

from __future__ import annotations

import json
import logging
import statistics
import threading
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from app.core.launch.auto.candidates import Candidate
from app.core.launch.auto.kinds import RequestKind
from app.core.launch.auto.routing import Routes
from app.core.launch.auto.store import CalibrationKey, routes_path

log = logging.getLogger(__name__)

#: Real answers a configuration needs (per kind, or per conversation) before its figure counts.
MIN_SAMPLES = 3
#: A route moves only to a configuration whose figure is this share above the route's.
MARGIN = 0.10
#: Speedups kept per kind (or conversation and kind) and configuration, the newest.
KEEP = 16
#: Conversations whose figures are kept, the most recently answered.
MAX_CONVERSATIONS = 64
#: Shorter answers are dominated by timing noise (the plain baselines skip them too).
MIN_ANSWER_TOKENS = 16
#: Bump when the file's shape changes (an older file is then ignored).
FILE_VERSION = 1

_Samples = dict[RequestKind, dict[Candidate, list[float]]]


def speedup(tokens_per_second: float | None, completion_tokens: int, plain_tps: float | None) -> float | None:
    """An answer's decode speed against the plain speed of the same model here (None when either is
    unknown or the answer is too short to say)."""
    if tokens_per_second is None or plain_tps is None or plain_tps <= 0 or tokens_per_second <= 0:
        return None
    if completion_tokens < MIN_ANSWER_TOKENS:
        return None
    return tokens_per_second / plain_tps


class RouteLearner:
    """Routes per kind and conversation, from the calibration's :class:`Routes` and the speedups of
    real answers; thread-safe (a pool answers several requests at once). ``path`` None keeps the
    figures in memory only. A conversation is any stable key, e.g. the one suffix decoding files
    answers under (:func:`app.core.speculative.suffix.key_for_messages`: system prompt and first
    user message), which an API client's stateless requests share too."""

    def __init__(
        self,
        routes: Routes,
        path: Path | None = None,
        *,
        min_samples: int = MIN_SAMPLES,
        margin: float = MARGIN,
    ) -> None:
        self.routes = routes
        self.path = path
        self.min_samples = min_samples
        self.margin = margin
        self._lock = threading.Lock()
        self._kinds: _Samples = {}
        self._conversations: OrderedDict[str, _Samples] = OrderedDict()
        if path is not None:
            self._read(path)

    @classmethod
    def for_key(cls, key: CalibrationKey, routes: Routes) -> RouteLearner:
        """The learner of a launch, with the figures stored beside its calibration."""
        return cls(routes, routes_path(key))

    # --- answers ----------------------------------------------------------------------------------
    def observe(
        self, kind: RequestKind, candidate: Candidate, ratio: float, conversation: str | None = None
    ) -> None:
        """One real answer of ``candidate`` on a ``kind`` request, ``ratio`` times plain speed."""
        if ratio <= 0:
            return
        with self._lock:
            _add(self._kinds, kind, candidate, ratio)
            if conversation is not None:
                samples = self._conversations.pop(conversation, {})
                _add(samples, kind, candidate, ratio)
                self._conversations[conversation] = samples
                while len(self._conversations) > MAX_CONVERSATIONS:
                    self._conversations.popitem(last=False)

    def observe_answer(
        self,
        kind: RequestKind,
        candidate: Candidate,
        tokens_per_second: float | None,
        completion_tokens: int,
        plain_tps: float | None,
        conversation: str | None = None,
    ) -> float | None:
        """:meth:`observe` from an answer's decode speed and the plain baseline's (the median of
        recent plain answers, :meth:`app.core.measure.baselines.BaselineStore.get`); returns the
        speedup, None when it could not be judged (nothing is kept then)."""
        ratio = speedup(tokens_per_second, completion_tokens, plain_tps)
        if ratio is not None:
            self.observe(kind, candidate, ratio, conversation)
        return ratio

    # --- routes -----------------------------------------------------------------------------------
    def figure(
        self, kind: RequestKind, candidate: Candidate, conversation: str | None = None
    ) -> tuple[float, str]:
        """(expected speedup, where it comes from: ``conversation`` / ``real`` / ``measured``)."""
        with self._lock:
            return self._figure(kind, candidate, conversation)

    def route(self, kind: RequestKind, conversation: str | None = None) -> Candidate:
        """The configuration for the next ``kind`` request of ``conversation``."""
        return self.explain(kind, conversation)[0]

    def explain(self, kind: RequestKind, conversation: str | None = None) -> tuple[Candidate, str]:
        """:meth:`route` and one line saying why."""
        route = self.routes.route(kind)
        with self._lock:
            chosen = route.candidate
            figure, source = self._figure(kind, chosen, conversation)
            if source == "measured":
                return chosen, f"{chosen.label}: measured {figure:.2f}x"
            best, best_figure, best_source = chosen, figure, source
            for other, _ratio in route.ranked:
                if other == chosen:
                    continue
                f, s = self._figure(kind, other, conversation)
                if f > best_figure:
                    best, best_figure, best_source = other, f, s
        if best != chosen and best_figure > figure * (1 + self.margin):
            why = (
                f"{best.label} ({best_figure:.2f}x, {best_source}) instead of {chosen.label} "
                f"({figure:.2f}x on {source} answers)"
            )
            return best, why
        return chosen, f"{chosen.label}: {figure:.2f}x on {source} answers"

    def _figure(self, kind: RequestKind, candidate: Candidate, conversation: str | None) -> tuple[float, str]:
        if conversation is not None:
            samples = self._conversations.get(conversation, {}).get(kind, {}).get(candidate, [])
            if len(samples) >= self.min_samples:
                return statistics.median(samples), "conversation"
        samples = self._kinds.get(kind, {}).get(candidate, [])
        if len(samples) >= self.min_samples:
            return statistics.median(samples), "real"
        measured = dict(self.routes.route(kind).ranked).get(candidate)
        return (1.0 if measured is None else measured), "measured"

    # --- storage ----------------------------------------------------------------------------------
    def save(self) -> None:
        """Write the figures atomically (nothing without a path)."""
        if self.path is None:
            return
        with self._lock:
            data = {
                "version": FILE_VERSION,
                "kinds": _samples_json(self._kinds),
                "conversations": {c: _samples_json(s) for c, s in self._conversations.items()},
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
            conversations = OrderedDict((str(c), _samples_from(s)) for c, s in data["conversations"].items())
        except FileNotFoundError:
            return
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            log.warning("ignoring unreadable %s: %s", path, exc)
            return
        self._kinds, self._conversations = kinds, conversations


def _add(samples: _Samples, kind: RequestKind, candidate: Candidate, ratio: float) -> None:
    per_kind = samples.setdefault(kind, {})
    per_kind[candidate] = [*per_kind.get(candidate, []), round(ratio, 4)][-KEEP:]


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
