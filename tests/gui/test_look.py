"""The app's own icons and the stylesheet's sub-control images: present, loadable, used."""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QImage, QPixmap

from app.gui import icons
from app.gui.style import STYLESHEET

USED = {
    "chat",
    "models",
    "download",
    "globe",
    "settings",
    "plus",
    "pencil",
    "trash",
    "refresh",
    "sliders",
    "play",
    "close",
    "folder",
    "search",
}


def test_every_icon_renders_in_every_mode() -> None:
    assert set(icons.icon_names()) >= USED
    for name in USED:
        ic = icons.icon(name, icons.MUTED, icons.ACCENT)
        assert not ic.isNull(), name
        for mode in (ic.Mode.Normal, ic.Mode.Selected, ic.Mode.Disabled):
            image = ic.pixmap(QSize(20, 20), mode).toImage()
            assert _has_ink(image), (name, mode)


def test_icons_are_tinted() -> None:
    normal = icons.icon("chat", "#ff0000").pixmap(24, 24).toImage()
    colours = {
        normal.pixelColor(x, y).name()
        for x in range(24)
        for y in range(24)
        if normal.pixelColor(x, y).alpha() == 255
    }
    assert colours == {"#ff0000"}


def test_stylesheet_subcontrol_images_exist_and_load() -> None:
    icons.register_search_path()
    names = set(re.findall(r"url\(icons:([^)]+)\)", STYLESHEET))
    for sub in ("::drop-down", "::down-arrow", "::up-button", "::down-button", "::up-arrow"):
        assert sub in STYLESHEET
    assert {"chevron-down.svg", "chevron-up.svg", "chevron-down-disabled.svg"} <= names
    for name in names:
        assert (icons.icon_dir() / name).is_file(), name
        assert not QPixmap(f"icons:{name}").isNull(), name


def test_nav_uses_the_app_icons_and_actions_work(make_window: Any, monkeypatch: Any) -> None:
    w = make_window()
    assert [w.nav.item(r).text() for r in range(3)] == ["Chat", "Models", "Downloads"]
    assert [w.nav_actions.item(r).text() for r in range(2)] == ["Language", "Settings"]
    assert all(not w.nav.item(r).icon().isNull() for r in range(3))
    opened: list[Any] = []
    w.open_settings = lambda: opened.append(True)  # type: ignore[method-assign]
    w.navigation.on_action(w.nav_actions.item(1))
    assert opened == [True]
    popups: list[Any] = []
    monkeypatch.setattr(w.lang_menu, "popup", popups.append)  # a real popup warns offscreen
    w.navigation.on_action(w.nav_actions.item(0))
    assert len(popups) == 1
    assert [a.isChecked() for a in w.lang_menu.actions() if a.data() == "en"] == [True]


def test_downloads_table_has_column_titles(make_window: Any) -> None:
    model = make_window().downloads_model
    titles = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    assert titles == ["Model", "State", "Progress", "Rate", "Time left"]


def _has_ink(image: QImage) -> bool:
    return any(
        image.pixelColor(x, y).alpha() > 0 for x in range(image.width()) for y in range(image.height())
    )


def test_a_long_load_line_wraps_instead_of_widening_the_chat(make_window: Any, qtbot: Any) -> None:
    """A load line longer than the bar at the default window size (Auto's old measuring line, seen
    on a first start under Xvfb) was cut off at the progress bar and pushed the conversations
    splitter."""
    w = make_window()
    w.resize(1200, 780)
    w.show()
    qtbot.waitExposed(w)
    page = w.chat_page
    before = page.conversations_panel.width()
    bar = w.load_bar
    bar.show()
    w._on_load_progress("ngram-mod 64/round: " + "a long step of the load, said in full " * 4)
    qtbot.wait(50)  # one layout pass
    label = bar.label
    assert "ngram-mod 64/round" in label.text()
    assert label.width() < bar.width()  # it sits beside the progress bar and Cancel
    assert label.height() >= label.heightForWidth(label.width())  # every line is shown
    assert page.conversations_panel.width() == before
