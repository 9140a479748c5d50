"""Regenerate docs/screenshots/*.png: the real app, offscreen, on the real embedded model.

    QT_QPA_PLATFORM=offscreen python scripts/screenshots.py [--out DIR] [--no-model] [--review]

``--no-model`` skips loading a model (the chat shots show an empty chat; quick layout previews);
``--review`` adds every page and dialog in every locale (for checking layouts, not for the docs);
``--out`` writes somewhere other than docs/screenshots.

The chat shots run SmolLM2-135M F32 with its Q4_1 file as drafter through llama.cpp, after one
plain answer of the same F32 file (both on one thread), so the highlighted text, the statistics
and the speedup are real measurements of this machine. CJK text needs a
CJK font (Debian: fonts-noto-cjk).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "docs" / "screenshots"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--no-model", action="store_true", help="skip the shots that load a model")
    parser.add_argument("--review", action="store_true", help="every page and dialog in every locale")
    args = parser.parse_args()
    out: Path = args.out
    home = tempfile.mkdtemp(prefix="tandem-shots-")
    os.environ["TANDEM_HOME"] = home
    os.environ.setdefault("TANDEM_EMBEDDED_DIR", str(Path.home() / ".cache" / "tandem-test-assets"))
    os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"

    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtGui import QFont
    from PySide6.QtWidgets import QApplication

    from app.core.settings import Settings
    from app.core.speculative import SpeculationOptions
    from app.gui.app import create_application
    from app.gui.errors import ErrorBridge
    from app.gui.i18n import I18n
    from app.gui.main_window import MainWindow
    from app.gui.views.delete_dialog import DeleteDialog
    from app.gui.views.launch_dialog import LaunchChoice

    app = create_application(sys.argv[:1])
    app.setFont(QFont("Noto Sans", 10))
    out.mkdir(parents=True, exist_ok=True)
    i18n = I18n(app)
    errors = ErrorBridge()
    errors.raised.connect(lambda e: print("error:", e.title, e.message, file=sys.stderr))
    window = MainWindow(Settings(), i18n, errors, save_settings=False)
    window.resize(1280, 800)
    window.show()

    def wait(signal: object, ms: int) -> None:
        loop = QEventLoop()
        signal.connect(loop.quit)  # type: ignore[attr-defined]
        timer = QTimer()
        timer.setSingleShot(True)
        timer.timeout.connect(loop.quit)
        timer.start(ms)
        loop.exec()
        timer.stop()

    def settle() -> None:
        # Long enough for the switch's 120 ms slide and any queued relayout to finish.
        loop = QEventLoop()
        QTimer.singleShot(300, loop.quit)
        loop.exec()
        for _ in range(5):
            app.processEvents()

    def shot(widget: object, name: str) -> None:
        settle()
        widget.grab().save(str(out / name))  # type: ignore[attr-defined]
        print("wrote", out / name)

    # Models page with the Gemma 4 family (drafter quantizations shown under each variant).
    window.nav.setCurrentRow(1)
    window.browser.select_family("gemma-4")
    shot(window, "main-models.png")

    # Launch dialog: panel shown (Gemma 4 E2B gguf on llama.cpp), switched on and off, and hidden
    # (Gemma 3, no drafter).
    fam, spec, quant = window.registry.match("gemma-4", "gguf", "2", "Q4_K_M")

    def launch_shot(name: str, enable: bool) -> None:
        dlg = window.open_launch_dialog(fam, spec, quant)
        dlg.enable.setChecked(enable)
        dlg.adjustSize()
        shot(dlg, name)
        dlg.reject()

    launch_shot("launch-dialog-speculative.png", True)
    launch_shot("launch-dialog-speculative-off.png", False)
    fam3, spec3, quant3 = window.registry.match("gemma-3-270m", "gguf")
    dlg = window.open_launch_dialog(fam3, spec3, quant3)
    dlg.adjustSize()
    shot(dlg, "launch-dialog-no-drafter.png")
    dlg.reject()

    # Delete confirmation: the safe default, then with "Also free disk space" and its warning.
    delete = DeleteDialog("gemma-4", "Q4_K_M", "huggingface", size=3_460_000_000, parent=window)
    delete.show()
    shot(delete, "delete-dialog.png")
    delete.free_disk_box.setChecked(True)
    shot(delete, "delete-dialog-free-disk.png")
    delete.close()

    # Settings: the model cache location and what it holds.
    settings_dlg = window.open_settings()
    settings_dlg.adjustSize()
    shot(settings_dlg, "settings.png")
    settings_dlg.reject()

    def load_and_chat() -> None:
        """A real chat with speculation: SmolLM2 F32 target + Q4_1 drafter.

        One plain answer of the same target first (another conversation), so the speculative
        answer's strip shows the speedup it obtained on this machine.
        """
        smol, sspec, _q = window.registry.match("smollm2-135m-instruct", "gguf", None, "F32")
        sampling = window.chat.sampling.__class__(temperature=0.0, max_tokens=160)
        window.chat.sampling = sampling

        def load(options: SpeculationOptions) -> None:
            # One thread: on a shared 2-core machine a busy neighbour stalls llama.cpp's thread
            # barrier and makes either run several times slower, so the comparison would be noise.
            window.start_load(LaunchChoice(smol, sspec, "F32", "llama.cpp", options, 2048, 1, sampling))
            wait(window.modelLoaded, 600_000)

        load(SpeculationOptions())
        window.chat.send("Write a Python function that reverses a string, with a short explanation.")
        wait(window.chat.answerFinished, 300_000)
        window.new_chat()
        load(
            SpeculationOptions.build(
                enabled=True, method="draft", draft_quantization="Q4_1", num_speculative_tokens=6
            )
        )
        window.nav.setCurrentRow(0)
        window.chat.send(
            "Write a Python function that checks whether a number is prime, with a short explanation."
        )
        wait(window.chat.answerFinished, 300_000)
        window.chat_view.scroller.verticalScrollBar().setValue(0)
        shot(window, "chat-speculative.png")

    def review(locale: str) -> None:
        """Every page and dialog in ``locale``, for a layout check (not for the docs)."""
        window.set_language(locale)
        for row, page in enumerate(("chat", "models", "downloads")):
            window.nav.setCurrentRow(row)
            shot(window, f"review-{page}-{locale}.png")
        launch_shot(f"review-launch-on-{locale}.png", True)
        launch_shot(f"review-launch-off-{locale}.png", False)
        d = window.open_launch_dialog(fam3, spec3, quant3)
        d.adjustSize()
        shot(d, f"review-launch-no-drafter-{locale}.png")
        d.reject()
        for free in (False, True):
            d2 = DeleteDialog("gemma-4", "Q4_K_M", "huggingface", size=3_460_000_000, parent=window)
            d2.free_disk_box.setChecked(free)
            d2.show()
            shot(d2, f"review-delete-{'free-' if free else ''}{locale}.png")
            d2.close()
        s = window.open_settings()
        s.adjustSize()
        shot(s, f"review-settings-{locale}.png")
        s.reject()
        window.chat_view.settings_btn.click()
        sampling = QApplication.activeModalWidget()
        if sampling is not None:
            shot(sampling, f"review-sampling-{locale}.png")
            sampling.close()
        window.set_language("en")

    if args.review:
        for locale in ("en", "ja", "ko", "zh_CN"):
            review(locale)

    if args.no_model:
        window.nav.setCurrentRow(0)
        shot(window, "chat-speculative.png")
    else:
        load_and_chat()

    # The same window in Japanese and Simplified Chinese.
    window.set_language("ja")
    shot(window, "chat-ja.png")
    window.nav.setCurrentRow(1)
    shot(window, "main-models-ja.png")
    window.set_language("zh_CN")
    shot(window, "main-models-zh_CN.png")
    dlg = window.open_launch_dialog(fam, spec, quant)
    dlg.enable.setChecked(True)
    dlg.adjustSize()
    shot(dlg, "launch-dialog-zh_CN.png")
    dlg.reject()
    window.set_language("ko")
    window.nav.setCurrentRow(1)
    shot(window, "main-models-ko.png")
    delete = DeleteDialog("gemma-4", "Q4_K_M", "huggingface", size=3_460_000_000, parent=window)
    delete.free_disk_box.setChecked(True)
    delete.show()
    shot(delete, "delete-dialog-ko.png")
    delete.close()
    window.nav.setCurrentRow(0)
    shot(window, "chat-ko.png")
    window.set_language("en")

    window.shutdown()
    window.store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
