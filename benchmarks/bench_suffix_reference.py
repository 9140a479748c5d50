"""Suffix decoding against arctic-inference: drafts, acceptance and time per proposal.

Runs the workloads of :mod:`app.devtools.suffix_workloads` through arctic-inference's
``SuffixDecodingCache`` (in the interpreter given, via :mod:`app.devtools.arctic_driver`) and
through Tandem's ``SuffixCache`` in this process, then prints per workload:

* identical drafts, position by position, of Tandem with arctic's semantics ("exact":
  ``prompt_tail=0``) and with the app's settings ("app");
* mean accepted tokens per proposal: Tandem (app settings) vs arctic;
* p50 / p95 microseconds per ``speculate`` call, Tandem (app settings) vs arctic.

In "accepted" workloads each run advances by what its own drafts got accepted, so once two drafts
differ the runs see different steps and the identical share says little; acceptance is the figure.

Usage::

    python benchmarks/bench_suffix_reference.py --arctic-python /work/arctic-venv/bin/python
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time
from pathlib import Path
from typing import Any

from app.core.speculative.suffix import SuffixCache
from app.devtools import arctic_driver
from app.devtools import suffix_workloads as workloads


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--arctic-python", required=True, type=Path, help="python of a venv with arctic-inference"
    )
    parser.add_argument(
        "--corpus-tokens", type=int, default=200_000, help="size of the large-corpus workloads"
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()

    cases = [
        w for w in workloads.all_workloads(args.corpus_tokens) if any(op[0] == "decode" for op in w["ops"])
    ]
    t0 = time.perf_counter()
    proc = subprocess.run(
        [str(args.arctic_python), str(Path(arctic_driver.__file__))],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=True,
    )
    ref = [r["results"] for r in json.loads(proc.stdout)]
    print(f"arctic-inference: {time.perf_counter() - t0:.1f} s for {len(cases)} workloads")

    rows: list[dict[str, Any]] = []
    header = (
        f"{'workload':24} {'proposals':>9} {'exact':>7} {'same app':>8} "
        f"{'accepted Tandem':>15} {'arctic':>7} {'µs p50/p95 Tandem':>18} {'arctic':>10}"
    )
    print(header)
    print("-" * len(header))
    for case, theirs in zip(cases, ref, strict=True):
        depth = case["cache"]["max_tree_depth"]
        exact = workloads.summary(arctic_driver.run(SuffixCache(depth, prompt_tail=0), case), theirs)
        app = workloads.summary(arctic_driver.run(SuffixCache(depth), case), theirs)
        (mine, arctic), ((p50, p95), (a50, a95)) = app["acceptance"], app["us"]
        row = {
            "workload": case["name"],
            "proposals": app["steps"][1],
            "identical_exact": exact["identical"],
            "identical_app": app["identical"],
            "accepted": mine,
            "accepted_arctic": arctic,
            "us_p50": p50,
            "us_p95": p95,
            "us_p50_arctic": a50,
            "us_p95_arctic": a95,
        }
        rows.append(row)
        print(
            f"{case['name']:24} {row['proposals']:>9} {exact['identical']:>7.1%} "
            f"{app['identical']:>8.1%} "
            f"{mine:>15.3f} {arctic:>7.3f} {f'{p50:.0f}/{p95:.0f}':>18} {f'{a50:.0f}/{a95:.0f}':>10}"
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), "utf-8")


if __name__ == "__main__":
    main()
