"""The launch dialog says whether a launch reads images (issue 26): an MLX vision model by its
vision tower, a GGUF model by its projector (with the speculation methods that run with pictures,
or that the projector is not downloaded), a text model not at all; in every locale."""

from __future__ import annotations

from typing import Any

from app.core.registry import Registry
from app.gui.i18n import I18n
from tests.gui.test_launch_dialog import dialog, engines, registry  # noqa: F401  (fixtures)


def test_the_dialog_says_how_the_launch_reads_images(
    qtbot: Any,
    registry: Registry,  # noqa: F811
    engines: dict[str, bool],  # noqa: F811
) -> None:
    mlx = dialog(qtbot, registry, "gemma-4", "mlx")
    assert mlx.engine_name == "mlx" and mlx.vision_note.isVisible()
    assert mlx.vision_note.text() == "Reads images: its vision tower is part of the model."
    gguf = dialog(qtbot, registry, "gemma-4-ggml", "gguf")
    assert gguf.engine_name == "llama.cpp" and gguf.vision_note.isVisible()
    assert "projector (mmproj), which is not downloaded" in gguf.vision_note.text()
    text_only = dialog(qtbot, registry, "smollm2-135m-instruct", "gguf")
    assert not text_only.vision_note.isVisible()


def test_the_images_note_is_translated(
    qtbot: Any,
    registry: Registry,  # noqa: F811
    engines: dict[str, bool],  # noqa: F811
) -> None:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    i18n = I18n(app)  # type: ignore[arg-type]
    dlg = dialog(qtbot, registry, "gemma-4-ggml", "gguf")
    english = dlg.vision_note.text()
    try:
        for lang in ("zh_CN", "ja", "ko"):
            i18n.set_language(lang)
            shown = dlg.vision_note.text()
            assert shown and shown != english and "mmproj" in shown, lang
    finally:
        i18n.set_language("en")
    assert dlg.vision_note.text() == english
