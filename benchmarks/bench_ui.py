"""Event-loop stalls of the real window: how long the GUI thread goes without running its loop.

    python benchmarks/bench_ui.py [--cases startup,stream,browser,download] [--xvfb] [--json]
    python benchmarks/bench_ui.py --cases long-answer,long-conversation --xvfb   # long answers
    python benchmarks/bench_ui.py --cases long-answer-scripted --xvfb   # the window alone, no model
        (BENCH_LONG_TOKENS=256,2000,8000 BENCH_LONG_METHODS=off,ngram-mod BENCH_LONG_PROMPT=story by default)

A 2 ms precise ``QTimer`` ticks on the GUI thread; every interval between two ticks is recorded
and the gaps are reported as p50 / p99 / max in milliseconds (an idle loop shows ~2 ms; a frozen
window shows the freeze). Each case runs in its own process (cold imports, a fresh temporary
``TANDEM_HOME``):

* ``startup``: from the first shown frame of the window while it reopens its start-up model
  (the embedded SmolLM2 Q4_1 on llama.cpp) until that model is loaded and the background checks
  are done (+0.5 s). The window's construction before it can first paint is reported on its own
  (``construct_ms``): the loop cannot run before the window exists.
* ``stream``: an answer of up to 256 tokens from SmolLM2 Q4_1 streaming at full speed with the
  draft-token highlight on.
* ``browser``: the model browser over a registry of 50 families, every status re-probed three
  times (the "changed" broadcast) while the selection walks through all 50 families.
* ``download``: a 6 MB file downloaded from a loopback olah hub through a proxy throttled to
  2 MB/s, progress shown in the Downloads page.

``--xvfb`` starts ``Xvfb :99`` for a real X server (else ``QT_QPA_PLATFORM`` decides; offscreen
when unset and no ``DISPLAY``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.devtools.scripted import ScriptedStream

ROOT = Path(__file__).resolve().parents[1]

CASES = ("startup", "stream", "browser", "download")
#: long answers in the window against `tandem generate` for the same answer, side by
#: side, and opening a long conversation (run with --cases long-answer,long-conversation)
LONG_CASES = ("long-answer", "long-conversation", "long-answer-scripted", "switch-first-token")
#: BENCH_LONG_PROMPT picks the question: "story" (prose, the default) or "code" (SmolLM2 answers it
#: with one Python fence that runs to the end of the answer: the chat re-renders and highlights
#: the fence being written on every flush, the renderer's worst case)
LONG_PROMPTS = {
    "story": (
        "Write a very long story about a lighthouse keeper and a dragon, with many chapters and lots "
        "of dialogue."
    ),
    "code": (
        "Write a long technical guide in Markdown about sorting algorithms. For each algorithm give a "
        "Markdown table comparing time and space complexity, and a Python code block implementing it."
    ),
}
LONG_PROMPT = LONG_PROMPTS[os.environ.get("BENCH_LONG_PROMPT", "story")]
TICK_MS = 2
#: a case process that has not answered by then is stopped and reported, never waited on forever
CASE_TIMEOUT_S = 1800


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


# --- inside a case process ------------------------------------------------------------------------


class Meter:
    """Intervals between ticks of a 2 ms precise timer on the GUI thread."""

    def __init__(self) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.gaps: list[float] = []
        self.times: list[float] = []  # when each gap ended (perf_counter seconds)
        #: the GUI thread's CPU time in each gap: its own work, apart from waiting for a core
        self.cpu: list[float] = []
        self._last: float | None = None
        self._last_cpu = 0.0
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        if self._last is not None:
            self.gaps.append((now - self._last) * 1000)
            self.times.append(now)
            self.cpu.append((cpu - self._last_cpu) * 1000)
        self._last, self._last_cpu = now, cpu

    def start(self) -> None:
        self._last, self._last_cpu = time.perf_counter(), time.thread_time()
        self.timer.start()
        if os.environ.get("BENCH_UI_TRACE"):
            threading.Thread(target=self._watch, name="bench-watchdog", daemon=True).start()

    def _watch(self) -> None:
        """Print where the GUI thread is while it misses ticks (``BENCH_UI_TRACE=1``)."""
        import traceback

        main = threading.main_thread().ident
        while self.timer.isActive():
            time.sleep(0.05)
            last = self._last
            if last is not None and time.perf_counter() - last > 0.05 and main is not None:
                names = {t.ident: t.name for t in threading.enumerate()}
                lines = [f"STALL {1000 * (time.perf_counter() - last):.0f} ms"]
                for ident, frame in sys._current_frames().items():
                    if names.get(ident) == "bench-watchdog":
                        continue
                    depth = 6 if ident == main else 3
                    lines.append(f"-- {names.get(ident, ident)}")
                    lines += traceback.format_stack(frame)[-depth:]
                print("\n".join(lines), file=sys.stderr)

    def stop(self) -> dict[str, float]:
        self.timer.stop()
        g = self.gaps
        return {
            "n": len(g),
            "p50": round(percentile(g, 0.50), 1),
            "p99": round(percentile(g, 0.99), 1),
            "max": round(max(g) if g else 0.0, 1),
        }


def spin_until(cond: Callable[[], bool], timeout: float, interval_ms: int = 5) -> None:
    """Run the real event loop (blocking while idle, like ``app.exec()``) until ``cond()``.

    ``processEvents(flags, maxtime)`` in a Python loop never blocks (Qt ignores
    WaitForMoreEvents with a time limit): the GUI thread spun a whole core, which starved the
    engine (Q4_1 streamed at 37 tok/s instead of ~120) and measured a harness, not the app.
    """
    from PySide6.QtCore import QEventLoop, QTimer

    if cond():
        return
    deadline = time.monotonic() + timeout
    loop = QEventLoop()
    timed_out: list[bool] = []

    def check() -> None:
        if cond():
            loop.quit()
        elif time.monotonic() > deadline:
            timed_out.append(True)
            loop.quit()

    poll = QTimer()
    poll.setInterval(interval_ms)
    poll.timeout.connect(check)
    poll.start()
    loop.exec()
    poll.stop()
    if timed_out:
        raise TimeoutError("the case did not finish in time")


def spin_for(seconds: float) -> None:
    end = time.monotonic() + seconds
    spin_until(lambda: time.monotonic() >= end, seconds + 5)


def make_window(registry: Any = None, settings: Any = None, **extra: Any) -> Any:
    from app.core.settings import Settings
    from app.gui import app as gui_app
    from app.gui.app import create_application
    from app.gui.errors import ErrorBridge
    from app.gui.i18n import I18n
    from app.gui.main_window import MainWindow
    from app.gui.ops import event_loop

    freeze_startup_heap = getattr(gui_app, "freeze_startup_heap", None)  # absent at older commits
    app = create_application([])
    event_loop()
    kwargs: dict[str, Any] = {"registry": registry} if registry is not None else {}
    kwargs.update(extra)
    window = MainWindow(settings or Settings(), I18n(app), ErrorBridge(), save_settings=False, **kwargs)
    window.resize(1200, 780)
    if freeze_startup_heap is not None:  # as run_gui does once the window is up
        freeze_startup_heap()
    return window


def close(window: Any) -> None:
    window.close()
    spin_for(0.2)


def case_startup() -> dict[str, Any]:
    from app.gui.app import create_application

    create_application([])
    meter = Meter()
    t0 = time.perf_counter()
    window = make_window()
    construct_ms = (time.perf_counter() - t0) * 1000
    loaded: list[object] = []
    window.modelLoaded.connect(loaded.append)
    window.show()
    meter.start()
    window.load_startup_model()
    spin_until(lambda: bool(loaded) and window.ops.pending() == 0, 180)
    spin_for(0.5)
    result = meter.stop()
    close(window)
    return {**result, "construct_ms": round(construct_ms, 1)}


def case_stream() -> dict[str, Any]:
    window = make_window()
    window.show()
    loaded: list[object] = []
    window.modelLoaded.connect(loaded.append)
    window.load_default_model()
    spin_until(lambda: bool(loaded) and window.ops.pending() == 0, 180)
    window.chat_view.highlight_btn.setChecked(True)
    window.chat.sampling = window.chat.sampling.__class__(temperature=0.0, max_tokens=256)
    finished: list[Any] = []
    window.chat.answerFinished.connect(finished.append)
    spin_for(0.3)
    meter = Meter()
    meter.start()
    window.chat.send("Write a short story about a lighthouse keeper, in five paragraphs.")
    spin_until(lambda: bool(finished), 300)
    result = meter.stop()
    stats = finished[0]
    close(window)
    return {**result, "tokens": stats.completion_tokens, "tok_s": round(stats.decode_tps, 1)}


def _window_answer(tokens: int, method: str | None) -> dict[str, Any]:
    """One greedy answer of ``tokens`` tokens in the window (SmolLM2 Q4_1, highlight on),
    speculation off or ``method``; tick gaps per quarter of the answer."""
    from app.core.launch.plan import LaunchChoice
    from app.core.settings import Settings
    from app.core.speculative import SpeculationOptions

    window = make_window(settings=Settings(default_speculation="off"))
    window.show()
    family, spec, _q = window.registry.match("smollm2-135m-instruct", "gguf")
    sampling = window.chat.sampling.__class__(temperature=0.0, max_tokens=tokens)
    options = SpeculationOptions.build(enabled=bool(method), method=method or "draft")
    loaded: list[object] = []
    window.modelLoaded.connect(loaded.append)
    window.launch(LaunchChoice(family, spec, "Q4_1", "llama.cpp", options, 8192 + 256, None, sampling))
    spin_until(lambda: bool(loaded) and window.ops.pending() == 0, 180)
    window.chat_view.highlight_btn.setChecked(True)
    window.chat.sampling = sampling
    # A window opens on the newest conversation: each answer starts a chat of its own (earlier
    # answers in the history would make the prompt longer and, at 8000 tokens, fill the context).
    window.new_chat()
    finished: list[Any] = []
    window.chat.answerFinished.connect(finished.append)
    spin_for(0.3)
    meter = Meter()
    marks: list[tuple[float, int]] = []  # (time, characters shown) to cut the gaps into quarters
    # BENCH_LONG_PROBE=0: no 2 ms tick timer nor 100 ms poll on the GUI thread (they cost CPU the
    # engine shares on a 2-core machine): the speed as a user's window has it, without tick gaps
    probe = os.environ.get("BENCH_LONG_PROBE", "1") != "0"
    poll = None
    if probe:
        poll = make_poll(lambda: marks.append((time.perf_counter(), len(window.chat_view.bubbles[-1].text))))
        meter.start()
    t0 = time.perf_counter()
    window.chat.send(LONG_PROMPT)
    spin_until(lambda: bool(finished), 900, 5 if probe else 200)
    result: dict[str, Any] = {}
    if poll is not None:
        poll.stop()
        result = meter.stop()
    stats = finished[0]
    quarters = quarter_gaps(meter, t0, marks)
    close(window)
    return {
        **result,
        "tokens": stats.completion_tokens,
        "tok_s": round(stats.decode_tps, 1),
        "finish": stats.finish_reason,
        "prompt_tokens": stats.prompt_tokens,
        "quarters": quarters,
    }


def make_poll(fn: Callable[[], None]) -> Any:
    from PySide6.QtCore import QTimer

    timer = QTimer()
    timer.setInterval(100)
    timer.timeout.connect(fn)
    timer.start()
    return timer


def quarter_gaps(meter: Meter, t0: float, marks: list[tuple[float, int]]) -> list[dict[str, float]]:
    """p99 / max tick gap in each quarter of the answer (quarters of its characters)."""
    if not marks or not meter.times:
        return []
    total = marks[-1][1] or 1
    bounds = [next((t for t, n in marks if n >= total * q / 4), marks[-1][0]) for q in (1, 2, 3)]
    edges = [t0, *bounds, float("inf")]
    out = []
    for lo, hi in itertools.pairwise(edges):
        g = [gap for when, gap in zip(meter.times, meter.gaps, strict=True) if lo <= when < hi]
        out.append({"p99": round(percentile(g, 0.99), 1), "max": round(max(g) if g else 0.0, 1)})
    return out


def cli_answer(tokens: int, method: str | None) -> dict[str, Any]:
    """The same answer from `tandem generate --json` (same model, prompt, context and method)."""
    cmd = [sys.executable, "-m", "app", "generate", "smollm2-135m-instruct", "--quant", "Q4_1",
           "--prompt", LONG_PROMPT, "--temperature", "0", "--max-tokens", str(tokens),
           "--ctx", str(8192 + 256), "--json"]  # fmt: skip
    cmd += ["--spec", "on", "--spec-method", method] if method else ["--spec", "off"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    return {
        "tokens": data["completion_tokens"],
        "tok_s": round(float(data["decode_tokens_per_second"]), 1),
        "prompt_tokens": data["prompt_tokens"],
    }


def case_long_answer() -> dict[str, Any]:
    """GUI decode speed against the CLI's for the same answer, alternating, per length and method."""
    lengths = [int(x) for x in os.environ.get("BENCH_LONG_TOKENS", "256,2000,8000").split(",")]
    methods = [
        None if m == "off" else m for m in os.environ.get("BENCH_LONG_METHODS", "off,ngram-mod").split(",")
    ]
    # BENCH_LONG_PAIRS=N: N CLI/window pairs per length and method, alternating; the row's ratio
    # is the median of the pairs' ratios (one pair moves by more than the effect on 2 cores)
    pairs = max(1, int(os.environ.get("BENCH_LONG_PAIRS", "1")))
    rows = []
    for tokens in lengths:
        for method in methods:
            ratios: list[float] = []
            for _pair in range(pairs):
                cli = cli_answer(tokens, method)
                gui = _window_answer(tokens, method)
                if cli["tok_s"]:
                    ratios.append(round(gui["tok_s"] / cli["tok_s"], 3))
            rows.append(
                {
                    "tokens": tokens,
                    "method": method or "off",
                    "prompt": os.environ.get("BENCH_LONG_PROMPT", "story"),
                    "gui_tok_s": gui["tok_s"],
                    "cli_tok_s": cli["tok_s"],
                    "ratio": round(statistics.median(ratios), 3) if ratios else None,
                    "ratios": ratios,
                    "gui_tokens": gui["tokens"],
                    "gui_finish": gui["finish"],
                    "gui_prompt_tokens": gui["prompt_tokens"],
                    "cli_tokens": cli["tokens"],
                    "cli_prompt_tokens": cli["prompt_tokens"],
                    "p99": gui.get("p99", 0.0),
                    "max": gui.get("max", 0.0),
                    "quarters": gui["quarters"],
                }
            )
    worst = max(rows, key=lambda r: r["p99"])
    return {"n": len(rows), "p50": 0.0, "p99": worst["p99"], "max": max(r["max"] for r in rows), "rows": rows}


