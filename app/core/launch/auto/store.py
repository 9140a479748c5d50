"""Where Auto keeps what it measured: one result per :class:`CalibrationKey` (model file, drafter
file, engine and its version, threads, machine) in the user data dir, and beside it the
configurations that lost on the user's real answers (:func:`store_demoted`)."""

from __future__ import annotations

import hashlib
import json
import os
import platform
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from app.core import paths
from app.core.engines import capability
from app.core.engines.base import LoadRequest
from app.core.engines.threads import machine_layout, math_cores
from app.core.launch.auto.candidates import OFF, ROUTED_ENGINES, Candidate
from app.core.launch.auto.kinds import RequestKind
from app.core.launch.auto.policy import Choice, Measurement, choose, pair_noise, workload_figures
from app.core.launch.auto.routing import Routes, choose_routed, routes

#: Bump when prompts, workloads, candidates or the rule change: older stored results are then not
#: reused (3: llama.cpp's classic drafter candidates adapt their depth per round, ``p_min``; 4: with
#: p_min 0.2 instead of 0.75; 5: MLX measures suffix decoding and prompt lookup; 6: every pair is
#: kept, ties are measured again and go to the cheaper configuration).
FORMAT_VERSION = 6


def file_identity(path: str | os.PathLike[str] | None) -> dict[str, Any] | None:
    """Path, size and modification time of a model file (a folder: of its files), or None."""
    if not path:
        return None
    p = Path(path).expanduser().resolve()
    if not p.exists():
        raise FileNotFoundError(f"{p}: no such model file or folder")
    if p.is_dir():
        files = sorted(f for f in p.rglob("*") if f.is_file())
        stats = [f.stat() for f in files]
        return {
            "path": str(p),
            "size": sum(s.st_size for s in stats),
            "mtime_ns": max((s.st_mtime_ns for s in stats), default=0),
            "files": len(files),
        }
    st = p.stat()
    return {"path": str(p), "size": st.st_size, "mtime_ns": st.st_mtime_ns}


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text("utf-8", "replace").splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine_identity() -> dict[str, Any]:
    return {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu": cpu_model(),
        "cores": os.cpu_count() or 0,
    }


@dataclass(frozen=True)
class CalibrationKey:
    model: dict[str, Any] | None
    drafter: dict[str, Any] | None
    engine: str
    engine_version: str | None
    threads: int | None
    machine: dict[str, Any]
    format: int = FORMAT_VERSION

    @classmethod
    def for_launch(cls, engine: str, request: LoadRequest, drafter_path: str | None) -> CalibrationKey:
        info = capability.ENGINES.get(engine)
        # an automatic count is keyed by the cores that do math (what it is on a quiet machine);
        # MLX chooses its own threads (not part of the key)
        uses = info is not None and info.uses_thread_count
        threads = (request.n_threads or math_cores(machine_layout())) if uses else None
        return cls(
            model=file_identity(request.model_path),
            drafter=file_identity(drafter_path),
            engine=engine,
            engine_version=capability.engine_availability(engine).version
            if engine in capability.ENGINES
            else None,
            threads=threads,
            machine=machine_identity(),
        )

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def digest(self) -> str:
        text = json.dumps(self.to_json(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:24]


@dataclass
class CalibrationResult:
    key: CalibrationKey
    measurements: list[Measurement]
    seconds: float
    measured_at: float = field(default_factory=time.time)
    stored_path: str | None = None
    #: configurations that lost on the user's answers (:func:`load_demoted`), never chosen
    demoted: dict[Candidate, float] = field(default_factory=dict)
    #: plain decode tokens/s by thread count, measured side by side (empty: the count was given)
    thread_speeds: dict[int, float] = field(default_factory=dict)
    #: the thread count the configurations were measured with, and the launch computes with at
    #: most (None: the launch's own count)
    threads: int | None = None

    @property
    def choice(self) -> Choice:
        """What the launch loads: for an engine that routes each request by its kind, the
        configuration for the kinds left to it (:func:`choose_routed`), else the one for all."""
        if self.pooled:
            return choose_routed(self.measurements, self.demoted)
        return choose(self.measurements, self.demoted)

    @property
    def pooled(self) -> bool:
        """Whether this engine's launch runs a pool that routes each request by its kind."""
        return self.key.engine in ROUTED_ENGINES

    def routed_elsewhere(self) -> dict[Candidate, list[RequestKind]]:
        """On a pool, the configurations besides the launch's that the routes send kinds to, with
        those kinds (empty for an engine without a pool: it runs one configuration)."""
        if not self.pooled:
            return {}
        launched = self.choice.candidate
        out: dict[Candidate, list[RequestKind]] = {}
        for kind, route in self.routes.by_kind.items():
            if route.candidate != launched:
                out.setdefault(route.candidate, []).append(kind)
        return out

    @property
    def routes(self) -> Routes:
        """Per request kind, the configuration that pays for it (for a pool of configurations)."""
        return routes(self.measurements, self.demoted)

    def to_json(self) -> dict[str, Any]:
        noise = pair_noise(self.measurements)
        return {
            "chosen": self.choice.to_json(),
            "candidates": [
                {**m.to_json(), "figures": workload_figures(m, noise)}
                for m in self.measurements
                if m.candidate.method != "off"
            ],
            "pair_noise": {w: round(v, 4) for w, v in noise.items()},
            "routes": {
                k.value: {"configuration": r.candidate.label, "why": r.why}
                for k, r in self.routes.by_kind.items()
            },
            "key": self.key.to_json(),
            "digest": self.key.digest,
            "stored_path": self.stored_path,
            "seconds": round(self.seconds, 2),
            "measured_at": self.measured_at,
            "thread_speeds": {str(n): round(v, 2) for n, v in sorted(self.thread_speeds.items())},
            "threads": self.threads,
        }


def store_dir() -> Path:
    path = paths.data_dir() / "calibration"
    path.mkdir(parents=True, exist_ok=True)
    return path


def result_path(key: CalibrationKey) -> Path:
    return store_dir() / f"{key.digest}.json"


def store_result(result: CalibrationResult) -> Path:
    """Write ``result`` atomically; its path is set on the result and returned."""
    path = result_path(result.key)
    result.stored_path = str(path)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(result.to_json(), indent=1), "utf-8")
    tmp.replace(path)
    return path


