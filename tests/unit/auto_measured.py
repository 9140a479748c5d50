"""A measurement as Auto's rule tests write them: each workload measured ``pairs`` times alike."""

from __future__ import annotations

from app.core.launch.auto import Candidate, Measurement


def measured(
    cand: Candidate, prose: float | None, code: float | None, repeat: float | None, pairs: int = 5
) -> Measurement:
    """A measurement whose workloads were each measured ``pairs`` times, every pair alike (the noise
    is then what the prior leaves: a few percent are apart)."""
    ratios = {"prose": prose, "code": code, "repeat": repeat}
    samples = {w: [r] * pairs for w, r in ratios.items() if r is not None and pairs > 1}
    return Measurement(cand, ratios, samples=samples)
