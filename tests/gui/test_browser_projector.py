"""The variant tree shows a vision GGUF model's projector: an "Image projector (mmproj)"
group under the variant with a cached marker per precision, read from the real cache."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from app.core.registry import Registry
from app.gui.cache_bridge import CacheBridge
from app.gui.models.family_model import Roles
from app.gui.models.spec_tree import Node, SpecTreeModel


def test_the_variant_tree_lists_the_projector_with_its_marker(qtbot: Any) -> None:
    registry = Registry.load()
    family = registry.get("gemma-4-ggml")
    tree = SpecTreeModel(CacheBridge())
    tree.set_family(family)
    spec_index = tree.index(0, 0)
    groups = [tree.index(r, 0, spec_index) for r in range(tree.rowCount(spec_index))]
    names = [tree.data(g) for g in groups]
    assert "Image projector (mmproj)" in names
    group = groups[names.index("Image projector (mmproj)")]
    node: Node = tree.data(group, Roles.Node)
    assert node.role == "projector"
    assert "lets this model read images" in tree.data(group, Qt.ItemDataRole.ToolTipRole)
    leaves = [tree.index(r, 0, group) for r in range(tree.rowCount(group))]
    assert [tree.data(leaf) for leaf in leaves] == ["Q8_0", "BF16"]
    # nothing is downloaded in a test home: each precision says so (after its probe)
    assert all(tree.data(leaf, Roles.Status) in ("absent", "unknown") for leaf in leaves)
    qtbot.waitUntil(lambda: all(tree.data(leaf, Roles.Status) == "absent" for leaf in leaves), timeout=5000)
    assert tree.data(leaves[0].siblingAtColumn(1)) == "Not downloaded"
    text_only = registry.get("smollm2-135m-instruct")
    tree.set_family(text_only)
    spec_index = tree.index(0, 0)
    assert "Image projector (mmproj)" not in [
        tree.data(tree.index(r, 0, spec_index)) for r in range(tree.rowCount(spec_index))
    ]
