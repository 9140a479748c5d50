"""Plain (spec-off) decode speed per model and machine, to show the speedup an answer obtained.

A speculative answer's tokens/s means little alone: what matters is how it compares with the same
model answering without speculation on the same machine. Every finished plain answer records its
decode speed here; a speculative answer is compared with the median of the recent plain ones. The
comparison is approximate (prompts and answer lengths differ) and the UI says so; ``tandem bench``
measures both side by side when a precise figure is needed.
"""

from __future__ import annotations

import json
import logging
import statistics
import threading
from dataclasses import dataclass
from pathlib import Path

from app.core import paths

log = logging.getLogger(__name__)

KEEP = 8  # recent plain answers kept per model
MIN_TOKENS = 16  # shorter answers are dominated by timing noise


def baseline_key(engine: str, model_path: str, n_threads: int | None) -> str:
    """Same engine, same model file (name and size), same thread count."""
    p = Path(model_path)
    size = p.stat().st_size if p.is_file() else 0
    return f"{engine}|{p.name}|{size}|{n_threads or 0}"


@dataclass(frozen=True)
class Baseline:
    tokens_per_second: float
    samples: int


class BaselineStore:
    """A small JSON file in the user data dir; safe to use from several threads."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or paths.data_dir() / "speed_baselines.json"
        self._lock = threading.Lock()

    def _read(self) -> dict[str, list[float]]:
        try:
            data = json.loads(self.path.read_text("utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            log.warning("ignoring unreadable %s: %s", self.path, exc)
            return {}
        if not isinstance(data, dict):
            return {}
        return {
            str(k): [float(x) for x in v if isinstance(x, int | float)]
            for k, v in data.items()
            if isinstance(v, list)
        }

    def record(self, key: str, tokens_per_second: float, completion_tokens: int) -> None:
        """Remember one plain answer's decode speed (ignored when too short to be meaningful)."""
        if completion_tokens < MIN_TOKENS or tokens_per_second <= 0:
            return
        with self._lock:
            data = self._read()
            data[key] = [*data.get(key, []), round(tokens_per_second, 3)][-KEEP:]
            tmp = self.path.with_suffix(".json.tmp")
            tmp.write_text(json.dumps(data), "utf-8")
            tmp.replace(self.path)

    def get(self, key: str) -> Baseline | None:
        with self._lock:
            values = self._read().get(key, [])
        return Baseline(statistics.median(values), len(values)) if values else None
