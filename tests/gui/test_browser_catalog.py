"""The model browser and the checked catalog: what people run first, sizes as people
write them, an "unverified" tag with its reason where no stored page confirms a source, where the
others were confirmed, the file size beside each Memory verdict, and "Refresh from hub" reading a
real repository listing (olah on loopback) into the variant tree."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.core.cache.queue import DownloadQueue
from app.core.registry import Registry, parse_family
from app.devtools.hubs.huggingface import OlahHub
from app.gui.cache_bridge import CacheBridge
from app.gui.models.downloads_model import DownloadsModel
from app.gui.models.family_model import FamilyModel, Roles
from app.gui.models.spec_tree import Node, SpecTreeModel
from tests.integration.test_gemma4_hub_names import PLAIN_OLD, gemma_hub

__all__ = ["gemma_hub"]  # the olah fixture serving the Gemma 4 repos under their real names

TOOLTIP = Qt.ItemDataRole.ToolTipRole
FOREGROUND = Qt.ItemDataRole.ForegroundRole


@pytest.fixture(scope="module")
def registry() -> Registry:
    return Registry.load()


def spec_rows(tree: SpecTreeModel) -> dict[str, Any]:
    return {tree.data(tree.index(r, 0)): tree.index(r, 0) for r in range(tree.rowCount())}


def test_families_are_listed_by_what_people_run(registry: Registry) -> None:
    model = FamilyModel(registry, CacheBridge())
    names = [model.entry(r).name for r in range(model.rowCount())]
    # what ships with the app (runs offline) first, the chat model before the base one
    assert names[:2] == ["smollm2-135m-instruct", "gemma-3-270m"]
    # then the catalog, newest release first: 2026 families before the 2024 ones they replace
    dates = [registry.get(n).released or "" for n in names[2:]]
    known = [d for d in dates if d]
    assert known == sorted(known, reverse=True)
    assert names.index("qwen3.6") < names.index("qwen3") < names.index("qwen2.5-instruct")
    assert len(registry.families) >= 20


def test_sizes_read_as_people_write_them(registry: Registry) -> None:
    tree = SpecTreeModel(CacheBridge())
    tree.set_family(registry.get("smollm2-135m-instruct"))
    assert list(spec_rows(tree)) == ["GGUF · 135M"]
    tree.set_family(registry.get("gemma-4-qat"))
    assert list(spec_rows(tree)) == ["GGUF · E2B", "GGUF · E4B", "GGUF · 12B", "GGUF · 26B-A4B", "GGUF · 31B"]
    model = FamilyModel(registry, CacheBridge())
    sizes = model.data(model.index(model.row_of("qwen3"), 2))
    assert sizes.startswith("600M, 4B, 8B, 14B, 30B-A3B")
    assert "0.6" not in sizes and "(MoE)" not in sizes


def test_unverified_sources_carry_a_tag_and_say_why(registry: Registry) -> None:
    tree = SpecTreeModel(CacheBridge())
    tree.set_family(registry.get("qwen3"))
    rows = spec_rows(tree)
    # no stored page shows the official Qwen GGUF file lists: tagged, in amber, with the reason
    gguf = rows["GGUF · 8B  unverified"]
    tip = tree.data(gguf, TOOLTIP)
    assert "Hugging Face: unverified. No stored public page confirms Qwen/Qwen3-8B-GGUF" in tip
    assert "ModelScope: unverified." in tip
    assert tree.data(gguf, FOREGROUND) is not None
    # the MLX 8B repo was confirmed: no tag, and where
    mlx = rows["MLX · 8B"]
    assert tree.data(mlx, TOOLTIP) == (
        "Hugging Face: checked on 2026-12-01 against https://huggingface.co/mlx-community/Qwen3-8B-4bit"
    )
    assert tree.data(mlx, FOREGROUND) is None
    # the tag follows the hub downloads come from: Gemma 4's GGUFs were confirmed on Hugging Face,
    # no stored page shows their ModelScope mirrors
    cache = CacheBridge()
    tree = SpecTreeModel(cache)
    tree.set_family(registry.get("gemma-4"))
    assert "GGUF · E4B" in spec_rows(tree)
    cache.configure("modelscope", None)
    tree.set_family(registry.get("gemma-4"))
    assert "GGUF · E4B  unverified" in spec_rows(tree)
    # a target whose weights carry MTP heads says so where a drafter would be named
    tree.set_family(registry.get("qwen3.6"))
    assert tree.data(tree.index(0, 1)) == "built-in MTP"
    # a user's own family carries neither: no tag, no line
    mine = parse_family(
        {
            "name": "mine",
            "specs": [
                {
                    "format": "gguf",
                    "size_in_billions": 1,
                    "quantizations": ["Q4_K_M"],
                    "model_file_name_template": "m-{quantization}.gguf",
                    "sources": {"huggingface": {"model_id": "me/m-GGUF"}},
                }
            ],
        }
    )
    tree.set_family(mine)
    assert list(spec_rows(tree)) == ["GGUF · 1B"]
    assert tree.data(tree.index(0, 0), TOOLTIP) is None


def test_memory_verdicts_show_the_file_size(make_window: Any, qtbot: Any) -> None:
    w = make_window(registry=Registry.load())
    w.nav.setCurrentRow(1)
    page = w.browser
    page.select_family("llama-3.2")  # bartowski's listing gave each quantization's size
    model = page.specs
    group = model.index(0, 0, model.index(0, 0))
    cells = {
        model.data(model.index(r, 0, group)): model.index(r, 2, group) for r in range(model.rowCount(group))
    }
    qtbot.waitUntil(lambda: all(model.data(i, Roles.Fit) for i in cells.values()), timeout=20_000)
    text = model.data(cells["Q4_K_M"])
    assert text.endswith("· 1.9 GB")  # 2.02 GB as the hub listed it, in the app's binary units
    assert "as the hub listed it when the catalog entry was checked" in model.data(cells["Q4_K_M"], TOOLTIP)
    # the column is wide enough for the verdict and its size in this font
    tree = page.tree
    assert tree.columnWidth(2) >= tree.fontMetrics().horizontalAdvance(f"★ {text}")


def test_refresh_from_hub_adds_what_the_repository_holds(
    make_window: Any, qtbot: Any, gemma_hub: OlahHub, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HF_ENDPOINT", gemma_hub.endpoint)
    w = make_window(registry=Registry.load())
    w.nav.setCurrentRow(1)
    page = w.browser
    page.select_family("gemma-4")
    tree = page.specs
    e4b = next(r for r in range(tree.rowCount()) if tree.data(tree.index(r, 0)) == "GGUF · E4B")
    page.tree.setCurrentIndex(tree.index(e4b, 0))
    assert page.refresh_btn.isEnabled() and page.refresh_btn.text() == "Refresh from hub"
    with qtbot.waitSignal(w.refreshFinished, timeout=20_000):
        qtbot.mouseClick(page.refresh_btn, Qt.MouseButton.LeftButton)
    notice = page.notice.text()
    assert f"{PLAIN_OLD} holds 3 quantizations." in notice
    assert "Added: UD-IQ2_XXS." in notice and "Not in the repository: BF16" in notice
    assert "Drafter quantizations: BF16, Q8_0." in notice
    # the tree shows the added quantization, with its marker, and the browser still shows gemma-4
    assert page.current_entry() is w.registry.get("gemma-4")
    row = next(r for r in range(tree.rowCount()) if tree.data(tree.index(r, 0)) == "GGUF · E4B")
    group = tree.index(0, 0, tree.index(row, 0))
    leaves: list[Node] = [tree.data(tree.index(r, 0, group), Roles.Node) for r in range(tree.rowCount(group))]
    assert leaves[-1].quant == "UD-IQ2_XXS"
    qtbot.waitUntil(lambda: leaves[-1].status == "absent", timeout=10_000)  # probed off the GUI thread


def test_the_downloads_queue_keeps_and_shows_which_file_it_took(
    gemma_hub: OlahHub, monkeypatch: pytest.MonkeyPatch, qapp: Any
) -> None:
    monkeypatch.setenv("HF_ENDPOINT", gemma_hub.endpoint)
    queue = DownloadQueue(Registry.load())
    item = queue.add("gemma-4", "gguf", "26B-A4B", "UD-Q4_K_M", drafter=True, draft_quantization="Q8_0")
    queue.start()
    try:
        assert queue.wait_idle(30)
    finally:
        queue.shutdown()
    done = queue.get(item.id)
    assert done.state == "finished" and Path(done.path).name == "gemma-4-26B-A4B-assistant-Q8_0.gguf"
    assert done.note.endswith("the repository has MTP/gemma-4-26B-A4B-assistant-Q8_0.gguf: using it")
    # a restart reads it back, and the Downloads page shows it under the item's name
    again = DownloadQueue(Registry.load())
    assert again.get(item.id).note == done.note
    model = DownloadsModel()
    try:
        model.upsert(again.get(item.id))
        assert model.data(model.index(0, 0)) == f"{done.label}\n{done.note}"
    finally:
        model.stop()


def test_refresh_from_an_unreachable_hub_says_so_and_keeps_the_list(
    make_window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # nothing listens there
    w = make_window(registry=Registry.load())
    w.nav.setCurrentRow(1)
    page = w.browser
    page.select_family("gemma-4-qat")
    before = [s.quantizations for s in w.registry.get("gemma-4-qat").specs]
    page.tree.setCurrentIndex(page.specs.index(0, 0))
    qtbot.mouseClick(page.refresh_btn, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: w.banner.isVisible(), timeout=20_000)
    text = w.banner.text.text()
    assert "The repository could not be listed" in text and "unsloth/gemma-4-E2B-it-qat-GGUF" in text
    assert "check the network" in text.lower()
    assert not page.notice.isVisible()  # "Listing the repository…" is gone
    assert [s.quantizations for s in w.registry.get("gemma-4-qat").specs] == before
