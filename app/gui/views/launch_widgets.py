"""The launch dialog's widgets and their layout, without rules or texts.

:class:`LaunchDialogWidgets` builds the boxes the dialog shows (model and engine, Auto, the
speculative decoding panel, model-free speculation, the Remote server tab, runtime and sampling)
and keeps the dialog's height fitted to what is shown. :class:`app.gui.views.launch_dialog.LaunchDialog`
binds them to the form model's rules and says their texts.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QSpinBox,
    QTabBar,
    QVBoxLayout,
    QWidget,
)

from app.core import limits
from app.core.engines.base import Sampling
from app.core.launch.form_state import RemoteState
from app.core.registry import Family
from app.core.settings import Settings, starting_sampling
from app.gui.cache_bridge import CacheBridge
from app.gui.models.registry_texts import size_text
from app.gui.ops import Ops
from app.gui.views.auto_panel import AutoPanel
from app.gui.views.depth_field import DepthField
from app.gui.views.fit_row import FitLabel
from app.gui.views.remote_tab import RemoteTab
from app.gui.widgets import (
    InlineMessage,
    ScrollBody,
    ToggleSwitch,
    bind_range,
    field_with_note,
    fit_dialog_height,
    height_for_width_hint,
)


class LaunchDialogWidgets(QDialog):
    """The dialog's widgets, built in one step per box."""

    def __init__(
        self,
        family: Family,
        cache: CacheBridge,
        settings: Settings,
        parent: QWidget | None = None,
        ops: Ops | None = None,
    ) -> None:
        super().__init__(parent)
        root, body = self._build_frame()
        self._build_model(body, family, cache, ops)
        self._build_speculation(body, cache, ops)
        self._build_remote(body, family, ops)
        self._build_runtime(body, family, settings)
        self._build_buttons(root)

    def _build_frame(self) -> tuple[QVBoxLayout, QVBoxLayout]:
        """The title, the tabs (this computer, a remote server) and the scrolling body."""
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
        return root, body

    def _build_model(self, body: QVBoxLayout, family: Family, cache: CacheBridge, ops: Ops | None) -> None:
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
        #: the conversation that launches has pictures this launch cannot read
        self.chat_images_note = InlineMessage()
        self.chat_images_note.setObjectName("chatImagesNote")
        self.lbl_variant, self.lbl_quant, self.lbl_engine = QLabel(), QLabel(), QLabel()
        form.addRow(self.lbl_variant, self.variant)
        form.addRow(self.lbl_quant, field_with_note(self.quant, self.target_note))
        engine_notes = QWidget()
        notes = QVBoxLayout(engine_notes)
        notes.setContentsMargins(0, 0, 0, 0)
        notes.setSpacing(4)
        notes.addWidget(self.engine_note)
        notes.addWidget(self.vision_note)
        notes.addWidget(self.chat_images_note)
        form.addRow(self.lbl_engine, field_with_note(self.engine, engine_notes))
        self.fit = FitLabel(cache, ops)
        self.lbl_fit = QLabel()
        form.addRow(self.lbl_fit, self.fit)
        body.addWidget(self.model_box)

    def _build_speculation(self, body: QVBoxLayout, cache: CacheBridge, ops: Ops | None) -> None:
        # -- Auto: the default speculation -------------------------------------------
        self.auto_box = QGroupBox()
        self.auto_box.setObjectName("autoSpeculation")
        alay = QVBoxLayout(self.auto_box)
        self.auto_panel = AutoPanel(cache, ops)
        self.auto_note = InlineMessage()
        #: what a launch without Auto runs (off, the drafter, a model-free method)
        self.speculation_summary = QLabel()
        self.speculation_summary.setObjectName("speculationSummary")
        self.speculation_summary.setWordWrap(True)
        self.speculation_summary.hide()
        alay.addWidget(self.auto_panel)
        alay.addWidget(self.speculation_summary)
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

    def _build_remote(self, body: QVBoxLayout, family: Family, ops: Ops | None) -> None:
        # -- remote server -----------------------------------------------------------------
        self.remote = RemoteTab(family, ops)
        self.remote.hide()
        self.remote_state: RemoteState | None = None
        body.addWidget(self.remote)

    def _build_runtime(self, body: QVBoxLayout, family: Family, settings: Settings) -> None:
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

    def _build_buttons(self, root: QVBoxLayout) -> None:
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.launch_button = self.buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole)
        self.launch_button.setObjectName("primary")
        self.launch_button.setDefault(True)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        root.addWidget(self.buttons)

    # --- height --------------------------------------------------------------------------------
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
