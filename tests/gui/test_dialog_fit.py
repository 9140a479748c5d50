"""Dialogs take the height their wrapped text needs once shown (nothing cut; seen in screenshots)."""

from __future__ import annotations

from typing import Any


def test_settings_dialog_fits_its_notes_after_showing(make_window: Any, qtbot: Any) -> None:
    w = make_window()
    dlg = w.open_settings()
    qtbot.waitExposed(dlg)
    layout = dlg.layout()
    qtbot.waitUntil(lambda: dlg.height() >= layout.totalHeightForWidth(dlg.width()), timeout=3000)
    for note in (dlg.cache_note, dlg.learned_note):
        assert note.text()
        assert note.height() >= note.heightForWidth(note.width()), note.text()[:40]
    dlg.reject()


def test_auto_panel_button_names_the_first_measurement(make_window: Any, qtbot: Any) -> None:
    from app.gui.views.auto_panel import AutoPanel

    panel = AutoPanel(w_cache := make_window().cache, None)
    qtbot.addWidget(panel)
    assert w_cache is not None
    panel._set_state("unmeasured")
    assert panel.remeasure.text() == "Measure now"
    assert not panel.why.isVisibleTo(panel)  # an empty reason leaves no gap
