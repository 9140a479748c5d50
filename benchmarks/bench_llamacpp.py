"""Speculation on llama.cpp, measured side by side in one run, and Tandem's overhead vs bare xllamacpp.

    python benchmarks/bench_llamacpp.py [--max-tokens 128] [--repeats 2]

Everything runs on the embedded SmolLM2-135M-Instruct models (F32 target, Q4_1 drafter derived from
the same weights). Each table row alternates spec-off and spec-on runs of the same prompt with both
engines loaded, so machine noise hits both sides alike; the best of ``--repeats`` is kept.
Results go to stdout as Markdown (paste into docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

from app.core import assets
from app.core.engines.base import Finished, LoadRequest, Sampling, TextDelta
from app.core.engines.blocking import generate
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.measure import bench
from app.core.speculative import SpeculationOptions
from app.devtools.prompts import PARITY as PROMPTS


def loader(model: Path, **on: Any) -> Any:
    def load(spec_on: bool) -> LlamaCppEngine:
        opts = SpeculationOptions.build(**on) if spec_on else SpeculationOptions()
        return LlamaCppEngine.load(LoadRequest(str(model), opts, n_ctx=2048, n_threads=os.cpu_count()))

    return load


def _row(label: str, name: str, off: Any, on: Any) -> str:
    acc = on.acceptance_rate
    mal = on.mean_accepted_length
    ratio = on.decode_tps / off.decode_tps if off.decode_tps and on.decode_tps else 0.0
    return (
        f"| {label} | {name} | {off.decode_tps or 0:.1f} | {on.decode_tps or 0:.1f} | {ratio:.2f}x | "
        f"{'-' if acc is None else f'{acc:.0%}'} | {'-' if mal is None else f'{mal:.2f}'} |"
    )


def speculation_tables(f32: Path, q4: Path, max_tokens: int, repeats: int) -> None:
    drafter = {"enabled": True, "draft_model_path": str(q4)}
    ngram = {"enabled": True, "method": "ngram-mod", "num_speculative_tokens": 16}
    configs: list[tuple[str, Path, dict[str, Any], bool]] = [
        ("F32 + Q4_1 drafter, 4/round", f32, {**drafter, "num_speculative_tokens": 4}, False),
        ("F32 + Q4_1 drafter, 8/round", f32, {**drafter, "num_speculative_tokens": 8}, False),
        ("F32 + ngram-mod, 16/round", f32, ngram, True),
        ("Q4_1 + ngram-mod, 16/round", q4, ngram, True),
    ]
    print("| config | prompt | spec-off tok/s | spec-on tok/s | ratio | acceptance | tokens/drafting round |")
    print("|---|---|---|---|---|---|---|")
    for label, model, on, learns in configs:
        runs = max(repeats, 2 if learns else 1)
        rows = bench(loader(model, **on), list(PROMPTS.values()), max_tokens, runs)
        for name, row in zip(PROMPTS, rows, strict=True):
            if learns:  # the n-gram pool learns across requests: first request and a repeat, not best-of
                first, again = f"{name} (first request)", f"{name} (same request again)"
                print(_row(label, first, row.off_runs[0], row.on_runs[0]), flush=True)
                print(_row(label, again, row.off_runs[-1], row.on_runs[-1]), flush=True)
            else:
                print(_row(label, name, row.off, row.on), flush=True)


def _bare_run(server: Any, prompt: str, max_tokens: int) -> tuple[int, float]:
    """Tokens and seconds from the first streamed token to the end, with a no-op callback."""
    first: list[float] = []
    count = [0]

    def cb(chunk: dict[str, Any]) -> bool:
        delta = (chunk.get("choices") or [{}])[0].get("delta") or {}
        if delta.get("content"):
            if not first:
                first.append(time.perf_counter())
            count[0] += 1
        return False

    req = {
        "messages": [{"role": "user", "content": prompt}],
        "stream": True,
        "max_tokens": max_tokens,
        "temperature": 0.0,
        "timings_per_token": True,
    }
    server.handle_chat_completions(req, cb)
    return count[0], time.perf_counter() - first[0]


def _tandem_run(engine: LlamaCppEngine, prompt: str, max_tokens: int) -> tuple[int, float]:
    first = 0.0
    count = 0
    for ev in generate(engine, [{"role": "user", "content": prompt}], Sampling(max_tokens=max_tokens)):
        if isinstance(ev, TextDelta) and ev.text:
            if not count:
                first = time.perf_counter()
            count += 1
        elif isinstance(ev, Finished):
            end = time.perf_counter()
    return count, end - first


def overhead_table(q4: Path, max_tokens: int, repeats: int) -> None:
    import xllamacpp

    engine = LlamaCppEngine.load(
        LoadRequest(str(q4), SpeculationOptions(), n_ctx=2048, n_threads=os.cpu_count())
    )
    params = xllamacpp.CommonParams()
    params.model.path = str(q4)
    params.n_ctx = 2048
    params.n_parallel = 1
    params.cpuparams.n_threads = os.cpu_count() or 1
    params.cpuparams_batch.n_threads = params.cpuparams.n_threads
    params.verbosity = -1
    params.warmup = False
    params.api_keys = ["bench"]
    bare = xllamacpp.Server(params)
    print(
        "| prompt | bare xllamacpp tok/s (best) | Tandem streamed tok/s (best) | best / best "
        "| median of paired ratios |"
    )
    print("|---|---|---|---|---|")
    try:
        for name, prompt in PROMPTS.items():
            bare_tps: list[float] = []
            tandem_tps: list[float] = []
            for i in range(repeats):  # alternate which side goes first, so drift hits both
                order = [("bare", bare), ("tandem", engine)]
                for side, obj in order if i % 2 == 0 else reversed(order):
                    if side == "bare":
                        n, s = _bare_run(obj, prompt, max_tokens)
                        bare_tps.append(n / s)
                    else:
                        n, s = _tandem_run(obj, prompt, max_tokens)
                        tandem_tps.append(n / s)
            ratios = sorted(t / b for t, b in zip(tandem_tps, bare_tps, strict=True))
            median = ratios[len(ratios) // 2]
            print(
                f"| {name} | {max(bare_tps):.1f} | {max(tandem_tps):.1f} "
                f"| {max(tandem_tps) / max(bare_tps):.1%} | {median:.1%} |",
                flush=True,
            )
    finally:
        engine.close()
        del bare


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--max-tokens", type=int, default=128)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--only", choices=["speculation", "overhead"], default=None)
    args = ap.parse_args()
    q4 = assets.smollm2_q4_path()
    f32 = assets.resolve("embedded://smollm2/SmolLM2-135M-Instruct.F32.gguf")
    print(
        f"<!-- {time.strftime('%Y-%m-%d %H:%M')} max_tokens={args.max_tokens} repeats={args.repeats} "
        f"cpus={os.cpu_count()} -->"
    )
    if args.only in (None, "speculation"):
        speculation_tables(f32, q4, args.max_tokens, args.repeats)
        print()
    if args.only in (None, "overhead"):
        overhead_table(q4, args.max_tokens, max(args.repeats, 6))


if __name__ == "__main__":
    main()
