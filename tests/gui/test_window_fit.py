"""Every text of the window fits where it is shown, at 1366 x 768, in every language.

On a 1366 x 768 laptop nothing may be cut: not the status bar mid-word with no ellipsis ("…64/round
while measu", "135M ("), not the chat header's title down to a few characters ("Col…"), not
Settings' notes; and the Local server panel has a close button. Here the real window (a scripted
engine stands in for the model; the Local server serves it and logs one real request) is laid out
at 1366 x 768 and at the size it opens with on that screen (1200 x 720), in English, Chinese,
Japanese and Korean through the app's language switch; each page, Settings' tabs, the Local
server panel, the launch dialog, the conversation's settings and an answer's statistics are
checked with :func:`tests.gui.text_fit.cut_texts`: every label, button and check box either fits
its rectangle (font metrics against geometry), wraps into enough height, or is elided with "…"
and says its whole text in its tooltip. Dialogs get the height a 1366 x 768 screen leaves them
(the offscreen screen is taller).

Texts in Chinese, Japanese and Korean are measured on the glyphs of a CJK font; without one
(Debian: fonts-noto-cjk) those locales are skipped: boxes would be measured instead.
"""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QWidget

from app.core.launch.plan import DEFAULT_MODEL
from app.gui.errors import UserError
from app.gui.main_window import PAGE_CHAT, PAGE_DOWNLOADS, PAGE_MODELS
from app.gui.theme import Theme
from app.gui.views.chat.sampling_dialog import SamplingDialog
from app.gui.views.stats import StatsDialog
from app.gui.widgets import SCREEN_MARGIN
from tests.gui.conftest import ScriptedEngine, scripted_loader
from tests.gui.text_fit import cut_texts, shown_texts

LOCALES = ("en", "zh_CN", "ja", "ko")
SCREEN = (1366, 768)
#: the window's sizes on that screen: filling it, and as ``tandem`` opens it (show_fitted)
WINDOW_SIZES = ((1366, 768), (1200, 720))
#: the tallest a dialog may be on that screen (widgets.screen_height_cap)
DIALOG_HEIGHT = SCREEN[1] - SCREEN_MARGIN


