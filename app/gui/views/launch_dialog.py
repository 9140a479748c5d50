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

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QWidget

from app.core.catalog import importer
from app.core.catalog.drafters import Candidate
from app.core.engines.base import SamplingError
from app.core.engines.capability import ENGINES, Support
from app.core.launch.form import (
    FormState,
    FormValues,
    LaunchForm,
    Note,
    NoteCode,
    QuantOption,
    SwitchLabel,
)
from app.core.launch.form import ordered_draft_quants as ordered_draft_quants  # re-exported (browser)
from app.core.launch.plan import LaunchChoice as LaunchChoice  # re-exported: the dialog returns one
from app.core.registry import AnySpec, Family, Registry
from app.core.settings import Settings
from app.core.units import human_bytes
from app.gui.cache_bridge import CacheBridge
from app.gui.models.registry_texts import status_icon
from app.gui.ops import Ops
from app.gui.views import launch_texts
from app.gui.views.launch_widgets import LaunchDialogWidgets
from app.gui.widgets import InlineMessage, KeepFitted


def find_drafters(cache: CacheBridge, family: Family, spec: AnySpec, quant: str) -> list[Candidate]:
    """The finder's candidates for the model's file (blocking: run it on a worker). The folders
    searched are the import dialog's: the file's own, those of registered local models, and
    Tandem's cache entries."""
    target = cache.resolve(family, spec, "target", quant)
    return importer.find_drafters(Path(target), Registry.load())


class LaunchDialog(LaunchDialogWidgets):
    """Signals: ``drafterSearchDone()`` when the compatible-drafter finder has answered (or
    failed); read :meth:`choice` after ``accepted``. The widgets are built by
    :class:`LaunchDialogWidgets`; this class binds them to the form model and says their texts."""

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
        chat_images: bool = False,
    ) -> None:
        """``chat_images``: the conversation this launch is for has pictures (the dialog says
        when this launch cannot read them)."""
        super().__init__(family, cache, settings, parent, ops)
        self.family = family
        self._chat_images = chat_images
        self._cache = cache
        self._settings = settings
        self._ops = ops
        # the finder's answers per (spec, quantization), its errors, and the one it runs for
        self._found: dict[tuple[int, str | None], tuple[Candidate, ...]] = {}
        self._find_errors: dict[tuple[int, str | None], str] = {}
        self._finding: tuple[int, str | None] | None = None
        self.form = LaunchForm(family, cache.status, support, settings.default_engine)
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
            self.enable.setToolTip(launch_texts.declared_tip())

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
            chat_images=self._chat_images,
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
        self._show(self.chat_images_note, st.chat_images_note)
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
        self.depth_field.edit.setPlaceholderText(launch_texts.placeholder(st.depth_default.value))
        self.depth_field.edit.setToolTip(launch_texts.depth_tip(engine, st.method, st.depth_default))

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
            self.ngram_depth.edit.setPlaceholderText(launch_texts.placeholder(st.model_free_default.value))
            self.ngram_depth.edit.setToolTip(launch_texts.depth_tip(engine, mf, st.model_free_default))
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
            widget.show_message(launch_texts.say(note), note.level)

    def _label_model_free_methods(self) -> None:
        """Names and tooltips of MLX's suffix decoding and prompt lookup."""
        names, tips = launch_texts.model_free_texts()
        for i in range(1, self.ngram_method.count()):
            method = self.ngram_method.itemData(i)
            if method in names:
                self.ngram_method.setItemText(i, names[method])
                self.ngram_method.setItemData(i, tips[method], Qt.ItemDataRole.ToolTipRole)
        self.ngram_method.setToolTip(tips.get(self.ngram_method.currentData(), ""))

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

    # --- result ---------------------------------------------------------------------------------
    def choice(self) -> LaunchChoice:
        """The launch the fields describe (see :meth:`LaunchForm.choice`; on the Remote server tab
        :meth:`LaunchForm.remote_choice`)."""
        if self.remote_mode:
            return self.form.remote_choice(self.remote.values(), self.values())
        if self.state.sampling_error is not None and self.state.sampling is None:
            # Launch is disabled then; a caller asking anyway gets the reason as shown
            raise SamplingError(launch_texts.say(self.state.sampling_error))
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
        self.enable.setToolTip(launch_texts.declared_tip())
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
