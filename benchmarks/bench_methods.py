"""Every llama.cpp speculation method side by side on the tiny generated files.

The files come from ``scripts/make_tiny_drafters.py``, built into a temp folder on the spot: a
128-wide llama target with an EAGLE-3 and a DFlash drafter, and a qwen35 target with one built-in
MTP block. Two variants:

* ``random``: random weights, the drafters are (almost) never right: what a failed round costs;
* ``agree``: the EAGLE-3 drafter and the MTP heads are always right by construction; the DFlash
  drafter keeps random weights but borrows the target's embeddings and output head, whose
  dimension 0 then dominates, and is right as well: what a fully accepted round gives at this size.

For each target, every configuration is loaded once and the prompts alternate between them, so the
ratios come from runs side by side in one process (the machine is shared and noisy). Decode speed is
llama.cpp's own (the final timings); the ratio is against spec-off on the same target and prompt.

Usage::

    python benchmarks/bench_methods.py [--max-tokens 64] [--repeats 3] [--depth 3] [--json]

Tiny random weights: the figures say what each method's machinery costs in llama.cpp on this CPU,
nothing about real drafters' acceptance.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from app.core.engines.base import Finished, LoadRequest, Sampling
from app.core.engines.blocking import generate
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.speculative import SpeculationOptions
from app.devtools import tiny_drafters
from app.devtools.prompts import WORKLOADS as PROMPTS


def configs(made: Any) -> list[tuple[str, Path, dict[str, Any]]]:
    """(label, target, SpeculationOptions.build arguments); spec-off first for each target."""
    e3, df = str(made.eagle3), str(made.dflash)
    return [
        ("llama off", made.target, {}),
        ("llama eagle3", made.target, {"method": "eagle3", "draft_model_path": str(made.eagle3)}),
        ("llama dflash", made.target, {"method": "dflash", "draft_model_path": str(made.dflash)}),
        ("llama ngram-mod", made.target, {"method": "ngram-mod"}),
        ("llama eagle3+ngram-mod", made.target, {"method": "eagle3+ngram-mod", "draft_model_path": e3}),
        ("llama dflash+ngram-mod", made.target, {"method": "dflash+ngram-mod", "draft_model_path": df}),
        ("qwen35 off", made.mtp_target, {}),
        ("qwen35 mtp (built-in)", made.mtp_target, {"method": "mtp"}),
        ("qwen35 mtp+ngram-mod", made.mtp_target, {"method": "mtp+ngram-mod"}),
    ]  # fmt: skip


def run(engine: LlamaCppEngine, prompt: str, max_tokens: int) -> Finished:
    events = list(
        generate(engine, [{"role": "user", "content": prompt}], Sampling(0.0, max_tokens=max_tokens))
    )
    fin = events[-1]
    assert isinstance(fin, Finished)
    return fin


def measure(made: Any, variant: str, max_tokens: int, repeats: int, depth: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    engines: dict[str, LlamaCppEngine] = {}
    try:
        for label, target, spec in configs(made):
            enabled = bool(spec)
            depth_arg = {"num_speculative_tokens": depth} if enabled and spec["method"] != "ngram-mod" else {}
            options = SpeculationOptions.build(enabled=enabled, **spec, **depth_arg)
            engines[label] = LlamaCppEngine.load(LoadRequest(str(target), options, n_ctx=1024, n_threads=2))
        samples: dict[tuple[str, str], list[Finished]] = {}
        for _ in range(repeats):
            for pname, prompt in PROMPTS.items():
                for label, eng in engines.items():
                    samples.setdefault((label, pname), []).append(run(eng, prompt, max_tokens))
        for (label, pname), fins in samples.items():
            base_label = label.split()[0] + " off"
            tps = statistics.median(f.decode_tps or 0.0 for f in fins)
            base = statistics.median(f.decode_tps or 0.0 for f in samples[(base_label, pname)])
            drafted = sum(f.drafted_total for f in fins)
            accepted = sum(f.accepted_total for f in fins)
            rounds = sum(f.rounds for f in fins)
            tokens = sum(f.completion_tokens for f in fins)
            rows.append(
                {
                    "variant": variant,
                    "config": label,
                    "spec_kind": engines[label].spec_kind,
                    "prompt": pname,
                    "decode_tps": round(tps, 1),
                    "ratio": round(tps / base, 2) if base else None,
                    "acceptance": round(accepted / drafted, 2) if drafted else None,
                    "tokens_per_round": round(tokens / rounds, 2) if rounds else None,
                }
            )
    finally:
        for eng in engines.values():
            eng.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--max-tokens", type=int, default=64)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--depth", type=int, default=3, help="drafted tokens per round of the drafter methods")
    ap.add_argument("--variants", default="random,agree")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for variant in args.variants.split(","):
            made = tiny_drafters.build(Path(tmp) / variant, agree=variant == "agree")
            rows += measure(made, variant, args.max_tokens, args.repeats, args.depth)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print("| variant | config | runs as | prompt | decode tok/s | vs off | accepted | tokens/round |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        acc = "-" if r["acceptance"] is None else f"{r['acceptance']:.0%}"
        ratio = "-" if r["ratio"] is None else f"{r['ratio']:.2f}x"
        tpr = "-" if r["tokens_per_round"] is None else f"{r['tokens_per_round']:.2f}"
        print(
            f"| {r['variant']} | {r['config']} | {r['spec_kind'] or 'off'} | {r['prompt']} | "
            f"{r['decode_tps']:.0f} | {ratio} | {acc} | {tpr} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
