"""Dialogs take the height their wrapped text needs once shown (nothing cut)."""

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


def test_settings_dialog_refits_when_a_note_arrives_later(make_window: Any, qtbot: Any) -> None:
    """The local server key is read in the background, and its note can grow to two lines after the
    dialog has fitted: the rows above must not be squeezed (the cache note cut top and bottom).
    Any later change of the contents re-fits the dialog."""
    w = make_window()
    dlg = w.open_settings()
    qtbot.waitExposed(dlg)
    layout = dlg.layout()
    # the background read of the key has ended (its note is set) and the dialog has fitted it
    qtbot.waitUntil(lambda: bool(dlg.server_key.text()), timeout=3000)
    qtbot.waitUntil(lambda: dlg.height() == layout.totalHeightForWidth(dlg.width()), timeout=3000)
    before = dlg.height()
    # what a keyring that fails says, through the dialog's own handler of the background read
    dlg._key_failed(RuntimeError("The system keyring refused the request: " + "it is locked. " * 12))

    def whole() -> bool:
        notes = (dlg.cache_note, dlg.learned_note, dlg.key_note)
        return all(n.height() >= n.heightForWidth(n.width()) for n in notes)

    qtbot.waitUntil(lambda: dlg.height() > before and whole(), timeout=3000)
    assert dlg.height() == layout.totalHeightForWidth(dlg.width())
    dlg.reject()


def test_auto_panel_button_names_the_first_measurement(make_window: Any, qtbot: Any) -> None:
    from app.gui.views.auto_panel import AutoPanel

    panel = AutoPanel(w_cache := make_window().cache, None)
    qtbot.addWidget(panel)
    assert w_cache is not None
    panel._set_state("unmeasured")
    assert panel.remeasure.text() == "Measure now"
    assert not panel.why.isVisibleTo(panel)  # an empty reason leaves no gap