def _has_cjk_font() -> bool:
    try:
        found = subprocess.run(["fc-list", ":lang=ja"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return bool(found.strip())


@pytest.fixture(scope="module")
def cjk_font() -> bool:
    return _has_cjk_font()


@pytest.fixture(autouse=True)
def app_look(qapp: QApplication) -> Iterator[None]:
    """The application's stylesheet and palette, as ``create_application`` gives them (pytest-qt's
    application has none): its font size and paddings decide what fits."""
    sheet, palette = qapp.styleSheet(), qapp.palette()
    theme = Theme.of(qapp)
    yield
    theme.apply("system")
    theme.setParent(None)  # the next test's application is as pytest-qt made it
    theme.deleteLater()
    qapp.setStyleSheet(sheet)
    qapp.setPalette(palette)


def _need_font(locale: str, cjk_font: bool) -> None:
    if locale != "en" and not cjk_font:
        pytest.skip("no CJK font installed (Debian: fonts-noto-cjk): the texts would be measured on boxes")


def assert_fits(qtbot: Any, window: QWidget, where: str, least: int = 4) -> None:
    """Every text of ``window`` fits once its layout settled (a language switch or a page shown
    lays out over the next turns of the event loop); at least ``least`` texts were looked at."""
    assert len(shown_texts(window)) >= least, (where, [type(w).__name__ for w in shown_texts(window)])
    with contextlib.suppress(AssertionError):  # said below, with the texts
        qtbot.waitUntil(lambda: not cut_texts(window), timeout=3_000)
    cuts = cut_texts(window)
    assert not cuts, f"{where}: texts that do not fit:\n" + "\n".join(f"  {c}" for c in cuts)


def _as_on_the_screen(dialog: QWidget) -> None:
    """What a 1366 x 768 screen leaves a dialog: never taller than its cap there (the rest scrolls)."""
    dialog.setMaximumHeight(DIALOG_HEIGHT)
    dialog.setMaximumWidth(SCREEN[0])


def _serve_one_request(w: Any, qtbot: Any) -> None:
    switch = w.server_switch
    with qtbot.waitSignal(switch.controller.stateChanged, timeout=10_000):
        switch.click()
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 8}
    headers = {"Authorization": f"Bearer {switch.controller.key}"}
    ok = httpx.post(switch.controller.address + "/chat/completions", json=body, headers=headers, timeout=30)
    assert ok.status_code == 200
    qtbot.waitUntil(lambda: switch.panel.log.count() == 1, timeout=10_000)
    switch.panel.hide()


def _ask(w: Any, qtbot: Any, text: str) -> None:
    with qtbot.waitSignal(w.chat.answerFinished, timeout=40_000):
        w.chat_view.composer.input.setPlainText(text)
        w.chat_view.composer.button.click()


def _dialog(make: Callable[[], None], qtbot: Any, kind: type[QDialog]) -> QDialog:
    """Run ``make`` and return the dialog of ``kind`` it opened."""
    before = {id(x) for x in QApplication.topLevelWidgets()}
    make()
    found: list[QDialog] = []

    def opened() -> bool:
        found[:] = [
            x
            for x in QApplication.topLevelWidgets()
            if isinstance(x, kind) and id(x) not in before and x.isVisible()
        ]
        return bool(found)

    qtbot.waitUntil(opened, timeout=5_000)
    return found[0]


@pytest.fixture
def served_window(make_window: Any, qtbot: Any) -> Iterator[Any]:
    """The window with a model loaded, one answered conversation and the Local server on (one
    request in its log)."""
    w = make_window(loader=scripted_loader(ScriptedEngine(text="Red, orange and yellow are three of them.")))
    with qtbot.waitSignal(w.modelLoaded, timeout=10_000):
        w.load_default_model()
    _ask(w, qtbot, "Name three colours of the rainbow, and say which of them is the warmest one.")
    _serve_one_request(w, qtbot)
    yield w
    w.server_switch.panel.hide()
    w.set_language("en")  # the window's shutdown stops the server


@pytest.mark.parametrize("locale", LOCALES)
def test_every_text_of_the_window_fits_at_1366x768(
    served_window: Any, qtbot: Any, locale: str, cjk_font: bool
) -> None:
    _need_font(locale, cjk_font)
    w = served_window
    w.set_language(locale)
    QCoreApplication.processEvents()
    assert w.server_switch.isChecked() and w.status_spec.text() and w.eject_btn.isVisible()
    for width, height in WINDOW_SIZES:
        w.resize(width, height)
        qtbot.waitUntil(
            lambda width=width, height=height: w.size().toTuple() == (width, height), timeout=3_000
        )
        for page, name in ((PAGE_CHAT, "chat"), (PAGE_MODELS, "models"), (PAGE_DOWNLOADS, "downloads")):
            w.nav.setCurrentRow(page)
            assert_fits(qtbot, w, f"{locale} {name} page at {width}x{height}", least=10)
        w.nav.setCurrentRow(PAGE_CHAT)
        assert w.chat_view.bubbles, "the chat page shows a conversation"
    # an error in the banner, over the chat
    w.show_error(
        UserError(
            w.tr("The model could not be loaded"),
            "llama.cpp could not open the model file: " + "the file ends before its tensors do. " * 3,
            "Delete the file and download it again from the Models page.",
            "details",
        )
    )
    assert w.banner.isVisible()
    assert_fits(qtbot, w, f"{locale} chat page with an error")
    w.banner.close_btn.click()

    # Settings, every tab
    dlg = w.open_settings()
    _as_on_the_screen(dlg)
    qtbot.waitExposed(dlg)
    assert dlg.tabs is not None
    for tab in range(dlg.tabs.count()):
        dlg.tabs.setCurrentIndex(tab)
        assert_fits(qtbot, dlg, f"{locale} Settings tab {dlg.tabs.tabText(tab)!r}")
    dlg.reject()

    # the Local server panel, with its request
    switch = w.server_switch
    switch.click()  # the running server's switch opens its panel
    panel = switch.panel
    qtbot.waitUntil(panel.isVisible, timeout=5_000)
    _as_on_the_screen(panel)
    assert panel.log.count() == 1 and panel.close_btn.isVisible()
    assert_fits(qtbot, panel, f"{locale} Local server panel")
    panel.hide()

    # the conversation's settings and an answer's statistics
    sampling = _dialog(w.chat_view.settings_btn.click, qtbot, SamplingDialog)
    _as_on_the_screen(sampling)
    assert_fits(qtbot, sampling, f"{locale} conversation settings")
    sampling.reject()
    bubble = w.chat_view.bubbles[-1]
    stats = _dialog(bubble.stats_strip.detailsRequested.emit, qtbot, StatsDialog)
    _as_on_the_screen(stats)
    assert_fits(qtbot, stats, f"{locale} answer statistics")
    stats.reject()

    # the launch dialog of the default model
    family, spec, quant = w.registry.match(*DEFAULT_MODEL)
    with qtbot.waitSignal(w.launchDialogOpened, timeout=30_000) as opened:
        w.open_launch_dialog(family, spec, quant)
    launch: QDialog = opened.args[0]
    _as_on_the_screen(launch)
    qtbot.waitExposed(launch)
    assert_fits(qtbot, launch, f"{locale} launch dialog")
    launch.reject()


@pytest.mark.usefixtures("smollm2_q4")
def test_the_status_bar_of_an_auto_launch_fits_in_every_language(
    make_window: Any, qtbot: Any, cjk_font: bool
) -> None:
    """The real embedded model launched with Auto (nothing measured: the status bar's longest
    speculation, "Auto: ngram-mod 64/round while measuring"), serving on the Local server: every
    text of the status bar fits, or is shortened after a whole word with its tooltip, in every
    language at 1366 x 768 and at the window's opening size there; no English "off" or "round"
    is left in the other languages."""
    w = make_window()
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000) as loaded:
        w.load_default_model()
    assert loaded.args[0].auto is not None
    with qtbot.waitSignal(w.server_switch.controller.stateChanged, timeout=20_000):
        w.server_switch.click()
    w.server_switch.panel.hide()
    assert "while measuring" in w.status_spec.text()
    for locale in LOCALES:
        if locale != "en" and not cjk_font:
            continue
        w.set_language(locale)
        QCoreApplication.processEvents()
        if locale != "en":
            assert "round" not in w.status_spec.text() and " off" not in w.status_spec.text()
        for width, height in WINDOW_SIZES:
            w.resize(width, height)
            qtbot.waitUntil(lambda size=(width, height): w.size().toTuple() == size, timeout=3_000)
            assert_fits(qtbot, w, f"{locale} window of an Auto launch at {width}x{height}")
    w.set_language("en")


