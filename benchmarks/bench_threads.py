"""Fast on a machine that is doing other things: decode speed quiet and with one core busy.

    python benchmarks/bench_threads.py [--rounds 5] [--max-tokens 128] [--part generate,serve,two]

Everything runs as whole processes, as a user runs them, on the embedded default model
(SmolLM2-135M-Instruct Q4_1, as ``tandem generate`` runs it; greedy, speculation off), with one
shared ``TANDEM_HOME``. "Busy" is another process spinning on one core for the whole measurement
(started before, ended after). Each figure is paired in one run, the order alternating round by
round:

1. **generate**: ``tandem generate --spec off`` quiet and busy, with Tandem's automatic threads and
   with ``--threads <logical CPUs>`` (a count that ignores the busy core), and
   with ``--threads 1`` (what one core gives: the most a machine with one free core can); decode
   tokens/s, medians, and busy/quiet per row.
2. **serve**: ``tandem serve --spec off`` with 4 clients at once (4 different prose prompts),
   aggregate completion tokens/s. Quiet, against busy in two ways: the server started while the
   core was busy, and a server started on a quiet machine whose core then became busy (its pool
   rests for its check of the free cores, then the clients ask).
3. **two**: two ``tandem generate`` started at the same moment, against one alone; the sum of their
   decode tokens/s against the one.

Markdown on stdout for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serving import start_serve

from app.core.pool.pool_types import PoolConfig

KEY = "bench-threads"
PROMPT = "Write a short story about a lighthouse keeper who finds a message in a bottle."
PROMPTS = [
    PROMPT,
    "Explain how rainbows form, for a curious ten-year-old.",
    "List five everyday uses of copper and say why copper suits each one.",
    "Describe a spring morning in a small mountain village.",
]
MODEL: list[str] = []  # the embedded default model (SmolLM2-135M-Instruct Q4_1)


@contextlib.contextmanager
def busy_core(on: bool) -> Iterator[None]:
    """Another program keeping one core busy (nothing when ``on`` is false)."""
    if not on:
        yield
        return
    spin = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(1.0)  # it runs, and the scheduler has seen it
        yield
    finally:
        spin.kill()
        spin.wait()


def generate(env: dict[str, str], max_tokens: int, threads: int | None = None) -> subprocess.Popen[str]:
    cmd = [sys.executable, "-m", "app", "generate", *MODEL, "--spec", "off", "--temperature", "0"]
    cmd += ["--max-tokens", str(max_tokens), "--prompt", PROMPT, "--json"]
    if threads:
        cmd += ["--threads", str(threads)]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def figures(proc: subprocess.Popen[str]) -> tuple[float, int]:
    out, _ = proc.communicate(timeout=600)
    data = json.loads(out)
    return float(data["decode_tokens_per_second"]), int(data.get("threads") or 0)


def part_generate(env: dict[str, str], rounds: int, max_tokens: int) -> None:
    logical = os.cpu_count() or 1
    ways: dict[str, int | None] = {
        "automatic threads (now)": None,
        f"--threads {logical} (before)": logical,
        "--threads 1 (what one core gives)": 1,
    }
    speeds: dict[tuple[str, bool], list[float]] = {(w, b): [] for w in ways for b in (False, True)}
    used: dict[tuple[str, bool], list[int]] = {k: [] for k in speeds}
    for r in range(rounds):
        for busy in (False, True) if r % 2 == 0 else (True, False):
            with busy_core(busy):
                for way, n in ways.items() if r % 2 == 0 else reversed(ways.items()):
                    tps, threads = figures(generate(env, max_tokens, n))
                    speeds[way, busy].append(tps)
                    used[way, busy].append(threads)
    print("## `tandem generate`, quiet and with one core busy\n")
    print("| threads | quiet tok/s | one core busy tok/s | busy / quiet | threads used (quiet / busy) |")
    print("|---|---:|---:|---:|---|")
    for way in ways:
        q, b = statistics.median(speeds[way, False]), statistics.median(speeds[way, True])
        tq, tb = sorted(set(used[way, False])), sorted(set(used[way, True]))
        print(f"| {way} | {q:.1f} | {b:.1f} | {b / q:.2f}x | {tq} / {tb} |")
    print()


async def four_clients(url: str, max_tokens: int) -> float:
    async def ask(client: httpx.AsyncClient, prompt: str) -> int:
        body = {"messages": [{"role": "user", "content": prompt}], "max_tokens": max_tokens, "temperature": 0}
        r = await client.post(url, json=body, headers={"Authorization": f"Bearer {KEY}"})
        r.raise_for_status()
        return int(r.json()["usage"]["completion_tokens"])

    async with httpx.AsyncClient(timeout=600) as client:
        t = time.perf_counter()
        tokens = await asyncio.gather(*(ask(client, p) for p in PROMPTS))
        return sum(tokens) / (time.perf_counter() - t)


def threads_of(url: str) -> str:
    """The threads of the server's children, as ``GET /v1/models`` says them."""
    base = url.rsplit("/", 2)[0]
    with contextlib.suppress(httpx.HTTPError, ValueError, KeyError, IndexError):
        r = httpx.get(f"{base}/models", headers={"Authorization": f"Bearer {KEY}"}, timeout=10)
        counts = r.json()["data"][0]["tandem"]["threads"]
        return ", ".join(f"{label}: {n}" for label, n in counts.items())
    return "?"


