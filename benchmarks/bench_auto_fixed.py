"""Auto's choice against every fixed configuration, side by side in one run.

    python benchmarks/bench_auto_fixed.py [--threads 2] [--max-tokens 128] [--repeats 2] [--json]

Pair: SmolLM2-135M F32 (the test assets' dequantized file) with its Q4_1 file as drafter, llama.cpp.
First ``tandem calibrate --remeasure`` runs in a fresh temporary ``TANDEM_HOME`` (what a first
start measures in the background); its choice is "Auto". Then every configuration is loaded once,
each in its own llama-server child, and the held-out workloads run round-robin across them
(``--repeats`` rounds, another prompt of each workload per round):

* ``prose``: a first request of free text (not Auto's calibration prompt);
* ``code``: a code edit whose answer copies most of the prompt;
* ``repeat``: the same held-out request sent a second time to the same engine (its first time is
  run just before, unmeasured), which model-free methods remember.

Configurations: off; the classic drafter at a fixed 2, 4 and 8 tokens per round; the drafter with
an adaptive depth (up to 8, a round stops at the first token the drafter gives less than
``auto.DRAFT_P_MIN``, 0.2: what Auto runs); ngram-mod 64/round; and Auto's choice. Greedy, decode
speed from llama.cpp's own timings; ratios are of the median speed per configuration and workload
over the rounds, against off.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import sys
import tempfile
from dataclasses import replace
from typing import Any

from app.core.engines.blocking import generate
from app.devtools.assets import ASSET_DIR
from app.devtools.prompts import HELD_OUT as WORKLOADS

NGRAM_MATCH = "speculative.ngram_mod.n_match"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--repeats", type=int, default=3, help="rounds (at most 3: one prompt each)")
    parser.add_argument(
        "--p-min",
        type=float,
        action="append",
        default=[],
        help="also an adaptive drafter with this p_min (repeatable; Auto's own is always run)",
    )
    parser.add_argument(
        "--ngram-match",
        type=int,
        action="append",
        default=[],
        help="also ngram-mod 64/round with this n_match (repeatable; Tandem's own is always run)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="tandem-auto-fixed-")
    os.environ["TANDEM_HOME"] = home

    from app.cli import main as cli
    from app.core import assets
    from app.core.engines.base import Finished, LoadRequest, Sampling
    from app.core.engines.llamacpp.engine import LlamaCppEngine
    from app.core.launch import auto

    target = ASSET_DIR / "SmolLM2-135M-Instruct.F32.gguf"
    if not target.is_file():
        raise SystemExit(f"{target} is missing: run the test suite once (it builds it)")
    drafter = str(assets.smollm2_q4_path())
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli(
            [
                "calibrate",
                "--model-path",
                str(target),
                "--draft-model-path",
                drafter,
                "--threads",
                str(args.threads),
                "--remeasure",
                "--json",
            ]
        )
    if code != 0:
        raise SystemExit("tandem calibrate failed")
    calibration = json.loads(out.getvalue().strip().splitlines()[-1])
    chosen = auto.Candidate.from_json(calibration["chosen"])
    print(f"calibration: {calibration['seconds']:.1f} s, Auto chose {chosen.label}", file=sys.stderr)

    fixed = {
        "off": auto.OFF,
        "draft 2/round": auto.Candidate("draft", 2),
        "draft 4/round": auto.Candidate("draft", 4),
        "draft 8/round": auto.Candidate("draft", 8),
        f"draft adaptive (up to 8, p_min {auto.DRAFT_P_MIN:g}: Auto's)": auto.Candidate(
            "draft", 8, None, auto.DRAFT_P_MIN
        ),
        "ngram-mod 64/round": auto.Candidate("ngram-mod", 64),
    }
    for p_min in args.p_min:
        fixed[f"draft adaptive (up to 8, p_min {p_min:g})"] = auto.Candidate("draft", 8, None, p_min)
    options = {name: cand.options(drafter) for name, cand in fixed.items()}
    ngram = fixed["ngram-mod 64/round"].options(drafter)
    for n_match in args.ngram_match:
        name = f"ngram-mod 64/round, n_match {n_match}"
        options[name] = replace(ngram, engine_native={**ngram.engine_native, NGRAM_MATCH: n_match})
        fixed[name] = fixed["ngram-mod 64/round"]
    configs = {**fixed, f"Auto ({chosen.label})": chosen}
    options[f"Auto ({chosen.label})"] = chosen.options(drafter)
    engines: dict[str, Any] = {}
    sampling = Sampling(temperature=0.0, max_tokens=args.max_tokens)
    rows: dict[str, dict[str, list[float]]] = {name: {w: [] for w in WORKLOADS} for name in configs}
    try:
        for name in configs:
            req = LoadRequest(str(target), options[name], n_ctx=2048, n_threads=args.threads)
            engines[name] = LlamaCppEngine.load(req)
            list(engines[name].generate([{"role": "user", "content": "Hi"}], Sampling(max_tokens=4)))
        for r in range(args.repeats):
            order = list(configs) if r % 2 == 0 else list(reversed(configs))
            for workload, prompts in WORKLOADS.items():
                for name in order:
                    engine = engines[name]
                    messages = [{"role": "user", "content": prompts[r % len(prompts)]}]
                    if workload == "repeat":
                        list(generate(engine, messages, sampling))  # the first time: unmeasured
                    fin = [e for e in generate(engine, messages, sampling) if isinstance(e, Finished)][-1]
                    tps = fin.completion_tokens / (fin.decode_ms / 1000) if fin.decode_ms else 0.0
                    rows[name][workload].append(tps)
                print(f"round {r + 1}: {workload} done", file=sys.stderr, flush=True)
    finally:
        for engine in engines.values():
            engine.close()
    best = {name: {w: statistics.median(v) for w, v in ws.items()} for name, ws in rows.items()}
    off = best["off"]
    ratios = {name: {w: best[name][w] / off[w] for w in WORKLOADS} for name in configs}
    for name in configs:
        vals = list(ratios[name].values())
        ratios[name]["mean"] = statistics.geometric_mean(vals)
    auto_name = f"Auto ({chosen.label})"

    def best_on(workload: str) -> str:
        return max((n for n in fixed if n != "off"), key=lambda n: ratios[n][workload])

    best_fixed = {w: best_on(w) for w in [*WORKLOADS, "mean"]}
    summary = {
        "calibration": calibration,
        "tokens_per_second": best,
        "ratios": ratios,
        "best_fixed": best_fixed,
        "auto_over_best_fixed": {w: ratios[auto_name][w] / ratios[best_fixed[w]][w] for w in best_fixed},
    }
    if args.json:
        print(json.dumps(summary, indent=1, default=str))
        return 0
    print(f"{'configuration':40} " + " ".join(f"{w:>8}" for w in [*WORKLOADS, "mean"]))
    for name in configs:
        cells = [f"{best[name][w]:6.1f}" if name == "off" else f"{ratios[name][w]:.2f}x" for w in WORKLOADS]
        cells.append("" if name == "off" else f"{ratios[name]['mean']:.2f}x")
        print(f"{name:40} " + " ".join(f"{c:>8}" for c in cells))
    for w in [*WORKLOADS, "mean"]:
        print(
            f"{w:7} best fixed: {best_fixed[w]} {ratios[best_fixed[w]][w]:.2f}x; "
            f"Auto {ratios[auto_name][w]:.2f}x ({summary['auto_over_best_fixed'][w]:.3f} of it)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
