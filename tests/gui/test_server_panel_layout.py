"""In the Local server panel nothing is drawn over anything else, in each language.

Two thirds of the screen's height (512 px on a 1366 x 768 laptop, 533 px on the offscreen
platform's 800 x 800 screen) is too short for the panel's rows, and a fixed-height settings box
there would be drawn over the "Context: ..." line below it. The real panel of a real running
server (the engine a scripted stand-in with a context), its widgets' geometries compared: at the
size it opens with (whole, without scrolling), with the long note of a refused request, and
squeezed by the user (the rows scroll instead of overlapping)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import httpx
from PySide6.QtCore import QCoreApplication, QPoint, QRect
from PySide6.QtWidgets import QLabel, QWidget

from app.gui.views.server_panel import ServerPanel
from tests.gui.conftest import ScriptedEngine, scripted_loader
from tests.gui.test_chat import load_default

LOCALES = ("en", "zh_CN", "ja", "ko")


class _Counting(ScriptedEngine):
    """A scripted engine that measures prompts (one token a word) in a 64-token context."""

    n_ctx = 64

    def count_prompt_tokens(self, messages: Any, tools: Any = None) -> int:
        return sum(len(m["content"].split()) for m in messages) + 4


def rows(panel: ServerPanel) -> list[QWidget]:
    shown = [
        panel.title,
        panel.stop,
        panel.address,
        panel.copy_address,
        panel.key_label,
        panel.key,
        panel.copy_key,
        panel.remote,
        panel.warning,
        panel.agent_label,
        panel.copy_agent,
        panel.agent_hint,
        panel.agent_settings,
        panel.context_note,
        panel.pool_note,
        panel.log_label,
        panel.log,
    ]
    return [w for w in shown if w.isVisibleTo(panel)]


def geometry(widget: QWidget, panel: ServerPanel) -> QRect:
    return QRect(widget.mapTo(panel.content, QPoint(0, 0)), widget.size())


def assert_apart(panel: ServerPanel, locale: str, whole: bool) -> None:
    """No two of the panel's widgets overlap; every text is shown whole (every line of the
    settings box, every wrapped line of a note); each widget lies inside the panel's rows, which
    are as wide as the panel shows. ``whole``: and all of them are in view without scrolling."""
    shown = rows(panel)
    assert panel.context_note in shown and panel.agent_settings in shown
    boxes = {w: geometry(w, panel) for w in shown}
    for a, b in combinations(shown, 2):
        assert not boxes[a].intersects(boxes[b]), (locale, a.objectName() or a, boxes[a], b, boxes[b])
    content = panel.content.rect()
    assert panel.content.width() <= panel.body.viewport().width()
    for widget, box in boxes.items():
        assert content.contains(box), (locale, widget, box, content)
        if isinstance(widget, QLabel) and widget.wordWrap():
            assert widget.height() >= widget.heightForWidth(widget.width()), (locale, widget.text())
    settings = panel.agent_settings
    assert settings.verticalScrollBar().maximum() == 0 and settings.horizontalScrollBar().maximum() == 0
    # the box that must not be drawn over the line below it
    assert boxes[settings].bottom() < boxes[panel.context_note].top()
    if whole:
        assert not panel.body.verticalScrollBar().isVisible(), locale
        assert panel.content.height() <= panel.body.viewport().height()
        screen = panel.screen().availableGeometry()
        assert screen.contains(panel.geometry()), (locale, panel.geometry(), screen)


def test_nothing_in_the_local_server_panel_overlaps_in_any_language(make_window: Any, qtbot: Any) -> None:
    w = make_window(loader=scripted_loader(_Counting(text="fine")))
    load_default(w, qtbot, 10_000)
    switch = w.server_switch
    with qtbot.waitSignal(switch.controller.stateChanged, timeout=10_000):
        switch.click()
    panel = switch.panel
    qtbot.waitUntil(panel.isVisible, timeout=5_000)
    english = panel.title.text()
    for locale in LOCALES:
        panel.hide()
        w.set_language(locale)
        QCoreApplication.processEvents()  # the language change reaches the widgets
        assert (panel.title.text() == english) == (locale == "en")
        switch.click()  # opens the running server's panel
        qtbot.waitUntil(panel.isVisible, timeout=5_000)
        qtbot.waitUntil(lambda: not panel._grow.isActive(), timeout=5_000)
        assert_apart(panel, locale, whole=True)

    # a refused request's note is longer: the panel grows, still nothing overlaps
    url = switch.controller.address + "/chat/completions"
    headers = {"authorization": f"Bearer {switch.controller.key}"}
    too_long = {"messages": [{"role": "user", "content": "word " * 100}]}
    refused = httpx.post(url, json=too_long, headers=headers, timeout=30)
    assert refused.status_code == 400
    qtbot.waitUntil(lambda: panel.log.count() == 1, timeout=5_000)
    qtbot.waitUntil(lambda: not panel._grow.isActive(), timeout=5_000)
    assert "104" in panel.context_note.text()
    assert_apart(panel, "ko", whole=True)

    # squeezed by the user: the rows scroll, still apart and whole
    panel.resize(panel.minimumWidth(), 300)
    qtbot.waitUntil(lambda: panel.height() <= 320, timeout=5_000)
    qtbot.waitUntil(panel.body.verticalScrollBar().isVisible, timeout=5_000)
    assert_apart(panel, "ko", whole=False)
    # opened again: whole, and the scroll bar of the squeezed panel is gone (a scroll area kept it,
    # measuring its rows at the width beside the bar)
    panel.hide()
    switch.click()
    qtbot.waitUntil(panel.isVisible, timeout=5_000)
    qtbot.waitUntil(lambda: not panel._grow.isActive(), timeout=5_000)
    assert_apart(panel, "ko", whole=True)
    w.set_language("en")
    QCoreApplication.processEvents()
    with qtbot.waitSignal(switch.controller.stateChanged, timeout=10_000):
        panel.stop.click()
