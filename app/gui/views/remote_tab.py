"""The launch dialog's Remote server tab: chat through your own OpenAI-compatible server.

The tab holds the endpoint (URL, "allow plain HTTP", the API key), lists the server's models and
shows the command that starts a server for the dialog's model with its drafter (vLLM, SGLang or
llama-server) with a Copy button. The rules (which URL is accepted, when Launch is enabled) are
the form model's (:meth:`app.core.launch.form.LaunchForm.evaluate_remote`); the dialog binds the
tab to the state it returns.

Everything that may block runs through :class:`~app.gui.ops.Ops`, never on the GUI thread: the
saved endpoint list, the keyring (a D-Bus round trip or a keychain prompt) and the model listing.
The API key is stored in the keyring per endpoint, never in the settings; the saved endpoint list
holds URLs and the plain-HTTP flag only.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from keyring.errors import KeyringError
from PySide6.QtCore import QEvent, QTimer, Signal
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.engines.remote.endpoints import (
    Endpoint,
    get_api_key,
    load_endpoints,
    remember_endpoint,
    set_api_key,
)
from app.core.engines.remote.engine import RemoteModel, list_models, server_kind
from app.core.launch.form import LaunchForm
from app.core.launch.form_state import Note, NoteCode, RemoteState, RemoteValues, UrlState
from app.core.registry import AnySpec, Family, Registry
from app.core.serving import serve_command
from app.gui.ops import Ops
from app.gui.views.verify_dialog import VerifyDialog
from app.gui.widgets import InlineMessage

log = logging.getLogger(__name__)

#: (server engine, label) offered for the serve command
SERVE_ENGINES = (("vllm", "vLLM"), ("sglang", "SGLang"), ("llama-server", "llama-server"))


@dataclass(frozen=True)
class Listing:
    """What "List models" found: the models, and whether a typed key is now in the keyring."""

    models: list[RemoteModel]
    #: None: no key was typed; True: stored in the keyring; False: the keyring did not keep it
    key_stored: bool | None


def store_key(url: str, key: str) -> bool:
    """Store ``key`` for ``url`` in the keyring; False when the keyring cannot keep it (no
    backend, or one that drops secrets). Blocking: runs on an ops worker."""
    try:
        set_api_key(url, key)
        return get_api_key(url) == key.strip()
    except KeyringError as exc:
        log.info("the keyring cannot store the endpoint key: %s", type(exc).__name__)
        return False


def list_and_remember(endpoint: Endpoint, typed_key: str) -> Listing:
    """Store a typed key, list the server's models with it (or with the stored one), and add the
    endpoint (URL and flag, no key) to the saved list once it answered. Blocking."""
    key = typed_key.strip()
    stored = store_key(endpoint.url, key) if key else None
    models = list_models(endpoint, key or get_api_key(endpoint.url))
    try:
        remember_endpoint(endpoint)
    except OSError as exc:  # a read-only config folder must not cost the listing
        log.warning("endpoint not remembered: %s", exc)
    return Listing(models, stored)


def remember(endpoint: Endpoint, typed_key: str) -> None:
    """After a launch connected: keep the endpoint and a typed key (engine thread). Never raises."""
    try:
        remember_endpoint(endpoint)
    except OSError as exc:
        log.warning("endpoint not remembered: %s", exc)
    if typed_key.strip():
        store_key(endpoint.url, typed_key)


class RemoteTab(QWidget):
    """Signals: ``changed()`` (a field changed: the dialog re-evaluates), ``modelsListed(object
    Listing)``, ``listFailed(object exc)`` (also reported to the error banner),
    ``keyLooked(bool)`` (whether a key is stored for the endpoint, looked up off the GUI thread)."""

    changed = Signal()
    modelsListed = Signal(object)
    listFailed = Signal(object)
    keyLooked = Signal(bool)

    def __init__(self, family: Family, ops: Ops | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.family = family
        self._ops = ops
        self._spec: AnySpec | None = None
        self._quant: str | None = None
        self._listed_url = ""
        self._saved: list[Endpoint] = []
        self._key_stored: bool | None = None
        self._state: RemoteState | None = None
        self._command_text = ""
        # the keyring is asked once typing pauses, not at every keystroke
        self._key_timer = QTimer(self)
        self._key_timer.setSingleShot(True)
        self._key_timer.setInterval(300)
        self._key_timer.timeout.connect(self._look_up_key)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(10)

        # -- the server ----------------------------------------------------------------------------
        self.server_box = QGroupBox()
        form = QFormLayout(self.server_box)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.url = QComboBox()
        self.url.setEditable(True)
        self.url.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.url_note = InlineMessage()
        self.allow_http = QCheckBox()
        self.api_key = QLineEdit()
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key.setClearButtonEnabled(True)
        self.key_note = InlineMessage()
        url_field = QWidget()
        ul = QVBoxLayout(url_field)
        ul.setContentsMargins(0, 0, 0, 0)
        ul.setSpacing(2)
        ul.addWidget(self.url)
        ul.addWidget(self.url_note)
        ul.addWidget(self.allow_http)
        key_field = QWidget()
        kl = QVBoxLayout(key_field)
        kl.setContentsMargins(0, 0, 0, 0)
        kl.setSpacing(2)
        kl.addWidget(self.api_key)
        kl.addWidget(self.key_note)
        self.model = QComboBox()
        self.model.setEditable(True)
        self.model.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.list_btn = QPushButton()
        self.list_btn.setObjectName("listModels")
        model_row = QWidget()
        ml = QHBoxLayout(model_row)
        ml.setContentsMargins(0, 0, 0, 0)
        ml.addWidget(self.model, 1)
        ml.addWidget(self.list_btn)
        self.model_note = InlineMessage()
        model_field = QWidget()
        mfl = QVBoxLayout(model_field)
        mfl.setContentsMargins(0, 0, 0, 0)
        mfl.setSpacing(2)
        mfl.addWidget(model_row)
        mfl.addWidget(self.model_note)
        self.lbl_url, self.lbl_key, self.lbl_model = QLabel(), QLabel(), QLabel()
        form.addRow(self.lbl_url, url_field)
        form.addRow(self.lbl_key, key_field)
        form.addRow(self.lbl_model, model_field)
        self.stats_note = QLabel()
        self.stats_note.setWordWrap(True)
        self.stats_note.setProperty("muted", True)
        form.addRow(self.stats_note)
        lay.addWidget(self.server_box)

        # -- verify the drafter against a baseline server ----------------------------------
        self.verify_box = QGroupBox()
        self.verify_box.setObjectName("verifyBox")
        # the label above the field: the URL keeps the box's whole width in every language
        vl = QVBoxLayout(self.verify_box)
        vl.setSpacing(4)
        self.lbl_baseline = QLabel()
        self.baseline = QLineEdit()
        self.baseline.setObjectName("baselineEndpoint")
        self.baseline.setClearButtonEnabled(True)
        self.lbl_baseline.setBuddy(self.baseline)
        self.baseline_note = InlineMessage()
        self.baseline_http = QCheckBox()
        self.baseline_http.hide()
        self.verify_btn = QPushButton()
        self.verify_btn.setObjectName("verifyOutput")
        baseline_row = QHBoxLayout()
        baseline_row.setContentsMargins(0, 0, 0, 0)
        baseline_row.addWidget(self.baseline, 1)
        baseline_row.addWidget(self.verify_btn)
        vl.addWidget(self.lbl_baseline)
        vl.addLayout(baseline_row)
        vl.addWidget(self.baseline_note)
        vl.addWidget(self.baseline_http)
        self.verify_dialog: VerifyDialog | None = None
        self._baseline_state = UrlState(None, None, False)
        lay.addWidget(self.verify_box)

        # -- the serve command -----------------------------------------------------------------------
        self.serve_box = QGroupBox()
        self.serve_box.setObjectName("serveCommand")
        sl = QVBoxLayout(self.serve_box)
        top = QHBoxLayout()
        self.lbl_serve_engine = QLabel()
        self.serve_engine = QComboBox()
        for name, label in SERVE_ENGINES:
            self.serve_engine.addItem(label, name)
        self.copy_btn = QPushButton()
        self.copy_btn.setObjectName("copyServeCommand")
        top.addWidget(self.lbl_serve_engine)
        top.addWidget(self.serve_engine, 1)
        top.addWidget(self.copy_btn)
        sl.addLayout(top)
        self.command = QPlainTextEdit()
        self.command.setReadOnly(True)
        self.command.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.command.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.command.setFixedHeight(self.command.fontMetrics().lineSpacing() * 6 + 24)  # + scroll bar
        self.serve_note = InlineMessage()
        sl.addWidget(self.command)
        sl.addWidget(self.serve_note)
        lay.addWidget(self.serve_box)

        self.url.currentTextChanged.connect(self._on_url_changed)
        self.url.activated.connect(self._on_saved_chosen)
        self.allow_http.toggled.connect(self.changed)
        self.api_key.textChanged.connect(self._on_key_typed)
        self.model.currentTextChanged.connect(self.changed)
        self.list_btn.clicked.connect(self.list_models)
        self.serve_engine.currentIndexChanged.connect(self._show_command)
        self.copy_btn.clicked.connect(self.copy_command)
        self.baseline.textChanged.connect(self._check_baseline)
        self.baseline_http.toggled.connect(self._check_baseline)
        self.verify_btn.clicked.connect(self.verify)
        self.retranslate()
        self._load_saved()

    # --- values ---------------------------------------------------------------------------------
    def values(self) -> RemoteValues:
        return RemoteValues(
            url=self.url.currentText().strip(),
            allow_http=self.allow_http.isChecked(),
            model=self.model.currentText().strip(),
            api_key=self.api_key.text(),
        )

    def bind(self, state: RemoteState, say: str) -> None:
        """Show the form's verdict: ``say`` is the URL note in the user's language ('' for none)."""
        self._state = state
        if state.url_note is None:
            self.url_note.clear_message()
        else:
            self.url_note.show_message(say, state.url_note.level)
        self.allow_http.setVisible(state.allow_http_applies)
        self.list_btn.setEnabled(state.list_enabled and self._ops is not None)
        self._enable_verify()

    # --- saved endpoints and keys -----------------------------------------------------------------
    def _load_saved(self) -> None:
        if self._ops is None:
            self._fill_saved(load_endpoints())
            return
        self._ops.query(load_endpoints, parent=self).success(self._fill_saved).failure(
            lambda exc: log.warning("saved endpoints not read: %s", exc)
        ).run()

    def _fill_saved(self, endpoints: list[Endpoint]) -> None:
        self._saved = list(reversed(endpoints))  # the last one used first
        typed = self.url.currentText()
        b = self.url.blockSignals(True)
        self.url.clear()
        for e in self._saved:
            self.url.addItem(e.url, e)
        self.url.setEditText(typed)
        self.url.blockSignals(b)
        if not typed and self._saved:
            self.url.setCurrentIndex(0)
            self._on_saved_chosen(0)
            self._on_url_changed(self.url.currentText())

    def _on_saved_chosen(self, index: int) -> None:
        endpoint = self.url.itemData(index)
        if isinstance(endpoint, Endpoint):
            self.allow_http.setChecked(endpoint.allow_http)

    def _on_url_changed(self, text: str) -> None:
        if self._listed_url and text.strip() != self._listed_url:
            self._listed_url = ""
            self.model_note.clear_message()
        self._key_stored = None
        self._show_key_note()
        self.changed.emit()
        self._key_timer.start()

    def _look_up_key(self) -> None:
        """Whether a key is stored for the URL now in the field (keyring: off the GUI thread)."""
        state = self._state
        url = self.url.currentText().strip()
        if self._ops is None or state is None or state.endpoint is None:
            return
        endpoint_url = state.endpoint.url

        def found(key: str | None) -> None:
            st = self._state
            same = st is not None and st.endpoint is not None and st.endpoint.url == endpoint_url
            if same and self.url.currentText().strip() == url:
                self._key_stored = key is not None
                self._show_key_note()
                self.keyLooked.emit(self._key_stored)

        self._ops.query(get_api_key, endpoint_url, parent=self).success(found).failure(
            lambda exc: log.info("keyring lookup failed: %s", exc)
        ).run()

    def _on_key_typed(self) -> None:
        self._show_key_note()
        self.changed.emit()

    def _show_key_note(self) -> None:
        if self.api_key.text().strip():
            self.key_note.show_message(
                self.tr("Stored in the system keyring for this endpoint when the server answers."), "info"
            )
        elif self._key_stored:
            self.key_note.show_message(
                self.tr("A key is stored in the keyring for this endpoint; leave the field empty to use it."),
                "info",
            )
        else:
            self.key_note.clear_message()

    # --- models ---------------------------------------------------------------------------------
    def list_models(self) -> None:
        """GET /v1/models on a worker; a typed key is stored in the keyring first."""
        state = self._state
        if self._ops is None or state is None or state.endpoint is None:
            return
        endpoint, key = state.endpoint, self.api_key.text()
        self.list_btn.setEnabled(False)
        self.model_note.show_message(self.tr("Asking {url} for its models…").format(url=endpoint.url), "info")
        self._ops.query(list_and_remember, endpoint, key, parent=self).success(
            lambda listing: self._on_listed(endpoint, listing)
        ).failure(self._on_list_failed).run()

    def _on_listed(self, endpoint: Endpoint, listing: Listing) -> None:
        self.list_btn.setEnabled(True)
        self._listed_url = self.url.currentText().strip()
        current = self.model.currentText().strip()
        b = self.model.blockSignals(True)
        self.model.clear()
        for m in listing.models:
            self.model.addItem(m.id, m)
        ids = [m.id for m in listing.models]
        self.model.setCurrentIndex(ids.index(current) if current in ids else (0 if ids else -1))
        self.model.blockSignals(b)
        kinds = sorted({server_kind(m.owned_by) for m in listing.models})
        text = self.tr("{n} model(s) on this server ({kind}).").format(
            n=len(ids), kind=", ".join(self._kind_name(k) for k in kinds) or "—"
        )
        if listing.key_stored is False:
            text += " " + self.tr(
                "The system keyring did not keep the key: Tandem uses it for this launch only."
            )
        elif listing.key_stored:
            self._key_stored = True
        self.model_note.show_message(text, "info")
        self._show_stats_note(kinds)
        self.changed.emit()
        self.modelsListed.emit(listing)

    def _on_list_failed(self, exc: BaseException) -> None:
        self.list_btn.setEnabled(self._state is not None and self._state.list_enabled)
        self.model_note.show_message(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, "error")
        if self._ops is not None:
            self._ops.errors.report(exc, self.tr("The server's models could not be listed"))
        self.listFailed.emit(exc)

    def _kind_name(self, kind: str) -> str:
        names = {"llama.cpp": "llama.cpp", "vllm": "vLLM", "sglang": "SGLang"}
        return names.get(kind, self.tr("OpenAI-compatible"))

    def _show_stats_note(self, kinds: list[str]) -> None:
        if not kinds:
            self.stats_note.setText(self._stats_text())
            return
        if all(k in ("llama.cpp", "vllm", "sglang") for k in kinds):
            self.stats_note.setText(
                self.tr(
                    "The statistics strip shows the rounds and acceptance this server reports "
                    "(when it runs with a drafter)."
                )
            )
        else:
            self.stats_note.setText(
                self.tr("This server does not report acceptance: the statistics strip shows its speed only.")
            )

    def _stats_text(self) -> str:
        return self.tr(
            "The server's own launch settings decide speculation. The statistics strip shows the rounds and "
            "acceptance where the server reports them (llama.cpp timings, vLLM and SGLang metrics)."
        )

    # --- verify ----------------------------------------------------------------------
    def _check_baseline(self) -> None:
        """The baseline URL under the endpoint's rules (loopback HTTP, else HTTPS or the tick)."""
        st = self._baseline_state = LaunchForm.evaluate_url(
            self.baseline.text(), self.baseline_http.isChecked()
        )
        self.baseline_http.setVisible(st.allow_http_applies)
        if st.note is None:
            self.baseline_note.clear_message()
        else:
            self.baseline_note.show_message(self.say(st.note), st.note.level)
        self._enable_verify()

    def _enable_verify(self) -> None:
        state = self._state
        endpoint_ok = state is not None and state.endpoint is not None
        refused = bool(self.baseline.text().strip()) and self._baseline_state.endpoint is None
        self.verify_btn.setEnabled(self._ops is not None and endpoint_ok and not refused)

    def verify(self) -> None:
        """Open the report dialog and run the check; without a baseline, say what is needed."""
        state = self._state
        if self._ops is None or state is None or state.endpoint is None:
            return
        baseline = self._baseline_state.endpoint
        if baseline is None:
            if not self.baseline.text().strip():
                self.baseline_note.show_message(self._baseline_needed(), "warn")
            return
        if baseline.url == state.endpoint.url:
            self.baseline_note.show_message(
                self.tr("The baseline must be another server: the same model without a drafter."), "warn"
            )
            return
        self.baseline_note.clear_message()
        if self.verify_dialog is not None:
            self.verify_dialog.close()
            self.verify_dialog.deleteLater()
        values = self.values()
        dlg = self.verify_dialog = VerifyDialog(
            self._ops, state.endpoint, baseline, values.model, values.api_key, self.window()
        )
        dlg.show()
        dlg.start()

    def _baseline_needed(self) -> str:
        return self.tr(
            "Verify needs a second server of the same model without a drafter: start the command below "
            "without its drafter options, on another port, and enter its address here."
        )

    def shutdown(self) -> None:
        """The launch dialog closes: stop a running check and close its report."""
        if self.verify_dialog is not None:
            self.verify_dialog.close()

    # --- serve command --------------------------------------------------------------------------
    def set_spec(self, spec: AnySpec, quant: str | None) -> None:
        """The dialog's model: the serve command follows it."""
        if spec is self._spec and quant == self._quant:
            return
        self._spec, self._quant = spec, quant
        self.retranslate()  # the box's title names the model; retranslate shows the command

    def _show_command(self) -> None:
        spec = self._spec
        engine = str(self.serve_engine.currentData() or "")
        if spec is None or not engine:
            return
        registry = Registry(families={self.family.name: self.family})
        gguf = spec.format == "gguf"
        try:
            cmd = serve_command.build(
                registry,
                self.family.name,
                engine,
                size=str(spec.size_in_billions),
                fmt="gguf" if engine == "llama-server" else None,
                quant=self._quant if engine == "llama-server" and gguf else None,
            )
        except (serve_command.ServeCommandError, ValueError) as exc:
            self._command_text = ""
            self.command.setPlainText("")
            self.command.hide()
            self.copy_btn.setEnabled(False)
            self.serve_note.show_message(
                self.tr("No {engine} command for this model: {reason}").format(
                    engine=self.serve_engine.currentText(), reason=exc
                ),
                "warn",
            )
            return
        self._command_text = cmd.shell()
        self.command.setPlainText(self._command_text)
        self.command.show()
        self.copy_btn.setEnabled(True)
        self.serve_note.clear_message()

    def copy_command(self) -> None:
        if self._command_text:
            QGuiApplication.clipboard().setText(self._command_text)
            self.serve_note.show_message(self.tr("Copied to the clipboard."), "info")

    # --- i18n -----------------------------------------------------------------------------------
    def say(self, note: Note) -> str:
        """A remote URL note in the user's language."""
        if note.code == NoteCode.REMOTE_NEEDS_HTTPS:
            return self.tr(
                "Plain HTTP to {host} would send the key and your chats unencrypted: use https://, or "
                "tick Allow plain HTTP if this network is yours."
            ).format(host=note.params.get("host", ""))
        return self.tr("Not a server address Tandem connects to: {detail}").format(
            detail=note.params.get("detail", "")
        )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.server_box.setTitle(self.tr("Server"))
        self.lbl_url.setText(self.tr("Endpoint"))
        _placeholder(self.url, "https://gpu-box.example:8000/v1")
        self.url.setToolTip(
            self.tr(
                "The OpenAI API address of your own server (vLLM, SGLang, llama-server or any "
                "OpenAI-compatible one). HTTPS is required for other machines."
            )
        )
        self.allow_http.setText(self.tr("Allow plain HTTP for this endpoint"))
        self.lbl_key.setText(self.tr("API key"))
        self.api_key.setPlaceholderText(self.tr("Leave empty if the server needs none"))
        self.api_key.setToolTip(
            self.tr("Kept in the system keyring for this endpoint only, never in Tandem's settings.")
        )
        self.lbl_model.setText(self.tr("Model"))
        _placeholder(self.model, self.tr("The server's only model"))
        self.list_btn.setText(self.tr("List models"))
        self.list_btn.setToolTip(self.tr("Ask the server which models it serves"))
        self.stats_note.setText(self._stats_text())
        spec = self._spec
        model = f"{self.family.name} {spec.size_label}" if spec is not None else self.family.name
        self.serve_box.setTitle(self.tr("Start a server for {model}").format(model=model))
        self.lbl_serve_engine.setText(self.tr("Server"))
        self.serve_box.setToolTip(
            self.tr(
                "The command that starts the server with this model's drafter, translated from Tandem's "
                "model entry (the same as `tandem serve-command`)."
            )
        )
        self.copy_btn.setText(self.tr("Copy"))
        self.verify_box.setTitle(self.tr("Check the drafter"))
        self.lbl_baseline.setText(self.tr("Baseline endpoint (no drafter)"))
        self.baseline.setPlaceholderText("http://127.0.0.1:8081/v1")
        self.baseline.setToolTip(
            self.tr(
                "A second server of the same model without a drafter. Verify compares the greedy answers "
                "of both: speculative decoding must not change them. Its key is the one stored for it in "
                "the keyring, else the endpoint's key when both run on the same machine."
            )
        )
        # the same words as the endpoint's tick: the HTTPS note names it
        self.baseline_http.setText(self.tr("Allow plain HTTP for this endpoint"))
        self.verify_btn.setText(self.tr("Verify output…"))
        self.verify_btn.setToolTip(
            self.tr(
                "Compare greedy answers to a few built-in prompts (prose, code, Chinese, a list, arithmetic) "
                "from this endpoint and from the baseline, token by token where the servers give ids"
            )
        )
        if self._baseline_state.note is not None:
            self.baseline_note.show_message(
                self.say(self._baseline_state.note), self._baseline_state.note.level
            )
        self._show_key_note()
        if self._state is not None and self._state.url_note is not None:
            self.url_note.show_message(self.say(self._state.url_note), self._state.url_note.level)
        self._show_command()


def _placeholder(combo: QComboBox, text: str) -> None:
    edit = combo.lineEdit()
    if edit is not None:
        edit.setPlaceholderText(text)
