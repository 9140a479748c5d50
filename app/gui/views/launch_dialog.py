"""Launch dialog: engine, context, sampling, and the gated Speculative Decoding panel.

The dialog holds no rules and keeps no state in its widgets: what the user set is ONE
:class:`~app.core.launch.form_state.FormValues`. Every widget change replaces it (the speculation switches
through the form model's transitions), the Qt-free form model
(:class:`app.core.launch.form.LaunchForm`) evaluates it, and :meth:`LaunchDialog.render_state` sets
every widget from the result: the switches, Auto's panel, the sentence that says what a launch
without Auto runs, the notes (codes it translates here) and Launch. The launch itself is the
state's :attr:`~app.core.launch.form_state.FormState.request`, so what the dialog shows and what it
launches cannot differ. While it renders, the dialog ignores the signals its own changes emit.

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

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QWidget

from app.core.catalog import importer
from app.core.catalog.drafters import Candidate
from app.core.engines.base import SamplingError
from app.core.engines.capability import ENGINES, Support
from app.core.engines.threads import machine_layout, math_cores
from app.core.launch.form import LaunchForm
from app.core.launch.form_drafters import (
    ordered_draft_quants as ordered_draft_quants,  # re-exported (browser)
)
from app.core.launch.form_state import (
    FormState,
    FormValues,
    Note,
    NoteCode,
    QuantOption,
    SwitchLabel,
    set_auto,
    set_drafter,
    set_model_free,
)
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
        #: the one state of the form: every widget change replaces it, every widget shows it
        self._values = FormValues(spec=spec, chat_images=chat_images)
        self._rendering = False
        self.variant.currentIndexChanged.connect(self._on_variant_changed)
        self.mode.currentChanged.connect(self._on_mode_changed)
        self.remote.changed.connect(self.render_state)
        self.quant.currentIndexChanged.connect(lambda: self._edit(quant=self.quant.currentData()))
        self.engine.currentIndexChanged.connect(
            lambda: self._edit(engine=str(self.engine.currentData() or ""))
        )
        self.enable.toggled.connect(self._on_drafter_toggled)
        self.auto_panel.toggled.connect(self._on_auto_toggled)
        # a stored reason or a progress row arriving after opening changes the height: re-fit
        self.auto_panel.stateChanged.connect(lambda _state: self._refit())
        self.draft_quant.currentIndexChanged.connect(
            lambda: self._edit(draft_quant=self.draft_quant.currentData())
        )
        self.found_drafter.currentIndexChanged.connect(
            lambda: self._edit(found_drafter=self.found_drafter.currentData())
        )
        self.ngram_method.currentIndexChanged.connect(self._on_model_free_chosen)
        self.depth_field.edit.textChanged.connect(lambda text: self._edit(depth=text))
        self.ngram_depth.edit.textChanged.connect(lambda text: self._edit(model_free_depth=text))
        fields: dict[str, Any] = {
            "n_ctx": self.ctx,
            "threads": self.threads,
            "top_k": self.top_k,
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
            "top_p": self.top_p,
            "repeat_penalty": self.repeat_penalty,
        }
        for name, box in fields.items():
            box.valueChanged.connect(lambda value, name=name: self._edit(**{name: value}))
        self._values = replace(self._values, **{name: box.value() for name, box in fields.items()})

        # any later change of the contents (a note read in the background) re-fits the height
        self._fitter = KeepFitted(self)
        self.variant.setCurrentIndex(max(0, family.specs.index(spec)))
        self._fill_for_spec(spec, quantization)
        self.retranslate()

    # --- state -------------------------------------------------------------------------------
    @property
    def spec(self) -> AnySpec:
        return self._values.spec

    @property
    def engine_name(self) -> str:
        return self._values.engine

    @property
    def remote_mode(self) -> bool:
        """The Remote server tab is chosen."""
        return self.mode.currentIndex() == 1

    def _on_mode_changed(self) -> None:
        remote = self.remote_mode
        for box in (self.model_box, self.auto_box, self.spec_panel, self.ngram_box, self.found_note):
            box.setVisible(not remote)  # local mode: render_state shows the gated ones again
        self.remote.setVisible(remote)
        for field in (self.ctx, self.threads):  # the server's own settings there
            self._rform.setRowVisible(field, not remote)
        self.render_state()

    def is_panel_visible(self) -> bool:
        return not self.spec_panel.isHidden()

    # --- widget changes: each replaces the one state, then the view is rendered from it -------
    @contextmanager
    def _rendering_view(self) -> Iterator[None]:
        """Widgets set from the state emit their change signals; those are not the user's."""
        before, self._rendering = self._rendering, True
        try:
            yield
        finally:
            self._rendering = before

    def _edit(self, **changes: Any) -> None:
        """A widget changed a field of the state: replace it and render."""
        if self._rendering:
            return
        self._values = replace(self._values, **changes)
        self.render_state()

    def _change(self, values: FormValues) -> None:
        if self._rendering:
            return
        self._values = values
        self.render_state()

    def _on_auto_toggled(self, on: bool) -> None:
        """Auto on withdraws the manual choices it replaces (drafter switch, model-free method)."""
        self._change(set_auto(self._values, on))

    def _on_drafter_toggled(self, on: bool) -> None:
        """The drafter replaces Auto while it is on; off brings Auto back unless it was turned off."""
        self._change(set_drafter(self._values, on))

    def _on_model_free_chosen(self) -> None:
        self._change(set_model_free(self._values, self.ngram_method.currentData()))

    def done(self, result: int) -> None:
        self.auto_panel.shutdown()
        self.remote.shutdown()  # a running Verify stops with the dialog
        super().done(result)

    def _on_variant_changed(self) -> None:
        self._fill_for_spec(self.variant.currentData(), None)

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
        self._values = replace(
            self._values,
            spec=spec,
            quant=self.quant.currentData(),
            engine=str(self.engine.currentData() or ""),
            draft_quant=self.draft_quant.currentData(),
            found_drafter=None,
        )
        self.render_state()

    # --- the compatible-drafter finder -----------------------------------------
    def _search_key(self) -> tuple[int, str | None]:
        return (id(self._values.spec), self._values.quant)

    def _with_finder(self, v: FormValues) -> FormValues:
        """The finder's answer for the state's spec and quantization (it runs in the background)."""
        key = self._search_key()
        found, finding, error = self._found.get(key), self._finding == key, self._find_errors.get(key, "")
        if (v.found, v.finding, v.find_error) == (found, finding, error):
            return v
        return replace(v, found=found, finding=finding, find_error=error)

    def finding(self) -> bool:
        """The finder is running for the current spec and quantization."""
        return self._finding is not None and self._finding == self._search_key()

    def _maybe_find(self) -> None:
        """Start the finder for the current spec and quantization, once, when the rules want it."""
        spec, quant, key = self._values.spec, self._values.quant, self._search_key()
        if self._ops is None or self._finding is not None or key in self._found or key in self._find_errors:
            return
        if not self.form.wants_drafter_search(spec, quant, self._values.engine):
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
        self.render_state()
        self.drafterSearchDone.emit()

    def _on_find_failed(self, key: tuple[int, str | None], exc: BaseException) -> None:
        self._find_errors[key] = str(exc) or type(exc).__name__
        self._finding = None
        self.render_state()
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
        self.enable.setToolTip(
            launch_texts.drafter_tip(st.drafter_source, st.drafter_on_disk, st.drafter_quant)
        )

    def values(self) -> FormValues:
        """The form's one state: what the user has set (the widgets show it, never hold it)."""
        return self._values

    def render_state(self) -> None:
        """Evaluate the state and set every widget from it (local tab; the Remote tab's own)."""
        if self.remote_mode:
            self._update_remote()
            return
        self._maybe_find()
        self._values = self._with_finder(self._values)
        st = self.state = self.form.evaluate(self._values)
        with self._rendering_view():
            self._render_local(st)
        self._sync_message_rows()
        self._refit()

    def _render_local(self, st: FormState) -> None:
        v, engine = self._values, self._values.engine
        self._select(self.quant, v.quant)
        self._select(self.engine, engine)
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
        self.enable.setChecked(st.drafter_on)
        self._select(self.draft_quant, v.draft_quant)
        self._sform.setRowVisible(self.draft_quant, st.draft_quant_shown)
        self.draft_quant.setEnabled(st.draft_quant_enabled)
        self._set_text(self.depth_field.edit, v.depth)
        self.depth_field.setEnabled(st.depth_enabled)
        self.depth_field.show_error(st.depth_error)
        self._refresh_draft_quant_markers(st.draft_quants)
        self._show(self.download_note, st.download_note)
        self._show(self.moe_note, st.moe_note)
        self.depth_field.edit.setPlaceholderText(launch_texts.placeholder(st.depth_default.value))
        self.depth_field.edit.setToolTip(launch_texts.depth_tip(engine, st.method, st.depth_default))

        methods = list(st.model_free_methods)
        if [self.ngram_method.itemData(i) for i in range(1, self.ngram_method.count())] != methods:
            self.ngram_method.clear()
            self.ngram_method.addItem(self.tr("Off"), None)
            for m in methods:
                self.ngram_method.addItem(m, m)
        self.ngram_box.setVisible(bool(methods))
        if self.ngram_method.count():
            self.ngram_method.setItemText(0, self.tr("Off"))
            self._label_model_free_methods()
        self._select(self.ngram_method, st.model_free)
        self.ngram_method.setEnabled(st.model_free_enabled)
        self._set_text(self.ngram_depth.edit, v.model_free_depth)
        self.ngram_depth.setEnabled(st.model_free_depth_enabled)
        self.ngram_depth.show_error(st.model_free_depth_error)
        self._show(self.ngram_note, st.model_free_note)
        if st.model_free_default is not None and st.model_free:
            self.ngram_depth.edit.setPlaceholderText(launch_texts.placeholder(st.model_free_default.value))
            self.ngram_depth.edit.setToolTip(
                launch_texts.depth_tip(engine, st.model_free, st.model_free_default)
            )
        else:
            self.ngram_depth.edit.setPlaceholderText(self.tr("engine default"))

        self._bind_found(st)
        self._render_auto(st)
        self.fit.follow(self.family, v.spec, v.quant, v.n_ctx, st.target_note is None)
        self._update_threads(engine, st.threads_apply)
        self._sampling = st.sampling
        self._show(self.sampling_note, st.sampling_error)
        self.launch_button.setEnabled(st.launch_enabled)

    @staticmethod
    def _select(combo: Any, value: object) -> None:
        """Show ``value`` in ``combo`` (the first entry when it is not listed)."""
        idx = max(combo.findData(value), 0) if value is not None else max(combo.findData(None), 0)
        if combo.count() and combo.currentIndex() != idx:
            combo.setCurrentIndex(idx)

    @staticmethod
    def _set_text(edit: Any, text: str) -> None:
        if edit.text() != text:  # an unchanged text keeps the cursor where the user types
            edit.setText(text)

    def _render_auto(self, st: FormState) -> None:
        """Auto's switch and panel, and what a launch without Auto runs, from the state."""
        self.auto_box.setVisible(st.auto_available)
        self.auto_panel.switch.setChecked(st.auto_on)
        self._show(self.auto_note, st.auto_note)
        runs = st.request if st.auto_on and st.launch_enabled else None
        self.auto_panel.follow(runs, st.target_note is None, waiting=st.auto_on and runs is None)
        summary = ""
        if st.auto_available and not st.auto_on:
            names, _tips = launch_texts.model_free_texts()
            method = st.speculation.method
            summary = launch_texts.speculation_summary(st.speculation, names.get(method, method))
        self.speculation_summary.setText(summary)
        self.speculation_summary.setVisible(bool(summary))

    def _update_remote(self) -> None:
        st = self.remote_state = self.form.evaluate_remote(self.remote.values(), self._values)
        self.remote.bind(st, self.remote.say(st.url_note) if st.url_note is not None else "")
        self.remote.set_spec(self._values.spec, self._values.quant)
        self._show(self.sampling_note, st.sampling_error)
        self.launch_button.setEnabled(st.launch_enabled)
        self._refit()

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
        if uses:  # what Automatic starts here, and why (the field says the count)
            tip = self.tr("CPU threads the engine computes with.") + "\n\n" + self._threads_note()
        else:
            tip = self.tr(
                "{engine} computes on the GPU (Metal), so it does not use a CPU thread count; "
                "this field does not apply."
            ).format(engine=info.label if info is not None else engine)
        self.threads.setToolTip(tip)
        self.lbl_threads.setToolTip(tip)

    def _threads_note(self) -> str:
        """What Automatic chooses here and why, or that the typed count wins."""
        layout = machine_layout()
        n_math = math_cores(layout)
        if self.threads.value():
            return self.tr(
                "{n} threads, as typed. Automatic would start with {auto}: the cores that do math "
                "on this computer."
            ).format(n=self.threads.value(), auto=n_math)
        if layout.hybrid:
            first = self.tr(
                "Automatic: {n} threads, one per performance core ({n} of {cpus} CPUs), as llama.cpp "
                "counts them."
            )
        elif (layout.physical or layout.logical) < layout.logical:
            first = self.tr(
                "Automatic: {n} threads, one per physical core ({cpus} CPUs with hyper-threading), as "
                "llama.cpp counts them."
            )
        else:
            first = self.tr("Automatic: {n} threads, one per core, as llama.cpp counts them.")
        then = self.tr(
            "Fewer when other programs keep cores busy or another model computes at the same time: "
            "each model starts with the cores that are free then, and an idle model follows them."
        )
        return first.format(n=n_math, cpus=layout.logical) + " " + then

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
            return self.form.remote_choice(self.remote.values(), self._values)
        if self.state.sampling_error is not None and self.state.sampling is None:
            # Launch is disabled then; a caller asking anyway gets the reason as shown
            raise SamplingError(launch_texts.say(self.state.sampling_error))
        if self.state.request is None:
            return self.form.choice(self._values)  # raises the reason there is no launch
        return self.state.request  # what the dialog shows is what it launches

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
        automatic = math_cores(machine_layout())
        self.threads.setSpecialValueText(self.tr("Automatic: {n} threads").format(n=automatic))
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
        self.render_state()
