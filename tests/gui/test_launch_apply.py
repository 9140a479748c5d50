"""What the launch dialog sets is what the chat uses; Eject; the last launch reopens at start.

Sampling reaches the engine, Eject frees the model, and a restart reopens the last launch when its
files are still on disk, else falls back to the default with a note.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from app.core import settings as settings_mod
from app.core.engines.base import CancelToken, ChatMessage, Event, LoadRequest, Sampling
from app.core.engines.llamacpp import host as llamacpp_host
from app.gui.views.launch_dialog import LaunchDialog
from tests.gui.conftest import ScriptedEngine


class RecordingEngine(ScriptedEngine):
    """A scripted answer that keeps the Sampling of every request it is asked for."""

    def __init__(self) -> None:
        super().__init__("ok then", plain=True)
        self.received: list[Sampling] = []

    def script(
        self,
        messages: Sequence[ChatMessage],
        sampling: Sampling,
        cancel: CancelToken | None = None,
        **options: Any,
    ) -> Iterator[Event]:
        self.received.append(sampling)
        return super().script(messages, sampling, cancel, **options)


def recording_loader(
    engine: ScriptedEngine, requests: list[tuple[str, LoadRequest]]
) -> Callable[[str, LoadRequest, Callable[[str], None]], ScriptedEngine]:
    def load(name: str, req: LoadRequest, progress: Callable[[str], None]) -> ScriptedEngine:
        progress("loading")
        requests.append((name, req))
        return engine

    return load


def launch_through_dialog(
    w: Any, qtbot: Any, name: str, quant: str, setup: Callable[[LaunchDialog], None]
) -> None:
    family, spec, quant = w.registry.match(name, None, None, quant)
    with qtbot.waitSignal(w.launchDialogOpened, timeout=5000) as opened:
        w.open_launch_dialog(family, spec, quant)
    dlg: LaunchDialog = opened.args[0]
    setup(dlg)
    assert dlg.launch_button.isEnabled()
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000):
        dlg.launch_button.click()


def ask(w: Any, qtbot: Any, text: str) -> Any:
    with qtbot.waitSignal(w.chat.answerFinished, timeout=120_000) as blocker:
        w.chat.send(text)
    return blocker.args[0]


def test_sampling_set_in_the_dialog_reaches_the_engine(make_window: Any, qtbot: Any) -> None:
    engine = RecordingEngine()
    requests: list[tuple[str, LoadRequest]] = []
    w = make_window(loader=recording_loader(engine, requests))

    def setup(dlg: LaunchDialog) -> None:
        dlg.temperature.setValue(0.35)
        dlg.top_p.setValue(0.8)
        dlg.top_k.setValue(7)
        dlg.repeat_penalty.setValue(1.15)
        dlg.max_tokens.setValue(33)

    launch_through_dialog(w, qtbot, "smollm2-135m-instruct", "Q4_1", setup)
    ask(w, qtbot, "hello")
    got = engine.received[-1]
    assert (got.temperature, got.top_p, got.top_k, got.repeat_penalty, got.max_tokens) == (
        0.35,
        0.8,
        7,
        1.15,
        33,
    )


@pytest.mark.usefixtures("smollm2_q4")
def test_max_new_tokens_from_the_dialog_caps_a_real_llamacpp_answer(make_window: Any, qtbot: Any) -> None:
    w = make_window()

    def setup(dlg: LaunchDialog) -> None:
        assert dlg.engine_name == "llama.cpp"
        dlg.temperature.setValue(0.0)
        dlg.max_tokens.setValue(3)

    launch_through_dialog(w, qtbot, "smollm2-135m-instruct", "Q4_1", setup)
    stats = ask(w, qtbot, "Write a long story about a tandem bicycle.")
    assert 1 <= stats.completion_tokens <= 3
    assert stats.finish_reason == "length"


def test_default_model_starts_from_its_model_card_sampling(make_window: Any, qtbot: Any) -> None:
    engine = RecordingEngine()
    w = make_window(loader=recording_loader(engine, []))
    with qtbot.waitSignal(w.modelLoaded, timeout=10_000):
        w.load_default_model()
    ask(w, qtbot, "hi")
    got = engine.received[-1]
    assert (got.temperature, got.top_p) == (0.2, 0.9)  # SmolLM2-135M-Instruct's card


def llamacpp_children() -> list[int]:
    """The llama.cpp children running (the engine's process: it has no thread of its own)."""
    return llamacpp_host.live_processes()


@pytest.mark.usefixtures("smollm2_q4")
def test_eject_closes_the_real_engine_and_send_then_asks_for_a_model(make_window: Any, qtbot: Any) -> None:
    w = make_window()
    assert w.eject_btn.isHidden()  # nothing to eject yet
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000):
        w.load_default_model()
    assert llamacpp_children()
    assert w.eject_btn.isVisible() and w.eject_btn.isEnabled() and w.eject_btn.text() == "Eject"
    with qtbot.waitSignal(w.engine.unloaded, timeout=60_000):
        w.eject_btn.click()
    qtbot.waitUntil(lambda: not llamacpp_children(), timeout=10_000)  # the engine is closed
    assert not w.engine.is_loaded
    assert w.statusBar().currentMessage() == "Model unloaded; its memory is freed."
    assert w.status_model.text() == "No model loaded"
    assert w.chat_view.model_label.text() == "No model loaded"
    assert w.eject_btn.isHidden()
    with qtbot.waitSignal(w.errors.raised, timeout=5000) as blocker:
        w.chat.send("hello")
    assert blocker.args[0].message == "No model is loaded."
    assert "Load a model" in blocker.args[0].hint


