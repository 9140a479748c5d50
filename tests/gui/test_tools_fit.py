"""The tools' widgets at 1366x768 in every language, with the application's stylesheet: the
composer's tools row (the indicator naming a failed server, the tool choice) and Settings → Tools
with a running server's tools and a failed server. Every label, button and check box fits, wraps
or is elided with its tooltip (:func:`tests.gui.text_fit.cut_texts`); the message box grows
under the same stylesheet (its padding and line height) without a scroll bar."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication

from app.core.tools.config import ToolsConfig, make_server, save_config
from app.gui.main_window import PAGE_CHAT
from app.gui.views.chat.composer import MIN_INPUT_HEIGHT
from tests.gui.test_window_fit import (  # noqa: F401 (fixtures)
    DIALOG_HEIGHT,
    WINDOW_SIZES,
    _need_font,
    app_look,
    assert_fits,
    cjk_font,
)
from tests.integration.mcp_servers import calc_server, memory_keyring, server_children


@pytest.fixture(autouse=True)
def servers() -> Iterator[None]:
    with memory_keyring():
        missing, _ = make_server("nowhere", command="tandem-no-such-command")
        save_config(ToolsConfig((calc_server(rules={"broken": "off", "motto": "always"}), missing)))
        yield
    assert not server_children(), "an MCP server process outlived the test"


@pytest.mark.parametrize("locale", ["en", "zh_CN", "ja", "ko"])
def test_the_tools_texts_fit_and_the_box_grows_in_every_language(
    make_window: Any,
    qtbot: Any,
    locale: str,
    cjk_font: bool,  # noqa: F811
) -> None:
    _need_font(locale, cjk_font)
    w = make_window()
    w.set_language(locale)
    QCoreApplication.processEvents()
    composer = w.chat_view.composer
    # the calc server runs, "nowhere" failed: the indicator says so
    qtbot.waitUntil(lambda: composer.tool_choice_box.findData("motto") >= 0, timeout=60_000)
    qtbot.waitUntil(lambda: "nowhere" in composer.tools_btn.text(), timeout=30_000)
    w.nav.setCurrentRow(PAGE_CHAT)
    for width, height in WINDOW_SIZES:
        w.resize(width, height)
        qtbot.waitUntil(lambda width=width, height=height: w.size().toTuple() == (width, height))
        assert composer.tools_row.isVisible()
        assert_fits(qtbot, w, f"{locale} chat page with tools at {width}x{height}", least=10)
    box = composer.input
    box.setPlainText("\n".join(f"line {i}" for i in range(5)))
    qtbot.waitUntil(lambda: box.height() > MIN_INPUT_HEIGHT and not box.verticalScrollBar().isVisible())

    dlg = w.open_settings()
    dlg.setMaximumHeight(DIALOG_HEIGHT)
    qtbot.waitExposed(dlg)
    dlg.tabs.setCurrentWidget(dlg.tools_page)
    qtbot.waitUntil(lambda: dlg.tools_page.rule_box("calc", "motto") is not None, timeout=30_000)
    assert_fits(qtbot, dlg, f"{locale} Settings → Tools")
    dlg.reject()
    w.close()
