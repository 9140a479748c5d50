"""The chat in light and dark: the application's scheme (the system's, or forced in Settings)
re-renders every bubble with the palette's colours, and a language switch re-renders the code
blocks' Copy links."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from app.core.chat.render import DARK, LIGHT
from app.core.settings import Settings
from app.gui.i18n import I18n
from app.gui.theme import Theme
from app.gui.views.chat import MessageBubble
from app.gui.views.settings_dialog import SettingsDialog

ANSWER = (
    "| a | b |\n|---|---|\n| 1 | 2 |\n\n- outer\n  - inner\n\n"
    "```python\ndef f(x):\n    return x + 1\n```\n\nThe sum is $\\frac{1}{3}$ here."
)


@pytest.fixture
def theme(qapp: QApplication) -> Iterator[Theme]:
    sheet, palette = qapp.styleSheet(), qapp.palette()
    t = Theme.of(qapp)
    yield t
    t.apply("system")  # the platform's scheme request is withdrawn
    t.setParent(None)  # the next test's application is as pytest-qt made it
    t.deleteLater()
    qapp.setStyleSheet(sheet)
    qapp.setPalette(palette)


def _bubble(qtbot: Any, streaming: bool = False) -> MessageBubble:
    bubble = MessageBubble("assistant", 1)
    qtbot.addWidget(bubble)
    bubble.resize(600, 400)
    bubble.show()
    if streaming:
        bubble.set_status("streaming")
    bubble.set_content(ANSWER, [(ANSWER.index("return"), ANSWER.index("return") + 6)])
    return bubble


def test_forcing_dark_renders_every_bubble_with_the_dark_colours_and_light_brings_them_back(
    qtbot: Any, qapp: QApplication, theme: Theme
) -> None:
    done, streaming = _bubble(qtbot), _bubble(qtbot, streaming=True)
    for b in (done, streaming):
        html = b.rendered_html()
        assert LIGHT.code_bg in html and LIGHT.draft in html and DARK.code_bg not in html
    theme.apply("dark")
    assert theme.dark and qapp.palette().color(QPalette.ColorRole.Window).lightness() < 128
    assert "#1b1d21" in qapp.styleSheet()  # the dark sheet
    for b in (done, streaming):
        html = b.rendered_html()
        assert DARK.code_bg in html and DARK.draft in html and LIGHT.code_bg not in html
        assert 'alt="\\frac{1}{3}"' in html  # the formula drawn again, in the dark text colour
    assert streaming.status == "streaming"  # a streaming answer keeps streaming in parts
    streaming.set_content(ANSWER + "\n\nMore.", [])
    assert DARK.code_bg in streaming.rendered_html()
    theme.apply("light")
    assert not theme.dark and LIGHT.code_bg in done.rendered_html()
    assert DARK.code_bg not in done.rendered_html()


def test_the_appearance_setting_applies_on_ok_and_is_kept(qtbot: Any, theme: Theme) -> None:
    dlg = SettingsDialog(Settings())
    qtbot.addWidget(dlg)
    assert dlg.scheme.currentData() == "system" and dlg.scheme.count() == 3
    dlg.scheme.setCurrentIndex(dlg.scheme.findData("dark"))
    dlg.buttons.button(dlg.buttons.StandardButton.Ok).click()
    assert dlg.settings.color_scheme == "dark" and theme.dark and theme.scheme == "dark"
    dlg2 = SettingsDialog(dlg.settings)
    qtbot.addWidget(dlg2)
    assert dlg2.scheme.currentData() == "dark"


def test_a_language_switch_renders_the_copy_links_in_the_new_language(qtbot: Any, qapp: QApplication) -> None:
    bubble = _bubble(qtbot)
    assert ">Copy</a>" in bubble.rendered_html()
    i18n = I18n(qapp)
    try:
        i18n.set_language("ja")
        assert ">Copy</a>" not in bubble.rendered_html()
        assert f">{bubble.tr('Copy')}</a>" in bubble.rendered_html()
    finally:
        i18n.set_language("en")
    assert ">Copy</a>" in bubble.rendered_html()


def test_icons_are_drawn_in_their_lighter_colours_on_the_dark_palette(theme: Theme) -> None:
    from app.gui import icons

    def darkest_lightness(icon: Any) -> int:
        image = icon.pixmap(24).toImage()
        seen = [
            image.pixelColor(x, y)
            for x in range(image.width())
            for y in range(image.height())
            if image.pixelColor(x, y).alpha() > 200
        ]
        return min(c.lightness() for c in seen)

    trash = icons.icon("trash")
    theme.apply("light")
    on_light = darkest_lightness(trash)
    theme.apply("dark")
    on_dark = darkest_lightness(trash)  # the same QIcon, painted again
    assert on_light < 110 < on_dark
