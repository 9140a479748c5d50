"""MLX engine: spec-off vs spec-on, side by side, in one run.

Each pair is loaded twice through :class:`app.core.engines.mlx.engine.MLXEngine` (target alone, then
target + drafter), the same prompts are run greedily on both, and the table shows decode speed,
acceptance, tokens per round and whether the answers are token-identical.

Usage::

    # your own checkpoints (a Mac: mlx-community Gemma 4 + its assistant drafter)
    python benchmarks/bench_mlx.py --target PATH --drafter PATH [--method mtp|draft] [--draft-tokens N]

    # no checkpoints at hand: tiny random-weight pairs generated on the spot (CPU-friendly)
    python benchmarks/bench_mlx.py --tiny

    # a real model without a hub: SmolLM2-135M from a llama GGUF (F32/F16) converted to MLX, with
    # its own 4-bit MLX quantization as the classic drafter (cached under --cache)
    python benchmarks/bench_mlx.py --smollm2-gguf SmolLM2-135M-Instruct.F32.gguf

``--json`` prints one JSON object per run instead of the Markdown table.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from app.core.engines.base import Finished, LoadRequest, Sampling
from app.core.engines.blocking import generate
from app.core.engines.mlx.convert import smollm2_pair
from app.core.engines.mlx.engine import MLXEngine
from app.core.speculative import SpeculationOptions
from app.devtools.prompts import WORKLOADS as PROMPTS


@dataclass
class Run:
    pair: str
    prompt: str
    spec: bool
    tokens: int
    decode_tps: float
    prompt_ms: float
    drafted: int
    accepted: int
    rounds: int
    token_ids: list[int] = field(default_factory=list)


def _measure(engine: MLXEngine, pair: str, spec: bool, max_tokens: int, repeat: int) -> list[Run]:
    out: list[Run] = []
    warm = Sampling(max_tokens=8)
    list(generate(engine, [{"role": "user", "content": "Hello"}], warm))  # first-call kernel setup
    for name, text in PROMPTS.items():
        best: Finished | None = None
        for _ in range(repeat):
            events = list(
                generate(engine, [{"role": "user", "content": text}], Sampling(max_tokens=max_tokens))
            )
            fin = events[-1]
            assert isinstance(fin, Finished)
            if best is None or (fin.decode_tps or 0.0) > (best.decode_tps or 0.0):
                best = fin
        assert best is not None
        out.append(
            Run(
                pair,
                name,
                spec,
                best.completion_tokens,
                best.decode_tps or 0.0,
                best.prompt_ms,
                best.drafted_total,
                best.accepted_total,
                best.rounds,
                list(best.token_ids or []),
            )
        )
    return out


def bench_pair(
    pair: str,
    target: Path,
    drafter: Path,
    method: str,
    draft_tokens: int | None,
    max_tokens: int,
    repeat: int,
    fixed_depth: bool = False,
) -> list[Run]:
    runs: list[Run] = []
    with MLXEngine.load(LoadRequest(str(target))) as off:
        runs += _measure(off, pair, False, max_tokens, repeat)
    spec = SpeculationOptions.build(
        enabled=True, method=method, draft_model_path=str(drafter), num_speculative_tokens=draft_tokens
    )
    with MLXEngine.load(LoadRequest(str(target), spec)) as on:
        on.adaptive_depth = not fixed_depth  # a classic drafter's depth (mlx-vlm drafters: their own)
        for note in on.notes:
            print(f"note: {note}", file=sys.stderr)
        runs += _measure(on, pair, True, max_tokens, repeat)
    return runs


def _first_difference(a: list[int], b: list[int]) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"differs at {i}"
    return "identical" if len(a) == len(b) else f"length {len(a)} vs {len(b)}"


def table(runs: list[Run]) -> str:
    lines = [
        "| pair | prompt | spec-off tok/s | spec-on tok/s | speed-up | accepted / drafted | tokens per round "
        "| greedy parity |",
        "|---|---|---|---|---|---|---|---|",
    ]
    offs = {(r.pair, r.prompt): r for r in runs if not r.spec}
    for on in (r for r in runs if r.spec):
        off = offs[(on.pair, on.prompt)]
        rate = f"{on.accepted}/{on.drafted} ({100 * on.accepted / on.drafted:.0f}%)" if on.drafted else "-"
        per_round = f"{on.tokens / on.rounds:.2f}" if on.rounds else "-"
        speedup = on.decode_tps / off.decode_tps if off.decode_tps else 0.0
        lines.append(
            f"| {on.pair} | {on.prompt} | {off.decode_tps:.1f} | {on.decode_tps:.1f} | {speedup:.2f}x "
            f"| {rate} | {per_round} | {_first_difference(off.token_ids, on.token_ids)} |"
        )
    by_pair: dict[str, list[float]] = {}
    for on in (r for r in runs if r.spec):
        off = offs[(on.pair, on.prompt)]
        if off.decode_tps:
            by_pair.setdefault(on.pair, []).append(on.decode_tps / off.decode_tps)
    lines.append("")
    for pair, ups in by_pair.items():
        lines.append(f"- {pair}: geometric-mean speed-up {statistics.geometric_mean(ups):.2f}x")
    return "\n".join(lines)


def tiny_pairs(root: Path) -> list[tuple[str, Path, Path, str]]:
    from app.devtools import mlx_models as fx

    pairs = []
    for forced in (False, True):
        tag = "forced 100% acceptance" if forced else "random weights"
        g4t = fx.write_gemma4_target(root / f"g4-{forced}", forced=forced)
        g4d = fx.write_gemma4_assistant(root / f"g4d-{forced}", forced=forced)
        pairs.append((f"tiny Gemma 4 + assistant (mtp), {tag}", g4t, g4d, "mtp"))
        lt = fx.write_llama_target(root / f"lt-{forced}", forced=forced, hidden=512, layers=8)
        ld = fx.write_llama_drafter(root / f"ld-{forced}", forced=forced, hidden=128, layers=1)
        pairs.append((f"llama 512x8 + 128x1 (draft), {tag}", lt, ld, "draft"))
    return pairs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", type=Path)
    ap.add_argument("--drafter", type=Path)
    ap.add_argument(
        "--method", default="mtp", help="mtp | eagle3 | dflash | draft (auto-detected when wrong)"
    )
    ap.add_argument(
        "--draft-tokens", type=int, default=None, help="drafted tokens per round (default: trained)"
    )
    ap.add_argument(
        "--fixed-depth",
        action="store_true",
        help="a classic drafter drafts tokens per round every round (default: the adaptive depth)",
    )
    ap.add_argument("--tiny", action="store_true", help="generate tiny random-weight pairs and bench them")
    ap.add_argument("--smollm2-gguf", type=Path, help="bench SmolLM2 converted from this F32 llama GGUF")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "tandem-bench-mlx")
    ap.add_argument("--max-tokens", type=int, default=128)
    ap.add_argument("--repeat", type=int, default=2, help="runs per prompt; the best is kept")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    runs: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="tandem-bench-mlx-") as tmp:
        pairs: list[tuple[str, Path, Path, str]] = []
        if args.smollm2_gguf:
            pairs.append(smollm2_pair(args.smollm2_gguf, args.cache))
        if args.tiny:
            pairs += tiny_pairs(Path(tmp))
        if args.target and args.drafter:
            pairs += [(f"{args.target.name} + {args.drafter.name}", args.target, args.drafter, args.method)]
        elif not pairs:
            ap.error("give --target and --drafter, --smollm2-gguf, or --tiny")
        for name, target, drafter, method in pairs:
            print(f"benchmarking {name} ...", file=sys.stderr)
            runs += bench_pair(
                name,
                target,
                drafter,
                method,
                args.draft_tokens,
                args.max_tokens,
                args.repeat,
                fixed_depth=args.fixed_depth,
            )

    core = sys.modules.get("mlx.core")
    if core is not None and hasattr(core, "clear_streams"):
        core.clear_streams()  # MLX needs this on every thread that used it (the GGUF conversion)
    if args.json:
        for r in runs:
            print(json.dumps({k: v for k, v in r.__dict__.items() if k != "token_ids"}))
        return 0
    import importlib.metadata as md

    versions = ", ".join(f"{d} {md.version(d)}" for d in ("mlx", "mlx-vlm", "mlx-lm"))
    print(
        f"Machine: {platform.machine()} {platform.system()}, {versions}; greedy, {args.max_tokens} tokens, "
        f"best of {args.repeat}\n"
    )
    print(table(runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
