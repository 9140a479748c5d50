"""The window's left column (:class:`NavigationPanel`): the pages (Chat, Models, Downloads) and,
beneath them, the actions Language and Settings.

Language and Settings are actions, not pages: a second list with no selection, so they share the
pages' icon size, spacing and hover look exactly. Its texts are the window's (translation context
``MainWindow``).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QSize, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QListWidgetItem, QMenu, QVBoxLayout, QWidget

from app.gui import icons
from app.gui.i18n import LANGUAGES, I18n

#: the column's width (px)
WIDTH = 176


class NavigationPanel(QWidget):
    """Signals: ``languageChosen(str code)`` (from the Language menu), ``settingsRequested()``.

    ``nav`` lists the pages in the window's stack order; ``i18n`` says which language the
    Language menu checks."""

    languageChosen = Signal(str)
    settingsRequested = Signal()

    def __init__(self, i18n: I18n, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._i18n = i18n
        self.setObjectName("navBox")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 8)
        layout.setSpacing(0)
        self.nav = QListWidget()
        self.nav.setObjectName("nav")
        for name in ("chat", "models", "download"):
            QListWidgetItem(icons.icon(name, icons.MUTED, icons.ACCENT), "", self.nav)
        self.nav_actions = QListWidget()
        self.nav_actions.setObjectName("navActions")
        self.nav_actions.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.nav_actions.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        for name in ("globe", "settings"):
            QListWidgetItem(icons.icon(name), "", self.nav_actions)
        for lst in (self.nav, self.nav_actions):
            lst.setIconSize(QSize(20, 20))
            lst.setFixedWidth(WIDTH)
            lst.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            lst.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.nav_actions.itemClicked.connect(self.on_action)
        self.lang_menu = QMenu(self)
        for code, name in LANGUAGES.items():
            act = self.lang_menu.addAction(name)
            act.setData(code)
            act.setCheckable(True)
            act.triggered.connect(lambda _c=False, c=code: self.languageChosen.emit(c))
        layout.addWidget(self.nav, 1)
        layout.addWidget(self.nav_actions)
        self.setFixedWidth(WIDTH)

    def retranslate(self) -> None:
        pages = (
            QCoreApplication.translate("MainWindow", "Chat"),
            QCoreApplication.translate("MainWindow", "Models"),
            QCoreApplication.translate("MainWindow", "Downloads"),
        )
        for row, text in enumerate(pages):
            item = self.nav.item(row)
            if item is not None:
                item.setText(text)
        actions = (
            QCoreApplication.translate("MainWindow", "Language"),
            QCoreApplication.translate("MainWindow", "Settings"),
        )
        for row, text in enumerate(actions):
            item = self.nav_actions.item(row)
            if item is not None:
                item.setText(text)
        self._fit_actions()

    def _fit_actions(self) -> None:
        lst = self.nav_actions
        rows = sum(lst.sizeHintForRow(r) for r in range(lst.count()))
        margins = lst.contentsMargins()
        lst.setFixedHeight(rows + margins.top() + margins.bottom() + 2 * lst.frameWidth() + 4 * lst.count())

    def on_action(self, item: QListWidgetItem) -> None:
        """Language opens its menu beside the item, the current language checked; Settings asks
        for the settings."""
        if self.nav_actions.row(item) == 0:
            for act in self.lang_menu.actions():
                act.setChecked(act.data() == self._i18n.language)
            rect = self.nav_actions.visualItemRect(item)
            self.lang_menu.popup(self.nav_actions.viewport().mapToGlobal(rect.topRight()))
        else:
            self.settingsRequested.emit()
