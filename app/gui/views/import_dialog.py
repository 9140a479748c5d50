"""Import a model from disk.

:class:`ImportController` is installed on the main window with one line. It adds the
"Import model…" entry (a button on the Models page and Ctrl+I) and accepts a dropped ``.gguf``
file or MLX folder anywhere on the window. Importing registers a user family with a local source
(:mod:`app.core.catalog.importer`), selects it on the Models page and opens
:class:`ImportDialog`, which runs the compatible-drafter finder off the GUI thread, offers the
compatible drafters (incompatible ones are never offered; their reasons are on hover of the
count), pairs the chosen one with the family, and offers to launch it (the launch dialog). The
finder runs through the window's operations (``ops.query``); a dialog closed meanwhile drops
the answer.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.cache.errors import CacheError
from app.core.catalog import importer
from app.core.catalog.drafters import Candidate
from app.core.registry import Family, Registry, RegistryError
from app.core.units import human_bytes
from app.gui.errors import describe
from app.gui.ops import Ops
from app.gui.widgets import InlineMessage


def _dropped_paths(event: QDragEnterEvent | QDropEvent) -> list[Path]:
    mime = event.mimeData()
    if not mime.hasUrls():
        return []
    return [Path(u.toLocalFile()) for u in mime.urls() if u.isLocalFile()]


class ImportDialog(QDialog):
    """Signals: ``findingDone()`` (the finder's candidates are shown), ``launchRequested(Family,
    spec, str quant)``."""

    findingDone = Signal()
    launchRequested = Signal(object, object, str)

    def __init__(
        self,
        family: Family,
        path: Path,
        registry: Registry,
        created: bool,
        ops: Ops,
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self.family = family
        self.path = path
        self.registry = registry
        self.candidates: list[Candidate] = []
        self._ops = ops
        self._finder: asyncio.Task[None] | None = None
        self.setWindowTitle(self.tr("Import model"))
        lay = QVBoxLayout(self)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        lay.addWidget(self.summary)
        self.drafter_title = QLabel(self.tr("Compatible drafters (same vocabulary, smaller):"))
        lay.addWidget(self.drafter_title)
        self.drafters = QListWidget()
        lay.addWidget(self.drafters, 1)
        self.note = InlineMessage()
        lay.addWidget(self.note)
        self.buttons = QDialogButtonBox()
        self.use_btn = QPushButton(self.tr("Use as drafter"))
        self.launch_btn = QPushButton(self.tr("Launch…"))
        self.launch_btn.setObjectName("primary")
        self.buttons.addButton(self.use_btn, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.addButton(self.launch_btn, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        lay.addWidget(self.buttons)
        self.buttons.rejected.connect(self.reject)
        self.use_btn.clicked.connect(self.use_selected)
        self.launch_btn.clicked.connect(self.launch)
        self.drafters.itemSelectionChanged.connect(self._update)
        spec = family.specs[0]
        text = (
            self.tr("Registered {name} ({fmt}, {quant}) from {path}.")
            if created
            else self.tr("{name} is already in your models ({fmt}, {quant}, {path}).")
        )
        self.summary.setText(
            text.format(name=family.name, fmt=spec.format.upper(), quant=spec.quantizations[0], path=path)
        )
        self.resize(560, 360)
        self._update()
        self._find()

    # --- the finder, off the GUI thread ---------------------------------------------------------
    def _find(self) -> None:
        self.note.show_message(self.tr("Looking for compatible drafters…"), "info")
        self._finder = (
            self._ops.query(importer.find_drafters, self.path, self.registry, parent=self)
            .success(self._show)
            .failure(self._failed)
            .run()
        )

    def _failed(self, exc: BaseException) -> None:
        self.note.show_message(self.tr("The drafter search failed: {reason}").format(reason=exc), "error")
        self.findingDone.emit()

    def finding(self) -> bool:
        return self._finder is not None and not self._finder.done()

    def _show(self, cands: list[Candidate]) -> None:
        self.candidates = [c for c in cands if c.compatible]
        self.drafters.clear()
        for c in self.candidates:
            size = human_bytes(c.size_bytes) if c.size_bytes else "?"
            item = QListWidgetItem(f"{Path(c.path or c.label).name}  ({size})")
            item.setToolTip(f"{c.label}\n{c.reason}")
            item.setData(Qt.ItemDataRole.UserRole, c)
            self.drafters.addItem(item)
        rejected = [c for c in cands if not c.compatible]
        if self.candidates:
            self.drafters.setCurrentRow(0)
            self.note.show_message(self.tr("Choose a drafter to pair with it, or launch it alone."), "info")
        else:
            self.note.show_message(
                self.tr(
                    "No compatible drafter found nearby; it can still run alone or with a model-free method."
                ),
                "info",
            )
        if rejected:
            self.note.setToolTip(
                self.tr("Not offered:") + "\n" + "\n".join(f"{c.label}: {c.reason}" for c in rejected[:20])
            )
        self._update()
        self.findingDone.emit()

    # --- actions --------------------------------------------------------------------------------
    def selected(self) -> Candidate | None:
        item = self.drafters.currentItem()
        value = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        return value if isinstance(value, Candidate) else None

    def use_selected(self) -> Family | None:
        cand = self.selected()
        if cand is None or cand.path is None:
            return None
        try:
            self.family = importer.attach_drafter(self.registry, self.family, Path(cand.path))
        except (RegistryError, OSError) as exc:
            self.note.show_message(str(exc), "error")
            return None
        self.note.show_message(
            self.tr("{drafter} is now its drafter.").format(drafter=Path(cand.path).name), "info"
        )
        self._update()
        return self.family

    def launch(self) -> None:
        spec = self.family.specs[0]
        self.launchRequested.emit(self.family, spec, spec.quantizations[0])
        self.accept()

    def _update(self) -> None:
        self.use_btn.setEnabled(self.selected() is not None)


def chosen_model_path(path: Path) -> Path:
    """What a path picked in the file dialog imports: an MLX folder when the file is its
    ``config.json``, else the file itself."""
    return path.parent if path.name == "config.json" else path


class ImportController(QObject):
    """Import model… (button on the Models page, Ctrl+I) and drops on ``window``.

    Signals: ``dialogOpened(ImportDialog)``, ``failed(str)`` (one line for the user).
    """

    dialogOpened = Signal(object)
    failed = Signal(str)

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.window = window
        window.setAcceptDrops(True)
        window.installEventFilter(self)
        self.action = QAction(window)
        self.action.setShortcut(QKeySequence("Ctrl+I"))
        self.action.triggered.connect(self.choose)
        window.addAction(self.action)
        window.browser.hub_search.import_btn.clicked.connect(self.choose)

    def choose(self) -> None:
        """The file dialog offers .gguf files and MLX folders: a folder is chosen by its
        ``config.json`` (a file dialog picks files; with a .gguf filter alone an MLX folder could
        only be dropped on the window, although the button's tooltip offered it)."""
        filters = ";;".join(
            [
                self.tr("Models (*.gguf config.json)"),
                self.tr("GGUF models (*.gguf)"),
                self.tr("MLX model folder: its config.json (config.json)"),
            ]
        )
        path, _ = QFileDialog.getOpenFileName(self.window, self.tr("Import model"), str(Path.home()), filters)
        if path:
            self.import_path(chosen_model_path(Path(path)))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            assert isinstance(event, QDragEnterEvent | QDropEvent)
            if any(importer.importable(p) for p in _dropped_paths(event)):
                event.acceptProposedAction()
                return True
        if watched is self.window and event.type() == QEvent.Type.Drop:
            assert isinstance(event, QDropEvent)
            paths = [p for p in _dropped_paths(event) if importer.importable(p)]
            if paths:
                event.acceptProposedAction()
                self.import_path(paths[0])
                return True
        return super().eventFilter(watched, event)

    def import_path(self, path: Path) -> ImportDialog | None:
        w = self.window
        try:
            family, created = importer.import_path(path, w.registry)
        except (RegistryError, CacheError, OSError) as exc:
            # the error banner: what happened and what to do, until dismissed (a status bar line
            # vanished after 10 s and said nothing of the next step)
            w.show_error(describe(exc, self.tr("Could not import the model")))
            self.failed.emit(str(exc).splitlines()[0])
            return None
        w.family_model.set_registry(w.registry)
        w.browser.select_family(family.name)
        dlg = ImportDialog(family, path.expanduser().resolve(), w.registry, created, w.ops, w)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dlg.launchRequested.connect(self._launch)
        dlg.open()
        self.dialogOpened.emit(dlg)
        return dlg

    def _launch(self, family: Family, spec: Any, quant: str) -> None:
        self.window.family_model.set_registry(self.window.registry)  # a paired drafter shows
        self.window.open_launch_dialog(family, spec, quant)
