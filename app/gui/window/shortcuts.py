"""The window's keyboard actions (:class:`WindowShortcuts`): Preferences, Quit, Ctrl+N.

* Quit is the platform's key (Cmd+Q on macOS); Windows has none, so Ctrl+Q there. The Local
  server panel, a window of its own, carries the action too, so it quits from there.
* Quit closes the window at once, or first asks while an answer is being written (quitting stops
  it); while the question is open, Quit raises it instead of asking again.

Its texts are the window's (translation context ``MainWindow``).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMessageBox, QWidget


class WindowShortcuts(QObject):
    """Adds the actions to ``window`` (and Quit to ``panel``). ``generating`` says whether an answer
    is being written. The window connects ``preferences`` and ``new_chat``."""

    def __init__(self, window: QWidget, generating: Callable[[], bool], panel: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self._generating = generating
        self.preferences = QAction(window)
        self.preferences.setShortcut(QKeySequence(QKeySequence.StandardKey.Preferences))
        window.addAction(self.preferences)
        self.quit_action = QAction(window)
        self.quit_action.setShortcuts(
            QKeySequence.keyBindings(QKeySequence.StandardKey.Quit) or [QKeySequence("Ctrl+Q")]
        )
        self.quit_action.triggered.connect(self.quit)
        window.addAction(self.quit_action)
        panel.addAction(self.quit_action)
        #: the question Quit asks while an answer is being written (None when not open)
        self.quit_box: QMessageBox | None = None
        self.new_chat = QAction(window)
        self.new_chat.setShortcut(QKeySequence("Ctrl+N"))
        window.addAction(self.new_chat)

    def quit(self) -> None:
        """Close the window: at once, or after asking while an answer is being written."""
        if self.quit_box is not None:
            self.quit_box.raise_()
            return
        window = self._window
        if not self._generating():
            window.close()
            return
        box = QMessageBox(
            QMessageBox.Icon.Question,
            QCoreApplication.translate("MainWindow", "Quit Tandem?"),
            "",
            parent=window,
        )
        box.setText(
            QCoreApplication.translate("MainWindow", "An answer is still being written. Quitting stops it.")
        )
        quit_btn = box.addButton(
            QCoreApplication.translate("MainWindow", "Quit"), QMessageBox.ButtonRole.AcceptRole
        )
        stay = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(stay)
        box.setEscapeButton(stay)
        self.quit_box = box

        def answered() -> None:
            self.quit_box = None
            box.deleteLater()
            if box.clickedButton() is quit_btn:
                window.close()

        box.finished.connect(answered)
        box.open()
