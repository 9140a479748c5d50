"""``tandem --self-test --window``: does the desktop app's first minute work on this installation?

Starts the window the way ``tandem`` does (the user's settings, theme, language, error hooks, the
qasync loop, the start-up model), waits for the model to load, types one message into the chat's
composer, presses Return, and waits for the answer; then it opens and closes Settings (every tab,
Tools included), the Local server panel and the launch dialog of the start-up model. It fails when
the load fails, when the answer is empty, or when anything is reported as an error: the window's
error banner, an uncaught exception, or a record at ERROR level in the log. Without a display (or
the X11 libraries Qt needs) ``tandem`` runs it offscreen, so CI and a packaged build can run it
headless.

Success: one line of figures on stdout, exit 0. Failure: one line starting
``tandem self-test (window): FAILED`` on stderr, exit 1.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.core.chat.answer import AnswerStats
    from app.gui.engine import ModelInfo
    from app.gui.errors import UserError

PROMPT = "Name three primary colours."
#: bounds the answer's length (the first-start model is small and may ramble); the figures are
#: read from a real answer either way
MAX_TOKENS = 96
TIMEOUT_S = 300.0

log = logging.getLogger(__name__)


@dataclass
class _Outcome:
    """What the run saw, filled in by the window's signals and the log."""

    problems: list[str] = field(default_factory=list)
    loaded: str = ""
    answer: str = ""
    tokens: int = 0
    tps: float = 0.0
    speculation: str = ""
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def fail(self, reason: str) -> None:
        self.problems.append(reason)
        self.done.set()


class _ErrorRecords(logging.Handler):
    """Every record at ERROR or above, from any logger, becomes a problem."""

    def __init__(self, outcome: _Outcome) -> None:
        super().__init__(logging.ERROR)
        self._outcome = outcome

    def emit(self, record: logging.LogRecord) -> None:
        self._outcome.problems.append(f"logged {record.levelname}: {record.name}: {record.getMessage()}")


def run(timeout_s: float = TIMEOUT_S) -> int:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QDialog

    from app.core.launch.plan import DEFAULT_MODEL
    from app.gui.app import start_gui

    outcome = _Outcome()
    records = _ErrorRecords(outcome)
    logging.getLogger().addHandler(records)
    start = time.monotonic()
    try:
        started = start_gui([], load_model=True)  # the signals it sends come once the loop runs
    except BaseException:
        logging.getLogger().removeHandler(records)
        raise
    window, loop = started.window, started.loop
    started.errors.raised.connect(lambda e: outcome.fail(f"the window reported an error: {_describe(e)}"))

    def on_loaded(info: ModelInfo) -> None:
        outcome.loaded = f"{info.family} {info.size} {info.quantization} ({info.engine})"
        window.chat.sampling = replace(window.chat.sampling, max_tokens=MAX_TOKENS)
        box = window.chat_view.composer.input
        box.setFocus()
        QTest.keyClicks(box, PROMPT)
        QTest.keyClick(box, Qt.Key.Key_Return)

    walking: list[asyncio.Task[None]] = []

    async def walk_dialogs() -> None:
        """Open and close the dialogs a user opens in the first minutes; what they report (an
        error record, the banner) fails the run like anything else."""
        dlg = window.open_settings()
        tabs = dlg.tabs
        for i in range(tabs.count() if tabs is not None else 0):
            assert tabs is not None
            tabs.setCurrentIndex(i)
            await asyncio.sleep(0.3)  # the tab's own work (the tools' status) starts and reports
        dlg.reject()
        await asyncio.sleep(0.5)  # whatever was listening to the dialog reports after it is gone
        panel = window.server_switch.panel
        panel.show()
        await asyncio.sleep(0.3)
        panel.close()
        await asyncio.sleep(0.3)
        opened: asyncio.Future[object] = loop.create_future()

        def on_opened(dlg: object) -> None:
            if not opened.done():
                opened.set_result(dlg)

        window.launchDialogOpened.connect(on_opened)
        name, fmt, size, quant = DEFAULT_MODEL
        family, spec, _ = window.registry.match(name, fmt, size)
        window.open_launch_dialog(family, spec, quant)
        launch = await asyncio.wait_for(opened, 60)
        await asyncio.sleep(0.5)  # its Auto panel and fit checks report
        if isinstance(launch, QDialog):
            launch.reject()
        await asyncio.sleep(0.3)

    async def after_answer() -> None:
        try:
            await walk_dialogs()
        except Exception as exc:  # a dialog that cannot open is a failure like any other
            outcome.problems.append(f"a dialog failed: {exc!r}")
        outcome.done.set()

    def on_answer(stats: AnswerStats) -> None:
        outcome.tokens = int(stats.completion_tokens)
        outcome.tps = float(stats.decode_tps)
        outcome.speculation = str(stats.speculation)
        cid = window.chat.conversation_id
        if cid is not None:
            messages = window.store.messages(cid)
            if messages and messages[-1].role == "assistant":
                outcome.answer = messages[-1].content
        walking.append(loop.create_task(after_answer()))  # kept: a task nobody holds may be collected

    window.modelLoaded.connect(on_loaded)

    def on_load_failed(exc: BaseException) -> None:
        if not outcome.problems:  # the window's own report of it (the banner) says it better
            outcome.problems.append(f"the model could not be loaded: {exc}")
        outcome.done.set()

    window.engine.loadFailed.connect(on_load_failed)
    window.chat.answerFinished.connect(on_answer)
    try:
        try:
            loop.run_until_complete(asyncio.wait_for(outcome.done.wait(), timeout_s))
        except TimeoutError:
            outcome.problems.append(f"no answer within {timeout_s:.0f} s (loaded: {outcome.loaded or 'no'})")
    finally:
        window.close()
        started.stop()
        window.store.close()
        logging.getLogger().removeHandler(records)
    seconds = time.monotonic() - start
    if not outcome.problems and (outcome.tokens == 0 or not outcome.answer.strip()):
        outcome.problems.append("the answer was empty")
    if outcome.problems:
        reasons = "; ".join(_one_line(p) for p in dict.fromkeys(outcome.problems))
        print(f"tandem self-test (window): FAILED: {reasons}", file=sys.stderr)
        return 1
    shown = outcome.answer.strip().replace("\n", " ")[:60]
    print(
        f"tandem self-test (window): ok in {seconds:.1f} s: loaded {outcome.loaded}, answered "
        f"{outcome.tokens} tokens at {outcome.tps:.1f} tok/s ({outcome.speculation or 'off'}): {shown!a}"
    )
    return 0


def _describe(error: UserError) -> str:
    return ": ".join(part for part in (error.title, error.message) if part)


def _one_line(text: str, limit: int = 400) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