LONG_MESSAGE = (
    "## Part {i}\n\nHere is the function:\n\n```python\ndef square(x):\n    return x * x\n\n\n"
    "print(square({i}))\n```\n\nSteps:\n\n1. read the number\n2. square it\n\n"
    "| name | size |\n|------|------|\n| 小 | 1 |\n| 大 | 2 |\n\n"
    "这是一个很长的中文段落，用来检查懒加载。日本語の文です。한국어 문단입니다.\n\n"
)


def long_conversation(store: Any) -> int:
    """200 messages, user and assistant in turn; a quarter of them ~600 words with a code block, a
    list, a table and CJK text; the long answers and every third short one with draft spans."""
    conv = store.create_conversation("long")
    for i in range(200):
        role = "user" if i % 2 == 0 else "assistant"
        text = f"Question {i}?" if role == "user" else f"Answer {i}."
        if i % 4 == 1:
            text = LONG_MESSAGE.format(i=i) + " ".join(f"word{j}" for j in range(600))
        spans = None
        if role == "assistant" and (i % 4 == 1 or i % 3 == 0):
            spans = [(a, min(a + 12, len(text))) for a in range(0, len(text), 40)]
        store.add_message(conv.id, role, text, draft_spans=spans)
    return int(conv.id)


def case_switch_first_token() -> dict[str, Any]:
    """The first token after a conversation switch against a plain answer's.

    The window loads the embedded SmolLM2 Q4_1 with its drafter (llama.cpp, 4 slots: the window's
    pool). Two conversations are asked once each. Then, BENCH_SWITCH_ROUNDS times (default 6),
    alternating which comes first: a follow-up in the conversation on screen ("plain": the last
    answer's conversation, its prompt cached in its slot) and a follow-up in the other conversation,
    opened from the list just before ("switch"). Time from Send to the first text in the bubble;
    medians, and their ratio.
    """
    from app.core.launch.plan import LaunchChoice
    from app.core.settings import Settings
    from app.core.speculative import SpeculationOptions

    rounds = int(os.environ.get("BENCH_SWITCH_ROUNDS", "6"))
    window = make_window(settings=Settings(default_speculation="off"))
    window.show()
    family, spec, _q = window.registry.match("smollm2-135m-instruct", "gguf")
    sampling = window.chat.sampling.__class__(temperature=0.0, max_tokens=32)
    options = SpeculationOptions.build(enabled=True, method="draft", num_speculative_tokens=8)
    loaded: list[object] = []
    window.modelLoaded.connect(loaded.append)
    window.launch(LaunchChoice(family, spec, "Q4_1", "llama.cpp", options, 4096, None, sampling))
    spin_until(lambda: bool(loaded) and window.ops.pending() == 0, 180)
    window.chat.sampling = sampling
    finished: list[Any] = []
    window.chat.answerFinished.connect(finished.append)

    def ask(text: str) -> float:
        done = len(finished)
        t0 = time.perf_counter()
        window.chat.send(text)
        bubble = window.chat_view.bubbles[-1]
        spin_until(lambda: bool(bubble.text), 120, 1)
        first = time.perf_counter() - t0
        spin_until(lambda: len(finished) > done, 120)
        return first * 1000

    conversations = []
    for topic in ("the sea", "the mountains"):
        window.new_chat()
        ask(f"Write two sentences about {topic}.")
        conversations.append(window.chat.conversation_id)
    times: dict[str, list[float]] = {"plain": [], "switch": []}
    for r in range(rounds):
        for kind in ("plain", "switch") if r % 2 == 0 else ("switch", "plain"):
            if kind == "switch":
                other = next(c for c in conversations if c != window.chat.conversation_id)
                window.chat.open_conversation(other)
                spin_for(0.05)
            times[kind].append(ask(f"And one more sentence, number {r}."))
    close(window)
    plain, switch = statistics.median(times["plain"]), statistics.median(times["switch"])
    return {
        "n": rounds,
        "p50": 0.0,
        "p99": 0.0,
        "max": 0.0,
        "plain_ms": round(plain, 1),
        "switch_ms": round(switch, 1),
        "ratio": round(switch / plain, 3),
        "plain_runs": [round(t, 1) for t in times["plain"]],
        "switch_runs": [round(t, 1) for t in times["switch"]],
    }


