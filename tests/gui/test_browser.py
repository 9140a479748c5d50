from __future__ import annotations

import json
from typing import Any

import pytest

from app.core import paths
from app.core.registry import Registry
from app.gui.cache_bridge import CacheBridge
from app.gui.models.family_model import FamilyFilterProxy, FamilyModel, Roles
from app.gui.models.spec_tree import Node, SpecTreeModel


class FakeCache(CacheBridge):
    """Statuses from a table, so markers can be checked for every state."""

    def __init__(self, table: dict[tuple[str, str, str | None], str]) -> None:
        super().__init__()
        self.table = table

    def status(self, family: Any, spec: Any, role: Any, quant: Any, target_quant: Any = None) -> Any:
        return self.table.get((family.name, role, quant), "absent")


@pytest.fixture
def registry() -> Registry:
    user = paths.user_families_dir()
    (user / "broken.json").write_text(json.dumps({"name": "broken", "specs": [{"format": "gguf"}]}))
    return Registry.load()


def names(proxy: FamilyFilterProxy) -> list[str]:
    return [proxy.data(proxy.index(r, 0)) for r in range(proxy.rowCount())]


def test_family_model_passes_modeltester_and_lists_invalid_entries(
    qtmodeltester: Any, registry: Registry
) -> None:
    model = FamilyModel(registry, CacheBridge())
    qtmodeltester.check(model)
    rows = [model.data(model.index(r, 0)) for r in range(model.rowCount())]
    assert {"smollm2-135m-instruct", "gemma-3-270m", "gemma-4", "broken"} <= set(rows)
    broken = model.index(rows.index("broken"), 0)
    assert model.data(broken, Roles.Invalid) is True
    assert "specs" in model.data(broken, 3)  # ToolTipRole carries the reason


def test_filters(qtmodeltester: Any, registry: Registry) -> None:
    model = FamilyModel(registry, CacheBridge())
    proxy = FamilyFilterProxy()
    proxy.setSourceModel(model)
    qtmodeltester.check(proxy)
    assert "broken" in names(proxy)
    proxy.set_filters(text="gemma")
    assert sorted(names(proxy)) == [
        "gemma-3-270m",
        "gemma-3-it",
        "gemma-4",
        "gemma-4-dflash",
        "gemma-4-ggml",
        "gemma-4-qat",
    ]
    proxy.set_filters(text="", format="mlx")
    assert sorted(names(proxy)) == [
        "deepseek-r1-distill-qwen",
        "gemma-4",
        "llama-3",
        "llama-3.2",
        "mistral-7b-instruct",
        "mistral-small-3",
        "phi-4",
        "phi-4-mini-instruct",
        "qwen2.5-coder-instruct",
        "qwen2.5-instruct",
        "qwen3",
        "qwen3-coder",
        "qwen3.5",
        "qwen3.6",
    ]
    proxy.set_filters(format="", size_bucket="tiny")
    assert sorted(names(proxy)) == [
        "gemma-3-270m",
        "lfm2",  # LFM2 350M
        "qwen3",  # its 0.6B drafter is listed as a spec too
        "smollm2",
        "smollm2-135m-instruct",
    ]
    proxy.set_filters(size_bucket="large")
    assert "gemma-4" in names(proxy) and "gpt-oss" in names(proxy)
    assert "smollm2" not in names(proxy) and "phi-4-mini-instruct" not in names(proxy)
    proxy.set_filters(size_bucket="", drafter_only=True)
    assert sorted(names(proxy)) == [
        "deepseek-r1-distill-qwen",
        "deepseek-v4-flash",
        "gemma-3-it",
        "gemma-4",
        "gemma-4-dflash",
        "gemma-4-ggml",
        "gemma-4-qat",
        "gpt-oss",
        "llama-3",
        "llama-3.2",
        "qwen2.5-coder-instruct",
        "qwen2.5-instruct",
        "qwen3",
        "qwen3-dflash",
        "qwen3.6-dflash",
        "qwen3.6-sidecar-mtp",
        "qwen3.8",
        "smollm2",
        "smollm2-135m-instruct",
    ]
    proxy.set_filters(drafter_only=False, downloaded_only=True)
    assert "gemma-4" not in names(proxy) and "smollm2-135m-instruct" in names(proxy)
    assert "broken" not in names(proxy)
    qtmodeltester.check(proxy)


