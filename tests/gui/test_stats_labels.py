"""The statistics say what mean accepted length counts, and show what each round emitted."""

from __future__ import annotations

from typing import Any

from app.core.chat import AnswerStats, RoundPoint
from app.gui.views.stats import StatsDialog, StatsStrip


def _stats() -> AnswerStats:
    # the last round's 3 accepted drafts ended the answer: it emitted 3, not 4
    rounds = [RoundPoint(0, 0, 1), RoundPoint(4, 2, 3), RoundPoint(3, 3, 3)]
    return AnswerStats(completion_tokens=7, decode_tps=0.0, rounds=3, drafted=7, accepted=5,
                       speculation="draft Q4_1", per_round=rounds)  # fmt: skip


def test_dialog_labels_and_emitted_column(qtbot: Any) -> None:
    dlg = StatsDialog(_stats())
    qtbot.addWidget(dlg)
    from PySide6.QtWidgets import QFormLayout, QLabel, QTableWidget

    form = dlg.findChild(QFormLayout)
    assert form is not None
    rows = {}
    for i in range(form.rowCount()):
        label = form.itemAt(i, QFormLayout.ItemRole.LabelRole).widget()
        value = form.itemAt(i, QFormLayout.ItemRole.FieldRole).widget()
        assert isinstance(label, QLabel) and isinstance(value, QLabel)
        rows[label.text()] = value.text()
    assert rows["Mean tokens per drafting round"] == "3.00"  # (3 + 3) / 2, not (3 + 4) / 2
    assert rows["Decode speed"] == "— tok/s"  # not measurable: no made-up rate
    table = dlg.findChild(QTableWidget)
    assert table is not None
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert headers == ["Round", "Depth (drafted)", "Accepted", "Emitted"]  # per round
    assert [table.item(r, 3).text() for r in range(table.rowCount())] == ["1", "3", "3"]


def test_strip_tooltip_says_what_the_number_counts(qtbot: Any) -> None:
    strip = StatsStrip()
    qtbot.addWidget(strip)
    strip.set_stats(_stats())
    strip.retranslate()
    assert strip.mean_len.text() == "3.00 tokens/round"
    # the rounds count includes plain steps; its tooltip says how many drafted
    assert strip.rounds.text() == "3 rounds"
    assert strip.rounds.toolTip() == (
        "Passes of the model for this answer: 2 verified a draft, 1 gave one token without one"
    )
    assert "per drafting round" in strip.mean_len.toolTip() and "fewer when" in strip.mean_len.toolTip()
    assert strip.tps.text() == "— tok/s"


def test_the_round_table_shows_its_titles_whole_and_a_page_of_rounds(qtbot: Any) -> None:
    """A dialog opened too narrow reads "Depth (drafted)" as "pth (drafte" and shows two rounds of
    a long answer at a time: every title fits its column, in every language, and the table shows
    at least six rounds."""
    from PySide6.QtWidgets import QApplication, QTableWidget

    from app.gui.i18n import I18n

    i18n = I18n(QApplication.instance())

    rounds = [RoundPoint(8, i % 9, i % 9 + 1) for i in range(113)]
    stats = AnswerStats(completion_tokens=600, decode_tps=50.0, rounds=113, drafted=904, accepted=487,
                        speculation="draft Q4_1", per_round=rounds)  # fmt: skip
    try:
        for lang in ("en", "zh_CN", "ja", "ko"):
            i18n.set_language(lang)
            dlg = StatsDialog(stats)
            qtbot.addWidget(dlg)
            dlg.show()
            qtbot.waitExposed(dlg)
            table = dlg.findChild(QTableWidget)
            assert table is not None
            header = table.horizontalHeader()
            for c in range(table.columnCount()):
                title = table.horizontalHeaderItem(c).text()
                assert header.sectionSize(c) >= header.fontMetrics().horizontalAdvance(title), (lang, title)
            visible = table.viewport().height() // table.rowHeight(0)
            assert visible >= 6, (lang, visible)
            assert dlg.height() <= dlg.screen().availableGeometry().height()
            dlg.close()
    finally:
        i18n.set_language("en")
