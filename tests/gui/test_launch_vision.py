"""The launch dialog says whether a launch reads images: an MLX vision model by its
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


def test_the_dialog_says_when_the_chats_pictures_cannot_go_to_this_launch(
    qtbot: Any,
    registry: Registry,  # noqa: F811
    engines: dict[str, bool],  # noqa: F811
) -> None:
    """A conversation with pictures: a text model, a vision model whose projector is not on disk,
    and a vision model that reads them (MLX, its vision tower) each get their own answer."""
    from app.core.settings import Settings
    from app.gui.cache_bridge import CacheBridge
    from app.gui.views.launch_dialog import LaunchDialog

    def opened(name: str, fmt: str, chat_images: bool) -> LaunchDialog:
        fam, spec, quant = registry.match(name, fmt, None)
        dlg = LaunchDialog(fam, spec, quant, CacheBridge(), Settings(), chat_images=chat_images)
        qtbot.addWidget(dlg)
        dlg.show()
        return dlg

    text_only = opened("smollm2-135m-instruct", "gguf", True)
    assert text_only.chat_images_note.isVisible()
    assert "this model reads text only" in text_only.chat_images_note.text()
    assert text_only.launch_button.isEnabled()  # a warning: the launch itself is fine
    no_projector = opened("gemma-4-ggml", "gguf", True)
    assert "projector (mmproj) is not downloaded" in no_projector.chat_images_note.text()
    tower = opened("gemma-4", "mlx", True)
    assert tower.engine_name == "mlx" and not tower.chat_images_note.isVisible()
    no_pictures = opened("smollm2-135m-instruct", "gguf", False)
    assert not no_pictures.chat_images_note.isVisible()


def test_the_main_window_tells_the_dialog_the_chat_has_pictures(make_window: Any, qtbot: Any) -> None:
    from app.core.images import check_image
    from app.devtools.images import image_bytes

    w = make_window()
    store = w.store
    conv = store.create_conversation("with a picture")
    name = store.images.put(check_image(image_bytes(), "picture"))
    store.add_message(conv.id, "user", "what is this?", images=[name])
    w.chat.open_conversation(conv.id)
    fam, spec, quant = w.registry.match("smollm2-135m-instruct", "gguf", None)
    with qtbot.waitSignal(w.launchDialogOpened, timeout=10000) as opened:
        w.open_launch_dialog(fam, spec, quant)
    dlg = opened.args[0]
    assert "this model reads text only" in dlg.chat_images_note.text()
    dlg.reject()
