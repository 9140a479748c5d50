"""Regenerate docs/screenshots/*.png: the real app, offscreen, on the real embedded model.

    QT_QPA_PLATFORM=offscreen python scripts/screenshots.py [--out DIR] [--no-model] [--review]

``--no-model`` skips running a model (the chat shots show an empty chat, Auto is not measured,
no server-panel shot; quick layout previews);
``--review`` adds every page and dialog in every locale (for checking layouts, not for the docs);
``--out`` writes somewhere other than docs/screenshots.

The chat shots run SmolLM2-135M F32 with its Q4_1 file as drafter through llama.cpp (one thread),
then click the answer's Measure button, which runs the same prompt without speculation: the
highlighted text, the statistics and the speedup are real measurements of this machine (on a
busy shared machine the speedup can be below 1, and the shot shows it). The launch dialog's Auto
panel shows a real measurement of the same model; the Remote server tab shows a typed endpoint
and the vLLM command for Gemma 4 (no server is asked: the tab's listing is tested in tests/gui);
the hub search shows the results of the test suite's loopback search hub (tandem-test/*
repositories, files served by a local olah mirror), never the real hubs; the Local server panel
logs one real request to the loaded model. Everything is written under a temporary TANDEM_HOME /
HF_HOME, and keys go to an in-memory keyring. CJK text needs a CJK font (Debian: fonts-noto-cjk alone:
with fonts-wqy-microhei installed too, Japanese and Korean pick Chinese glyphs).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--no-model", action="store_true", help="skip the shots that run a model")
    parser.add_argument("--review", action="store_true", help="every page and dialog in every locale")
    parser.add_argument(
        "--images-only", action="store_true", help="only the chat-with-a-picture shots (English, Japanese)"
    )
    args = parser.parse_args()
    out: Path = args.out
    home = Path(tempfile.mkdtemp(prefix="tandem-shots-"))
    if os.environ.get("QT_QPA_PLATFORM", "offscreen") == "offscreen":
        # offscreen's default screen is 800x800, and Qt caps a dialog's first size at 2/3 of the
        # screen: a desktop-sized virtual screen, so dialogs open as they do on a real monitor
        screen = home / "screen.json"
        screen.write_text(
            '{"screens": [{"name": "shots", "x": 0, "y": 0, "width": 1920, "height": 1200, '
            '"logicalDpiX": 96, "logicalDpiY": 96, "dpr": 1}]}',
            "utf-8",
        )
        os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={screen}"
    os.environ["TANDEM_HOME"] = str(home / "tandem")
    for var, rel in (("HF_HOME", "hf"), ("HF_HUB_CACHE", "hf/hub"), ("MODELSCOPE_CACHE", "modelscope")):
        os.environ[var] = str(home / rel)
    os.environ["HF_HUB_DISABLE_TELEMETRY"] = "1"
    os.environ.setdefault("TANDEM_EMBEDDED_DIR", str(Path.home() / ".cache" / "tandem-test-assets"))
    os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"

    import keyring
    from keyring.backend import KeyringBackend
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtGui import QFont
    from PySide6.QtWidgets import QSplitter, QWidget

    from app.core.settings import Settings
    from app.core.speculative import SpeculationOptions
    from app.gui.app import create_application
    from app.gui.errors import ErrorBridge
    from app.gui.i18n import I18n
    from app.gui.main_window import MainWindow
    from app.gui.views.delete_dialog import DeleteDialog
    from app.gui.views.launch_dialog import LaunchChoice, LaunchDialog
    from app.gui.views.stats import StatsStrip
    from app.gui.widgets import fit_dialog_height

    class MemoryKeyring(KeyringBackend):
        """The Remote tab stores the typed key: in memory here, never in the user's keyring."""

        priority = 1  # type: ignore[assignment]

        def __init__(self) -> None:
            super().__init__()
            self.values: dict[tuple[str, str], str] = {}

        def get_password(self, service: str, username: str) -> str | None:
            return self.values.get((service, username))

        def set_password(self, service: str, username: str, password: str) -> None:
            self.values[(service, username)] = password

        def delete_password(self, service: str, username: str) -> None:
            self.values.pop((service, username), None)

    keyring.set_keyring(MemoryKeyring())

    app = create_application(sys.argv[:1])
    app.setFont(QFont("Noto Sans", 10))
    out.mkdir(parents=True, exist_ok=True)
    i18n = I18n(app)
    errors = ErrorBridge()
    errors.raised.connect(lambda e: print("error:", e.title, e.message, file=sys.stderr))
    window = MainWindow(Settings(), i18n, errors, save_settings=False)
    window.resize(1280, 800)
    window.show()

    def wait(signal: Any, ms: int, trigger: Callable[[], object] | None = None) -> tuple[Any, ...] | None:
        """Run ``trigger`` and wait for ``signal`` (at most ``ms``); its arguments, None on timeout."""
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

    def wait_until(done: Callable[[], bool], ms: int) -> bool:
        loop = QEventLoop()
        poll = QTimer()
        poll.timeout.connect(lambda: done() and loop.quit())
        poll.start(50)
        QTimer.singleShot(ms, loop.quit)
        if not done():
            loop.exec()
        poll.stop()
        return done()

    def settle() -> None:
        # Long enough for the switch's 120 ms slide and any queued relayout to finish.
        loop = QEventLoop()
        QTimer.singleShot(300, loop.quit)
        loop.exec()
        for _ in range(5):
            app.processEvents()

    def shot(widget: QWidget, name: str) -> None:
        settle()
        widget.grab().save(str(out / name))
        print("wrote", out / name, flush=True)

    def image_chat() -> None:
        """A picture dropped into the chat of the tiny Gemma 4 pair (agreeing target and assistant,
        gemma4v projector; the test suite's files) on llama.cpp with MTP: the answer's drafted
        tokens highlighted, the picture as a thumbnail, one more picture waiting in the box."""
        from PySide6.QtCore import QMimeData, QUrl

        from app.devtools.images import write_image
        from app.devtools.tiny_models import tiny_vision_family

        window.registry.register(tiny_vision_family("gemma-4-tiny-vision", agree=True))
        family, spec, _q = window.registry.match("gemma-4-tiny-vision", "gguf", None, "F32")
        sampling = window.chat.sampling.__class__(temperature=0.0, max_tokens=40)
        options = SpeculationOptions.build(enabled=True, method="mtp", num_speculative_tokens=3)
        choice = LaunchChoice(family, spec, "F32", "llama.cpp", options, 2048, None, sampling)
        wait(window.modelLoaded, 600_000, lambda: window.start_load(choice))
        window.chat.sampling = sampling
        window.nav.setCurrentRow(0)
        pictures = home / "pictures"
        pictures.mkdir(exist_ok=True)
        composer = window.chat_view.composer
        drop = QMimeData()
        drop.setUrls(
            [QUrl.fromLocalFile(str(write_image(pictures / "lighthouse.jpg", (1600, 1200), "RGB", "JPEG")))]
        )
        composer.input.insertFromMimeData(drop)
        composer.input.setPlainText("What is in this picture?")
        wait(window.chat.answerFinished, 300_000, composer.button.click)
        composer.add_images([write_image(pictures / "second.png", (400, 300), "RGBA")])
        composer.input.setPlainText("And this one?")
        shot(window, "chat-image.png")
        window.set_language("ja")
        shot(window, "chat-image-ja.png")
        window.set_language("en")

    def open_dialog(family: Any, spec: Any, quant: str) -> LaunchDialog:
        """The launch dialog opens once its checks ran on a worker: wait for it."""
        opened = wait(
            window.launchDialogOpened, 60_000, lambda: window.open_launch_dialog(family, spec, quant)
        )
        if opened is None:
            raise SystemExit("the launch dialog did not open within 60 s")
        dlg: LaunchDialog = opened[0]
        wait_until(lambda: dlg.auto_panel.state != "checking" and dlg.fit.verdict != "checking", 30_000)
        return dlg

    def close_dialog(dlg: LaunchDialog) -> None:
        dlg.reject()
        settle()

    def fitted(dlg: QWidget) -> QWidget:
        settle()
        dlg.adjustSize()
        fit_dialog_height(dlg)  # texts filled in after opening (Auto's result) need the height too
        return dlg

    if args.images_only:
        image_chat()
        window.shutdown()
        window.store.close()
        shutil.rmtree(home, ignore_errors=True)
        return 0

    smol = window.registry.match("smollm2-135m-instruct", "gguf", None, "F32")
    gemma4_e4b = window.registry.match("gemma-4", "gguf", "E4B", "Q4_K_M")
    gemma3 = window.registry.match("gemma-3-270m", "gguf")

    def models_page(name: str) -> None:
        """The Models page: the families newest first, one with a drafter selected: its Memory
        column with each file's size, an unverified variant tagged."""
        window.nav.setCurrentRow(1)
        window.browser.select_family("gemma-3-it")
        window.browser.tree.expandAll()
        tree = window.browser.specs
        wait_until(lambda: not tree.fitting(), 20_000)
        settle()
        shot(window, name)

    def auto_dialog(name: str) -> None:
        """SmolLM2 F32 (on disk): the Auto panel with what it measured (or will measure)."""
        dlg = open_dialog(*smol)
        shot(fitted(dlg), name)
        close_dialog(dlg)

    # --- Models page --------------------------------------------------------------------------------
    models_page("main-models.png")

    # --- Launch dialog: Auto (the default), measured on this machine when a model may run ----------
    if not args.no_model:
        dlg = open_dialog(*smol)
        if dlg.auto_panel.state == "unmeasured":
            dlg.auto_panel.remeasure.click()
            wait_until(lambda: dlg.auto_panel.state not in ("measuring", "checking"), 600_000)
            print("Auto:", dlg.auto_panel.state, dlg.auto_panel.chosen.text(), flush=True)
        close_dialog(dlg)
    auto_dialog("launch-dialog-speculative.png")

    # Auto off and no drafter: speculation off
    dlg = open_dialog(*smol)
    dlg.auto_panel.switch.setChecked(False)
    dlg.enable.setChecked(False)
    shot(fitted(dlg), "launch-dialog-speculative-off.png")
    close_dialog(dlg)

    dlg = open_dialog(*gemma3)
    shot(fitted(dlg), "launch-dialog-no-drafter.png")
    close_dialog(dlg)

    # --- Launch dialog: Remote server tab --------------------------------------------------------------
    # Gemma 4 E4B with the vLLM command (MTP assistant); the endpoint is typed, not listed (no
    # real vLLM server here, and a loopback llama.cpp server would list another model).
    dlg = open_dialog(*gemma4_e4b)
    dlg.mode.setCurrentIndex(1)
    edit = dlg.remote.url.lineEdit()
    if edit is not None:
        edit.setText("https://gpu-box.example.org:8000/v1")
    dlg.remote.serve_engine.setCurrentIndex(dlg.remote.serve_engine.findData("vllm"))
    dlg.resize(1180, dlg.height())  # the whole command line in view
    fit_dialog_height(dlg)
    shot(dlg, "launch-dialog-remote.png")
    close_dialog(dlg)

    # --- Delete confirmation: the safe default, then with "Also free disk space" and its warning --------
    delete = DeleteDialog("gemma-4", "Q4_K_M", "huggingface", size=3_460_000_000, parent=window)
    delete.show()
    shot(delete, "delete-dialog.png")
    delete.free_disk_box.setChecked(True)
    shot(delete, "delete-dialog-free-disk.png")
    delete.close()

    # --- Settings -------------------------------------------------------------------------------------
    settings_dlg = window.open_settings()
    shot(fitted(settings_dlg), "settings.png")
    settings_dlg.reject()

    # --- Hub search against the test suite's loopback hubs ---------------------------------------------
    def hub_search(name: str) -> None:
        from app.devtools.hubs.huggingface import HFSearchHub, OlahHub
        from app.devtools.hubs.repos import TINY_REPO, build_hf_repo, search_catalogue, tiny_repo_files

        olah = OlahHub(home / "olah")
        build_hf_repo(olah.mirrors, TINY_REPO, dict(tiny_repo_files()))
        olah.start(TINY_REPO)
        try:
            with HFSearchHub(search_catalogue(), upstream=olah.endpoint, page_size=10) as hub:
                os.environ["HF_ENDPOINT"] = hub.endpoint
                page = window.browser
                panel = page.hub_search
                panel.endpoint = hub.endpoint
                window.nav.setCurrentRow(1)
                panel.scope.setCurrentIndex(panel.scope.findData("huggingface"))
                page.format.setCurrentIndex(page.format.findData("gguf"))
                page.search.setText("tandem-test")
                wait(panel.searchFinished, 30_000, panel.search_from_field)
                ids = [panel.results.item(r, 0).text() for r in range(panel.results.rowCount())]
                if TINY_REPO in ids:
                    wait(panel.filesListed, 60_000, lambda: panel.results.selectRow(ids.index(TINY_REPO)))
                split = panel.findChild(QSplitter)
                if split is not None:  # room for the repository names
                    split.setSizes([640, 430])
                shot(window, name)
                panel.scope.setCurrentIndex(panel.scope.findData(""))
                page.search.clear()
                page.format.setCurrentIndex(0)
                os.environ.pop("HF_ENDPOINT", None)
        finally:
            olah.stop()

    hub_search("hub-search.png")

    # --- Chat: a real answer with speculation ------------------------------------------------------------
    def load_and_chat() -> None:
        """A real chat with speculation: SmolLM2 F32 target + Q4_1 drafter, then "Measure" in the
        answer's statistics strip runs the same prompt without speculation, so the strip shows the
        direct speedup this answer obtained on this machine (whatever it is: it can be below 1)."""
        family, spec, _q = smol
        sampling = window.chat.sampling.__class__(temperature=0.0, max_tokens=160)
        window.chat.sampling = sampling
        # One thread: on a shared 2-core machine a busy neighbour stalls llama.cpp's thread
        # barrier and makes either run several times slower, so the comparison would be noise.
        options = SpeculationOptions.build(
            enabled=True, method="draft", draft_quantization="Q4_1", num_speculative_tokens=6
        )
        choice = LaunchChoice(family, spec, "F32", "llama.cpp", options, 2048, 1, sampling)
        wait(window.modelLoaded, 600_000, lambda: window.start_load(choice))
        window.nav.setCurrentRow(0)
        wait(
            window.chat.answerFinished,
            300_000,
            lambda: window.chat.send(
                "Write a Python function that checks whether a number is prime, with a short explanation."
            ),
        )
        settle()
        strips = [s for s in window.chat_view.findChildren(StatsStrip) if s.measure_btn.isVisible()]
        if strips:
            wait(window.chat.measured, 300_000, strips[-1].measure_btn.click)
        else:
            print("no Measure button in the statistics strip", file=sys.stderr)
        settle()
        window.chat_view.scroller.verticalScrollBar().setValue(0)
        shot(window, "chat-speculative.png")

    window.nav.setCurrentRow(0)
    if args.no_model:
        shot(window, "chat-speculative.png")
    else:
        load_and_chat()

    # --- Local server: serves the loaded model; one real request in its log ----------------------------
    if not args.no_model:
        switch = window.server_switch
        # a click starts the server (setChecked alone does not: the switch acts on clicks)
        wait(switch.controller.stateChanged, 30_000, switch.click)
        settle()
        if switch.controller.running:
            ask_local_server(switch.controller, wait)
            switch.panel.resize(780, max(340, switch.panel.sizeHint().height()))
            shot(switch.panel, "server-panel.png")
            switch.panel.hide()
            wait(switch.controller.stateChanged, 30_000, switch.controller.stop)
        else:
            print("the local server did not start", file=sys.stderr)

    if args.review:
        for locale in ("en", "ja", "ko", "zh_CN"):
            review(window, locale, shot, open_dialog, close_dialog, fitted, smol, gemma3)

    # --- The same window in Japanese, Korean and Simplified Chinese ---------------------------------------
    window.set_language("ja")
    window.nav.setCurrentRow(0)
    shot(window, "chat-ja.png")
    models_page("main-models-ja.png")
    window.set_language("ko")
    window.nav.setCurrentRow(0)
    shot(window, "chat-ko.png")
    models_page("main-models-ko.png")
    delete = DeleteDialog("gemma-4", "Q4_K_M", "huggingface", size=3_460_000_000, parent=window)
    delete.free_disk_box.setChecked(True)
    delete.show()
    shot(delete, "delete-dialog-ko.png")
    delete.close()
    window.set_language("zh_CN")
    models_page("main-models-zh_CN.png")
    auto_dialog("launch-dialog-zh_CN.png")
    window.set_language("en")

    # --- "My models": an imported model, its badges and the disk its files use ---------------------
    # a file of the user's own, as a download folder would hold it (a link: no 500 MB copy)
    imported = home / "Models" / "SmolLM2-135M-Instruct.F32.gguf"
    imported.parent.mkdir(parents=True, exist_ok=True)
    source = window.cache.resolve(smol[0], smol[1], "target", smol[2])
    try:
        os.link(source, imported)
    except OSError:
        shutil.copyfile(source, imported)
    opened = window.importer.import_path(imported)
    if opened is not None:
        wait_until(lambda: not opened.finding(), 30_000)
        opened.reject()
        page = window.browser
        window.nav.setCurrentRow(1)
        scope = page.hub_search.scope
        scope.setCurrentIndex(scope.findData("mine"))
        wait_until(lambda: page.proxy.rowCount() == 1 and "…" not in page.disk_total.text(), 30_000)
        page.select_family(opened.family.name)
        shot(window, "main-models-mine.png")
        window.set_language("ja")
        wait_until(lambda: "…" not in page.disk_total.text(), 10_000)
        shot(window, "main-models-mine-ja.png")
        window.set_language("en")
        scope.setCurrentIndex(scope.findData(""))

    window.shutdown()
    window.store.close()
    shutil.rmtree(home, ignore_errors=True)
    return 0


