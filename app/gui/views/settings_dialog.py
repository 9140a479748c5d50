"""Settings: hub and endpoint, hub tokens (OS keyring), cache location, default engine, language,
appearance (light, dark or the system's).

A stored token is never shown: the field stays empty with a placeholder saying one is stored;
typing replaces it, "Remove" deletes it.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QEvent, QSize, QTimer
from PySide6.QtGui import QGuiApplication, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.core import secrets
from app.core.engines.capability import ENGINES
from app.core.settings import COLOR_SCHEMES, Settings
from app.core.speculative import suffix
from app.gui.i18n import LANGUAGES
from app.gui.ops import Ops
from app.gui.theme import Theme
from app.gui.views.tools_page import ToolsPage, ToolsStore
from app.gui.widgets import (
    InlineMessage,
    KeepFitted,
    ScrollBody,
    field_with_note,
    fit_dialog_height,
    height_for_width_hint,
    window_size_for_screen,
)

#: the dialog opens this wide where the screen allows (it may be made narrower, down to 680 px)
OPEN_WIDTH = 780


def _store_tokens(changes: list[tuple[str, str | None]]) -> None:
    """Keyring writes (a D-Bus round trip, a keychain prompt): run on an ops worker."""
    for hub, token in changes:
        if token is None:
            secrets.delete_token(hub)
        else:
            secrets.set_token(hub, token)


def _server_key() -> tuple[str, str]:
    """The local server's key (created on first use) and where it is kept: a keyring read."""
    from app.core.serving import keys

    return keys.api_key(), keys.key_source()