def case_long_conversation() -> dict[str, Any]:
    """Open a 200-message conversation (a quarter of them long): the time until its first paint,
    until every message is built, and the stalls meanwhile (from the call that opens it)."""
    window = make_window()
    window.show()
    cid = long_conversation(window.store)
    spin_for(0.5)
    meter = Meter()
    meter.start()
    t0 = time.perf_counter()
    window.chat.open_conversation(cid)
    window.chat_view.repaint()  # the first paint, synchronously
    first_paint_ms = (time.perf_counter() - t0) * 1000
    spin_until(lambda: window.chat_view.pending_messages() == 0, 60)
    built_ms = (time.perf_counter() - t0) * 1000
    spin_for(0.5)
    result = meter.stop()
    close(window)
    return {
        **result,
        "first_paint_ms": round(first_paint_ms, 1),
        "all_built_ms": round(built_ms, 1),
        "open_gap_ms": round(meter.gaps[0], 1) if meter.gaps else 0.0,  # the turn that opens it
        "max_after_open_ms": round(max(meter.gaps[1:], default=0.0), 1),
        "cpu_max_ms": round(max(meter.cpu, default=0.0), 1),  # GUI-thread CPU in the worst gap
    }


SCRIPTED_TEXT = (
    "## Chapter {i}\n\nThe keeper climbed the stairs, counting them as always. **The lamp** was "
    "cold, and the dragon waited on the rocks below.\n\n```python\ndef light(lamp):\n"
    "    lamp.fuel -= 1\n    return lamp.fuel > 0\n```\n\n- oil\n- wick\n- glass\n\n"
    "| hour | ships |\n|---|---|\n| 1 | 2 |\n\n灯台守は竜と話した。这是一个故事。등대지기.\n\n"
)


