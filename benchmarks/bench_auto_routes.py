"""Auto per request on ``tandem serve``: one Auto launch against every fixed configuration, per kind.

    python benchmarks/bench_auto_routes.py [--rounds 3] [--max-tokens 128] [--threads 2] [--pair deep]

Pair: SmolLM2-135M F32 (dequantized from the embedded Q4_1) with the Q4_1 file as its classic
drafter, llama.cpp; ``--pair deep``: the realistic-cost pair (the same target with 150
silent blocks appended, :mod:`app.devtools.deep_target`: the drafter is much cheaper).
First ``tandem calibrate --remeasure`` in a fresh temporary ``TANDEM_HOME``
(Auto's own prompts); then one ``tandem serve`` launch per configuration, each serving the whole
run: ``--spec auto`` (ONE launch; its pool routes each request), and the fixed ones (off, the
drafter at 8/round, ngram-mod 64/round, and the two chained: the drafter at 8/round, then
ngram-mod). The held-out workloads of
:data:`app.devtools.prompts.HELD_OUT` (not the calibration's prompts) go to each launch in turn,
side by side in each round:

* ``prose``: a first request of free text; ``code``: a code edit whose answer copies most of the
  prompt;
* ``repeat``: the same request sent a second time to the same launch, ``--resend-after`` seconds
  (1) after its first time (unmeasured): what an agent or an API client resending a request does.

Greedy; decode tokens/s from llama.cpp's own timings (``tandem.timings``); medians over rounds (a
different prompt each round); and end to end over the whole run: every measured request's wall
time summed per launch (Auto's child starts and cold prompt caches included). After each of Auto's
measured answers the run waits until its pool has no background work left (a start, an answer shown
to an n-gram child), as a user reading the answer would, so that work slows no other launch's
request; the time waited is reported. Markdown on stdout for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
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

from app.devtools.prompts import HELD_OUT

KEY = "bench-auto-routes"
FIXED = ("off", "draft", "ngram-mod", "draft+ngram-mod")


def ask(url: str, prompt: str, speculation: str, max_tokens: int) -> tuple[float, str, str, float]:
    body = {
        "messages": [{"role": "user", "content": prompt}],
        "max_tokens": max_tokens,
        "temperature": 0,
        "tandem": {"speculation": speculation},
    }
    started = time.perf_counter()
    r = httpx.post(url, json=body, headers={"Authorization": f"Bearer {KEY}"}, timeout=900)
    wall = time.perf_counter() - started
    r.raise_for_status()
    data = r.json()
    figures = data["tandem"]
    tps = float(figures["timings"]["decode_tokens_per_second"] or 0.0)
    method = figures["speculative_decoding"]["method"] or "off"
    tokens = int(data["usage"]["completion_tokens"])
    return tps, method, data["choices"][0]["message"]["content"], tokens / wall


def quiet(url: str, limit: float = 300.0) -> float:
    """Wait until Auto's pool at ``url`` has no background work left (a configuration starting, an
    answer being shown to an n-gram child), so it slows no other launch's request; seconds waited."""
    started = time.perf_counter()
    auto_url = url.replace("/chat/completions", "/tandem/auto")
    while time.perf_counter() - started < limit:
        r = httpx.get(auto_url, headers={"Authorization": f"Bearer {KEY}"}, timeout=30)
        r.raise_for_status()
        if not r.json().get("background", {}).get("busy"):
            break
        time.sleep(0.2)
    return time.perf_counter() - started


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--max-tokens", type=int, default=128)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--resend-after", type=float, default=1.0, help="seconds before a request is sent again")
    ap.add_argument("--pair", choices=("embedded", "deep"), default="embedded")
    args = ap.parse_args()
    target, drafter = serving.pair(args.pair)
    pair = ["--model-path", target, "--draft-model-path", drafter, "--threads", str(args.threads)]
    with tempfile.TemporaryDirectory(prefix="tandem-bench-routes-") as home:
        env = {**os.environ, "TANDEM_HOME": home, "TANDEM_API_KEY": KEY}
        os.environ["TANDEM_HOME"] = home
        from app.cli import main as tandem

        t = time.perf_counter()
        with redirect_stdout(StringIO()):
            if tandem(["calibrate", *pair, "--remeasure", "--json"]) != 0:
                return 1
        print(f"Calibration: {time.perf_counter() - t:.0f} s.\n")
        launches = {
            "auto": ["--spec", "auto", *pair],
            "off": ["--spec", "off", "--model-path", target],
            "draft": ["--spec", "on", "--draft-tokens", "8", *pair],
            "ngram-mod": ["--spec", "on", "--spec-method", "ngram-mod", "--draft-tokens", "64",
                          "--model-path", target],
            "draft+ngram-mod": ["--spec", "on", "--spec-method", "draft+ngram-mod", "--draft-tokens", "8",
                                *pair],
        }  # fmt: skip
        servers: list[subprocess.Popen[str]] = []
        urls: dict[str, str] = {}
        try:
            for name, launch in launches.items():

                def router_line(line: str) -> None:
                    if line.startswith("… auto per request"):
                        print(f"Router: {line.split(': ', 1)[1].strip()}\n")

                server, urls[name] = start_serve(
                    [*launch, "--threads", str(args.threads), "--parallel", "2"],
                    env,
                    router_line,
                )
                servers.append(server)
                ask(urls[name], "Hello.", "auto", 8)
            speeds: dict[str, dict[str, list[float]]] = {}
            walls: dict[str, dict[str, list[float]]] = {}
            routed: dict[str, set[str]] = {}
            mismatch: list[str] = []
            totals: dict[str, float] = {}
            background = quiet(urls["auto"])  # after the warm-up request
            auto_requests: list[str] = []
            for r in range(args.rounds):
                for kind, prompts in HELD_OUT.items():
                    prompt = prompts[r % len(prompts)]
                    order = ["auto", *FIXED]
                    order = order[r % len(order) :] + order[: r % len(order)]
                    texts = set()
                    for spec in order:
                        if kind == "repeat":
                            ask(urls[spec], prompt, "auto", args.max_tokens)  # its first time: not measured
                            time.sleep(args.resend_after)
                        t0 = time.perf_counter()
                        tps, method, text, wall_tps = ask(urls[spec], prompt, "auto", args.max_tokens)
                        totals[spec] = totals.get(spec, 0.0) + time.perf_counter() - t0
                        texts.add(text)
                        speeds.setdefault(kind, {}).setdefault(spec, []).append(tps)
                        walls.setdefault(kind, {}).setdefault(spec, []).append(wall_tps)
                        if spec == "auto":
                            routed.setdefault(kind, set()).add(method)
                            auto_requests.append(
                                f"| {r} | {kind} | {method} | {tps:.1f} | {time.perf_counter() - t0:.1f} |"
                            )
                            background += quiet(urls[spec])  # the user reads: nobody waits for it
                    if len(texts) != 1:
                        mismatch.append(f"{kind} round {r}")
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                server.wait(30)
    tables = (
        ("Decode tokens/s (llama.cpp's timings)", speeds),
        ("End to end: answer tokens / request time (prompt pass and any priming included)", walls),
    )
    for title, table in tables:
        print(f"{title}:\n")
        print("| kind | " + " | ".join(FIXED) + " | auto (routed to) | auto / best fixed |")
        print("|---|" + "---:|" * (len(FIXED) + 2))
        for kind, by_spec in table.items():
            med = {spec: statistics.median(v) for spec, v in by_spec.items()}
            best = max(med[s] for s in FIXED)
            cells = " | ".join(f"{med[s]:.1f}" for s in FIXED)
            print(
                f"| {kind} | {cells} | {med['auto']:.1f} ({', '.join(sorted(routed[kind]))}) | "
                f"{med['auto'] / best:.0%} |"
            )
        print()
    fastest = min(totals[s] for s in FIXED)
    print("End to end over the whole run (every measured request's wall time, summed):\n")
    print("| launch | seconds | against off | against the fastest fixed |")
    print("|---|---:|---:|---:|")
    for spec in ("auto", *FIXED):
        print(
            f"| {spec} | {totals[spec]:.1f} | {totals['off'] / totals[spec]:.2f}x | "
            f"{fastest / totals[spec]:.0%} |"
        )
    print("\nAuto's measured requests:\n")
    print("| round | kind | configuration | decode tok/s | seconds |\n|---:|---|---|---:|---:|")
    print("\n".join(auto_requests))
    print(
        f"Auto's background work after its answers (waited for before the next launch's request, so it "
        f"slows none; nobody's request waits for it): {background:.1f} s"
    )
    print(
        "\nGreedy text identical across configurations in every round: "
        + ("yes" if not mismatch else f"NO ({', '.join(mismatch)})")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