def load_result(key: CalibrationKey) -> CalibrationResult | None:
    """The stored result for exactly ``key``, or None (never measured, changed, or unreadable)."""
    path = result_path(key)
    try:
        data = json.loads(path.read_text("utf-8"))
        if data.get("key") != json.loads(json.dumps(key.to_json())):
            return None  # a digest collision or an edited file: not this launch's measurement
        measurements = [Measurement(OFF)] + [Measurement.from_json(c) for c in data["candidates"]]
        return CalibrationResult(
            key,
            measurements,
            float(data.get("seconds", 0.0)),
            float(data.get("measured_at", 0.0)),
            str(path),
            load_demoted(key),
            {int(n): float(v) for n, v in (data.get("thread_speeds") or {}).items()},
            int(data["threads"]) if data.get("threads") else None,
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def demoted_path(key: CalibrationKey) -> Path:
    return store_dir() / f"{key.digest}.demoted.json"


def load_demoted(key: CalibrationKey) -> dict[Candidate, float]:
    """The configurations of ``key`` that lost on the user's real answers (candidate -> ratio)."""
    try:
        data = json.loads(demoted_path(key).read_text("utf-8"))
        return {Candidate.from_json(d): float(d["ratio"]) for d in data["demoted"]}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def store_demoted(key: CalibrationKey, candidate: Candidate, ratio: float) -> dict[Candidate, float]:
    """Remember that ``candidate`` lost on real answers (``ratio`` against plain decoding); kept
    beside the calibration, so the next start skips it too. Returns every demotion of ``key``."""
    demoted = {**load_demoted(key), candidate: ratio}
    path = demoted_path(key)
    tmp = path.with_suffix(".tmp")
    rows = [{**c.to_json(), "ratio": round(r, 3)} for c, r in demoted.items()]
    tmp.write_text(json.dumps({"key": key.to_json(), "demoted": rows}, indent=1), "utf-8")
    tmp.replace(path)
    return demoted


def routes_path(key: CalibrationKey) -> Path:
    """Where the routes learned from real answers are kept (:mod:`app.core.launch.auto.learning`)."""
    return store_dir() / f"{key.digest}.routes.json"


def forget(key: CalibrationKey) -> None:
    """Drop the stored calibration, demotions and learned routes of ``key`` (the next Auto start
    measures again)."""
    result_path(key).unlink(missing_ok=True)
    demoted_path(key).unlink(missing_ok=True)
    routes_path(key).unlink(missing_ok=True)