def _badge_lines(label: Any) -> list[str]:
    """The lines the Models page's badges are laid out in at the label's width."""
    doc = QTextDocument()
    doc.setDefaultFont(label.font())
    doc.setDocumentMargin(0)
    doc.setHtml(label.text())
    doc.setTextWidth(label.contentsRect().width())
    doc.size()  # lays the document out
    lines: list[str] = []
    block = doc.begin()
    while block.isValid():
        layout, text = block.layout(), block.text()
        for i in range(layout.lineCount()):
            line = layout.lineAt(i)
            lines.append(text[line.textStart() : line.textStart() + line.textLength()].replace("\u2060", ""))
        block = block.next()
    return lines


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_the_context_badge_never_wraps(make_window: Any, qtbot: Any, locale: str, cjk_font: bool) -> None:
    """The Models page's badges break between badges, never inside one ("262,144 tokens" of
    context was split over two lines), however narrow the page."""
    _need_font(locale, cjk_font)
    w = make_window()
    w.set_language(locale)
    w.nav.setCurrentRow(PAGE_MODELS)
    page = w.browser
    longest = max(
        (f for f in w.registry.families.values() if f.context_length),
        key=lambda f: f.context_length,
    )
    page.select_family(longest.name)
    qtbot.waitUntil(lambda: f"{longest.context_length:,}" in page.badges.text(), timeout=5_000)
    context = f"{longest.context_length:,}"
    for width in (1366, 1100, 900):
        w.resize(width, 768)
        qtbot.waitUntil(lambda width=width: w.width() == width, timeout=3_000)
        lines = _badge_lines(page.badges)
        holding = [line for line in lines if context in line.replace("\xa0", " ")]
        assert len(holding) == 1, (locale, width, lines)
        # the whole badge is on that line: its words before and after the number too
        whole = QTextDocument()
        whole.setHtml(page.badges.text())
        badges = whole.toPlainText().replace("\u2060", "").replace("\xa0", " ").split("   ")
        badge = next(b.strip() for b in badges if context in b)
        assert badge in holding[0].replace("\xa0", " "), (badge, lines)


