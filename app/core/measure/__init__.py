"""Measuring: parity and throughput (spec-off vs spec-on, side by side), plain runs and baselines."""

from app.core.measure.bench import BenchRow, ParityResult, bench, compare, parity, run_json, run_once

__all__ = ["BenchRow", "ParityResult", "bench", "compare", "parity", "run_json", "run_once"]
