"""Launch dialog: engine, context, sampling, and the gated Speculative Decoding panel.

The panel rule (issue 4, shared registry facts): the Speculative Decoding section is shown only if
the spec declares a drafter AND the chosen engine can run one (``capability.drafter_support``).
Switching engine or variant re-applies the rule live. Model-free methods (n-gram) are a separate
box, offered for any model on engines that have them.

Sampling starts from the family's recommended values (its model card, ``Family.sampling``), else
Tandem's defaults from the settings; each field's tooltip says which. The values become the chat's
sampling once the model is loaded. A combination the engine cannot run is shown inline and keeps
Launch disabled, so :meth:`LaunchDialog.choice` never meets an invalid :class:`Sampling`.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QSize, Qt, QTimer, Signal
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
    QVBoxLayout,
    QWidget,
)

from app.core.engines import capability
from app.core.engines.base import Sampling, SamplingError
from app.core.engines.capability import ENGINES, Support, engines_for_spec, model_free_methods
from app.core.launch import LaunchChoice as LaunchChoice  # re-exported: the dialog returns one
from app.core.registry import AnySpec, Family
from app.core.settings import Settings, starting_sampling
from app.core.speculative import (
    DefaultDepth,
    SpeculationError,
    SpeculationOptions,
    default_tokens,
    parse_num_speculative_tokens,
)
from app.gui.cache_bridge import CacheBridge
from app.gui.models.registry_model import size_text, status_icon
from app.gui.widgets import (
    InlineMessage,
    ToggleSwitch,
    field_with_note,
    fit_dialog_height,
    height_for_width_hint,
)

_UNQUANTIZED = ("F32", "BF16", "F16", "FP16", "bf16", "fp16", "f16", "f32")


def ordered_draft_quants(quants: list[str]) -> list[str]:
    """Unquantized drafters first (recommended), then the registry's order."""
    return sorted(quants, key=lambda q: (q not in _UNQUANTIZED, quants.index(q)))


def panel_visible(
    family: Family, spec: AnySpec, engine: str, support: Callable[..., Support] | None = None
) -> bool:
    """The gate: the spec declares a drafter AND the engine can run one."""
    return spec.declares_drafter() and (support or capability.drafter_support)(family, spec, engine).ok


class DepthField(QWidget):
    """Tokens-per-round line edit validated by the core parser, with its error inline."""

    validityChanged = Signal(bool)

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
        self.value: int | None = None
        self.edit.textChanged.connect(self._on_text_changed)

    def _on_text_changed(self, text: str) -> None:
        try:
            self.value = parse_num_speculative_tokens(text)
            ok = True
        except SpeculationError as exc:
            self.value = None
            ok = False
            self.error.setToolTip(str(exc))
            self.error.show_message(
                self.tr("Enter a whole number greater than zero, or leave it empty."), "error"
            )
        if ok:
            self.error.clear_message()
        self.edit.setProperty("invalid", not ok)
        self.edit.style().unpolish(self.edit)
        self.edit.style().polish(self.edit)
        if ok != self.valid:
            self.valid = ok
            self.validityChanged.emit(ok)