def test_the_status_bar_follows_the_conversation_and_a_new_chat_names_no_last_answer(
    make_window: Any, qtbot: Any
) -> None:
    """The status bar's speculation is the shown conversation's choice; "last answer" belongs to
    the conversation shown: a new chat shows none, and going back shows that conversation's."""
    w = make_window(loader=scripted_loader(ScriptedEngine(text="one two three four five six")))
    with qtbot.waitSignal(w.modelLoaded, timeout=10_000):
        w.load_default_model()
    choice = w.chat_page.speculation
    loaded = w.status_spec.text()
    assert loaded == "Speculation: off"  # the scripted window launches without speculation
    _ask(w, qtbot, "Count to six.")
    first = w.chat.conversation_id
    # what the chat reports once an answer of an engine pool ends (a scripted engine has none)
    w.chat.speculation.answered("ngram-mod")
    answered = "last answer: ngram-mod"
    assert choice.answered.isVisibleTo(choice) and choice.answered.text() == answered

    method = choice.entry("scripted")  # the engine's own method, chosen for this conversation
    assert method is not None
    choice.combo.setCurrentIndex(method.row())
    assert w.store.conversation(first).speculation == "scripted"
    assert w.status_spec.text() == "Speculation: scripted"
    assert "This conversation's choice" in w.status_spec.toolTip()
    assert not choice.answered.isVisibleTo(choice)  # the next answer names its own

    w.new_chat()  # a new chat starts at Auto: what the model was loaded with; no last answer yet
    assert choice.value.name == "auto" and w.status_spec.text() == loaded
    assert not choice.answered.isVisibleTo(choice)

    w.chat.open_conversation(first)
    assert w.status_spec.text() == "Speculation: scripted"
    auto = choice.entry("auto")
    assert auto is not None
    choice.combo.setCurrentIndex(auto.row())
    assert w.status_spec.text() == loaded
    _ask(w, qtbot, "Again.")
    w.chat.speculation.answered("ngram-mod")
    assert choice.answered.text() == answered
    w.new_chat()
    assert not choice.answered.isVisibleTo(choice)
    w.chat.open_conversation(first)
    assert choice.answered.isVisibleTo(choice) and choice.answered.text() == answered


def test_status_words_and_the_request_log_are_in_the_users_language(
    served_window: Any, qtbot: Any, cjk_font: bool
) -> None:
    """In Japanese the status bar says オフ, never "off", and the request log's line is Japanese."""
    _need_font("ja", cjk_font)
    w = served_window
    w.set_language("ja")
    QCoreApplication.processEvents()
    choice = w.chat_page.speculation
    off = choice.entry("off")
    assert off is not None
    choice.combo.setCurrentIndex(off.row())
    assert w.status_spec.text() == "投機：オフ"
    line = w.server_switch.panel.log.item(0).text()
    assert "single" not in line and "drafted" not in line, line
    assert "トークン" in line and "一括" in line, line


def test_the_status_bar_shortens_after_whole_words(served_window: Any, qtbot: Any) -> None:
    """Too narrow for its labels, the status bar shortens them after a whole word with "…", and
    says each whole in its tooltip; the switch, Eject and the memory keep their whole texts."""
    w = served_window
    w.resize(900, 600)  # the window's least size
    qtbot.waitUntil(lambda: w.width() == 900, timeout=3_000)
    qtbot.waitUntil(lambda: w.status_model.is_elided() or w.status_spec.is_elided(), timeout=3_000)
    for label in (w.status_model, w.status_engine, w.status_spec):
        if not label.is_elided():
            continue
        shown, full = label.shown_text(), label.text()
        assert shown.endswith("…"), shown
        kept = shown.removesuffix("…").rstrip()
        assert full.startswith(kept), (shown, full)
        # cut after a whole word or a whole part of one; inside a word only past the label's name
        whole = kept.endswith(("-", "/", "_")) or full[len(kept)] == " "
        assert whole or kept.startswith(full.split(" ")[0] + " "), (shown, full)
        assert label.text() in label.toolTip()
    for fixed in (w.server_switch, w.eject_btn):
        assert fixed.width() >= fixed.sizeHint().width()
    assert_fits(qtbot, w, "en window at 900x600")


