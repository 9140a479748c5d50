"""Main window: the navigation column, the error banner over the pages (Chat, Models, Downloads),
and the status bar.

It composes the window's parts and wires views to services; it holds no domain logic: launching
goes through :mod:`app.gui.controllers.engine_loader`, chat turns through
:class:`~app.gui.controllers.chat.ChatController`, downloads through
:class:`~app.gui.controllers.downloads.DownloadService`. Its parts, one job each, live in
:mod:`app.gui.window`: the navigation column, the status bar, the keyboard actions and Quit, and
opening a launch dialog.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.core import paths, secrets
from app.core import settings as settings_mod
from app.core.catalog import listed
from app.core.chat import AnswerStats, ChatStore
from app.core.engines import capability
from app.core.launch.plan import DEFAULT_MODEL, load_engine
from app.core.registry import AnySpec, Family, Registry
from app.core.settings import Settings
from app.gui.cache_bridge import CacheBridge, Role
from app.gui.controllers.auto_tuner import AutoTuner
from app.gui.controllers.chat import ChatContext, ChatController, to_sampling
from app.gui.controllers.downloads import DownloadRequest, DownloadService
from app.gui.controllers.engine_loader import Loader
from app.gui.controllers.launch import LaunchCoordinator
from app.gui.controllers.measure import plain_engine
from app.gui.controllers.model_files import ModelFilesController
from app.gui.controllers.server import ServerController
from app.gui.controllers.server_models import WindowModels
from app.gui.engine import EngineHost, ModelInfo
from app.gui.errors import ErrorBridge, UserError
from app.gui.i18n import I18n
from app.gui.models.conversations_model import ConversationsModel
from app.gui.models.downloads_model import DownloadsModel
from app.gui.models.family_model import FamilyModel
from app.gui.models.spec_tree import SpecTreeModel
from app.gui.ops import Ops
from app.gui.views.banner import ErrorBanner
from app.gui.views.browser import BrowserPage
from app.gui.views.chat_page import ChatPage
from app.gui.views.downloads_page import DownloadsPage
from app.gui.views.import_dialog import ImportController
from app.gui.views.launch_dialog import LaunchChoice
from app.gui.views.settings_dialog import SettingsDialog
from app.gui.window.launching import LaunchDialogs
from app.gui.window.navigation import NavigationPanel
from app.gui.window.shortcuts import WindowShortcuts
from app.gui.window.status_bar import WindowStatus

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
        self.navigation = NavigationPanel(i18n)
        self.nav = self.navigation.nav
        self.nav_actions = self.navigation.nav_actions
        self.lang_menu = self.navigation.lang_menu
        outer.addWidget(self.navigation)
        outer.addLayout(self._build_pages(), 1)
        self.setCentralWidget(central)
        self._build_controllers(settings)
        self._build_status_bar()
        self._wire(settings)
        self._add_shortcuts()
        self.nav.setCurrentRow(PAGE_CHAT)
        self.retranslate()
        self.chat.open_conversation(None)
        if self.conversations.rowCount():
            self.conv_list.setCurrentIndex(self.conversations.index(0, 0))
        self.browser.select_family(DEFAULT_MODEL[0])
        self.status.update()
        self.status.update_memory()
        self.ops.spawn(self._prewarm())

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

    def _build_controllers(self, settings: Settings) -> None:
        """The controllers over the engine host: the Local server's, the chat, the launch
        coordinator and its dialogs, the model files' and Auto's tuner."""
        # the local API server: serves the loaded model; views/server_panel.py
        self.server_controller = ServerController(self.engine, self.ops, self)
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
                model_choice=self.chat_page.model_choice,
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
        # a conversation that switches model loads it through the one launch path
        self.chat.models.load = self.launcher.load_model
        # the Local server serves every model on disk, sharing the window's loaded ones
        self.server_controller.models = WindowModels(
            self.engine, self.chat.models, self.launcher.job_for, self
        )
        self.chat.models.refresh()
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
        self.launch_dialogs = LaunchDialogs(
            self,
            self.ops,
            self.cache,
            lambda: self.settings,
            self.chat,
            self.store,
            self.auto_tuner,
            self.launch,
        )

    def _build_status_bar(self) -> None:
        """What is loaded and what runs, the Local server switch, Eject and the memory
        (:class:`~app.gui.window.status_bar.WindowStatus`); the window names its widgets."""
        self.status = WindowStatus(
            self.statusBar(),
            self.engine,
            self.server_controller,
            lambda: self.chat.speculation.choice,
            self.auto_tuner,
            self.load_bar,
            self,
        )
        self.status_model = self.status.model_label
        self.status_engine = self.status.engine_label
        self.status_spec = self.status.spec_label
        self.status_pool = self.status.pool_label
        self.status_memory = self.status.memory_label
        self.eject_btn = self.status.eject_btn
        self.server_switch = self.status.server_switch

    def _wire(self, settings: Settings) -> None:
        """Signals between pages, controllers, the engine host and the window."""
        self.navigation.languageChosen.connect(self.set_language)
        self.navigation.settingsRequested.connect(lambda: self.open_settings())
        self.eject_btn.clicked.connect(self.eject)
        self.launch_dialogs.opened.connect(self.launchDialogOpened)
        self.launcher.loadStarted.connect(self._on_load_started)
        self.chat.autoOffRequested.connect(self.launcher.switch_auto_off)
        self.chat.remeasureRequested.connect(self.launcher.remeasure)
        self.chat.generatingChanged.connect(self.auto_tuner.on_chat_busy)
        self.chat.answerFinished.connect(self.auto_tuner.on_answer)
        self.auto_tuner.changed.connect(self.status.update)
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
        self.chat.conversationChanged.connect(lambda _id: self.status.update())
        self.chat_page.speculation.chosen.connect(lambda _value: self.status.update())
        self.browser.launchRequested.connect(self.open_launch_dialog)
        self.browser.downloadRequested.connect(self._on_download_requested)
        self.browser.deleteRequested.connect(self.model_files.delete)
        self.browser.refreshRequested.connect(self.model_files.refresh)
        self.model_files.deleteDialogOpened.connect(self.deleteDialogOpened)
        self.model_files.deleteFinished.connect(self.deleteFinished)
        self.model_files.deleteFinished.connect(
            lambda *_: self.chat.models.refresh() if self.chat.models.read else None
        )
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
        self.chat.generatingChanged.connect(lambda _on: self.status.update())

    def _add_shortcuts(self) -> None:
        """Preferences, Quit and Ctrl+N, and the import controller (menu entry and drops)."""
        self.shortcuts = WindowShortcuts(self, lambda: self.chat.generating, self.server_switch.panel)
        self.shortcuts.preferences.triggered.connect(self.open_settings)
        self.shortcuts.new_chat.triggered.connect(self.new_chat)
        self.quit_action = self.shortcuts.quit_action
        self.importer = ImportController(self)  # Import model… and drops

    @property
    def quit_box(self) -> QMessageBox | None:
        """The question Quit asks while an answer is being written (None when not open)."""
        return self.shortcuts.quit_box

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
        self.navigation.retranslate()
        self.chat_page.retranslate()
        self.status.retranslate()
        self.chat.refresh_model_label()
        self.status.update()
        self.status.update_memory()

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
        self.launch_dialogs.open(family, spec, quant)

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
        self.status.update()
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
        self.status.update()
        self.chat.refresh_model_label()
        self.status.update_memory()
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
            self.settings.model_presets = {**self.settings.model_presets, info.label: info.launch}
        self.status.update()
        self.chat.refresh_model_label()
        self._persist()
        self.modelLoaded.emit(info)

    def _on_load_failed(self, exc: BaseException) -> None:
        self.load_bar.hide()
        self.load_cancel.setEnabled(True)
        self.status.update()
        self.chat.refresh_model_label()
        self.errors.report(exc, self.tr("The model could not be loaded"))

    def _on_load_cancelled(self) -> None:
        self.load_bar.hide()
        self.load_cancel.setEnabled(True)
        self.status.update()
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
            if self.chat.models.read:
                self.chat.models.refresh()  # the conversations' model lists

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
    def shutdown(self) -> None:
        """Stop every worker: generation, the engine thread, downloads, tasks and timers."""
        self.status.stop()
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
