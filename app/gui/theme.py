"""Light or dark: the system's colour scheme (Qt's style hints) unless the settings force one.

The application's palette and stylesheet follow the scheme (``style.palette`` /
``style.stylesheet``); widgets that draw colours of their own (the chat's rendered text, the
round bars) read the palette they are shown on and redraw on ``QEvent.PaletteChange``.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QApplication

from app.core.settings import COLOR_SCHEMES
from app.gui.icons import register_search_path
from app.gui.style import palette, stylesheet


class Theme(QObject):
    """The application's scheme. Signal: ``changed(bool dark)``."""

    changed = Signal(bool)

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self.setObjectName("tandemTheme")
        self._app = app
        self.scheme = "system"
        self.dark: bool | None = None
        app.styleHints().colorSchemeChanged.connect(self._on_system_changed)

    @staticmethod
    def find(app: QApplication) -> Theme | None:
        """The application's theme when it has one (an application made by
        :func:`app.gui.app.create_application` always has)."""
        return app.findChild(Theme, "tandemTheme", Qt.FindChildOption.FindDirectChildrenOnly)

    @staticmethod
    def of(app: QApplication) -> Theme:
        """The application's theme (made on first use, following the system)."""
        found = app.findChild(Theme, "tandemTheme", Qt.FindChildOption.FindDirectChildrenOnly)
        if found is None:
            found = Theme(app)
            found.apply("system")
        return found

    def apply(self, scheme: str) -> None:
        """Follow the system (``"system"``) or force ``"light"`` or ``"dark"``."""
        if scheme not in COLOR_SCHEMES:
            scheme = "system"
        self.scheme = scheme
        hints = self._app.styleHints()
        # asked of the platform too, so window frames and native dialogs match where it can;
        # where it cannot (offscreen, a desktop without a portal) the request is ignored
        if scheme == "system":
            hints.unsetColorScheme()
        else:
            hints.setColorScheme(Qt.ColorScheme.Dark if scheme == "dark" else Qt.ColorScheme.Light)
        self._set(scheme == "dark" or (scheme == "system" and self.system_dark()))

    def system_dark(self) -> bool:
        return self._app.styleHints().colorScheme() == Qt.ColorScheme.Dark

    def _on_system_changed(self, _scheme: Qt.ColorScheme) -> None:
        if self.scheme == "system":
            self._set(self.system_dark())

    def _set(self, dark: bool) -> None:
        if dark == self.dark:
            return
        self.dark = dark
        register_search_path()  # the stylesheet's arrows are url(icons:...)
        self._app.setStyleSheet(stylesheet(dark))
        self._app.setPalette(palette(dark))
        self.changed.emit(dark)