def register_linked_model(w: Any, folder: Path, source: Path) -> Path:
    """A user family whose only file is a link this test can delete (the shared asset stays)."""
    folder.mkdir(parents=True, exist_ok=True)
    link = folder / "mine-Q4_1.gguf"
    link.symlink_to(source)
    w.registry.register(
        {
            "name": "mine",
            "context_length": 8192,
            "specs": [
                {
                    "format": "gguf",
                    "size_in_billions": 0.135,
                    "quantizations": ["Q4_1"],
                    "model_file_name_template": "mine-{quantization}.gguf",
                    "sources": {"local": {"path": str(folder / "mine-{quantization}.gguf")}},
                }
            ],
        }
    )
    return link


def test_restart_reopens_the_last_launch_or_falls_back_with_a_note(
    make_window: Any, qtbot: Any, tmp_path: Path, smollm2_q4: Path
) -> None:
    requests: list[tuple[str, LoadRequest]] = []
    w1 = make_window(loader=recording_loader(RecordingEngine(), requests))
    link = register_linked_model(w1, tmp_path / "models", smollm2_q4)

    def setup(dlg: LaunchDialog) -> None:
        dlg.ngram_method.setCurrentIndex(dlg.ngram_method.findData("ngram-mod"))
        dlg.ngram_depth.edit.setText("5")
        dlg.ctx.setValue(2048)
        dlg.temperature.setValue(0.45)
        dlg.max_tokens.setValue(77)

    launch_through_dialog(w1, qtbot, "mine", "Q4_1", setup)
    settings_mod.save(w1.settings)  # the fixture's windows do not write settings themselves
    w1.close()

    # A new window over the same TANDEM_HOME reopens that launch.
    requests.clear()
    engine2 = RecordingEngine()
    w2 = make_window(settings=settings_mod.load(), loader=recording_loader(engine2, requests))
    with qtbot.waitSignal(w2.modelLoaded, timeout=10_000) as loaded:
        w2.load_startup_model()
    assert loaded.args[0].family == "mine" and loaded.args[0].speculation == "ngram-mod"
    name, req = requests[-1]
    assert name == "llama.cpp" and Path(req.model_path).resolve() == smollm2_q4.resolve()
    assert req.speculation.method == "ngram-mod" and req.speculation.num_speculative_tokens == 5
    assert req.n_ctx == 2048
    ask(w2, qtbot, "hi")
    assert (engine2.received[-1].temperature, engine2.received[-1].max_tokens) == (0.45, 77)
    assert w2.banner.isHidden()
    saved = settings_mod.load()
    w2.close()

    # Its file is gone: the default model loads instead, and the user is told why.
    link.unlink()
    requests.clear()
    w3 = make_window(settings=saved, loader=recording_loader(RecordingEngine(), requests))
    with qtbot.waitSignal(w3.modelLoaded, timeout=10_000) as loaded:
        w3.load_startup_model()
    assert loaded.args[0].family == "smollm2-135m-instruct"
    # the settings come from a scripted window, which starts with "Speculation at start: Off"
    # (tests/gui/conftest.py); the Auto default is covered by test_default_speculation.py
    assert saved.default_speculation == "off" and loaded.args[0].speculation == ""
    assert w3.banner.isVisible()
    banner = w3.banner.text.text()
    assert "Your last model was not reopened" in banner
    assert "mine Q4_1 could not be reopened: its files are no longer on disk" in banner
    assert "default model is loaded instead" in banner
    assert "mine Q4_1 could not be reopened" in w3.statusBar().currentMessage()
    assert w3.settings.last_model is not None and w3.settings.last_model.family == "smollm2-135m-instruct"


