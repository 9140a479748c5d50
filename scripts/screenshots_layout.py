"""Screenshots of two layouts on a real screen where nothing may overlap or widen the view: a
conversation with a 300-character line of code, and the Local server panel, in English and in Japanese.

    Xvfb :77 -screen 0 1366x768x24 &
    DISPLAY=:77 python scripts/screenshots_layout.py [--out DIR] [--review]

The window opens as ``tandem`` opens it (fitted to the screen) over a fresh TANDEM_HOME whose
chat store holds the conversations shown; the panel serves the embedded model (SmolLM2) and opens
where the status bar's switch opens it. Each shot is the window as grabbed by Qt; ``--review``
adds the panel in Korean and Chinese and a conversation with the other wide things (a long URL, a
wide table, a wide formula), for checking, not for the docs.
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

#: one line of code of 300 characters, most of it one string without a space (a URL)
LONG_LINE = (
    'SEARCH_URL = "https://api.example.org/v2/search?query=speculative%20decoding&page=2&per_page=50'
    "&sort=updated&order=desc&fields=name,description,stars,forks,license,topics&lang=python"
    "&since=2024-01-01T00:00:00Z&until=2024-12-31T23:59:59Z&include_archived=false&min_stars=100"
    '&token=3f9a1c27e4b8d6f05a9"'
)
assert len(LONG_LINE) == 300, len(LONG_LINE)

QUESTION = {
    "en": "Can you give me the search URL with all my parameters as one Python constant? I want to paste it.",
    "ja": (
        "すべてのパラメータを含む検索URLを、Python の定数一つで書いてもらえますか？そのまま貼り付けたいです。"
    ),
}
ANSWER = {
    "en": (
        "Here is the whole URL as one constant:\n\n```python\n"
        f"{LONG_LINE}\n```\n\nEvery parameter is in the query string; `token` is the key you were given."
    ),
    "ja": (
        "URL 全体を一つの定数にしました。\n\n```python\n"
        f"{LONG_LINE}\n```\n\nすべてのパラメータがクエリ文字列に入っています。`token` は発行されたキーです。"
    ),
}
WIDE = (
    "A long link: https://example.org/" + "a1b2c3d4e5" * 25 + "\n\n"
    "| " + " | ".join(f"column {i}" for i in range(24)) + " |\n|" + "---|" * 24 + "\n"
    "| " + " | ".join(f"value {i}" for i in range(24)) + " |\n\n"
    "$$" + " + ".join(f"\\frac{{a_{{{i}}}}}{{b_{{{i}}}}}" for i in range(40)) + "$$\n\nThe end."
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--prefix", default="", help="put before each file name (e.g. before-)")
    parser.add_argument("--review", action="store_true")
    parser.add_argument("--no-model", action="store_true", help="no Local server shots")
    parser.add_argument(
        "--screen", action="store_true", help="also the whole X screen (ImageMagick's import), as screen-NAME"
    )
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="tandem-layout-shots-"))
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
    for lang in ("en", "ja"):
        conv = store.create_conversation({"en": "Search URL", "ja": "検索 URL"}[lang])
        store.add_message(conv.id, "user", QUESTION[lang])
        store.add_message(conv.id, "assistant", ANSWER[lang])
        conversations[lang] = conv.id
    wide = store.create_conversation("Wide things")
    store.add_message(wide.id, "user", "Show me wide things.")
    store.add_message(wide.id, "assistant", WIDE)
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
        path = out / f"{args.prefix}{name}"
        widget.grab().save(str(path))
        print("wrote", path, widget.size().width(), "x", widget.size().height(), flush=True)
        if args.screen:  # what the X server shows: the window, the panel over it, at their places
            whole = out / f"{args.prefix}screen-{name}"
            subprocess.run(["import", "-window", "root", str(whole)], check=True)
            print("wrote", whole, flush=True)

    def chat(lang: str, conv: int, name: str) -> None:
        window.set_language(lang)
        window.nav.setCurrentRow(0)
        window.chat.open_conversation(conv)
        settle()
        view = window.chat_view
        print(
            f"{name}: viewport {view.scroller.viewport().width()} column {view.column.width()}",
            flush=True,
        )
        shot(window, name)

    chat("en", conversations["en"], "chat-long-code-line-en.png")
    chat("ja", conversations["ja"], "chat-long-code-line-ja.png")
    if args.review:
        from app.gui.views.chat.rich_text import SideScroll

        # the same line scrolled to its end (the block's scrollbar at its right end)
        for block in window.chat_view.bubbles[-1].findChildren(SideScroll):
            block.bar.setValue(block.bar.maximum())
        shot(window, "review-chat-long-code-line-end-ja.png")
        chat("en", wide.id, "review-chat-wide-things-en.png")
    window.set_language("en")

    if not args.no_model:
        sys.path.insert(0, str(ROOT / "scripts"))
        from screenshots import ask_local_server

        wait(window.modelLoaded, 300_000, window.load_default_model)
        switch = window.server_switch
        wait(switch.controller.stateChanged, 60_000, switch.click)
        settle()
        ask_local_server(switch.controller, wait)  # one real request in the panel's log
        panel = switch.panel
        locales = ["en", "ja"] + (["ko", "zh_CN"] if args.review else [])
        for lang in locales:
            panel.hide()
            window.set_language(lang)
            settle()  # the language reaches the widgets, as before the user's next click
            switch.click()  # a click on the running server's switch opens its panel
            frame = panel.frameGeometry()
            print(f"server panel {lang}: at {frame.x()},{frame.y()}, {frame.width()} x {frame.height()}")
            name = f"server-panel-{lang}.png" if lang in ("en", "ja") else f"review-server-panel-{lang}.png"
            shot(panel, name)
            bar = panel.body.verticalScrollBar()
            need, room = panel.content.heightForWidth(panel.body.width()), panel.body.viewport().height()
            print(f"  its rows need {need} px of {room}; it scrolls: {bar.isVisible()}")
        panel.hide()
        window.set_language("en")
        wait(switch.controller.stateChanged, 30_000, switch.controller.stop)

    window.shutdown()
    window.store.close()
    shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
