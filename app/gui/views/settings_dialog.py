"""Settings: hub and endpoint, hub tokens (OS keyring), cache location, default engine, language.

A stored token is never shown: the field stays empty with a placeholder saying one is stored;
typing replaces it, "Remove" deletes it.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QEvent, QSize
from PySide6.QtWidgets import (
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
    QVBoxLayout,
    QWidget,
)

from app.core import secrets
from app.core.engines.capability import ENGINES
from app.core.settings import Settings
from app.core.speculative import suffix
from app.gui.i18n import LANGUAGES
from app.gui.widgets import InlineMessage, field_with_note, fit_dialog_height, height_for_width_hint


class SettingsDialog(QDialog):
    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings.model_copy(deep=True)
        self._remove_tokens: set[str] = set()
        self.setMinimumWidth(680)  # the endpoint placeholder names a mirror URL; keep it whole
        root = QVBoxLayout(self)
        root.setContentsMargins(18, 16, 18, 14)

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
        self.language = QComboBox()
        self.language.addItem("", "")
        for code, name in LANGUAGES.items():
            self.language.addItem(name, code)
        self.language.setCurrentIndex(max(0, self.language.findData(settings.language)))
        self.lbl_cache, self.lbl_engine, self.lbl_lang = QLabel(), QLabel(), QLabel()
        self.cache_note = QLabel()
        self.cache_note.setWordWrap(True)
        self.cache_note.setProperty("muted", True)
        aform.addRow(self.lbl_cache, field_with_note(self._row(self.cache_dir, self.browse), self.cache_note))
        aform.addRow(self.lbl_engine, self.engine)
        aform.addRow(self.lbl_lang, self.language)
        # suffix decoding's learned text (issue 11): cleared at once, not on OK
        self.forget = QPushButton()
        self.forget.clicked.connect(self._on_forget_clicked)
        self.learned_note = QLabel()
        self.learned_note.setWordWrap(True)
        self.learned_note.setProperty("muted", True)
        self.lbl_learned = QLabel()
        self._learned_tokens = suffix.stored_tokens()
        aform.addRow(self.lbl_learned, field_with_note(self._row(self.forget), self.learned_note))
        root.addWidget(self.app_box)
        self.error = InlineMessage()
        root.addWidget(self.error)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        root.addWidget(self.buttons)
        self.retranslate()

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
        try:
            s = self.settings
            s.hub = self.hub.currentData()
            s.hf_endpoint = self.hf_endpoint.text()
            s.modelscope_endpoint = self.ms_endpoint.text()
            s.cache_dir = self._checked_cache_dir(self.cache_dir.text().strip())
            s.default_engine = self.engine.currentData()
            s.language = self.language.currentData()
            for hub in self._remove_tokens:
                secrets.delete_token(hub)
            for hub, edit in (("huggingface", self.hf_token), ("modelscope", self.ms_token)):
                if edit.text().strip():
                    secrets.set_token(hub, edit.text())
        except Exception as exc:  # validation or keyring errors: say so, keep the dialog open
            self.error.show_message(str(exc), "error")
            fit_dialog_height(self)
            return
        self.accept()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Settings"))
        self.hub_box.setTitle(self.tr("Model hub"))
        self.lbl_hub.setText(self.tr("Download from"))
        self.lbl_hf_ep.setText(self.tr("Hugging Face endpoint"))
        self.lbl_ms_ep.setText(self.tr("ModelScope endpoint"))
        for edit in (self.hf_endpoint, self.ms_endpoint):
            edit.setPlaceholderText(
                self.tr("Default (leave empty), or a mirror such as https://hf-mirror.com")
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
