"""MLX answers measure every configuration too: suffix decoding and prompt lookup replayed over each
answer, against the same prompt really run on them.

    python benchmarks/bench_mlx_predictions.py [--rounds 2] [--max-tokens 96] [--gate on|off]

One MLX engine (mlx[cpu] here) on SmolLM2-135M converted from its F32 GGUF, loaded without
speculation: every request chooses off, suffix or prompt-lookup (``GenerateRequest.speculation``),
greedy, so every configuration gives the same tokens. Each held-out prompt of
:data:`app.devtools.prompts.HELD_OUT` (prose, code edits, repeats) is asked of every configuration
in turn, the order rotating per prompt. Every answer carries the engine's predictions
(``Finished.alternatives``): each configuration's predicted decode speed on that answer is set
against the speed that configuration really had on the same prompt, by basis (``ran``,
``replayed``, ``estimated``).

Replay exactness: when a model-free method answers a prompt right after another configuration
answered it (nothing learned in between), the replay that answer made for the method is set
against the method's real drafted and accepted counts. Exact without the cost gate (``--gate
off``); with it the gate's costs move as the method runs, so the replay is an estimate.
Markdown on stdout for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
from collections import defaultdict
from typing import Any

from app.core.answer import Answer, AnswerCollector
from app.core.engines.base import ChatMessage, GenerateRequest, LoadRequest, Sampling
from app.core.speculative import SpeculationOptions
from app.core.speculative.per_request import Speculation
from app.devtools.assets import ASSET_DIR
from app.devtools.prompts import HELD_OUT

LABELS = ["off", "suffix", "prompt-lookup"]


async def ask(engine: Any, label: str, prompt: str, max_tokens: int) -> Answer:
    collector = AnswerCollector()
    request = GenerateRequest(
        [ChatMessage(role="user", content=prompt)],
        Sampling(temperature=0.0, max_tokens=max_tokens),
        speculation=Speculation(label),
    )
    async for event in engine.stream(request):
        collector.feed(event)
    return collector.end()


async def run(engine: Any, rounds: int, max_tokens: int) -> None:
    prompts = [(kind, p) for kind in ("prose", "code", "repeat") for p in HELD_OUT[kind]]
    for label in LABELS:  # every configuration warm before anything is measured
        await ask(engine, label, "Say hello.", 8)
    errors: dict[tuple[str, str], list[float]] = defaultdict(list)
    exact: dict[str, list[bool]] = defaultdict(list)
    n = 0
    for _ in range(rounds):
        for _kind, prompt in prompts:
            order = LABELS[n % len(LABELS) :] + LABELS[: n % len(LABELS)]
            n += 1
            answers: dict[str, Answer] = {}
            replays: dict[str, Any] = {}
            for label in order:
                answer = await ask(engine, label, prompt, max_tokens)
                done = answer.finished
                if label in replays and done is not None:  # the replay made just before this run
                    r = replays[label]
                    exact[label].append(
                        (r.drafted_total, r.accepted_total) == (done.drafted_total, done.accepted_total)
                    )
                replays = dict(engine.last_replays)
                answers[label] = answer
            real = {label: a.decode_tps or 0.0 for label, a in answers.items()}
            for answer in answers.values():
                done = answer.finished
                for alt in (done.alternatives if done is not None else None) or ():
                    if real.get(alt.speculation, 0) > 0:
                        basis = "ran" if alt.ran else alt.basis
                        errors[alt.speculation, basis].append(
                            alt.decode_tokens_per_second / real[alt.speculation] - 1
                        )
    print("| configuration | basis | predictions | median abs error | largest |")
    print("|---|---|---:|---:|---:|")
    for label in LABELS:
        every = [abs(x) for (lab, _), found in errors.items() if lab == label for x in found]
        for basis in ("ran", "replayed", "estimated"):
            e = [abs(x) for x in errors.get((label, basis), [])]
            if e:
                print(f"| {label} | {basis} | {len(e)} | {statistics.median(e):.1%} | {max(e):.1%} |")
        if every:
            print(f"| {label} | all | {len(every)} | {statistics.median(every):.1%} | {max(every):.1%} |")
    print("\n| method | replays checked against the run that followed | equal drafted and accepted counts |")
    print("|---|---:|---:|")
    for label, found in exact.items():
        print(f"| {label} | {len(found)} | {sum(found)} |")
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--max-tokens", type=int, default=96)
    ap.add_argument("--gate", choices=("on", "off"), default="off")
    args = ap.parse_args()
    from app.core.engines.mlx.convert import smollm2_mlx
    from app.core.engines.mlx.engine import MLXEngine

    with tempfile.TemporaryDirectory() as home:
        os.environ["TANDEM_HOME"] = home  # the suffix corpus starts empty and is thrown away
        target = smollm2_mlx(ASSET_DIR / "SmolLM2-135M-Instruct.F32.gguf", ASSET_DIR)
        engine = MLXEngine.load(LoadRequest(str(target), SpeculationOptions(), n_ctx=4096))
        engine.cost_gate = args.gate == "on"
        n_prompts = sum(len(HELD_OUT[k]) for k in ("prose", "code", "repeat"))
        head = f"SmolLM2-135M (MLX, CPU); {args.rounds} rounds of {n_prompts} prompts"
        print(f"{head}; {args.max_tokens} tokens; cost gate {args.gate}\n")
        try:
            asyncio.run(run(engine, args.rounds, args.max_tokens))
        finally:
            engine.close()


if __name__ == "__main__":
    main()
