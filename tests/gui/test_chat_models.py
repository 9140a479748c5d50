"""A conversation's model, chosen in its header: the next message loads it (its progress in the
answer's place), the answer comes from it, and the model used before stays loaded, so going back
to it takes no load. Real SmolLM2 Q4_1 and F32 (the embedded family's two quantizations) on
llama.cpp."""

from __future__ import annotations

import threading
from typing import Any

import httpx
import pytest

from app.core.settings import Settings
from app.gui.views.model_choice import LOADED_MARK, LabelRole, ModelChoice

Q4 = "smollm2-135m-instruct 135M Q4_1"
F32 = "smollm2-135m-instruct 135M F32"


def _choose(choice: ModelChoice, label: str) -> None:
    """Pick ``label`` as the user does."""
    rows = [choice.combo.model().index(i, 0).data(LabelRole) for i in range(choice.combo.count())]
    assert label in rows, rows
    choice.combo.setCurrentIndex(rows.index(label))


def _ask(w: Any, qtbot: Any, text: str) -> Any:
    with qtbot.waitSignal(w.chat.answerFinished, timeout=120_000) as blocker:
        w.chat_view.composer.input.setPlainText(text)
        w.chat_view.composer.button.click()
    return blocker.args[0]


@pytest.mark.usefixtures("smollm2_q4", "smollm2_f32")
def test_a_conversation_switches_model_from_its_header_and_the_previous_one_stays_loaded(
    make_window: Any, qtbot: Any
) -> None:
    w = make_window(settings=Settings(default_speculation="off"))
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000):
        w.load_default_model()
    w.chat.sampling = w.chat.sampling.__class__(temperature=0.0, max_tokens=12)
    choice: ModelChoice = w.chat_page.model_choice
    choice.combo.opened.emit()  # the list opens (offscreen: no popup): the models on disk are read
    qtbot.waitUntil(lambda: {Q4, F32} <= {m.label for m in w.chat.models.models}, timeout=60_000)
    assert choice.isVisible()
    texts = [choice.combo.itemText(i) for i in range(choice.combo.count())]
    assert f"{LOADED_MARK} {Q4}" in texts and F32 in texts  # the loaded model is marked

    _ask(w, qtbot, "Name a color.")  # the loaded model answers a conversation that chose none
    first = w.chat.conversation_id
    assert w.store.messages(first)[-1].model == Q4

    w.new_chat()
    _choose(choice, F32)  # chosen before the conversation exists: stored when it is created
    w.chat_view.composer.input.setPlainText("Name a fruit.")
    with qtbot.waitSignal(w.chat.answerFinished, timeout=180_000):
        w.chat_view.composer.button.click()
        # the answer's place says the model loads until its answer starts
        waiting = w.chat_view.bubbles[-1]
        assert waiting.role == "assistant" and F32 in waiting.text
    second = w.chat.conversation_id
    assert w.store.conversation(second).model == F32
    assert w.store.messages(second)[-1].model == F32 and w.store.messages(second)[-1].content
    assert w.engine.info.label == F32
    assert {Q4, F32} <= set(w.settings.model_presets)  # each model's launch is kept for its next load
    loaded = {e.label: e for e in w.engine.loaded_models()}
    assert set(loaded) == {Q4, F32} and loaded[F32].current  # the previous model stays loaded
    assert all(e.memory_bytes > 0 for e in loaded.values())
    assert w.status.models_btn.isVisible() and w.status.models_btn.text().startswith("Models: 2")

    # the first conversation picks the model it used: still loaded, so no load at all
    w.chat.open_conversation(first)
    _choose(choice, Q4)
    loads: list[Any] = []
    w.engine.loadProgress.connect(loads.append)
    _ask(w, qtbot, "Name an animal.")
    assert loads == [] and w.engine.info.label == Q4
    assert w.store.messages(first)[-1].model == Q4
    assert {e.label for e in w.engine.loaded_models()} == {Q4, F32}

    # Unload in the status bar's list frees the shelved model
    assert w.engine.unload_model(F32)
    qtbot.waitUntil(lambda: [e.label for e in w.engine.loaded_models()] == [Q4], timeout=30_000)
    assert not w.status.models_btn.isVisible()


def _in_thread(qtbot: Any, work: Any) -> Any:
    """Run a blocking client call beside the GUI thread (the server asks the GUI thread to load)."""
    result: list[Any] = []
    worker = threading.Thread(target=lambda: result.append(work()))
    worker.start()
    qtbot.waitUntil(lambda: bool(result), timeout=180_000)
    worker.join()
    return result[0]


@pytest.mark.usefixtures("smollm2_q4", "smollm2_f32")
def test_the_local_server_serves_the_models_on_disk_beside_the_window_s(make_window: Any, qtbot: Any) -> None:
    """The window's Local server lists every model on disk; a request for one that is not loaded
    loads it beside the chat's model (which stays the chat's), a name the window does not know is
    answered by the chat's model, and an unload frees it."""
    w = make_window(settings=Settings(default_speculation="off"))
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000):
        w.load_default_model()
    server = w.server_controller
    server.port = 0
    with qtbot.waitSignal(server.stateChanged, timeout=60_000):
        server.start()  # it reads the models on disk it serves
    qtbot.waitUntil(lambda: {Q4, F32} <= {m.label for m in w.chat.models.models}, timeout=60_000)
    headers = {"Authorization": f"Bearer {server.key}"}
    url = server.address

    def listing() -> dict[str, str]:
        data = httpx.get(f"{url}/models", headers=headers, timeout=60).json()["data"]
        return {m["tandem"].get("aliases", [m["id"]])[0]: m["status"]["value"] for m in data}

    def ask(model: str) -> httpx.Response:
        body = {"model": model, "messages": [{"role": "user", "content": "Say hi."}], "max_tokens": 6}
        return httpx.post(f"{url}/chat/completions", json=body, headers=headers, timeout=180)

    before = _in_thread(qtbot, listing)
    assert before[Q4] == "loaded" and before[F32] == "unloaded"
    ids = {m.label: m.id for m in w.chat.models.models}
    r = _in_thread(qtbot, lambda: ask(ids[F32]))
    assert r.status_code == 200 and r.json()["model"] == ids[F32], r.text
    assert w.engine.info.label == Q4  # the chat keeps its model
    assert {e.label for e in w.engine.loaded_models()} == {Q4, F32}
    assert _in_thread(qtbot, listing)[F32] == "loaded"

    other = _in_thread(qtbot, lambda: ask("gpt-4o"))  # a client's own name: the chat's model answers
    assert other.status_code == 200 and other.json()["model"] == ids[Q4]

    unload = _in_thread(
        qtbot,
        lambda: httpx.post(f"{url}/models/unload", json={"model": ids[F32]}, headers=headers, timeout=60),
    )
    assert unload.status_code == 200 and unload.json()["status"] == "unloaded", unload.text
    qtbot.waitUntil(lambda: [e.label for e in w.engine.loaded_models()] == [Q4], timeout=30_000)
    with qtbot.waitSignal(server.stateChanged, timeout=60_000):
        server.stop()
