"""Cost of a Gemma 4 MTP round vs a plain decode step on llama.cpp, on the tiny generated pair.

The pair comes from ``scripts/make_tiny_gemma4.py`` (random weights: hidden 128, 4 layers, and a
2-layer ``gemma4-assistant``), built into a temp folder on the spot. Two variants:

* ``random``: the drafter is never right, so every round emits one token: the round's extra cost
  over a plain step is the whole price of MTP when drafting fails;
* ``agree``: both models always predict the same token, every draft is accepted: a round emits
  depth + 1 tokens, the upper bound of what the round machinery can give at this size.

Plain and MTP engines are both loaded, and the same prompts alternate between them, so each ratio
comes from runs side by side in one process (this machine is shared and noisy). The first token
comes from the prompt pass, so a step / round cost is decode time / (tokens - 1) or / (rounds - 1).

Usage::

    python benchmarks/bench_gemma4_tiny.py [--max-tokens 128] [--repeats 5] [--depth 3] [--json]

These are tiny random weights: the figures say what a round costs relative to a step in llama.cpp
on this CPU, nothing about real Gemma 4 acceptance.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from app.core.engines.base import Finished, LoadRequest, Sampling, TextDelta
from app.core.engines.blocking import generate
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.speculative import SpeculationOptions
from app.devtools import tiny_gemma4
from app.devtools.prompts import WORKLOADS as PROMPTS


@dataclass
class Sample:
    tokens: int
    rounds: int
    decode_ms: float
    drafted: int
    accepted: int
    text: str

    @property
    def step_ms(self) -> float:
        """Decode time per target forward pass after the prompt pass (a plain step or an MTP round)."""
        return self.decode_ms / max(1, self.rounds - 1)


def _run(engine: LlamaCppEngine, prompt: str, max_tokens: int) -> Sample:
    text: list[str] = []
    fin: Finished | None = None
    for ev in generate(engine, [{"role": "user", "content": prompt}], Sampling(0.0, max_tokens=max_tokens)):
        if isinstance(ev, TextDelta):
            text.append(ev.text)
        elif isinstance(ev, Finished):
            fin = ev
    assert fin is not None
    return Sample(fin.completion_tokens, fin.rounds, fin.decode_ms, fin.drafted_total, fin.accepted_total,
                  "".join(text))  # fmt: skip


def _load(
    target: Path, threads: int, assistant: Path | None = None, depth: int | None = None
) -> LlamaCppEngine:
    spec = (
        SpeculationOptions.build(enabled=True, method="mtp", draft_model_path=str(assistant),
                                 num_speculative_tokens=depth)
        if assistant else SpeculationOptions()
    )  # fmt: skip
    return LlamaCppEngine.load(LoadRequest(str(target), spec, n_ctx=2048, n_threads=threads))


def measure(variant: str, folder: Path, args: argparse.Namespace) -> list[dict[str, object]]:
    pair = tiny_gemma4.build(folder / variant, agree=variant == "agree")
    rows: list[dict[str, object]] = []
    with (
        _load(pair.target, args.threads) as plain,
        _load(pair.target, args.threads, pair.assistant, args.depth) as mtp,
    ):
        for name, prompt in PROMPTS.items():
            _run(plain, prompt, 8), _run(mtp, prompt, 8)  # warm-up
            offs: list[Sample] = []
            ons: list[Sample] = []
            for _ in range(args.repeats):  # alternate, so both see the same machine load
                offs.append(_run(plain, prompt, args.max_tokens))
                ons.append(_run(mtp, prompt, args.max_tokens))
            step = statistics.median(s.step_ms for s in offs)
            rnd = statistics.median(s.step_ms for s in ons)
            off_tps = statistics.median(1000 * (s.tokens - 1) / s.decode_ms for s in offs)
            on_tps = statistics.median(1000 * (s.tokens - 1) / s.decode_ms for s in ons)
            last = ons[-1]
            rows.append(
                {
                    "pair": f"tiny Gemma 4 + assistant (mtp, {args.depth}/round), {variant}",
                    "prompt": name,
                    "plain_step_ms": round(step, 3),
                    "mtp_round_ms": round(rnd, 3),
                    "round_over_step": round(rnd / step, 2),
                    "tokens_per_round": round((last.tokens - 1) / max(1, last.rounds - 1), 2),
                    "plain_tps": round(off_tps, 1),
                    "mtp_tps": round(on_tps, 1),
                    "speedup": round(on_tps / off_tps, 2),
                    "accepted": last.accepted,
                    "drafted": last.drafted,
                    "identical": all(a.text == b.text for a, b in zip(offs, ons, strict=True)),
                }
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--max-tokens", type=int, default=128)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--depth", type=int, default=3, help="drafted tokens per round")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="tandem-gemma4-bench-") as tmp:
        rows = [row for variant in ("random", "agree") for row in measure(variant, Path(tmp), args)]
    if args.json:
        for row in rows:
            print(json.dumps(row))
        return 0
    print("| pair | prompt | plain step ms | MTP round ms | round / step | tokens per round | plain tok/s "
          "| MTP tok/s | speed-up | accepted / drafted | greedy parity |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['pair']} | {r['prompt']} | {r['plain_step_ms']} | {r['mtp_round_ms']} | "
            f"{r['round_over_step']}x | {r['tokens_per_round']} | {r['plain_tps']} | {r['mtp_tps']} | "
            f"{r['speedup']}x | {r['accepted']}/{r['drafted']} | "
            f"{'identical' if r['identical'] else 'DIFFERS'} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
