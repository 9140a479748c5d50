"""Model browser: searchable, filterable family table; the selected family's variants and markers."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QItemSelection, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QStyle,
    QTableView,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from app.core.registry import AnySpec, Family, InvalidEntry
from app.gui.models.registry_model import FamilyFilterProxy, FamilyModel, Node, Roles, SpecTreeModel
from app.gui.widgets import InlineMessage


class BrowserPage(QWidget):
    """Signals: ``launchRequested(Family, spec, str quant)``,
    ``downloadRequested(Family, spec, str role, str quant, object draft_quant)``,
    ``deleteRequested(Family, spec, str quant)``."""

    launchRequested = Signal(object, object, str)
    downloadRequested = Signal(object, object, str, str, object)
    deleteRequested = Signal(object, object, str)

    def __init__(self, families: FamilyModel, specs: SpecTreeModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.families = families
        self.specs = specs
        self.proxy = FamilyFilterProxy(self)
        self.proxy.setSourceModel(families)

        root = QVBoxLayout(self)
        root.setContentsMargins(16, 14, 16, 12)
        root.setSpacing(10)
        self.title = QLabel()
        self.title.setObjectName("pageTitle")
        root.addWidget(self.title)

        filters = QHBoxLayout()
        filters.setSpacing(8)
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        self.search.addAction(
            self.style().standardIcon(QStyle.StandardPixmap.SP_FileDialogContentsView),
            QLineEdit.ActionPosition.LeadingPosition,
        )
        self.format = QComboBox()
        self.size_filter = QComboBox()
        self.drafter_only = QCheckBox()
        self.downloaded_only = QCheckBox()
        filters.addWidget(self.search, 3)
        filters.addWidget(self.format, 1)
        filters.addWidget(self.size_filter, 1)
        filters.addWidget(self.drafter_only)
        filters.addWidget(self.downloaded_only)
        root.addLayout(filters)

        split = QSplitter(Qt.Orientation.Horizontal)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        self.table.verticalHeader().hide()
        self.table.setShowGrid(False)
        hh = self.table.horizontalHeader()
        for c in range(families.columnCount()):
            hh.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)  # sizes: the only long column
        split.addWidget(self.table)

        detail = QFrame()
        detail.setObjectName("card")
        dl = QVBoxLayout(detail)
        dl.setContentsMargins(14, 12, 14, 12)
        dl.setSpacing(8)
        self.name = QLabel()
        self.name.setObjectName("sectionTitle")
        self.description = QLabel()
        self.description.setWordWrap(True)
        self.description.setProperty("muted", True)
        self.invalid = InlineMessage()
        self.tree = QTreeView()
        self.tree.setModel(specs)
        self.tree.setUniformRowHeights(True)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.header().setStretchLastSection(False)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setProperty("muted", True)
        actions = QHBoxLayout()
        st = self.style()
        self.download_btn = QPushButton(st.standardIcon(QStyle.StandardPixmap.SP_ArrowDown), "")
        self.with_drafter = QCheckBox()
        self.delete_btn = QPushButton(st.standardIcon(QStyle.StandardPixmap.SP_TrashIcon), "")
        self.delete_btn.setObjectName("danger")
        self.launch_btn = QPushButton(st.standardIcon(QStyle.StandardPixmap.SP_MediaPlay), "")
        self.launch_btn.setObjectName("primary")
        actions.addWidget(self.download_btn)
        actions.addWidget(self.with_drafter)
        actions.addStretch(1)
        actions.addWidget(self.delete_btn)
        actions.addWidget(self.launch_btn)
        for w in (self.name, self.description, self.invalid):
            dl.addWidget(w)
        dl.addWidget(self.tree, 1)
        dl.addWidget(self.hint)
        dl.addLayout(actions)
        split.addWidget(detail)
        split.setStretchFactor(0, 5)
        split.setStretchFactor(1, 6)
        root.addWidget(split, 1)

        self.search.textChanged.connect(lambda t: self.proxy.set_filters(text=t.strip()))
        self.format.currentIndexChanged.connect(
            lambda: self.proxy.set_filters(format=self.format.currentData() or "")
        )
        self.size_filter.currentIndexChanged.connect(
            lambda: self.proxy.set_filters(size_bucket=self.size_filter.currentData() or "")
        )
        self.drafter_only.toggled.connect(lambda on: self.proxy.set_filters(drafter_only=on))
        self.downloaded_only.toggled.connect(lambda on: self.proxy.set_filters(downloaded_only=on))
        self.table.selectionModel().selectionChanged.connect(self._on_family_selected)
        self.tree.selectionModel().selectionChanged.connect(self._update_actions)
        specs.modelReset.connect(self._after_specs_reset)
        self.download_btn.clicked.connect(self._download)
        self.delete_btn.clicked.connect(self._delete)
        self.launch_btn.clicked.connect(self._launch)
        self.tree.doubleClicked.connect(lambda _i: self._launch())
        self.retranslate()
        self._update_actions()

    # --- selection ----------------------------------------------------------------------------
    def select_family(self, name: str) -> None:
        row = self.families.row_of(name)
        if row < 0:
            return
        index = self.proxy.mapFromSource(self.families.index(row, 0))
        if index.isValid():
            self.table.selectRow(index.row())

    def current_entry(self) -> Family | InvalidEntry | None:
        rows = self.table.selectionModel().selectedRows()
        return self.proxy.data(rows[0], Roles.Entry) if rows else None

    def current_node(self) -> Node | None:
        rows = self.tree.selectionModel().selectedRows()
        return self.specs.data(rows[0], Roles.Node) if rows else None

    def _on_family_selected(self, _sel: QItemSelection, _desel: QItemSelection) -> None:
        entry = self.current_entry()
        if isinstance(entry, InvalidEntry):
            self.specs.set_family(None)
            self.name.setText(entry.name)
            self.description.setText(entry.source)
            self.invalid.show_message(
                self.tr("This entry is invalid and was skipped: {reason}").format(reason=entry.reason),
                "error",
            )
        elif isinstance(entry, Family):
            self.invalid.clear_message()
            self.name.setText(entry.name)
            self.description.setText(entry.description)
            self.specs.set_family(entry)
        else:
            self.specs.set_family(None)
            self.name.setText("")
            self.description.setText("")
        self._update_actions()

    def _after_specs_reset(self) -> None:
        # The first variant open (with its model and drafter groups), the others folded.
        first = self.specs.index(0, 0)
        if first.isValid():
            self.tree.expandRecursively(first)
        # Select the first target quantization so the actions have something to act on.
        if self.specs.rowCount() and not self.tree.selectionModel().hasSelection():
            spec_index = self.specs.index(0, 0)
            group = self.specs.index(0, 0, spec_index)
            first = self.specs.index(0, 0, group)
            if first.isValid():
                self.tree.setCurrentIndex(first)
        self._update_actions()

    def _selected_target(self) -> tuple[Family, AnySpec, Node] | None:
        fam = self.specs.family
        node = self.current_node()
        if fam is None or node is None or node.spec is None:
            return None
        return fam, node.spec, node

    def _quant_for(self, node: Node) -> str:
        assert node.spec is not None
        if node.kind == "quant" and node.role == "target" and node.quant:
            return node.quant
        return node.spec.quantizations[0]

    def _update_actions(self, *_args: object) -> None:
        sel = self._selected_target()
        has = sel is not None
        node = sel[2] if sel else None
        self.launch_btn.setEnabled(has)
        self.download_btn.setEnabled(bool(node and node.kind == "quant" and node.status != "cached"))
        self.delete_btn.setEnabled(
            bool(
                node
                and node.kind == "quant"
                and node.role == "target"
                and node.status != "absent"
                and node.spec is not None
                and node.spec.sources.hubs()
            )
        )
        self.with_drafter.setVisible(
            bool(node and node.spec is not None and node.spec.declares_drafter() and node.role == "target")
        )

    # --- actions ------------------------------------------------------------------------------
    def _download(self) -> None:
        sel = self._selected_target()
        if sel is None:
            return
        fam, spec, node = sel
        if node.role == "drafter":
            self.downloadRequested.emit(fam, spec, "drafter", spec.quantizations[0], node.quant)
            return
        quant = self._quant_for(node)
        self.downloadRequested.emit(fam, spec, "target", quant, None)
        if self.with_drafter.isVisible() and self.with_drafter.isChecked():
            from app.gui.views.launch_dialog import ordered_draft_quants

            dqs = ordered_draft_quants(spec.draft_quantizations())
            self.downloadRequested.emit(fam, spec, "drafter", quant, dqs[0] if dqs else None)

    def _delete(self) -> None:
        sel = self._selected_target()
        if sel is not None:
            fam, spec, node = sel
            self.deleteRequested.emit(fam, spec, self._quant_for(node))

    def _launch(self) -> None:
        sel = self._selected_target()
        if sel is not None:
            fam, spec, node = sel
            self.launchRequested.emit(fam, spec, self._quant_for(node))

    # --- i18n ---------------------------------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        self.title.setText(self.tr("Models"))
        self.search.setPlaceholderText(self.tr("Search models"))
        self._fill_combo(self.format, [("", self.tr("All formats")), ("gguf", "GGUF"), ("mlx", "MLX")])
        self._fill_combo(
            self.size_filter,
            [
                ("", self.tr("All sizes")),
                ("tiny", self.tr("Under 1B")),
                ("small", self.tr("1B to 5B")),
                ("medium", self.tr("5B to 15B")),
                ("large", self.tr("Over 15B")),
            ],
        )
        self.drafter_only.setText(self.tr("Has drafter"))
        self.drafter_only.setToolTip(self.tr("Only models that declare a drafter for speculative decoding"))
        self.downloaded_only.setText(self.tr("Downloaded"))
        self.download_btn.setText(self.tr("Download"))
        self.with_drafter.setText(self.tr("with its drafter"))
        self.with_drafter.setToolTip(self.tr("Also download the recommended drafter quantization"))
        self.delete_btn.setText(self.tr("Delete"))
        self.launch_btn.setText(self.tr("Launch…"))
        self.hint.setText(self.tr("● downloaded   ◐ partly downloaded   ○ not downloaded"))
        self.families.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.families.columnCount() - 1)
        self.tree.viewport().update()
        self.tree.header().viewport().update()

    @staticmethod
    def _fill_combo(combo: QComboBox, items: list[tuple[str, str]]) -> None:
        current = combo.currentData()
        blocked = combo.blockSignals(True)
        combo.clear()
        for data, text in items:
            combo.addItem(text, data)
        combo.setCurrentIndex(max(0, combo.findData(current)))
        combo.blockSignals(blocked)
