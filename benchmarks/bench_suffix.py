"""Suffix decoding on the MLX engine: first pass and repeated request vs plain decoding, in one run.

Plain and suffix engines are loaded side by side on the same checkpoint; for each prompt the order
is plain, suffix (first pass: the tree has never seen this answer), plain again, suffix again (the
repeated request: regenerate). Then a second process loads the suffix engine on the same data dir
and asks the same prompts: it profits from the persisted tree. Greedy; every suffix answer is
compared with the plain one token by token. ``--first-pass-repeats N`` then measures N more first
passes per prompt, each right after a plain run, with the learned text forgotten before each pair
(a first pass is the figure a busy shared machine blurs most; the report gives their range).

Usage::

    # SmolLM2-135M converted from its F32 GGUF to MLX (cached under --cache)
    python benchmarks/bench_suffix.py \
        --smollm2-gguf ~/.cache/tandem-test-assets/SmolLM2-135M-Instruct.F32.gguf

    # any MLX checkpoint (a Mac: an mlx-community model folder)
    python benchmarks/bench_suffix.py --model PATH [--draft-tokens N]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from app.core.engines.base import Finished, LoadRequest, Sampling
from app.core.engines.blocking import generate
from app.core.speculative import SpeculationOptions
from app.core.speculative import suffix as sx
from app.devtools.prompts import SUFFIX as PROMPTS


def _run(engine: Any, prompt: str, max_tokens: int) -> dict[str, Any]:
    t0 = time.perf_counter()
    events = list(generate(engine, [{"role": "user", "content": prompt}], Sampling(max_tokens=max_tokens)))
    wall = time.perf_counter() - t0
    fin = events[-1]
    assert isinstance(fin, Finished)
    stats = dict(getattr(engine, "last_draft_stats", {}) or {})
    return {
        "tokens": fin.completion_tokens,
        "tps": fin.decode_tps or 0.0,
        "wall_s": wall,
        "drafted": fin.drafted_total,
        "accepted": fin.accepted_total,
        "rounds": fin.rounds,
        "ids": list(fin.token_ids or []),
        "draft_ms_per_step": 1000 * stats.get("draft_s", 0.0) / stats["proposals"]
        if stats.get("proposals")
        else 0.0,
    }


def _load(model: Path, method: str | None, draft_tokens: int | None) -> Any:
    from app.core.engines.mlx.engine import MLXEngine

    spec = SpeculationOptions.build(
        enabled=method is not None, method=method, num_speculative_tokens=draft_tokens
    )
    return MLXEngine.load(LoadRequest(str(model), spec))


def side_by_side(model: Path, max_tokens: int, draft_tokens: int | None) -> list[dict[str, Any]]:
    rows = []
    with _load(model, None, None) as plain, _load(model, "suffix", draft_tokens) as suffix:
        _run(plain, "Hello", 8)  # warm-up of both engines; what the suffix one learned is forgotten
        _run(suffix, "Hello", 8)
        sx.forget_all()
        for name, prompt in PROMPTS.items():
            p1 = _run(plain, prompt, max_tokens)
            s1 = _run(suffix, prompt, max_tokens)
            p2 = _run(plain, prompt, max_tokens)
            s2 = _run(suffix, prompt, max_tokens)
            rows.append({"prompt": name, "plain": [p1, p2], "suffix": [s1, s2]})
    return rows


def first_passes(
    model: Path, max_tokens: int, draft_tokens: int | None, repeats: int
) -> dict[str, list[float]]:
    """Suffix first pass / plain tok/s per prompt, ``repeats`` pairs each, the tree forgotten before
    every pair (the engine keeps its measured verify cost, as the app's does across requests)."""
    ratios: dict[str, list[float]] = {name: [] for name in PROMPTS}
    with _load(model, None, None) as plain, _load(model, "suffix", draft_tokens) as suffix:
        _run(plain, "Hello", 8)
        _run(suffix, "Hello", 8)
        for _ in range(repeats):
            for name, prompt in PROMPTS.items():
                sx.forget_all()
                p = _run(plain, prompt, max_tokens)
                s = _run(suffix, prompt, max_tokens)
                assert s["ids"] == p["ids"], f"{name}: suffix answer differs from plain"
                ratios[name].append(s["tps"] / p["tps"])
    sx.forget_all()
    return ratios


def second_process(model: Path, max_tokens: int, draft_tokens: int | None) -> list[dict[str, Any]]:
    """The suffix engine in this (new) process, on the tree the first process persisted."""
    out = []
    with _load(model, "suffix", draft_tokens) as suffix:
        for name, prompt in PROMPTS.items():
            r = _run(suffix, prompt, max_tokens)
            out.append({"prompt": name, **{k: v for k, v in r.items() if k != "ids"}, "ids": r["ids"]})
    return out


def _same(a: list[int], b: list[int]) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"differs at {i}"
    return "identical" if len(a) == len(b) else f"length {len(a)} vs {len(b)}"


def _accept(r: dict[str, Any]) -> str:
    return f"{r['accepted']}/{r['drafted']}" if r["drafted"] else "0/0"


def report(rows: list[dict[str, Any]], second: list[dict[str, Any]], max_tokens: int, model_name: str) -> str:
    import importlib.metadata as md

    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    versions = ", ".join(f"{d} {md.version(d)}" for d in ("mlx", "mlx-lm"))
    lines = [
        f"Machine: {platform.machine()} {platform.system()}, {os.cpu_count()} cores, load average "
        f"{load[0]:.2f} at the end; {versions}; greedy, {max_tokens} tokens; {model_name}",
        "",
        "| prompt | plain tok/s | suffix first pass | ratio | accepted | suffix repeated | ratio "
        "| accepted | 2nd process | ratio | accepted | parity | draft ms/step |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    by_name = {s["prompt"]: s for s in second}
    for r in rows:
        plain_tps = max(p["tps"] for p in r["plain"])
        s1, s2 = r["suffix"]
        s3 = by_name[r["prompt"]]
        ref = r["plain"][0]["ids"]
        parity = ", ".join(_same(ref, x["ids"]) for x in (s1, s2, s3))
        step_ms = max(s1["draft_ms_per_step"], s2["draft_ms_per_step"], s3["draft_ms_per_step"])
        lines.append(
            f"| {r['prompt']} | {plain_tps:.1f} "
            f"| {s1['tps']:.1f} | {s1['tps'] / plain_tps:.2f}x | {_accept(s1)} "
            f"| {s2['tps']:.1f} | {s2['tps'] / plain_tps:.2f}x | {_accept(s2)} "
            f"| {s3['tps']:.1f} | {s3['tps'] / plain_tps:.2f}x | {_accept(s3)} | {parity} | {step_ms:.2f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=Path, help="an MLX checkpoint folder")
    ap.add_argument("--smollm2-gguf", type=Path, help="convert SmolLM2 from this F32 llama GGUF")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "tandem-bench-mlx")
    ap.add_argument("--dtype", default="bfloat16", choices=["bfloat16", "float32"], help="SmolLM2 weights")
    ap.add_argument("--max-tokens", type=int, default=128)
    ap.add_argument("--draft-tokens", type=int, default=None, help="longest draft per round (default 16)")
    ap.add_argument(
        "--first-pass-repeats", type=int, default=0, help="extra first-pass/plain pairs per prompt"
    )
    ap.add_argument("--second-process", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.smollm2_gguf:
        from app.core.engines.mlx.convert import smollm2_mlx

        args.model = smollm2_mlx(args.smollm2_gguf, args.cache, args.dtype)
        import mlx.core as mx

        mx.clear_streams()
    if args.model is None:
        ap.error("give --model or --smollm2-gguf")
    if args.second_process:  # the child: TANDEM_HOME is the parent's
        print(json.dumps(second_process(args.model, args.max_tokens, args.draft_tokens)))
        return 0
    with tempfile.TemporaryDirectory(prefix="tandem-bench-suffix-") as home:
        os.environ["TANDEM_HOME"] = home  # a fresh, private learned corpus
        load0 = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
        print(f"side by side (load average {load0:.2f}) ...", file=sys.stderr)
        rows = side_by_side(args.model, args.max_tokens, args.draft_tokens)
        print("a second process on the persisted tree ...", file=sys.stderr)
        cmd = [sys.executable, __file__, "--model", str(args.model), "--max-tokens", str(args.max_tokens),
               "--second-process"]  # fmt: skip
        if args.draft_tokens:
            cmd += ["--draft-tokens", str(args.draft_tokens)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=True, env=dict(os.environ))
        second = json.loads(done.stdout.strip().splitlines()[-1])
        repeats: dict[str, list[float]] = {}
        if args.first_pass_repeats > 0:
            print(f"{args.first_pass_repeats} more first passes per prompt ...", file=sys.stderr)
            repeats = first_passes(args.model, args.max_tokens, args.draft_tokens, args.first_pass_repeats)
    if args.json:
        print(json.dumps({"rows": rows, "second_process": second, "first_pass_repeats": repeats}))
    else:
        print(report(rows, second, args.max_tokens, args.model.name))
        for name, got in repeats.items():
            print(
                f"first pass, {name}: "
                + ", ".join(f"{r:.2f}x" for r in got)
                + f" (median {sorted(got)[len(got) // 2]:.2f}x)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
