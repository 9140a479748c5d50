"""Item models over the registry: a flat family table (with a filter proxy) and a spec tree.

``FamilyModel`` lists valid families and, after them, invalid user entries with their reason, so a
broken user file is visible instead of crashing the browser. ``SpecTreeModel`` shows one family:
spec → {model, drafter} → quantizations, each with its cache marker and, for GGUF target
quantizations, whether it fits in memory.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap, QStandardItem, QStandardItemModel

from app.core.catalog.fit import FitEstimate, largest_that_fits
from app.core.registry import AnySpec, Family, InvalidEntry, Registry
from app.core.units import human_bytes
from app.gui.cache_bridge import CacheBridge, Marker, Role
from app.gui.models.fit_verdicts import FitVerdicts
from app.gui.ops import Ops

log = logging.getLogger(__name__)

AnyIndex = QModelIndex | QPersistentModelIndex


class Roles(IntEnum):
    Entry = Qt.ItemDataRole.UserRole + 1
    Formats = Qt.ItemDataRole.UserRole + 2
    Sizes = Qt.ItemDataRole.UserRole + 3
    HasDrafter = Qt.ItemDataRole.UserRole + 4
    Downloaded = Qt.ItemDataRole.UserRole + 5
    Invalid = Qt.ItemDataRole.UserRole + 6
    Node = Qt.ItemDataRole.UserRole + 7
    Status = Qt.ItemDataRole.UserRole + 8
    SortKey = Qt.ItemDataRole.UserRole + 9
    Fit = Qt.ItemDataRole.UserRole + 10  # a target quantization's FitEstimate (None: not known yet)
    Recommended = Qt.ItemDataRole.UserRole + 11  # the largest quantization of its spec that fits


_R = Qt.ItemDataRole
#: The roles the spec tree answers; a repaint asks every cell for a dozen roles (font,
#: background, check state...), so the others return before any work (browser case).
#: The family table stores exactly its roles in Qt items.
_SHOWN = (_R.DisplayRole, _R.DecorationRole, _R.ToolTipRole, _R.ForegroundRole)
_TREE_ROLES = frozenset(int(r) for r in (*_SHOWN, Roles.Node, Roles.Status, Roles.Fit, Roles.Recommended))
_FAMILY_ROLES = frozenset(
    int(r)
    for r in (
        *_SHOWN,
        _R.TextAlignmentRole,
        *(Roles.SortKey, Roles.Entry, Roles.Formats, Roles.Sizes, Roles.HasDrafter, Roles.Downloaded),
        Roles.Invalid,
    )
)

_DISK_ROLES = frozenset(int(r) for r in (_R.DisplayRole, _R.TextAlignmentRole, _R.ToolTipRole, Roles.SortKey))

STATUS_COLORS = {"cached": "#2e9d5b", "partial": "#d99a1e", "absent": "#b8bec6"}
_dot_cache: dict[str, QIcon] = {}


def status_icon(status: str) -> QIcon:
    """A small filled (cached), half (partial) or hollow (absent) dot."""
    icon = _dot_cache.get(status)
    if icon is None:
        pm = QPixmap(12, 12)
        pm.fill(Qt.GlobalColor.transparent)
        p = QPainter(pm)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        color = QColor(STATUS_COLORS.get(status, "#b8bec6"))
        p.setPen(color)
        if status == "cached":
            p.setBrush(color)
            p.drawEllipse(1, 1, 10, 10)
        elif status == "partial":
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(1, 1, 10, 10)
            p.setBrush(color)
            p.drawPie(1, 1, 10, 10, 90 * 16, 180 * 16)
        else:
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(1, 1, 10, 10)
        p.end()
        icon = QIcon(pm)
        _dot_cache[status] = icon
    return icon


def status_text(status: str) -> str:
    return {
        "cached": QCoreApplication.translate("RegistryModel", "Downloaded"),
        "partial": QCoreApplication.translate("RegistryModel", "Partially downloaded"),
        "absent": QCoreApplication.translate("RegistryModel", "Not downloaded"),
        "unknown": QCoreApplication.translate("RegistryModel", "Checking…"),
    }.get(status, status)


def size_text(spec: AnySpec) -> str:
    return spec.size_text


UNVERIFIED_COLOR = "#a8660c"


def unverified_tag() -> str:
    return QCoreApplication.translate("RegistryModel", "unverified")


def source_tooltip(spec: AnySpec) -> str | None:
    """Where the spec's repository and file names were confirmed, or that nothing confirms them
    (a user's own entry carries neither, and gets no line)."""
    lines: list[str] = []
    for hub in spec.sources.hubs():
        src = spec.source(hub)
        if src.unverified:
            lines.append(
                QCoreApplication.translate(
                    "RegistryModel",
                    "{hub}: unverified. No stored public page confirms {repo} and its file names; "
                    "the download checks the repository's own listing and says what it finds.",
                ).format(hub=HUB_NAMES.get(hub, hub), repo=src.model_id)
            )
        elif src.evidence:
            ev = src.evidence[0]
            lines.append(
                QCoreApplication.translate("RegistryModel", "{hub}: checked on {date} against {url}").format(
                    hub=HUB_NAMES.get(hub, hub), date=ev.checked, url=ev.url
                )
            )
    return "\n".join(lines) or None


HUB_NAMES = {"huggingface": "Hugging Face", "modelscope": "ModelScope"}


def moe_tooltip(spec: AnySpec) -> str | None:
    """For a mixture-of-experts spec: what that means for speculative decoding."""
    active = spec.activated_size_in_billions
    if not active:
        return None
    return QCoreApplication.translate(
        "RegistryModel",
        "Mixture of experts: {active}B of {total}B parameters run per token. A drafter often slows "
        "MoE models down: verifying several drafted tokens wakes more experts than generating one.",
    ).format(active=f"{active:g}", total=f"{spec.size_in_billions:g}")


def disk_use_help() -> str:
    return QCoreApplication.translate(
        "RegistryModel",
        "The disk its files use: every downloaded quantization, its drafters and its image "
        "projector. A file several models share is counted once.",
    )


def disk_use_text(total: int, partial: int) -> str:
    """``4.2 GB on disk``, and how much of it unfinished downloads hold."""
    text = QCoreApplication.translate("RegistryModel", "{size} on disk").format(size=human_bytes(total))
    if partial:
        text += " " + QCoreApplication.translate(
            "RegistryModel", "({size} of it in unfinished downloads)"
        ).format(size=human_bytes(partial))
    return text


def _sizes_text(fam: Family) -> str:
    sizes = sorted(fam.specs, key=lambda s: s.size_in_billions)
    return ", ".join(dict.fromkeys(size_text(s) for s in sizes))


class FamilyModel(QStandardItemModel):
    """The families table. Every cell's roles are computed once (when the registry, a download
    status or the language changes) and held by Qt items, so a repaint runs no Python: the table
    is repainted whole on each step of a walk through a long list (browser case)."""

    #: "disk": what the family's files use, measured for the "My models" scope only
    COLUMNS = ("name", "formats", "sizes", "drafter", "downloaded", "disk")

    def __init__(self, registry: Registry, cache: CacheBridge, parent: Any = None) -> None:
        super().__init__(0, len(self.COLUMNS), parent)
        self._cache = self.cache = cache
        self._rows: list[Family | InvalidEntry] = []
        self._downloaded: dict[str, bool] = {}
        self._disk_bytes: dict[str, int | None] = {}
        self._has_drafter: dict[str, bool] = {}
        self._sizes: dict[str, str] = {}
        self.set_registry(registry)
        cache.changed.connect(self.refresh_status)  # the one "statuses changed" event
        cache.diskUseChanged.connect(self.refresh_disk_use)

    def set_registry(self, registry: Registry) -> None:
        self.registry = registry
        fams = registry.by_use()
        self._rows = [*fams, *registry.invalid]
        self._downloaded = {f.name: self._cache.family_downloaded(f) for f in fams}
        self._has_drafter = {f.name: any(s.declares_drafter() for s in f.specs) for f in fams}
        self._sizes = {f.name: _sizes_text(f) for f in fams}
        self.beginResetModel()
        blocked = self.blockSignals(True)  # one reset, not a signal per item and role
        try:
            self.setRowCount(0)
            for row in range(len(self._rows)):
                self.appendRow(self._row_items(row))
        finally:
            self.blockSignals(blocked)
        self.endResetModel()

    def _row_items(self, row: int) -> list[QStandardItem]:
        items = []
        for col in range(len(self.COLUMNS)):
            item = QStandardItem()
            item.setFlags(Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled)
            self._fill(item, row, col)
            items.append(item)
        return items

    def _fill(self, item: QStandardItem, row: int, col: int) -> None:
        for role in _FAMILY_ROLES:
            item.setData(self._value(row, col, role), role)

    def _refill(self, rows: range | list[int]) -> None:
        """Recompute the roles of ``rows`` and say so in one dataChanged per row."""
        for row in rows:
            blocked = self.blockSignals(True)
            try:
                for col in range(len(self.COLUMNS)):
                    item = self.item(row, col)
                    if item is not None:
                        self._fill(item, row, col)
            finally:
                self.blockSignals(blocked)
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.COLUMNS) - 1))

    def refresh_status(self) -> None:
        changed = []
        for row, entry in enumerate(self._rows):
            if isinstance(entry, Family):
                downloaded = self._cache.family_downloaded(entry)
                if self._downloaded.get(entry.name) != downloaded:
                    self._downloaded[entry.name] = downloaded
                    changed.append(row)
        self._refill(changed)

    def refresh_disk_use(self) -> None:
        """Re-read the disk use the cache bridge measured (rows whose figure changed)."""
        changed = []
        for row, entry in enumerate(self._rows):
            if isinstance(entry, Family):
                use = self._cache.known_disk_use(entry.name)
                now = None if use is None else use.bytes
                if self._disk_bytes.get(entry.name) != now:
                    self._disk_bytes[entry.name] = now
                    changed.append(row)
        self._refill(changed)

    def retranslate(self) -> None:
        """The tooltips and the "invalid" marker are translated texts."""
        self._refill(range(len(self._rows)))
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self.COLUMNS) - 1)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.COLUMNS):
            return None
        downloaded = self.COLUMNS[section] == "downloaded"
        if role == Qt.ItemDataRole.DecorationRole and downloaded:
            return status_icon("cached")  # the legend's dot: a text header would be wider than the column
        if role == Qt.ItemDataRole.ToolTipRole and downloaded:
            return QCoreApplication.translate("RegistryModel", "Downloaded")
        if role == Qt.ItemDataRole.TextAlignmentRole and self.COLUMNS[section] in ("drafter", "downloaded"):
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.ToolTipRole and self.COLUMNS[section] == "disk":
            return disk_use_help()
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if downloaded:
            return ""
        return [
            QCoreApplication.translate("RegistryModel", "Model"),
            QCoreApplication.translate("RegistryModel", "Formats"),
            QCoreApplication.translate("RegistryModel", "Sizes"),
            QCoreApplication.translate("RegistryModel", "Drafter"),
            QCoreApplication.translate("RegistryModel", "Downloaded"),
            QCoreApplication.translate("RegistryModel", "On disk"),
        ][section]

    def entry(self, row: int) -> Family | InvalidEntry:
        return self._rows[row]

    def row_of(self, name: str) -> int:
        for row, entry in enumerate(self._rows):
            if entry.name == name:
                return row
        return -1

    def _value(self, row: int, column: int, role: int) -> Any:
        """What the cell at (row, column) holds for ``role`` (stored in its item by ``_fill``)."""
        entry = self._rows[row]
        col = self.COLUMNS[column]
        if isinstance(entry, InvalidEntry):
            return self._invalid_data(entry, col, role)
        fam = entry
        has_drafter = self._has_drafter.get(fam.name, False)
        downloaded = self._downloaded.get(fam.name, False)
        if col == "disk" and role in _DISK_ROLES:
            return self._disk_data(fam, role)
        # Drafter and Downloaded are compact markers (a check mark, a status dot) so the table
        # fits beside the detail pane in every language; their tooltips say what they mean.
        if role == Qt.ItemDataRole.DisplayRole:
            if col == "name":
                return fam.name
            if col == "formats":
                return ", ".join(sorted({s.format.upper() for s in fam.specs}))
            if col == "sizes":
                return self._sizes.get(fam.name, "")
            if col == "drafter":
                return "✓" if has_drafter else "—"
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == "sizes":
                moe = next((t for t in map(moe_tooltip, fam.specs) if t), None)
                sizes = self._sizes.get(fam.name, "")
                return f"{sizes}\n{moe}" if moe else sizes
            if col == "drafter":
                return (
                    QCoreApplication.translate("RegistryModel", "Has a drafter for speculative decoding")
                    if has_drafter
                    else QCoreApplication.translate("RegistryModel", "No drafter")
                )
            if col == "downloaded":
                return status_text("cached" if downloaded else "absent")
            return fam.description or fam.name
        if role == Qt.ItemDataRole.TextAlignmentRole and col in ("drafter", "downloaded"):
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.DecorationRole and col == "downloaded":
            return status_icon("cached" if downloaded else "absent")
        if role == Roles.SortKey:
            if col == "name":
                return fam.name.lower()
            if col == "formats":
                return ", ".join(sorted({s.format for s in fam.specs}))
            if col == "sizes":
                return max((float(s.size_in_billions) for s in fam.specs), default=0.0)
            return int(has_drafter if col == "drafter" else downloaded)
        if role == Roles.Entry:
            return fam
        if role == Roles.Formats:
            return sorted({s.format for s in fam.specs})
        if role == Roles.Sizes:
            return [s.size_in_billions for s in fam.specs]
        if role == Roles.HasDrafter:
            return has_drafter
        if role == Roles.Downloaded:
            return downloaded
        if role == Roles.Invalid:
            return False
        return None

    def _disk_data(self, fam: Family, role: int) -> Any:
        use = self._cache.known_disk_use(fam.name)
        if role == Qt.ItemDataRole.DisplayRole:
            return "…" if use is None else human_bytes(use.bytes)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            if use is None:
                return QCoreApplication.translate("RegistryModel", "Measuring the disk its files use…")
            return disk_use_text(use.bytes, use.partial_bytes) + "\n" + disk_use_help()
        return -1 if use is None else use.bytes  # Roles.SortKey

    def _invalid_data(self, entry: InvalidEntry, col: str, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            if col == "name":
                return entry.name
            if col == "formats":
                return QCoreApplication.translate("RegistryModel", "invalid")
            return ""
        if role == Qt.ItemDataRole.ToolTipRole:
            return entry.reason
        if role == Qt.ItemDataRole.ForegroundRole:
            return QColor("#b3261e")
        if role == Roles.Entry:
            return entry
        if role == Roles.SortKey:  # same types as valid rows; invalid entries sort first
            return {"name": entry.name.lower(), "formats": "", "sizes": -1.0}.get(col, -1)
        if role == Roles.Invalid:
            return True
        if role in (Roles.HasDrafter, Roles.Downloaded):
            return False
        if role in (Roles.Formats, Roles.Sizes):
            return []
        return None


#: Size buckets offered by the filter (billions of parameters, half-open ranges).
SIZE_BUCKETS: dict[str, tuple[float, float]] = {
    "tiny": (0.0, 1.0),
    "small": (1.0, 5.0),
    "medium": (5.0, 15.0),
    "large": (15.0, float("inf")),
}


class FamilyFilterProxy(QSortFilterProxyModel):
    """Search text + format + size bucket + "has drafter" + "downloaded" filters."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.text = ""
        self.format = ""
        self.size_bucket = ""
        self.drafter_only = False
        self.downloaded_only = False
        self.setSortCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setSortRole(Roles.SortKey)

    def set_filters(self, **kwargs: Any) -> None:
        self.beginFilterChange()
        for key, value in kwargs.items():
            if not hasattr(self, key):
                raise AttributeError(key)
            setattr(self, key, value)
        self.endFilterChange()

    def filterAcceptsRow(self, source_row: int, source_parent: AnyIndex) -> bool:
        model = self.sourceModel()
        index = model.index(source_row, 0, source_parent)
        entry = model.data(index, Roles.Entry)
        if self.text:
            needle = self.text.lower()
            hay = entry.name.lower() + " " + (getattr(entry, "description", "") or "").lower()
            if needle not in hay:
                return False
        if model.data(index, Roles.Invalid):
            return not (self.format or self.size_bucket or self.drafter_only or self.downloaded_only)
        if self.format and self.format not in model.data(index, Roles.Formats):
            return False
        if self.size_bucket:
            lo, hi = SIZE_BUCKETS[self.size_bucket]
            if not any(lo <= s < hi for s in model.data(index, Roles.Sizes)):
                return False
        if self.drafter_only and not model.data(index, Roles.HasDrafter):
            return False
        return not (self.downloaded_only and not model.data(index, Roles.Downloaded))


# --- spec tree ------------------------------------------------------------------------------


@dataclass(eq=False)
class Node:
    kind: str  # "spec" | "group" | "quant"
    spec: AnySpec | None = None
    role: Role = "target"
    quant: str | None = None
    status: Marker = "absent"
    parent: Node | None = None
    children: list[Node] = field(default_factory=list)

    def row(self) -> int:
        return self.parent.children.index(self) if self.parent else 0


class SpecTreeModel(QAbstractItemModel):
    """spec (format, size) → "Model" / "Drafter" groups → quantization leaves with markers, and
    a "Memory" column: fits / tight / too large per GGUF target quantization.

    The verdicts come from :class:`FitVerdicts` (computed off the GUI thread, kept per family and
    context length); "…" shows until the first answer. Without :meth:`enable_fit` the column
    stays empty."""

    COLUMNS = 3

    def __init__(self, cache: CacheBridge, parent: Any = None) -> None:
        super().__init__(parent)
        self._cache = cache
        self._root = Node("root")
        self.family: Family | None = None
        #: the memory verdicts of the shown family, computed off the GUI thread (None: no column)
        self._verdicts: FitVerdicts | None = None
        #: the recommendations of the last verdict batch asked for (kept with the batch itself)
        self._recommended: dict[int, tuple[list[dict[str, FitEstimate]], list[str | None]]] = {}
        cache.changed.connect(self.refresh_status)  # the one "statuses changed" event

    def enable_fit(self, ops: Ops, context_length: Callable[[], int]) -> None:
        """Show memory verdicts, computed through ``ops`` at ``context_length()`` tokens (the
        settings' length, capped at the family's)."""
        self._verdicts = FitVerdicts(ops, self._cache, context_length, lambda: self.family, self)
        self._verdicts.changed.connect(self._emit_fit_changed)
        self._verdicts.request()

    def set_family(self, family: Family | None) -> None:
        self.beginResetModel()
        self.family = family
        self._root = Node("root")
        if family is not None:
            for spec in family.specs:
                self._root.children.append(self._build_spec(family, spec))
        self.endResetModel()
        if self._verdicts is not None:
            self._verdicts.request(fresh_view=True)

    def refresh_status(self) -> None:
        """Re-read the markers in place (a reset would collapse the tree and drop the selection)."""
        if self._verdicts is not None:
            self._verdicts.request()  # the context length may have changed with the settings
        family = self.family
        if family is None:
            return
        for spec_node in self._root.children:
            for group in spec_node.children:
                for leaf in group.children:
                    assert leaf.spec is not None
                    status = self._cache.peek(family, leaf.spec, leaf.role, leaf.quant) or "unknown"
                    if status != leaf.status:
                        leaf.status = status
                        index = self.createIndex(leaf.row(), 0, leaf)
                        self.dataChanged.emit(
                            index, index.siblingAtColumn(self.columnCount(index.parent()) - 1)
                        )

    def _build_spec(self, family: Family, spec: AnySpec) -> Node:
        node = Node("spec", spec, parent=self._root)
        model = Node("group", spec, "target", parent=node)
        node.children.append(model)
        for q in spec.quantizations:
            model.children.append(
                Node(
                    "quant",
                    spec,
                    "target",
                    q,
                    self._cache.peek(family, spec, "target", q) or "unknown",
                    model,
                )
            )
        if spec.declares_drafter():
            drafter = Node("group", spec, "drafter", parent=node)
            node.children.append(drafter)
            quants: list[str | None] = list(spec.draft_quantizations()) or [None]
            for dq in quants:
                status: Marker = self._cache.peek(family, spec, "drafter", dq) or "unknown"
                drafter.children.append(Node("quant", spec, "drafter", dq, status, drafter))
        if spec.declares_projector(self._cache.hub_for(spec)):  # fetched with the model
            projector = Node("group", spec, "projector", parent=node)
            node.children.append(projector)
            precisions: list[str | None] = [*spec.mmproj_quantizations(self._cache.hub_for(spec))]
            for pq in precisions or [None]:
                marker: Marker = self._cache.peek(family, spec, "projector", pq) or "unknown"
                projector.children.append(Node("quant", spec, "projector", pq, marker, projector))
        return node

    # -- QAbstractItemModel ----------------------------------------------------------------
    def _node(self, index: AnyIndex) -> Node:
        if index.isValid():
            node = index.internalPointer()
            assert isinstance(node, Node)
            return node
        return self._root

    def index(self, row: int, column: int, parent: AnyIndex = QModelIndex()) -> QModelIndex:  # noqa: B008
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        return self.createIndex(row, column, self._node(parent).children[row])

    def parent(self, index: AnyIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid():
            return QModelIndex()
        node = self._node(index)
        parent = node.parent
        if parent is None or parent is self._root:
            return QModelIndex()
        return self.createIndex(parent.row(), 0, parent)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._node(parent).children)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return self.COLUMNS

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or section not in (0, 1, 2):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return [
                QCoreApplication.translate("RegistryModel", "Variant"),
                QCoreApplication.translate("RegistryModel", "Status"),
                QCoreApplication.translate("RegistryModel", "Memory"),
            ][section]
        if role == Qt.ItemDataRole.ToolTipRole and section == 2:
            return QCoreApplication.translate(
                "RegistryModel",
                "Will it fit in this machine's free memory at the context length of the settings? "
                "★ marks the largest quantization that fits.",
            )
        return None

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _TREE_ROLES or not index.isValid():
            return None
        node = self._node(index)
        col = index.column()
        if role == Roles.Node:
            return node
        if role == Roles.Status:
            return node.status if node.kind == "quant" else None
        if role == Roles.Fit:
            return self.fit_estimate(node)
        if role == Roles.Recommended:
            return self.is_recommended(node)
        if col == 2:
            return self._fit_data(node, role)
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(node, col)
        if role == Qt.ItemDataRole.DecorationRole and col == 0 and node.kind == "quant":
            return status_icon(node.status)
        if role == Qt.ItemDataRole.ToolTipRole and node.kind == "spec" and node.spec is not None:
            lines = [t for t in (source_tooltip(node.spec), moe_tooltip(node.spec)) if t]
            return "\n\n".join(lines) or None
        if (
            role == Qt.ItemDataRole.ForegroundRole
            and col == 0
            and node.kind == "spec"
            and node.spec is not None
            and self._unverified(node.spec)
        ):
            return QColor(UNVERIFIED_COLOR)
        if role == Qt.ItemDataRole.ToolTipRole and node.kind == "group" and node.role == "drafter":
            return QCoreApplication.translate(
                "RegistryModel",
                "A small model that proposes tokens for this one to verify; used by speculative decoding.",
            )
        if role == Qt.ItemDataRole.ToolTipRole and node.role == "projector" and node.kind != "spec":
            return QCoreApplication.translate(
                "RegistryModel",
                "The vision projector (mmproj) that lets this model read images; it is downloaded "
                "with the model and deleted with it.",
            )
        if role == Qt.ItemDataRole.ForegroundRole and col == 1 and node.kind == "quant":
            return QColor(STATUS_COLORS[node.status]) if node.status in ("cached", "partial") else None
        return None

    def _display(self, node: Node, col: int) -> str | None:
        spec = node.spec
        assert spec is not None
        if node.kind == "spec":
            if col == 0:
                text = f"{spec.format.upper()} · {size_text(spec)}"
                if self._unverified(spec):
                    text += "  " + unverified_tag()
                return text
            if spec.declares_drafter():
                return QCoreApplication.translate("RegistryModel", "with drafter")
            if spec.builtin_mtp:  # the target's own weights carry next-token heads
                return QCoreApplication.translate("RegistryModel", "built-in MTP")
            return ""
        if node.kind == "group":
            if col == 1:
                return ""
            if node.role == "drafter":
                return QCoreApplication.translate("RegistryModel", "Drafter quantizations")
            if node.role == "projector":
                return QCoreApplication.translate("RegistryModel", "Image projector (mmproj)")
            return QCoreApplication.translate("RegistryModel", "Model quantizations")
        if col == 0:
            return node.quant or QCoreApplication.translate("RegistryModel", "default")
        return status_text(node.status)

    def _unverified(self, spec: AnySpec) -> bool:
        """No stored public page confirms the source this spec downloads from (the settings' hub
        where the spec has it, else its first); the tooltip names every hub."""
        return self._cache.hub_for(spec) in spec.unverified_hubs()

    # -- memory fit -------------------------------------------------------------
    def fit_context(self) -> int:
        """The context length the verdicts are for: the settings' length capped at the family's."""
        return self._verdicts.context() if self._verdicts is not None else 4096

    def _fit_entry(self) -> list[dict[str, FitEstimate]] | str | None:
        return self._verdicts.entry() if self._verdicts is not None else None

    def fitting(self) -> bool:
        """A batch of verdicts is being computed (tests, and "…" in the column)."""
        return self._verdicts is not None and self._verdicts.busy()

    def spec_row(self, node: Node) -> int:
        while node.parent is not None and node.parent is not self._root:
            node = node.parent
        return node.row() if node.parent is self._root else -1

    def _fit_applies(self, node: Node) -> bool:
        return (
            self._verdicts is not None
            and node.kind == "quant"
            and node.role == "target"
            and node.spec is not None
            and node.spec.format == "gguf"
        )

    def fit_estimate(self, node: Node) -> FitEstimate | None:
        """The leaf's estimate, None when it does not apply or is not known yet."""
        entry = self._fit_entry()
        if not self._fit_applies(node) or not isinstance(entry, list) or node.quant is None:
            return None
        row = self.spec_row(node)
        return entry[row].get(node.quant) if 0 <= row < len(entry) else None

    def recommended(self, spec_row: int) -> str | None:
        """The largest quantization of the spec in ``spec_row`` whose verdict is ``fits``."""
        entry = self._fit_entry()
        if not isinstance(entry, list) or not 0 <= spec_row < len(entry):
            return None
        memo = self._recommended.get(id(entry))
        if memo is None or memo[0] is not entry:  # one verdict batch, asked on every repaint
            memo = (entry, [largest_that_fits(row) for row in entry])
            self._recommended = {id(entry): memo}
        return memo[1][spec_row]

    def is_recommended(self, node: Node) -> bool:
        return self.fit_estimate(node) is not None and self.recommended(self.spec_row(node)) == node.quant

    def _fit_data(self, node: Node, role: int) -> Any:
        if not self._fit_applies(node):
            return None
        est = self.fit_estimate(node)
        entry = self._fit_entry()
        if role == Qt.ItemDataRole.DisplayRole:
            if est is None:
                return "?" if isinstance(entry, str) else "…"
            text = verdict_text(est.verdict)
            if est.weights_bytes is not None:  # the file's size beside its verdict
                approx = "≈" if "estimated" in est.notes else ""
                text = f"{text} · {approx}{human_bytes(est.weights_bytes)}"
            return f"★ {text}" if self.is_recommended(node) else text
        if role == Qt.ItemDataRole.ToolTipRole:
            if isinstance(entry, str):
                return QCoreApplication.translate("RegistryModel", "Memory use unknown: {reason}").format(
                    reason=entry
                )
            if est is None:
                return QCoreApplication.translate("RegistryModel", "Estimating the memory it needs…")
            return fit_tooltip(est, self.is_recommended(node))
        if role == Qt.ItemDataRole.ForegroundRole and est is not None:
            color = VERDICT_COLORS.get(est.verdict)
            return QColor(color) if color else None
        return None

    def _emit_fit_changed(self) -> None:
        for spec_node in self._root.children:
            for group in spec_node.children:
                if group.role == "target" and group.children:
                    first = self.createIndex(0, 2, group.children[0])
                    last = self.createIndex(len(group.children) - 1, 2, group.children[-1])
                    self.dataChanged.emit(first, last)


VERDICT_COLORS = {"fits": "#2e9d5b", "tight": "#d99a1e", "too-large": "#b3261e"}


def verdict_text(verdict: str) -> str:
    return {
        "fits": QCoreApplication.translate("RegistryModel", "Fits"),
        "tight": QCoreApplication.translate("RegistryModel", "Tight"),
        "too-large": QCoreApplication.translate("RegistryModel", "Too large"),
        "unknown": QCoreApplication.translate("RegistryModel", "Unknown"),
    }.get(verdict, verdict)


def gib_text(n: int) -> str:
    return f"{n / (1 << 30):.2f} GiB" if n >= 1 << 28 else f"{n / (1 << 20):.0f} MiB"


def fit_tooltip(est: FitEstimate, recommended: bool = False) -> str:
    """The numbers behind a verdict: weights, KV cache, drafter, overhead, total vs available."""
    unknown = QCoreApplication.translate("RegistryModel", "unknown")
    weights = gib_text(est.weights_bytes) if est.weights_bytes is not None else unknown
    if "estimated" in est.notes:
        weights = QCoreApplication.translate(
            "RegistryModel", "{size} (estimated from the parameter count)"
        ).format(size=weights)
    elif "listing" in est.notes:
        weights = QCoreApplication.translate("RegistryModel", "{size} (from the hub listing)").format(
            size=weights
        )
    elif "registry" in est.notes:
        weights = QCoreApplication.translate(
            "RegistryModel", "{size} (as the hub listed it when the catalog entry was checked)"
        ).format(size=weights)
    kv = (
        gib_text(est.kv_bytes)
        if est.kv_bytes is not None
        else QCoreApplication.translate(
            "RegistryModel", "unknown until a file is downloaded (its header gives it)"
        )
    )
    drafter = gib_text(est.drafter_bytes)
    if "drafter-unknown" in est.notes:
        drafter = QCoreApplication.translate("RegistryModel", "unknown until it is listed or downloaded")
    total = gib_text(est.total_bytes) if est.total_bytes is not None else unknown
    lines = [
        QCoreApplication.translate("RegistryModel", "{verdict} at {ctx} tokens").format(
            verdict=verdict_text(est.verdict), ctx=est.ctx
        ),
        QCoreApplication.translate("RegistryModel", "Weights: {size}").format(size=weights),
        QCoreApplication.translate("RegistryModel", "KV cache: {size}").format(size=kv),
        QCoreApplication.translate("RegistryModel", "Drafter: {size}").format(size=drafter),
        QCoreApplication.translate("RegistryModel", "Overhead: {size}").format(
            size=gib_text(est.overhead_bytes)
        ),
        QCoreApplication.translate("RegistryModel", "Total: {size}").format(size=total),
        QCoreApplication.translate("RegistryModel", "Available now: {size}").format(
            size=gib_text(est.available_bytes)
        ),
    ]
    if recommended:
        lines.append(QCoreApplication.translate("RegistryModel", "★ The largest quantization that fits"))
    return "\n".join(lines)
