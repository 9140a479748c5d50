"""Memory fit in the browser: every GGUF quantization row of the variant tree shows whether
it fits in memory (fits / tight / too large, the numbers on hover), computed in one batch on an
operations worker (never a header read on the GUI thread), "…" until known, the largest that
fits marked as recommended, and recomputed after the ``ops.changed`` broadcast or a new context
length."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.core import gguf_tools, paths
from app.core.catalog import fit, spec_fit
from app.core.registry import Registry
from app.core.units import human_bytes
from app.gui.models.family_model import Roles
from app.gui.models.registry_texts import verdict_text
from app.gui.models.spec_tree import Node

KV_PER_TOKEN = 30 * 3 * 64 * 2 * 2  # SmolLM2 135M: layers x KV heads x head dim x (K, V) x f16


@pytest.fixture
def header_threads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The real header reader, recording the thread every read runs on (memos cleared first)."""
    names: list[str] = []
    real = gguf_tools.read_header

    def recording(path: Path, *args: Any, **kwargs: Any) -> Any:
        names.append(threading.current_thread().name)
        return real(path, *args, **kwargs)

    fit._shape_of.cache_clear()
    spec_fit._file_parts.cache_clear()
    monkeypatch.setattr(gguf_tools, "read_header", recording)
    return names


def rows(page: Any) -> dict[tuple[int, str], Any]:
    """(spec row, quantization) -> the Memory cell's index, for every GGUF target quantization."""
    model = page.specs
    out = {}
    for s in range(model.rowCount()):
        spec_index = model.index(s, 0)
        if model.data(spec_index, Roles.Node).spec.format != "gguf":
            continue
        group = model.index(0, 0, spec_index)
        for r in range(model.rowCount(group)):
            node: Node = model.data(model.index(r, 0, group), Roles.Node)
            assert node.role == "target" and node.quant
            out[(s, node.quant)] = model.index(r, 2, group)
    return out


def wait_verdicts(page: Any, qtbot: Any) -> dict[tuple[int, str], Any]:
    cells = rows(page)
    qtbot.waitUntil(
        lambda: not page.specs.fitting() and all(page.specs.data(i, Roles.Fit) for i in cells.values()),
        timeout=20_000,
    )
    return cells


def test_each_quantization_row_shows_its_fit_from_the_header_off_the_gui_thread(
    make_window: Any, qtbot: Any, smollm2_q4: Path, smollm2_f32: Path, header_threads: list[str]
) -> None:
    w = make_window(registry=Registry.load())
    w.nav.setCurrentRow(1)
    page = w.browser
    page.select_family("smollm2-135m-instruct")
    cells = rows(page)
    assert {q for _s, q in cells} == {"Q4_1", "F32"}
    # nothing known yet for this family: "…" until the worker answers
    assert {page.specs.data(i) for i in cells.values()} == {"…"}
    assert page.specs.headerData(2, Qt.Orientation.Horizontal) == "Memory"
    cells = wait_verdicts(page, qtbot)

    ctx = 4096  # the settings' context length (the family allows 8192)
    q4, f32 = (page.specs.data(cells[(0, q)], Roles.Fit) for q in ("Q4_1", "F32"))
    for est, path in ((q4, smollm2_q4), (f32, smollm2_f32)):
        assert est.ctx == ctx
        assert est.weights_bytes == path.stat().st_size  # the real file
        assert est.kv_bytes == KV_PER_TOKEN * ctx  # the header's numbers
        # the declared drafter (the Q4_1 file): its weights and its own KV cache
        assert est.drafter_bytes == smollm2_q4.stat().st_size + KV_PER_TOKEN * ctx
        assert est.total_bytes == est.weights_bytes + est.kv_bytes + est.drafter_bytes + est.overhead_bytes
        assert est.notes == []
        assert est.verdict == "fits"
    # the header reads ran, all on the operations pool, none on the GUI thread
    assert header_threads and all(n.startswith("tandem-op") for n in header_threads), header_threads
    assert threading.main_thread().name not in header_threads

    # F32 is the largest quantization that fits: marked, Q4_1 not
    # each verdict beside its file's size (from the file itself here)
    assert page.specs.data(cells[(0, "F32")]) == f"★ Fits · {human_bytes(smollm2_f32.stat().st_size)}"
    assert page.specs.data(cells[(0, "Q4_1")]) == f"Fits · {human_bytes(smollm2_q4.stat().st_size)}"
    assert page.specs.data(cells[(0, "F32")], Roles.Recommended) is True
    assert page.specs.data(cells[(0, "Q4_1")], Roles.Recommended) is False
    tip = page.specs.data(cells[(0, "Q4_1")], 3)  # ToolTipRole: the numbers
    assert tip.splitlines()[0] == "Fits at 4096 tokens"
    assert "KV cache: 90 MiB" in tip and "Weights: 94 MiB" in tip
    assert "Drafter: 184 MiB" in tip and "Overhead: " in tip and "Available now: " in tip
    assert "★ The largest quantization that fits" in page.specs.data(cells[(0, "F32")], 3)
    # the selected row's summary under the tree comes from the same verdicts
    assert page.fit_label.text() == "Fits in memory at 4096 tokens\nLargest quantization that fits: F32"
    assert "KV cache: 90 MiB" in page.fit_label.toolTip()

    # another family and back: the verdicts are kept (shown at once, no "…")
    reads = len(header_threads)
    page.select_family("gemma-4")
    page.select_family("smollm2-135m-instruct")
    assert page.specs.data(rows(page)[(0, "F32")]).startswith("★ Fits · ")
    qtbot.waitUntil(lambda: not page.specs.fitting(), timeout=20_000)

    # a shorter context in the settings: "…" at once, then the KV cache of 2048 tokens
    w.settings = w.settings.model_copy(update={"context_length": 2048})
    w.cache.configure(w.settings.hub, w.settings.endpoint())  # what accepting the Settings does
    assert page.specs.data(rows(page)[(0, "Q4_1")]) == "…"
    cells = wait_verdicts(page, qtbot)
    assert page.specs.data(cells[(0, "Q4_1")], Roles.Fit).kv_bytes == KV_PER_TOKEN * 2048
    assert len(header_threads) == reads  # the header is memoized per file: no new read
    qtbot.waitUntil(lambda: w.ops.pending() == 0, timeout=10_000)


