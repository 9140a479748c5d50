"""A closed main window must survive later language switches (its store is already closed).

A switch reaching a closed window must not retranslate it: its conversation list would query the
closed SQLite store, and an exception raised inside a Qt virtual override crashes the process in
shiboken's error reporting (one GUI test file running after another reaches this).
"""

from __future__ import annotations

import sys
from typing import Any


def test_language_switch_after_close_leaves_the_closed_window_alone(make_window: Any) -> None:
    from PySide6.QtWidgets import QApplication

    first = make_window()
    english_nav = [first.nav.item(i).text() for i in range(first.nav.count())]
    first.close()  # shuts down and closes its store; Qt has not deleted it yet
    assert not first.isVisible()
    second = make_window()
    errors: list[BaseException] = []
    old_hook = sys.excepthook
    sys.excepthook = lambda _t, value, _tb: errors.append(value)
    try:
        second.i18n.set_language("ja")
        QApplication.processEvents()
        japanese_nav = [second.nav.item(i).text() for i in range(second.nav.count())]
        closed_nav = [first.nav.item(i).text() for i in range(first.nav.count())]
    finally:
        sys.excepthook = old_hook
        second.i18n.set_language("en")
    assert errors == []
    assert japanese_nav != english_nav  # the open window switched
    assert closed_nav == english_nav  # the closed one was not retranslated
