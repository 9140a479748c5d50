"""MLX classic drafter: the adaptive depth against every fixed depth, side by side in one run.

    python benchmarks/bench_mlx_depth.py [--smollm2-gguf F32.gguf] [--max-tokens 64] [--repeats 2]

Every configuration of a pair is loaded at once through ``MLXEngine`` (off; the drafter at a fixed
1, 2, 4 and 8 tokens per round; the drafter with the adaptive depth, ceiling 8, Tandem's default)
and the prompts run round-robin over them, greedy, ``--repeats`` times (the order reversed every
other time); each configuration's figure is its median decode speed per prompt, against off.
Every answer is checked token-identical to off's.

Pairs: the tiny random-weight llama pair (a drafter ~1/30 of the target; random models repeat one
token, so acceptance is high), always; with ``--smollm2-gguf``, SmolLM2-135M F32 converted to MLX
with its own 4-bit MLX quantization as the drafter (real text, real acceptance), cached under
``--cache``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from app.core.engines.base import Finished, LoadRequest, Round, Sampling
from app.core.engines.mlx.convert import smollm2_pair
from app.core.engines.mlx.engine import MLXEngine
from app.core.speculative import SpeculationOptions
from app.devtools.prompts import DEPTH as PROMPTS

FIXED = (1, 2, 4, 8)
CEILING = 8


def load(target: Path, drafter: Path | None, depth: int | None, adaptive: bool) -> MLXEngine:
    spec = SpeculationOptions.build(
        enabled=drafter is not None,
        method="draft",
        draft_model_path=str(drafter) if drafter else None,
        num_speculative_tokens=depth,
    )
    engine = MLXEngine.load(LoadRequest(str(target), spec, n_ctx=2048))
    engine.adaptive_depth = adaptive
    return engine


def run_pair(name: str, target: Path, drafter: Path, max_tokens: int, repeats: int) -> list[str]:
    configs: dict[str, tuple[int | None, bool, bool]] = {"off": (None, False, False)}
    for k in FIXED:
        configs[f"fixed {k}/round"] = (k, False, True)
    configs[f"adaptive (up to {CEILING})"] = (CEILING, True, True)
    engines: dict[str, MLXEngine] = {}
    speed: dict[str, dict[str, list[float]]] = {c: {p: [] for p in PROMPTS} for c in configs}
    depth: dict[str, list[int]] = {c: [] for c in configs}
    acc: dict[str, list[tuple[int, int]]] = {c: [] for c in configs}
    ref: dict[str, list[int] | None] = {}
    sampling = Sampling(temperature=0.0, max_tokens=max_tokens)
    try:
        for cname, (k, adaptive, spec) in configs.items():
            engines[cname] = load(target, drafter if spec else None, k, adaptive)
            list(engines[cname].generate([{"role": "user", "content": "Hi"}], Sampling(max_tokens=4)))
        for r in range(repeats):
            order = list(configs) if r % 2 == 0 else list(reversed(configs))
            for pname, prompt in PROMPTS.items():
                for cname in order:
                    events: list[Any] = list(
                        engines[cname].generate([{"role": "user", "content": prompt}], sampling)
                    )
                    fin = [e for e in events if isinstance(e, Finished)][-1]
                    speed[cname][pname].append(fin.completion_tokens / (fin.decode_ms / 1000))
                    rounds = [e for e in events if isinstance(e, Round) and e.drafted]
                    depth[cname] += [e.drafted for e in rounds]
                    acc[cname].append((fin.drafted_total, fin.accepted_total))
                    if cname == "off":
                        ref[pname] = fin.token_ids
                    elif fin.token_ids != ref.get(pname):
                        print(f"DIVERGED: {name} {cname} {pname}", file=sys.stderr)
            print(f"{name}: round {r + 1} done", file=sys.stderr, flush=True)
    finally:
        for e in engines.values():
            e.close()
    off = {p: statistics.median(v) for p, v in speed["off"].items()}
    lines = [
        f"### {name}",
        "",
        "| configuration | "
        + " | ".join(PROMPTS)
        + " | geo. mean | accepted / drafted | drafted per drafting round |",
        "|---|" + "---|" * (len(PROMPTS) + 3),
    ]
    for cname in configs:
        med = {p: statistics.median(v) for p, v in speed[cname].items()}
        if cname == "off":
            cells = [f"{med[p]:.1f} tok/s" for p in PROMPTS]
            lines.append(f"| off | {' | '.join(cells)} | | | |")
            continue
        ratios = [med[p] / off[p] for p in PROMPTS]
        drafted = sum(d for d, _ in acc[cname])
        accepted = sum(a for _, a in acc[cname])
        d = depth[cname]
        spread = f"{statistics.mean(d):.1f} (min {min(d)}, max {max(d)})" if d else "-"
        lines.append(
            f"| {cname} | {' | '.join(f'{x:.2f}x' for x in ratios)} | "
            f"{statistics.geometric_mean(ratios):.2f}x | {accepted}/{drafted} | {spread} |"
        )
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smollm2-gguf", type=Path)
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "tandem-bench-mlx")
    ap.add_argument("--max-tokens", type=int, default=64)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--no-tiny", action="store_true")
    args = ap.parse_args()
    from app.devtools import mlx_models as fx

    pairs: list[tuple[str, Path, Path]] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        if not args.no_tiny:
            lt = fx.write_llama_target(root / "lt", forced=False, hidden=512, layers=8)
            ld = fx.write_llama_drafter(root / "ld", forced=False, hidden=128, layers=1)
            pairs.append(("llama 512x8 + 128x1, random weights", lt, ld))
        if args.smollm2_gguf:
            label, t, d, _ = smollm2_pair(args.smollm2_gguf, args.cache)
            pairs.append((label, t, d))
        out: list[str] = []
        for name, t, d in pairs:
            out += [*run_pair(name, t, d, args.max_tokens, args.repeats), ""]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
