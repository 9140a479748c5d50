"""What an engine pool is given and what it reports: its settings, the configurations it offers,
Auto's rule, the loader of its children, its refusal, and its status for the Local server panel and
``tandem serve`` (:mod:`app.core.pool.pool` runs them)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from app.core.engines import threads
from app.core.engines.base import Engine, EngineError, GenerateRequest, LoadRequest
from app.core.engines.capability import model_free_methods
from app.core.pool.learning import MODEL_FREE_DEPTH
from app.core.speculative.options import DRAFTER_METHODS, SpeculationOptions
from app.core.speculative.per_request import OFF, Speculation
from app.core.speculative.predict import Alternative
from app.core.speculative.speedup import Speedup


class PoolRefused(EngineError):
    """A configuration the pool cannot start (not enough memory, a drafter it does not have)."""

    hint = 'Ask for the configuration that runs (or "auto"), or free memory and try again.'


@dataclass(frozen=True)
class PoolConfig:
    #: requests one child answers at once (its slots)
    slots: int = 4
    #: children at most, the base included
    max_children: int = 3
    #: a child with no request for this long is stopped (not the base)
    idle_s: float = 300.0
    #: bytes the extra children may use together; None: what the machine has available now
    memory_budget: int | None = None
    #: children take turns instead of computing at the same time (see the module docstring)
    exclusive: bool = True
    #: after this long at rest, the children's thread counts are checked against the free cores
    #: (None: never)
    retune_s: float | None = 30.0


@dataclass
class ConfigStats:
    """What one configuration served: its requests and its decode speed."""

    requests: int = 0
    tokens: int = 0
    decode_s: float = 0.0
    drafted: int = 0
    accepted: int = 0

    @property
    def decode_tps(self) -> float | None:
        return self.tokens / self.decode_s if self.decode_s > 0 else None


@dataclass(frozen=True)
class ChildStatus:
    label: str
    active: int
    slots: int
    cost_bytes: int
    base: bool


@dataclass(frozen=True)
class PoolStatus:
    """The pool as the Local server panel and ``tandem serve`` show it."""

    children: tuple[ChildStatus, ...]
    stats: dict[str, ConfigStats]

    def speedup(self, label: str) -> float | None:
        """``label``'s decode speed over the plain configuration's, when both have served."""
        mine, plain = self.stats.get(label), self.stats.get(OFF)
        if mine is None or plain is None or mine.decode_tps is None or not plain.decode_tps:
            return None
        return mine.decode_tps / plain.decode_tps


def standard_configurations(drafter: tuple[str, str] | None = None) -> dict[str, SpeculationOptions]:
    """The configurations a llama.cpp pool offers: off, each model-free method, and the drafter's
    method when the launch has a drafter (``(method, path)``)."""
    out = {OFF: SpeculationOptions()}
    for method in model_free_methods("llama.cpp"):
        out[method] = SpeculationOptions(enabled=True, method=method, num_speculative_tokens=MODEL_FREE_DEPTH)
    if drafter is not None and drafter[0] in DRAFTER_METHODS:
        method, path = drafter
        out[method] = SpeculationOptions(enabled=True, method=method, draft_model_path=path)
    return out


#: loads an engine for a request; the progress callback carries the pool's cancel token
#: (:class:`~app.core.engines.worker.LoadProgress`): closing the pool ends a load under way
Loader = Callable[[LoadRequest, Callable[[str], None]], Engine]

#: Auto's rule: the configuration a request should run (off, a method), or None for the base
Route = Callable[[GenerateRequest], "Speculation | None"]


@runtime_checkable
class LearningRoute(Protocol):
    """A route that learns from the answers it routed (:class:`~app.core.launch.auto.router.RequestRouter`):
    the pool tells it each finished answer's configuration and decode speed."""

    def __call__(self, request: GenerateRequest) -> Speculation | None: ...

    def observe(
        self,
        request: GenerateRequest,
        label: str,
        completion_tokens: int,
        decode_s: float,
        plain_tps: float | None = None,
        own: Speedup | None = None,
        alternatives: Sequence[Alternative] = (),
    ) -> float | None: ...

    def save(self) -> None: ...

    def attach(self, running: Callable[[], Collection[str]]) -> None: ...

    def learned(self) -> list[dict[str, Any]]: ...

    def kind_of(self, request: GenerateRequest) -> str:
        """The kind the route gave ``request`` ("" when it routed none such)."""
        ...


@runtime_checkable
class ChildEngine(Protocol):
    """An engine that is a child process of its own (llama.cpp's): the pool's children are these.
    Its process may end (``listening_address`` is then empty), and an idle one is started again
    with another thread count when the free cores change."""

    load_request: LoadRequest | None

    @property
    def listening_address(self) -> str: ...

    @property
    def lease(self) -> threads.Lease | None: ...

    @property
    def n_threads(self) -> int: ...

    def rethread(
        self, choice: threads.ThreadChoice, progress: Callable[[str], None] | None = None
    ) -> None: ...
