"""What the small steps on every request or every listing cost (timings kept out of the tests).

    python benchmarks/bench_hot_paths.py [--repeat 5] [--json]

* ``registry_status``: ``tandem models`` / the browser's status of every built-in family (an empty
  temporary ``TANDEM_HOME``: nothing downloaded), per call;
* ``suffix_speculate``: one draft of 16 tokens from suffix decoding's tree over a full, repetitive
  corpus (200k tokens of 50 distinct ids: common n-grams with many hits), per call; it runs once per
  decoding step, next to a forward pass of tens of ms on a CPU;
* ``classify``: Auto's request kind (prose, code, repeat) of a 20 kB conversation, per call; it runs
  before every request of ``tandem serve --spec auto``.

Each figure is the best of ``--repeat`` batches (the machine may be shared). The unit tests do not
assert these times (a busy machine would fail any bound): they check what the steps return, and
the figures live in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

STORY = (
    "The lighthouse keeper climbed the spiral stairs every evening, counting the steps as his father "
    "had taught him, and every evening the dragon on the far rock lifted its head to watch the lamp. "
)
PY_FILE = (
    "def merge(a: list[int], b: list[int]) -> list[int]:\n"
    "    out = []\n"
    "    i = j = 0\n"
    "    while i < len(a) and j < len(b):\n"
    "        if a[i] <= b[j]:\n"
    "            out.append(a[i]); i += 1\n"
    "        else:\n"
    "            out.append(b[j]); j += 1\n"
    "    return out + a[i:] + b[j:]\n\n"
)


def best_per_call(fn: Callable[[], Any], calls: int, repeat: int) -> float:
    """Seconds per call: the best of ``repeat`` batches of ``calls`` calls."""
    batches = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        batches.append((time.perf_counter() - start) / calls)
    return min(batches)


def registry_status_case(repeat: int) -> dict[str, Any]:
    from app.core.cache import registry_status
    from app.core.registry import Registry

    reg = Registry.load()
    return {
        "case": "registry_status",
        "families": len(reg.families),
        "ms_per_call": round(1000 * best_per_call(lambda: registry_status(reg), 5, repeat), 1),
    }


def suffix_case(repeat: int) -> dict[str, Any]:
    from app.core.speculative import suffix as sx
    from app.core.speculative.suffix import SuffixCache

    cache = SuffixCache(max_cached_tokens=sx.DEFAULT_MAX_TOKENS)
    for i in range(400):
        cache.learn([], [(i * 7 + j) % 50 for j in range(500)])
    cache.start_request("q", list(range(20)))
    ctx = [(3 * 7 + j) % 50 for j in range(40)]
    cache.speculate("q", ctx, 16)
    return {
        "case": "suffix_speculate",
        "corpus_tokens": 200_000,
        "ms_per_call": round(1000 * best_per_call(lambda: cache.speculate("q", ctx, 16), 50, repeat), 2),
    }


def classify_case(repeat: int) -> dict[str, Any]:
    from app.core.launch.auto import classify

    def msg(role: str, text: str) -> dict[str, Any]:
        return {"role": role, "content": text}

    turns: list[dict[str, Any]] = []
    for i in range(16):
        turns += [
            msg("user", f"Question {i}: tell me more about part {i} of the story, with new details."),
            msg("assistant", STORY * 6 + f" Part {i}."),
        ]
    cases = {
        "prose": [*turns, msg("user", "Tell me something completely different about mountains and rivers.")],
        "repeat": [*turns, msg("user", "Rewrite this: " + STORY * 4)],
        "code": [*turns, msg("user", f"```python\n{PY_FILE * 6}```\nAdd type hints.")],
    }
    size = sum(len(m["content"]) for m in turns)
    per_kind = {
        kind: round(1000 * best_per_call(lambda m=messages: classify(m), 40, repeat), 3)
        for kind, messages in cases.items()
    }
    return {"case": "classify", "conversation_chars": size, "ms_per_call": per_kind}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=5, help="batches per figure, the best is kept")
    parser.add_argument("--json", action="store_true", help="one JSON object per case")
    args = parser.parse_args(argv)
    home = Path(tempfile.mkdtemp(prefix="tandem-bench-hot-"))
    os.environ["TANDEM_HOME"] = str(home / "tandem")
    os.environ["HF_HOME"] = str(home / "hf")
    os.environ["MODELSCOPE_CACHE"] = str(home / "modelscope")
    try:
        rows = [registry_status_case(args.repeat), suffix_case(args.repeat), classify_case(args.repeat)]
    finally:
        shutil.rmtree(home, ignore_errors=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    for row in rows:
        print(json.dumps(row) if args.json else f"{row.pop('case')}: {row}")
    if not args.json:
        print(f"load average {load:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
