"""Screenshots of the window on a 1366 x 768 screen: the chat with a conversation and a real answer,
the status bar with the Local server on, Settings → Tools and the Local server panel, in English
and in Japanese.

    Xvfb :77 -screen 0 1366x768x24 &
    DISPLAY=:77 python scripts/screenshots_window.py [--out DIR] [--prefix P] [--locales en,ja]

The window opens as ``tandem`` opens it (fitted to the screen) over a fresh TANDEM_HOME whose chat
store holds one conversation per language; the embedded model (SmolLM2) is loaded with Auto, answers
one question, and the Local server serves it one request from another thread. Files are named
``window-1366-<what>-<locale>.png``. Without ``DISPLAY`` the offscreen platform is given a
1366 x 768 screen.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"

TITLE = {"en": "Colours", "ja": "色の名前", "ko": "색 이름", "zh_CN": "颜色"}
QUESTION = {
    "en": "Name three colours of the rainbow.",
    "ja": "虹の色を三つ挙げてください。",
    "ko": "무지개 색 세 가지를 말해 주세요.",
    "zh_CN": "说出彩虹的三种颜色。",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--prefix", default="", help="put before each file name (e.g. before-)")
    parser.add_argument("--locales", default="en,ja")
    parser.add_argument(
        "--screen", action="store_true", help="also the whole X screen (ImageMagick's import), as screen-NAME"
    )
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    locales = args.locales.split(",")
    home = Path(tempfile.mkdtemp(prefix="tandem-window-shots-"))
    if not os.environ.get("DISPLAY"):
        screen = home / "screen.json"
        screen.write_text(
            '{"screens": [{"name": "laptop", "x": 0, "y": 0, "width": 1366, "height": 768, '
            '"logicalDpiX": 96, "logicalDpiY": 96, "dpr": 1}]}',
            "utf-8",
        )
        os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={screen}"
    os.environ["TANDEM_HOME"] = str(home / "tandem")
    for var, rel in (("HF_HOME", "hf"), ("HF_HUB_CACHE", "hf/hub"), ("MODELSCOPE_CACHE", "modelscope")):
        os.environ[var] = str(home / rel)
    os.environ["HF_HUB_DISABLE_TELEMETRY"] = "1"
    os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"

    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QWidget

    from app.core.chat import ChatStore
    from app.core.settings import Settings
    from app.gui.app import create_application, show_fitted
    from app.gui.errors import ErrorBridge
    from app.gui.i18n import I18n
    from app.gui.main_window import MainWindow

    store = ChatStore()
    conversations = {}
    for lang in locales:
        conv = store.create_conversation(TITLE.get(lang, TITLE["en"]))
        conversations[lang] = conv.id
    store.close()

    app = create_application([sys.argv[0]])
    i18n = I18n(app)
    errors = ErrorBridge()
    errors.raised.connect(lambda e: print("error:", e.title, e.message, file=sys.stderr))
    window = MainWindow(Settings(), i18n, errors, save_settings=False)
    show_fitted(window)

    def wait(signal: Any, ms: int, trigger: Callable[[], object] | None = None) -> tuple[Any, ...] | None:
        got: list[tuple[Any, ...]] = []
        loop = QEventLoop()

        def on(*a: Any) -> None:
            got.append(a)
            loop.quit()

        signal.connect(on)
        timer = QTimer()
        timer.setSingleShot(True)
        timer.timeout.connect(loop.quit)
        timer.start(ms)
        if trigger is not None:
            trigger()
        if not got:
            loop.exec()
        timer.stop()
        signal.disconnect(on)
        return got[0] if got else None

    def settle(ms: int = 400) -> None:
        loop = QEventLoop()
        QTimer.singleShot(ms, loop.quit)
        loop.exec()
        for _ in range(5):
            app.processEvents()

    def shot(widget: QWidget, name: str) -> None:
        settle()
        path = out / f"{args.prefix}window-1366-{name}.png"
        widget.grab().save(str(path))
        print("wrote", path, widget.size().width(), "x", widget.size().height(), flush=True)
        if args.screen:  # what the X server shows: the window, the panel over it, at their places
            whole = out / f"{args.prefix}screen-window-1366-{name}.png"
            subprocess.run(["import", "-window", "root", str(whole)], check=True)
            print("wrote", whole, flush=True)

    sys.path.insert(0, str(ROOT / "scripts"))
    from screenshots import ask_local_server

    wait(window.modelLoaded, 300_000, window.load_default_model)
    switch = window.server_switch
    wait(switch.controller.stateChanged, 60_000, switch.click)
    settle()
    switch.panel.hide()
    ask_local_server(switch.controller, wait)  # one real request in the panel's log
    window.chat.sampling = window.chat.sampling.__class__(temperature=0.0, max_tokens=48)
    for lang in locales:
        window.set_language(lang)
        window.nav.setCurrentRow(0)
        window.chat.open_conversation(conversations[lang])
        settle()
        composer = window.chat_view.composer
        if not window.chat_view.bubbles:
            composer.input.setPlainText(QUESTION.get(lang, QUESTION["en"]))
            wait(window.chat.answerFinished, 300_000, composer.button.click)
        shot(window, f"chat-{lang}")
        shot(window.statusBar(), f"status-server-{lang}")
        dlg = window.open_settings()
        if dlg.tabs is not None:
            dlg.tabs.setCurrentIndex(1)
        settle(800)
        shot(dlg, f"settings-tools-{lang}")
        dlg.reject()
        settle()
        panel = switch.panel
        panel.hide()
        switch.click()  # a click on the running server's switch opens its panel
        frame = panel.frameGeometry()
        print(f"server panel {lang}: at {frame.x()},{frame.y()}, {frame.width()} x {frame.height()}")
        shot(panel, f"server-panel-{lang}")
        panel.hide()
    window.set_language("en")
    wait(switch.controller.stateChanged, 30_000, switch.controller.stop)
    window.shutdown()
    window.store.close()
    shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
