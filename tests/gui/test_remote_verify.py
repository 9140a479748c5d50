"""Verify a remote drafter from the Remote server tab, and each remote answer's acceptance.

Two real llama.cpp servers on loopback (xllamacpp's ``Server``) serve the same SmolLM2 F32 file:
one with the Q4_1 drafter, one without (the baseline). The tab's "Verify output…" runs the parity
check of the first against the second off the GUI thread; greedy llama-server output is the same
with and without a drafter, so every prompt is EXACT. Without a baseline the tab says what to start;
an unreachable or refusing baseline is one line naming the side. Chat answers through each server
show the acceptance figures as that server reported them, or that it reports none.

Set ``TANDEM_VERIFY_SHOTS=DIR`` to save the Verify report in English and Japanese (offscreen grabs).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest
from PySide6.QtWidgets import QApplication

from app.core.chat import AnswerStats
from app.core.engines.base import Sampling
from app.core.engines.remote import acceptance
from app.core.engines.remote.engine import RemoteFinished
from app.core.secrets import SERVICE
from app.gui.style import STYLESHEET
from app.gui.views.launch_dialog import LaunchDialog
from app.gui.views.stats import StatsDialog, StatsStrip
from app.gui.views.verify_dialog import VerifyDialog
from tests.gui.test_remote_gui import open_remote_tab, type_endpoint
from tests.gui.test_settings_reach_downloads import MemoryKeyring
from tests.integration.remote_fixtures import KEY, free_port, llama_server

RUN_S = 600_000  # ten greedy answers of 64 tokens on a shared 2-core machine, with margin


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
def pair(smollm2_f32: Path, smollm2_q4: Path) -> Iterator[tuple[str, str]]:
    """(server with the drafter, baseline server without) of the same model file."""
    with llama_server(smollm2_f32, smollm2_q4) as spec_url, llama_server(smollm2_f32, None) as base_url:
        yield spec_url, base_url


@pytest.fixture(autouse=True)
def _checks_end(qtbot: Any) -> Iterator[None]:
    """Every check a test started is stopped and its worker has returned, also when the test failed
    (the thread check of tests/conftest.py then finds nothing left)."""
    yield
    for token, ops in STARTED:
        token.cancel()
        qtbot.waitUntil(lambda ops=ops: ops.closed or ops.pending() == 0, timeout=60_000)
    STARTED.clear()


#: (cancel token, ops) of every check started by :func:`start_verify`
STARTED: list[tuple[Any, Any]] = []


def start_verify(qtbot: Any, dlg: LaunchDialog, baseline: str) -> VerifyDialog:
    tab = dlg.remote
    tab.baseline.clear()
    qtbot.keyClicks(tab.baseline, baseline)
    assert tab.verify_btn.isEnabled()
    tab.verify_btn.click()
    vd = tab.verify_dialog
    assert vd is not None and vd.isVisible() and not vd.isModal()
    if vd._cancel is not None:
        STARTED.append((vd._cancel, vd._ops))
    return vd


def shoot(vd: VerifyDialog, name: str) -> None:
    """With ``TANDEM_VERIFY_SHOTS=DIR``: the dialog as the app draws it (with its stylesheet)."""
    out = os.environ.get("TANDEM_VERIFY_SHOTS")
    if not out:
        return
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    previous = app.styleSheet()
    app.setStyleSheet(STYLESHEET)
    try:
        Path(out).mkdir(parents=True, exist_ok=True)
        vd.grab().save(str(Path(out) / name))
    finally:
        app.setStyleSheet(previous)


def test_verify_against_a_baseline_server_is_exact_and_does_not_block_launching(
    make_window: Any, qtbot: Any, ring: MemoryKeyring, pair: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.gui.views import verify_dialog

    # The real check, held after its first prompt until the test has looked at the dialog: what a
    # running check shows is then checked on every machine, however fast the rest would finish.
    first_row, go_on = threading.Event(), threading.Event()
    real_verify = verify_dialog.verify

    def held(*args: Any) -> Any:
        *head, on_row = args

        def row(r: Any) -> None:
            on_row(r)
            if not first_row.is_set():
                first_row.set()
                go_on.wait(RUN_S / 1000)

        return real_verify(*head, row)

    monkeypatch.setattr(verify_dialog, "verify", held)
    spec_url, base_url = pair
    w = make_window()
    dlg = open_remote_tab(w, qtbot)
    type_endpoint(qtbot, dlg, spec_url, KEY)
    vd = start_verify(qtbot, dlg, base_url)
    try:
        # the check runs off the GUI thread, the launch dialog stays usable
        assert vd.running and vd.stop_btn.isVisible() and dlg.launch_button.isEnabled()
        done = qtbot.waitSignal(vd.reportReady, timeout=RUN_S)  # listening from here on
        # each prompt's line shows as soon as it is compared, the verdict only at the end
        qtbot.waitUntil(lambda: "Prose" in vd.details.toPlainText(), timeout=RUN_S)
        assert first_row.is_set() and vd.running
        assert "Prompt" in vd.status.text() and vd.verdict.isHidden() and vd.stop_btn.isVisible()
        go_on.set()
        done.wait()
    finally:
        go_on.set()
        vd.stop()
    report = done.args[0]
    assert [r.kind for r in report.rows] == ["prose", "code", "chinese", "list", "arithmetic"]
    assert report.verdict == "EXACT", [vd.row_line(r.result) for r in report.rows]
    assert all(r.result.tokens_on > 0 for r in report.rows)
    # the endpoint really drafted (so the check means something); the baseline did not
    assert report.on.drafting and report.on.source == "llama.cpp timings"
    assert report.off.answers == len(report.rows) and not report.off.drafting
    assert vd.verdict.text() == "EXACT: the endpoint's answers match the baseline's on all 5 prompts."
    text = vd.details.toPlainText()
    assert "The endpoint drafted" in text and "(llama.cpp timings)" in text
    for kind in ("Prose", "Code", "Chinese", "List", "Arithmetic"):
        assert kind in text
    assert text.count("EXACT: the same") == 5
    # llama-server's stream carries no ids for the drafted tokens it accepted: text is compared, and
    # the report says so (vLLM gives ids: tests/gui/test_remote_vllm_gui.py)
    assert {r.result.compared for r in report.rows} == {
        "text: the engine does not expose the ids of accepted draft tokens"
    }
    assert "Text compared: the servers gave no token ids." in text
    assert not vd.running and vd.again_btn.isVisible() and not vd.stop_btn.isVisible()
    assert w.banner.isHidden()
    shoot(vd, "verify-en.png")
    w.i18n.set_language("ja")
    try:
        assert vd.windowTitle() != "Verify the drafter's output"
        assert not vd.verdict.text().startswith("EXACT: the endpoint")  # translated, verdict word kept
        assert vd.verdict.text().startswith("EXACT")
        shoot(vd, "verify-ja.png")
    finally:
        w.i18n.set_language("en")


def test_verify_without_a_baseline_says_what_to_start(
    make_window: Any, qtbot: Any, ring: MemoryKeyring
) -> None:
    w = make_window()
    dlg = open_remote_tab(w, qtbot)
    type_endpoint(qtbot, dlg, f"http://127.0.0.1:{free_port()}/v1", "")
    tab = dlg.remote
    assert tab.verify_btn.isEnabled()
    tab.verify_btn.click()
    assert tab.verify_dialog is None  # nothing to compare with: no dialog, one line in the tab
    note = tab.baseline_note.text()
    assert note.startswith("Verify needs a second server of the same model without a drafter")
    assert "command below" in note and "\n" not in note
    # the baseline follows the endpoint's URL rules
    qtbot.keyClicks(tab.baseline, "http://10.1.2.3:8001/v1")
    assert "unencrypted" in tab.baseline_note.text() and not tab.verify_btn.isEnabled()
    assert tab.baseline_http.isVisibleTo(tab)
    tab.baseline_http.setChecked(True)
    assert tab.baseline_note.isHidden() and tab.verify_btn.isEnabled()


def test_an_unreachable_or_refusing_baseline_is_one_line(
    make_window: Any, qtbot: Any, ring: MemoryKeyring, pair: tuple[str, str]
) -> None:
    spec_url, base_url = pair
    w = make_window()
    dlg = open_remote_tab(w, qtbot)
    type_endpoint(qtbot, dlg, spec_url, KEY)
    port = free_port()
    vd = start_verify(qtbot, dlg, f"http://127.0.0.1:{port}/v1")
    with qtbot.waitSignal(vd.runFailed, timeout=60_000) as failed:
        pass
    line = failed.args[0]
    assert line == f"Baseline: http://127.0.0.1:{port}/v1: connection refused (nothing listens on that port)"
    assert vd.verdict.text() == line and vd.verdict.property("verdict") == "error"
    assert vd.report is None and vd.again_btn.isVisible()
    # a wrong key stored for the baseline: the 401 is one line too
    ring.values[(SERVICE, f"endpoint:{base_url}")] = "not-the-key"
    vd = start_verify(qtbot, dlg, base_url)
    with qtbot.waitSignal(vd.runFailed, timeout=60_000) as failed:
        pass
    line = failed.args[0]
    assert line.startswith(f"Baseline: {base_url}: 401 the API key was refused") and "\n" not in line
    assert w.banner.isHidden()  # the report dialog says it; the window's banner stays for the window


def test_a_baseline_serving_another_model_is_one_line(
    make_window: Any, qtbot: Any, ring: MemoryKeyring, pair: tuple[str, str], smollm2_q4: Path
) -> None:
    spec_url, _base_url = pair
    with llama_server(smollm2_q4, None) as other_url:  # the drafter file as a target: another model id
        w = make_window()
        dlg = open_remote_tab(w, qtbot)
        type_endpoint(qtbot, dlg, spec_url, KEY)
        vd = start_verify(qtbot, dlg, other_url)
        with qtbot.waitSignal(vd.runFailed, timeout=60_000) as failed:
            pass
    line = failed.args[0]
    assert line.startswith(f"Baseline: {other_url} does not serve ") and "it serves:" in line
    assert "\n" not in line


def test_stop_ends_the_check_and_closing_the_launch_dialog_stops_it(
    make_window: Any, qtbot: Any, ring: MemoryKeyring, pair: tuple[str, str]
) -> None:
    spec_url, base_url = pair
    w = make_window()
    dlg = open_remote_tab(w, qtbot)
    type_endpoint(qtbot, dlg, spec_url, KEY)
    vd = start_verify(qtbot, dlg, base_url)
    qtbot.waitUntil(lambda: "Prompt 1 of 5" in vd.status.text(), timeout=60_000)
    with qtbot.waitSignal(vd.runCancelled, timeout=60_000):
        vd.stop_btn.click()
    assert vd.verdict.text() == "Stopped." and vd.report is None
    vd.again_btn.click()
    token = vd._cancel
    assert vd.running and token is not None
    qtbot.waitUntil(lambda: "Prompt 1 of 5" in vd.status.text(), timeout=60_000)
    dlg.reject()  # the launch dialog closes (and is deleted with its report): the check stops with it
    assert token.cancelled
    qtbot.waitUntil(lambda: w.ops.pending() == 0, timeout=60_000)  # the worker ended its request


def launch_and_ask(
    w: Any,
    qtbot: Any,
    url: str,
    prompt: str = "Count from 1 to 10, one number per line.",
    sampling: Sampling | None = None,
) -> tuple[AnswerStats, StatsStrip]:
    dlg = open_remote_tab(w, qtbot)
    type_endpoint(qtbot, dlg, url, KEY)
    with qtbot.waitSignal(w.modelLoaded, timeout=60_000):
        dlg.launch_button.click()
    if sampling is not None:
        w.chat.sampling = sampling
    with qtbot.waitSignal(w.chat.answerFinished, timeout=120_000) as done:
        w.chat.send(prompt)
    return done.args[0], w.chat.view.bubbles[-1].stats_strip


def test_answers_show_the_servers_own_acceptance_figures_and_their_source(
    make_window: Any, qtbot: Any, ring: MemoryKeyring, pair: tuple[str, str]
) -> None:
    spec_url, _base_url = pair
    w = make_window()
    stats, strip = launch_and_ask(w, qtbot, spec_url)
    assert stats.acceptance_source == "llama.cpp timings" and stats.drafted_reported
    assert strip.acceptance.text().endswith("accepted")
    assert strip.source.text() == "from llama.cpp timings" and strip.source.isVisibleTo(strip)
    assert "As the server reported them: llama.cpp timings." in strip.acceptance.toolTip()
    details = StatsDialog(stats)
    qtbot.addWidget(details)
    texts = [label.text() for label in details.findChildren(type(strip.source))]
    assert f"{stats.drafted} / {stats.accepted}" in texts
    assert "Acceptance figures" in texts and "As the server reported them: llama.cpp timings." in texts
    assert "set by the server" in texts and "off" not in texts  # the server drafted: not "off"


def test_an_answer_from_a_server_without_figures_says_so_instead_of_zero(
    make_window: Any, qtbot: Any, ring: MemoryKeyring, pair: tuple[str, str]
) -> None:
    _spec_url, base_url = pair
    w = make_window()
    stats, strip = launch_and_ask(w, qtbot, base_url)
    assert stats.acceptance_source == acceptance.NOT_REPORTED
    assert not stats.drafted_reported and not stats.accepted_reported
    assert strip.acceptance.text() == "this server does not report acceptance"
    assert "sent no drafting figures" in strip.acceptance.toolTip()
    assert not strip.source.isVisibleTo(strip) and not strip.rounds.isVisibleTo(strip)
    details = StatsDialog(stats)
    qtbot.addWidget(details)
    texts = [label.text() for label in details.findChildren(type(strip.source))]
    assert "not reported / not reported" in texts and "0 / 0" not in texts


def strip_for(qtbot: Any, fin: RemoteFinished) -> tuple[AnswerStats, StatsStrip]:
    from app.core.chat.answer import AnswerBuilder

    builder = AnswerBuilder()
    builder.feed(fin)
    stats = builder.stats()
    strip = StatsStrip()
    qtbot.addWidget(strip)
    strip.set_stats(stats)
    return stats, strip


def test_partial_and_blurred_figures_are_shown_as_reported(qtbot: Any) -> None:
    # SGLang without proposed-draft counts: accepted known, drafted not
    stats, strip = strip_for(
        qtbot,
        RemoteFinished(
            "stop", 3, 40, 10.0, 50.0, 0, 25, drafted_known=False, acceptance_source="SGLang meta_info",
            acceptance_note="accepted = completion_tokens - spec_verify_ct; drafted count not reported",
            drafted=None, accepted=25, server_kind="sglang",
        ),
    )  # fmt: skip
    assert not stats.drafted_reported and stats.accepted_reported
    assert strip.acceptance.text() == "25 draft tokens accepted (drafted not reported)"
    assert "minus the verification passes" in strip.acceptance.toolTip()
    assert AnswerStats.from_json(stats.to_json()) == stats
    # vLLM's server-wide counters: the figures, their source, and that traffic blurs them
    stats, strip = strip_for(
        qtbot,
        RemoteFinished(
            "stop", 3, 40, 10.0, 50.0, 30, 20, acceptance_source="vLLM /metrics counters",
            acceptance_note="server-wide counters read around the request; concurrent traffic on the server "
            "blurs them", drafted=30, accepted=20, server_kind="vllm",
        ),
    )  # fmt: skip
    assert strip.acceptance.text() == "50% of the answer drafted, 67% accepted"  # 20 of 40 tokens
    assert strip.source.text() == "from vLLM /metrics counters"
    assert "other requests running on the server at the same time" in strip.source.toolTip()
    assert strip.chart.isHidden()  # no per-round figures: no chart made up from totals


def test_the_report_says_where_and_how_outputs_differ(qtbot: Any) -> None:
    """TOP_K_MATCH and FAIL rows (a llama-server pair gives EXACT, so these come from results)."""
    from app.core.engines.remote.endpoints import Endpoint
    from app.core.measure.bench import ParityResult
    from app.core.measure.verify import SideFigures, VerifyReport, VerifyRow
    from app.gui.errors import ErrorBridge
    from app.gui.ops import Ops

    ops = Ops(ErrorBridge())
    try:
        vd = VerifyDialog(
            ops,
            Endpoint.parse("http://127.0.0.1:8080/v1"),
            Endpoint.parse("http://127.0.0.1:8081/v1"),
            "m",
            "",
        )
        qtbot.addWidget(vd)
        top = ParityResult(
            "p", False, "token ids", 64, 64, 12, off_token=" the", verdict="TOP_K_MATCH", on_token=" a",
            candidates=[(1, " the", -0.70), (2, " a", -0.72)], logprob_gap=0.02,
        )  # fmt: skip
        fail_ids = ParityResult(
            "p", False, "token ids", 64, 64, 3, off_token=" cat", verdict="FAIL", on_token=" dog",
            candidates=[(5, " cat", -0.1), (9, " bird", -3.0)],
        )  # fmt: skip
        fail_text = ParityResult(
            "p", False, "text: the engine does not expose the ids of accepted draft tokens", 64, 60, 7,
            off_token="\n", on_text=" and then", verdict="FAIL",
        )  # fmt: skip
        assert (
            vd.row_line(top)
            == "TOP_K_MATCH at token 12: baseline ' the', endpoint ' a'; log-probability gap 0.020"
        )
        assert vd.row_line(fail_ids) == (
            "FAIL at token 3: baseline ' cat' (log-probability -0.100), endpoint ' dog' "
            "(log-probability not known at the baseline)"
        )
        assert vd.row_line(fail_text) == (
            "FAIL at token 7: baseline '\\n', endpoint ' and then' "
            "(text compared: the server gave no token ids)"
        )
        report = VerifyReport("e", "b", "m", 64, [VerifyRow("prose", top), VerifyRow("code", fail_ids)])
        report.on = SideFigures(2, 0, 0, "llama.cpp timings")
        report.off = SideFigures(2, 10, 5, "llama.cpp timings")
        assert report.verdict == "FAIL"
        assert vd.verdict_line(report).startswith("FAIL: 1 of 2 prompts diverge from the baseline.")
        lines = vd.drafting_lines(report)
        assert lines[0].startswith("The endpoint reported no drafted tokens")
        assert lines[1].startswith("The baseline reported drafted tokens")
        report.rows = [VerifyRow("prose", top)]
        assert report.verdict == "TOP_K_MATCH" and vd.verdict_line(report).startswith("TOP_K_MATCH: 1 of 1")
        report.on = SideFigures(2)  # nothing reported
        assert vd.drafting_lines(report)[0].startswith("The endpoint does not report acceptance")
    finally:
        ops.shutdown()
