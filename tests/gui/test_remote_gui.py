"""The launch dialog's Remote server tab against a real llama.cpp server on loopback.

The server (xllamacpp's ``Server``, started by the test) runs the embedded SmolLM2 F32 target with
the Q4_1 drafter and an API key: the tab stores the typed key in the keyring for that endpoint,
lists the server's models off the GUI thread, launches through the one launch path, and the chat
streams with the rounds the server reports in the statistics strip. Wrong keys and refused
connections reach the banner as one line with the GUI's next step.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest
from PySide6.QtGui import QGuiApplication

from app.core import paths
from app.core.chat import AnswerStats
from app.core.engines.remote import acceptance
from app.core.engines.remote.endpoints import endpoints_file, load_endpoints
from app.core.engines.remote.engine import RemoteFinished
from app.core.registry import Registry
from app.core.secrets import SERVICE
from app.core.settings import Settings
from app.gui.cache_bridge import CacheBridge
from app.gui.views.launch_dialog import LaunchDialog
from app.gui.views.stats import StatsStrip
from tests.gui.test_settings_reach_downloads import MemoryKeyring
from tests.integration.remote_fixtures import KEY, free_port, llama_server, llama_server_process

SMOLLM = "smollm2-135m-instruct"


@pytest.fixture
def ring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    r = MemoryKeyring()
    keyring.set_keyring(r)
    try:
        yield r
    finally:
        keyring.set_keyring(previous)


@pytest.fixture(scope="module")
def server_url(smollm2_f32: Path, smollm2_q4: Path) -> Iterator[str]:
    with llama_server(smollm2_f32, smollm2_q4) as url:
        yield url


def open_remote_tab(w: Any, qtbot: Any, name: str = SMOLLM) -> LaunchDialog:
    family, spec, quant = w.registry.match(name, "gguf")
    with qtbot.waitSignal(w.launchDialogOpened, timeout=10_000) as opened:
        w.open_launch_dialog(family, spec, quant)
    dlg: LaunchDialog = opened.args[0]
    dlg.mode.setCurrentIndex(1)
    assert dlg.remote_mode and dlg.remote.isVisible() and not dlg.model_box.isVisible()
    return dlg


def type_endpoint(qtbot: Any, dlg: LaunchDialog, url: str, key: str) -> None:
    edit = dlg.remote.url.lineEdit()
    assert edit is not None
    edit.clear()
    qtbot.keyClicks(edit, url)
    dlg.remote.api_key.clear()
    qtbot.keyClicks(dlg.remote.api_key, key)


def test_add_endpoint_list_models_launch_and_chat_with_server_rounds(
    make_window: Any, qtbot: Any, ring: MemoryKeyring, server_url: str
) -> None:
    w = make_window()
    dlg = open_remote_tab(w, qtbot)
    assert not dlg.launch_button.isEnabled()  # no endpoint yet
    type_endpoint(qtbot, dlg, server_url, KEY)
    assert dlg.launch_button.isEnabled()
    with qtbot.waitSignal(dlg.remote.modelsListed, timeout=30_000) as listed:
        dlg.remote.list_btn.click()
    ids = [m.id for m in listed.args[0].models]
    assert len(ids) == 1 and dlg.remote.model.currentText() == ids[0]
    # the key is in the keyring under this endpoint, and nowhere in the files Tandem writes
    assert ring.values[(SERVICE, f"endpoint:{server_url}")] == KEY
    assert [e.url for e in load_endpoints()] == [server_url]
    assert KEY not in endpoints_file().read_text("utf-8")

    with qtbot.waitSignal(w.modelLoaded, timeout=60_000) as loaded:
        dlg.launch_button.click()
    info = loaded.args[0]
    assert info.engine == "remote" and info.server_kind == "llama.cpp"
    assert info.label == f"{ids[0]} @ 127.0.0.1"
    assert info.launch is None  # a server has no files to reopen at the next start
    assert w.banner.isHidden()

    with qtbot.waitSignal(w.chat.answerFinished, timeout=120_000) as done:
        w.chat.send("Count from 1 to 15, one number per line.")
    stats: AnswerStats = done.args[0]
    assert stats.completion_tokens > 0 and stats.rounds > 0
    assert stats.acceptance_source == "llama.cpp timings"
    assert stats.drafted > 0 and stats.acceptance_rate is not None
    bubble = w.chat.view.bubbles[-1]
    assert bubble.text.strip()
    strip = bubble.stats_strip
    assert strip.rounds.text() == f"{stats.rounds} rounds" and strip.rounds.isVisibleTo(strip)
    assert strip.acceptance.text().endswith("accepted")
    for settings_file in paths.config_dir().glob("*"):
        assert KEY not in settings_file.read_text("utf-8", errors="replace")


def test_the_endpoint_is_remembered_and_its_stored_key_used(
    make_window: Any, qtbot: Any, ring: MemoryKeyring, server_url: str
) -> None:
    ring.values[(SERVICE, f"endpoint:{server_url}")] = KEY
    endpoints_file().parent.mkdir(parents=True, exist_ok=True)
    endpoints_file().write_text(json.dumps({"endpoints": [{"url": server_url}]}), "utf-8")
    w = make_window()
    dlg = open_remote_tab(w, qtbot)
    qtbot.waitUntil(lambda: dlg.remote.url.currentText() == server_url, timeout=5000)
    qtbot.waitUntil(lambda: "stored in the keyring" in dlg.remote.key_note.text(), timeout=5000)
    assert dlg.remote.api_key.text() == ""  # the key is never shown
    with qtbot.waitSignal(dlg.remote.modelsListed, timeout=30_000):
        dlg.remote.list_btn.click()  # the stored key authenticates
    assert dlg.remote.model.count() == 1


def test_a_wrong_key_is_one_line_in_the_banner(
    make_window: Any, qtbot: Any, ring: MemoryKeyring, server_url: str
) -> None:
    w = make_window()
    dlg = open_remote_tab(w, qtbot)
    type_endpoint(qtbot, dlg, server_url, "not-the-key")
    with qtbot.waitSignal(dlg.remote.listFailed, timeout=30_000):
        dlg.remote.list_btn.click()
    err = w.banner.error
    assert err is not None and not w.banner.isHidden()
    assert "401" in err.message and "\n" not in err.message
    assert "Remote server tab" in err.hint and "keyring" in err.hint
    assert "401" in dlg.remote.model_note.text()
    # the launch fails the same way: one line, the GUI's next step, no traceback in the message
    w.banner.hide()
    with qtbot.waitSignal(w.engine.loadFailed, timeout=30_000):
        dlg.launch_button.click()
    err = w.banner.error
    assert err is not None and "401" in err.message and "Traceback" not in err.message
    assert "Remote server tab" in err.hint
    assert not w.engine.is_loaded


def test_a_server_killed_mid_answer_keeps_the_partial_answer_and_says_so(
    make_window: Any, qtbot: Any, ring: MemoryKeyring, smollm2_f32: Path, smollm2_q4: Path
) -> None:
    with llama_server_process(smollm2_f32, smollm2_q4) as (url, proc):
        w = make_window()
        dlg = open_remote_tab(w, qtbot)
        type_endpoint(qtbot, dlg, url, KEY)
        dlg.max_tokens.setValue(1000)
        with qtbot.waitSignal(w.modelLoaded, timeout=60_000):
            dlg.launch_button.click()
        w.chat.send("Tell me a long story about a lighthouse keeper.")
        qtbot.waitUntil(lambda: len(w.chat.view.bubbles[-1].text) > 20, timeout=60_000)
        with qtbot.waitSignal(w.errors.raised, timeout=60_000) as raised:
            proc.kill()
        err = raised.args[0]
        assert "cut mid-answer" in err.message and "\n" not in err.message
        assert (
            err.hint == "The partial answer is kept. Check the server (it may have stopped), then ask again."
        )
        bubble = w.chat.view.bubbles[-1]
        assert len(bubble.text) > 20  # what arrived is kept, marked as an error
        qtbot.waitUntil(lambda: not w.chat.generating, timeout=10_000)
        assert w.chat.view.bubbles[-1] is bubble and bubble.status == "error"


def test_a_refused_connection_says_so_with_the_next_step(
    make_window: Any, qtbot: Any, ring: MemoryKeyring
) -> None:
    w = make_window()
    dlg = open_remote_tab(w, qtbot)
    type_endpoint(qtbot, dlg, f"http://127.0.0.1:{free_port()}/v1", "")
    with qtbot.waitSignal(dlg.remote.listFailed, timeout=30_000):
        dlg.remote.list_btn.click()
    err = w.banner.error
    assert err is not None and "connection refused" in err.message
    assert err.hint == "Start the server, or check the host name and port of the endpoint."


def dialog(qtbot: Any, name: str, fmt: str, size: str | None = None) -> LaunchDialog:
    fam, spec, quant = Registry.load().match(name, fmt, size)
    dlg = LaunchDialog(fam, spec, quant, CacheBridge(), Settings())
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.mode.setCurrentIndex(1)
    return dlg


def test_urls_the_tab_refuses_say_why_and_plain_http_needs_the_tick(qtbot: Any) -> None:
    dlg = dialog(qtbot, SMOLLM, "gguf")
    edit = dlg.remote.url.lineEdit()
    assert edit is not None
    qtbot.keyClicks(edit, "ftp://box")
    assert not dlg.launch_button.isEnabled()
    assert "must start with https:// or http://" in dlg.remote.url_note.text()
    edit.clear()
    qtbot.keyClicks(edit, "http://10.1.2.3:8000/v1")
    assert not dlg.launch_button.isEnabled() and dlg.remote.allow_http.isVisibleTo(dlg)
    assert "unencrypted" in dlg.remote.url_note.text()
    dlg.remote.allow_http.setChecked(True)
    assert dlg.launch_button.isEnabled() and dlg.remote.url_note.isHidden()
    choice = dlg.choice()
    assert choice.engine == "remote" and choice.remote is not None
    assert choice.remote.endpoint.allow_http and choice.remote.endpoint.url == "http://10.1.2.3:8000/v1"
    edit.clear()
    qtbot.keyClicks(edit, "https://gpu-box.example:8000")
    assert dlg.launch_button.isEnabled() and not dlg.remote.allow_http.isVisibleTo(dlg)
    # back on This computer, the local launch is what the dialog returns
    dlg.mode.setCurrentIndex(0)
    assert dlg.model_box.isVisible() and not dlg.remote.isVisible()
    assert dlg.choice().engine == "llama.cpp"


def test_serve_command_for_gemma4_e4b_vllm_and_copy(qtbot: Any) -> None:
    dlg = dialog(qtbot, "gemma-4", "gguf", "E4B")
    tab = dlg.remote
    tab.serve_engine.setCurrentIndex(tab.serve_engine.findData("vllm"))
    text = tab.command.toPlainText()
    assert "vllm serve google/gemma-4-E4B-it" in text
    assert '"method": "mtp"' in text and "google/gemma-4-E4B-it-assistant" in text
    assert "# needs vllm>=0.22.0" in text
    QGuiApplication.clipboard().clear()
    tab.copy_btn.click()
    assert QGuiApplication.clipboard().text() == text
    tab.serve_engine.setCurrentIndex(tab.serve_engine.findData("sglang"))
    assert "--speculative-algorithm NEXTN" in tab.command.toPlainText()
    tab.serve_engine.setCurrentIndex(tab.serve_engine.findData("llama-server"))
    assert "--spec-type draft-mtp" in tab.command.toPlainText()
    assert dlg.quant.currentText() in tab.command.toPlainText()  # the dialog's quantization


def test_an_unsupported_combination_says_why(qtbot: Any) -> None:
    dlg = dialog(qtbot, SMOLLM, "gguf")
    tab = dlg.remote
    tab.serve_engine.setCurrentIndex(tab.serve_engine.findData("vllm"))
    assert tab.command.isHidden() and not tab.copy_btn.isEnabled()
    assert "no Hugging Face safetensors checkpoint" in tab.serve_note.text()
    tab.serve_engine.setCurrentIndex(tab.serve_engine.findData("llama-server"))
    assert "--model-draft" in tab.command.toPlainText() and tab.copy_btn.isEnabled()


def test_strip_says_when_a_server_reports_no_acceptance(qtbot: Any) -> None:
    from app.core.chat.answer import AnswerBuilder

    builder = AnswerBuilder()
    fin = RemoteFinished("stop", 3, 5, 10.0, 50.0, 0, 0, drafted_known=False)  # the engine's own default
    builder.feed(fin)
    stats = builder.stats()
    assert stats.acceptance_source == acceptance.NOT_REPORTED
    strip = StatsStrip()
    qtbot.addWidget(strip)
    strip.set_stats(stats)
    assert strip.acceptance.text() == "this server does not report acceptance"
    strip.set_stats(AnswerStats(completion_tokens=5))  # a local answer without speculation
    assert strip.acceptance.text() == "no speculation"
    strip.set_stats(AnswerStats(completion_tokens=5, speculation="Auto: off"))  # Auto chose plain
    assert strip.acceptance.text() == "no speculation"
    # speculation ran and proposed nothing (ngram-mod on a first answer): said so, not "off"
    strip.set_stats(AnswerStats(completion_tokens=5, speculation="Auto: ngram-mod 64/round"))
    assert strip.acceptance.text() == "nothing drafted"
    assert "Auto: ngram-mod 64/round" in strip.acceptance.toolTip()
    assert AnswerStats.from_json(stats.to_json()).acceptance_source == acceptance.NOT_REPORTED
