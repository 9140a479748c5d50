"""How much one answer's decode speed varies from request to request of one kind: Auto's noise.

    python benchmarks/bench_answer_noise.py [--max-tokens 64] [--pair deep|embedded]

Auto decides a route only on differences larger than this noise (:mod:`app.core.launch.auto.decide`);
its scripted-speed tests use the figure measured here. The realistic-cost pair (the
SmolLM2 target with 150 silent blocks, its Q4_1 as the drafter; ``--pair embedded``: the F32
target) on llama.cpp, 2 threads: one engine with speculation off and one with the drafter at 8 per
round (the same file, mapped once), asked in turn the twelve prose requests of
``app.devtools.prompts.PROSE_TOPICS`` (greedy). For each configuration: the standard deviation of
the log decode speed over the requests, and of the log speedup (draft over off, request by
request). Markdown on stdout for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import math
import statistics

from app.core.answer import collect
from app.core.engines.base import LoadRequest, Sampling
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.speculative import SpeculationOptions
from app.devtools.assets import ASSET_DIR
from app.devtools.deep_target import deep_pair
from app.devtools.prompts import PROSE_TOPICS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-tokens", type=int, default=64)
    ap.add_argument("--pair", choices=("deep", "embedded"), default="deep")
    args = ap.parse_args()
    target, drafter = deep_pair()
    if args.pair == "embedded":
        target = ASSET_DIR / "SmolLM2-135M-Instruct.F32.gguf"
    draft = SpeculationOptions.build(
        enabled=True, method="draft", draft_model_path=str(drafter), num_speculative_tokens=8
    )
    engines = {
        "off": LlamaCppEngine.load(LoadRequest(str(target), n_ctx=2048, n_threads=2)),
        "draft 8": LlamaCppEngine.load(LoadRequest(str(target), draft, n_ctx=2048, n_threads=2)),
    }
    sampling = Sampling(temperature=0.0, max_tokens=args.max_tokens)
    speeds: dict[str, list[float]] = {name: [] for name in engines}
    try:
        for i, prompt in enumerate(PROSE_TOPICS):
            order = list(engines) if i % 2 == 0 else list(reversed(engines))
            for name in order:
                answer = collect(engines[name].generate([{"role": "user", "content": prompt}], sampling))
                assert answer.finished is not None
                speeds[name].append(answer.completion_tokens / (answer.finished.decode_ms / 1000))
    finally:
        for engine in engines.values():
            engine.close()
    print(f"{args.pair} pair, {len(PROSE_TOPICS)} prose requests, {args.max_tokens} tokens each:\n")
    print("| configuration | median tok/s | sd of log speed | range tok/s |")
    print("|---|---:|---:|---|")
    for name, values in speeds.items():
        logs = [math.log(v) for v in values]
        print(f"| {name} | {statistics.median(values):.1f} | {statistics.stdev(logs):.3f} | "
              f"{min(values):.1f}-{max(values):.1f} |")  # fmt: skip
    ratios = [d / o for d, o in zip(speeds["draft 8"], speeds["off"], strict=True)]
    logs = [math.log(r) for r in ratios]
    print(f"| draft 8 / off, per request | {statistics.median(ratios):.2f}x | {statistics.stdev(logs):.3f} | "
          f"{min(ratios):.2f}-{max(ratios):.2f}x |")  # fmt: skip


if __name__ == "__main__":
    main()