def ask_local_server(controller: Any, wait: Callable[..., Any]) -> None:
    """One short chat completion to the local server from another thread (the way another program
    would), waiting until the panel's log has it."""
    import json
    import threading
    import urllib.request

    root, key = controller.address.rstrip("/"), controller.key
    body = {
        "model": "default",
        "messages": [{"role": "user", "content": "Say hello in five words."}],
        "max_tokens": 24,
        "temperature": 0,
    }
    req = urllib.request.Request(
        (root if root.endswith("/v1") else root + "/v1") + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
    )

    def call() -> None:
        try:
            urllib.request.urlopen(req, timeout=120).read()
        except OSError as exc:
            print("the local server's request failed:", exc, file=sys.stderr)

    client = threading.Thread(target=call, name="shots-client")
    wait(controller.requestServed, 120_000, client.start)
    client.join(120)


def review(
    window: Any,
    locale: str,
    shot: Callable[[Any, str], None],
    open_dialog: Callable[..., Any],
    close_dialog: Callable[[Any], None],
    fitted: Callable[[Any], Any],
    smol: tuple[Any, ...],
    gemma3: tuple[Any, ...],
) -> None:
    """Every page and dialog in ``locale``, for a layout check (not for the docs)."""
    from PySide6.QtWidgets import QApplication

    from app.gui.views.delete_dialog import DeleteDialog

    window.set_language(locale)
    for row, page in enumerate(("chat", "models", "downloads")):
        window.nav.setCurrentRow(row)
        shot(window, f"review-{page}-{locale}.png")
    for tag, fam in (("auto", smol), ("no-drafter", gemma3)):
        d = open_dialog(*fam)
        shot(fitted(d), f"review-launch-{tag}-{locale}.png")
        close_dialog(d)
    d = open_dialog(*smol)
    d.mode.setCurrentIndex(1)
    shot(fitted(d), f"review-launch-remote-{locale}.png")
    close_dialog(d)
    for free in (False, True):
        d2 = DeleteDialog("gemma-4", "Q4_K_M", "huggingface", size=3_460_000_000, parent=window)
        d2.free_disk_box.setChecked(free)
        d2.show()
        shot(d2, f"review-delete-{'free-' if free else ''}{locale}.png")
        d2.close()
    s = window.open_settings()
    shot(fitted(s), f"review-settings-{locale}.png")
    s.reject()
    window.server_switch.panel.show()
    shot(window.server_switch.panel, f"review-server-panel-{locale}.png")
    window.server_switch.panel.hide()
    window.chat_view.settings_btn.click()
    sampling = QApplication.activeModalWidget()
    if sampling is not None:
        shot(sampling, f"review-sampling-{locale}.png")
        sampling.close()
    window.set_language("en")


if __name__ == "__main__":
    raise SystemExit(main())
