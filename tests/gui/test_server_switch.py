"""The status bar's Local server switch: serves the loaded model, shows address and key, logs requests."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from PySide6.QtGui import QGuiApplication

from app.gui.views.server_panel import agent_settings
from tests.gui.conftest import ScriptedEngine, scripted_loader
from tests.gui.test_chat import load_default


def _env(settings: str) -> dict[str, str]:
    """The variables of the panel's agent settings (``export A=b`` or PowerShell's ``$env:A="b"``)."""
    out: dict[str, str] = {}
    for line in settings.splitlines():
        if not line.startswith("#"):
            name, _, value = line.removeprefix("export ").removeprefix("$env:").partition("=")
            out[name] = value.strip('"')
    return out


def test_switch_serves_the_loaded_model_and_lists_requests(make_window: Any, qtbot: Any) -> None:
    w = make_window(loader=scripted_loader(ScriptedEngine(text="one two three four five six")))
    load_default(w, qtbot, 10_000)
    switch = w.server_switch
    assert switch.text() == "Local server" and not switch.isChecked()
    with qtbot.waitSignal(switch.controller.stateChanged, timeout=10_000):
        switch.click()
    panel = switch.panel
    address = switch.controller.address
    assert (
        address.startswith("http://127.0.0.1:")
        and switch.text() == f"Server: {address.removeprefix('http://').removesuffix('/v1')}"
    )
    assert panel.isVisible() and panel.address.text() == address
    key = panel.key.text()
    assert key and key == switch.controller.key and not panel.warning.isVisible()
    panel.copy_key.click()
    assert QGuiApplication.clipboard().text() == key
    shown = _env(panel.agent_settings.toPlainText())
    assert shown["ANTHROPIC_BASE_URL"] == address.removesuffix("/v1") and shown["OPENAI_BASE_URL"] == address
    assert shown["ANTHROPIC_API_KEY"] == shown["OPENAI_API_KEY"] == "********"  # hidden on screen
    box = panel.agent_settings  # every line on screen: the panel must not squeeze it to its first line
    panel.resize(780, 340)  # a panel sized for its rows without the agent section
    qtbot.waitUntil(lambda: panel.height() >= 340, timeout=2_000)
    lines = box.toPlainText().count("\n") + 1
    assert box.viewport().height() >= box.fontMetrics().lineSpacing() * lines
    panel.copy_agent.click()
    anthropic_env = _env(QGuiApplication.clipboard().text())
    assert anthropic_env["ANTHROPIC_API_KEY"] == anthropic_env["OPENAI_API_KEY"] == key
    by_claude = httpx.post(
        anthropic_env["ANTHROPIC_BASE_URL"] + "/v1/messages",
        json={"model": "m", "max_tokens": 8, "messages": [{"role": "user", "content": "hi"}]},
        headers={"x-api-key": anthropic_env["ANTHROPIC_API_KEY"]},
        timeout=30,
    )
    assert (
        by_claude.status_code == 200
        and by_claude.json()["content"][0]["text"] == "one two three four five six"
    )
    qtbot.waitUntil(lambda: panel.log.count() == 1, timeout=10_000)
    panel.log.clear()

    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 8}
    denied = httpx.post(address + "/chat/completions", json=body, timeout=30)
    ok = httpx.post(
        address + "/chat/completions", json=body, headers={"Authorization": f"Bearer {key}"}, timeout=30
    )
    assert denied.status_code == 401
    assert ok.status_code == 200
    spec = ok.json()["tandem"]["speculative_decoding"]
    assert ok.json()["choices"][0]["message"]["content"] == "one two three four five six"
    assert spec["drafted"] > 0
    qtbot.waitUntil(lambda: panel.log.count() == 1, timeout=10_000)
    line = panel.log.item(0).text()
    assert "ok single" in line and f"drafted {spec['drafted']}" in line
    # the whole line is on screen: it wraps inside the panel instead of running off its edge
    qtbot.waitUntil(lambda: panel.log.visualItemRect(panel.log.item(0)).width() > 0, timeout=5_000)
    rect = panel.log.visualItemRect(panel.log.item(0))
    assert rect.right() <= panel.log.viewport().width()
    assert not panel.log.horizontalScrollBar().isVisible()

    # closed, the panel of the running server opens again from the switch: the server keeps running
    panel.close()
    switch.click()
    assert panel.isVisible() and switch.controller.running and switch.isChecked()
    assert panel.address.text() == address
    # it opens beside the switch that opened it, inside the screen
    top_right = switch.mapToGlobal(switch.rect().topRight())
    avail = switch.screen().availableGeometry()
    assert avail.contains(panel.frameGeometry().topLeft()) and avail.contains(panel.geometry().bottomRight())
    assert panel.frameGeometry().bottom() <= min(top_right.y(), avail.bottom())
    assert abs(panel.frameGeometry().right() - min(top_right.x(), avail.right())) <= 1
    # the panel's Stop ends serving
    assert panel.stop.isEnabled()
    with qtbot.waitSignal(switch.controller.stateChanged, timeout=10_000):
        panel.stop.click()
    assert not switch.controller.running and switch.text() == "Local server" and not switch.isChecked()
    assert not panel.stop.isEnabled()
    assert panel.address.text() == "Not running"
    assert panel.agent_settings.toPlainText() == "" and not panel.copy_agent.isEnabled()


def test_allowing_other_machines_shows_a_warning(make_window: Any, qtbot: Any) -> None:
    w = make_window(loader=scripted_loader(ScriptedEngine()))
    load_default(w, qtbot, 10_000)
    switch = w.server_switch
    with qtbot.waitSignal(switch.controller.stateChanged, timeout=10_000):
        switch.click()
    switch.panel.remote.setChecked(True)  # restarts on all addresses, in the background
    qtbot.waitUntil(
        lambda: switch.controller.running and switch.controller.address.startswith("http://0.0.0.0:"),
        timeout=10_000,
    )
    assert switch.panel.warning.isVisible() and "all network addresses" in switch.panel.warning.text()
    with qtbot.waitSignal(switch.controller.stateChanged, timeout=10_000):
        switch.controller.stop()
    assert not switch.controller.running


def test_starting_does_not_wait_on_the_gui_thread_and_closing_mid_start_leaves_no_server(
    make_window: Any, qtbot: Any
) -> None:
    import threading

    w = make_window(loader=scripted_loader(ScriptedEngine()))
    load_default(w, qtbot, 10_000)
    switch = w.server_switch
    switch.click()  # returns before the server listens: binding and uvicorn's start run elsewhere
    assert switch.controller.pending and not switch.controller.running
    assert switch.text() == "Starting…"
    w.close()  # the window closes while the server starts: the start finishes, then stops itself
    qtbot.waitUntil(
        lambda: not any(t.name == "tandem-serve" and t.is_alive() for t in threading.enumerate()),
        timeout=30_000,
    )


def test_agent_settings_for_powershell() -> None:
    text = agent_settings("http://127.0.0.1:8080/v1", "k", "OpenAI clients", windows=True)
    assert text.splitlines() == [
        "# Claude Code",
        '$env:ANTHROPIC_BASE_URL="http://127.0.0.1:8080"',
        '$env:ANTHROPIC_API_KEY="k"',
        "# OpenAI clients",
        '$env:OPENAI_BASE_URL="http://127.0.0.1:8080/v1"',
        '$env:OPENAI_API_KEY="k"',
    ]


class _Counting(ScriptedEngine):
    """A scripted engine that measures prompts (one token a word) in a 64-token context."""

    n_ctx = 64

    def count_prompt_tokens(self, messages: Any, tools: Any = None) -> int:
        return sum(len(m["content"].split()) for m in messages) + 4


def test_the_panel_shows_the_context_and_what_to_do_when_a_request_does_not_fit(
    make_window: Any, qtbot: Any
) -> None:
    w = make_window(loader=scripted_loader(_Counting(text="fine")))
    load_default(w, qtbot, 10_000)
    switch = w.server_switch
    with qtbot.waitSignal(switch.controller.stateChanged, timeout=10_000):
        switch.click()
    panel = switch.panel
    assert panel.context_note.isVisible() and "Context: 64 tokens" in panel.context_note.text()
    url = switch.controller.address + "/chat/completions"
    headers = {"authorization": f"Bearer {switch.controller.key}"}
    ok = httpx.post(url, json={"messages": [{"role": "user", "content": "hi"}]}, headers=headers, timeout=30)
    too_long = {"messages": [{"role": "user", "content": "word " * 100}], "stream": True}
    refused = httpx.post(url, json=too_long, headers=headers, timeout=30)
    assert ok.status_code == 200
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "context_length_exceeded"
    qtbot.waitUntil(lambda: "did not fit" in panel.context_note.text(), timeout=5_000)
    assert "104 tokens" in panel.context_note.text() and "holds 64" in panel.context_note.text()
    qtbot.waitUntil(lambda: panel.log.count() == 2, timeout=5_000)
    assert "refused: prompt 104 tok > context 64 tok" in panel.log.item(0).text()
    with qtbot.waitSignal(switch.controller.stateChanged, timeout=10_000):
        panel.stop.click()
    assert not panel.context_note.isVisible()


@pytest.mark.usefixtures("smollm2_q4")
def test_the_panel_shows_the_configurations_a_request_started_on_the_real_engine(
    make_window: Any, qtbot: Any
) -> None:
    """The real embedded model through llama.cpp: a request asking for another speculation runs in
    a second child started for it, and the panel says which configurations run and what each served."""
    from dataclasses import replace

    from app.core.speculative import SpeculationOptions

    w = make_window()
    # ngram-mod named, not Auto: the test needs a speculating launch whatever Auto would choose
    ngram = SpeculationOptions.build(enabled=True, method="ngram-mod")
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000):
        w.launch(replace(w.launcher.default_choice(), speculation=ngram, auto=False))
    assert w.engine.info is not None and "ngram-mod" in w.engine.info.speculation
    switch = w.server_switch
    with qtbot.waitSignal(switch.controller.stateChanged, timeout=10_000):
        switch.click()
    panel = switch.panel
    address, key = switch.controller.address, switch.controller.key
    headers = {"Authorization": f"Bearer {key}"}
    body = {"messages": [{"role": "user", "content": "Name a colour."}], "max_tokens": 12, "temperature": 0}
    launched = httpx.post(address + "/chat/completions", json=body, headers=headers, timeout=120)
    plain = httpx.post(
        address + "/chat/completions",
        json={**body, "tandem": {"speculation": "off"}},
        headers=headers,
        timeout=120,
    )
    assert launched.status_code == plain.status_code == 200, plain.text
    text = launched.json()["choices"][0]["message"]["content"]
    assert plain.json()["choices"][0]["message"]["content"] == text
    assert plain.json()["tandem"]["speculative_decoding"]["drafted"] == 0
    qtbot.waitUntil(lambda: panel.log.count() == 2, timeout=10_000)
    assert "[off]" in panel.log.item(0).text()
    note = panel.pool_note.text()
    assert panel.pool_note.isVisible() and "Speculation per request:" in note
    assert "off (+" in note and "0 of 8 slots busy" in note
    assert "off: 1 requests" in note
    with qtbot.waitSignal(switch.controller.stateChanged, timeout=10_000):
        panel.stop.click()
    assert switch.controller.pool is None and not panel.pool_note.isVisible()


@pytest.mark.usefixtures("smollm2_q4")
def test_two_chat_answers_and_four_api_requests_at_once_all_complete_on_the_shared_pool(
    make_window: Any, qtbot: Any
) -> None:
    """The window's chat and its Local server read the same pool. Two conversations'
    answers on "off" (the second asked while the first streams) and four API requests (two on the
    launch's configuration, two on "off") sent meanwhile all complete, with the status bar naming
    the configurations that ran."""
    import threading
    from dataclasses import replace

    from app.core.engines.base import Sampling
    from app.core.speculative import SpeculationOptions

    w = make_window()
    ngram = SpeculationOptions.build(enabled=True, method="ngram-mod")
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000):
        w.launch(replace(w.launcher.default_choice(), speculation=ngram, auto=False))
    switch = w.server_switch
    with qtbot.waitSignal(switch.controller.stateChanged, timeout=10_000):
        switch.click()
    address, key = switch.controller.address, switch.controller.key
    control = w.chat_page.speculation
    item = control.entry("off")
    assert item is not None and item.isEnabled()
    control.combo.setCurrentIndex(item.row())
    w.chat.sampling = Sampling(temperature=0.0, max_tokens=48)
    replies: list[httpx.Response] = []

    def ask(speculation: str, i: int) -> None:
        body = {
            "messages": [{"role": "user", "content": f"Name {i + 2} colours."}],
            "max_tokens": 24,
            "temperature": 0,
            "tandem": {"speculation": speculation},
        }
        replies.append(
            httpx.post(
                address + "/chat/completions",
                json=body,
                headers={"Authorization": f"Bearer {key}"},
                timeout=120,
            )
        )

    clients = [
        threading.Thread(target=ask, args=(s, i), name=f"test-client-{i}")
        for i, s in enumerate(("auto", "off", "auto", "off"))
    ]
    finished: list[Any] = []
    w.chat.answerFinished.connect(finished.append)
    w.chat.send("Count from 1 to 30, separated by commas.")
    first = w.chat.conversation_id
    w.new_chat()  # the first answer goes on in its conversation
    again = control.entry("off")  # a new conversation starts at Auto
    assert again is not None and again.isEnabled()
    control.combo.setCurrentIndex(again.row())
    w.chat.send("Name the planets of the solar system.")
    second = w.chat.conversation_id
    assert first is not None and second is not None and first != second
    assert sorted(w.chat.answering()) == sorted([first, second])
    for t in clients:
        t.start()
    qtbot.waitUntil(lambda: len(finished) == 2, timeout=120_000)
    for t in clients:
        t.join(120)
    assert not any(t.is_alive() for t in clients)
    assert all(f.completion_tokens > 0 and f.finish_reason in ("stop", "length") for f in finished)
    for cid in (first, second):
        answer = w.store.messages(cid)[-1]
        assert answer.role == "assistant" and answer.status == "complete" and answer.content
    assert len(replies) == 4 and all(r.status_code == 200 for r in replies), [r.text for r in replies]
    assert all(r.json()["usage"]["completion_tokens"] > 0 for r in replies)
    pool = w.engine.pool
    assert pool is not None
    served = pool.status().stats
    assert served["off"].requests >= 4 and served["ngram-mod"].requests >= 2  # the chats' on "off"
    w.status.update_pool()
    assert w.status_pool.isVisible() and w.status_pool.text().startswith("Also running: off (+")
    assert "off: " in w.status_pool.toolTip() and "ngram-mod: " in w.status_pool.toolTip()
