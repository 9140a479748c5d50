"""The Models page's family table: every family with its formats, sizes, drafter and download
markers, and (in "My models") the disk its files use; the filter proxy over it.

``FamilyModel`` lists valid families and, after them, invalid user entries with their reason, so a
broken user file is visible instead of crashing the browser.
"""

from __future__ import annotations

import logging
from enum import IntEnum
from typing import Any

from PySide6.QtCore import QCoreApplication, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QColor, QStandardItem, QStandardItemModel

from app.core.registry import Family, InvalidEntry, Registry
from app.core.units import human_bytes
from app.gui.cache_bridge import CacheBridge
from app.gui.models.registry_texts import (
    disk_use_help,
    disk_use_text,
    family_description,
    moe_tooltip,
    sizes_text,
    status_icon,
    status_text,
)

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
SHOWN_ROLES = (_R.DisplayRole, _R.DecorationRole, _R.ToolTipRole, _R.ForegroundRole)
_FAMILY_ROLES = frozenset(
    int(r)
    for r in (
        *SHOWN_ROLES,
        _R.TextAlignmentRole,
        *(Roles.SortKey, Roles.Entry, Roles.Formats, Roles.Sizes, Roles.HasDrafter, Roles.Downloaded),
        Roles.Invalid,
    )
)

_DISK_ROLES = frozenset(int(r) for r in (_R.DisplayRole, _R.TextAlignmentRole, _R.ToolTipRole, Roles.SortKey))


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
        self._sizes = {f.name: sizes_text(f) for f in fams}
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
            return family_description(fam) or fam.name
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
            # the English description and the one shown, so either language's words find it
            shown = family_description(entry) if isinstance(entry, Family) else ""
            hay = " ".join((entry.name, getattr(entry, "description", "") or "", shown)).lower()
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
