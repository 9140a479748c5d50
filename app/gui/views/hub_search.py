"""Hub search on the Models page.

The page's search field looks in the registry (the family table's filter), Hugging Face or
ModelScope, chosen by :attr:`HubSearchPanel.scope`. With a hub chosen, Enter searches it (most
downloaded first, the page's format filter applied); results show downloads, likes and the last
update; "More results" fetches the next page; Cancel stops waiting. Opening a result lists its
files grouped by quantization with sizes (split GGUF parts summed), and "Add to my models"
registers a user family for it (the file ``tandem register`` writes), which then shows in the
family table. Every network call runs through the window's operations (``ops.query``), never on
the GUI thread, inside an :class:`~app.core.background.Abandonable`: Cancel, a newer request or
the window closing stops the wait at once (the request itself ends on its daemon thread, so a
slow hub never keeps the app's exit waiting). A hub that cannot be reached says so and leaves the
registry usable.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.background import Abandonable
from app.core.cache.errors import CacheError
from app.core.cache.remote_files import RemoteFile
from app.core.cancel import CancelToken
from app.core.catalog import search as hub_search
from app.core.registry import RegistryError
from app.core.units import human_bytes
from app.gui.models.family_model import FamilyModel
from app.gui.ops import Ops
from app.gui.widgets import InlineMessage

PAGE_SIZE = 20
SCOPE_REGISTRY = ""  # the catalog: every family the registry holds
SCOPE_MINE = "mine"  # the registry's families with something on disk


class _NumberItem(QTableWidgetItem):
    """Sorts by the number, shows it grouped."""

    def __init__(self, value: int) -> None:
        super().__init__(f"{value:,}")
        self.setData(Qt.ItemDataRole.UserRole, value)
        self.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

    def __lt__(self, other: QTableWidgetItem) -> bool:
        return int(self.data(Qt.ItemDataRole.UserRole) or 0) < int(other.data(Qt.ItemDataRole.UserRole) or 0)


class HubSearchPanel(QWidget):
    """Signals: ``familyAdded(str name)``, ``searchFinished()`` (a page arrived or failed),
    ``filesListed()`` (a result's files arrived or failed)."""

    familyAdded = Signal(str)
    searchFinished = Signal()
    filesListed = Signal()

    COLUMNS = 5

    def __init__(self, families: FamilyModel, parent: QWidget | None = None, ops: Ops | None = None) -> None:
        super().__init__(parent)
        self.families = families
        self._ops = ops
        self._requests: set[Abandonable[Any]] = set()  # until their call ends (cancelled ones too)
        self._tokens: set[CancelToken] = set()  # the waits in progress: Cancel stops them
        self._generation = 0  # a cancelled or superseded request's answer is ignored
        self._query: tuple[str, str, str | None] | None = None
        self._next: str | None = None
        self._files: dict[str, list[RemoteFile]] = {}
        self._opened: hub_search.SearchResult | None = None
        self._busy = False
        self._search_field: QLineEdit | None = None
        self._format: QComboBox | None = None
        self._registry_widgets: list[QWidget] = []
        self.endpoint: str | None = None  # None: HF_ENDPOINT / MODELSCOPE_ENDPOINT or the hub

        self.scope = QComboBox()  # shown in the page's filter row
        self.scope.setObjectName("searchScope")
        self.import_btn = QPushButton()  # shown in the page's filter row; app.gui.views.import_dialog

        root = QVBoxLayout(self)
        root.setContentsMargins(0, 0, 0, 0)
        self.message = InlineMessage()
        root.addWidget(self.message)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.setChildrenCollapsible(False)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        self.results = QTableWidget(0, self.COLUMNS)
        self.results.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.results.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.results.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.results.verticalHeader().hide()
        self.results.setShowGrid(False)
        self.results.setAlternatingRowColors(True)
        hh = self.results.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        ll.addWidget(self.results, 1)
        paging = QHBoxLayout()
        self.more_btn = QPushButton()
        self.cancel_btn = QPushButton()
        paging.addWidget(self.more_btn)
        paging.addStretch(1)
        paging.addWidget(self.cancel_btn)
        ll.addLayout(paging)
        split.addWidget(left)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        self.files = QTreeWidget()
        self.files.setColumnCount(2)
        self.files.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.files.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.files.header().setStretchLastSection(False)
        rl.addWidget(self.files, 1)
        self.add_btn = QPushButton()
        self.add_btn.setObjectName("primary")
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.add_btn)
        rl.addLayout(row)
        split.addWidget(right)
        root.addWidget(split, 1)

        self.scope.currentIndexChanged.connect(self._scope_changed)
        self.more_btn.clicked.connect(self.load_more)
        self.cancel_btn.clicked.connect(self.cancel)
        self.add_btn.clicked.connect(self.add_selected)
        self.results.itemSelectionChanged.connect(self._open_selected)
        self.retranslate()
        self._update_buttons()
        self.hide()

    # --- wiring into the page ---------------------------------------------------------------
    def attach(self, field: QLineEdit, fmt: QComboBox, registry_widgets: list[QWidget]) -> None:
        """Use the page's search field and format filter; hide ``registry_widgets`` (the family
        table and its registry-only filters) while a hub is searched."""
        self._search_field = field
        self._format = fmt
        self._registry_widgets = registry_widgets
        field.returnPressed.connect(self.search_from_field)

    @property
    def hub(self) -> str:
        data = str(self.scope.currentData() or SCOPE_REGISTRY)
        return SCOPE_REGISTRY if data == SCOPE_MINE else data

    @property
    def mine(self) -> bool:
        return bool(self.scope.currentData() == SCOPE_MINE)

    def _scope_changed(self) -> None:
        on_hub = self.hub != SCOPE_REGISTRY
        for w in self._registry_widgets:
            w.setVisible(not on_hub)
        self.setVisible(on_hub)
        if self._search_field is not None:
            self._search_field.setPlaceholderText(
                self.tr("Search {hub} (press Enter)").format(hub=self.scope.currentText())
                if on_hub
                else self.tr("Search models")
            )
        if on_hub and self._search_field is not None and self._search_field.text().strip():
            self.search_from_field()

    # --- searching --------------------------------------------------------------------------
    def search_from_field(self) -> None:
        if self.hub == SCOPE_REGISTRY or self._search_field is None:
            return
        fmt = (self._format.currentData() or None) if self._format is not None else None
        self.start_search(self.hub, self._search_field.text(), fmt)

    def start_search(self, hub: str, query: str, fmt: str | None = None) -> None:
        query = query.strip()
        if not query:
            self.message.show_message(self.tr("Type what to look for, then press Enter."), "info")
            return
        self._query = (hub, query, fmt)
        self._next = None
        self.results.setRowCount(0)
        self._clear_files()
        self._fetch(None)

    def load_more(self) -> None:
        if self._query is not None and self._next:
            self._fetch(self._next)

    def _fetch(self, cursor: str | None) -> None:
        assert self._query is not None
        hub, query, fmt = self._query
        self._generation += 1
        gen = self._generation
        endpoint = self.endpoint
        self._set_busy(True)
        self.message.show_message(self.tr("Searching {hub}…").format(hub=self._hub_name(hub)), "info")
        self._run(
            lambda: hub_search.search_page(hub, query, fmt, PAGE_SIZE, cursor, endpoint),
            lambda page: self._on_page(gen, page),
            lambda exc: self._on_failed(gen, exc, self.searchFinished),
        )

    def cancel(self) -> None:
        """Stop waiting for the request in flight (its answer, if it comes, is dropped)."""
        if not self._busy:
            return
        self._stop_waiting()
        self._generation += 1
        self._set_busy(False)
        self.message.show_message(self.tr("Search cancelled."), "info")
        self.searchFinished.emit()

    def _on_page(self, gen: int, page: hub_search.SearchPage) -> None:
        if gen != self._generation:
            return
        self._set_busy(False)
        self._next = page.next
        self.results.setSortingEnabled(False)
        for r in page.results:
            row = self.results.rowCount()
            self.results.insertRow(row)
            name = QTableWidgetItem(r.id)
            name.setData(Qt.ItemDataRole.UserRole, r)
            name.setToolTip(r.id)
            self.results.setItem(row, 0, name)
            self.results.setItem(row, 1, _NumberItem(r.downloads))
            self.results.setItem(row, 2, _NumberItem(r.likes))
            self.results.setItem(row, 3, QTableWidgetItem((r.last_modified or "")[:10]))
            self.results.setItem(row, 4, QTableWidgetItem(", ".join(f.upper() for f in r.formats)))
        if self.results.rowCount() == 0:
            self.message.show_message(self.tr("No models match this search."), "info")
        else:
            self.message.show_message(
                self.tr("{count} results; choose one to see its files.").format(
                    count=self.results.rowCount()
                ),
                "info",
            )
        self._update_buttons()
        self.searchFinished.emit()

    def _on_failed(self, gen: int, exc: BaseException, done: Any) -> None:
        if gen != self._generation:
            return
        self._set_busy(False)
        if isinstance(exc, CacheError) and exc.code == "network":
            self.message.show_message(
                self.tr("Search needs the network; your registry still works."), "warning"
            )
        else:
            self.message.show_message(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, "error")
        self._update_buttons()
        done.emit()

    # --- a result's files -------------------------------------------------------------------
    def result_at(self, row: int) -> hub_search.SearchResult | None:
        item = self.results.item(row, 0)
        value = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        return value if isinstance(value, hub_search.SearchResult) else None

    def _open_selected(self) -> None:
        rows = self.results.selectionModel().selectedRows()
        result = self.result_at(rows[0].row()) if rows else None
        if result is not None:
            self.open_result(result)

    def open_result(self, result: hub_search.SearchResult) -> None:
        self._opened = result
        self._clear_files()
        self._opened = result
        key = f"{result.hub}:{result.id}"
        if key in self._files:
            self._show_files(result, self._files[key])
            return
        self._generation += 1
        gen = self._generation
        endpoint = self.endpoint
        self._set_busy(True)
        self.message.show_message(self.tr("Listing the files of {repo}…").format(repo=result.id), "info")
        self._run(
            lambda: hub_search.repo_listing(result.hub, result.id, endpoint),
            lambda files: self._on_files(gen, result, files),
            lambda exc: self._on_failed(gen, exc, self.filesListed),
        )

    def _on_files(self, gen: int, result: hub_search.SearchResult, files: list[RemoteFile]) -> None:
        if gen != self._generation:
            return
        self._set_busy(False)
        self._files[f"{result.hub}:{result.id}"] = files
        self._show_files(result, files)

    def _show_files(self, result: hub_search.SearchResult, files: list[RemoteFile]) -> None:
        self.files.clear()
        groups = hub_search.gguf_groups(files)
        if groups:
            for g in groups:
                label = g.quant if g.quant != "other" else self.tr("Other GGUF files")
                top = QTreeWidgetItem([label, human_bytes(g.size_bytes)])
                top.setData(0, Qt.ItemDataRole.UserRole, g)
                for f in g.files:
                    child = QTreeWidgetItem([f.name, human_bytes(f.size_bytes)])
                    if len(f.parts) > 1:
                        tip = self.tr("{n} parts: {names}").format(n=len(f.parts), names=", ".join(f.parts))
                        child.setToolTip(0, tip)
                    top.addChild(child)
                self.files.addTopLevelItem(top)
        else:
            weights = sum(f.size for f in files if f.path.endswith(".safetensors"))
            top = QTreeWidgetItem([hub_search.mlx_quant(result.id), human_bytes(weights)])
            for rf in files:
                top.addChild(QTreeWidgetItem([rf.path, human_bytes(rf.size)]))
            self.files.addTopLevelItem(top)
        if self.files.topLevelItemCount() <= 3:
            self.files.expandAll()
        self.message.show_message(
            self.tr("{repo}: {n} files. Add it to your models to download and launch it.").format(
                repo=result.id, n=len(files)
            ),
            "info",
        )
        self._update_buttons()
        self.filesListed.emit()

    def _clear_files(self) -> None:
        self._opened = None
        self.files.clear()
        self._update_buttons()

    # --- adding -----------------------------------------------------------------------------
    def add_selected(self) -> str | None:
        """Register the opened result as a user family; its name, or None when refused."""
        result = self._opened
        files = self._files.get(f"{result.hub}:{result.id}") if result else None
        if result is None or files is None:
            return None
        registry = self.families.registry
        fmt = self._format.currentData() if self._format is not None else None
        try:
            data = hub_search.family_from_repo(result.hub, result.id, files, registry, fmt=fmt or None)
            fam = hub_search.add_to_registry(registry, data)
        except (CacheError, RegistryError, ValueError) as exc:
            self.message.show_message(self.tr("Could not add it: {reason}").format(reason=exc), "error")
            return None
        self.families.set_registry(registry)
        self.message.show_message(self.tr("Added {name} to your models.").format(name=fam.name), "success")
        self.familyAdded.emit(fam.name)
        return fam.name

    # --- state ------------------------------------------------------------------------------
    def _set_busy(self, busy: bool) -> None:
        self._busy = busy
        self._update_buttons()

    def _update_buttons(self) -> None:
        self.cancel_btn.setVisible(self._busy)
        self.more_btn.setEnabled(bool(self._next) and not self._busy)
        key = f"{self._opened.hub}:{self._opened.id}" if self._opened else ""
        self.add_btn.setEnabled(bool(key in self._files and not self._busy))

    def _hub_name(self, hub: str) -> str:
        return {"huggingface": "Hugging Face", "modelscope": "ModelScope"}.get(hub, hub)

    def _run(self, fn: Any, ok: Any, fail: Any) -> None:
        """``fn`` through the window's operations, off the GUI thread; a newer request or Cancel
        stops waiting for the older one, and so does the window closing (``ops.shutdown``)."""
        ops = self._ops
        if ops is None or ops.closed:
            return
        self._stop_waiting()  # the latest request wins
        token = CancelToken()
        call: Abandonable[Any] = Abandonable(fn, "tandem-hub-request")
        self._tokens.add(token)
        self._requests = {r for r in self._requests if r.alive}
        self._requests.add(call)

        def work() -> Any:
            return call.wait(lambda: token.cancelled or ops.closed)

        def succeeded(value: Any) -> None:
            self._tokens.discard(token)
            ok(value)

        def failed(exc: BaseException) -> None:
            self._tokens.discard(token)
            fail(exc)

        ops.query(work, parent=self).success(succeeded).failure(failed).run()

    def _stop_waiting(self) -> None:
        for token in self._tokens:
            token.cancel()
        self._tokens.clear()

    def in_flight(self) -> bool:
        """A request is still running (cancelled ones included, until they end)."""
        return any(r.alive for r in self._requests)

    # --- i18n -------------------------------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        current = self.scope.currentData()
        blocked = self.scope.blockSignals(True)
        self.scope.clear()
        self.scope.addItem(self.tr("Catalog"), SCOPE_REGISTRY)
        self.scope.addItem(self.tr("My models"), SCOPE_MINE)
        self.scope.addItem("Hugging Face", "huggingface")
        self.scope.addItem("ModelScope", "modelscope")
        self.scope.setCurrentIndex(max(0, self.scope.findData(current)))
        self.scope.setToolTip(
            self.tr("Where the search field looks: the catalog, the models on this computer, or a hub")
        )
        self.scope.blockSignals(blocked)
        self.results.setHorizontalHeaderLabels(
            [self.tr("Model"), self.tr("Downloads"), self.tr("Likes"), self.tr("Updated"), self.tr("Formats")]
        )
        self.files.setHeaderLabels([self.tr("Quantization / file"), self.tr("Size")])
        self.more_btn.setText(self.tr("More results"))
        self.cancel_btn.setText(self.tr("Cancel"))
        self.add_btn.setText(self.tr("Add to my models"))
        self.import_btn.setText(self.tr("Import model…"))
        self.import_btn.setToolTip(
            self.tr("Add a .gguf file or an MLX folder from this computer (or drop it on the window)")
        )
