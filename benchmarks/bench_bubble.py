"""What one flush of a streaming answer costs the chat bubble, offscreen: the render and
``setText`` (``set_content``), then Qt's layout and paint, per quarter of the answer.

    python benchmarks/bench_bubble.py [--text FILE | --chars 2400] [--step 5] [--json]

The default answer is one long Python fence (~2,400 characters, as SmolLM2 answers the
``BENCH_LONG_PROMPT=code`` question of ``bench_ui.py``: the fence runs to the end), streamed
``--step`` characters per flush (5: about 4 tokens, a 50 ms flush of an 80 tok/s model). A code
block being written is the block the bubble renders again on every flush (prose freezes its
finished paragraphs), so it is the bubble's worst case.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path


def default_answer(chars: int = 2400) -> str:
    lines = ["```python", "# Sorting algorithms, one after another"]
    i = 0
    while sum(len(x) + 1 for x in lines) < chars:
        lines += [
            f"def sort_{i}(items: list[int]) -> list[int]:",
            "    # swap neighbours until nothing moves",
            "    done = False",
            "    while not done:",
            "        done = True",
            "        for j in range(len(items) - 1):",
            "            if items[j] > items[j + 1]:",
            "                items[j], items[j + 1] = items[j + 1], items[j]",
            "                done = False",
            f"    return items  # variant {i}",
            "",
        ]
        i += 1
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--text", type=Path, help="the answer to stream (default: a long Python fence)")
    ap.add_argument("--step", type=int, default=5, help="characters per flush")
    ap.add_argument("--chars", type=int, default=2400, help="length of the default answer")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    from app.gui.views.chat import MessageBubble

    text = args.text.read_text() if args.text else default_answer(args.chars)
    bubble = MessageBubble("assistant")
    bubble.resize(700, 400)
    bubble.show()
    bubble.set_status("streaming")
    flushes: list[tuple[float, float]] = []  # (set_content ms, layout and paint ms)
    for end in range(args.step, len(text) + args.step, args.step):
        t0 = time.perf_counter()
        bubble.set_content(text[:end], [])
        t1 = time.perf_counter()
        bubble.adjustSize()
        bubble.repaint()
        flushes.append(((t1 - t0) * 1000, (time.perf_counter() - t1) * 1000))
    q = max(1, len(flushes) // 4)
    quarters = [
        {
            "set_content_p50_ms": round(statistics.median(c for c, _ in part), 2),
            "layout_paint_p50_ms": round(statistics.median(p for _, p in part), 2),
            "max_ms": round(max(c + p for c, p in part), 1),
        }
        for part in (flushes[i * q : (i + 1) * q] for i in range(4))
        if part
    ]
    out = {
        "characters": len(text),
        "flushes": len(flushes),
        "sum_ms": round(sum(c + p for c, p in flushes)),
        "quarters": quarters,
    }
    bubble.close()
    app.processEvents()
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"{out['characters']} characters in {out['flushes']} flushes, {out['sum_ms']} ms in all")
        for i, row in enumerate(quarters, 1):
            print(f"  quarter {i}: {row}")


if __name__ == "__main__":
    main()