def test_the_local_server_panel_closes_with_its_button_and_escape(served_window: Any, qtbot: Any) -> None:
    w = served_window
    switch = w.server_switch
    panel = switch.panel
    switch.click()
    qtbot.waitUntil(panel.isVisible, timeout=5_000)
    screen = panel.screen().availableGeometry()
    assert panel.height() <= screen.height() - SCREEN_MARGIN
    panel.close_btn.click()
    assert not panel.isVisible() and switch.controller.running  # closing does not stop serving
    switch.click()
    qtbot.waitUntil(panel.isVisible, timeout=5_000)
    panel.activateWindow()
    QTest.keyClick(panel, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not panel.isVisible(), timeout=3_000)
    assert switch.controller.running


def _press_quit(w: Any, qtbot: Any) -> None:
    """Ctrl+Q (Cmd+Q on macOS) in the active window: its Quit action, through its shortcut."""
    keys = w.quit_action.shortcuts()
    assert keys
    w.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=3_000)
    QTest.keySequence(w, keys[0])


def test_ctrl_q_quits(make_window: Any, qtbot: Any) -> None:
    w = make_window()
    w.activateWindow()
    assert any(k.toString() in ("Ctrl+Q", "Meta+Q") for k in w.quit_action.shortcuts())
    _press_quit(w, qtbot)
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=3_000)
    assert w._closed


def test_ctrl_q_asks_first_while_an_answer_is_written(make_window: Any, qtbot: Any) -> None:
    import threading

    release = threading.Event()
    w = make_window(loader=scripted_loader(ScriptedEngine(gate=lambda i: i and release.wait(10))))
    with qtbot.waitSignal(w.modelLoaded, timeout=10_000):
        w.load_default_model()
    w.chat_view.composer.input.setPlainText("Write a long answer.")
    w.chat_view.composer.button.click()
    qtbot.waitUntil(lambda: w.chat.generating, timeout=5_000)
    w.activateWindow()
    _press_quit(w, qtbot)
    qtbot.waitUntil(lambda: w.quit_box is not None and w.quit_box.isVisible(), timeout=3_000)
    box: QMessageBox = w.quit_box
    assert "being written" in box.text()
    box.button(QMessageBox.StandardButton.Cancel).click()  # keep writing
    qtbot.waitUntil(lambda: w.quit_box is None, timeout=3_000)
    assert w.isVisible() and w.chat.generating
    _press_quit(w, qtbot)
    qtbot.waitUntil(lambda: w.quit_box is not None and w.quit_box.isVisible(), timeout=3_000)
    quit_btn = next(b for b in w.quit_box.buttons() if b.text() == "Quit")
    release.set()
    quit_btn.click()
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=5_000)
    assert w._closed


def test_the_check_sees_a_cut_text(qtbot: Any) -> None:
    """The check is not blind: a label narrower than its text, a wrapped note squeezed below its
    height, a button narrower than its text and a label pushed past its parent's edge are found;
    the same texts with room, wrapped with room, or elided with "…" and a tooltip are not."""
    from PySide6.QtWidgets import QLabel, QPushButton

    from app.gui.widgets import ElidedLabel

    text = "Speculation: Auto: ngram-mod 64/round while measuring"
    window = QWidget()
    qtbot.addWidget(window)
    window.resize(600, 300)
    cut, roomy, elided = QLabel(text, window), QLabel(text, window), ElidedLabel(text, window)
    squeezed, wrapped = QLabel(text * 4, window), QLabel(text * 4, window)
    button, past = QPushButton(text, window), QLabel("Memory: 612 MB", window)
    squeezed.setWordWrap(True)
    wrapped.setWordWrap(True)
    cut.setGeometry(0, 0, 120, 24)
    roomy.setGeometry(0, 30, 590, 24)
    elided.setGeometry(0, 60, 120, 24)
    squeezed.setGeometry(0, 90, 300, 24)
    button.setGeometry(300, 0, 100, 30)
    past.setGeometry(560, 270, 200, 24)
    window.show()
    qtbot.waitExposed(window)
    wrapped.setGeometry(0, 120, 300, wrapped.heightForWidth(300))  # in the font it is shown in
    assert elided.is_elided() and elided.shown_text().endswith("…") and text in elided.toolTip()
    found = {c.widget for c in cut_texts(window)}
    assert found == {cut, squeezed, button, past}, [str(c) for c in cut_texts(window)]
