"""How often a streaming answer is shown and saved.

An answer's events are queued as they arrive. One timer serves every running answer: on each tick
an answer takes its queued events and its bubble, if shown, is repainted with them: once a tick,
never once a token.
The shown answer's flushes set the interval: FLUSH_INTERVAL_MS, LONG_FLUSH_INTERVAL_MS once the
answer is past LONG_ANSWER_CHARS, stretched so that a flush typically (the median of the last
FLUSH_COST_WINDOW) takes about FLUSH_SHARE of it, up to MAX_FLUSH_INTERVAL_MS. A new answer starts
the ticks at FLUSH_INTERVAL_MS unless they run already.

An answer's row is saved as it grows, at most every SAVE_INTERVAL_S, so a crash or a kill loses at
most that much of it; the next start shows it as ``interrupted`` with Regenerate. A save that
fails (a full or locked disk) is logged and the answer goes on; a removed answer is not saved.
"""

from __future__ import annotations

import logging
import sqlite3
import statistics
import time

from PySide6.QtCore import QObject, QTimer

from app.core.chat import ChatStore
from app.gui.controllers.chat.answers import RunningAnswer, RunningAnswers
from app.gui.views.chat import ChatView

log = logging.getLogger(__name__)

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

#: the streaming answer is saved at most this often (seconds)
SAVE_INTERVAL_S = 1.0


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


class AnswerPacer:
    """The flush timer of the running answers, and what a flush does to one of them. Its owner
    connects ``timer.timeout`` to a slot that calls :meth:`tick`."""

    def __init__(self, answers: RunningAnswers, store: ChatStore, view: ChatView, parent: QObject) -> None:
        self.answers = answers
        self.store = store
        self.view = view
        self.timer = QTimer(parent)
        self.timer.setInterval(FLUSH_INTERVAL_MS)

    def start(self) -> None:
        """An answer started: the ticks run, from FLUSH_INTERVAL_MS unless they ran already."""
        if not self.timer.isActive():
            self.timer.setInterval(FLUSH_INTERVAL_MS)
            self.timer.start()

    def stop(self) -> None:
        """No answer runs: no more ticks."""
        self.timer.stop()

    def tick(self) -> None:
        """Every running answer takes its new events; the shown one is repainted, and its cost
        sets the next tick."""
        for answer in self.answers.all():
            self.flush(answer)

    def flush(self, answer: RunningAnswer, settle: bool = True) -> None:
        """``answer`` takes its queued events; its bubble, if shown, shows them (laid out at once
        when ``settle``), and the row is saved when it is due."""
        events, answer.queued = answer.queued, []
        for ev in events:
            answer.builder.feed(ev)
        if events and answer.bubble is not None:
            started = time.perf_counter()
            answer.bubble.set_content(answer.builder.text, answer.builder.draft_spans)
            if settle:
                self.view.settle()
            costs = answer.flush_costs
            costs.append((time.perf_counter() - started) * 1000)
            del costs[:-FLUSH_COST_WINDOW]
            interval = flush_interval(typical_cost(costs), len(answer.builder.text) > LONG_ANSWER_CHARS)
            if self.timer.interval() != interval:
                self.timer.setInterval(interval)
        now = time.monotonic()
        if now - answer.saved_at >= SAVE_INTERVAL_S and len(answer.builder.text) != answer.saved_len:
            self._save_partial(answer, now)

    def _save_partial(self, answer: RunningAnswer, now: float) -> None:
        """Keep the text so far on disk: a crash loses at most one interval of the answer."""
        answer.saved_at = now
        if answer.removed:
            return
        try:
            self.store.update_message(
                answer.message_id, answer.builder.text, draft_spans=answer.builder.draft_spans
            )
        except sqlite3.Error as exc:  # a full or locked disk must not stop the answer
            log.warning("streaming answer not saved: %s", exc)
            return
        answer.saved_len = len(answer.builder.text)
