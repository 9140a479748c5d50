"""Item models over the registry: a flat family table (with a filter proxy) and a spec tree.

``FamilyModel`` lists valid families and, after them, invalid user entries with their reason, so a
broken user file is visible instead of crashing the browser. ``SpecTreeModel`` shows one family:
spec → {model, drafter} → quantizations, each with its cache marker.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap

from app.core.registry import AnySpec, Family, InvalidEntry, Registry
from app.gui.cache_bridge import CacheBridge, Marker, Role

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
    label = spec.size_label
    if spec.activated_size_in_billions:
        return f"{label} (MoE)"
    return f"{label}B" if label[-1:].isdigit() else label


def moe_tooltip(spec: AnySpec) -> str | None:
    """For a mixture-of-experts spec: what that means for speculative decoding (issue 10)."""
    active = spec.activated_size_in_billions
    if not active:
        return None
    return QCoreApplication.translate(
        "RegistryModel",
        "Mixture of experts: {active}B of {total}B parameters run per token. A drafter often slows "
        "MoE models down: verifying several drafted tokens wakes more experts than generating one.",
    ).format(active=f"{active:g}", total=f"{spec.size_in_billions:g}")


def _sizes_text(fam: Family) -> str:
    sizes = sorted(fam.specs, key=lambda s: s.size_in_billions)
    return ", ".join(dict.fromkeys(size_text(s) for s in sizes))


class FamilyModel(QAbstractTableModel):
    COLUMNS = ("name", "formats", "sizes", "drafter", "downloaded")

    def __init__(self, registry: Registry, cache: CacheBridge, parent: Any = None) -> None:
        super().__init__(parent)
        self._cache = cache
        self._rows: list[Family | InvalidEntry] = []
        self._downloaded: dict[str, bool] = {}
        self.set_registry(registry)
        cache.changed.connect(self.refresh_status)  # the one "statuses changed" event (issue 9)

    def set_registry(self, registry: Registry) -> None:
        self.beginResetModel()
        self.registry = registry
        fams = sorted(
            registry.families.values(), key=lambda f: (f.name not in registry.builtin_names, f.name)
        )
        self._rows = [*fams, *registry.invalid]
        self._downloaded = {f.name: self._cache.family_downloaded(f) for f in fams}
        self.endResetModel()

    def refresh_status(self) -> None:
        for row, entry in enumerate(self._rows):
            if isinstance(entry, Family):
                downloaded = self._cache.family_downloaded(entry)
                if self._downloaded.get(entry.name) != downloaded:
                    self._downloaded[entry.name] = downloaded
                    self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.COLUMNS) - 1))

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

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
        ][section]

    def entry(self, row: int) -> Family | InvalidEntry:
        return self._rows[row]

    def row_of(self, name: str) -> int:
        for row, entry in enumerate(self._rows):
            if entry.name == name:
                return row
        return -1

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        entry = self._rows[index.row()]
        col = self.COLUMNS[index.column()]
        if isinstance(entry, InvalidEntry):
            return self._invalid_data(entry, col, role)
        fam = entry
        has_drafter = any(s.declares_drafter() for s in fam.specs)
        downloaded = self._downloaded.get(fam.name, False)
        # Drafter and Downloaded are compact markers (a check mark, a status dot) so the table
        # fits beside the detail pane in every language; their tooltips say what they mean.
        if role == Qt.ItemDataRole.DisplayRole:
            if col == "name":
                return fam.name
            if col == "formats":
                return ", ".join(sorted({s.format.upper() for s in fam.specs}))
            if col == "sizes":
                return _sizes_text(fam)
            if col == "drafter":
                return "✓" if has_drafter else "—"
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == "sizes":
                moe = next((t for t in map(moe_tooltip, fam.specs) if t), None)
                return f"{_sizes_text(fam)}\n{moe}" if moe else _sizes_text(fam)
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
    """spec (format, size) → "Model" / "Drafter" groups → quantization leaves with markers."""

    def __init__(self, cache: CacheBridge, parent: Any = None) -> None:
        super().__init__(parent)
        self._cache = cache
        self._root = Node("root")
        self.family: Family | None = None
        cache.changed.connect(self.refresh_status)  # the one "statuses changed" event (issue 9)

    def set_family(self, family: Family | None) -> None:
        self.beginResetModel()
        self.family = family
        self._root = Node("root")
        if family is not None:
            for spec in family.specs:
                self._root.children.append(self._build_spec(family, spec))
        self.endResetModel()

    def refresh_status(self) -> None:
        """Re-read the markers in place (a reset would collapse the tree and drop the selection)."""
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
        return 2

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and section in (0, 1)
        ):
            return [
                QCoreApplication.translate("RegistryModel", "Variant"),
                QCoreApplication.translate("RegistryModel", "Status"),
            ][section]
        return None

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node = self._node(index)
        col = index.column()
        if role == Roles.Node:
            return node
        if role == Roles.Status:
            return node.status if node.kind == "quant" else None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(node, col)
        if role == Qt.ItemDataRole.DecorationRole and col == 0 and node.kind == "quant":
            return status_icon(node.status)
        if role == Qt.ItemDataRole.ToolTipRole and node.kind == "spec" and node.spec is not None:
            return moe_tooltip(node.spec)
        if role == Qt.ItemDataRole.ToolTipRole and node.kind == "group" and node.role == "drafter":
            return QCoreApplication.translate(
                "RegistryModel",
                "A small model that proposes tokens for this one to verify; used by speculative decoding.",
            )
        if role == Qt.ItemDataRole.ForegroundRole and col == 1 and node.kind == "quant":
            return QColor(STATUS_COLORS[node.status]) if node.status in ("cached", "partial") else None
        return None

    def _display(self, node: Node, col: int) -> str | None:
        spec = node.spec
        assert spec is not None
        if node.kind == "spec":
            if col == 0:
                return f"{spec.format.upper()} · {size_text(spec)}"
            if spec.declares_drafter():
                return QCoreApplication.translate("RegistryModel", "with drafter")
            return ""
        if node.kind == "group":
            if col == 1:
                return ""
            if node.role == "drafter":
                return QCoreApplication.translate("RegistryModel", "Drafter quantizations")
            return QCoreApplication.translate("RegistryModel", "Model quantizations")
        if col == 0:
            return node.quant or QCoreApplication.translate("RegistryModel", "default")
        return status_text(node.status)