class PacedEngine(ScriptedStream):
    """Streams a fixed Markdown story word by word at ``tps`` tokens per second, every other word
    from a draft: the window's cost apart from any model (the long-answer cases)."""

    name = "scripted"
    model_path = "scripted"
    spec_kind: str | None = None
    supports_tools = False
    supports_images = False
    supports_structured_output = False
    candidates_with_speculation = False

    def __init__(self, tokens: int, tps: float) -> None:
        self.tokens, self.tps = tokens, tps

    def script(self, messages: Any, sampling: Any, cancel: Any = None, **_kw: Any) -> Any:
        from app.core.engines.base import Finished, TextDelta

        words: list[str] = []
        i = 0
        while len(words) < self.tokens:
            words += SCRIPTED_TEXT.format(i=i).split(" ")
            i += 1
        start = time.perf_counter()
        for n, word in enumerate(words[: self.tokens]):
            if cancel is not None and cancel.cancelled:
                break
            delay = start + n / self.tps - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            yield TextDelta(word + " ", 1, from_draft=n % 2 == 1)
        decode_ms = (time.perf_counter() - start) * 1000
        yield Finished("stop", 10, self.tokens, 5.0, decode_ms, 0, 0)

    def close(self) -> None:
        pass


def _scripted_answer(tokens: int, tps: float, flushes: list[tuple[float, float]]) -> dict[str, Any]:
    from app.core.settings import Settings

    engine = PacedEngine(tokens, tps)
    window = make_window(settings=Settings(default_speculation="off"), loader=lambda _n, _r, _p: engine)
    window.show()
    loaded: list[object] = []
    window.modelLoaded.connect(loaded.append)
    window.load_default_model()
    spin_until(lambda: bool(loaded) and window.ops.pending() == 0, 60)
    window.chat_view.highlight_btn.setChecked(True)
    finished: list[Any] = []
    window.chat.answerFinished.connect(finished.append)
    spin_for(0.3)
    flushes.clear()
    meter = Meter()
    marks: list[tuple[float, int]] = []
    poll = make_poll(lambda: marks.append((time.perf_counter(), len(window.chat_view.bubbles[-1].text))))
    meter.start()
    t0 = time.perf_counter()
    window.chat.send("Tell me a long story.")
    spin_until(lambda: bool(finished), 600)
    poll.stop()
    result = meter.stop()
    quarters = quarter_gaps(meter, t0, marks)
    total = marks[-1][1] if marks else 1
    bounds = [next((t for t, n in marks if n >= total * q / 4), marks[-1][0]) for q in (1, 2, 3)]
    edges = [t0, *bounds, float("inf")]
    for q, (lo, hi) in enumerate(itertools.pairwise(edges)):
        cost = [ms for when, ms in flushes if lo <= when < hi]
        if q < len(quarters):
            quarters[q]["flush_p50"] = round(percentile(cost, 0.5), 2)
            quarters[q]["flush_max"] = round(max(cost, default=0.0), 2)
    close(window)
    return {"tokens": tokens, "p99": result["p99"], "max": result["max"], "quarters": quarters}