class LaunchDialog(QDialog):
    """Signals: none beyond QDialog's; read :meth:`choice` after ``accepted``."""

    def __init__(
        self,
        family: Family,
        spec: AnySpec,
        quantization: str,
        cache: CacheBridge,
        settings: Settings,
        parent: QWidget | None = None,
        support: Callable[..., Support] | None = None,
    ) -> None:
        super().__init__(parent)
        self.family = family
        self._cache = cache
        self._settings = settings
        self._support = support or capability.drafter_support
        self.setObjectName("launchDialog")
        self.setMinimumWidth(560)

        root = QVBoxLayout(self)
        root.setContentsMargins(18, 16, 18, 14)
        root.setSpacing(10)
        self.title = QLabel()
        self.title.setObjectName("pageTitle")
        root.addWidget(self.title)
        root.addSpacing(2)

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
        self.lbl_variant, self.lbl_quant, self.lbl_engine = QLabel(), QLabel(), QLabel()
        form.addRow(self.lbl_variant, self.variant)
        form.addRow(self.lbl_quant, field_with_note(self.quant, self.target_note))
        form.addRow(self.lbl_engine, field_with_note(self.engine, self.engine_note))
        root.addWidget(self.model_box)

        # -- speculative decoding (gated) -------------------------------------------------------
        self.spec_panel = QGroupBox()
        self.spec_panel.setObjectName("speculative")
        self._sform = sform = QFormLayout(self.spec_panel)
        sform.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.enable = ToggleSwitch()
        self.draft_quant = QComboBox()
        self.depth_field = DepthField()
        self.download_note = InlineMessage()
        self.moe_note = InlineMessage()
        self.lbl_draft_quant, self.lbl_depth = QLabel(), QLabel()
        sform.addRow(self.enable)
        sform.addRow(self.lbl_draft_quant, self.draft_quant)
        sform.addRow(self.lbl_depth, self.depth_field)
        sform.addRow(self.download_note)
        sform.addRow(self.moe_note)
        root.addWidget(self.spec_panel)

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
        root.addWidget(self.ngram_box)

        # -- runtime and sampling -------------------------------------------------------------------
        self.run_box = QGroupBox()
        rform = QFormLayout(self.run_box)
        self.ctx = QSpinBox()
        self.ctx.setRange(256, max(256, family.context_length))
        self.ctx.setSingleStep(256)
        self.ctx.setValue(min(settings.context_length, family.context_length))
        self.threads = QSpinBox()
        self.threads.setRange(0, 256)
        self.threads.setValue(settings.threads or 0)
        # The spin boxes' ranges are Sampling's own (engines.base), so a typed value is never out
        # of range; the cross-field rule (answer vs context) is checked in _check_sampling.
        start, self._from_card = starting_sampling(settings.sampling, family.sampling)
        self.temperature = QDoubleSpinBox()
        self.temperature.setRange(0.0, 5.0)
        self.temperature.setSingleStep(0.1)
        self.temperature.setValue(start.temperature)
        self.top_p = QDoubleSpinBox()
        self.top_p.setRange(0.01, 1.0)
        self.top_p.setSingleStep(0.05)
        self.top_p.setValue(start.top_p)
        self.top_k = QSpinBox()
        self.top_k.setRange(0, 100_000)
        self.top_k.setValue(start.top_k)
        self.repeat_penalty = QDoubleSpinBox()
        self.repeat_penalty.setRange(0.01, 5.0)
        self.repeat_penalty.setSingleStep(0.05)
        self.repeat_penalty.setValue(start.repeat_penalty)
        self.max_tokens = QSpinBox()
        self.max_tokens.setRange(1, 131072)
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
        root.addWidget(self.run_box)
        self._sampling: Sampling | None = None
        self._base_ok = False

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.launch_button = self.buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole)
        self.launch_button.setObjectName("primary")
        self.launch_button.setDefault(True)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        root.addWidget(self.buttons)

        self.variant.currentIndexChanged.connect(self._on_variant_changed)
        self.quant.currentIndexChanged.connect(self._update)
        self.engine.currentIndexChanged.connect(self._update)
        self.enable.toggled.connect(self._update)
        self.draft_quant.currentIndexChanged.connect(self._update)
        self.ngram_method.currentIndexChanged.connect(self._update)
        self.depth_field.validityChanged.connect(self._update)
        self.ngram_depth.validityChanged.connect(self._update)
        for box in (self.ctx, self.top_k, self.max_tokens):
            box.valueChanged.connect(self._check_sampling)
        for dbox in (self.temperature, self.top_p, self.repeat_penalty):
            dbox.valueChanged.connect(self._check_sampling)

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

    def is_panel_visible(self) -> bool:
        return not self.spec_panel.isHidden()

    def _on_variant_changed(self) -> None:
        self._fill_for_spec(self.spec, None)

    def _fill_for_spec(self, spec: AnySpec, quantization: str | None) -> None:
        blockers = [
            self.quant.blockSignals(True),
            self.engine.blockSignals(True),
            self.draft_quant.blockSignals(True),
        ]
        self.quant.clear()
        for q in spec.quantizations:
            status = self._cache.status(self.family, spec, "target", q)
            self.quant.addItem(status_icon(status), q, q)
        if quantization in spec.quantizations:
            self.quant.setCurrentIndex(spec.quantizations.index(quantization))
        engines = QStandardItemModel(self.engine)
        preferred = -1
        for i, name in enumerate(engines_for_spec(spec)):
            item = QStandardItem(ENGINES[name].label)
            item.setData(name, Qt.ItemDataRole.UserRole)
            avail = capability.engine_availability(name)
            if not avail.ok:
                item.setToolTip(avail.reason)
            if preferred < 0 or name == self._settings.default_engine:
                preferred = i
            engines.appendRow(item)
        self.engine.setModel(engines)
        self.engine.setCurrentIndex(max(preferred, 0))
        self.draft_quant.clear()
        for dq in ordered_draft_quants(spec.draft_quantizations()):
            self.draft_quant.addItem(dq, dq)
        if spec.declares_drafter() and not spec.draft_quantizations():
            self.draft_quant.addItem("", None)
        for w, b in zip((self.quant, self.engine, self.draft_quant), blockers, strict=True):
            w.blockSignals(b)
        self._update()

    def _update(self) -> None:
        spec, engine = self.spec, self.engine_name
        quant = self.quant.currentData()
        avail = capability.engine_availability(engine) if engine else None
        if avail is not None and not avail.ok:
            self.engine_note.show_message(
                self.tr("This engine is not available here: {reason}").format(reason=avail.reason), "warn"
            )
        else:
            self.engine_note.clear_message()
        target_status = self._cache.status(self.family, spec, "target", quant)
        if target_status != "cached":
            self.target_note.show_message(
                self.tr("{quant} is not downloaded yet; launching queues its download first.").format(
                    quant=quant
                ),
                "info",
            )
        else:
            self.target_note.clear_message()

        # The gate, applied live.
        visible = panel_visible(self.family, spec, engine, self._support) if engine else False
        self.spec_panel.setVisible(visible)
        support = self._support(self.family, spec, engine) if visible else None
        method = (support.method if support else None) or "draft"
        self._method = method
        self.enable.setText(self.tr("Enable MTP") if method == "mtp" else self.tr("Use the drafter model"))
        drafter_on = visible and self.enable.isChecked()
        # Like the web UI (registry facts, web_ui.fields): the drafter's quantization is asked only
        # once the switch is on. Tokens per round stays in view (disabled while off) so the
        # engine's default depth can be read before deciding.
        self._sform.setRowVisible(self.draft_quant, drafter_on)
        self.draft_quant.setEnabled(drafter_on and self.draft_quant.count() > 1)
        self.depth_field.setEnabled(drafter_on)
        self._refresh_draft_quant_markers(spec, quant)
        dq = self.draft_quant.currentData()
        if drafter_on and self._cache.status(self.family, spec, "drafter", dq) != "cached":
            self.download_note.show_message(
                self.tr(
                    "The drafter ({quant}) is not downloaded yet. Launching queues its download, "
                    "then loads the model with it."
                ).format(quant=dq or self.tr("default")),
                "info",
            )
        else:
            self.download_note.clear_message()
        if visible and spec.activated_size_in_billions:
            self.moe_note.show_message(
                self.tr(
                    "This is a mixture-of-experts model: it computes only part of itself per token, so a "
                    "drafter may cost more than it saves. Compare the tokens/s in the statistics strip "
                    "with speculation on and off."
                ),
                "warn",
            )
        else:
            self.moe_note.clear_message()
        depth_default = default_tokens(engine, self.family.name, spec.size_in_billions, method)
        self.depth_field.edit.setPlaceholderText(self._placeholder(depth_default.value))
        self.depth_field.edit.setToolTip(self._depth_tip(engine, method, depth_default))

        methods = model_free_methods(engine) if engine and (avail is None or avail.ok) else []
        self.ngram_box.setVisible(bool(methods))
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
        if self.ngram_method.count():
            self.ngram_method.setItemText(0, self.tr("Off"))
        ngram = self.ngram_method.currentData()
        self.ngram_method.setEnabled(not drafter_on)
        self.ngram_depth.setEnabled(bool(ngram) and not drafter_on)
        if drafter_on:
            self.ngram_note.show_message(self.tr("Turn the drafter off to use a model-free method."), "info")
        else:
            self.ngram_note.clear_message()
        if ngram:
            d = default_tokens(engine, self.family.name, spec.size_in_billions, ngram)
            self.ngram_depth.edit.setPlaceholderText(self._placeholder(d.value))
            self.ngram_depth.edit.setToolTip(self._depth_tip(engine, ngram, d))
        else:
            self.ngram_depth.edit.setPlaceholderText(self.tr("engine default"))

        self._update_threads(engine)
        self._sync_message_rows()
        self._refit()
        ok = (avail is None or avail.ok) and bool(engine)
        if drafter_on and not self.depth_field.valid:
            ok = False
        if ngram and not drafter_on and not self.ngram_depth.valid:
            ok = False
        self._base_ok = ok
        self._check_sampling()

    def _update_threads(self, engine: str) -> None:
        """An engine that ignores a thread count (MLX: GPU through Metal) gets the field disabled,
        with the reason in its tooltip, and the choice carries no thread count."""
        info = ENGINES.get(engine)
        uses = info.uses_thread_count if info is not None else True
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

    def _read_sampling(self) -> tuple[Sampling | None, str]:
        """The sampling the fields describe, or None and the reason shown under the fields."""
        max_tokens, ctx = self.max_tokens.value(), self.ctx.value()
        if max_tokens >= ctx:
            return None, self.tr(
                "Max new tokens ({max}) must be less than the context length ({ctx}): the "
                "conversation needs room in the context too."
            ).format(max=max_tokens, ctx=ctx)
        try:
            sampling = Sampling(
                temperature=self.temperature.value(),
                top_p=self.top_p.value(),
                top_k=self.top_k.value(),
                max_tokens=max_tokens,
                repeat_penalty=self.repeat_penalty.value(),
            )
        except SamplingError as exc:  # the ranges above prevent it; never let it escape
            return None, str(exc)
        return sampling, ""

    def _check_sampling(self) -> None:
        sampling, problem = self._read_sampling()
        self._sampling = sampling
        if problem:
            self.sampling_note.show_message(problem, "error")
        else:
            self.sampling_note.clear_message()
        self.launch_button.setEnabled(self._base_ok and sampling is not None)

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

    def _refresh_draft_quant_markers(self, spec: AnySpec, quant: str | None) -> None:
        for i in range(self.draft_quant.count()):
            dq = self.draft_quant.itemData(i)
            status = self._cache.status(self.family, spec, "drafter", dq)
            label = dq or self.tr("default")
            if status == "cached":
                label = self.tr("{quant} (cached)").format(quant=label)
            elif status == "partial":
                label = self.tr("{quant} (partial)").format(quant=label)
            self.draft_quant.setItemText(i, label)
            self.draft_quant.setItemIcon(i, status_icon(status))

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
        return self.tr("llama.cpp's own default")

    # --- result ---------------------------------------------------------------------------------
    def choice(self) -> LaunchChoice:
        spec, quant, engine = self.spec, str(self.quant.currentData()), self.engine_name
        downloads: list[tuple[str, str | None]] = []
        if self._cache.status(self.family, spec, "target", quant) != "cached":
            downloads.append(("target", quant))
        drafter_on = self.is_panel_visible() and self.enable.isChecked()
        ngram = self.ngram_method.currentData() if not drafter_on else None
        if drafter_on:
            dq = self.draft_quant.currentData()
            options = SpeculationOptions.build(
                enabled=True,
                method=self._method,
                draft_quantization=dq,
                num_speculative_tokens=self.depth_field.edit.text(),
            )
            if self._cache.status(self.family, spec, "drafter", dq) != "cached":
                downloads.append(("drafter", dq))
        elif ngram:
            options = SpeculationOptions.build(
                enabled=True, method=ngram, num_speculative_tokens=self.ngram_depth.edit.text()
            )
        else:
            options = SpeculationOptions()
        sampling, problem = self._read_sampling()
        if sampling is None:  # Launch is disabled then; a caller asking anyway gets the reason
            raise SamplingError(problem)
        info = ENGINES.get(engine)
        threads = self.threads.value() or None
        if info is not None and not info.uses_thread_count:
            threads = None
        return LaunchChoice(
            self.family,
            spec,
            quant,
            engine,
            options,
            self.ctx.value(),
            threads,
            sampling,
            downloads,
        )

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
    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Launch {name}").format(name=self.family.name))
        self.title.setText(self.tr("Launch {name}").format(name=self.family.name))
        self.model_box.setTitle(self.tr("Model"))
        self.lbl_variant.setText(self.tr("Variant"))
        self.lbl_quant.setText(self.tr("Quantization"))
        self.lbl_engine.setText(self.tr("Engine"))
        self.engine.setToolTip(self.tr("Only engines that can run this model's format are listed."))
        self.spec_panel.setTitle(self.tr("Speculative Decoding"))
        self.spec_panel.setToolTip(
            self.tr(
                "Speculation can be slower when the drafter is expensive relative to the model, for example "
                "with mixture-of-experts models. Tandem measures every answer: the statistics strip shows "
                "tokens/s and how many drafted tokens were accepted, so you can see whether it pays."
            )
        )
        self.enable.setToolTip(
            self.tr(
                "Runs a small drafter beside the model. The drafter proposes several tokens per round and "
                "the model verifies them in one pass: the answer is identical, decoding is faster. Turning "
                "this on downloads an extra drafter checkpoint."
            )
        )
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
