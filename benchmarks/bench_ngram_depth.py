"""llama.cpp ngram-mod: depth (``n_max``) and shortest draft (``n_min``) on first, repeated and
edited requests, side by side with spec-off (what Auto's n-gram candidate is built from).

One spec-off engine stays loaded; each ``N_MAX/N_MIN`` configuration is loaded in turn (fresh,
so it remembers nothing) and, per prompt of ``benchmarks/prompts.txt``, runs alternate with
spec-off: off, on (the first request), off, on again (the same request: a repeat). With
``--edits``, three "edit and resend" pairs follow: the first prompt on the candidate, then an
edited one, off and on (the ratio is the edited one's).

Usage::

    python benchmarks/bench_ngram_depth.py --model-path PATH.gguf [--configs 16/16,64/48,64/2,64/2/32]
        [--max-tokens 128] [--threads 2] [--edits] [--json]

Why ``n_min`` matters: llama.cpp drops an ngram-mod draft shorter than ``n_min``, and skips
drafting whenever the tokens left to generate, minus one, are fewer than it. Its default (48)
therefore drafts nothing in an answer of 40 tokens and nothing in the last 48 tokens of any answer.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from app.core.cancel import CancelToken, tokens_per_second
from app.core.engines.base import Engine, Finished, LoadRequest, Round, Sampling
from app.core.engines.blocking import generate
from app.core.launch.plan import load_engine
from app.core.speculative import SpeculationOptions

ROOT = Path(__file__).resolve().parents[1]

EDITS = [
    (
        "Here is a Python function:\n\ndef total(xs):\n    t = 0\n    for x in xs:\n        t = t + x\n"
        "    return t\n\nRename the variable t to running_sum and return the whole function.",
        "Here is a Python function:\n\ndef total(xs):\n    t = 0\n    for x in xs:\n        t = t + x\n"
        "    return t\n\nRename the variable t to acc and return the whole function.",
    ),
    (
        "Write a short paragraph about autumn in the mountains.",
        "Write a short paragraph about autumn in the mountains, for children.",
    ),
    ("Count from 1 to 40, one number per line.", "Count from 1 to 50, one number per line."),
]


def run(engine: Engine, prompt: str, max_tokens: int) -> tuple[float | None, int, list[tuple[int, int]]]:
    """Decode tok/s, tokens, and (drafted, accepted) of each drafting round."""
    fin: Finished | None = None
    rounds: list[tuple[int, int]] = []
    sampling = Sampling(temperature=0.0, max_tokens=max_tokens)
    for ev in generate(engine, [{"role": "user", "content": prompt}], sampling, CancelToken()):
        if isinstance(ev, Round) and ev.drafted:
            rounds.append((ev.drafted, ev.accepted))
        elif isinstance(ev, Finished):
            fin = ev
    assert fin is not None
    return tokens_per_second(fin.completion_tokens, fin.decode_ms), fin.completion_tokens, rounds


def ratio(off: float | None, on: float | None) -> float | None:
    return round(on / off, 2) if off and on else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model-path", required=True)
    configs_help = "N_MAX/N_MIN[/N_MATCH],... (ngram_mod; N_MATCH: llama.cpp's 24 if left out)"
    ap.add_argument("--configs", default="16/16,64/48,64/2", help=configs_help)
    ap.add_argument("--prompts", type=Path, default=ROOT / "benchmarks" / "prompts.txt")
    ap.add_argument("--max-tokens", type=int, default=128)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--edits", action="store_true", help="also edit-and-resend pairs")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    lines = args.prompts.read_text("utf-8").splitlines()
    prompts = [p.replace("\\n", "\n") for p in lines if p.strip() and not p.startswith("#")]
    base = LoadRequest(args.model_path, n_ctx=4096, n_threads=args.threads)
    off = load_engine("llama.cpp", replace(base, speculation=SpeculationOptions()))
    try:
        run(off, "Say hello.", 4)  # warm-up, not measured
        for config in args.configs.split(","):
            n_max, n_min, *match = (int(x) for x in config.split("/"))
            native = {
                "speculative.types": ["NGRAM_MOD"],
                "speculative.ngram_mod.n_max": n_max,
                "speculative.ngram_mod.n_min": n_min,
            }
            if match:
                native["speculative.ngram_mod.n_match"] = match[0]
            spec = SpeculationOptions(enabled=True, method="ngram-mod", engine_native=native)
            on = load_engine("llama.cpp", replace(base, speculation=spec))
            first: list[dict[str, Any]] = []
            repeat: list[dict[str, Any]] = []
            edits: list[dict[str, Any]] = []
            try:
                run(on, "Say hello.", 4)
                for p in prompts:
                    o1, _, _ = run(off, p, args.max_tokens)
                    f, _, f_rounds = run(on, p, args.max_tokens)
                    o2, _, _ = run(off, p, args.max_tokens)
                    r, tokens, r_rounds = run(on, p, args.max_tokens)
                    first.append({"ratio": ratio(o1, f), "drafting_rounds": len(f_rounds)})
                    repeat.append({"ratio": ratio(o2, r), "tokens": tokens, "rounds": r_rounds})
                for before, after in EDITS if args.edits else []:
                    run(on, before, args.max_tokens)
                    o, _, _ = run(off, after, args.max_tokens)
                    e, tokens, e_rounds = run(on, after, args.max_tokens)
                    edits.append({"ratio": ratio(o, e), "tokens": tokens, "rounds": e_rounds})
            finally:
                on.close()
            if args.json:
                row = {"config": config, "first": first, "repeat": repeat, "edit": edits}
                print(json.dumps(row), flush=True)
                continue
            text = f"ngram-mod {config}: first " + " ".join(str(x["ratio"]) for x in first)
            text += " | repeat " + " ".join(str(x["ratio"]) for x in repeat)
            if edits:
                text += " | edit-and-resend " + " ".join(str(x["ratio"]) for x in edits)
            print(text, flush=True)
    finally:
        off.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
