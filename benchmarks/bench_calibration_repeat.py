"""Two calibrations in a row: do they agree?

    python benchmarks/bench_calibration_repeat.py [--pair deep] [--threads 2] [--runs 2]

Runs ``tandem calibrate --remeasure --json`` ``--runs`` times back to back in a fresh temporary
``TANDEM_HOME`` on the same pair (``--pair deep``: the realistic-cost pair of
:mod:`app.devtools.deep_target`; ``embedded``: the F32 SmolLM2 with its Q4_1 file as drafter) and
prints, per run, each configuration's figure per kind with its interval (the rule's
:data:`~app.core.launch.auto.policy.CAL_Z` standard errors), the pairs it rests on, the launch's
choice and each kind's route; then, for every two runs and every kind, whether they contradict
each other: each run finding its own route clearly (beyond its noise and by more than 5%) faster
than the other run's. Markdown on stdout for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time
from contextlib import redirect_stdout
from io import StringIO

import serving

from app.core.launch.auto import Measurement, RequestKind
from app.core.launch.auto.policy import apart, figure, interval_text, pair_noise
from app.core.launch.auto.routing import WORKLOAD_OF, choose_routed, routes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pair", choices=("embedded", "deep"), default="deep")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()
    target, drafter = serving.pair(args.pair)
    pair = ["--model-path", target, "--draft-model-path", drafter, "--threads", str(args.threads)]
    runs: list[list[Measurement]] = []
    with tempfile.TemporaryDirectory(prefix="tandem-bench-calibration-") as home:
        os.environ["TANDEM_HOME"] = home
        from app.cli import main as tandem

        for run in range(args.runs):
            out = StringIO()
            t = time.perf_counter()
            with redirect_stdout(out):
                if tandem(["calibrate", *pair, "--remeasure", "--json"]) != 0:
                    return 1
            seconds = time.perf_counter() - t
            data = json.loads(out.getvalue())
            measured = [Measurement.from_json(c) for c in data["candidates"]]
            from app.core.launch.auto import OFF

            measured.insert(0, Measurement(OFF, {"prose": 1.0, "code": 1.0, "repeat": 1.0}))
            runs.append(measured)
            noise = pair_noise(measured)
            print(f"### Run {run + 1}: {seconds:.0f} s, noise of one pair (sd of log) {_noise_text(noise)}\n")
            print(
                "| configuration | "
                + " | ".join(k.value for k in RequestKind)
                + " | pairs (prose/code/repeat) |"
            )
            print("|---|" + "---|" * (len(RequestKind) + 1))
            for m in measured[1:]:
                cells = []
                for kind in RequestKind:
                    f = figure(m, WORKLOAD_OF[kind], noise)
                    cells.append("-" if f is None else interval_text(f))
                pairs = "/".join(str(len(m.pairs(w))) for w in ("prose", "code", "repeat"))
                print(f"| {m.candidate.label} | " + " | ".join(cells) + f" | {pairs} |")
            r = routes(measured)
            print(f"\nLaunch (llama.cpp's pool): **{choose_routed(measured).candidate.label}**; routes: "
                  + ", ".join(f"{k.value} -> {r[k].label}" for k in RequestKind) + "\n")  # fmt: skip
    print("### Contradictions (each run finds its own route >5% faster than the other's, beyond its noise)\n")
    found = 0
    for i in range(len(runs)):
        for j in range(i + 1, len(runs)):
            for kind in RequestKind:
                a, b = routes(runs[i])[kind], routes(runs[j])[kind]
                if a == b:
                    continue
                if _clearly_faster(runs[i], a.label, b.label, kind) and _clearly_faster(
                    runs[j], b.label, a.label, kind
                ):
                    found += 1
                    print(f"- runs {i + 1} and {j + 1}, {kind.value}: {a.label} against {b.label}")
    print("None." if not found else f"\n{found} contradiction(s).")
    return 0


def _noise_text(noise: dict[str, float]) -> str:
    return ", ".join(f"{w} {v:.3f}" for w, v in noise.items())


def _clearly_faster(measured: list[Measurement], a: str, b: str, kind: RequestKind) -> bool:
    noise = pair_noise(measured)
    by_label = {m.candidate.label: m for m in measured}
    if a not in by_label or b not in by_label:
        return False
    fa = figure(by_label[a], WORKLOAD_OF[kind], noise)
    fb = figure(by_label[b], WORKLOAD_OF[kind], noise)
    return fa is not None and fb is not None and apart(fa, fb, math.log(1.05))


if __name__ == "__main__":
    sys.exit(main())