class SettingsDialog(QDialog):
    """``ops``: keyring reads and writes (tokens, the server key) run through it, off the GUI
    thread; without it (a dialog built alone) the server key is not shown."""

    def __init__(
        self,
        settings: Settings,
        parent: QWidget | None = None,
        ops: Ops | None = None,
        tools: ToolsStore | None = None,
    ) -> None:
        super().__init__(parent)
        self.settings = settings.model_copy(deep=True)
        self._remove_tokens: set[str] = set()
        self._ops = ops
        self._key_source = ""
        self.storing = False
        self.setMinimumWidth(680)  # the endpoint placeholder names a mirror URL; keep it whole
        # wider where the screen allows: the notes under the fields wrap to fewer lines
        self.resize(OPEN_WIDTH, self.height())
        outer = QVBoxLayout(self)
        outer.setContentsMargins(18, 16, 18, 14)
        # with the chat's tools: two tabs, General (what follows) and Tools (MCP servers)
        self.general = QWidget()
        page = QVBoxLayout(self.general)
        page.setContentsMargins(0, 0, 0, 0)
        # the fields scroll when the screen is too short for them (1366 x 768 in Japanese), rather
        # than the notes under them being squeezed and cut
        self.general_body = QWidget()
        root = QVBoxLayout(self.general_body)
        root.setContentsMargins(0, 0, 0, 0)
        self.general_scroll = ScrollBody(self.general_body)
        page.addWidget(self.general_scroll)
        self.tabs: QTabWidget | None = None
        self.tools_page: ToolsPage | None = None
        if tools is not None:
            root.setContentsMargins(8, 10, 8, 8)  # the first box's title clear of the tab's edge
            self.tabs = QTabWidget()
            self.tabs.addTab(self.general, "")
            self.tools_page = ToolsPage(tools)
            self.tabs.addTab(self.tools_page, "")
            self.finished.connect(self.tools_page.shutdown)  # it stops listening to the servers
            outer.addWidget(self.tabs)
        else:
            outer.addWidget(self.general)

        self.hub_box = QGroupBox()
        hform = QFormLayout(self.hub_box)
        self.hub = QComboBox()
        self.hub.addItem("Hugging Face", "huggingface")
        self.hub.addItem("ModelScope", "modelscope")
        self.hub.setCurrentIndex(max(0, self.hub.findData(settings.hub)))
        self.hf_endpoint = QLineEdit(settings.hf_endpoint)
        self.ms_endpoint = QLineEdit(settings.modelscope_endpoint)
        self.hf_token = QLineEdit()
        self.ms_token = QLineEdit()
        for edit in (self.hf_token, self.ms_token):
            edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.hf_remove = QPushButton()
        self.ms_remove = QPushButton()
        self.hf_remove.clicked.connect(lambda: self._remove("huggingface"))
        self.ms_remove.clicked.connect(lambda: self._remove("modelscope"))
        self.lbl_hub, self.lbl_hf_ep, self.lbl_ms_ep = QLabel(), QLabel(), QLabel()
        self.lbl_hf_tok, self.lbl_ms_tok = QLabel(), QLabel()
        hform.addRow(self.lbl_hub, self.hub)
        hform.addRow(self.lbl_hf_ep, self.hf_endpoint)
        hform.addRow(self.lbl_hf_tok, self._row(self.hf_token, self.hf_remove))
        hform.addRow(self.lbl_ms_ep, self.ms_endpoint)
        hform.addRow(self.lbl_ms_tok, self._row(self.ms_token, self.ms_remove))
        root.addWidget(self.hub_box)

        self.app_box = QGroupBox()
        aform = QFormLayout(self.app_box)
        self.cache_dir = QLineEdit(settings.cache_dir)
        self.browse = QPushButton()
        self.browse.clicked.connect(self._browse)
        self.engine = QComboBox()
        for name, info in ENGINES.items():
            self.engine.addItem(info.label, name)
        self.engine.setCurrentIndex(max(0, self.engine.findData(settings.default_engine)))
        self.speculation = QComboBox()  # items and their text in retranslate()
        self.speculation.addItem("", "auto")
        self.speculation.addItem("", "off")
        self.speculation.setCurrentIndex(max(0, self.speculation.findData(settings.default_speculation)))
        self.lbl_speculation = QLabel()
        self.language = QComboBox()
        self.language.addItem("", "")
        for code, name in LANGUAGES.items():
            self.language.addItem(name, code)
        self.language.setCurrentIndex(max(0, self.language.findData(settings.language)))
        self.scheme = QComboBox()  # item texts in retranslate()
        for scheme in COLOR_SCHEMES:
            self.scheme.addItem("", scheme)
        self.scheme.setCurrentIndex(max(0, self.scheme.findData(settings.color_scheme)))
        self.lbl_scheme = QLabel()
        self.lbl_cache, self.lbl_engine, self.lbl_lang = QLabel(), QLabel(), QLabel()
        self.cache_note = QLabel()
        self.cache_note.setWordWrap(True)
        self.cache_note.setProperty("muted", True)
        aform.addRow(self.lbl_cache, field_with_note(self._row(self.cache_dir, self.browse), self.cache_note))
        aform.addRow(self.lbl_engine, self.engine)
        aform.addRow(self.lbl_speculation, self.speculation)
        aform.addRow(self.lbl_lang, self.language)
        aform.addRow(self.lbl_scheme, self.scheme)
        # suffix decoding's learned text: cleared at once, not on OK
        self.forget = QPushButton()
        self.forget.clicked.connect(self._on_forget_clicked)
        self.learned_note = QLabel()
        self.learned_note.setWordWrap(True)
        self.learned_note.setProperty("muted", True)
        self.lbl_learned = QLabel()
        self._learned_tokens = suffix.stored_tokens()
        forget_row = QWidget()
        forget_lay = QHBoxLayout(forget_row)
        forget_lay.setContentsMargins(0, 0, 0, 0)
        forget_lay.addWidget(self.forget)  # at its own width, as the other buttons
        forget_lay.addStretch(1)
        aform.addRow(self.lbl_learned, field_with_note(forget_row, self.learned_note))
        # the local server's API key, read off the GUI thread, with Copy
        self.server_key = QLineEdit()
        self.server_key.setReadOnly(True)
        self.copy_key = QPushButton()
        self.copy_key.setEnabled(False)
        self.copy_key.clicked.connect(self._copy_key)
        self.key_note = QLabel()
        self.key_note.setWordWrap(True)
        self.key_note.setProperty("muted", True)
        self.lbl_key = QLabel()
        aform.addRow(self.lbl_key, field_with_note(self._row(self.server_key, self.copy_key), self.key_note))
        root.addWidget(self.app_box)
        self.error = InlineMessage()
        outer.addWidget(self.error)  # under the tabs: in view, whatever the body scrolled to
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self._accept)
        self.accepted.connect(self._apply_scheme)
        self.buttons.rejected.connect(self.reject)
        outer.addWidget(self.buttons)
        # any later change of the contents (a note read in the background) re-fits the height
        self._fitter = KeepFitted(self)
        self.retranslate()
        if ops is not None:
            ops.query(_server_key, parent=self).success(self._show_key).failure(self._key_failed).run()

    def _show_key(self, found: tuple[str, str]) -> None:
        key, self._key_source = found
        self.server_key.setText(key)
        self.server_key.setCursorPosition(0)
        self.copy_key.setEnabled(True)
        self.retranslate()

    def _key_failed(self, exc: BaseException) -> None:
        self.key_note.setText(str(exc))

    def _copy_key(self) -> None:
        QGuiApplication.clipboard().setText(self.server_key.text())

    @staticmethod
    def _row(*widgets: QWidget) -> QWidget:
        w = QWidget()
        lay = QHBoxLayout(w)
        lay.setContentsMargins(0, 0, 0, 0)
        for i, x in enumerate(widgets):
            lay.addWidget(x, 1 if i == 0 else 0)
        return w

    def _remove(self, hub: str) -> None:
        self._remove_tokens.add(hub)
        (self.hf_token if hub == "huggingface" else self.ms_token).clear()
        self.retranslate()

    def _on_forget_clicked(self) -> None:
        suffix.forget_all()
        self._learned_tokens = 0
        self.retranslate()

    def _browse(self) -> None:
        path = QFileDialog.getExistingDirectory(
            self, self.tr("Choose the model cache folder"), self.cache_dir.text()
        )
        if path:
            self.cache_dir.setText(path)

    def _checked_cache_dir(self, text: str) -> str:
        """The folder as typed, once it exists (created if needed) and is writable."""
        if not text:
            return ""
        path = Path(text).expanduser()
        if not path.is_absolute():
            raise ValueError(
                self.tr("Choose a full path for the model cache, such as {example}.").format(
                    example=str(Path.home() / "Models")
                )
            )
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ValueError(
                self.tr("The model cache folder cannot be created: {reason}").format(
                    reason=exc.strerror or exc
                )
            ) from exc
        if not os.access(path, os.W_OK):
            raise ValueError(self.tr("The model cache folder is not writable: {path}").format(path=path))
        return text

    def sizeHint(self) -> QSize:
        return height_for_width_hint(self, super().sizeHint())

    def _has_token(self, hub: str) -> bool:
        return hub not in self._remove_tokens and secrets.has_token(hub)

    def _accept(self) -> None:
        if self.storing:
            return
        try:
            s = self.settings
            s.hub = self.hub.currentData()
            s.hf_endpoint = self.hf_endpoint.text()
            s.modelscope_endpoint = self.ms_endpoint.text()
            s.cache_dir = self._checked_cache_dir(self.cache_dir.text().strip())
            s.default_engine = self.engine.currentData()
            s.default_speculation = self.speculation.currentData()
            s.language = self.language.currentData()
            s.color_scheme = self.scheme.currentData()
        except ValueError as exc:  # validation: say so, keep the dialog open
            self._fail(exc)
            return
        changes: list[tuple[str, str | None]] = [(hub, None) for hub in sorted(self._remove_tokens)]
        for hub, edit in (("huggingface", self.hf_token), ("modelscope", self.ms_token)):
            if edit.text().strip():
                changes.append((hub, edit.text()))
        if not changes:
            self.accept()
            return
        if self._ops is None:
            try:
                _store_tokens(changes)
            except Exception as exc:
                self._fail(exc)
                return
            self.accept()
            return
        # the keyring can be slow (or prompt): write on a worker, the dialog waits for it
        self.storing = True
        self.buttons.setEnabled(False)
        self._ops.query(_store_tokens, changes, parent=self).success(self._stored).failure(
            self._store_failed
        ).run()

    def _stored(self, _none: None) -> None:
        self.storing = False
        self.buttons.setEnabled(True)
        self.accept()

    def _store_failed(self, exc: BaseException) -> None:  # keyring errors: say so, stay open
        self.storing = False
        self.buttons.setEnabled(True)
        self._fail(exc)

    def _fail(self, exc: BaseException) -> None:
        self.error.show_message(str(exc), "error")
        fit_dialog_height(self)

    def showEvent(self, event: QShowEvent) -> None:
        if not event.spontaneous():
            self.resize(window_size_for_screen(self, self.size()))
        super().showEvent(event)
        # a top-level dialog opens at Qt's cap (2/3 of a small screen) and does not follow its
        # layout's height-for-width: take the height the wrapped notes need once shown
        QTimer.singleShot(0, self, lambda: fit_dialog_height(self))

    def _apply_scheme(self) -> None:
        """Light or dark takes effect at once (every view follows the application's palette)."""
        app = QApplication.instance()
        theme = Theme.find(app) if isinstance(app, QApplication) else None
        if theme is not None:  # an application without Tandem's style (a test's) keeps its look
            theme.apply(self.settings.color_scheme)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Settings"))
        if self.tabs is not None:
            self.tabs.setTabText(0, self.tr("General"))
            self.tabs.setTabText(1, self.tr("Tools"))
        self.hub_box.setTitle(self.tr("Model hub"))
        self.lbl_hub.setText(self.tr("Download from"))
        self.lbl_hf_ep.setText(self.tr("Hugging Face endpoint"))
        self.lbl_ms_ep.setText(self.tr("ModelScope endpoint"))
        self.hf_endpoint.setPlaceholderText(
            self.tr("Default (leave empty), or a mirror such as https://hf-mirror.com")
        )
        self.ms_endpoint.setPlaceholderText(
            self.tr("Default (leave empty), or the address of your own ModelScope server")
        )
        self.lbl_hf_tok.setText(self.tr("Hugging Face token"))
        self.lbl_ms_tok.setText(self.tr("ModelScope token"))
        for hub, edit, button in (
            ("huggingface", self.hf_token, self.hf_remove),
            ("modelscope", self.ms_token, self.ms_remove),
        ):
            stored = self._has_token(hub)
            edit.setPlaceholderText(
                self.tr("A token is stored in the system keyring; type to replace it")
                if stored
                else self.tr("Optional; stored in the system keyring")
            )
            button.setText(self.tr("Remove"))
            button.setEnabled(stored)
        self.app_box.setTitle(self.tr("Application"))
        self.lbl_cache.setText(self.tr("Model cache"))
        self.cache_dir.setPlaceholderText(self.tr("Default location"))
        self.cache_note.setText(
            self.tr(
                "Tandem's model entries (links to the downloaded files) go here. The files themselves stay "
                "in the Hugging Face or ModelScope cache, shared with other tools, so models already there "
                "are found again after a change."
            )
        )
        self.browse.setText(self.tr("Browse…"))
        self.lbl_engine.setText(self.tr("Default engine"))
        self.lbl_speculation.setText(self.tr("Speculation at start"))
        self.speculation.setItemText(0, self.tr("Auto (measured on this machine)"))
        self.speculation.setItemText(1, self.tr("Off"))
        self.speculation.setToolTip(
            self.tr(
                "What the model loaded at start uses. Auto measures each model once on this machine "
                "(a few seconds) and keeps speculation only where it pays; Off decodes plainly."
            )
        )
        self.lbl_lang.setText(self.tr("Language"))
        self.lbl_learned.setText(self.tr("Learned text"))
        self.forget.setText(self.tr("Forget learned text"))
        self.forget.setEnabled(self._learned_tokens > 0)
        self.learned_note.setText(
            self.tr(
                "Suffix decoding (MLX) drafts from your earlier questions and answers, kept on this "
                "computer only ({tokens} tokens now). Forgetting deletes them; deleting a conversation "
                "deletes what it taught."
            ).format(tokens=self._learned_tokens)
        )
        self.language.setItemText(0, self.tr("System language"))
        self.lbl_scheme.setText(self.tr("Appearance"))
        for i, text in enumerate((self.tr("Follow the system"), self.tr("Light"), self.tr("Dark"))):
            self.scheme.setItemText(i, text)
        self.scheme.setToolTip(self.tr("Light or dark colours; by default they follow the system's setting"))
        self.lbl_key.setText(self.tr("Local server key"))
        self.copy_key.setText(self.tr("Copy"))
        self.server_key.setPlaceholderText(self.tr("Reading the key…") if self._ops is not None else "")
        self.key_note.setText(
            {
                "env": self.tr("Clients send it as the API key. Set by TANDEM_API_KEY for this session."),
                "keyring": self.tr("Clients send it as the API key. Kept in the system keyring."),
                "session": self.tr(
                    "Clients send it as the API key. No system keyring: a new key is made at each start."
                ),
            }.get(self._key_source, self.tr("Clients send it as the API key."))
        )