def case_long_answer_scripted() -> dict[str, Any]:
    """2000- and 8000-token answers streamed by :class:`PacedEngine` (``BENCH_SCRIPTED_TPS``
    tokens/s, default 400): the cost of each flush of the chat (``ChatController._flush``) and the
    tick gaps, per quarter of the answer."""
    from app.gui.controllers.chat import ChatController

    tps = float(os.environ.get("BENCH_SCRIPTED_TPS", "400"))
    flushes: list[tuple[float, float]] = []  # (when, ms)
    real_flush = ChatController._flush

    def timed_flush(self: Any, *args: Any, **kwargs: Any) -> None:
        # the wrapper passes on whatever it is called with: a slot connected to it may give
        # arguments, and a wrapper that refused them would end the answer's slot in an error
        t = time.perf_counter()
        real_flush(self, *args, **kwargs)
        flushes.append((t, (time.perf_counter() - t) * 1000))

    setattr(ChatController, "_flush", timed_flush)  # noqa: B010  (this process only)
    tokens_list = [int(x) for x in os.environ.get("BENCH_LONG_TOKENS", "2000,8000").split(",")]
    rows = [_scripted_answer(tokens, tps, flushes) for tokens in tokens_list]
    return {
        "n": len(rows),
        "p50": 0.0,
        "p99": max(r["p99"] for r in rows),
        "max": max(r["max"] for r in rows),
        "tps": tps,
        "rows": rows,
    }