def serve(env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    return start_serve([*MODEL, "--spec", "off", "--parallel", "4"], env)


def part_serve(env: dict[str, str], rounds: int, max_tokens: int) -> None:
    rest = (PoolConfig().retune_s or 0.0) + 5.0
    rows: dict[str, list[float]] = {
        "quiet": [],
        "busy, server started busy": [],
        "busy, core busy after the start": [],
    }
    seen: dict[str, set[str]] = {k: set() for k in rows}

    def measure(label: str, busy_at_start: bool, busy_after: bool, wait: float = 0.0) -> None:
        with busy_core(busy_at_start):
            server, url = serve(env)
            try:
                asyncio.run(four_clients(url, 8))  # warm
                with busy_core(busy_after and not busy_at_start):
                    time.sleep(wait)  # the pool rests: its check of the free cores runs
                    rows[label].append(asyncio.run(four_clients(url, max_tokens)))
                    seen[label].add(threads_of(url))
            finally:
                server.terminate()
                server.wait(60)

    for r in range(rounds):
        order: list[Callable[[], None]] = [
            lambda: measure("quiet", False, False),
            lambda: measure("busy, server started busy", True, True),
            lambda: measure("busy, core busy after the start", False, True, rest),
        ]
        for step in order if r % 2 == 0 else reversed(order):
            step()
    quiet = statistics.median(rows["quiet"])
    print("## `tandem serve`, 4 clients at once\n")
    print("| machine | aggregate tok/s | against quiet | threads |")
    print("|---|---:|---:|---|")
    for label, values in rows.items():
        m = statistics.median(values)
        print(f"| {label} | {m:.1f} | {m / quiet:.2f}x | {'; '.join(sorted(seen[label]))} |")
    print()


def part_two(env: dict[str, str], rounds: int, max_tokens: int) -> None:
    alone: list[float] = []
    both: list[float] = []
    each: list[tuple[int, int]] = []
    for r in range(rounds):
        for step in ("alone", "two") if r % 2 == 0 else ("two", "alone"):
            if step == "alone":
                alone.append(figures(generate(env, max_tokens))[0])
            else:
                procs = [generate(env, max_tokens), generate(env, max_tokens)]
                results = [figures(p) for p in procs]
                both.append(sum(x[0] for x in results))
                each.append((results[0][1], results[1][1]))
    a, b = statistics.median(alone), statistics.median(both)
    print("## Two `tandem generate` at once\n")
    print("| | decode tok/s | against one alone | threads each |")
    print("|---|---:|---:|---|")
    print(f"| one alone | {a:.1f} | 1.00x | |")
    print(f"| two at once, together | {b:.1f} | {b / a:.2f}x | {sorted(set(each))} |")
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--max-tokens", type=int, default=128)
    ap.add_argument("--part", default="generate,serve,two")
    args = ap.parse_args()
    parts = set(args.part.split(","))
    with tempfile.TemporaryDirectory(prefix="bench-threads-") as home:
        env = {**os.environ, "TANDEM_HOME": home, "TANDEM_API_KEY": KEY}
        print(f"CPUs: {os.cpu_count()} logical; rounds {args.rounds}; {args.max_tokens} tokens\n")
        if "generate" in parts:
            part_generate(env, args.rounds, args.max_tokens)
        if "serve" in parts:
            part_serve(env, args.rounds, args.max_tokens)
        if "two" in parts:
            part_two(env, args.rounds, args.max_tokens)


if __name__ == "__main__":
    main()
