"""The local server's engine pool: parallel clients, a second configuration's memory, children's turns.

    python benchmarks/bench_pool.py [--rounds 3] [--max-tokens 64]

One in-process ``LocalServer`` over a pool on the embedded pair (SmolLM2-135M-Instruct F32 target,
its Q4_1 as the classic drafter at 8/round, as ``tandem serve --spec on`` loads it), 4 slots per
child, driven by an asyncio client on loopback. Three measurements, each side by side in one run:

1. **Parallel clients**: four different prose requests sent at once against the same four sent one
   after another, for the launch's configuration (draft) and for ``tandem.speculation: "off"``;
   the order alternates round by round; aggregate completion tokens/s, medians. Then twelve at once
   (how many were answered).
2. **Memory**: the proportional set size (PSS, ``/proc/PID/smaps_rollup``) of the pool's children
   with the launch's configuration alone, then with a second one ("off") started beside it.
3. **Turns**: two requests at once for two different configurations ("off" and "ngram-mod"), with
   the children taking turns (the pool's default) against computing at the same time, and against
   the same two requests answered by one child in two slots. Wall time for both; medians.

Markdown on stdout for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from dataclasses import replace

import httpx

from app.core import assets
from app.core.engines.base import LoadRequest
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.engines.llamacpp.host import live_processes
from app.core.pool.pool import EnginePool
from app.core.pool.pool_types import PoolConfig, standard_configurations
from app.core.serving import LocalServer, ServerConfig
from app.core.serving.model import served_model
from app.core.speculative import SpeculationOptions

KEY = "bench-pool"
PROMPTS = [
    "Write a short story about a lighthouse keeper who finds a message in a bottle.",
    "Explain how rainbows form, for a curious ten-year-old.",
    "List five everyday uses of copper and say why copper suits each one.",
    "Describe a spring morning in a small mountain village.",
]


def pss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as f:
        for line in f:
            if line.startswith("Pss:"):
                return int(line.split()[1])
    return 0


async def ask(client: httpx.AsyncClient, url: str, prompt: str, spec: str | None, max_tokens: int) -> int:
    body: dict[str, object] = {
        "messages": [{"role": "user", "content": prompt}],
        "max_tokens": max_tokens,
        "temperature": 0,
    }
    if spec:
        body["tandem"] = {"speculation": spec}
    r = await client.post(url, json=body, headers={"Authorization": f"Bearer {KEY}"})
    r.raise_for_status()
    return int(r.json()["usage"]["completion_tokens"])


async def together(
    client: httpx.AsyncClient, url: str, jobs: list[tuple[str, str | None]], n: int
) -> tuple[float, int]:
    t = time.perf_counter()
    tokens = await asyncio.gather(*[ask(client, url, p, s, n) for p, s in jobs])
    return time.perf_counter() - t, sum(tokens)


async def one_by_one(
    client: httpx.AsyncClient, url: str, jobs: list[tuple[str, str | None]], n: int
) -> tuple[float, int]:
    t = time.perf_counter()
    total = 0
    for p, s in jobs:
        total += await ask(client, url, p, s, n)
    return time.perf_counter() - t, total


async def run(args: argparse.Namespace, url: str, pool: EnginePool, base_pids: set[int]) -> None:
    async with httpx.AsyncClient(timeout=600) as client:
        await ask(client, url, "Hello", None, 8)
        await ask(client, url, "Hello", "off", 8)  # both children warm
        print("## Parallel clients (4 prose requests)\n")
        print("| configuration | one after another tok/s | four at once tok/s | ratio |")
        print("|---|---:|---:|---:|")
        for spec in (None, "off"):
            seq, par = [], []
            jobs = [(p, spec) for p in PROMPTS]
            for r in range(args.rounds):
                order = (one_by_one, together) if r % 2 == 0 else (together, one_by_one)
                for fn in order:
                    dt, tokens = await fn(client, url, jobs, args.max_tokens)
                    (seq if fn is one_by_one else par).append(tokens / dt)
            s, p = statistics.median(seq), statistics.median(par)
            print(f"| {spec or 'draft (launch)'} | {s:.1f} | {p:.1f} | {p / s:.2f}x |")
        results = await asyncio.gather(
            *[ask(client, url, PROMPTS[i % 4], None, 24) for i in range(12)], return_exceptions=True
        )
        ok = sum(1 for r in results if isinstance(r, int))
        print(f"\nTwelve at once: {ok} of 12 answered.\n")

        print("## Memory of the pool's children (PSS)\n")
        pids = sorted(set(live_processes()) - base_pids)
        print(f"- children now: {', '.join(c.label for c in pool.status().children)}; "
              f"PSS {sum(pss_kib(p) for p in pids) / 1024:.0f} MiB in all "
              f"({', '.join(f'{pss_kib(p) / 1024:.0f}' for p in pids)} MiB each)\n")  # fmt: skip

        print("## Two configurations at once\n")
        print("| how | wall time for both (s) |")
        print("|---|---:|")
        rows: dict[str, list[float]] = {"one child, two slots (draft + draft)": [],
                                        "two children taking turns (off + ngram-mod)": [],
                                        "two children at the same time (off + ngram-mod)": []}  # fmt: skip
        for _ in range(args.rounds):
            for label in rows:
                pool.config = replace(pool.config, exclusive="same time" not in label)
                jobs = [(PROMPTS[0], None), (PROMPTS[1], None)] if "one child" in label else [
                    (PROMPTS[0], "off"), (PROMPTS[1], "ngram-mod")]  # fmt: skip
                dt, _ = await together(client, url, jobs, args.max_tokens)
                rows[label].append(dt)
        pool.config = replace(pool.config, exclusive=True)
        for label, times in rows.items():
            print(f"| {label} | {statistics.median(times):.2f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--max-tokens", type=int, default=64)
    args = ap.parse_args()
    drafter = str(assets.smollm2_q4_path())
    target = str(assets.resolve("embedded://smollm2/SmolLM2-135M-Instruct.F32.gguf"))
    spec = SpeculationOptions(
        enabled=True, method="draft", draft_model_path=drafter, num_speculative_tokens=8
    )
    request = LoadRequest(target, spec, n_ctx=4096, n_parallel=4)
    base_pids = set(live_processes())
    engine = LlamaCppEngine.load(request)
    only_base = sorted(set(live_processes()) - base_pids)
    base_pss = sum(pss_kib(p) for p in only_base)
    pool = EnginePool(engine, request, LlamaCppEngine.load, standard_configurations(("draft", drafter)),
                      PoolConfig(slots=4))  # fmt: skip
    model = replace(served_model(engine, target), pool=pool)
    server = LocalServer(model, ServerConfig(KEY, port=0, parallel=4, max_waiting=16))
    server.start()
    try:
        print(f"Launch configuration alone: PSS {base_pss / 1024:.0f} MiB\n")
        asyncio.run(run(args, f"{server.address}/chat/completions", pool, base_pids))
    finally:
        server.stop()
        pool.close()
        engine.close()


if __name__ == "__main__":
    main()
