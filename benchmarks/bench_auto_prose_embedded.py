"""Auto on the embedded pair, where drafting barely pays: is its prose ever slower than off?

    python benchmarks/bench_auto_prose_embedded.py [--answers 20] [--max-tokens 64] [--threads 2]

The embedded SmolLM2-135M (F32, dequantized from the embedded Q4_1) with the Q4_1 file as its
classic drafter, llama.cpp: the drafter costs about what the target costs, so drafting gains
little on a CPU, inside the noise. First ``tandem calibrate --remeasure`` in a fresh temporary
``TANDEM_HOME``; then two ``tandem serve`` launches, ``--spec auto`` and ``--spec off``, asked in
turn (alternating which goes first, ``--pause`` seconds before each request so Auto's background
work never overlaps the other side's answer) ``--answers`` different prose requests
(:data:`app.devtools.prompts.PROSE_TOPICS`), greedy. Prints per answer Auto's configuration and
decode speed against off's, and the median of Auto's answers against the median of off's, plus
the median of the per-answer ratios. Markdown on stdout for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stdout
from io import StringIO

import httpx
import serving
from serving import start_serve

from app.devtools.prompts import PROSE_TOPICS

KEY = "bench-auto-prose"


def ask(url: str, prompt: str, max_tokens: int) -> tuple[float, str, str]:
    body = {
        "messages": [{"role": "user", "content": prompt}],
        "max_tokens": max_tokens,
        "temperature": 0,
        "tandem": {"speculation": "auto"},
    }
    r = httpx.post(url, json=body, headers={"Authorization": f"Bearer {KEY}"}, timeout=600)
    r.raise_for_status()
    data = r.json()
    figures = data["tandem"]
    tps = float(figures["timings"]["decode_tokens_per_second"] or 0.0)
    return tps, figures["speculative_decoding"]["method"] or "off", data["choices"][0]["message"]["content"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--answers", type=int, default=20)
    ap.add_argument("--max-tokens", type=int, default=64)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument(
        "--pause",
        type=float,
        default=2.0,
        help="seconds between requests: Auto's pool shows each answer to its other n-gram children "
        "and may start a configuration in the background, which would slow the next side's answer",
    )
    args = ap.parse_args()
    target, drafter = serving.pair("embedded")
    pair = ["--model-path", target, "--draft-model-path", drafter, "--threads", str(args.threads)]
    with tempfile.TemporaryDirectory(prefix="tandem-bench-prose-") as home:
        env = {**os.environ, "TANDEM_HOME": home, "TANDEM_API_KEY": KEY}
        os.environ["TANDEM_HOME"] = home
        from app.cli import main as tandem

        out = StringIO()
        with redirect_stdout(out):
            if tandem(["calibrate", *pair, "--remeasure", "--json"]) != 0:
                return 1
        calibration = json.loads(out.getvalue())
        routes = ", ".join(f"{k} -> {r['configuration']}" for k, r in calibration["routes"].items())
        chosen = calibration["chosen"]["label"]
        print(f"Calibration: {calibration['seconds']:.0f} s; Auto launches {chosen}; routes: {routes}\n")
        launches = {"auto": ["--spec", "auto", *pair], "off": ["--spec", "off", "--model-path", target]}
        servers: list[subprocess.Popen[str]] = []
        urls: dict[str, str] = {}
        rows: list[tuple[str, float, float, str]] = []
        mismatch = 0
        try:
            for name, launch in launches.items():
                server, urls[name] = start_serve([*launch, "--threads", str(args.threads)], env)
                servers.append(server)
                ask(urls[name], "Hello.", 8)
            for i in range(args.answers):
                prompt = PROSE_TOPICS[i % len(PROSE_TOPICS)]
                order = ("auto", "off") if i % 2 == 0 else ("off", "auto")
                got = {}
                for name in order:
                    time.sleep(args.pause)
                    got[name] = ask(urls[name], prompt, args.max_tokens)
                rows.append((prompt, got["auto"][0], got["off"][0], got["auto"][1]))
                mismatch += got["auto"][2] != got["off"][2]
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                server.wait(30)
    print("| # | Auto's configuration | Auto tok/s | off tok/s | Auto / off |")
    print("|---:|---|---:|---:|---:|")
    for i, (_prompt, a, o, method) in enumerate(rows, 1):
        print(f"| {i} | {method} | {a:.1f} | {o:.1f} | {a / o:.2f}x |")
    auto_median = statistics.median(r[1] for r in rows)
    off_median = statistics.median(r[2] for r in rows)
    ratios = statistics.median(r[1] / r[2] for r in rows)
    print(
        f"\nMedian of Auto's {len(rows)} prose answers: {auto_median:.1f} tok/s, off's {off_median:.1f} "
        f"tok/s: **{auto_median / off_median:.2f}x** (median of the per-answer ratios {ratios:.2f}x). "
        f"Greedy text identical in {len(rows) - mismatch} of {len(rows)}."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
