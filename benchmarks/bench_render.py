"""Render time of the chat's Markdown: a ~2,000-token answer with tables, code, lists and math.

    python benchmarks/bench_render.py [--repeat 20] [--json]

* full: ``render_markdown`` of the whole answer with drafted spans highlighted (what a loaded
  conversation or a finished short answer costs), median and max of ``--repeat`` runs.
* incremental: the answer streamed in token-sized steps (3-5 characters, ~20 flushes a second of
  a 50 tok/s model would batch about 2-3 such steps), each step doing what the chat bubble does:
  ``stable_prefix`` from the last frozen end, the newly finished blocks rendered once, the block
  being written rendered again. Per-step time: mean, p99, max; and the sum over the answer.

No Qt: this is the renderer's share of a flush; Qt's layout and painting come on top.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from app.core.chat.markdown import render_markdown, spans_in, stable_prefix

SECTION = (
    "## Part {i}\n\nA comparison of the **three** options, with `code` and ~~old~~ notes:\n\n"
    "| option | speed | memory | note |\n|---|---:|---:|---|\n"
    "| alpha | 12.5 | 300 MB | the *default* |\n| beta | 19.0 | 420 MB | needs `--fast` |\n"
    "| gamma | 7.25 | 180 MB | see https://example.com/gamma |\n\n"
    "```python\ndef speed(tokens: int, seconds: float) -> float:\n    # tokens per second\n"
    "    if seconds <= 0:\n        raise ValueError('no time')\n    return tokens / seconds\n```\n\n"
    "1. measure the **baseline**\n   - warm up first\n   - then three runs\n2. compare: $t = n / s$\n\n"
    "> The numbers are from one machine.\n\n"
)


def answer(tokens: int = 2000) -> str:
    """Sections until the text is about ``tokens`` tokens (4 characters a token)."""
    parts, i = [], 0
    while sum(map(len, parts)) < tokens * 4:
        parts.append(SECTION.format(i=i))
        i += 1
    return "".join(parts)


def drafted(text: str, seed: int = 0) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    spans, pos = [], 0
    while pos < len(text):
        start = pos + rng.randint(0, 12)
        spans.append((start, min(len(text), start + rng.randint(1, 20))))
        pos = spans[-1][1] + 1
    return spans


def full(text: str, spans: list[tuple[int, int]], repeat: int) -> dict[str, float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        render_markdown(text, spans, highlight="#dcefe3")
        times.append((time.perf_counter() - t0) * 1000)
    return {"median_ms": statistics.median(times), "max_ms": max(times)}


def incremental(text: str, spans: list[tuple[int, int]]) -> dict[str, float]:
    rng = random.Random(1)
    frozen_end, pos, steps = 0, 0, []
    while pos < len(text):
        pos = min(len(text), pos + rng.randint(3, 5))
        shown = text[:pos]
        mine = [(a, min(b, pos)) for a, b in spans if a < pos]
        t0 = time.perf_counter()
        end = stable_prefix(shown, frozen_end)
        if end > frozen_end:
            render_markdown(shown[frozen_end:end], spans_in(mine, frozen_end, end), highlight="#dcefe3")
            frozen_end = end
        render_markdown(shown[end:] or "…", spans_in(mine, end), highlight="#dcefe3")
        steps.append((time.perf_counter() - t0) * 1000)
    steps.sort()
    return {
        "steps": len(steps),
        "mean_ms": statistics.fmean(steps),
        "p99_ms": steps[int(len(steps) * 0.99)],
        "max_ms": steps[-1],
        "total_ms": sum(steps),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    text = answer()
    spans = drafted(text)
    render_markdown(text, spans, highlight="#dcefe3")  # imports, lexers and styles loaded
    result = {
        "chars": len(text),
        "full": full(text, spans, args.repeat),
        "incremental": incremental(text, spans),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    f, inc = result["full"], result["incremental"]
    print(f"answer: {result['chars']} characters (~{result['chars'] // 4} tokens)")
    print(f"full render: median {f['median_ms']:.1f} ms, max {f['max_ms']:.1f} ms")
    print(
        f"incremental: {inc['steps']} steps, mean {inc['mean_ms']:.2f} ms, p99 {inc['p99_ms']:.2f} ms,"
        f" max {inc['max_ms']:.2f} ms, total {inc['total_ms']:.0f} ms"
    )


if __name__ == "__main__":
    main()
