"""The model browser shows whether the selected quantization fits in memory."""

from __future__ import annotations

from typing import Any

from app.core.registry import Registry
from app.gui.models.family_model import Roles
from app.gui.models.spec_tree import Node


def _select_quant(page: Any, qtbot: Any, family: str, quant: str) -> None:
    page.select_family(family)
    tree = page.tree
    model = tree.model()
    spec = model.index(0, 0)
    group = model.index(0, 0, spec)
    for r in range(model.rowCount(group)):
        idx = model.index(r, 0, group)
        node: Node = model.data(idx, Roles.Node)
        if node.quant == quant:
            tree.setCurrentIndex(idx)
            return
    raise AssertionError(f"{quant} not in the tree")


def test_selected_quantization_shows_its_fit_with_numbers_on_hover(make_window: Any, qtbot: Any) -> None:
    w = make_window(registry=Registry.load())
    page = w.browser
    w.nav.setCurrentRow(1)
    _select_quant(page, qtbot, "smollm2-135m-instruct", "Q4_1")
    qtbot.waitUntil(lambda: page.fit_label.text() != "", timeout=5000)
    text = page.fit_label.text()
    assert text.startswith("Fits in memory at 4096 tokens")
    assert "Largest quantization that fits: F32" in text
    tip = page.fit_label.toolTip()
    assert "Weights: 94 MiB" in tip  # the Q4_1 file
    assert "KV cache: 90 MiB" in tip  # 30 x 3 x 128 x 2 bytes x 4096 tokens
    assert "Available now:" in tip
    # a hub model not downloaded: weights estimated, said so
    _select_quant(page, qtbot, "qwen3", "Q8_0")
    qtbot.waitUntil(lambda: page.fit_label.text() != "", timeout=20_000)  # computed on a worker
    assert page.fit_label.text().split("\n")[0].endswith("at 4096 tokens")
    assert "(estimated from the parameter count)" in page.fit_label.toolTip()
    assert "KV cache: unknown" in page.fit_label.toolTip()
