"""Model browser: searchable, filterable family table; the selected family's variants and markers."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QItemSelection,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QIcon, QPainter, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
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
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from app.core.cache.usage import DiskUse
from app.core.registry import AnySpec, Family, InvalidEntry
from app.core.registry.abilities import LISTED
from app.core.settings import Settings
from app.gui import icons
from app.gui.models.family_model import FamilyModel, Roles
from app.gui.models.my_models import MyModelsProxy, family_abilities
from app.gui.models.registry_texts import (
    disk_use_help,
    disk_use_text,
    family_description,
    fit_tooltip,
    status_text,
    verdict_text,
)
from app.gui.models.spec_tree import Node, SpecTreeModel
from app.gui.ops import Ops
from app.gui.widgets import InlineMessage

COL_NAME, COL_FORMATS, COL_SIZES, COL_DRAFTER, COL_DOWNLOADED, COL_DISK = range(6)
#: The detail card repaints at most this often while the selection changes (about 30 frames/s).
FRAME_MS = 33


class MarkerDelegate(QStyledItemDelegate):
    """Draws the icon-only Downloaded cell with its dot centred, like the centred check marks."""

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        icon = QIcon(opt.icon)
        opt.icon = QIcon()
        opt.features &= ~QStyleOptionViewItem.ViewItemFeature.HasDecoration
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect = QStyle.alignedRect(opt.direction, Qt.AlignmentFlag.AlignCenter, opt.decorationSize, opt.rect)
        icon.paint(painter, rect)


class CompactHeader(QHeaderView):
    """A header that keeps room for the sort arrow only in the sorted section.

    QHeaderView widens every section by the arrow's width once sorting is enabled; for the short
    marker columns that is a third of their width, and enough to push the table past its pane.
    """

    def sectionSizeFromContents(self, logicalIndex: int) -> QSize:
        size = super().sectionSizeFromContents(logicalIndex)
        if self.isSortIndicatorShown() and logicalIndex != self.sortIndicatorSection():
            style = self.style()
            arrow = style.pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize, None, self)
            margin = style.pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, self)
            size.setWidth(max(size.width() - arrow - margin, self.minimumSectionSize()))
        return size


def _unbroken(text: str) -> str:
    """``text`` with a word joiner between two characters where one is Chinese, Japanese or
    Korean: Qt breaks a line between any two of those, even under ``white-space:nowrap``."""
    out = []
    for a, b in zip(text, text[1:] + " ", strict=True):
        out.append(a)
        if not a.isspace() and not b.isspace() and max(ord(a), ord(b)) >= 0x2E80:
            out.append("\u2060")
    return "".join(out)


class BrowserPage(QWidget):
    """Signals: ``launchRequested(Family, spec, str quant)``,
    ``downloadRequested(Family, spec, str role, str quant, object draft_quant)``,
    ``deleteRequested(Family, spec, str quant)``, ``refreshRequested(Family, spec)`` (read the
    quantizations the spec's repositories hold from their listings)."""

    launchRequested = Signal(object, object, str)
    downloadRequested = Signal(object, object, str, str, object)
    deleteRequested = Signal(object, object, str)
    refreshRequested = Signal(object, object)

    def __init__(
        self,
        families: FamilyModel,
        specs: SpecTreeModel,
        parent: QWidget | None = None,
        ops: Ops | None = None,
        context_length: Callable[[], int] | None = None,
        settings: Callable[[], Settings] | None = None,
        persist: Callable[[], None] | None = None,
    ) -> None:
        """``ops``: runs the memory verdicts and the hub searches off the GUI thread;
        ``context_length()``: the settings' context length the verdicts are computed for;
        ``settings()`` / ``persist()``: where the "with its drafter" choice is kept."""
        super().__init__(parent)
        self._settings = settings
        self._persist = persist
        self.families = families
        self.specs = specs
        if ops is not None:
            specs.enable_fit(ops, context_length or (lambda: 4096))
        self.proxy = MyModelsProxy(families.cache, self)
        self.proxy.setSourceModel(families)

        root = QVBoxLayout(self)
        root.setContentsMargins(16, 14, 16, 12)
        root.setSpacing(10)
        self.title = QLabel()
        self.title.setObjectName("pageTitle")
        root.addWidget(self.title)

        # Two rows: where and what to search (scope, search field, import) above the catalog's
        # filters. On one row the filters took the field's room and left "Se…" at 1280 px.
        filters = QHBoxLayout()
        filters.setSpacing(8)
        narrow = QHBoxLayout()
        narrow.setSpacing(8)
        self.search = QLineEdit()
        self.search.setMinimumWidth(220)
        self.search.setClearButtonEnabled(True)
        self.search.addAction(icons.icon("search", icons.DISABLED), QLineEdit.ActionPosition.LeadingPosition)
        self.format = QComboBox()
        self.size_filter = QComboBox()
        for combo in (self.format, self.size_filter):  # wide enough in every language, after a switch too
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.drafter_only = QCheckBox()
        self.downloaded_only = QCheckBox()
        self.vision_only = QCheckBox()
        self.tools_only = QCheckBox()
        filters.addWidget(self.search, 1)
        narrow.addWidget(self.format)  # as wide as their texts in the current language
        narrow.addWidget(self.size_filter)
        for box in (self.drafter_only, self.downloaded_only, self.vision_only, self.tools_only):
            narrow.addSpacing(4)
            narrow.addWidget(box)
        narrow.addStretch(1)
        root.addLayout(filters)
        root.addLayout(narrow)

        self.split = split = QSplitter(Qt.Orientation.Horizontal)
        split.setChildrenCollapsible(False)
        self.table = QTableView()
        self.table.setHorizontalHeader(CompactHeader(Qt.Orientation.Horizontal, self.table))
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        self.table.verticalHeader().hide()
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        # Only the Downloaded cells need it; the other columns paint natively (no Python per cell).
        self.table.setItemDelegateForColumn(COL_DOWNLOADED, MarkerDelegate(self.table))
        self.table.setMinimumWidth(320)
        self.table.setColumnHidden(COL_DISK, True)  # shown in the "My models" scope
        # Short columns fit their contents; the name gets its width up to a share of the table
        # (long user family names elide, the tooltip has the description); the sizes list takes
        # what is left and elides (its tooltip lists them all). So the table never needs a
        # horizontal scrollbar at the default window size, whatever the language.
        hh = self.table.horizontalHeader()
        hh.setMinimumSectionSize(28)
        hh.setStretchLastSection(False)
        # The short columns are sized to their contents when rows come or go, the language changes
        # or the table resizes, not by ResizeToContents: that measured all 50 rows on every status
        # change and selection (most of a frame while walking the list browser case).
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        hh.setSectionResizeMode(COL_NAME, QHeaderView.ResizeMode.Interactive)
        hh.setSectionResizeMode(COL_SIZES, QHeaderView.ResizeMode.Stretch)
        hh.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.table.viewport().installEventFilter(self)
        for sig in (self.proxy.modelReset, self.proxy.rowsInserted, self.proxy.rowsRemoved):
            sig.connect(self._fit_columns)
        self.proxy.headerDataChanged.connect(self._fit_columns)
        listing = QWidget()  # the table, and under it in "My models" the disk they use together
        ll = QVBoxLayout(listing)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.setSpacing(4)
        ll.addWidget(self.table, 1)
        self.disk_total = QLabel()
        self.disk_total.setProperty("muted", True)
        self.disk_total.hide()
        ll.addWidget(self.disk_total)
        split.addWidget(listing)

        detail = QFrame()
        detail.setObjectName("card")
        dl = QVBoxLayout(detail)
        dl.setContentsMargins(14, 12, 14, 12)
        dl.setSpacing(8)
        self.name = QLabel()
        self.name.setObjectName("sectionTitle")
        self.description = QLabel()
        self.description.setWordWrap(True)
        self.description.setTextFormat(Qt.TextFormat.PlainText)  # a user's text, never markup
        self.description.setProperty("muted", True)
        self.invalid = InlineMessage()
        self.tree = QTreeView()
        self.tree.setModel(specs)
        self.tree.setUniformRowHeights(True)
        self.tree.setIndentation(14)  # three levels deep: room for the variant names and their tags
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # Status and memory columns are as wide as their longest possible text in this language
        # and font (_size_tree_columns), not ResizeToContents: that measured every row again on
        # each status or verdict that arrived and repainted the whole tree (browser case).
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        self.tree.header().setSectionResizeMode(2, QHeaderView.ResizeMode.Fixed)
        self.tree.header().setStretchLastSection(False)
        # Room after the status text, which otherwise touches the scrollbar (CJK glyphs got clipped).
        self.tree.setStyleSheet("QTreeView::item { padding-right: 8px; }")
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setProperty("muted", True)
        actions = QHBoxLayout()
        self.download_btn = QPushButton(icons.icon("download"), "")
        self.refresh_btn = QPushButton(icons.icon("refresh"), "")
        self.with_drafter = QCheckBox()
        self.with_drafter.setChecked(settings().download_drafter_with_target if settings else True)
        self.with_drafter.toggled.connect(self._remember_pair)
        self.delete_btn = QPushButton(icons.icon("trash", icons.DANGER), "")
        self.delete_btn.setObjectName("danger")
        self.launch_btn = QPushButton(icons.icon("play", icons.ON_PRIMARY, disabled=icons.ON_PRIMARY), "")
        self.launch_btn.setObjectName("primary")
        actions.addWidget(self.download_btn)
        actions.addWidget(self.with_drafter)
        actions.addStretch(1)
        actions.addWidget(self.delete_btn)
        actions.addWidget(self.launch_btn)
        self.notice = InlineMessage()  # the outcome of the last delete
        # what the selected model can do, as badges (the registry's abilities and context)
        self.badges = QLabel()
        self.badges.setTextFormat(Qt.TextFormat.RichText)
        self.badges.setWordWrap(True)
        for w in (self.name, self.description, self.badges, self.invalid):
            dl.addWidget(w)
        dl.addWidget(self.tree, 1)
        legend = QHBoxLayout()  # the markers' legend, and the refresh of the tree's quantizations
        legend.addWidget(self.hint, 1)
        self.refresh_btn.setFlat(True)
        legend.addWidget(self.refresh_btn, 0, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        dl.addLayout(legend)
        self.fit_label = QLabel()  # the selected quantization's memory verdict
        self.fit_label.setWordWrap(True)
        dl.addWidget(self.fit_label)
        dl.addWidget(self.notice)
        dl.addLayout(actions)
        detail.setMinimumWidth(360)
        split.addWidget(detail)
        self.detail = detail
        # One repaint of the detail card per frame while the selection walks (arrow key held):
        # a selection, then its memory verdicts and status probes arriving from their workers,
        # each repainted the whole card (browser case).
        self._paint_gate = QTimer(self)
        self._paint_gate.setSingleShot(True)
        self._paint_gate.setInterval(FRAME_MS)
        self._paint_gate.timeout.connect(lambda: self.detail.setUpdatesEnabled(True))
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        self._split_initialised = False
        root.addWidget(split, 1)
        # hub search: the search field can also look in Hugging Face or ModelScope
        from app.gui.views.hub_search import HubSearchPanel

        self.hub_search = HubSearchPanel(families, self, ops=ops)
        filters.insertWidget(0, self.hub_search.scope)
        root.addWidget(self.hub_search, 1)
        registry_only = [
            split,
            self.size_filter,
            self.drafter_only,
            self.downloaded_only,
            self.vision_only,
            self.tools_only,
        ]
        self.hub_search.attach(self.search, self.format, registry_only)
        self.hub_search.familyAdded.connect(self.select_family)
        self.hub_search.scope.currentIndexChanged.connect(self._on_scope)
        for sig in (self.proxy.modelReset, self.proxy.rowsInserted, self.proxy.rowsRemoved):
            sig.connect(self._measure_disk_use)
        self.proxy.layoutChanged.connect(self._measure_disk_use)
        families.cache.diskUseChanged.connect(self._show_disk_total)
        filters.addWidget(self.hub_search.import_btn)

        self.search.textChanged.connect(lambda t: self.proxy.set_filters(text=t.strip()))
        self.format.currentIndexChanged.connect(
            lambda: self.proxy.set_filters(format=self.format.currentData() or "")
        )
        self.size_filter.currentIndexChanged.connect(
            lambda: self.proxy.set_filters(size_bucket=self.size_filter.currentData() or "")
        )
        self.drafter_only.toggled.connect(lambda on: self.proxy.set_filters(drafter_only=on))
        self.downloaded_only.toggled.connect(lambda on: self.proxy.set_filters(downloaded_only=on))
        self.vision_only.toggled.connect(lambda on: self.proxy.set_filters(needs_vision=on))
        self.tools_only.toggled.connect(lambda on: self.proxy.set_filters(needs_tools=on))
        self.table.selectionModel().selectionChanged.connect(self._on_family_selected)
        self.tree.selectionModel().selectionChanged.connect(self._update_actions)
        specs.modelReset.connect(self._after_specs_reset)
        specs.dataChanged.connect(self._update_actions)  # markers arrive from background probes
        self.download_btn.clicked.connect(self._download)
        self.delete_btn.clicked.connect(self._delete)
        self.refresh_btn.clicked.connect(self._refresh)
        self.launch_btn.clicked.connect(self._launch)
        self.tree.doubleClicked.connect(lambda _i: self._launch())
        self.retranslate()
        self._update_actions()

    # --- layout -------------------------------------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._split_initialised and self.split.width() > 0:
            # First show: about half for the table, the rest for the variants and their markers.
            self._split_initialised = True
            total = self.split.width() - self.split.handleWidth()
            self.split.setSizes([total * 44 // 100, total - total * 44 // 100])
        self._fit_columns()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.table.viewport() and event.type() == QEvent.Type.Resize:
            self._fit_columns()
        return super().eventFilter(watched, event)

    # --- "My models": the disk they use -----------------------------------------------------
    def _on_scope(self) -> None:
        mine = self.hub_search.mine
        self.proxy.set_filters(mine_only=mine)
        self.table.setColumnHidden(COL_DISK, not mine)
        self.disk_total.setVisible(mine and self.split.isVisibleTo(self))
        self._measure_disk_use()
        self._fit_columns()

    def _shown_families(self) -> list[Family]:
        rows = (self.proxy.data(self.proxy.index(r, 0), Roles.Entry) for r in range(self.proxy.rowCount()))
        return [e for e in rows if isinstance(e, Family)]

    def _measure_disk_use(self, *_args: object) -> None:
        """Ask the cache for the disk use of the families "My models" shows (measured on a
        worker; the column and the total fill in when it answers)."""
        if not self.proxy.mine_only:
            return
        for fam in self._shown_families():
            self.families.cache.disk_use(fam)
        self._show_disk_total()

    def _show_disk_total(self) -> None:
        if not self.proxy.mine_only:
            return
        cache = self.families.cache
        shown = self._shown_families()
        uses = [cache.known_disk_use(f.name) for f in shown]
        known = [u for u in uses if u is not None]
        total = DiskUse.combine(known)
        size = disk_use_text(total.bytes, total.partial_bytes)
        text = self.tr("Together: {size}").format(size=size) if shown else ""
        self.disk_total.setText(text if len(known) == len(shown) else text + " …")
        self.disk_total.setToolTip(disk_use_help())
        self._fit_columns()

    def _fit_columns(self, *_args: object) -> None:
        """Short columns: their contents. Name column: its contents, capped at 40 % of the table so
        the sizes keep some room."""
        header = self.table.horizontalHeader()
        for col in (COL_FORMATS, COL_DRAFTER, COL_DOWNLOADED, COL_DISK):
            if self.table.isColumnHidden(col):
                continue
            width = max(self.table.sizeHintForColumn(col), header.sectionSizeHint(col))
            if header.sectionSize(col) != width:
                self.table.setColumnWidth(col, width)
        available = self.table.viewport().width()
        if available <= 0:
            return
        wanted = max(self.table.sizeHintForColumn(COL_NAME), header.sectionSizeHint(COL_NAME))
        # the sizes keep at least their title and one size with its ellipsis ("135M, …"): in a
        # language with a long "Drafter" title the name took the rest and sizes read "13…"
        metrics = self.table.fontMetrics()
        sizes_min = max(header.sectionSizeHint(COL_SIZES), metrics.horizontalAdvance("999M, …") + 16)
        short = sum(
            header.sectionSize(col)
            for col in (COL_FORMATS, COL_DRAFTER, COL_DOWNLOADED, COL_DISK)
            if not self.table.isColumnHidden(col)
        )
        room = available - short - sizes_min
        # the catalog's sizes lists are long and keep 60 %; "My models" lists few, short ones
        cap = room if self.proxy.mine_only else available * 40 // 100
        self.table.setColumnWidth(COL_NAME, max(80, min(wanted + 12, cap, room)))

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
        if not self._paint_gate.isActive() and self.detail.isVisible():
            self.detail.setUpdatesEnabled(False)
            self._paint_gate.start()
        entry = self.current_entry()
        self.notice.clear_message()
        if isinstance(entry, InvalidEntry):
            self.specs.set_family(None)
            self.name.setText(entry.name)
            self.description.setText(entry.source)
            self.badges.setText("")
            self.invalid.show_message(
                self.tr("This entry is invalid and was skipped: {reason}").format(reason=entry.reason),
                "error",
            )
        elif isinstance(entry, Family):
            self.invalid.clear_message()
            self.name.setText(entry.name)
            self.description.setText(family_description(entry))
            self.badges.setText(self._badge_text(entry))
            self.specs.set_family(entry)
        else:
            self.specs.set_family(None)
            self.name.setText("")
            self.description.setText("")
            self.badges.setText("")
        self._update_actions()

    def _badge_text(self, family: Family) -> str:
        names = {
            "chat": self.tr("Chat"),
            "generate": self.tr("Continues text (base model)"),
            "vision": self.tr("Reads images"),
            "tools": self.tr("Calls tools"),
            "reasoning": self.tr("Reasoning"),
            "mtp-heads": self.tr("Built-in MTP heads"),
        }
        have = family_abilities(family)
        parts = [names[a] for a in LISTED if a in have]
        parts.append(self.tr("{tokens} tokens of context").format(tokens=f"{family.context_length:,}"))
        # a badge never breaks inside itself (the context's "262,144 tokens" wrapped onto two lines)
        badge = (
            '<span style="background-color:#e3ecf8; color:#1d3a5f; white-space:nowrap;">&nbsp;{}&nbsp;</span>'
        )
        return " ".join(badge.format(html.escape(_unbroken(p))) for p in parts)

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
        spec = node.spec if node is not None else None
        self.refresh_btn.setEnabled(bool(spec is not None and spec.format == "gguf" and spec.sources.hubs()))
        # "unknown": the marker's probe still runs; both wait for it
        self.download_btn.setEnabled(
            bool(node and node.kind == "quant" and node.status not in ("cached", "unknown"))
        )
        self.delete_btn.setEnabled(
            bool(
                node
                and node.kind == "quant"
                and node.role == "target"
                and node.status not in ("absent", "unknown")
                and node.spec is not None
                and node.spec.sources.hubs()
            )
        )
        self.with_drafter.setVisible(
            bool(node and node.spec is not None and node.spec.declares_drafter() and node.role == "target")
        )
        self._show_fit(sel)

    # --- memory fit -------------------------------------------------------------
    def _show_fit(self, sel: tuple[Family, AnySpec, Node] | None) -> None:
        """The selected quantization's verdict and the spec's recommendation, from the verdicts
        the variant tree computed on a worker (never a file read here); numbers on hover."""
        node = sel[2] if sel is not None else None
        est = self.specs.fit_estimate(node) if node is not None else None
        if node is None or est is None:
            self.fit_label.clear()
            self.fit_label.setToolTip("")
            return
        lines = [self.tr("{verdict} at {ctx} tokens").format(verdict=self._verdict(est.verdict), ctx=est.ctx)]
        best = self.specs.recommended(self.specs.spec_row(node))
        if best:
            lines.append(self.tr("Largest quantization that fits: {quant}").format(quant=best))
        self.fit_label.setText("\n".join(lines))
        self.fit_label.setToolTip(fit_tooltip(est, best == node.quant))

    def _verdict(self, verdict: str) -> str:
        return {
            "fits": self.tr("Fits in memory"),
            "tight": self.tr("Tight: it needs most of the free memory"),
            "too-large": self.tr("Too large for this machine's free memory"),
            "unknown": self.tr("Memory need unknown"),
        }.get(verdict, verdict_text(verdict))

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

    def _remember_pair(self, on: bool) -> None:
        if self._settings is None:
            return
        self._settings().download_drafter_with_target = on
        if self._persist is not None:
            self._persist()

    def _refresh(self) -> None:
        sel = self._selected_target()
        if sel is not None:
            fam, spec, _node = sel
            self.refreshRequested.emit(fam, spec)

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
        elif event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._size_tree_columns()
        super().changeEvent(event)

    def _size_tree_columns(self) -> None:
        """Fixed widths for the tree's status and memory columns: the widest text each can show."""
        metrics = self.tree.fontMetrics()
        style = self.tree.style()
        margin = 2 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self.tree) + 1)
        pad = margin + 8 + 6  # the delegate's margins, the stylesheet's padding-right, a little air
        statuses = [status_text(s) for s in ("cached", "partial", "absent", "unknown")]
        statuses.append(QCoreApplication.translate("RegistryModel", "with drafter"))
        statuses.append(QCoreApplication.translate("RegistryModel", "built-in MTP"))
        size = " · ≈888.8 GB"  # the widest file size shown beside a verdict
        verdicts = [f"★ {verdict_text(v)}{size}" for v in ("fits", "tight", "too-large", "unknown")] + [
            "…",
            "?",
        ]
        header = self.tree.header()
        for col, texts in ((1, statuses), (2, verdicts)):
            widest = max(metrics.horizontalAdvance(t) for t in texts) + pad
            header.resizeSection(col, max(widest, header.sectionSizeHint(col)))

    def retranslate(self) -> None:
        self.families.retranslate()  # its tooltips are stored texts
        self._size_tree_columns()
        self._fit_columns()  # the headers' widths change with the language
        self.title.setText(self.tr("Models"))
        entry = self.current_entry()
        self.badges.setText(self._badge_text(entry) if isinstance(entry, Family) else "")
        if isinstance(entry, Family):
            self.description.setText(family_description(entry))  # the registry's, in this language
        self.badges.setToolTip(self.tr("What this model can do, from its model card and configuration"))
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
        self.vision_only.setText(self.tr("Reads images"))
        self.vision_only.setToolTip(self.tr("Only models that can read images you attach"))
        self.tools_only.setText(self.tr("Calls tools"))
        self.tools_only.setToolTip(self.tr("Only models that can call tools (functions) you describe"))
        self.drafter_only.setToolTip(self.tr("Only models that declare a drafter for speculative decoding"))
        self.downloaded_only.setText(self.tr("Downloaded"))
        self.download_btn.setText(self.tr("Download"))
        self.refresh_btn.setText(self.tr("Refresh from hub"))
        self.refresh_btn.setToolTip(
            self.tr(
                "Read the quantizations this variant's repositories hold now (the catalog lists what "
                "was published when it was written); new ones are added, missing ones are named."
            )
        )
        self.with_drafter.setText(self.tr("with its drafter"))
        self.with_drafter.setToolTip(self.tr("Also download the recommended drafter quantization"))
        self.delete_btn.setText(self.tr("Delete"))
        self.launch_btn.setText(self.tr("Launch…"))
        legend = self.tr("● downloaded   ◐ partly downloaded   ○ not downloaded")
        # a narrow panel wraps between the three markers, never inside one ("○ not" / "downloaded")
        parts = [p.strip() for p in re.split(r"\s{2,}", legend) if p.strip()]
        self.hint.setText("   ".join(p.replace(" ", "\u00a0") for p in parts))
        self.families.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.families.columnCount() - 1)
        self.tree.viewport().update()
        self.tree.header().viewport().update()
        self._show_fit(self._selected_target())  # the verdict line is text of the old language
        self._show_disk_total()

    @staticmethod
    def _fill_combo(combo: QComboBox, items: list[tuple[str, str]]) -> None:
        current = combo.currentData()
        blocked = combo.blockSignals(True)
        combo.clear()
        for data, text in items:
            combo.addItem(text, data)
        combo.setCurrentIndex(max(0, combo.findData(current)))
        combo.blockSignals(blocked)
