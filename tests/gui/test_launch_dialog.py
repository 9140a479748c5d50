from __future__ import annotations

from typing import Any

import pytest

from app.core.engines import capability
from app.core.registry import Registry
from app.core.settings import Settings
from app.gui.cache_bridge import CacheBridge
from app.gui.views.launch_dialog import LaunchDialog, ordered_draft_quants
from app.gui.widgets import fitted_height, screen_height_cap

NO_DRAFTER_MLX = {
    "name": "tiny-mlx",
    "specs": [
        {
            "format": "mlx",
            "size_in_billions": 1,
            "quantizations": ["4bit"],
            "sources": {"huggingface": {"model_id": "org/tiny-{quantization}"}},
        }
    ],
}


@pytest.fixture
def registry() -> Registry:
    reg = Registry.load()
    reg.register(NO_DRAFTER_MLX)
    return reg


@pytest.fixture
def engines(monkeypatch: pytest.MonkeyPatch) -> dict[str, bool]:
    """Which engines count as installed; the real availability check is bypassed per test."""
    state = {"llama.cpp": True, "mlx": True}

    def fake(name: str) -> capability.Availability:
        if state.get(name):
            return capability.Availability(True, "9999.1.1")
        return capability.Availability(False, None, f"{name} is not installed")

    monkeypatch.setattr(capability, "engine_availability", fake)
    return state


def dialog(qtbot: Any, registry: Registry, name: str, fmt: str, size: str | None = None) -> LaunchDialog:
    fam, spec, quant = registry.match(name, fmt, size)
    dlg = LaunchDialog(fam, spec, quant, CacheBridge(), Settings())
    qtbot.addWidget(dlg)
    dlg.show()
    return dlg


# (family, format, engine, engine installed) -> panel shown
MATRIX = [
    ("smollm2-135m-instruct", "gguf", "llama.cpp", True, True),  # drafter + engine runs one
    ("smollm2-135m-instruct", "gguf", "llama.cpp", False, False),  # drafter, engine cannot (missing)
    ("gemma-3-270m", "gguf", "llama.cpp", True, False),  # no drafter, engine could
    ("gemma-3-270m", "gguf", "llama.cpp", False, False),  # no drafter, engine cannot
    ("gemma-4", "mlx", "mlx", True, True),  # drafter + MLX runs it
    ("gemma-4", "mlx", "mlx", False, False),  # drafter, MLX missing
    ("tiny-mlx", "mlx", "mlx", True, False),  # no drafter, MLX could
    ("tiny-mlx", "mlx", "mlx", False, False),  # no drafter, MLX missing
    # the kinds of target llama.cpp runs (the real dialog over the builtin registry)
    ("qwen3.6", "gguf", "llama.cpp", True, True),  # built-in MTP heads: no drafter file at all
    ("gpt-oss", "gguf", "llama.cpp", True, True),  # an EAGLE-3 drafter
    ("qwen3-dflash", "gguf", "llama.cpp", True, True),  # a DFlash drafter
    ("qwen3.6", "gguf", "llama.cpp", False, False),  # built-in heads, llama.cpp missing
]


@pytest.mark.parametrize(("name", "fmt", "engine", "installed", "shown"), MATRIX)
def test_panel_visibility_matrix(
    qtbot: Any,
    registry: Registry,
    engines: dict[str, bool],
    name: str,
    fmt: str,
    engine: str,
    installed: bool,
    shown: bool,
) -> None:
    engines[engine] = installed
    dlg = dialog(qtbot, registry, name, fmt)
    assert dlg.engine_name == engine
    assert dlg.is_panel_visible() is shown
    assert dlg.spec_panel.isVisible() is shown
    if not installed:
        assert dlg.engine_note.isVisible() and not dlg.launch_button.isEnabled()


def test_panel_follows_variant_switch_live(qtbot: Any, registry: Registry, engines: dict[str, bool]) -> None:
    engines["mlx"] = False
    dlg = dialog(qtbot, registry, "gemma-4", "gguf", "2")
    assert dlg.is_panel_visible()
    mlx_index = next(i for i in range(dlg.variant.count()) if dlg.variant.itemData(i).format == "mlx")
    dlg.variant.setCurrentIndex(mlx_index)
    assert dlg.engine_name == "mlx" and not dlg.is_panel_visible()
    dlg.variant.setCurrentIndex(0)
    assert dlg.is_panel_visible()