def test_spec_tree_markers_for_targets_and_drafters(qtmodeltester: Any, registry: Registry) -> None:
    cache = FakeCache(
        {
            ("gemma-4", "target", "Q4_K_M"): "cached",
            ("gemma-4", "target", "Q8_0"): "partial",
            ("gemma-4", "drafter", "BF16"): "cached",
        }
    )
    tree = SpecTreeModel(cache)
    tree.set_family(registry.get("gemma-4"))
    qtmodeltester.check(tree)
    first = tree.index(0, 0)
    assert tree.data(first).startswith("GGUF")
    groups = [tree.data(tree.index(r, 0, first)) for r in range(tree.rowCount(first))]
    assert groups == ["Model quantizations", "Drafter quantizations"]

    def leaves(group_row: int) -> dict[str, tuple[str, Any]]:
        g = tree.index(group_row, 0, first)
        out = {}
        for r in range(tree.rowCount(g)):
            node: Node = tree.data(tree.index(r, 0, g), Roles.Node)
            out[node.quant or ""] = (tree.data(tree.index(r, 1, g)), tree.data(tree.index(r, 0, g), 1))
        return out

    targets, drafters = leaves(0), leaves(1)
    assert targets["Q4_K_M"][0] == "Downloaded"
    assert targets["Q8_0"][0] == "Partially downloaded"
    assert targets["Q4_0"][0] == "Not downloaded"
    assert all(icon is not None for _t, icon in targets.values())  # every leaf carries a marker icon
    assert set(drafters) == {"BF16", "F16", "Q8_0"}
    assert drafters["BF16"][0] == "Downloaded" and drafters["Q8_0"][0] == "Not downloaded"
    tree.set_family(registry.get("gemma-3-270m"))
    qtmodeltester.check(tree)
    only = tree.index(0, 0)
    assert tree.rowCount(only) == 1  # no drafter group for a spec without a drafter


def test_real_cache_marks_embedded_models_downloaded(registry: Registry) -> None:
    cache = CacheBridge()
    fam = registry.get("smollm2-135m-instruct")
    spec = fam.specs[0]
    assert cache.status(fam, spec, "target", "Q4_1") == "cached"
    assert cache.status(fam, spec, "drafter", "Q4_1") == "cached"
    gemma = registry.get("gemma-4")
    assert cache.status(gemma, gemma.specs[0], "target", "Q4_K_M") == "absent"


def test_browser_page_selection_and_actions(make_window: Any, qtbot: Any, registry: Registry) -> None:
    w = make_window(registry=registry)
    page = w.browser
    w.nav.setCurrentRow(1)
    page.select_family("smollm2-135m-instruct")
    node = page.current_node()
    assert node is not None and node.kind == "quant" and node.quant == "Q4_1"
    assert page.launch_btn.isEnabled()
    assert not page.download_btn.isEnabled()  # already on disk
    page.select_family("broken")
    assert page.invalid.isVisible() and "invalid" in page.invalid.text()
    assert not page.launch_btn.isEnabled()
    with qtbot.waitSignal(w.launchDialogOpened, timeout=5000) as blocker:
        page.select_family("gemma-3-270m")
        page.launch_btn.click()
    dlg = blocker.args[0]
    assert dlg.family.name == "gemma-3-270m"
    dlg.reject()


@pytest.mark.parametrize("language", ["en", "ja", "zh_CN", "ko"])
def test_browser_fits_the_default_window_without_clipping(
    make_window: Any, qtbot: Any, registry: Registry, language: str
) -> None:
    """At the default size the family table needs no horizontal scrollbar, the marker columns
    and the builtin names show in full, and the variant tree's status column is not cut."""
    from PySide6.QtCore import QSize
    from PySide6.QtWidgets import QApplication

    w = make_window(registry=registry)
    assert w.size() == QSize(1200, 780)  # make_window keeps MainWindow's default size
    w.set_language(language)
    w.nav.setCurrentRow(1)
    page = w.browser
    page.select_family("gemma-4")
    qtbot.waitExposed(page.table)
    QApplication.processEvents()
    table, tree = page.table, page.tree
    assert table.horizontalScrollBar().maximum() == 0, [table.columnWidth(c) for c in range(5)]
    assert sum(table.columnWidth(c) for c in range(5)) <= table.viewport().width()
    header = table.horizontalHeader()
    for col in (0, 1, 3, 4):  # everything but the sizes list, which elides with a tooltip
        assert table.columnWidth(col) >= table.sizeHintForColumn(col), col
    for col in (1, 3, 4):
        assert table.columnWidth(col) >= header.sectionSizeHint(col), col
    sizes_tip = page.proxy.data(page.proxy.index(page.table.currentIndex().row(), 2), 3)
    assert "E2B" in sizes_tip and "31B" in sizes_tip
    assert tree.horizontalScrollBar().maximum() == 0
    assert tree.columnWidth(1) >= tree.sizeHintForColumn(1)
    for button in (page.download_btn, page.delete_btn, page.launch_btn):
        assert button.width() >= button.sizeHint().width(), button.text()


