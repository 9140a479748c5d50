"""Every answer measures every configuration: predicted against real decode speed, and the speedup
an answer claims, on the same prompts.

    python benchmarks/bench_predictions.py [--rounds 2] [--max-tokens 128] [--pair embedded|deep]

One in-process engine pool (as ``tandem serve`` builds it) over the pair (``embedded``: SmolLM2-135M
F32 with its Q4_1 as the drafter; ``deep``: the realistic-cost target of
:mod:`app.devtools.deep_target` with the same drafter), configurations off, the drafter at up to
8/round (Auto's, with its ``p_min``), ngram-mod 64/round and the chain of the two. Each held-out
prompt of :data:`app.devtools.prompts.HELD_OUT` is asked of
every configuration in turn (greedy, so every configuration gives the same tokens), the order
rotating per prompt. Every answer carries the pool's predictions (``Finished.alternatives``): for
each configuration, its predicted decode speed on that answer is set against the speed that
configuration really had on the same prompt. Reported per configuration: the median and the
largest |predicted / real - 1|, and the median of predicted / real - 1 (above 0: predicted too
fast), over every (answer, configuration) pair, by basis: ``ran`` (the
configuration that answered, priced from its own passes), ``replayed`` (a model-free method's exact
drafts over another configuration's answer) and ``estimated`` (a drafter or chain that did not run
on the answer).

Second table: the speedup the window shows (the answer against its own tokens decoded plainly)
against the real ratio of the configuration's speed to plain decoding on the same prompt, measured
side by side. Markdown on stdout for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serving import pair

from app.core.answer import Answer, AnswerCollector
from app.core.engines.base import ChatMessage, GenerateRequest, LoadRequest, Sampling
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.launch import auto
from app.core.pool.pool import EnginePool
from app.core.pool.pool_types import PoolConfig
from app.core.speculative import SpeculationOptions
from app.core.speculative.per_request import Speculation
from app.devtools.prompts import HELD_OUT


async def ask(pool: EnginePool, label: str, prompt: str, max_tokens: int) -> Answer:
    collector = AnswerCollector()
    request = GenerateRequest(
        [ChatMessage(role="user", content=prompt)], Sampling(temperature=0.0, max_tokens=max_tokens)
    )
    async for event in pool.stream(Speculation(label), request):
        collector.feed(event)
    return collector.end()


async def run(pool: EnginePool, labels: list[str], rounds: int, max_tokens: int) -> None:
    prompts = [p for kind in ("prose", "code") for p in HELD_OUT[kind]]
    for label in labels:  # every child started and warm before anything is measured
        await ask(pool, label, "Say hello.", 8)
    errors: dict[tuple[str, str], list[float]] = defaultdict(list)
    claimed: dict[str, list[tuple[float, float]]] = defaultdict(list)
    n = 0
    for _ in range(rounds):
        for prompt in prompts:
            order = labels[n % len(labels) :] + labels[: n % len(labels)]
            n += 1
            answers = {label: await ask(pool, label, prompt, max_tokens) for label in order}
            real = {label: a.decode_tps or 0.0 for label, a in answers.items()}
            for label, answer in answers.items():
                done = answer.finished
                for alt in (done.alternatives if done is not None else None) or ():
                    if alt.speculation in real and real[alt.speculation] > 0:
                        basis = "ran" if alt.ran else alt.basis
                        errors[alt.speculation, basis].append(
                            alt.decode_tokens_per_second / real[alt.speculation] - 1
                        )
                own = answer.speedup.value
                if label != "off" and own is not None and real["off"] > 0:
                    claimed[label].append((own, real[label] / real["off"]))
    print("## Predicted against real decode speed, same prompt\n")
    print("| configuration | basis | predictions | median abs error | median signed error | largest |")
    print("|---|---|---:|---:|---:|---:|")

    def row(label: str, basis: str, signed: list[float]) -> None:
        e = [abs(x) for x in signed]
        print(
            f"| {label} | {basis} | {len(e)} | {statistics.median(e):.1%} | "
            f"{statistics.median(signed):+.1%} | {max(e):.1%} |"
        )

    for label in labels:
        every = [x for (lab, _), found in errors.items() if lab == label for x in found]
        for basis in ("ran", "replayed", "estimated"):
            if errors.get((label, basis)):
                row(label, basis, errors[label, basis])
        if every:
            row(label, "all", every)
        else:
            print(f"| {label} | not predicted | 0 | | | |")
    print("\n## The speedup an answer claims against the real ratio to plain, same prompt\n")
    print("| configuration | answers | median claimed | median real | median abs difference |")
    print("|---|---:|---:|---:|---:|")
    for label, rows in claimed.items():
        diffs = [abs(c / r - 1) for c, r in rows if r > 0]
        print(
            f"| {label} | {len(rows)} | {statistics.median(c for c, _ in rows):.2f}x | "
            f"{statistics.median(r for _, r in rows):.2f}x | {statistics.median(diffs):.1%} |"
        )
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--max-tokens", type=int, default=128)
    ap.add_argument("--pair", default="embedded", choices=("embedded", "deep"))
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args()
    target, drafter = pair(args.pair)
    request = LoadRequest(target, n_ctx=4096, n_threads=args.threads)
    configurations = {
        "off": SpeculationOptions(),
        "draft": auto.Candidate("draft", 8, None, auto.DRAFT_P_MIN).options(drafter),
        "ngram-mod": SpeculationOptions(enabled=True, method="ngram-mod", num_speculative_tokens=64),
        "draft+ngram-mod": auto.Candidate("draft+ngram-mod", 8, 64, auto.DRAFT_P_MIN).options(drafter),
    }
    base = LlamaCppEngine.load(request)
    pool = EnginePool(base, request, LlamaCppEngine.load, configurations, PoolConfig(slots=1, retune_s=None))
    n_prompts = len(HELD_OUT["prose"]) + len(HELD_OUT["code"])
    print(
        f"pair {args.pair}; {args.rounds} rounds of {n_prompts} prompts; {args.max_tokens} tokens; ", end=""
    )
    print(f"threads {base.n_threads}\n")
    try:
        asyncio.run(run(pool, list(configurations), args.rounds, args.max_tokens))
    finally:
        pool.close()
        base.close()


if __name__ == "__main__":
    main()
