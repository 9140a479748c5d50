"""GUI test setup: offscreen Qt, a main window over isolated paths, scripted engines.

Every fixture stops what it started (engine thread, download workers, timers) so the root
conftest's thread-leak check passes; waits use signals with timeouts, never sleeps.

Nothing passes from one test to the next: each starts in its own empty home (tests/conftest.py),
so with no stored calibration an Auto launch runs the pair's prior, in any test order. A test about
a stored calibration writes one itself (tests/gui/test_launch_auto.py, test_auto_background.py).
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import pytest

from app.core.engines.base import (
    CancelToken,
    ChatMessage,
    Event,
    Finished,
    Round,
    Sampling,
    TextDelta,
)
from app.devtools.scripted import ScriptedStream


class ScriptedEngine(ScriptedStream):
    """Replays a fixed answer as draft rounds: handy for layout tests (not for the real turn).

    ``plain`` replays it without rounds (speculation off); ``decode_ms`` sets the reported speed.
    """

    name = "scripted"
    model_path = "scripted"
    spec_kind: str | None = "scripted"
    supports_tools = False
    supports_structured_output = False
    supports_images = False
    candidates_with_speculation = False

    def __init__(
        self,
        text: str = "",
        fail: Exception | None = None,
        gate: Any = None,
        plain: bool = False,
        decode_ms: float = 100.0,
    ) -> None:
        self.text = text or (
            "Here is a function:\n\n```python\ndef add(a, b):\n    return a + b\n```\n\n"
            "It returns the **sum** of `a` and `b`."
        )
        self.fail = fail
        self.gate = gate
        self.plain = plain
        self.decode_ms = decode_ms
        self.closed = False

    def script(
        self,
        messages: Sequence[ChatMessage],
        sampling: Sampling,
        cancel: CancelToken | None = None,
        top_logprobs: int = 0,
        tools: Sequence[Mapping[str, Any]] | None = None,
        tool_choice: Any = None,
        response_format: Any = None,
    ) -> Iterator[Event]:
        words = self.text.split(" ")
        emitted = 0
        for i in range(0, len(words), 4):
            if cancel is not None and cancel.cancelled:
                yield Finished("cancelled", 10, emitted, 5.0, 50.0, i, i // 2, rounds=i // 4)
                return
            if self.gate is not None:
                self.gate(i)
            chunk = words[i : i + 4]
            accepted = 0 if self.plain else min(3, len(chunk) - 1)
            if not self.plain:
                yield Round(i // 4, 4, accepted, accepted + 1)
            for j, w in enumerate(chunk):
                yield TextDelta(w + (" " if i + j < len(words) - 1 else ""), 1, from_draft=j < accepted)
                emitted += 1
            if self.fail is not None and i >= 4:
                raise self.fail
        n = (len(words) + 3) // 4
        if self.plain:
            yield Finished("stop", 10, emitted, 5.0, self.decode_ms, 0, 0)
        else:
            yield Finished("stop", 10, emitted, 5.0, self.decode_ms, 4 * n, emitted - n, rounds=n)

    def close(self) -> None:
        self.closed = True


def scripted_loader(engine: ScriptedEngine) -> Callable[..., ScriptedEngine]:
    def load(_engine_name: str, _req: Any, progress: Callable[[str], None]) -> ScriptedEngine:
        progress("loading scripted engine")
        return engine

    return load


@pytest.fixture
def make_window(qtbot: Any) -> Iterator[Callable[..., Any]]:
    from app.core.settings import Settings
    from app.gui.app import create_application
    from app.gui.errors import ErrorBridge
    from app.gui.i18n import I18n
    from app.gui.main_window import MainWindow

    made: list[Any] = []

    def make(**kwargs: Any) -> Any:
        app = create_application([])
        i18n = I18n(app)
        errors = ErrorBridge()
        # A scripted engine is a layout fake: Auto would calibrate against it, which measures
        # nothing real (and a failing or gated script blocks the load), so its windows start
        # with speculation off unless a test asks otherwise. Real-engine windows keep Auto.
        default = Settings(default_speculation="off") if "loader" in kwargs else Settings()
        window = MainWindow(kwargs.pop("settings", default), i18n, errors, save_settings=False, **kwargs)
        # Back to English before pytest-qt closes and deletes the window: a switch after that
        # would reach a window whose store is closed.
        qtbot.addWidget(window, before_close_func=lambda _w: i18n.set_language("en"))
        window.resize(1200, 780)
        window.show()
        made.append((window, i18n))
        return window

    yield make
    from PySide6.QtCore import QCoreApplication, QEvent

    for window, _i18n in made:
        window.close()  # closeEvent: shutdown, store closed, no more retranslation
        window.shutdown()
        window.store.close()
        window.deleteLater()
    # a window left alive after its test would receive later tests' language switches
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture(autouse=True)
def _background_calibration(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Auto measures in the background while the chat is idle; in a test that would
    load two more engines behind whatever the test does, so only tests marked ``auto_tuning``
    let it (they set :attr:`AutoTuner.idle_ms` themselves)."""
    if request.node.get_closest_marker("auto_tuning") is None:
        from app.gui.controllers import auto_tuner

        monkeypatch.setattr(auto_tuner, "IDLE_MS", None)


@pytest.fixture(autouse=True)
def _unpinned_models_root() -> Iterator[None]:
    """A main window pins the cache entries' root for the process; every test starts unpinned."""
    from app.core import paths

    yield
    paths.set_models_root(None)


@pytest.fixture(autouse=True)
def _app(qapp: Any) -> Any:
    """Every GUI test gets the QApplication (icons and fonts need one, even for pure models)."""
    return qapp


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The offscreen platform plugin warns about a window-manager feature it lacks; that is noise
    # from the headless platform, not from Tandem, so only that exact message is ignored.
    for item in items:
        if "tests/gui/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)"))
