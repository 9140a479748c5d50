"""The window's status bar: what is loaded and what runs, the Local server switch, Eject and the
process's memory (:class:`WindowStatus`).

* The labels name the model, its engine (the tooltip: its llama.cpp processes' CPU threads and
  why), the speculation the shown conversation's answers run, and the configurations the model's
  engine pool runs beside the loaded one.
* The labels share the room left beside the switch and the memory: each takes the width of its
  text while there is room, and when there is not, the least important shortens first, after a
  whole word, with "…" (its tooltip then says it whole); the switch, Eject and the memory keep
  their widths.
* Eject shows while a model is loaded and waits for a load under way to end: an Eject then would
  race it.
* The memory, the threads and the pool are read again every two seconds: an idle model's threads
  follow the free cores, the pool stops idle configurations.
* "Models" lists the loaded models (the current one, and those kept loaded since), their memory
  against what loaded models may take, each with its Unload; a model that answers is unloaded
  when asked again after its answers end.

Its texts are the window's (translation context ``MainWindow``).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, QTimer
from PySide6.QtWidgets import QLabel, QMenu, QSizePolicy, QStatusBar, QToolButton, QWidget

from app.core.engines.threads import ThreadChoice
from app.core.speculative.per_request import Speculation
from app.core.units import human_bytes
from app.gui.controllers.auto_tuner import AutoTuner
from app.gui.controllers.server import ServerController
from app.gui.engine import EngineHost, ModelInfo
from app.gui.sysinfo import rss_bytes
from app.gui.views.server_panel import ServerSwitch
from app.gui.views.stats import configuration_text
from app.gui.widgets import ElidedLabel, PriorityRow

#: how often the memory, the threads and the pool are read again (ms)
REFRESH_MS = 2000


class WindowStatus(QObject):
    """Builds the status bar's widgets into ``bar`` and keeps them true. ``choice`` is the shown
    conversation's speculation choice, ``tuner`` what Auto runs and measures, ``load_bar`` the
    chat's load bar (shown while a load runs)."""

    def __init__(
        self,
        bar: QStatusBar,
        engine: EngineHost,
        server: ServerController,
        choice: Callable[[], Speculation],
        tuner: AutoTuner,
        load_bar: QWidget,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._engine = engine
        self._choice = choice
        self._tuner = tuner
        self._load_bar = load_bar
        self.model_label = ElidedLabel(words=True, stretchy=True)
        self.model_label.setObjectName("statusModel")
        self.engine_label = ElidedLabel(words=True, stretchy=True)
        self.engine_label.setObjectName("statusEngine")
        self.spec_label = ElidedLabel(words=True, stretchy=True)
        self.spec_label.setObjectName("statusSpeculation")
        #: the loaded model's engine pool: the configurations running now
        self.pool_label = ElidedLabel(words=True, stretchy=True)
        self.pool_label.setObjectName("statusPool")
        self.memory_label = QLabel()
        self.memory_label.setObjectName("statusMemory")
        self.eject_btn = QToolButton()
        self.eject_btn.setObjectName("ejectButton")
        self.eject_btn.setAutoRaise(True)
        #: the loaded models, their memory and an Unload each (a menu)
        self.models_btn = QToolButton()
        self.models_btn.setObjectName("loadedModels")
        self.models_btn.setAutoRaise(True)
        self.models_btn.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.models_menu = QMenu(self.models_btn)
        self.models_menu.setToolTipsVisible(True)
        self.models_menu.aboutToShow.connect(self._fill_models_menu)
        self.models_btn.setMenu(self.models_menu)
        labels = QWidget()
        labels.setObjectName("statusLabels")
        row = PriorityRow(labels, spacing=0)
        # short of room, what else runs gives way first, then the model's name (the chat's header
        # names it too), the speculation in use last
        for label, importance in (
            (self.model_label, 1),
            (self.engine_label, 2),
            (self.spec_label, 3),
            (self.pool_label, 0),
        ):
            row.add(label, importance)
        bar.addWidget(labels, 1)
        # the local API server: serves the loaded model; views/server_panel.py
        self.server_switch = ServerSwitch(server)
        for fixed in (self.server_switch, self.models_btn, self.eject_btn, self.memory_label):
            fixed.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)
            bar.addPermanentWidget(fixed)
        self._timer = QTimer(self)
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self.update_memory)
        self._timer.start()
        engine.modelsChanged.connect(self.update_models)
        self.update_models()

    def stop(self) -> None:
        self._timer.stop()

    def retranslate(self) -> None:
        self.eject_btn.setText(QCoreApplication.translate("MainWindow", "Eject"))
        self.eject_btn.setToolTip(
            QCoreApplication.translate("MainWindow", "Unload the model and free the memory it holds")
        )

    def update(self) -> None:
        """What is loaded, what the shown conversation runs, and Eject."""
        info = self._engine.info
        if info:
            self.model_label.setText(
                QCoreApplication.translate("MainWindow", "Model: {name}").format(name=info.label)
            )
            self.engine_label.setText(
                QCoreApplication.translate("MainWindow", "Engine: {name}").format(name=info.engine)
            )
            self.engine_label.setToolTip(self._threads_status())
            text, tip = self._speculation_status(info)
            self.spec_label.setText(text)
            self.spec_label.setToolTip(tip)
        else:
            self.model_label.setText(QCoreApplication.translate("MainWindow", "No model loaded"))
            self.engine_label.setText("")
            self.engine_label.setToolTip("")
            self.spec_label.setText("")
            self.spec_label.setToolTip("")
        for label in (self.engine_label, self.spec_label):
            label.setVisible(bool(label.text()))  # an empty label would still take a gap
        # Eject while a load runs would race it: the button waits for the load to end.
        self.eject_btn.setVisible(bool(info))
        self.eject_btn.setEnabled(bool(info) and self._load_bar.isHidden())
        self.update_pool()

    def _threads_status(self) -> str:
        """How many CPU threads each llama.cpp process of the loaded model computes with, and why
        (they follow the cores that are free: :mod:`app.core.engines.threads`); "" for other engines."""
        engine = self._engine.current_engine
        choice = getattr(engine, "thread_choice", None)
        if not isinstance(choice, ThreadChoice):
            return ""
        pool = self._engine.pool
        counts = pool.threads_of() if pool is not None else {}
        if not counts:
            counts = {"": int(getattr(engine, "n_threads", choice.threads))}
        why = {
            "explicit": QCoreApplication.translate("MainWindow", "as set in the launch dialog"),
            "all-free": QCoreApplication.translate(
                "MainWindow", "one per core that does math ({n}), all free"
            ),
            "busy": QCoreApplication.translate(
                "MainWindow", "other programs keep {busy} of the {n} cores that do math busy"
            ),
            "shared": QCoreApplication.translate(
                "MainWindow", "other models hold {shared} of the {n} cores that do math"
            ),
            "fallback": QCoreApplication.translate(
                "MainWindow", "every core that does math is taken, so the fewest"
            ),
            "calibrated": QCoreApplication.translate(
                "MainWindow", "Auto's measurement found that more threads do not pay here"
            ),
        }.get(choice.reason, "")
        lines = [QCoreApplication.translate("MainWindow", "CPU threads of the model's llama.cpp processes:")]
        for label, n in counts.items():
            name = (
                configuration_text(label) if label else QCoreApplication.translate("MainWindow", "the model")
            )
            lines.append(
                QCoreApplication.translate("MainWindow", "{configuration}: {n} threads").format(
                    configuration=name, n=n
                )
            )
        lines.append(why.format(n=choice.math_cores, busy=choice.busy, shared=choice.shared))
        lines.append(
            QCoreApplication.translate(
                "MainWindow",
                "A model at rest follows the free cores; a thread count set in the launch dialog wins.",
            )
        )
        return "\n".join(lines)

    def _speculation_status(self, info: ModelInfo) -> tuple[str, str]:
        """(text, tooltip) of what the shown conversation's answers run: its own choice when it
        chose Off or a method beside its title, else what the model was loaded with (with Auto:
        what Auto runs, and whether it still measures)."""
        choice = self._choice()
        if not choice.is_auto:
            tip = QCoreApplication.translate(
                "MainWindow",
                "This conversation's choice, beside its title; the model was loaded with {launch}",
            ).format(
                launch=configuration_text(info.speculation)
                if info.speculation
                else QCoreApplication.translate("MainWindow", "no speculation")
            )
            if choice.is_off:
                return QCoreApplication.translate("MainWindow", "Speculation: off"), tip
            return QCoreApplication.translate("MainWindow", "Speculation: {mode}").format(
                mode=configuration_text(choice.name)
            ), tip
        spec = info.speculation
        tuner = self._tuner
        if info.auto is not None and tuner.pick is not None:
            spec = tuner.text()
        tip = tuner.tooltip() if info.auto is not None else ""
        if not spec:
            return QCoreApplication.translate("MainWindow", "Speculation: off"), tip
        return QCoreApplication.translate("MainWindow", "Speculation: {mode}").format(
            mode=configuration_text(spec)
        ), tip

    def update_memory(self) -> None:
        """The process's memory; the engine's threads and the pool read again."""
        rss = rss_bytes()
        self.memory_label.setText(
            QCoreApplication.translate("MainWindow", "Memory: {value}").format(value=human_bytes(rss))
            if rss
            else ""
        )
        if self._engine.info:  # an idle model's threads follow the free cores
            self.engine_label.setToolTip(self._threads_status())
        self.update_pool()

    def update_models(self) -> None:
        """ "Models: N" with their memory against the budget; hidden until two are loaded (the
        model label names one)."""
        loaded = self._engine.loaded_models()
        memory = sum(e.memory_bytes for e in loaded)
        self.models_btn.setText(
            QCoreApplication.translate("MainWindow", "Models: {n} ({memory})").format(
                n=len(loaded), memory=human_bytes(memory)
            )
        )
        self.models_btn.setToolTip(
            QCoreApplication.translate(
                "MainWindow",
                "Loaded models: {memory} of the {budget} they may take together. A model used "
                "before stays loaded while it fits; the least recently used one goes first.",
            ).format(memory=human_bytes(memory), budget=human_bytes(self._engine.budget()))
        )
        # shown while another model than the one answering is loaded (also during a load)
        self.models_btn.setVisible(len(loaded) > 1 or any(not e.current for e in loaded))

    def _fill_models_menu(self) -> None:
        self.models_menu.clear()
        for entry in self._engine.loaded_models():
            text = QCoreApplication.translate("MainWindow", "Unload {model} ({memory})").format(
                model=entry.label, memory=human_bytes(entry.memory_bytes)
            )
            if entry.current:
                text += " " + QCoreApplication.translate("MainWindow", "(answers now)")
            action = self.models_menu.addAction(text)
            action.setEnabled(not entry.answering)
            if entry.answering:
                action.setToolTip(
                    QCoreApplication.translate("MainWindow", "It is answering; unload it after.")
                )
            label = entry.label
            action.triggered.connect(lambda _checked=False, label=label: self._engine.unload_model(label))

    def update_pool(self) -> None:
        """The configurations of the loaded model's pool running now (chat answers and API clients
        share them), what the ones started beside the loaded one cost, and what each served."""
        pool = self._engine.pool
        status = pool.status() if pool is not None else None
        # what the launch runs is named by the speculation label beside: only the others here
        others = [c for c in status.children if not c.base] if status is not None else []
        if status is None or not others:
            self.pool_label.setText("")
            self.pool_label.setToolTip("")
            self.pool_label.setVisible(False)
            return
        text = QCoreApplication.translate("MainWindow", "Also running: {configurations} (+{memory})").format(
            configurations=", ".join(configuration_text(c.label) for c in others),
            memory=human_bytes(sum(c.cost_bytes for c in others)),
        )
        lines = [
            QCoreApplication.translate(
                "MainWindow",
                "Each conversation's speculation runs in a configuration of the loaded model, "
                "started on first use beside it and stopped when idle; the weights are shared, "
                "each configuration adds its own cache.",
            )
        ]
        for label, stats in status.stats.items():
            tps = "-" if stats.decode_tps is None else f"{stats.decode_tps:.1f}"
            lines.append(
                QCoreApplication.translate(
                    "MainWindow", "{configuration}: {tps} tok/s (answers: {requests})"
                ).format(configuration=configuration_text(label), requests=stats.requests, tps=tps)
            )
        self.pool_label.setText(text)
        self.pool_label.setToolTip("\n".join(lines))
        self.pool_label.setVisible(True)
