"""How often a streaming answer is shown and saved: the rules.

One timer serves every running answer; each tick feeds an answer its queued events and repaints
its bubble, if shown, once: never once a token. The shown answer's flushes set the interval:
FLUSH_INTERVAL_MS, LONG_FLUSH_INTERVAL_MS once the answer is past LONG_ANSWER_CHARS, stretched so
that a flush typically (the median of the last FLUSH_COST_WINDOW) takes about FLUSH_SHARE of it,
up to MAX_FLUSH_INTERVAL_MS. An answer's row is saved at most every SAVE_INTERVAL_S.
"""

from __future__ import annotations

import statistics

FLUSH_INTERVAL_MS = 50
#: A streaming answer longer than this (characters) is shown every LONG_FLUSH_INTERVAL_MS: each
#: update lays out and paints a taller bubble, CPU the engine shares on a small machine (the
#: figures behind it: docs/benchmarks.md, "long answers in the window")
LONG_ANSWER_CHARS = 2000
LONG_FLUSH_INTERVAL_MS = 100
#: a flush (render and lay out the block being written) may take about this share of the time
#: between two flushes; a slower one stretches the interval, up to MAX_FLUSH_INTERVAL_MS: a long
#: code block being written is laid out whole on each flush, so its cost grows with the block
FLUSH_SHARE = 0.04
MAX_FLUSH_INTERVAL_MS = 400
#: the flushes whose median cost sets the interval
FLUSH_COST_WINDOW = 5


def typical_cost(costs: list[float]) -> float:
    """What a flush typically costs (ms) from the last few ``costs``: their median, once there
    are three. One slow flush (a lexer's or a formula's first use, a busy moment) does not slow
    the updates that follow; a long block's flushes, all slow, do."""
    return statistics.median(costs) if len(costs) >= 3 else 0.0


def flush_interval(cost_ms: float, long: bool) -> int:
    """The interval until the next flush (ms) for flushes costing ``cost_ms`` (typically)
    in an answer that is ``long`` (over LONG_ANSWER_CHARS) or not."""
    base = LONG_FLUSH_INTERVAL_MS if long else FLUSH_INTERVAL_MS
    return int(min(MAX_FLUSH_INTERVAL_MS, max(base, cost_ms / FLUSH_SHARE)))


#: the streaming answer is saved at most this often (seconds)
SAVE_INTERVAL_S = 1.0
