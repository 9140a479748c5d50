"""The Models page after a live language switch: the memory verdict under the variant tree follows
the new language, and the filter combos are wide enough for their translated texts (the English
width would cut "すべてのサイズ" to "すべてのサ")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QComboBox

from app.gui.icons import register_search_path
from app.gui.style import STYLESHEET


@pytest.fixture
def desktop_look(qapp: QApplication) -> Iterator[None]:
    """The application's stylesheet, as ``create_application`` sets it (pytest-qt's QApplication
    has none), and a desktop's 10 pt Noto Sans (the screenshots' font): the combos' padding, arrow
    and font decide how much text fits."""
    register_search_path()  # its arrows are url(icons:...)
    before, font = qapp.styleSheet(), qapp.font()
    qapp.setStyleSheet(STYLESHEET)
    qapp.setFont(QFont("Noto Sans", 10))
    yield
    qapp.setStyleSheet(before)
    qapp.setFont(font)


def _text_fits(combo: QComboBox) -> bool:
    """As wide as a fresh combo with the same items wants to be (its size hint is computed for
    the current texts, in the current font and stylesheet)."""
    fresh = QComboBox(combo.parentWidget())
    fresh.addItems([combo.itemText(i) for i in range(combo.count())])
    fresh.ensurePolished()  # the stylesheet applies at polish
    try:
        return combo.width() >= fresh.sizeHint().width()
    finally:
        fresh.deleteLater()


def test_memory_verdict_and_filters_follow_a_language_switch(
    make_window: Any, qtbot: Any, desktop_look: None
) -> None:
    w = make_window()
    w.resize(1280, 800)
    w.nav.setCurrentRow(1)
    page = w.browser
    page.select_family("smollm2-135m-instruct")  # the embedded model: its verdict comes from its header
    page.tree.expandAll()
    qtbot.waitUntil(lambda: page.fit_label.text() != "", timeout=20_000)
    english = page.fit_label.text()
    assert "tokens" in english
    assert _text_fits(page.format) and _text_fits(page.size_filter)

    for code, word in (("ja", "トークン"), ("ko", "토큰")):
        w.set_language(code)
        qtbot.waitUntil(lambda: page.fit_label.text() != english, timeout=5_000)
        assert word in page.fit_label.text()  # the line in the new language, not the one kept
        qtbot.waitUntil(lambda: _text_fits(page.format) and _text_fits(page.size_filter), timeout=5_000)
    assert page.size_filter.currentText() == "모든 크기"


def test_the_family_tables_stored_tooltips_follow_a_language_switch(make_window: Any, qtbot: Any) -> None:
    """The table's cells are computed once and stored (no Python per repaint), so a
    language switch must recompute their translated tooltips."""
    from PySide6.QtCore import Qt

    w = make_window()
    model = w.browser.families
    row = model.row_of("smollm2-135m-instruct")
    drafter = model.index(row, model.COLUMNS.index("drafter"))
    assert model.data(drafter, Qt.ItemDataRole.ToolTipRole) == "Has a drafter for speculative decoding"
    w.set_language("ja")
    assert model.data(drafter, Qt.ItemDataRole.ToolTipRole) == "投機的デコード用のドラフターあり"
    w.set_language("en")
    assert model.data(drafter, Qt.ItemDataRole.ToolTipRole) == "Has a drafter for speculative decoding"


def test_status_and_memory_columns_fit_every_text_in_every_language(make_window: Any, qtbot: Any) -> None:
    """The tree's status and memory columns have fixed widths (ResizeToContents would measure
    every row on each arriving status and repaint the tree); Qt's own size hint of every cell
    still fits in them, in every language."""
    w = make_window()
    w.resize(1280, 800)
    w.nav.setCurrentRow(1)
    page = w.browser
    page.select_family("smollm2-135m-instruct")
    page.tree.expandAll()
    tree, model = page.tree, page.specs
    for code in ("en", "zh_CN", "ja", "ko"):
        w.set_language(code)
        qtbot.waitUntil(lambda: not model.fitting(), timeout=20_000)
        checked = 0
        stack = [model.index(r, 0) for r in range(model.rowCount())]
        while stack:
            index = stack.pop()
            for col in (1, 2):
                cell = index.siblingAtColumn(col)
                if cell.data():
                    assert tree.sizeHintForIndex(cell).width() <= tree.header().sectionSize(col), (
                        code,
                        cell.data(),
                    )
                    checked += 1
            stack += [model.index(r, 0, index) for r in range(model.rowCount(index))]
        assert checked >= 4, code


def test_the_sizes_column_keeps_a_size_readable_in_every_language(
    make_window: Any, qtbot: Any, desktop_look: None
) -> None:
    """In Japanese the long "Drafter" title and the names must not take the table's width and
    leave the sizes column reading "13…" for 135M: the names give way first (they elide, with the
    description in the tooltip); the sizes keep their title and one whole size."""
    from app.core.registry import Registry
    from app.gui.views.browser import COL_SIZES

    w = make_window(registry=Registry.load())
    w.resize(1200, 780)
    w.show()
    w.nav.setCurrentRow(1)
    page = w.browser
    table = page.table
    try:
        for code in ("en", "zh_CN", "ja", "ko"):
            w.set_language(code)
            qtbot.waitUntil(lambda: table.viewport().width() > 0, timeout=5_000)
            qtbot.wait(50)  # the columns are fitted after the language change's relayout
            header = table.horizontalHeader()
            metrics = table.fontMetrics()
            need = max(metrics.horizontalAdvance("135M, …"), header.sectionSizeHint(COL_SIZES) - 16)
            assert header.sectionSize(COL_SIZES) >= need, (code, header.sectionSize(COL_SIZES), need)
            # and the table still needs no horizontal scroll bar
            assert sum(header.sectionSize(c) for c in range(header.count())) <= table.viewport().width()
    finally:
        w.set_language("en")
