"""The launch dialog's memory verdict for the chosen quantization and context,
computed off the GUI thread from the real file's header (or the size when not downloaded)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.core.catalog import fit
from tests.gui.test_launch_auto import open_dialog


def test_fit_verdict_follows_quantization_and_context(make_window: Any, qtbot: Any, smollm2_q4: Path) -> None:
    w = make_window()
    dlg = open_dialog(w, qtbot, "Q4_1")
    dlg.ctx.setValue(4096)
    qtbot.waitUntil(lambda: dlg.fit.estimate is not None and dlg.fit.estimate.ctx == 4096, timeout=20_000)
    est = dlg.fit.estimate
    assert est is not None
    real = fit.estimate_files(smollm2_q4, ctx=4096)
    # the header's KV cache: 30 layers x 3 KV heads x 64 dims x 2 (K and V) x 2 bytes (f16) x ctx
    assert est.kv_bytes == real.kv_bytes == 30 * 3 * 64 * 2 * 2 * 4096
    assert est.weights_bytes == real.weights_bytes
    assert dlg.fit.verdict == "fits" and dlg.fit.text().startswith("Fits in memory")
    assert "KV cache" in dlg.fit.toolTip() and "Available now" in dlg.fit.toolTip()

    dlg.ctx.setValue(2048)  # the context changes the KV cache, recomputed
    qtbot.waitUntil(lambda: dlg.fit.estimate is not None and dlg.fit.estimate.ctx == 2048, timeout=20_000)
    assert dlg.fit.estimate.kv_bytes == real.kv_bytes // 2


def test_fit_of_a_model_not_downloaded_uses_its_size(make_window: Any, qtbot: Any) -> None:
    w = make_window()
    family, spec, q = w.registry.match("smollm2", "gguf", "1.7", "Q4_K_M")
    with qtbot.waitSignal(w.launchDialogOpened, timeout=10_000) as opened:
        w.open_launch_dialog(family, spec, q)
    dlg = opened.args[0]
    qtbot.waitUntil(lambda: dlg.fit.estimate is not None, timeout=20_000)
    est = dlg.fit.estimate
    assert est.kv_bytes is None and est.weights_bytes == fit.estimated_weights(1.7, "Q4_K_M")
    assert "counted once the file is downloaded" in dlg.fit.toolTip()


def test_the_context_starts_automatic_and_the_verdict_is_for_autos_context(
    make_window: Any, qtbot: Any, smollm2_q4: Path
) -> None:
    """A fresh home launches with Automatic: the trained context (8,192 for SmolLM2) as far as
    memory allows; the verdict is computed at that context and the launch asks for it."""
    w = make_window()
    dlg = open_dialog(w, qtbot, "Q4_1")
    assert dlg.ctx.value() == 0 and dlg.ctx.text() == "Automatic"
    assert "trained for" in dlg.ctx.toolTip()
    qtbot.waitUntil(lambda: dlg.fit.estimate is not None, timeout=20_000)
    assert dlg.fit.estimate is not None and dlg.fit.estimate.ctx == fit.fitted_context(smollm2_q4)[0] == 8192
    assert dlg.choice().n_ctx == 0  # planned at load: plan_launch turns 0 into Auto's context
