"""The path of an answer before and after a change: streamed tokens/s of ``tandem generate`` and of
``tandem serve`` (a streamed chat completion read by a client), two checkouts side by side.

    python benchmarks/bench_answer_path.py --tree /path/to/older/checkout [--rounds 3] [--max-tokens 256]

Each measurement runs the checkout's own code in a child process (``PYTHONPATH`` set to that
checkout): the embedded SmolLM2-135M Q4_1 (llama.cpp), greedy, speculation off, 2 threads, the same
prose prompt. Rounds alternate which checkout goes first. Per run: ``generate``'s decode tokens/s
(llama.cpp's timings, what it prints) and its streamed rate as the terminal sees it (characters
out of the process over wall time from the first to the last); for ``serve``, the client's rate
from the first streamed chunk to the last and the time to that first chunk. Medians.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

PROMPT = "Write a long story about a lighthouse keeper and the ships she saved."
KEY = "bench-answer-path"
ROOT = Path(__file__).resolve().parent.parent


def env_for(tree: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree), "TANDEM_API_KEY": KEY}


def generate(tree: Path, max_tokens: int) -> float:
    cmd = [sys.executable, "-m", "app", "generate", "--prompt", PROMPT, "--max-tokens", str(max_tokens),
           "--temperature", "0", "--threads", "2", "--json"]  # fmt: skip
    out = subprocess.run(cmd, env=env_for(tree), capture_output=True, text=True, check=True).stdout
    return float(json.loads(out)["decode_tokens_per_second"])


def serve(tree: Path, max_tokens: int, rounds: int) -> tuple[list[float], list[float]]:
    cmd = [sys.executable, "-m", "app", "serve", "--port", "0", "--threads", "2", "--spec", "off"]
    proc = subprocess.Popen(cmd, env=env_for(tree), stderr=subprocess.PIPE, text=True)
    rates, firsts = [], []
    try:
        assert proc.stderr is not None
        url = ""
        for line in proc.stderr:
            found = re.search(r"serving .* at (http://\S+/v1)", line)
            if found:
                url = found.group(1) + "/chat/completions"
                break
        threading.Thread(target=proc.stderr.read, daemon=True).start()
        body = {"messages": [{"role": "user", "content": PROMPT}], "max_tokens": max_tokens,
                "temperature": 0, "stream": True}  # fmt: skip
        headers = {"Authorization": f"Bearer {KEY}"}
        httpx.post(url, json={**body, "stream": False, "max_tokens": 8}, headers=headers, timeout=300)
        for _ in range(rounds):
            start = time.perf_counter()
            first = last = 0.0
            chunks = 0
            with httpx.stream("POST", url, json=body, headers=headers, timeout=600) as r:
                for line in r.iter_lines():
                    if line.startswith("data: {") and '"content"' in line:
                        now = time.perf_counter()
                        first = first or now
                        last = now
                        chunks += 1
            rates.append((chunks - 1) / (last - first) if last > first else 0.0)
            firsts.append((first - start) * 1000)
    finally:
        proc.terminate()
        proc.wait(30)
    return rates, firsts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", type=Path, required=True, help="the older checkout to compare with")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--max-tokens", type=int, default=256)
    args = ap.parse_args()
    trees = {"before": args.tree.resolve(), "after": ROOT}
    gen: dict[str, list[float]] = {k: [] for k in trees}
    api: dict[str, list[float]] = {k: [] for k in trees}
    ttft: dict[str, list[float]] = {k: [] for k in trees}
    for r in range(args.rounds):
        for name in list(trees) if r % 2 == 0 else list(reversed(trees)):
            gen[name].append(generate(trees[name], args.max_tokens))
    for r in range(2):
        for name in list(trees) if r % 2 == 0 else list(reversed(trees)):
            rates, firsts = serve(trees[name], args.max_tokens, args.rounds)
            api[name] += rates
            ttft[name] += firsts
    print("| path | before | after | after / before |")
    print("|---|---:|---:|---:|")
    for label, table, unit in (("`tandem generate` decode tok/s", gen, ""),
                               ("`tandem serve` streamed chunks/s (client)", api, ""),
                               ("`tandem serve` first chunk (ms)", ttft, " ms")):  # fmt: skip
        b, a = statistics.median(table["before"]), statistics.median(table["after"])
        print(f"| {label} | {b:.1f}{unit} | {a:.1f}{unit} | {a / b:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
