"""Auto never makes you wait, under a real X server: a first start (fresh home, nothing measured)
with Auto answers the first message at once, typed into the real window, and its first tokens
stream before Auto's background measurement ends.

The window runs in a child process on its own ``Xvfb`` display (this test process is offscreen);
the message is typed and sent with real key events. Skipped where no ``Xvfb`` is installed."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

DRIVER = r"""
import json, sys, time
from PySide6.QtCore import QEventLoop, Qt, QTimer
from PySide6.QtTest import QTest
from app.core.settings import Settings
from app.gui.app import create_application
from app.gui.errors import ErrorBridge
from app.gui.i18n import I18n
from app.gui.main_window import MainWindow

app = create_application(sys.argv[:1])
assert app.platformName() == "xcb", app.platformName()
window = MainWindow(Settings(default_speculation="auto"), I18n(app), ErrorBridge(), save_settings=False)
window.resize(1200, 780)
window.show()
tuner = window.auto_tuner
tuner.idle_ms = 200
events = []
def mark(name):
    events.append(name)
window.modelLoaded.connect(lambda info: mark("loaded:" + info.speculation))
tuner.calibrationStarted.connect(lambda: mark("calibration started"))
tuner.calibrationCancelled.connect(lambda: mark("calibration cancelled"))
tuner.calibrationFinished.connect(lambda r: mark("calibration finished"))
window.chat.answerFinished.connect(lambda s: mark("answer"))
def first_token():
    if "first token" not in events:
        mark("first token")
window.engine.eventsReady.connect(first_token)
done = QEventLoop()
def type_message(_info):
    window.chat.sampling = window.chat.sampling.__class__(temperature=0.0, max_tokens=24)
    box = window.chat_view.composer.input
    box.setFocus()
    QTest.keyClicks(box, "Name three colours.")
    QTest.keyClick(box, Qt.Key.Key_Return)
    mark("sent")
window.modelLoaded.connect(type_message)
tuner.calibrationFinished.connect(lambda r: done.quit())
tuner.calibrationFailed.connect(lambda msg: (mark("calibration failed: " + msg), done.quit()))
QTimer.singleShot(400_000, done.quit)
window.load_default_model()
done.exec()
print(json.dumps(events), flush=True)
window.shutdown()
window.store.close()
"""


@contextlib.contextmanager
def xvfb(size: str, offset: int = 0) -> Iterator[str]:
    """An ``Xvfb`` display of ``size`` (e.g. ``"1280x800"``) for the duration of the block."""
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed")
    number = 90 + offset * 10 + os.getpid() % 9
    proc = subprocess.Popen(
        ["Xvfb", f":{number}", "-screen", "0", f"{size}x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{number}").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        yield f":{number}"
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture
def display() -> Iterator[str]:
    with xvfb("1280x800") as name:
        yield name


FIT_DRIVER = r"""
import json, sys
from app.core.settings import Settings
from app.gui.app import create_application, show_fitted
from app.gui.errors import ErrorBridge
from app.gui.i18n import I18n
from app.gui.main_window import MainWindow

app = create_application(sys.argv[:1])
assert app.platformName() == "xcb", app.platformName()
window = MainWindow(Settings(autoload_default_model=False), I18n(app), ErrorBridge(), save_settings=False)
show_fitted(window)
app.processEvents()
avail = window.screen().availableGeometry()
bar = window.statusBar()
bottom = bar.mapTo(window, bar.rect().bottomLeft()).y() + window.geometry().top()
rect = window.frameGeometry().getRect()
print(json.dumps({"window": rect, "screen": avail.getRect(), "bar_bottom": bottom}))
window.shutdown()
window.store.close()
"""


@pytest.mark.timeout(120)
@pytest.mark.parametrize("size", ["1366x768", "1920x1080"])
def test_the_window_fits_a_small_laptop_screen(tmp_path: Path, size: str) -> None:
    """Started as run_gui starts it on a real X server: on a 1366 x 768 screen the whole window,
    its status bar included, is on the screen (at 1200 x 780 the bar was below its edge); a large
    screen gets the full 1200 x 780."""
    with xvfb(size, offset=1) as name:
        env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
        env.update(DISPLAY=name, TANDEM_HOME=str(tmp_path / "home"), PYTHONPATH=str(ROOT))
        proc = subprocess.run(
            [sys.executable, "-c", FIT_DRIVER],
            env=env,
            capture_output=True,
            text=True,
            timeout=100,
            check=False,
        )
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    _x, _y, width, height = got["window"]
    _sx, sy, sw, sh = got["screen"]
    if size == "1920x1080":
        assert (width, height) == (1200, 780)
    else:
        assert width <= sw and height <= sh and got["bar_bottom"] <= sy + sh, got


@pytest.mark.timeout(600)
@pytest.mark.usefixtures("smollm2_q4")
def test_a_first_start_answers_before_auto_has_measured(display: str, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env.update(DISPLAY=display, TANDEM_HOME=str(tmp_path / "home"), PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-c", DRIVER], env=env, capture_output=True, text=True, timeout=550, check=False
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    events: list[str] = json.loads(proc.stdout.strip().splitlines()[-1])
    assert events[0] == "loaded:Auto: ngram-mod 64/round"  # the prior, nothing measured yet
    assert "calibration finished" in events, events
    assert events.index("sent") < events.index("first token") < events.index("calibration finished")
    assert events.index("answer") < events.index("calibration finished")
