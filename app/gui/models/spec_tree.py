"""The Models page's variant tree: spec → {model, drafter, projector} → quantizations, each with
its cache marker and, for GGUF target quantizations, whether it fits in memory."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QCoreApplication, QModelIndex, Qt
from PySide6.QtGui import QColor

from app.core.catalog.fit import FitEstimate, largest_that_fits
from app.core.registry import AnySpec, Family
from app.core.units import human_bytes
from app.gui.cache_bridge import CacheBridge, Marker, Role
from app.gui.models.family_model import SHOWN_ROLES, AnyIndex, Roles
from app.gui.models.fit_verdicts import FitVerdicts
from app.gui.models.registry_texts import (
    STATUS_COLORS,
    UNVERIFIED_COLOR,
    VERDICT_COLORS,
    fit_tooltip,
    moe_tooltip,
    size_text,
    source_tooltip,
    status_icon,
    status_text,
    unverified_tag,
    verdict_text,
)
from app.gui.ops import Ops

_TREE_ROLES = frozenset(
    int(r) for r in (*SHOWN_ROLES, Roles.Node, Roles.Status, Roles.Fit, Roles.Recommended)
)


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