def _families(n: int) -> Any:
    from app.core.registry import Registry
    from app.devtools.hubs.repos import tiny_family

    registry = Registry.load()
    base = tiny_family().model_dump(mode="json", exclude_none=True)
    i = 0
    while len(registry.families) < n:
        data = json.loads(json.dumps(base))
        data["name"] = f"bench-family-{i:02d}"
        registry.register(data)
        i += 1
    return registry


def case_browser() -> dict[str, Any]:
    registry = _families(50)
    window = make_window(registry)
    window.show()
    window.nav.setCurrentRow(1)
    spin_until(lambda: window.ops.pending() == 0, 60)
    spin_for(0.3)
    names = sorted(registry.families)
    meter = Meter()
    meter.start()
    for round_ in range(3):
        window.ops.changed.emit()  # every status probed again
        for name in names[round_::3] if round_ else names:
            window.browser.select_family(name)
            spin_for(0.02)
        spin_until(lambda: window.ops.pending() == 0, 60)
    spin_for(0.3)
    result = meter.stop()
    close(window)
    return {**result, "families": len(registry.families)}


def case_download() -> dict[str, Any]:
    from app.devtools.hubs.huggingface import OlahHub
    from app.devtools.hubs.proxies import FlakyProxy
    from app.devtools.hubs.repos import BIG_REPO, TINY_REPO, big_repo_files, build_hf_repo, tiny_repo_files

    root = Path(tempfile.mkdtemp(prefix="tandem-bench-olah-"))
    hub = OlahHub(root)
    build_hf_repo(hub.mirrors, TINY_REPO, dict(tiny_repo_files()))
    build_hf_repo(hub.mirrors, BIG_REPO, dict(big_repo_files()))
    hub.start(TINY_REPO)
    proxy = FlakyProxy(hub.port, rate=2_000_000)
    proxy.start()
    os.environ["HF_ENDPOINT"] = proxy.endpoint
    try:
        from app.core.registry import Registry
        from app.devtools.hubs.repos import tiny_family

        registry = Registry.load()
        fam = tiny_family(BIG_REPO).model_dump(mode="json", exclude_none=True)
        fam["name"] = "big"
        fam["specs"] = [fam["specs"][0]]
        src = fam["specs"][0]["sources"]["huggingface"]
        src["model_file_name_template"] = "big-{quantization}.gguf"
        src["draft_model_file_name_template"] = "draft-{draft_quantization}.gguf"
        src["draft_quantizations"] = ["Q8_0"]
        del fam["specs"][0]["sources"]["modelscope"]
        family = registry.register(fam)
        window = make_window(registry)
        window.show()
        window.nav.setCurrentRow(2)
        spin_until(lambda: window.ops.pending() == 0, 60)
        done: list[bool] = []
        window.downloads.completed.connect(lambda _i, ok: done.append(ok))
        meter = Meter()
        meter.start()
        window._on_download_requested(family, family.specs[0], "target", "Q4_0", None)
        spin_until(lambda: bool(done), 120)
        spin_for(0.3)
        result = meter.stop()
        close(window)
        return {**result, "ok": done[0]}
    finally:
        proxy.stop()
        hub.stop()
        shutil.rmtree(root, ignore_errors=True)


