"""What a drafter costs llama.cpp on rounds it does not draft: ngram-mod alone against the drafter
combined with ngram-mod (Auto's combination), on the same request sent twice, side by side.

On the second (repeated) request ngram-mod drafts the whole answer in both configurations, so the
rounds are the same; the difference in decode time is what the drafter costs while it drafts
nothing (llama.cpp's draft-simple decodes every batch of the target in the draft context too, to
keep its memory in step). Off is measured beside them, and the drafter's own plain decode speed
(its file loaded as a target) gives its cost relative to the target's.

Usage::

    python benchmarks/bench_combination_cost.py [--repeats 3] [--max-tokens 128] [--threads 2] [--json]

Needs the embedded SmolLM2 F32 file (the test suite builds it) and the Q4_1 drafter.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from typing import Any

from app.core.engines.blocking import generate
from app.devtools.assets import ASSET_DIR
from app.devtools.prompts import CONTINENTS, ELEMENTS, PLANET_FACTS

PROMPTS = [CONTINENTS, ELEMENTS, PLANET_FACTS]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="passes over the prompts")
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    os.environ["TANDEM_HOME"] = tempfile.mkdtemp(prefix="tandem-combination-")

    from app.core import assets
    from app.core.engines.base import Finished, LoadRequest, Round, Sampling
    from app.core.engines.llamacpp.engine import LlamaCppEngine
    from app.core.launch import auto
    from app.core.speculative import SpeculationOptions

    target = ASSET_DIR / "SmolLM2-135M-Instruct.F32.gguf"
    if not target.is_file():
        raise SystemExit(f"{target} is missing: run the test suite once (it builds it)")
    drafter = str(assets.smollm2_q4_path())
    configs = {
        "off": auto.OFF,
        "ngram-mod 64": auto.Candidate("ngram-mod", auto.NGRAM_DEPTH),
        "draft 8 + ngram-mod 64 (Auto's)": auto.Candidate(
            "draft+ngram-mod", 8, auto.NGRAM_DEPTH, auto.DRAFT_P_MIN
        ),
    }
    sampling = Sampling(temperature=0.0, max_tokens=args.max_tokens)

    def answer(engine: Any, prompt: str) -> tuple[float, int, list[tuple[int, int]]]:
        fin, rounds = None, []
        for ev in generate(engine, [{"role": "user", "content": prompt}], sampling):
            if isinstance(ev, Round) and ev.drafted:
                rounds.append((ev.drafted, ev.accepted))
            elif isinstance(ev, Finished):
                fin = ev
        assert fin is not None
        return fin.decode_ms, fin.completion_tokens, rounds

    engines: dict[str, Any] = {}
    rows: dict[str, dict[str, list[float]]] = {name: {} for name in configs}
    drafts: dict[str, dict[str, list[tuple[int, int]]]] = {name: {} for name in configs}
    try:
        for name, cand in configs.items():
            req = LoadRequest(str(target), cand.options(drafter), n_ctx=2048, n_threads=args.threads)
            engines[name] = LlamaCppEngine.load(req)
            answer(engines[name], "Hi")  # warm-up
        for r in range(args.repeats):
            order = list(configs) if r % 2 == 0 else list(reversed(configs))
            for prompt in PROMPTS:
                for name in order:
                    answer(engines[name], prompt)  # the first time: the n-gram table learns it
                    ms, tokens, rounds = answer(engines[name], prompt)
                    rows[name].setdefault(prompt, []).append(ms / max(1, tokens))
                    drafts[name][prompt] = rounds
            print(f"pass {r + 1} done", file=sys.stderr, flush=True)
    finally:
        for engine in engines.values():
            engine.close()
    # the drafter's own plain decode cost, as a share of the target's
    plain: dict[str, float] = {}
    for label, path in (("target", str(target)), ("drafter", drafter)):
        req = LoadRequest(path, SpeculationOptions(), n_ctx=2048, n_threads=args.threads)
        engine = LlamaCppEngine.load(req)
        try:
            answer(engine, "Hi")
            per_token = []
            for prompt in PROMPTS[:2]:
                ms, tokens, _rounds = answer(engine, prompt)
                per_token.append(ms / max(1, tokens))
            plain[label] = statistics.median(per_token)
        finally:
            engine.close()

    out: dict[str, Any] = {"drafter_cost_share": round(plain["drafter"] / plain["target"], 2), "prompts": []}
    for prompt in PROMPTS:
        entry: dict[str, Any] = {"prompt": prompt}
        off = statistics.median(rows["off"][prompt])
        for name in configs:
            ms = statistics.median(rows[name][prompt])
            rounds = drafts[name][prompt]
            entry[name] = {"ms_per_token": round(ms, 2), "vs_off": round(off / ms, 2), "rounds": rounds}
        out["prompts"].append(entry)
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"drafter's plain decode cost: {out['drafter_cost_share']:.2f} of the target's per token")
    for entry in out["prompts"]:
        print(entry["prompt"])
        for name in configs:
            e = entry[name]
            figures = f"{e['vs_off']:5.2f}x of off  ({e['ms_per_token']} ms/token)"
            print(f"  {name:34s} {figures}  drafts {e['rounds']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
