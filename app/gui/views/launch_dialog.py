"""Launch dialog: engine, context, sampling, and the gated Speculative Decoding panel.

The dialog holds no rules: after every change it hands what the widgets hold to the
Qt-free form model (:class:`app.core.launch.form.LaunchForm`) and binds the widgets to the state
it returns (panel shown, fields enabled, notes as codes it translates here, Launch enabled).
Switching engine or variant re-applies the rules live.

The Remote server tab (:mod:`app.gui.views.remote_tab`) chats through the user's own
OpenAI-compatible server instead: endpoint, key, model, and the command that starts such a
server for this model with its drafter. Sampling applies to both; context and threads are the
server's own there.

A GGUF model that declares no drafter is searched for one on this computer:
once its file is on disk, the compatible-drafter finder runs off the GUI thread (the model's
folder, the folders of registered local models and Tandem's cache entries, as the import dialog
searches) and the panel offers the compatible files ("Drafter"), each with why it is compatible on
hover; when none is found a note says so, with the files refused and why on hover.

Sampling starts from the family's recommended values (its model card, ``Family.sampling``), else
Tandem's defaults from the settings; each field's tooltip says which. The values become the chat's
sampling once the model is loaded. A combination the engine cannot run is shown inline and keeps
Launch disabled, so :meth:`LaunchDialog.choice` never meets an invalid :class:`Sampling`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QShowEvent, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QSpinBox,
    QTabBar,
    QVBoxLayout,
    QWidget,
)

from app.core import limits
from app.core.catalog import importer
from app.core.catalog.drafters import Candidate
from app.core.engines.base import Sampling, SamplingError
from app.core.engines.capability import ENGINES, Support
from app.core.launch.form import (
    FormState,
    FormValues,
    LaunchForm,
    Note,
    NoteCode,
    QuantOption,
    RemoteState,
    SwitchLabel,
)
from app.core.launch.form import ordered_draft_quants as ordered_draft_quants  # re-exported (browser)
from app.core.launch.plan import LaunchChoice as LaunchChoice  # re-exported: the dialog returns one
from app.core.registry import AnySpec, Family, Registry
from app.core.settings import Settings, starting_sampling
from app.core.speculative import DefaultDepth
from app.core.units import human_bytes
from app.gui.cache_bridge import CacheBridge
from app.gui.errors import QT_TRANSLATE_NOOP
from app.gui.models.registry_model import size_text, status_icon
from app.gui.ops import Ops
from app.gui.views.auto_panel import AutoPanel
from app.gui.views.fit_row import FitLabel
from app.gui.views.remote_tab import RemoteTab
from app.gui.widgets import (
    InlineMessage,
    KeepFitted,
    ScrollBody,
    ToggleSwitch,
    bind_range,
    field_with_note,
    fit_dialog_height,
    height_for_width_hint,
)


class DepthField(QWidget):
    """Tokens-per-round line edit; the form model says whether its text is valid."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        self.edit = QLineEdit()
        self.edit.setClearButtonEnabled(True)
        self.error = InlineMessage()
        lay.addWidget(self.edit)
        lay.addWidget(self.error)
        self.valid = True

    @staticmethod
    def invalid_text() -> str:
        return QCoreApplication.translate(
            "DepthField", "Enter a whole number greater than zero, or leave it empty."
        )

    def show_error(self, note: Note | None) -> None:
        """Show the form's verdict on the text: ``note`` is a DEPTH_INVALID note, or None."""
        self.valid = note is None
        if note is None:
            self.error.clear_message()
        else:
            self.error.setToolTip(str(note.params.get("detail", "")))  # the core parser's own message
            self.error.show_message(self.invalid_text(), "error")
        if bool(self.edit.property("invalid")) != (not self.valid):
            self.edit.setProperty("invalid", not self.valid)
            self.edit.style().unpolish(self.edit)
            self.edit.style().polish(self.edit)


def find_drafters(cache: CacheBridge, family: Family, spec: AnySpec, quant: str) -> list[Candidate]:
    """The finder's candidates for the model's file (blocking: run it on a worker). The folders
    searched are the import dialog's: the file's own, those of registered local models, and
    Tandem's cache entries."""
    target = cache.resolve(family, spec, "target", quant)
    return importer.find_drafters(Path(target), Registry.load())