def test_first_start_loads_the_default_without_a_note(make_window: Any, qtbot: Any) -> None:
    w = make_window(loader=recording_loader(RecordingEngine(), []))
    assert w.settings.last_model is None
    with qtbot.waitSignal(w.modelLoaded, timeout=10_000) as loaded:
        w.load_startup_model()
    assert loaded.args[0].family == "smollm2-135m-instruct"
    assert w.banner.isHidden() and w.statusBar().currentMessage() == ""


def test_an_unregistered_last_launch_falls_back_with_a_note(make_window: Any, qtbot: Any) -> None:
    from app.core.settings import LastLaunch, Settings

    settings = Settings()
    settings.last_model = LastLaunch(
        family="unregistered-since", format="gguf", size="1", quantization="Q4_0", engine="llama.cpp"
    )
    w = make_window(settings=settings, loader=recording_loader(RecordingEngine(), []))
    with qtbot.waitSignal(w.modelLoaded, timeout=10_000) as loaded:
        w.load_startup_model()
    assert loaded.args[0].family == "smollm2-135m-instruct"
    assert "unregistered-since Q4_0 could not be reopened: unknown model" in w.banner.text.text()


def test_sending_while_the_model_loads_says_so_and_keeps_the_message(make_window: Any, qtbot: Any) -> None:
    """A newcomer types during the first load (Auto measuring takes a while): the banner says the
    model is still loading, not that none is loaded, and the message stays in the box."""

    from tests.gui.conftest import ScriptedEngine

    release = threading.Event()
    engine = ScriptedEngine(text="ready now")

    def slow_load(_engine_name: str, _req: Any, progress: Any) -> ScriptedEngine:
        progress("loading scripted engine")
        release.wait(30)
        return engine

    w = make_window(loader=slow_load)
    try:
        w.load_default_model()
        qtbot.waitUntil(lambda: w.engine.busy, timeout=10_000)
        w.chat_view.composer.input.setPlainText("Name three primary colours.")
        with qtbot.waitSignal(w.errors.raised, timeout=5000) as blocker:
            w.chat_view.composer.button.click()
        assert blocker.args[0].message == "The model is still loading."
        assert "stays in the box" in blocker.args[0].hint
        assert w.chat_view.composer.input.toPlainText() == "Name three primary colours."
    finally:
        release.set()
    qtbot.waitUntil(lambda: w.engine.is_loaded, timeout=30_000)