def run_case(name: str) -> dict[str, Any]:
    home = Path(tempfile.mkdtemp(prefix="tandem-bench-home-"))
    os.environ["TANDEM_HOME"] = str(home)
    os.environ["HF_HOME"] = str(home / "hf")
    os.environ["MODELSCOPE_CACHE"] = str(home / "ms")
    os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
    try:
        return {
            "startup": case_startup,
            "stream": case_stream,
            "browser": case_browser,
            "download": case_download,
            "long-answer": case_long_answer,
            "long-conversation": case_long_conversation,
            "long-answer-scripted": case_long_answer_scripted,
            "switch-first-token": case_switch_first_token,
        }[name]()
    finally:
        shutil.rmtree(home, ignore_errors=True)


# --- driver -----------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--xvfb", action="store_true", help="start Xvfb :99 and use the xcb platform")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--case", help=argparse.SUPPRESS)  # one case, in this process
    args = parser.parse_args()
    if args.case:
        try:
            print("RESULT " + json.dumps(run_case(args.case)), flush=True)
        except BaseException:
            import traceback

            traceback.print_exc()
            sys.stderr.flush()
            os._exit(1)  # a failed case leaves engine and pool threads that would keep it alive
        return 0

    env = dict(os.environ)
    xvfb: subprocess.Popen[bytes] | None = None
    if args.xvfb:
        xvfb = subprocess.Popen(["Xvfb", ":99", "-screen", "0", "1280x800x24", "-nolisten", "tcp"])
        time.sleep(1.0)
        env.update(DISPLAY=":99", QT_QPA_PLATFORM="xcb")
    elif not env.get("DISPLAY"):
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
    platform = env.get("QT_QPA_PLATFORM", "xcb")
    results: dict[str, Any] = {}
    try:
        for name in args.cases.split(","):
            try:
                out = subprocess.run(
                    [sys.executable, __file__, "--case", name],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=False,
                    timeout=CASE_TIMEOUT_S,
                )
            except subprocess.TimeoutExpired:
                results[name] = {"error": f"no result in {CASE_TIMEOUT_S} s"}
                continue
            line = next((ln for ln in out.stdout.splitlines() if ln.startswith("RESULT ")), None)
            if line is None:
                sys.stderr.write(out.stdout[-2000:] + out.stderr[-4000:])
                results[name] = {"error": f"exit {out.returncode}"}
                continue
            results[name] = json.loads(line[len("RESULT ") :])
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(5)
    load = os.getloadavg()
    if args.json:
        print(json.dumps({"platform": platform, "loadavg": load, "cases": results}, indent=1))
        return 0
    loads = " ".join(f"{x:.2f}" for x in load)
    print(f"platform {platform}, load average {loads}, {os.cpu_count()} cores\n")
    print("| case | ticks | p50 ms | p99 ms | max ms | notes |")
    print("|---|---|---|---|---|---|")
    for name, r in results.items():
        if "error" in r:
            print(f"| {name} | - | - | - | - | {r['error']} |")
            continue
        notes = ", ".join(f"{k} {v}" for k, v in r.items() if k not in ("n", "p50", "p99", "max"))
        print(f"| {name} | {r['n']} | {r['p50']} | {r['p99']} | {r['max']} | {notes} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