#: Each note code's sentence, in the dialog's translation context (the sentences and their
#: translations are the ones the dialog always had); parameters are filled in by ``_say``.
NOTE_TEXTS: dict[NoteCode, str] = {
    NoteCode.ENGINE_UNAVAILABLE: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "This engine is not available here: {reason}",
    ),
    NoteCode.TARGET_NOT_CACHED: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "{quant} is not downloaded yet; launching queues its download first.",
    ),
    NoteCode.DRAFTER_NOT_CACHED: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "The drafter ({quant}) is not downloaded yet. Launching queues its download, "
        "then loads the model with it.",
    ),
    NoteCode.MOE_DRAFTER_COST: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "This is a mixture-of-experts model: it computes only part of itself per token, so a "
        "drafter may cost more than it saves. Compare the tokens/s in the statistics strip "
        "with speculation on and off.",
    ),
    NoteCode.AUTO_DRAFTER_NOT_CACHED: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "The drafter ({quant}) is not downloaded, so Auto measures without it. Download it "
        "from the Models page to let Auto try it.",
    ),
    NoteCode.FINDING_DRAFTERS: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "Looking for a compatible drafter on this computer…",
    ),
    NoteCode.NO_COMPATIBLE_DRAFTER: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "No compatible drafter found on this computer. Download a smaller model of the same "
        "family (same vocabulary) to draft for it, or use a model-free method.",
    ),
    NoteCode.DRAFTER_SEARCH_FAILED: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "The drafter search failed: {detail}",
    ),
    NoteCode.DRAFTER_BLOCKS_MODEL_FREE: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "Turn the drafter off to use a model-free method.",
    ),
    NoteCode.PROJECTOR_NOT_CACHED: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "This model reads images with its projector (mmproj), which is not downloaded: this launch "
        "reads text only. Download the model again from the Models page to fetch it.",
    ),
    NoteCode.METHOD_BLOCKS_IMAGES: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "{method} cannot run with pictures on this llama.cpp: this launch reads text only. "
        "Choose another speculation method to send pictures.",
    ),
    NoteCode.MAX_TOKENS_NOT_BELOW_CONTEXT: QT_TRANSLATE_NOOP(
        "LaunchDialog",
        "Max new tokens ({max}) must be less than the context length ({ctx}): the "
        "conversation needs room in the context too.",
    ),
}
#: A note code without a sentence of its own: a sampling value the form refused.
SAMPLING_NOTE = QT_TRANSLATE_NOOP("LaunchDialog", "These sampling values cannot be used: {detail}")


