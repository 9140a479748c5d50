"""Drafters found on this computer in the launch dialog.

A user family registered for the embedded SmolLM2 F32 file declares no drafter. Beside it, in the
same folder, sit the Q4_1 file (same vocabulary, smaller) and the Gemma 3 270M file (another
tokenizer). The launch dialog runs the real finder off the GUI thread: it offers the Q4_1 file,
never the Gemma one, and launching with it runs the real llama.cpp engine with that drafter.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.core.launch.plan import plan_auto
from app.core.registry import Registry
from app.core.settings import Settings
from app.gui.controllers.engine_loader import choice_from_record, launch_record, speculation_label
from app.gui.views.launch_dialog import LaunchDialog

FAMILY = "smollm2-no-drafter"


def folder_with(tmp_path: Path, *files: Path) -> Path:
    folder = tmp_path / "models"
    folder.mkdir()
    for f in files:
        (folder / f.name).symlink_to(f)
    return folder


def register(w: Any, target: Path, size: float = 0.135) -> None:
    w.registry.register(
        {
            "name": FAMILY,
            "description": "the embedded SmolLM2 F32 file, registered without a drafter",
            "context_length": 2048,
            "architectures": ["LlamaForCausalLM"],
            "specs": [
                {
                    "format": "gguf",
                    "size_in_billions": size,
                    "quantizations": ["F32"],
                    "model_file_name_template": target.name,
                    "sources": {"local": {"path": str(target)}},
                }
            ],
        }
    )


def open_dialog(w: Any, qtbot: Any) -> LaunchDialog:
    family, spec, quant = w.registry.match(FAMILY, "gguf", None, "F32")
    assert not spec.declares_drafter()
    with qtbot.waitSignal(w.launchDialogOpened, timeout=10_000) as opened:
        w.open_launch_dialog(family, spec, quant)
    dlg: LaunchDialog = opened.args[0]
    # the finder started as the dialog opened (the file is on disk) and runs on a worker
    qtbot.waitUntil(lambda: not dlg.finding(), timeout=60_000)
    assert dlg.values().found is not None, "the finder did not run"
    return dlg


def test_found_q4_drafter_is_offered_never_gemma_and_launches_drafting(
    make_window: Any, qtbot: Any, tmp_path: Path, smollm2_f32: Path, smollm2_q4: Path, gemma3_q4: Path
) -> None:
    folder = folder_with(tmp_path, smollm2_f32, smollm2_q4, gemma3_q4)
    target, q4 = folder / smollm2_f32.name, folder / smollm2_q4.name
    w = make_window()
    register(w, target)
    dlg = open_dialog(w, qtbot)
    assert dlg.engine_name == "llama.cpp"
    assert dlg.is_panel_visible()
    assert dlg.state.drafter_source == "found"
    offered = [dlg.found_drafter.itemData(i) for i in range(dlg.found_drafter.count())]
    assert offered == [str(q4)]
    assert all("gemma" not in Path(p).name.lower() for p in offered)
    assert not dlg.found_drafter.isHidden()
    assert dlg.found_note.isHidden()  # something was found: no "none found" note
    assert "identical vocabulary" in dlg.found_drafter.toolTip()  # why it is compatible, on hover
    assert str(q4) in dlg.found_drafter.toolTip()
    assert dlg.enable.text() == "Use the drafter model"
    assert "nothing is downloaded" in dlg.enable.toolTip()
    assert not dlg.ngram_box.isHidden()  # model-free methods stay as they are

    # Auto (the default) may try it
    auto_choice = dlg.choice()
    assert auto_choice.auto and auto_choice.speculation.draft_model_path == str(q4)
    assert plan_auto(auto_choice, w.cache.resolve).drafter_path == str(q4)

    dlg.enable.setChecked(True)
    assert dlg.lbl_draft_quant.isHidden() and dlg.draft_quant.isHidden()  # no quantization to pick (one row)
    dlg.temperature.setValue(0.0)
    dlg.max_tokens.setValue(24)
    choice = dlg.choice()
    assert choice.downloads == [] and not choice.auto
    opts = choice.speculation
    assert (opts.enabled, opts.method, opts.draft_model_path) == (True, "draft", str(q4))
    assert speculation_label(choice) == f"draft {q4.name}"
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000):
        dlg.launch_button.click()
    with qtbot.waitSignal(w.chat.answerFinished, timeout=120_000) as blocker:
        w.chat.send("What is the capital of France?")
    stats = blocker.args[0]
    assert stats.completion_tokens > 0
    assert stats.rounds > 0 and stats.drafted > 0  # the found drafter really drafted
    assert 0 <= stats.accepted <= stats.drafted

    # the launch record keeps the file; it reopens while the file exists, else says why
    record = launch_record(choice)
    assert record.draft_model_path == str(q4) and record.speculation_method == "draft"
    again = choice_from_record(record, Registry.load(), choice.sampling)
    assert again.speculation.draft_model_path == str(q4) and again.speculation.enabled
    q4.unlink()
    with pytest.raises(ValueError, match="drafter's file is no longer on disk"):
        choice_from_record(record, Registry.load(), choice.sampling)


def test_no_compatible_drafter_says_so_and_keeps_model_free_methods(
    make_window: Any, qtbot: Any, tmp_path: Path, smollm2_f32: Path, gemma3_q4: Path
) -> None:
    """The Gemma 3 file registered without a drafter: nothing on this computer shares its
    vocabulary (the SmolLM2 file beside it, the registered SmolLM2 files), so none is offered."""
    folder = folder_with(tmp_path, gemma3_q4, smollm2_f32)
    w = make_window()
    register(w, folder / gemma3_q4.name, size=0.27)
    dlg = open_dialog(w, qtbot)
    assert dlg.state.found_drafters == () and dlg.values().found  # judged, all refused
    assert not dlg.is_panel_visible()
    assert not dlg.found_note.isHidden()
    assert "No compatible drafter found on this computer" in dlg.found_note.text()
    assert "smaller model of the same family" in dlg.found_note.text()
    assert "model-free method" in dlg.found_note.text()
    tip = dlg.found_note.toolTip()
    assert str(folder / smollm2_f32.name) in tip and "tokenizer type differs" in tip  # why not, on hover
    assert not dlg.ngram_box.isHidden() and dlg.ngram_method.count() > 1
    choice = dlg.choice()
    assert choice.auto and choice.speculation.draft_model_path is None


def test_a_declared_drafter_is_not_searched(qtbot: Any, smollm2_q4: Path) -> None:
    """A model that declares a drafter keeps the declared one (no finder, no note)."""
    family, spec, quant = Registry.load().match("smollm2-135m-instruct", "gguf", None)
    from app.gui.cache_bridge import CacheBridge

    dlg = LaunchDialog(family, spec, quant, CacheBridge(), Settings())
    qtbot.addWidget(dlg)
    assert not dlg.finding() and dlg.state.drafter_source == "declared"
    assert dlg.found_note.isHidden() and dlg.found_drafter.isHidden()
