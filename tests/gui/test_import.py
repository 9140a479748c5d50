"""Import a model from disk: dropping the embedded SmolLM2 F32 file on the
window registers a user family for it, the drafter finder offers the Q4_1 file (never a Gemma
file), the chosen drafter is paired with the family, and Launch opens the launch dialog."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from app.core import paths
from app.core.registry import Registry


def _drop(window: Any, path: Path) -> tuple[bool, bool]:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    pos = QPointF(window.width() / 2, window.height() / 2)
    with warnings.catch_warnings():  # PySide marks the QPoint constructor deprecated; Qt has no other
        warnings.simplefilter("ignore", DeprecationWarning)
        enter = QDragEnterEvent(
            pos.toPoint(),
            Qt.DropAction.CopyAction,
            mime,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
    QApplication.sendEvent(window, enter)
    drop = QDropEvent(
        pos, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    QApplication.sendEvent(window, drop)
    return enter.isAccepted(), drop.isAccepted()


def test_drop_gguf_registers_finds_the_q4_drafter_and_offers_launch(
    make_window: Any, qtbot: Any, smollm2_f32: Path, gemma3_q4: Path, smollm2_q4: Path
) -> None:
    w = make_window(registry=Registry.load())
    with qtbot.waitSignal(w.importer.dialogOpened, timeout=10000) as opened:
        accepted = _drop(w, smollm2_f32)
    assert accepted == (True, True)
    dlg = opened.args[0]
    name = dlg.family.name
    data = json.loads((paths.user_families_dir() / f"{name}.json").read_text("utf-8"))
    spec = data["specs"][0]
    assert spec["format"] == "gguf" and spec["quantizations"] == ["F32"]
    assert spec["sources"]["local"]["path"] == str(smollm2_f32.resolve())
    assert data["context_length"] == 8192  # from the header
    assert w.browser.current_entry().name == name  # shown and selected on the Models page

    if dlg.finding():
        qtbot.waitSignal(dlg.findingDone, timeout=30000).wait()
    qtbot.waitUntil(lambda: not dlg.finding(), timeout=30000)
    offered = [c.path for c in dlg.candidates]
    assert str(smollm2_q4) in offered
    assert all("gemma" not in Path(p or "").name.lower() for p in offered)
    assert str(gemma3_q4) in dlg.note.toolTip()  # not offered, the reason on hover
    assert "tokenizer type differs" in dlg.note.toolTip()

    dlg.drafters.setCurrentRow(offered.index(str(smollm2_q4)))
    fam = dlg.use_selected()
    assert fam is not None and fam.specs[0].sources.local is not None
    assert fam.specs[0].sources.local.draft_path == str(smollm2_q4.resolve())
    assert fam.specs[0].declares_drafter()

    with qtbot.waitSignal(w.launchDialogOpened, timeout=5000) as launched:
        dlg.launch_btn.click()
    launch = launched.args[0]
    assert launch.family.name == name
    launch.reject()

    # the same file again: the family it already has, no second entry
    with qtbot.waitSignal(w.importer.dialogOpened, timeout=10000) as again:
        _drop(w, smollm2_f32)
    assert again.args[0].family.name == name
    assert len(list(paths.user_families_dir().glob("*.json"))) == 1
    qtbot.waitUntil(lambda: not again.args[0].finding(), timeout=30000)
    again.args[0].reject()


def test_a_file_that_is_not_a_model_is_refused_in_one_line(
    make_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    w = make_window(registry=Registry.load())
    bad = tmp_path / "notes.gguf"
    bad.write_text("not a model")
    with qtbot.waitSignal(w.importer.failed, timeout=5000) as failed:
        _drop(w, bad)
    assert "notes.gguf" in failed.args[0] and "\n" not in failed.args[0]
    # the error banner says it until dismissed, with the next step (not a status line for 10 s)
    assert w.banner.isVisibleTo(w) and w.banner.error is not None
    assert w.banner.error.title == "Could not import the model"
    assert "notes.gguf" in w.banner.error.message
    assert "complete .gguf file" in w.banner.error.hint and "Nothing was added" in w.banner.error.hint
    assert not list(paths.user_families_dir().glob("*.json"))
    # a file with another extension is not even accepted as a drop
    other = tmp_path / "x.txt"
    other.write_text("x")
    assert _drop(w, other) == (False, False)


def _mlx_folder(folder: Path, weights: int) -> Path:
    """A small MLX model folder as the importer reads it: config, tokenizer, ``weights`` bytes."""
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"model_type": "llama", "num_hidden_layers": 2}))
    vocab = {"model": {"type": "BPE", "vocab": {"<s>": 0, "a": 1}}, "added_tokens": []}
    (folder / "tokenizer.json").write_text(json.dumps(vocab))
    (folder / "model.safetensors").write_bytes(b"\0" * weights)
    return folder


def test_the_import_button_takes_an_mlx_folder_by_its_config_json(
    make_window: Any, qtbot: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    """Import model… offers MLX folders by their config.json, not only "GGUF models (*.gguf)": an
    MLX folder, which its tooltip offers, is not only a drop. (The OS file dialog is the one
    stand-in: it answers with what a user picks.)"""
    from PySide6.QtWidgets import QFileDialog

    folder = _mlx_folder(tmp_path / "tiny-chat-4bit", weights=4096)
    offered: list[str] = []

    def pick(_parent: Any, _title: str, _start: str, filters: str) -> tuple[str, str]:
        offered.append(filters)
        return str(folder / "config.json"), filters.split(";;")[0]

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(pick))
    w = make_window(registry=Registry.load())
    with qtbot.waitSignal(w.importer.dialogOpened, timeout=5000) as opened:
        w.browser.hub_search.import_btn.click()
    assert "config.json" in offered[0] and "*.gguf" in offered[0]
    dlg = opened.args[0]
    assert dlg.family.specs[0].format == "mlx"
    stored = json.loads(next(paths.user_families_dir().glob("*.json")).read_text())
    assert stored["specs"][0]["format"] == "mlx"
    qtbot.waitUntil(lambda: not dlg.finding(), timeout=30000)
    dlg.reject()


def test_an_imported_mlx_folder_counts_its_weights_on_disk_for_memory(
    make_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    """The launch dialog's memory for an imported MLX folder is its weights on disk, not "Memory
    use unknown" (its quantization is "default", nothing to guess bits from)."""
    folder = _mlx_folder(tmp_path / "tiny-chat-mlx", weights=300_000)
    w = make_window(registry=Registry.load())
    with qtbot.waitSignal(w.importer.dialogOpened, timeout=5000) as opened:
        _drop(w, folder)
    imported = opened.args[0]
    qtbot.waitUntil(lambda: not imported.finding(), timeout=30000)
    family = imported.family
    imported.reject()
    spec = family.specs[0]
    with qtbot.waitSignal(w.launchDialogOpened, timeout=20_000) as launch:
        w.open_launch_dialog(family, spec, spec.quantizations[0])
    dlg = launch.args[0]
    qtbot.waitUntil(lambda: dlg.fit.verdict not in ("", "checking"), timeout=10_000)
    assert dlg.fit.verdict == "fits", dlg.fit.text()
    assert dlg.fit.estimate is not None and dlg.fit.estimate.weights_bytes == 300_000
    dlg.reject()
