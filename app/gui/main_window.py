"""Main window: navigation (Chat, Models, Downloads), the error banner, and the status bar.

It wires views to services and holds no domain logic: launching goes through
:mod:`app.gui.controllers.engine_loader`, chat turns through
:class:`~app.gui.controllers.chat.ChatController`,
downloads through :class:`~app.gui.controllers.downloads.DownloadService`.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from PySide6.QtCore import QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QMessageBox,
    QSizePolicy,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core import paths, secrets
from app.core import settings as settings_mod
from app.core.catalog import listed
from app.core.chat import AnswerStats, ChatStore
from app.core.engines import capability
from app.core.engines.threads import ThreadChoice
from app.core.launch.plan import DEFAULT_MODEL, load_engine
from app.core.registry import AnySpec, Family, Registry
from app.core.settings import Settings
from app.core.speculative import per_request
from app.core.units import human_bytes
from app.gui import icons
from app.gui.cache_bridge import CacheBridge, Role
from app.gui.controllers.auto_tuner import AutoTuner
from app.gui.controllers.chat import ChatContext, ChatController, to_sampling
from app.gui.controllers.downloads import DownloadRequest, DownloadService
from app.gui.controllers.engine_loader import Loader
from app.gui.controllers.launch import LaunchCoordinator
from app.gui.controllers.measure import plain_engine
from app.gui.controllers.model_files import ModelFilesController
from app.gui.controllers.server import ServerController
from app.gui.engine import EngineHost, ModelInfo
from app.gui.errors import ErrorBridge, UserError
from app.gui.i18n import LANGUAGES, I18n
from app.gui.models.conversations_model import ConversationsModel
from app.gui.models.downloads_model import DownloadsModel
from app.gui.models.family_model import FamilyModel
from app.gui.models.spec_tree import SpecTreeModel
from app.gui.ops import Ops
from app.gui.sysinfo import rss_bytes
from app.gui.views.banner import ErrorBanner
from app.gui.views.browser import BrowserPage
from app.gui.views.chat_page import ChatPage
from app.gui.views.downloads_page import DownloadsPage
from app.gui.views.import_dialog import ImportController
from app.gui.views.launch_dialog import LaunchChoice, LaunchDialog
from app.gui.views.server_panel import ServerSwitch
from app.gui.views.settings_dialog import SettingsDialog
from app.gui.views.stats import configuration_text
from app.gui.widgets import ElidedLabel, PriorityRow

log = logging.getLogger(__name__)

PAGE_CHAT, PAGE_MODELS, PAGE_DOWNLOADS = range(3)


class MainWindow(QMainWindow):
    """Signals: ``modelLoaded(ModelInfo)``, ``launchDialogOpened(LaunchDialog)``,
    ``deleteDialogOpened(DeleteDialog)``, ``deleteFinished(bool free_disk, int bytes_freed)``."""

    modelLoaded = Signal(object)
    launchDialogOpened = Signal(object)
    deleteDialogOpened = Signal(object)
    deleteFinished = Signal(bool, object)  # object: byte counts pass 2**31
    refreshFinished = Signal(object)  # the listing reports of a "Refresh from hub"

    def __init__(
        self,
        settings: Settings,
        i18n: I18n,
        errors: ErrorBridge,
        *,
        registry: Registry | None = None,
        store: ChatStore | None = None,
        loader: Loader | None = None,
        save_settings: bool = True,
    ) -> None:
        super().__init__()
        self._closed = False  # set by closeEvent; a closed window no longer retranslates
        self.settings = settings
        self.i18n = i18n
        self.errors = errors
        self._save_settings = save_settings
        self.registry = registry or listed.load_registry()
        self.store = store or ChatStore()
        # The "Model cache" setting decides where cache entries go, for the whole process.
        paths.set_models_root(settings.model_cache_dir())
        # Slow work runs through ops on the qasync loop; ops.changed is the one broadcast after
        # an operation changed the cache or registry.
        self.ops = Ops(errors, self)
        self.cache = CacheBridge(settings.hub, settings.endpoint(), self.ops, self)
        # a llama.cpp model is served by its engine pool: the chat and the Local server share it
        self.engine = EngineHost(
            self.ops, self, pool_loader=lambda request, progress: load_engine("llama.cpp", request, progress)
        )
        self.downloads_model = DownloadsModel(self)
        self.downloads = DownloadService(self.registry, self.cache, self.downloads_model, self)
        kwargs: dict[str, Any] = {"loader": loader} if loader is not None else {}
        self._loader_kwargs = kwargs
        self.setObjectName("mainWindow")
        self.resize(1200, 780)  # run_gui fits it to the screen (see window_size_for_screen)
        self.setMinimumSize(QSize(900, 600))

        # --- models -----------------------------------------------------------------------------
        self.family_model = FamilyModel(self.registry, self.cache, self)
        self.spec_model = SpecTreeModel(self.cache, self)
        self.conversations = ConversationsModel(self.store, self)

        central = QWidget()
        outer = QHBoxLayout(central)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        outer.addWidget(self._build_navigation())
        outer.addLayout(self._build_pages(), 1)
        self.setCentralWidget(central)
        self._build_status_bar()
        self._build_controllers(settings)
        self._wire(settings)
        self._add_shortcuts()
        self.nav.setCurrentRow(PAGE_CHAT)
        self.retranslate()
        self.chat.open_conversation(None)
        if self.conversations.rowCount():
            self.conv_list.setCurrentIndex(self.conversations.index(0, 0))
        self.browser.select_family(DEFAULT_MODEL[0])
        self._update_status()
        self._update_memory()
        self.ops.spawn(self._prewarm())

    def _build_navigation(self) -> QWidget:
        """The page list (Chat, Models, Downloads) and the action list (Language, Settings)."""
        nav_box = QWidget()
        nav_box.setObjectName("navBox")
        nav_box.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)
        nav_layout = QVBoxLayout(nav_box)
        nav_layout.setContentsMargins(0, 0, 0, 8)
        nav_layout.setSpacing(0)
        self.nav = QListWidget()
        self.nav.setObjectName("nav")
        for name in ("chat", "models", "download"):
            QListWidgetItem(icons.icon(name, icons.MUTED, icons.ACCENT), "", self.nav)
        # Language and Settings are actions, not pages: a second list with no selection, so
        # they share the pages' icon size, spacing and hover look exactly.
        self.nav_actions = QListWidget()
        self.nav_actions.setObjectName("navActions")
        self.nav_actions.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.nav_actions.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        for name in ("globe", "settings"):
            QListWidgetItem(icons.icon(name), "", self.nav_actions)
        for lst in (self.nav, self.nav_actions):
            lst.setIconSize(QSize(20, 20))
            lst.setFixedWidth(176)
            lst.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            lst.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.nav_actions.itemClicked.connect(self._on_nav_action)
        self.lang_menu = QMenu(self)
        for code, name in LANGUAGES.items():
            act = self.lang_menu.addAction(name)
            act.setData(code)
            act.setCheckable(True)
            act.triggered.connect(lambda _c=False, c=code: self.set_language(c))
        nav_layout.addWidget(self.nav, 1)
        nav_layout.addWidget(self.nav_actions)
        nav_box.setFixedWidth(176)
        return nav_box

    def _build_pages(self) -> QVBoxLayout:
        """The error banner over the stacked pages: chat, model browser, downloads."""
        right = QVBoxLayout()
        right.setContentsMargins(0, 0, 0, 0)
        right.setSpacing(0)
        self.banner = ErrorBanner()
        banner_wrap = QWidget()
        bl = QVBoxLayout(banner_wrap)
        bl.setContentsMargins(12, 8, 12, 0)
        bl.addWidget(self.banner)
        right.addWidget(banner_wrap)
        self.stack = QStackedWidget()
        right.addWidget(self.stack, 1)

        # chat page: the conversations panel, the load bar and the chat view
        self.chat_page = ChatPage(self.conversations)
        self.stack.addWidget(self.chat_page)
        panel = self.chat_page.conversations_panel
        self.conv_panel = panel
        self.conv_list = panel.list
        self.new_chat_btn, self.rename_btn, self.delete_conv_btn = (
            panel.new_chat_btn,
            panel.rename_btn,
            panel.delete_btn,
        )
        bar = self.chat_page.load_bar
        self.load_bar, self.load_label, self.load_progress, self.load_cancel = (
            bar,
            bar.label,
            bar.progress,
            bar.cancel,
        )
        bar.cancelRequested.connect(self.cancel_load)
        self.chat_view = self.chat_page.chat_view

        self.browser = BrowserPage(
            self.family_model,
            self.spec_model,
            ops=self.ops,
            context_length=lambda: self.settings.context_length,
            settings=lambda: self.settings,
            persist=self._persist,
        )
        self.stack.addWidget(self.browser)
        self.downloads_page = DownloadsPage(self.downloads_model)
        self.stack.addWidget(self.downloads_page)

        return right

    def _build_status_bar(self) -> None:
        """Model, engine and speculation labels; the local server switch, eject and memory.

        The labels share the room left beside the switch and the memory: each takes the width of
        its text while there is room, and when there is not, the least important shortens first,
        after a whole word, with "…" (its tooltip then says it whole); the switch, Eject and the
        memory keep their widths."""
        sb = self.statusBar()
        self.status_model = ElidedLabel(words=True, stretchy=True)
        self.status_model.setObjectName("statusModel")
        self.status_engine = ElidedLabel(words=True, stretchy=True)
        self.status_engine.setObjectName("statusEngine")
        self.status_spec = ElidedLabel(words=True, stretchy=True)
        self.status_spec.setObjectName("statusSpeculation")
        #: the loaded model's engine pool: the configurations running now
        self.status_pool = ElidedLabel(words=True, stretchy=True)
        self.status_pool.setObjectName("statusPool")
        self.status_memory = QLabel()
        self.status_memory.setObjectName("statusMemory")
        self.eject_btn = QToolButton()
        self.eject_btn.setObjectName("ejectButton")
        self.eject_btn.setAutoRaise(True)
        self.eject_btn.clicked.connect(self.eject)
        labels = QWidget()
        labels.setObjectName("statusLabels")
        row = PriorityRow(labels, spacing=0)
        # short of room, what else runs gives way first, then the model's name (the chat's header
        # names it too), the speculation in use last
        for label, importance in (
            (self.status_model, 1),
            (self.status_engine, 2),
            (self.status_spec, 3),
            (self.status_pool, 0),
        ):
            row.add(label, importance)
        sb.addWidget(labels, 1)
        # the local API server: serves the loaded model; views/server_panel.py
        self.server_controller = ServerController(self.engine, self.ops, self)
        self.server_switch = ServerSwitch(self.server_controller)
        for fixed in (self.server_switch, self.eject_btn, self.status_memory):
            fixed.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)
            sb.addPermanentWidget(fixed)
        self._memory_timer = QTimer(self)
        self._memory_timer.setInterval(2000)
        self._memory_timer.timeout.connect(self._update_memory)
        self._memory_timer.start()

    def _build_controllers(self, settings: Settings) -> None:
        """The chat controller and the launch coordinator over the engine host."""
        self.chat = ChatController(
            ChatContext(
                store=self.store,
                engine=self.engine,
                view=self.chat_view,
                conversations=self.conversations,
                errors=self.errors,
                sampling=to_sampling(settings.sampling),
                system_prompt=settings.system_prompt,
                registry=self.registry,
                speculation=self.chat_page.speculation,
                ops=self.ops,
                # "Measure": a plain engine of the loaded model, through the one launch path
                plain_engine=functools.partial(
                    plain_engine, self.registry, self.cache, **self._loader_kwargs
                ),
                auto_demotes=True,  # the tuner demotes a losing choice itself
            ),
            self,
        )
        self.launcher = LaunchCoordinator(
            self.ops,
            self.registry,
            self.cache,
            self.engine,
            self.downloads,
            self.chat,
            lambda: self.settings,
            self._loader_kwargs,
            self,
        )
        # deleting a model's files and refreshing its quantizations from the hub
        self.model_files = ModelFilesController(
            self.ops,
            self.registry,
            self.cache,
            self.engine,
            self.downloads,
            self.family_model,
            self.browser,
            self.eject,
            self.statusBar().showMessage,
            self,
        )
        # Auto measures in the background while the chat is idle
        self.auto_tuner = AutoTuner(
            self.ops,
            self.engine,
            # the local server answers other programs on the loaded engine: Auto does not measure
            # while it serves (it cannot see a request coming)
            lambda: self.chat.generating or self.chat.measuring or self.server_controller.running,
            self._loader_kwargs.get("loader", load_engine),
            self.chat.baselines,
            self,
        )

    def _wire(self, settings: Settings) -> None:
        """Signals between pages, controllers, the engine host and the window."""
        self.launcher.loadStarted.connect(self._on_load_started)
        self.chat.autoOffRequested.connect(self.launcher.switch_auto_off)
        self.chat.remeasureRequested.connect(self.launcher.remeasure)
        self.chat.generatingChanged.connect(self.auto_tuner.on_chat_busy)
        self.chat.answerFinished.connect(self.auto_tuner.on_answer)
        self.auto_tuner.changed.connect(self._update_status)
        self.auto_tuner.switchRequested.connect(self.launcher.reload_auto)
        self.server_controller.stateChanged.connect(self.auto_tuner.on_chat_busy)
        self.launcher.downloadsQueued.connect(lambda: self.nav.setCurrentRow(PAGE_DOWNLOADS))
        self.launcher.notice.connect(self.statusBar().showMessage)
        self.launcher.problem.connect(self.show_error)
        self.chat_view.highlight_btn.setChecked(settings.highlight_draft_tokens)
        self.chat_view.highlightToggled.connect(self._on_highlight_toggled)
        self.nav.currentRowChanged.connect(self.stack.setCurrentIndex)
        panel = self.conv_panel
        panel.newChatRequested.connect(self.new_chat)
        panel.conversationSelected.connect(self._on_conversation_selected)
        panel.deleteRequested.connect(self.delete_conversation)
        self.chat.conversationChanged.connect(self._select_conversation_row)
        # the status bar names what the shown conversation's answers run
        self.chat.conversationChanged.connect(lambda _id: self._update_status())
        self.chat_page.speculation.chosen.connect(lambda _value: self._update_status())
        self.browser.launchRequested.connect(self.open_launch_dialog)
        self.browser.downloadRequested.connect(self._on_download_requested)
        self.browser.deleteRequested.connect(self.model_files.delete)
        self.browser.refreshRequested.connect(self.model_files.refresh)
        self.model_files.deleteDialogOpened.connect(self.deleteDialogOpened)
        self.model_files.deleteFinished.connect(self.deleteFinished)
        self.model_files.refreshFinished.connect(self.refreshFinished)
        self.downloads_page.cancelRequested.connect(self.downloads.cancel)
        self.downloads_page.retryRequested.connect(self.downloads.retry)
        self.downloads_page.folderRequested.connect(
            lambda i: self.downloads_page.open_folder(self.downloads.folder(i))
        )
        self.downloads.completed.connect(self._on_download_completed)
        self.downloads.failed.connect(self._on_download_failed)
        self.engine.loadProgress.connect(self._on_load_progress)
        self.engine.loaded.connect(self._on_loaded)
        self.engine.loadFailed.connect(self._on_load_failed)
        self.engine.loadCancelled.connect(self._on_load_cancelled)
        self.engine.unloaded.connect(self._on_unloaded)
        self.errors.raised.connect(self.show_error)
        self.chat.generatingChanged.connect(lambda _on: self._update_status())

    def _add_shortcuts(self) -> None:
        """Preferences, Quit and Ctrl+N, and the import controller (menu entry and drops)."""
        prefs = QAction(self)
        prefs.setShortcut(QKeySequence(QKeySequence.StandardKey.Preferences))
        prefs.triggered.connect(self.open_settings)
        self.addAction(prefs)
        #: Ctrl+Q (Cmd+Q on macOS); Windows has no standard key for it, so Ctrl+Q there too. The
        #: Local server panel (a window of its own) has the action too, so it quits from there.
        self.quit_action = QAction(self)
        self.quit_action.setShortcuts(
            QKeySequence.keyBindings(QKeySequence.StandardKey.Quit) or [QKeySequence("Ctrl+Q")]
        )
        self.quit_action.triggered.connect(self.quit_app)
        self.addAction(self.quit_action)
        self.server_switch.panel.addAction(self.quit_action)
        #: the question Quit asks while an answer is being written (None when not open)
        self.quit_box: QMessageBox | None = None
        focus = QAction(self)
        focus.setShortcut(QKeySequence("Ctrl+N"))
        focus.triggered.connect(self.new_chat)
        self.addAction(focus)
        self.importer = ImportController(self)  # Import model… and drops

    async def _prewarm(self) -> None:
        """What the first dialogs would otherwise block on, done on a worker at start: the
        llama.cpp availability check (the default model needs it anyway) and the keyring's token
        presence. The MLX check (importing ``mlx_vlm``, which is slow) runs on a worker when a launch
        dialog for an MLX model is about to open, not at every start."""
        await self.ops.run(capability.engine_availability, "llama.cpp")
        for hub in secrets.HUBS:
            await self.ops.run(secrets.has_token, hub)

    # --- errors -----------------------------------------------------------------------------------
    def show_error(self, error: UserError) -> None:
        self.banner.show_error(error)

    # --- language ---------------------------------------------------------------------------------
    def set_language(self, code: str) -> None:
        self.i18n.set_language(code)
        self.settings.language = code
        self._persist()

    def changeEvent(self, event: QEvent) -> None:
        # A closed window keeps its widgets until Qt deletes it, but its store is closed: a language
        # switch reaching it then must not retranslate (an exception raised from a Qt virtual
        # override can take the process down inside shiboken's error reporting).
        if event.type() == QEvent.Type.LanguageChange and not self._closed:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Tandem"))
        for row, text in enumerate((self.tr("Chat"), self.tr("Models"), self.tr("Downloads"))):
            item = self.nav.item(row)
            if item is not None:
                item.setText(text)
        for row, text in enumerate((self.tr("Language"), self.tr("Settings"))):
            item = self.nav_actions.item(row)
            if item is not None:
                item.setText(text)
        self._fit_nav_actions()
        self.chat_page.retranslate()
        self.eject_btn.setText(self.tr("Eject"))
        self.eject_btn.setToolTip(self.tr("Unload the model and free the memory it holds"))
        self.chat.refresh_model_label()
        self._update_status()
        self._update_memory()

    def _fit_nav_actions(self) -> None:
        lst = self.nav_actions
        rows = sum(lst.sizeHintForRow(r) for r in range(lst.count()))
        margins = lst.contentsMargins()
        lst.setFixedHeight(rows + margins.top() + margins.bottom() + 2 * lst.frameWidth() + 4 * lst.count())

    def _on_nav_action(self, item: QListWidgetItem) -> None:
        if self.nav_actions.row(item) == 0:
            for act in self.lang_menu.actions():
                act.setChecked(act.data() == self.i18n.language)
            rect = self.nav_actions.visualItemRect(item)
            self.lang_menu.popup(self.nav_actions.viewport().mapToGlobal(rect.topRight()))
        else:
            self.open_settings()

    # --- status bar -------------------------------------------------------------------------------
    def _update_status(self) -> None:
        info = self.engine.info
        if info:
            self.status_model.setText(self.tr("Model: {name}").format(name=info.label))
            self.status_engine.setText(self.tr("Engine: {name}").format(name=info.engine))
            self.status_engine.setToolTip(self._threads_status())
            text, tip = self._speculation_status(info)
            self.status_spec.setText(text)
            self.status_spec.setToolTip(tip)
        else:
            self.status_model.setText(self.tr("No model loaded"))
            self.status_engine.setText("")
            self.status_engine.setToolTip("")
            self.status_spec.setText("")
            self.status_spec.setToolTip("")
        for label in (self.status_engine, self.status_spec):
            label.setVisible(bool(label.text()))  # an empty label would still take a gap
        # Eject while a load runs would race it: the button waits for the load to end.
        self.eject_btn.setVisible(bool(info))
        self.eject_btn.setEnabled(bool(info) and self.load_bar.isHidden())
        self._update_pool()

    def _threads_status(self) -> str:
        """How many CPU threads each llama.cpp process of the loaded model computes with, and why
        (they follow the cores that are free: :mod:`app.core.engines.threads`); "" for other engines."""
        engine = self.engine.current_engine
        choice = getattr(engine, "thread_choice", None)
        if not isinstance(choice, ThreadChoice):
            return ""
        pool = self.engine.pool
        counts = pool.threads_of() if pool is not None else {}
        if not counts:
            counts = {"": int(getattr(engine, "n_threads", choice.threads))}
        why = {
            "explicit": self.tr("as set in the launch dialog"),
            "all-free": self.tr("one per core that does math ({n}), all free"),
            "busy": self.tr("other programs keep {busy} of the {n} cores that do math busy"),
            "shared": self.tr("other models hold {shared} of the {n} cores that do math"),
            "fallback": self.tr("every core that does math is taken, so the fewest"),
            "calibrated": self.tr("Auto's measurement found that more threads do not pay here"),
        }.get(choice.reason, "")
        lines = [self.tr("CPU threads of the model's llama.cpp processes:")]
        for label, n in counts.items():
            name = configuration_text(label) if label else self.tr("the model")
            lines.append(self.tr("{configuration}: {n} threads").format(configuration=name, n=n))
        lines.append(why.format(n=choice.math_cores, busy=choice.busy, shared=choice.shared))
        lines.append(
            self.tr("A model at rest follows the free cores; a thread count set in the launch dialog wins.")
        )
        return "\n".join(lines)

    def _speculation_status(self, info: ModelInfo) -> tuple[str, str]:
        """(text, tooltip) of what the shown conversation's answers run: its own choice when it
        chose Off or a method beside its title, else what the model was loaded with (with Auto:
        what Auto runs, and whether it still measures)."""
        choice = self.chat.speculation.choice
        if choice != per_request.AUTO:
            tip = self.tr(
                "This conversation's choice, beside its title; the model was loaded with {launch}"
            ).format(
                launch=configuration_text(info.speculation) if info.speculation else self.tr("no speculation")
            )
            if choice == per_request.OFF:
                return self.tr("Speculation: off"), tip
            return self.tr("Speculation: {mode}").format(mode=configuration_text(choice)), tip
        spec = info.speculation
        if info.auto is not None and self.auto_tuner.pick is not None:
            spec = self.auto_tuner.text()
        tip = self.auto_tuner.tooltip() if info.auto is not None else ""
        if not spec:
            return self.tr("Speculation: off"), tip
        return self.tr("Speculation: {mode}").format(mode=configuration_text(spec)), tip

    def _update_memory(self) -> None:
        rss = rss_bytes()
        self.status_memory.setText(self.tr("Memory: {value}").format(value=human_bytes(rss)) if rss else "")
        if self.engine.info:  # an idle model's threads follow the free cores
            self.status_engine.setToolTip(self._threads_status())
        self._update_pool()

    def _update_pool(self) -> None:
        """The configurations of the loaded model's pool running now (chat answers and API clients
        share them), what the ones started beside the loaded one cost, and what each served."""
        pool = self.engine.pool
        status = pool.status() if pool is not None else None
        # what the launch runs is named by the speculation label beside: only the others here
        others = [c for c in status.children if not c.base] if status is not None else []
        if status is None or not others:
            self.status_pool.setText("")
            self.status_pool.setToolTip("")
            self.status_pool.setVisible(False)
            return
        text = self.tr("Also running: {configurations} (+{memory})").format(
            configurations=", ".join(configuration_text(c.label) for c in others),
            memory=human_bytes(sum(c.cost_bytes for c in others)),
        )
        lines = [
            self.tr(
                "Each conversation's speculation runs in a configuration of the loaded model, "
                "started on first use beside it and stopped when idle; the weights are shared, "
                "each configuration adds its own cache."
            )
        ]
        for label, stats in status.stats.items():
            tps = "-" if stats.decode_tps is None else f"{stats.decode_tps:.1f}"
            lines.append(
                self.tr("{configuration}: {tps} tok/s (answers: {requests})").format(
                    configuration=configuration_text(label), requests=stats.requests, tps=tps
                )
            )
        self.status_pool.setText(text)
        self.status_pool.setToolTip("\n".join(lines))
        self.status_pool.setVisible(True)

    # --- conversations ----------------------------------------------------------------------------
    def new_chat(self) -> None:
        self.nav.setCurrentRow(PAGE_CHAT)
        self.conv_panel.clear_selection()
        self.chat.open_conversation(None)
        self.chat_view.composer.input.setFocus()

    def _on_conversation_selected(self, conversation_id: int) -> None:
        if conversation_id != self.chat.conversation_id:
            self.chat.open_conversation(conversation_id)

    def _select_conversation_row(self, conversation_id: int) -> None:
        self.conv_panel.select(conversation_id)

    def delete_conversation(self, row: int) -> None:
        conv = self.conversations.conversation(row)
        if conv.id == self.chat.conversation_id:
            self.chat.open_conversation(None)
        self.conversations.remove(row)

    def _on_highlight_toggled(self, on: bool) -> None:
        self.settings.highlight_draft_tokens = on
        self._persist()

    # --- launching --------------------------------------------------------------------------------
    def open_launch_dialog(self, family: Family, spec: AnySpec, quant: str) -> None:
        """Opens once the checks the dialog reads are done on a worker; ``launchDialogOpened``
        carries the dialog."""
        self.ops.spawn(
            self._open_launch_dialog(family, spec, quant), self.tr("The model could not be loaded")
        )

    async def _open_launch_dialog(self, family: Family, spec: AnySpec, quant: str) -> None:
        engines = {name for s in family.specs for name in capability.engines_for_spec(s)}
        for name in sorted(engines):  # importing mlx_vlm is too slow for the GUI thread
            await self.ops.run(capability.engine_availability, name)
        await self.cache.prefetch(family)  # the dialog's markers and gating read these
        dlg = LaunchDialog(
            family,
            spec,
            quant,
            self.cache,
            self.settings,
            self,
            ops=self.ops,
            chat_images=self._chat_has_images(),
        )
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dlg.accepted.connect(lambda: self.launch(dlg.choice()))
        # the dialog's Re-measure and Auto's background measurement never run at once; what the
        # dialog measured for the loaded launch is what Auto uses
        tuner = self.auto_tuner
        dlg.auto_panel.stateChanged.connect(lambda state: tuner.hold(state == "measuring"))
        dlg.auto_panel.measured.connect(tuner.adopt)
        dlg.destroyed.connect(lambda: tuner.hold(False))
        dlg.open()
        self.launchDialogOpened.emit(dlg)

    def _chat_has_images(self) -> bool:
        """The open conversation has pictures (the launch dialog says when they cannot go to the
        model it launches)."""
        cid = self.chat.conversation_id
        return cid is not None and any(m.images for m in self.store.messages(cid))

    def launch(self, choice: LaunchChoice) -> None:
        """Queue what is missing, then load; or load at once when everything is on disk."""
        self.launcher.launch(choice)

    def start_load(self, choice: LaunchChoice) -> None:
        self.launcher.start_load(choice)

    def load_default_model(self) -> None:
        self.launcher.load_default_model()

    def load_startup_model(self) -> None:
        """At start: reopen the last launch when its files are still on disk, else the default
        model (the checks run on a worker: :class:`LaunchCoordinator`)."""
        self.launcher.load_startup_model()

    def _on_load_started(self, family: str) -> None:
        self.load_label.setText(self.tr("Loading {name}…").format(name=family))
        self.load_progress.setRange(0, 0)  # busy: a load reports steps, not fractions
        self.load_bar.show()
        self._update_status()
        self.nav.setCurrentRow(PAGE_CHAT)

    def eject(self) -> None:
        """Unload the model: the engine is closed on its thread, which frees its memory."""
        if not self.engine.is_loaded:
            return
        if self.chat.generating:
            self.chat.stop()  # the unload runs after the answer has stopped
        self.eject_btn.setEnabled(False)
        self.engine.unload()

    def _on_unloaded(self) -> None:
        self._update_status()
        self.chat.refresh_model_label()
        self._update_memory()
        self.statusBar().showMessage(self.tr("Model unloaded; its memory is freed."), 10000)

    def cancel_load(self) -> None:
        self.engine.cancel()
        self.load_label.setText(self.tr("Cancelling…"))
        self.load_cancel.setEnabled(False)

    def _on_load_progress(self, message: str) -> None:
        # Auto no longer measures during a load: it measures in the background
        self.load_progress.setRange(0, 0)
        self.load_label.setText(self.tr("Loading: {step}").format(step=message))

    def _on_loaded(self, info: ModelInfo) -> None:
        self.load_bar.hide()
        self.load_cancel.setEnabled(True)
        if info.sampling is not None:
            self.chat.sampling = info.sampling  # the launch's sampling applies to this model's answers
        if info.launch is not None:
            self.settings.last_model = info.launch
        self._update_status()
        self.chat.refresh_model_label()
        self._persist()
        self.modelLoaded.emit(info)

    def _on_load_failed(self, exc: BaseException) -> None:
        self.load_bar.hide()
        self.load_cancel.setEnabled(True)
        self._update_status()
        self.chat.refresh_model_label()
        self.errors.report(exc, self.tr("The model could not be loaded"))

    def _on_load_cancelled(self) -> None:
        self.load_bar.hide()
        self.load_cancel.setEnabled(True)
        self._update_status()
        self.chat.refresh_model_label()
        self.statusBar().showMessage(self.tr("Loading cancelled"), 5000)

    # --- downloads ----------------------------------------------------------------------------------
    def _enqueue(self, request: DownloadRequest) -> str | None:
        return self.launcher.enqueue(request)

    def _on_download_requested(
        self, family: Family, spec: AnySpec, role: str, quant: str, dq: object
    ) -> None:
        kind: Role = "drafter" if role == "drafter" else "target"
        draft = dq if isinstance(dq, str) else None
        if self._enqueue(DownloadRequest(family, spec, kind, quant, draft)):
            self.statusBar().showMessage(self.tr("Added to downloads"), 4000)

    def _on_download_failed(self, item_id: str, message: str) -> None:
        self.show_error(self.downloads.failure(item_id, message, self.tr("A download failed")))

    def _on_download_completed(self, _item_id: str, ok: bool) -> None:
        if ok:
            self.ops.changed.emit()  # the models re-read their statuses (off the GUI thread)

    # --- settings -----------------------------------------------------------------------------------
    def open_settings(self) -> SettingsDialog:
        dlg = SettingsDialog(self.settings, self, ops=self.ops, tools=self.chat.tools)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def accepted() -> None:
            old_lang = self.settings.language
            self.settings = dlg.settings
            paths.set_models_root(self.settings.model_cache_dir())
            self.cache.configure(self.settings.hub, self.settings.endpoint())  # statuses follow
            if self.settings.language != old_lang:
                self.i18n.set_language(self.settings.language)
            self._persist()

        dlg.accepted.connect(accepted)
        dlg.open()
        return dlg

    def _persist(self) -> None:
        if self._save_settings:
            try:
                settings_mod.save(self.settings)
            except OSError as exc:
                self.errors.report(exc, self.tr("Settings could not be saved"))

    # --- shutdown -----------------------------------------------------------------------------------
    def quit_app(self) -> None:
        """Quit Tandem (Ctrl+Q / Cmd+Q): at once, or after asking while an answer is being written
        (quitting stops it)."""
        if self.quit_box is not None:
            self.quit_box.raise_()
            return
        if not self.chat.generating:
            self.close()
            return
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Quit Tandem?"), "", parent=self)
        box.setText(self.tr("An answer is still being written. Quitting stops it."))
        quit_btn = box.addButton(self.tr("Quit"), QMessageBox.ButtonRole.AcceptRole)
        stay = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(stay)
        box.setEscapeButton(stay)
        self.quit_box = box

        def answered() -> None:
            self.quit_box = None
            box.deleteLater()
            if box.clickedButton() is quit_btn:
                self.close()

        box.finished.connect(answered)
        box.open()

    def shutdown(self) -> None:
        """Stop every worker: generation, the engine thread, downloads, tasks and timers."""
        self._memory_timer.stop()
        self.auto_tuner.shutdown()
        self.chat.shutdown()
        self.server_controller.shutdown()
        self.downloads_model.stop()
        self.ops.shutdown()
        self.engine.shutdown()
        self.downloads.shutdown()
        self._persist()

    def closeEvent(self, event: QCloseEvent) -> None:
        self._closed = True
        self.server_switch.panel.hide()  # a window of its own: it would stay on screen
        self.shutdown()
        self.store.close()
        super().closeEvent(event)

    def on_answer(self, stats: AnswerStats) -> None:  # hook for tests / future telemetry
        log.debug("answer finished: %s", stats)