def test_panel_follows_engine_switch_live(
    qtbot: Any, registry: Registry, engines: dict[str, bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two engines for gguf: the second cannot run drafters. Switching shows/hides the panel.
    weak = capability.EngineInfo(
        "weak", "Weak engine", frozenset({"gguf"}), "weak", "weak", "0", frozenset(), frozenset()
    )
    monkeypatch.setitem(capability.ENGINES, "weak", weak)
    engines["weak"] = True
    dlg = dialog(qtbot, registry, "smollm2-135m-instruct", "gguf")
    assert dlg.engine.count() == 2 and dlg.is_panel_visible()
    dlg.engine.setCurrentIndex(1)
    assert dlg.engine_name == "weak" and not dlg.is_panel_visible()
    assert not dlg.ngram_box.isVisible()  # and it offers no model-free methods either
    dlg.engine.setCurrentIndex(0)
    assert dlg.is_panel_visible() and dlg.ngram_box.isVisible()


def test_depth_validation_placeholder_and_choice(
    qtbot: Any, registry: Registry, engines: dict[str, bool]
) -> None:
    dlg = dialog(qtbot, registry, "smollm2-135m-instruct", "gguf")
    field = dlg.depth_field
    assert field.edit.placeholderText() == "engine default: 3"
    assert "draft.n_max" in field.edit.toolTip()
    dlg.enable.setChecked(True)
    for bad in ("0", "-2", "abc", "2.5"):
        field.edit.setText(bad)
        assert field.error.isVisible(), bad
        assert "greater than zero" in field.error.text()
        assert "num_speculative_tokens" in field.error.toolTip()  # the core parser's own message
        assert not dlg.launch_button.isEnabled()
    field.edit.setText(" 5 ")
    assert not field.error.isVisible() and dlg.launch_button.isEnabled()
    choice = dlg.choice()
    assert choice.speculation.enabled and choice.speculation.method == "draft"
    assert choice.speculation.num_speculative_tokens == 5
    assert choice.speculation.draft_quantization == "Q4_1"
    assert choice.downloads == []  # the embedded drafter is already on disk
    field.edit.setText("")
    assert dlg.choice().speculation.num_speculative_tokens is None


def test_gemma4_mtp_defaults_tooltips_and_download_notice(
    qtbot: Any, registry: Registry, engines: dict[str, bool]
) -> None:
    dlg = dialog(qtbot, registry, "gemma-4", "gguf", "2")
    assert dlg.enable.text() == "Enable MTP"
    assert dlg.depth_field.edit.placeholderText() == "engine default: 2"
    options = [dlg.draft_quant.itemData(i) for i in range(dlg.draft_quant.count())]
    assert options[0] in ("BF16", "F16") and options[-1] == "Q8_0"  # unquantized first
    assert dlg.draft_quant.currentIndex() == 0
    # Switch off: no drafter quantization and no drafter download notice (web_ui.fields); the
    # tokens-per-round field stays in view, disabled, so its default can be read.
    assert not dlg.draft_quant.isVisible() and not dlg.lbl_draft_quant.isVisible()
    assert not dlg.download_note.isVisible()
    assert dlg.depth_field.isVisible() and not dlg.depth_field.isEnabled()
    dlg.enable.setChecked(True)
    assert dlg.draft_quant.isVisible() and dlg.lbl_draft_quant.isVisible()
    assert dlg.download_note.isVisible() and "queues its download" in dlg.download_note.text()
    assert dlg.depth_field.isEnabled()
    choice = dlg.choice()
    assert ("drafter", options[0]) in choice.downloads and choice.speculation.method == "mtp"
    # Each tooltip says what the user needs to decide: what the switch does and costs, why an
    # unquantized drafter, and how to tell whether speculation pays.
    enable_tip = dlg.enable.toolTip()
    assert "proposes several tokens per round" in enable_tip
    assert "the answer is identical, decoding is faster" in enable_tip
    assert "is not on this computer yet: launching with it on downloads it first" in enable_tip
    quant_tip = dlg.draft_quant.toolTip()
    assert "lowers how many of its tokens are accepted" in quant_tip
    assert "An unquantized drafter is recommended even for a quantized model." in quant_tip
    panel_tip = dlg.spec_panel.toolTip()
    assert "Speculation can be slower when the drafter is expensive" in panel_tip
    assert "mixture-of-experts" in panel_tip and "statistics strip shows tokens/s" in panel_tip
    moe = next(i for i in range(dlg.variant.count()) if dlg.variant.itemData(i).activated_size_in_billions)
    dlg.variant.setCurrentIndex(moe)
    assert dlg.moe_note.isVisible()


def test_model_free_methods_for_a_model_without_drafter(
    qtbot: Any, registry: Registry, engines: dict[str, bool]
) -> None:
    dlg = dialog(qtbot, registry, "gemma-3-270m", "gguf")
    assert not dlg.is_panel_visible() and dlg.ngram_box.isVisible()
    idx = dlg.ngram_method.findData("ngram-mod")
    dlg.ngram_method.setCurrentIndex(idx)
    assert dlg.ngram_depth.edit.placeholderText() == "engine default: 64"
    choice = dlg.choice()
    assert choice.speculation.enabled and choice.speculation.method == "ngram-mod"


def test_ordered_draft_quants() -> None:
    assert ordered_draft_quants(["Q8_0", "BF16", "Q4_0", "F16"]) == ["BF16", "F16", "Q8_0", "Q4_0"]


def test_tokens_per_round_tooltips_say_drafted_tokens_on_each_engine(
    qtbot: Any, registry: Registry, engines: dict[str, bool]
) -> None:
    """ "Tokens per round" counts drafted tokens on every engine; each tooltip says what that is there."""
    from app.core.speculative import default_tokens

    llama = dialog(qtbot, registry, "smollm2-135m-instruct", "gguf")
    tip = llama.depth_field.edit.toolTip()
    assert "drafted before the model verifies" in tip and "draft.n_max" in tip
    assert "bonus" not in tip and "counting" not in tip  # no "draft + verified token" wording
    assert "Default here: 3 (llama.cpp's own default)." in tip

    gemma_gguf = dialog(qtbot, registry, "gemma-4", "gguf", "2")
    assert "recommended for this Gemma 4 size" in gemma_gguf.depth_field.edit.toolTip()

    mlx = dialog(qtbot, registry, "gemma-4", "mlx", "2")
    assert mlx.engine.currentData() == "mlx" and mlx.is_panel_visible()
    drafts = default_tokens("mlx", "gemma-4", 2, "mtp").value
    assert drafts is not None
    assert mlx.depth_field.edit.placeholderText() == f"engine default: {drafts}"
    tip = mlx.depth_field.edit.toolTip()
    assert f"blocks of {drafts + 1} tokens that include the verified token" in tip
    assert f"drafts {drafts} per round" in tip

    gemma3 = dialog(qtbot, registry, "gemma-3-270m", "gguf")
    gemma3.ngram_method.setCurrentIndex(gemma3.ngram_method.findData("ngram-mod"))
    assert "longest draft taken from earlier text" in gemma3.ngram_depth.edit.toolTip()


@pytest.mark.parametrize("language", ["zh_CN", "ja", "ko"])
def test_tokens_per_round_tooltip_is_translated(
    qtbot: Any, registry: Registry, engines: dict[str, bool], language: str
) -> None:
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QApplication

    from app.gui.i18n import I18n

    base = (
        "Tokens per round: how many tokens are drafted before the model verifies them. The model "
        "adds one token of its own every round, so a round yields at most this many plus one. "
        "Leave empty for the engine default."
    )
    i18n = I18n(QApplication.instance())
    i18n.set_language(language)
    try:
        translated = QCoreApplication.translate("LaunchDialog", base)
        assert translated.strip() and translated != base  # the locale has this text
        for fmt, size in (("gguf", "2"), ("mlx", "2")):
            dlg = dialog(qtbot, registry, "gemma-4", fmt, size)
            tip = dlg.depth_field.edit.toolTip()
            # the translated explanation is there, followed by a translated engine detail ...
            head, _sep, detail = tip.partition("\n\n")
            assert head == translated
            assert detail.strip()
            # ... and no English is left in either part
            assert "Tokens per round" not in tip and "Default here" not in tip and "On MLX" not in tip
            assert "recommended" not in tip and "trained" not in tip
    finally:
        i18n.set_language("en")


def test_dialog_takes_the_height_its_contents_need(
    qtbot: Any, registry: Registry, engines: dict[str, bool]
) -> None:
    """No gaps around wrapped messages: the dialog follows its rows as they show and hide, and a
    field's message sits right under the field."""
    dlg = dialog(qtbot, registry, "gemma-4", "gguf", "2")
    layout = dlg.layout()

    def needed() -> int:
        return layout.totalHeightForWidth(dlg.width())

    def fitted() -> bool:  # what the contents need, or the screen's height where they need more
        height = fitted_height(dlg)
        return height is not None and abs(dlg.height() - height) <= 1

    dlg.auto_panel.switch.setChecked(False)  # the drafter switch turns Auto off; start without it
    qtbot.waitUntil(fitted, timeout=2000)
    off = needed()
    dlg.enable.setChecked(True)
    qtbot.waitUntil(lambda: needed() > off and fitted(), timeout=2000)
    dlg.enable.setChecked(False)
    qtbot.waitUntil(lambda: needed() == off and fitted(), timeout=2000)
    assert dlg.target_note.isVisible()
    quant_bottom = dlg.quant.mapTo(dlg, dlg.quant.rect().bottomLeft()).y()
    note_top = dlg.target_note.mapTo(dlg, dlg.target_note.rect().topLeft()).y()
    assert 0 <= note_top - quant_bottom <= 8


# --- sampling ----------------------------------------------------------------------------------


def test_sampling_starts_from_the_model_card_with_its_source_in_the_tooltip(
    qtbot: Any, registry: Registry, engines: dict[str, bool]
) -> None:
    tandem = Settings().sampling
    smol = dialog(qtbot, registry, "smollm2-135m-instruct", "gguf")
    assert (smol.temperature.value(), smol.top_p.value()) == (0.2, 0.9)  # SmolLM2's card
    assert (smol.top_k.value(), smol.repeat_penalty.value()) == (tandem.top_k, tandem.repeat_penalty)
    assert smol.max_tokens.value() == tandem.max_tokens
    card = "https://huggingface.co/HuggingFaceTB/SmolLM2-135M-Instruct"
    assert f"Starts at 0.2, recommended by the model card ({card})." in smol.temperature.toolTip()
    assert f"recommended by the model card ({card})" in smol.lbl_top_p.toolTip()
    assert f"Starts at {tandem.top_k}, Tandem's default (Settings)." in smol.top_k.toolTip()
    assert "Tandem's default (Settings)" in smol.repeat_penalty.toolTip()
    assert "model card" not in smol.top_k.toolTip()

    gemma = dialog(qtbot, registry, "gemma-4", "gguf", "2")
    assert (gemma.temperature.value(), gemma.top_p.value(), gemma.top_k.value()) == (1.0, 0.95, 64)
    assert "recommended by the model card (https://huggingface.co/google/gemma-4" in gemma.top_k.toolTip()

    # A family without recommendations starts from Tandem's defaults, and says so.
    plain = dialog(qtbot, registry, "tiny-mlx", "mlx")
    assert (plain.temperature.value(), plain.top_p.value(), plain.top_k.value()) == (
        tandem.temperature,
        tandem.top_p,
        tandem.top_k,
    )
    for box in (plain.temperature, plain.top_p, plain.top_k, plain.repeat_penalty):
        assert "Tandem's default (Settings)" in box.toolTip() and "model card" not in box.toolTip()


def test_choice_carries_every_sampling_field(
    qtbot: Any, registry: Registry, engines: dict[str, bool]
) -> None:
    dlg = dialog(qtbot, registry, "smollm2-135m-instruct", "gguf")
    dlg.temperature.setValue(0.35)
    dlg.top_p.setValue(0.8)
    dlg.top_k.setValue(7)
    dlg.repeat_penalty.setValue(1.15)
    dlg.max_tokens.setValue(33)
    s = dlg.choice().sampling
    assert (s.temperature, s.top_p, s.top_k, s.repeat_penalty, s.max_tokens) == (0.35, 0.8, 7, 1.15, 33)


def test_an_answer_longer_than_the_context_is_shown_inline_and_blocks_launch(
    qtbot: Any, registry: Registry, engines: dict[str, bool]
) -> None:
    dlg = dialog(qtbot, registry, "smollm2-135m-instruct", "gguf")
    assert dlg.launch_button.isEnabled() and not dlg.sampling_note.isVisible()
    dlg.ctx.setValue(512)
    dlg.max_tokens.setValue(512)
    assert dlg.sampling_note.isVisible()
    assert "Max new tokens (512) must be less than the context length (512)" in dlg.sampling_note.text()
    assert not dlg.launch_button.isEnabled()
    with qtbot.assertNotEmitted(dlg.accepted):
        dlg.accept()  # Enter on the form: nothing happens, the problem is already in view
    assert dlg.isVisible()
    dlg.max_tokens.setValue(200)
    assert not dlg.sampling_note.isVisible() and dlg.launch_button.isEnabled()
    assert dlg.choice().sampling.max_tokens == 200


def test_threads_field_is_disabled_for_mlx_with_the_reason(
    qtbot: Any, registry: Registry, engines: dict[str, bool]
) -> None:
    mlx = dialog(qtbot, registry, "gemma-4", "mlx", "2")
    assert mlx.engine_name == "mlx"
    assert not mlx.threads.isEnabled() and not mlx.lbl_threads.isEnabled()
    assert "does not use a CPU thread count" in mlx.threads.toolTip()
    assert "GPU" in mlx.lbl_threads.toolTip()
    mlx.threads.setValue(6)
    assert mlx.choice().threads is None  # never passed to an engine that ignores it

    llama = dialog(qtbot, registry, "gemma-4", "gguf", "2")
    assert llama.threads.isEnabled()
    assert "CPU threads the engine computes with" in llama.threads.toolTip()
    llama.threads.setValue(6)
    assert llama.choice().threads == 6


def test_a_dialog_taller_than_the_screen_scrolls_its_body_and_keeps_launch_on_screen(
    qtbot: Any, registry: Registry, engines: dict[str, bool]
) -> None:
    """With every section shown the dialog is taller than a 1400x900 screen, which must not put its
    Launch button below the screen: the title, tabs and buttons stay on the screen and the sections
    between them scroll (the offscreen screen here is 800 px tall)."""
    dlg = dialog(qtbot, registry, "gemma-4", "gguf", "2")
    dlg.auto_panel.switch.setChecked(False)
    dlg.enable.setChecked(True)
    cap = screen_height_cap(dlg)
    assert cap is not None
    qtbot.waitUntil(lambda: dlg.layout().totalHeightForWidth(dlg.width()) > cap, timeout=2000)
    qtbot.waitUntil(lambda: dlg.height() == cap, timeout=2000)
    avail = dlg.screen().availableGeometry()
    button = dlg.launch_button
    bottom = button.mapToGlobal(button.rect().bottomLeft()).y()
    assert avail.top() <= dlg.geometry().top() and bottom <= avail.bottom()
    bar = dlg.body.verticalScrollBar()
    assert bar.isVisible() and bar.maximum() > 0
    # the last row can be reached, and is then inside the visible part of the body
    dlg.body.ensureWidgetVisible(dlg.max_tokens)
    top_left = dlg.max_tokens.mapTo(dlg.body.viewport(), dlg.max_tokens.rect().topLeft())
    assert top_left.y() >= 0 and top_left.y() + dlg.max_tokens.height() <= dlg.body.viewport().height()
    # nothing scrolls sideways: the sections take the viewport's width
    assert dlg.body.widget().width() <= dlg.body.viewport().width()
    # with room to spare (a model without a drafter), a dialog takes what its contents need
    small = dialog(qtbot, registry, "gemma-3-270m", "gguf")
    qtbot.waitUntil(lambda: small.height() == small.layout().totalHeightForWidth(small.width()), timeout=2000)
    assert small.height() < cap
    assert not small.body.verticalScrollBar().isVisible()


def _wheel(widget: Any, steps: int) -> None:
    """``steps`` notches of a mouse wheel over ``widget`` (negative: towards the user, scrolls down)."""
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    pos = QPointF(widget.rect().center())
    event = QWheelEvent(
        pos,
        QPointF(widget.mapToGlobal(pos.toPoint())),
        QPoint(0, 0),
        QPoint(0, 120 * steps),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, event)


def test_the_wheel_scrolls_the_body_past_fields_without_changing_them(
    qtbot: Any, registry: Registry, engines: dict[str, bool]
) -> None:
    """Scrolling a tall launch dialog with the wheel over a spin box or a list scrolls the form;
    the field's value changes only once it has the focus (seen: a recursion when the wheel went on
    past the end of the scroll range)."""
    dlg = dialog(qtbot, registry, "gemma-4", "gguf", "2")
    dlg.auto_panel.switch.setChecked(False)
    dlg.enable.setChecked(True)
    bar = dlg.body.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.isVisible() and bar.maximum() > 0, timeout=2000)
    dlg.launch_button.setFocus()
    ctx, engine = dlg.ctx.value(), dlg.engine.currentIndex()
    for field in (dlg.ctx, dlg.engine):
        assert not field.hasFocus()
        bar.setValue(0)  # from the top each time: the wheel over the field must move the body
        _wheel(field, -2)
        assert bar.value() > 0, field.objectName()
    for _ in range(30):  # far past the end, and back past the start: the range ends, nothing else
        _wheel(dlg.temperature, -3)
    assert bar.value() == bar.maximum()
    for _ in range(30):
        _wheel(dlg.ctx, 3)
    assert bar.value() == 0
    assert (dlg.ctx.value(), dlg.engine.currentIndex()) == (ctx, engine)
    # a focused field takes the wheel as before
    dlg.ctx.setFocus()
    qtbot.waitUntil(dlg.ctx.hasFocus, timeout=2000)
    _wheel(dlg.ctx, 1)
    assert dlg.ctx.value() == ctx + dlg.ctx.singleStep()