class LaunchDialog(QDialog):
    """Signals: ``drafterSearchDone()`` when the compatible-drafter finder has answered (or
    failed); read :meth:`choice` after ``accepted``."""

    drafterSearchDone = Signal()

    def __init__(
        self,
        family: Family,
        spec: AnySpec,
        quantization: str,
        cache: CacheBridge,
        settings: Settings,
        parent: QWidget | None = None,
        support: Callable[..., Support] | None = None,
        ops: Ops | None = None,
    ) -> None:
        super().__init__(parent)
        self.family = family
        self._cache = cache
        self._settings = settings
        self._ops = ops
        # the finder's answers per (spec, quantization), its errors, and the one it runs for
        self._found: dict[tuple[int, str | None], tuple[Candidate, ...]] = {}
        self._find_errors: dict[tuple[int, str | None], str] = {}
        self._finding: tuple[int, str | None] | None = None
        self.form = LaunchForm(family, cache.status, support, settings.default_engine)
        self.setObjectName("launchDialog")
        self.setMinimumWidth(560)

        root = QVBoxLayout(self)
        root.setContentsMargins(18, 16, 18, 14)
        root.setSpacing(10)
        self.title = QLabel()
        self.title.setObjectName("pageTitle")
        root.addWidget(self.title)
        # -- where the model runs: this computer, or the user's own server ---------------
        self.mode = QTabBar()
        self.mode.setObjectName("launchMode")
        self.mode.setExpanding(False)
        self.mode.addTab("")
        self.mode.addTab("")
        root.addWidget(self.mode)
        root.addSpacing(2)
        # everything between the tabs and the buttons scrolls when the screen is too short for it
        # (a 768-900 px laptop screen: the runtime rows and the Launch button stay reachable)
        body_widget = QWidget()
        body_widget.setObjectName("launchBody")
        body = QVBoxLayout(body_widget)
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(10)
        self.body = ScrollBody(body_widget)
        root.addWidget(self.body, 1)

        # -- model and engine ----------------------------------------------------------------
        self.model_box = QGroupBox()
        form = QFormLayout(self.model_box)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.variant = QComboBox()
        for s in family.specs:
            self.variant.addItem(f"{s.format.upper()} · {size_text(s)}", s)
        self.quant = QComboBox()
        self.engine = QComboBox()
        self.engine_note = InlineMessage()
        self.target_note = InlineMessage()
        #: whether the launch reads images, and with which speculation
        self.vision_note = InlineMessage()
        self.vision_note.setObjectName("visionNote")
        self.lbl_variant, self.lbl_quant, self.lbl_engine = QLabel(), QLabel(), QLabel()
        form.addRow(self.lbl_variant, self.variant)
        form.addRow(self.lbl_quant, field_with_note(self.quant, self.target_note))
        engine_notes = QWidget()
        notes = QVBoxLayout(engine_notes)
        notes.setContentsMargins(0, 0, 0, 0)
        notes.setSpacing(4)
        notes.addWidget(self.engine_note)
        notes.addWidget(self.vision_note)
        form.addRow(self.lbl_engine, field_with_note(self.engine, engine_notes))
        self.fit = FitLabel(cache, ops)
        self.lbl_fit = QLabel()
        form.addRow(self.lbl_fit, self.fit)
        body.addWidget(self.model_box)

        # -- Auto: the default speculation -------------------------------------------
        self.auto_box = QGroupBox()
        self.auto_box.setObjectName("autoSpeculation")
        alay = QVBoxLayout(self.auto_box)
        self.auto_panel = AutoPanel(cache, ops)
        self.auto_note = InlineMessage()
        alay.addWidget(self.auto_panel)
        alay.addWidget(self.auto_note)
        body.addWidget(self.auto_box)

        # -- speculative decoding (gated) -------------------------------------------------------
        self.spec_panel = QGroupBox()
        self.spec_panel.setObjectName("speculative")
        self._sform = sform = QFormLayout(self.spec_panel)
        sform.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.enable = ToggleSwitch()
        self.found_drafter = QComboBox()
        self.found_drafter.setObjectName("foundDrafter")
        self.lbl_found_drafter = QLabel()
        self.draft_quant = QComboBox()
        self.depth_field = DepthField()
        self.download_note = InlineMessage()
        self.moe_note = InlineMessage()
        self.lbl_draft_quant, self.lbl_depth = QLabel(), QLabel()
        sform.addRow(self.enable)
        sform.addRow(self.lbl_found_drafter, self.found_drafter)
        sform.addRow(self.lbl_draft_quant, self.draft_quant)
        sform.addRow(self.lbl_depth, self.depth_field)
        sform.addRow(self.download_note)
        sform.addRow(self.moe_note)
        body.addWidget(self.spec_panel)
        # what the drafter finder says while the panel is hidden (searching, none found)
        self.found_note = InlineMessage()
        self.found_note.setObjectName("foundDrafterNote")
        body.addWidget(self.found_note)

        # -- model-free speculation ---------------------------------------------------------------
        self.ngram_box = QGroupBox()
        self._nform = nform = QFormLayout(self.ngram_box)
        nform.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.ngram_method = QComboBox()
        self.ngram_depth = DepthField()
        self.ngram_note = InlineMessage()
        self.lbl_ngram_method, self.lbl_ngram_depth = QLabel(), QLabel()
        nform.addRow(self.lbl_ngram_method, self.ngram_method)
        nform.addRow(self.lbl_ngram_depth, self.ngram_depth)
        nform.addRow(self.ngram_note)
        body.addWidget(self.ngram_box)

        # -- remote server -----------------------------------------------------------------
        self.remote = RemoteTab(family, ops)
        self.remote.hide()
        self.remote_state: RemoteState | None = None
        body.addWidget(self.remote)

        # -- runtime and sampling -------------------------------------------------------------------
        self.run_box = QGroupBox()
        self._rform = rform = QFormLayout(self.run_box)
        self.ctx = QSpinBox()
        # 0 is Auto (the trained context as far as memory allows), the spin box's lowest value
        self.ctx.setRange(0, max(256, family.context_length))
        self.ctx.setSingleStep(256)
        self.ctx.setValue(min(settings.context_length, family.context_length))
        self.threads = QSpinBox()
        self.threads.setRange(0, 256)
        self.threads.setValue(settings.threads or 0)
        # The spin boxes' ranges come from the one table of limits (core.limits) that Sampling
        # checks, so a typed value is never out of range; the cross-field rule (answer vs
        # context) is the form model's.
        start, self._from_card = starting_sampling(settings.sampling, family.sampling)
        self.temperature = QDoubleSpinBox()
        bind_range(self.temperature, limits.TEMPERATURE)
        self.temperature.setValue(start.temperature)
        self.top_p = QDoubleSpinBox()
        bind_range(self.top_p, limits.TOP_P)
        self.top_p.setValue(start.top_p)
        self.top_k = QSpinBox()
        bind_range(self.top_k, limits.TOP_K)
        self.top_k.setValue(start.top_k)
        self.repeat_penalty = QDoubleSpinBox()
        bind_range(self.repeat_penalty, limits.REPEAT_PENALTY)
        self.repeat_penalty.setValue(start.repeat_penalty)
        self.max_tokens = QSpinBox()
        bind_range(self.max_tokens, limits.MAX_TOKENS)
        self.max_tokens.setValue(start.max_tokens)
        self._start = start
        self.sampling_note = InlineMessage()
        self.lbl_ctx, self.lbl_threads, self.lbl_temp = QLabel(), QLabel(), QLabel()
        self.lbl_top_p, self.lbl_top_k, self.lbl_max = QLabel(), QLabel(), QLabel()
        self.lbl_repeat = QLabel()
        rform.addRow(self.lbl_ctx, self.ctx)
        rform.addRow(self.lbl_threads, self.threads)
        rform.addRow(self.lbl_temp, self.temperature)
        rform.addRow(self.lbl_top_p, self.top_p)
        rform.addRow(self.lbl_top_k, self.top_k)
        rform.addRow(self.lbl_repeat, self.repeat_penalty)
        rform.addRow(self.lbl_max, field_with_note(self.max_tokens, self.sampling_note))
        body.addWidget(self.run_box)
        self._sampling: Sampling | None = None

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.launch_button = self.buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole)
        self.launch_button.setObjectName("primary")
        self.launch_button.setDefault(True)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        root.addWidget(self.buttons)

        self.variant.currentIndexChanged.connect(self._on_variant_changed)
        self.mode.currentChanged.connect(self._on_mode_changed)
        self.remote.changed.connect(self._update)
        self.quant.currentIndexChanged.connect(self._update)
        self.engine.currentIndexChanged.connect(self._update)
        self.enable.toggled.connect(self._on_manual_drafter)
        self.auto_panel.toggled.connect(self._on_auto_toggled)
        # a stored reason or a progress row arriving after opening changes the height: re-fit
        self.auto_panel.stateChanged.connect(lambda _state: self._refit())
        self.draft_quant.currentIndexChanged.connect(self._update)
        self.found_drafter.currentIndexChanged.connect(self._update)
        self.ngram_method.currentIndexChanged.connect(self._on_manual_model_free)
        self.depth_field.edit.textChanged.connect(self._update)
        self.ngram_depth.edit.textChanged.connect(self._update)
        for box in (self.ctx, self.threads, self.top_k, self.max_tokens):
            box.valueChanged.connect(self._update)
        for dbox in (self.temperature, self.top_p, self.repeat_penalty):
            dbox.valueChanged.connect(self._update)

        # any later change of the contents (a note read in the background) re-fits the height
        self._fitter = KeepFitted(self)
        self.variant.setCurrentIndex(max(0, family.specs.index(spec)))
        self._fill_for_spec(spec, quantization)
        self.retranslate()

    # --- state -------------------------------------------------------------------------------
    @property
    def spec(self) -> AnySpec:
        spec: AnySpec = self.variant.currentData()
        return spec

    @property
    def engine_name(self) -> str:
        return str(self.engine.currentData() or "")

    @property
    def remote_mode(self) -> bool:
        """The Remote server tab is chosen."""
        return self.mode.currentIndex() == 1

    def _on_mode_changed(self) -> None:
        remote = self.remote_mode
        for box in (self.model_box, self.auto_box, self.spec_panel, self.ngram_box, self.found_note):
            box.setVisible(not remote)  # local mode: _update shows the gated ones again
        self.remote.setVisible(remote)
        for field in (self.ctx, self.threads):  # the server's own settings there
            self._rform.setRowVisible(field, not remote)
        self._update()

    def is_panel_visible(self) -> bool:
        return not self.spec_panel.isHidden()

    def _on_auto_toggled(self, on: bool) -> None:
        """Auto on clears the manual choices it replaces (drafter switch, model-free method)."""
        if on:
            b1, b2 = self.enable.blockSignals(True), self.ngram_method.blockSignals(True)
            self.enable.setChecked(False)
            self.ngram_method.setCurrentIndex(0)
            self.enable.blockSignals(b1)
            self.ngram_method.blockSignals(b2)
        self._update()

    def _auto_off(self) -> None:
        b = self.auto_panel.switch.blockSignals(True)
        self.auto_panel.switch.setChecked(False)
        self.auto_panel.switch.blockSignals(b)

    def _on_manual_drafter(self, on: bool) -> None:
        if on:
            self._auto_off()  # a manual drafter replaces Auto
        self._update()

    def _on_manual_model_free(self) -> None:
        if self.ngram_method.currentData():
            self._auto_off()
        self._update()

    def done(self, result: int) -> None:
        self.auto_panel.shutdown()
        self.remote.shutdown()  # a running Verify stops with the dialog
        super().done(result)

    def _on_variant_changed(self) -> None:
        self._fill_for_spec(self.spec, None)

    def _fill_for_spec(self, spec: AnySpec, quantization: str | None) -> None:
        blockers = [
            self.quant.blockSignals(True),
            self.engine.blockSignals(True),
            self.draft_quant.blockSignals(True),
        ]
        self.quant.clear()
        for q in self.form.quants(spec):
            self.quant.addItem(status_icon(q.status), str(q.value), q.value)
        if quantization in spec.quantizations:
            self.quant.setCurrentIndex(spec.quantizations.index(quantization))
        engines = QStandardItemModel(self.engine)
        preferred = self.form.preferred_engine(spec)
        current = 0
        for i, option in enumerate(self.form.engines(spec)):
            item = QStandardItem(option.label)
            item.setData(option.name, Qt.ItemDataRole.UserRole)
            if not option.available:
                item.setToolTip(option.reason)
            if option.name == preferred:
                current = i
            engines.appendRow(item)
        self.engine.setModel(engines)
        self.engine.setCurrentIndex(current)
        self.draft_quant.clear()
        for dq in self.form.draft_quants(spec):
            self.draft_quant.addItem(dq.value or "", dq.value)
        for w, b in zip((self.quant, self.engine, self.draft_quant), blockers, strict=True):
            w.blockSignals(b)
        self._update()

    # --- the compatible-drafter finder -----------------------------------------
    def _search_key(self) -> tuple[int, str | None]:
        return (id(self.spec), self.quant.currentData())

    def finding(self) -> bool:
        """The finder is running for the current spec and quantization."""
        return self._finding is not None and self._finding == self._search_key()

    def _maybe_find(self) -> None:
        """Start the finder for the current spec and quantization, once, when the rules want it."""
        spec, quant, key = self.spec, self.quant.currentData(), self._search_key()
        if self._ops is None or self._finding is not None or key in self._found or key in self._find_errors:
            return
        if not self.form.wants_drafter_search(spec, quant, self.engine_name):
            return
        self._finding = key
        (
            self._ops.query(find_drafters, self._cache, self.family, spec, str(quant), parent=self)
            .success(lambda cands: self._on_found(key, tuple(cands)))
            .failure(lambda exc: self._on_find_failed(key, exc))
            .run()
        )

    def _on_found(self, key: tuple[int, str | None], cands: tuple[Candidate, ...]) -> None:
        self._found[key] = cands
        self._finding = None
        self._update()
        self.drafterSearchDone.emit()

    def _on_find_failed(self, key: tuple[int, str | None], exc: BaseException) -> None:
        self._find_errors[key] = str(exc) or type(exc).__name__
        self._finding = None
        self._update()
        self.drafterSearchDone.emit()

    def _bind_found(self, st: FormState) -> None:
        """The found drafters in their list (each with why it is compatible on hover) and the
        finder's note outside the panel (with what was refused, and why, on hover)."""
        paths = [c.path for c in st.found_drafters]
        if [self.found_drafter.itemData(i) for i in range(self.found_drafter.count())] != paths:
            b = self.found_drafter.blockSignals(True)
            self.found_drafter.clear()
            for c in st.found_drafters:
                size = human_bytes(c.size_bytes) if c.size_bytes else "?"
                self.found_drafter.addItem(f"{Path(c.path or '').name}  ({size})", c.path)
            self.found_drafter.blockSignals(b)
        for i, c in enumerate(st.found_drafters):
            tip = self.tr("{path}\nCompatible: {reason}").format(path=c.path, reason=c.reason)
            self.found_drafter.setItemData(i, tip, Qt.ItemDataRole.ToolTipRole)
        idx = self.found_drafter.findData(st.found_drafter)
        if idx >= 0 and idx != self.found_drafter.currentIndex():
            b = self.found_drafter.blockSignals(True)
            self.found_drafter.setCurrentIndex(idx)
            self.found_drafter.blockSignals(b)
        self.found_drafter.setToolTip(self.found_drafter.itemData(idx, Qt.ItemDataRole.ToolTipRole) or "")
        found = st.drafter_source == "found"
        self._sform.setRowVisible(self.found_drafter, found)
        self._show(self.found_note, st.found_note)
        refused = [c for c in self._found.get(self._search_key(), ()) if not c.compatible]
        tip = ""
        if st.found_note is not None and st.found_note.code == NoteCode.NO_COMPATIBLE_DRAFTER and refused:
            tip = self.tr("Not offered:") + "\n" + "\n".join(f"{c.label}: {c.reason}" for c in refused[:20])
        self.found_note.setToolTip(tip)
        self.found_note.setVisible(st.found_note is not None)
        if found:
            self.enable.setToolTip(
                self.tr(
                    "Runs the drafter file chosen below beside the model: it proposes several tokens per "
                    "round and the model verifies them in one pass, so the answer is identical. It was "
                    "found on this computer with the same vocabulary; nothing is downloaded."
                )
            )
        else:
            self.enable.setToolTip(self._declared_tip())

    def values(self) -> FormValues:
        """What the widgets hold, for the form model."""
        key = self._search_key()
        return FormValues(
            spec=self.spec,
            quant=self.quant.currentData(),
            engine=self.engine_name,
            drafter_on=self.enable.isChecked(),
            draft_quant=self.draft_quant.currentData(),
            depth=self.depth_field.edit.text(),
            model_free=self.ngram_method.currentData(),
            model_free_depth=self.ngram_depth.edit.text(),
            n_ctx=self.ctx.value(),
            threads=self.threads.value(),
            temperature=self.temperature.value(),
            top_p=self.top_p.value(),
            top_k=self.top_k.value(),
            repeat_penalty=self.repeat_penalty.value(),
            max_tokens=self.max_tokens.value(),
            auto=self.auto_panel.switch.isChecked(),
            found=self._found.get(key),
            finding=self._finding == key,
            find_error=self._find_errors.get(key, ""),
            found_drafter=self.found_drafter.currentData(),
        )

    def _update(self) -> None:
        """Ask the form model for the state of what is set, and bind every widget to it."""
        if self.remote_mode:
            self._update_remote()
            return
        self._maybe_find()
        st = self.state = self.form.evaluate(self.values())
        engine = self.engine_name
        self._show(self.engine_note, st.engine_note)
        self._show(self.target_note, st.target_note)
        self._show(self.vision_note, st.vision_note)
        self.spec_panel.setVisible(st.panel_visible)
        self._method = st.method
        self.enable.setText(
            self.tr("Enable MTP")
            if st.switch_label == SwitchLabel.ENABLE_MTP
            else self.tr("Use the drafter model")
        )
        self._sform.setRowVisible(self.draft_quant, st.draft_quant_shown)
        self.draft_quant.setEnabled(st.draft_quant_enabled)
        self.depth_field.setEnabled(st.depth_enabled)
        self.depth_field.show_error(st.depth_error)
        self._refresh_draft_quant_markers(st.draft_quants)
        self._show(self.download_note, st.download_note)
        self._show(self.moe_note, st.moe_note)
        self.depth_field.edit.setPlaceholderText(self._placeholder(st.depth_default.value))
        self.depth_field.edit.setToolTip(self._depth_tip(engine, st.method, st.depth_default))

        methods = list(st.model_free_methods)
        current = self.ngram_method.currentData()
        if [self.ngram_method.itemData(i) for i in range(1, self.ngram_method.count())] != methods:
            b = self.ngram_method.blockSignals(True)
            self.ngram_method.clear()
            self.ngram_method.addItem(self.tr("Off"), None)
            for m in methods:
                self.ngram_method.addItem(m, m)
            idx = self.ngram_method.findData(current)
            self.ngram_method.setCurrentIndex(max(idx, 0))
            self.ngram_method.blockSignals(b)
            if self.ngram_method.currentData() != current:  # the list changed under the choice
                st = self.state = self.form.evaluate(self.values())
        self.ngram_box.setVisible(bool(methods))
        if self.ngram_method.count():
            self.ngram_method.setItemText(0, self.tr("Off"))
            self._label_model_free_methods()
        self.ngram_method.setEnabled(st.model_free_enabled)
        self.ngram_depth.setEnabled(st.model_free_depth_enabled)
        self.ngram_depth.show_error(st.model_free_depth_error)
        self._show(self.ngram_note, st.model_free_note)
        mf = self.ngram_method.currentData()
        if st.model_free_default is not None and mf:
            self.ngram_depth.edit.setPlaceholderText(self._placeholder(st.model_free_default.value))
            self.ngram_depth.edit.setToolTip(self._depth_tip(engine, mf, st.model_free_default))
        else:
            self.ngram_depth.edit.setPlaceholderText(self.tr("engine default"))

        self._bind_found(st)
        self._update_auto(st)
        self.fit.follow(
            self.family, self.spec, self.quant.currentData(), self.ctx.value(), st.target_note is None
        )
        self._update_threads(engine, st.threads_apply)
        self._sampling = st.sampling
        self._show(self.sampling_note, st.sampling_error)
        self.launch_button.setEnabled(st.launch_enabled)
        self._sync_message_rows()
        self._refit()

    def _update_remote(self) -> None:
        st = self.remote_state = self.form.evaluate_remote(self.remote.values(), self.values())
        self.remote.bind(st, self.remote.say(st.url_note) if st.url_note is not None else "")
        self.remote.set_spec(self.spec, self.quant.currentData())
        self._show(self.sampling_note, st.sampling_error)
        self.launch_button.setEnabled(st.launch_enabled)
        self._refit()

    def _update_auto(self, st: FormState) -> None:
        self.auto_box.setVisible(st.auto_available)
        self._show(self.auto_note, st.auto_note)
        choice = None
        if st.auto_on and st.launch_enabled:
            choice = self.form.choice(self.values())
        self.auto_panel.follow(choice, st.target_note is None)

    def _show(self, widget: InlineMessage, note: Note | None) -> None:
        if note is None:
            widget.clear_message()
        else:
            widget.show_message(self._say(note), note.level)

    def _say(self, note: Note) -> str:
        """A form model's note in the user's language (:data:`NOTE_TEXTS`)."""
        if note.code == NoteCode.DEPTH_INVALID:
            return DepthField.invalid_text()
        p = note.params
        if note.code == NoteCode.READS_IMAGES:
            if not p.get("methods"):
                return self.tr("Reads images: its vision tower is part of the model.")
            if p.get("refused"):
                return self.tr(
                    "Reads images with its projector. With pictures, speculation runs with {methods}; "
                    "not with {refused}."
                ).format(methods=p["methods"], refused=p["refused"])
            return self.tr("Reads images with its projector; speculation runs with pictures too.")
        text = QCoreApplication.translate("LaunchDialog", NOTE_TEXTS.get(note.code, SAMPLING_NOTE))
        return text.format(
            reason=p.get("reason", ""),
            quant=p.get("quant") or self.tr("default"),
            detail=p.get("detail", ""),
            max=p.get("max_tokens", ""),
            ctx=p.get("n_ctx", ""),
            method=p.get("method", ""),
        )

    def _update_threads(self, engine: str, uses: bool) -> None:
        """An engine that ignores a thread count (MLX: GPU through Metal) gets the field disabled,
        with the reason in its tooltip, and the choice carries no thread count."""
        info = ENGINES.get(engine)
        self.threads.setEnabled(uses)
        self.lbl_threads.setEnabled(uses)
        if uses:
            tip = self.tr("CPU threads the engine computes with; Automatic lets the engine choose.")
        else:
            tip = self.tr(
                "{engine} computes on the GPU (Metal), so it does not use a CPU thread count; "
                "this field does not apply."
            ).format(engine=info.label if info is not None else engine)
        self.threads.setToolTip(tip)
        self.lbl_threads.setToolTip(tip)

    def accept(self) -> None:
        """Enter on a form with a problem does nothing: the problem is already shown inline."""
        if self.launch_button.isEnabled():
            super().accept()

    def sizeHint(self) -> QSize:
        return height_for_width_hint(self, super().sizeHint())

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._refit()

    def _refit(self) -> None:
        """Follow the rows shown and hidden (the drafter's quantization, the messages): after the
        layout has seen the change, take exactly the height the contents need."""
        QTimer.singleShot(0, self, lambda: fit_dialog_height(self))

    def _sync_message_rows(self) -> None:
        """A message's whole form row follows it, so an empty one leaves no gap (a hidden field
        next to a visible empty label still takes the row spacing)."""
        for form, note in (
            (self._sform, self.download_note),
            (self._sform, self.moe_note),
            (self._nform, self.ngram_note),
        ):
            form.setRowVisible(note, bool(note.text()))

    def _refresh_draft_quant_markers(self, options: tuple[QuantOption, ...]) -> None:
        if self.draft_quant.count() != len(options):
            return
        for i, option in enumerate(options):
            label = option.value or self.tr("default")
            if option.status == "cached":
                label = self.tr("{quant} (cached)").format(quant=label)
            elif option.status == "partial":
                label = self.tr("{quant} (partial)").format(quant=label)
            self.draft_quant.setItemText(i, label)
            self.draft_quant.setItemIcon(i, status_icon(option.status))

    def _label_model_free_methods(self) -> None:
        """Names and tooltips of MLX's suffix decoding and prompt lookup."""
        tips = {
            "suffix": self.tr(
                "Suffix decoding: drafts from your earlier questions and answers (kept on this computer), "
                "so a regenerated or similar answer comes out many tokens per round; the model still "
                "checks every token, so the answer is the same. Settings > Forget learned text deletes "
                "what it learned; deleting a conversation deletes what that conversation taught."
            ),
            "prompt-lookup": self.tr(
                "Prompt lookup: drafts by copying from this request's own text (the conversation so far), "
                "nothing is kept between requests. It helps when the answer repeats the question, such "
                "as editing code."
            ),
        }
        names = {"suffix": self.tr("Suffix decoding"), "prompt-lookup": self.tr("Prompt lookup")}
        for i in range(1, self.ngram_method.count()):
            method = self.ngram_method.itemData(i)
            if method in names:
                self.ngram_method.setItemText(i, names[method])
                self.ngram_method.setItemData(i, tips[method], Qt.ItemDataRole.ToolTipRole)
        self.ngram_method.setToolTip(tips.get(self.ngram_method.currentData(), ""))

    def _placeholder(self, value: int | None) -> str:
        if value is None:
            return self.tr("engine default")
        return self.tr("engine default: {value}").format(value=value)

    def _depth_tip(self, engine: str, method: str, default: DefaultDepth) -> str:
        """What the tokens-per-round value means on ``engine``: drafted tokens per round on every
        engine (llama.cpp ``draft.n_max``; on MLX the drafter's block minus the verified token)."""
        value = default.value
        base = self.tr(
            "Tokens per round: how many tokens are drafted before the model verifies them. The model "
            "adds one token of its own every round, so a round yields at most this many plus one. "
            "Leave empty for the engine default."
        )
        explained = engine == "mlx" and method == "mtp" and value is not None
        if engine == "mlx" and method == "mtp" and value is not None:
            detail = self.tr(
                "On MLX the Gemma 4 assistant is trained on blocks of {block} tokens that include the "
                "verified token, so it drafts {value} per round by default."
            ).format(block=value + 1, value=value)
        elif engine == "mlx" and method in ("suffix", "prompt-lookup"):
            detail = self.tr(
                "On MLX suffix decoding and prompt lookup this is the longest draft in a round; a round "
                "drafts fewer when the learned text is less sure."
            )
        elif engine == "mlx":
            detail = self.tr(
                "On MLX this is the drafter's block size minus the verified token; empty uses the depth "
                "the drafter was trained for."
            )
        elif method.startswith("ngram"):
            detail = self.tr(
                "On llama.cpp n-gram methods this is the longest draft taken from earlier text in a round."
            )
        else:
            detail = self.tr(
                "On llama.cpp this is the drafter's maximum draft length (draft.n_max); a round may "
                "draft fewer when the drafter is unsure."
            )
        if value is not None and not explained:
            detail += " " + self.tr("Default here: {value} ({source}).").format(
                value=value, source=self._default_source(default)
            )
        return f"{base}\n\n{detail}"

    def _default_source(self, default: DefaultDepth) -> str:
        """Why the default is what it is, from core's code, in the user's language."""
        if default.code == "gemma4-size-table":
            return self.tr("recommended for this Gemma 4 size")
        if default.code == "trained-depth":
            return self.tr("the drafter's trained depth")
        if default.code == "not-offered":
            return self.tr("not offered by this engine")
        if default.code == "model-free-ceiling":
            return self.tr("Tandem's longest draft for this method")
        if default.code == "adaptive-ceiling":
            return self.tr("Tandem's longest draft; each round's depth follows the measured acceptance")
        return self.tr("llama.cpp's own default")

    # --- result ---------------------------------------------------------------------------------
    def choice(self) -> LaunchChoice:
        """The launch the fields describe (see :meth:`LaunchForm.choice`; on the Remote server tab
        :meth:`LaunchForm.remote_choice`)."""
        if self.remote_mode:
            return self.form.remote_choice(self.remote.values(), self.values())
        if self.state.sampling_error is not None and self.state.sampling is None:
            # Launch is disabled then; a caller asking anyway gets the reason as shown
            raise SamplingError(self._say(self.state.sampling_error))
        return self.form.choice(self.values())

    def _origin_tip(self, name: str, what: str, value: object) -> str:
        """A sampling field's tooltip: what it does, and where its starting value comes from."""
        if name in self._from_card:
            source = self.family.sampling.source or self.tr("the model card")
            origin = self.tr("Starts at {value}, recommended by the model card ({source}).").format(
                value=value, source=source
            )
        else:
            origin = self.tr("Starts at {value}, Tandem's default (Settings).").format(value=value)
        return f"{what}\n\n{origin}"

    # --- i18n -----------------------------------------------------------------------------------
    def _declared_tip(self) -> str:
        return self.tr(
            "Runs a small drafter beside the model. The drafter proposes several tokens per round and "
            "the model verifies them in one pass: the answer is identical, decoding is faster. Turning "
            "this on downloads an extra drafter checkpoint."
        )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Launch {name}").format(name=self.family.name))
        self.title.setText(self.tr("Launch {name}").format(name=self.family.name))
        self.mode.setTabText(0, self.tr("This computer"))
        self.mode.setTabText(1, self.tr("Remote server"))
        self.mode.setTabToolTip(
            1, self.tr("Chat through your own vLLM, SGLang or llama-server (an OpenAI-compatible API).")
        )
        self.model_box.setTitle(self.tr("Model"))
        self.auto_box.setTitle(self.tr("Speculation"))
        self.lbl_variant.setText(self.tr("Variant"))
        self.lbl_quant.setText(self.tr("Quantization"))
        self.lbl_engine.setText(self.tr("Engine"))
        self.lbl_fit.setText(self.tr("Memory"))
        self.engine.setToolTip(self.tr("Only engines that can run this model's format are listed."))
        self.spec_panel.setTitle(self.tr("Speculative Decoding"))
        self.spec_panel.setToolTip(
            self.tr(
                "Speculation can be slower when the drafter is expensive relative to the model, for example "
                "with mixture-of-experts models. Tandem measures every answer: the statistics strip shows "
                "tokens/s and how many drafted tokens were accepted, so you can see whether it pays."
            )
        )
        self.enable.setToolTip(self._declared_tip())
        self.lbl_found_drafter.setText(self.tr("Drafter"))
        self.lbl_draft_quant.setText(self.tr("Drafter Quantization"))
        self.draft_quant.setPlaceholderText(self.tr("Defaults to the first available"))
        self.draft_quant.setToolTip(
            self.tr(
                "The drafter is small, so quantizing it saves little memory but lowers how many of its "
                "tokens are accepted. An unquantized drafter is recommended even for a quantized model."
            )
        )
        self.lbl_depth.setText(self.tr("Speculative Tokens"))
        self.ngram_box.setTitle(self.tr("Model-free speculation"))
        self.ngram_box.setToolTip(
            self.tr(
                "Drafts from repeated text in the prompt and earlier answers, with no extra model. It helps "
                "most when answers repeat or edit earlier text, such as code."
            )
        )
        self.lbl_ngram_method.setText(self.tr("Method"))
        self.lbl_ngram_depth.setText(self.tr("Speculative Tokens"))
        self.run_box.setTitle(self.tr("Runtime and sampling"))
        self.lbl_ctx.setText(self.tr("Context length"))
        self.ctx.setSpecialValueText(self.tr("Automatic"))
        self.ctx.setToolTip(
            self.tr(
                "Automatic: the context the model was trained for, as far as the memory estimate "
                "allows (at least 4,096 tokens). Coding agents need 8,192 tokens or more."
            )
        )
        self.lbl_threads.setText(self.tr("Threads"))
        self.threads.setSpecialValueText(self.tr("Automatic"))
        self.lbl_temp.setText(self.tr("Temperature"))
        self.lbl_top_p.setText(self.tr("Top-p"))
        self.lbl_top_k.setText(self.tr("Top-k"))
        self.lbl_max.setText(self.tr("Max new tokens"))
        self.lbl_repeat.setText(self.tr("Repeat penalty"))
        start = self._start
        tips = (
            (
                self.temperature,
                self.lbl_temp,
                "temperature",
                self.tr("Higher gives more varied answers; 0 always picks the most likely token."),
                start.temperature,
            ),
            (
                self.top_p,
                self.lbl_top_p,
                "top_p",
                self.tr("Samples only from the most likely tokens that together reach this probability."),
                start.top_p,
            ),
            (
                self.top_k,
                self.lbl_top_k,
                "top_k",
                self.tr("Samples only from this many most likely tokens; 0 is off."),
                start.top_k,
            ),
            (
                self.repeat_penalty,
                self.lbl_repeat,
                "repeat_penalty",
                self.tr("Above 1 makes repeating recent text less likely; 1 is off."),
                start.repeat_penalty,
            ),
        )
        for box, label, name, what, value in tips:
            tip = self._origin_tip(name, what, value)
            box.setToolTip(tip)
            label.setToolTip(tip)
        max_tip = self.tr(
            "The longest answer, in tokens. Starts at {value}, Tandem's default (Settings)."
        ).format(value=start.max_tokens)
        self.max_tokens.setToolTip(max_tip)
        self.lbl_max.setToolTip(max_tip)
        self.launch_button.setText(self.tr("Launch"))
        self._update()