def test_rows_of_a_family_not_downloaded_use_size_estimates(make_window: Any, qtbot: Any) -> None:
    w = make_window(registry=Registry.load())
    w.nav.setCurrentRow(1)
    page = w.browser
    page.select_family("llama-3")
    cells = wait_verdicts(page, qtbot)
    family = page.specs.family
    sizes = {0: 8.0, 1: 70.0}
    assert {s for s, _q in cells} == {0, 1}  # the GGUF specs; MLX rows carry no verdict
    recorded = {s: family.specs[s].file_sizes or {} for s in sizes}
    assert recorded[0] and recorded[1] == {"Q4_K_M": 42_500_000_000}  # what the hub pages listed
    for (s, quant), index in cells.items():
        est = page.specs.data(index, Roles.Fit)
        text = page.specs.data(index)
        tip = page.specs.data(index, 3)
        if quant in recorded[s]:  # the size the registry recorded from the hub listing
            assert est.weights_bytes == recorded[s][quant] and "registry" in est.notes
            assert (
                text.removeprefix("★ ") == f"{verdict_text(est.verdict)} · {human_bytes(est.weights_bytes)}"
            )
            assert "(as the hub listed it when the catalog entry was checked)" in tip
        else:  # else estimated from the parameter count, and marked as an estimate
            assert est.weights_bytes == fit.estimated_weights(sizes[s], quant) and "estimated" in est.notes
            assert (
                text.removeprefix("★ ") == f"{verdict_text(est.verdict)} · ≈{human_bytes(est.weights_bytes)}"
            )
            assert "(estimated from the parameter count)" in tip
        assert est.kv_bytes is None
        assert est.ctx == min(4096, family.context_length)
        assert "KV cache: unknown until a file is downloaded" in tip
        assert "Drafter: unknown until it is listed or downloaded" in tip
    # 70B needs 42-74 GB: too large for any test machine; the 8B Q8_0 (8.5 GB) is the largest
    # that fits wherever at least 11 GB are free
    assert {page.specs.data(cells[(1, q)]).split(" · ")[0] for q in ("Q4_K_M", "Q8_0")} == {"Too large"}
    assert page.specs.recommended(1) is None
    best = page.specs.recommended(0)
    if fit.available_memory() > 11 * 2**30:
        assert best == "Q8_0" and page.specs.data(cells[(0, "Q8_0")]).startswith("★ Fits · ")
    marked = [k for k, i in cells.items() if page.specs.data(i).startswith("★")]
    assert marked == ([(0, best)] if best else [])
    # an MLX spec's rows show nothing in the column
    mlx = page.specs.index(2, 0)
    assert page.specs.data(mlx).startswith("MLX")
    leaf = page.specs.index(0, 2, page.specs.index(0, 0, mlx))
    assert page.specs.data(leaf) is None


def test_a_file_arriving_turns_the_size_estimate_into_the_header_numbers(
    make_window: Any, qtbot: Any, smollm2_q4: Path, tmp_path: Path
) -> None:
    target = tmp_path / "later" / "model.Q4_1.gguf"
    family = {
        "name": "later-model",
        "description": "a model whose file arrives later",
        "context_length": 8192,
        "specs": [
            {
                "format": "gguf",
                "size_in_billions": 0.135,
                "quantizations": ["Q4_1"],
                "sources": {"local": {"path": str(target)}},
            }
        ],
    }
    (paths.user_families_dir() / "later-model.json").write_text(json.dumps(family), "utf-8")
    w = make_window(registry=Registry.load())
    w.nav.setCurrentRow(1)
    page = w.browser
    page.select_family("later-model")
    cells = wait_verdicts(page, qtbot)
    before = page.specs.data(cells[(0, "Q4_1")], Roles.Fit)
    assert before.kv_bytes is None and before.weights_bytes == fit.estimated_weights(0.135, "Q4_1")

    target.parent.mkdir()
    target.symlink_to(smollm2_q4)  # the "download" finished
    w.ops.changed.emit()  # the one broadcast after an operation changed the cache
    cells = wait_verdicts(page, qtbot)
    qtbot.waitUntil(
        lambda: page.specs.data(cells[(0, "Q4_1")], Roles.Fit).kv_bytes is not None, timeout=20_000
    )
    after = page.specs.data(cells[(0, "Q4_1")], Roles.Fit)
    assert after.kv_bytes == KV_PER_TOKEN * 4096
    assert after.weights_bytes == smollm2_q4.stat().st_size and after.notes == []
    qtbot.waitUntil(lambda: w.ops.pending() == 0, timeout=10_000)


def test_the_marker_legend_wraps_between_markers_never_inside_one(make_window: Any, qtbot: Any) -> None:
    """The details panel's legend wraps between markers, never inside one ("○ not" / "downloaded")."""
    w = make_window()
    w.nav.setCurrentRow(1)
    text = w.browser.hint.text()
    items = [p for p in text.split("   ") if p]
    assert items == ["●\u00a0downloaded", "◐\u00a0partly\u00a0downloaded", "○\u00a0not\u00a0downloaded"]
