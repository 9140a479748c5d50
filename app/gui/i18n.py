"""Translations: ``.qm`` files from ``translations/`` (package ``app.translations``), loaded at
start and switched at runtime.

Switching installs a new QTranslator; Qt then sends every widget a LanguageChange event and each
view re-reads its strings in ``retranslate()``.
"""

from __future__ import annotations

import logging
from importlib import resources

from PySide6.QtCore import QCoreApplication, QEvent, QLibraryInfo, QLocale, QObject, QTranslator, Signal

log = logging.getLogger(__name__)

#: Shown in each language's own script so a user can always find theirs.
LANGUAGES: dict[str, str] = {"en": "English", "zh_CN": "简体中文", "ja": "日本語", "ko": "한국어"}


#: The language whose translations are installed now: what texts translated outside Qt's
#: ``.qm`` files (the registry's model descriptions) are shown in.
_active = "en"


def active_language() -> str:
    """The code of the language the window shows now (``en``, ``zh_CN``, ``ja`` or ``ko``)."""
    return _active


def system_language() -> str:
    name = QLocale.system().name()  # e.g. "zh_CN", "ja_JP"
    if name in LANGUAGES:
        return name
    short = name.split("_")[0]
    if short == "zh":
        return "zh_CN"
    return short if short in LANGUAGES else "en"


def qm_path(code: str) -> str:
    return str(resources.files("app.translations").joinpath(f"tandem_{code}.qm"))


class I18n(QObject):
    """Owns the installed translators. Signal: ``languageChanged(str code)``."""

    languageChanged = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._translators: list[QTranslator] = []
        self.language = "en"

    def set_language(self, code: str) -> bool:
        """Install ``code`` ("" = system); returns False (keeping English) if its file is missing."""
        code = code or system_language()
        if code not in LANGUAGES:
            code = "en"
        app = QCoreApplication.instance()
        assert app is not None, "create the QApplication first"
        for old in self._translators:
            app.removeTranslator(old)
        self._translators.clear()
        ok = True
        if code != "en":
            ours = QTranslator(self)
            if ours.load(qm_path(code)):
                app.installTranslator(ours)
                self._translators.append(ours)
            else:
                log.warning("no translation file for %s at %s", code, qm_path(code))
                ok = False
            qt = QTranslator(self)  # Qt's own strings (standard buttons), when shipped
            if qt.load(f"qtbase_{code}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
                app.installTranslator(qt)
                self._translators.append(qt)
        self.language = code if ok else "en"
        global _active
        _active = self.language  # before the LanguageChange below: views re-read it there
        # installTranslator posts LanguageChange; deliver it now so the switch is complete on return.
        QCoreApplication.sendPostedEvents(app, QEvent.Type.LanguageChange)
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)
        self.languageChanged.emit(self.language)
        return ok
