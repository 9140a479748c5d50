"""Parity and throughput measurement (spec-off vs spec-on, side by side)."""

from app.core.bench.runner import BenchRow, ParityResult, RunResult, bench, compare, parity, run_once

__all__ = ["BenchRow", "ParityResult", "RunResult", "bench", "compare", "parity", "run_once"]