def test_moe_specs_say_a_drafter_often_slows_them_down(registry: Registry) -> None:
    tree = SpecTreeModel(CacheBridge())
    tree.set_family(registry.get("qwen3"))
    tips = {}
    for r in range(tree.rowCount()):
        idx = tree.index(r, 0)
        tips[tree.data(idx)] = tree.data(idx, 3)  # ToolTipRole
    moe = tips["GGUF · 30B-A3B  unverified"]
    assert "3B of 30B parameters run per token" in moe
    assert "A drafter often slows MoE models down" in moe
    assert "MoE" not in tips["GGUF · 8B  unverified"]  # a dense model carries no such warning
    model = FamilyModel(registry, CacheBridge())
    row = model.row_of("qwen3")
    assert "A drafter often slows MoE models down" in model.data(model.index(row, 2), 3)
    row = model.row_of("qwen2.5-instruct")
    assert "MoE" not in model.data(model.index(row, 2), 3)


def test_while_the_selection_walks_the_card_is_held_and_then_shows_the_family_selected_last(
    make_window: Any, qtbot: Any, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A selection and the results that follow it (memory verdicts, status probes) must not each
    repaint the whole card: the first selection holds the card's updates for a frame; selections
    inside that frame neither paint it nor extend the hold; when it ends the card is painted showing
    the family selected last. The selections here run back to back with no event processed in
    between, faster than any frame on any machine, so what is checked does not depend on the
    machine's speed. How many paints a walk costs per frame is a benchmark
    (benchmarks/bench_browser_paints.py, docs/benchmarks.md)."""
    from PySide6.QtCore import QEvent, QObject

    from app.gui.views.browser import FRAME_MS

    w = make_window(registry=registry)
    w.show()
    w.nav.setCurrentRow(1)
    qtbot.waitExposed(w)
    page = w.browser
    gate = page._paint_gate
    qtbot.waitUntil(lambda: page.detail.updatesEnabled() and not gate.isActive(), timeout=10_000)
    names = sorted(registry.families)[:6]
    holds: list[int] = []
    real_start = gate.start
    monkeypatch.setattr(gate, "start", lambda: (holds.append(1), real_start()))
    paints: list[str] = []

    class CountPaints(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                paints.append(page.name.text())  # what the card shows when it is painted
            return False

    counter = CountPaints()
    page.detail.installEventFilter(counter)
    try:
        for name in names:  # a held arrow key
            page.select_family(name)
            assert not page.detail.updatesEnabled()  # held: nothing of the card is painted
            assert gate.isActive() and gate.interval() == FRAME_MS
            assert page.name.text() == name  # the card's content follows at once
        assert holds == [1]  # one hold for the whole walk, started by its first selection
        assert paints == []
        qtbot.waitUntil(page.detail.updatesEnabled, timeout=10_000)  # the frame ended
        qtbot.waitUntil(lambda: bool(paints), timeout=10_000)
        assert set(paints) == {names[-1]}  # every paint shows the family selected last
        family = registry.families[names[-1]]
        assert page.description.text() == family.description

        page.select_family(names[0])  # a later selection holds the card again
        assert not page.detail.updatesEnabled() and gate.isActive() and holds == [1, 1]
        qtbot.waitUntil(page.detail.updatesEnabled, timeout=10_000)
        qtbot.waitUntil(lambda: paints[-1] == names[0], timeout=10_000)
    finally:
        page.detail.removeEventFilter(counter)
