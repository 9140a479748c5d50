"""Suffix decoding in the GUI: the launch dialog offers it for MLX models with a tooltip
that says it learns from earlier answers and what "Forget learned text" does; Settings forgets."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from app.core.registry import Registry
from app.core.settings import Settings
from app.core.speculative import suffix as sx
from app.gui.views.settings_dialog import SettingsDialog
from tests.gui.test_launch_dialog import dialog, engines, registry  # noqa: F401  (fixtures)


def test_launch_dialog_offers_suffix_decoding_for_mlx_models(
    qtbot: Any,
    registry: Registry,  # noqa: F811
    engines: dict[str, bool],  # noqa: F811
) -> None:
    dlg = dialog(qtbot, registry, "tiny-mlx", "mlx")
    assert dlg.engine_name == "mlx" and dlg.ngram_box.isVisible()
    idx = dlg.ngram_method.findData("suffix")
    assert idx > 0 and dlg.ngram_method.itemText(idx) == "Suffix decoding"
    tip = dlg.ngram_method.itemData(idx, Qt.ItemDataRole.ToolTipRole)
    assert "earlier questions and answers" in tip and "Forget learned text" in tip
    assert dlg.ngram_method.itemText(dlg.ngram_method.findData("prompt-lookup")) == "Prompt lookup"
    assert dlg.ngram_method.findData("ngram-mod") == -1  # llama.cpp's methods are not MLX's
    dlg.ngram_method.setCurrentIndex(idx)
    assert "Forget learned text" in dlg.ngram_method.toolTip()
    assert dlg.ngram_depth.edit.placeholderText() == "engine default: 16"
    choice = dlg.choice()
    assert choice.speculation.enabled and choice.speculation.method == "suffix"


def test_llamacpp_models_are_not_offered_suffix(
    qtbot: Any,
    registry: Registry,  # noqa: F811
    engines: dict[str, bool],  # noqa: F811
) -> None:
    dlg = dialog(qtbot, registry, "gemma-3-270m", "gguf")
    assert dlg.engine_name == "llama.cpp" and dlg.ngram_method.findData("suffix") == -1
    assert dlg.ngram_method.findData("ngram-mod") > 0


def test_settings_forget_learned_text(qtbot: Any) -> None:
    store = sx.SuffixStore("vocab")
    store.append(sx.Record([1, 2], [3, 4, 5], None))
    dlg = SettingsDialog(Settings())
    qtbot.addWidget(dlg)
    dlg.show()
    assert dlg.forget.isEnabled() and "5 tokens now" in dlg.learned_note.text()
    qtbot.mouseClick(dlg.forget, Qt.MouseButton.LeftButton)
    assert store.records() == [] and not dlg.forget.isEnabled()
    assert "0 tokens now" in dlg.learned_note.text()
