"""Auto in the launch dialog: the default speculation, shown in the dialog, reused when a
calibration is stored, and re-measured (and cancelled) from the dialog. With nothing stored the
launch does not measure first (it measures in the background: tests/gui/test_auto_background.py).

Real engine: the embedded SmolLM2 Q4_1 on llama.cpp (its declared drafter is the same file, so
Auto measures off against ngram-mod: a short calibration).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from app.core.launch import auto
from app.core.launch.plan import LaunchChoice, plan_auto
from app.gui.cache_bridge import CacheBridge
from app.gui.views.launch_dialog import LaunchDialog


def open_dialog(w: Any, qtbot: Any, quant: str = "Q4_1") -> LaunchDialog:
    family, spec, q = w.registry.match("smollm2-135m-instruct", "gguf", None, quant)
    with qtbot.waitSignal(w.launchDialogOpened, timeout=10_000) as opened:
        w.open_launch_dialog(family, spec, q)
    dlg: LaunchDialog = opened.args[0]
    return dlg


def store_fake_choice(choice: LaunchChoice) -> Path:
    """A stored calibration for ``choice`` written with the storage API: ngram-mod pays."""
    plan = plan_auto(choice, CacheBridge().resolve)
    measurements = [
        auto.Measurement(auto.OFF, dict.fromkeys(auto.WORKLOADS, 1.0)),
        auto.Measurement(auto.Candidate("ngram-mod", 64), {"prose": 1.01, "code": 1.2, "repeat": 3.6}),
    ]
    return auto.store_result(auto.CalibrationResult(plan.key, measurements, 4.0))


@pytest.mark.usefixtures("smollm2_q4")
def test_auto_is_the_default_and_a_stored_calibration_is_reused_and_shown(
    make_window: Any, qtbot: Any
) -> None:
    w = make_window()
    stored = store_fake_choice(w.launcher.default_choice())
    dlg = open_dialog(w, qtbot)
    assert dlg.auto_panel.switch.isChecked() and dlg.state.auto_on  # Auto is the default
    qtbot.waitUntil(lambda: dlg.auto_panel.state == "stored", timeout=20_000)
    assert dlg.auto_panel.chosen.text() == "Auto chose: ngram-mod 64/round"
    # the stored "why" line: each configuration with its figures in plain words (the intervals,
    # one pair each with the noise before any pair was repeated: prose 0.86-1.19 holds plain
    # decoding, code edit 1.02-1.41 and repeats 3.07-4.22 are above it)
    assert dlg.auto_panel.why.text() == (
        "ngram-mod 64/round: no clear difference (1.01x) on prose, 1.20x faster (at least 1.02x) "
        "on code edits, 3.60x faster (at least 3.07x) on repeats"
    )
    assert dlg.auto_panel.remeasure.isVisible()

    # A manual drafter replaces Auto; turning Auto on again clears it.
    dlg.enable.setChecked(True)
    assert not dlg.auto_panel.switch.isChecked() and not dlg.state.auto_on
    dlg.auto_panel.switch.setChecked(True)
    assert not dlg.enable.isChecked() and dlg.state.auto_on
    qtbot.waitUntil(lambda: dlg.auto_panel.state == "stored", timeout=20_000)

    with qtbot.waitSignal(w.modelLoaded, timeout=120_000) as loaded:
        dlg.launch_button.click()
    info = loaded.args[0]
    assert info.speculation == "Auto: ngram-mod 64/round"  # what the stats strip names
    assert info.auto.measured and info.auto.stored == str(stored)  # reused: nothing to measure
    assert not w.auto_tuner.needs_measuring() and not w.auto_tuner.measuring
    assert w.status_spec.text() == "Speculation: Auto: ngram-mod 64/round"
    engine = w.engine.current_engine
    assert engine is not None and engine.spec_kind == "ngram-mod"  # the real engine runs it
    # 64 deep, and short drafts allowed (llama.cpp's own n_min of 48 drafts nothing near the end)
    assert engine.plan.settings["speculative.ngram_mod.n_max"] == 64
    assert engine.plan.settings["speculative.ngram_mod.n_min"] == auto.NGRAM_MIN_DRAFT
    assert json.loads(stored.read_text())["chosen"]["method"] == "ngram-mod"


@pytest.mark.usefixtures("smollm2_q4")
@pytest.mark.timeout(900)
def test_remeasure_runs_and_can_be_cancelled(make_window: Any, qtbot: Any) -> None:
    w = make_window()
    stored = store_fake_choice(w.launcher.default_choice())
    before = stored.read_text()
    dlg = open_dialog(w, qtbot)
    panel = dlg.auto_panel
    qtbot.waitUntil(lambda: panel.state == "stored", timeout=20_000)

    # Cancel while it measures: nothing stored, the old result stays.
    panel.remeasure.click()
    assert panel.state == "measuring" and panel.progress.isVisible() and panel.cancel.isVisible()
    qtbot.waitUntil(lambda: panel.step.text() != "", timeout=30_000)  # a progress report arrived
    panel.cancel.click()
    qtbot.waitUntil(lambda: panel.state == "cancelled", timeout=30_000)
    assert "nothing was stored" in panel.chosen.text()
    assert stored.read_text() == before
    assert not panel.measuring

    # Run to the end: the real measurement replaces the stored one and is shown. (About 30 s on two
    # quiet cores; it took over 120 s beside other processes: the bound only catches a hang.)
    with qtbot.waitSignal(panel.measured, timeout=600_000) as done:
        panel.remeasure.click()
    result: auto.CalibrationResult = done.args[0]
    assert result.stored_path == str(stored) and stored.read_text() != before
    measured = {m.candidate.method for m in result.measurements}
    assert measured == {"off", "ngram-mod"}  # the declared drafter is the target file: not tried
    assert panel.state == "stored"
    assert panel.chosen.text() == f"Auto chose: {result.choice.candidate.label}"
    why = panel.why.text()
    assert all(m.candidate.label in why for m in result.measurements if m.candidate.method != "off")
    assert not re.search(r"\(\d+\.\d+-\d+\.\d+\)", why), why  # plain words, not raw intervals


def test_the_why_line_follows_the_language(make_window: Any, qtbot: Any) -> None:
    """The launch dialog's "why" line was the core's English sentence in every language."""
    w = make_window()
    store_fake_choice(w.launcher.default_choice())
    w.set_language("ja")
    dlg = open_dialog(w, qtbot)
    qtbot.waitUntil(lambda: dlg.auto_panel.state == "stored", timeout=20_000)
    why = dlg.auto_panel.why.text()
    assert "ngram-mod 64/round" in why and "3.60x" in why
    assert "prose" not in why and "repeats" not in why  # the words are Japanese now
    assert "繰り返し" in why


def test_calibration_steps_are_said_in_the_users_language(make_window: Any) -> None:
    """The load bar and the dialog showed the core's English step ("ngram-mod 64/round: the same
    code edit again") in every language; the core's steps carry a code the GUI translates."""
    from app.gui.views.auto_panel import calibration_step_text

    w = make_window()
    step = auto.Step("repeat", "ngram-mod 64/round")
    assert step.text == "ngram-mod 64/round: the same code edit again"  # what the CLI prints
    assert calibration_step_text(step) == "ngram-mod 64/round: the same code edit again"
    w.set_language("ja")
    assert calibration_step_text(step) == "ngram-mod 64/round：同じコード編集をもう一度"
    assert calibration_step_text(auto.Step("done")) == "測定完了"
    w.set_language("en")


@pytest.mark.usefixtures("smollm2_q4")
def test_the_auto_panel_shows_what_auto_learned_from_real_answers(make_window: Any, qtbot: Any) -> None:
    """Beside the calibration's choice, the panel says per kind what the user's own
    answers taught Auto: the route, its speedup with its interval, and how many answers it rests on."""
    from app.core.launch.auto.router import RequestRouter

    w = make_window()
    choice = w.launcher.default_choice()
    store_fake_choice(choice)
    dlg = open_dialog(w, qtbot)
    qtbot.waitUntil(lambda: dlg.auto_panel.state == "stored", timeout=20_000)
    assert not dlg.auto_panel.learned.isVisible()  # nothing learned yet: no line
    dlg.close()
    plan = plan_auto(choice, CacheBridge().resolve)
    router = RequestRouter.for_model(plan.key, plan.candidates, plan.drafter_path)
    assert router.learner is not None
    for ratio in (3.4, 3.7, 3.5):
        router.learner.observe(auto.RequestKind.REPEAT, auto.Candidate("ngram-mod", 64), ratio)
    for predicted in (21.0, 19.0):  # tokens/s predicted for answers that measured 20
        router.learner.observe_error(auto.Candidate("ngram-mod", 64), predicted, 20.0)
    router.learner.save()
    dlg = open_dialog(w, qtbot)
    qtbot.waitUntil(lambda: dlg.auto_panel.state == "stored", timeout=20_000)
    text = dlg.auto_panel.learned.text()
    assert (
        text.startswith("Learned from your answers: repeat: ngram-mod 64/round, 3.5") and "3 answers" in text
    )
    assert "beyond the measured noise" in dlg.auto_panel.learned.toolTip()
    assert dlg.auto_panel.errors.isVisible()
    assert dlg.auto_panel.errors.text() == (
        "Predictions against your answers: ngram-mod 64/round within 5% (2 answers)"
    )


def test_the_panel_says_which_kinds_another_configuration_serves(make_window: Any, qtbot: Any) -> None:
    """A llama.cpp launch runs a pool: the chain's best mean comes from repeats, which ngram-mod
    serves faster beyond the noise, so the launch loads the drafter and the panel says what
    ngram-mod is for (in the user's language)."""
    w = make_window()
    plan = plan_auto(w.launcher.default_choice(), CacheBridge().resolve)

    def alike(c: auto.Candidate, prose: float, code: float, repeat: float) -> auto.Measurement:
        ratios: dict[str, float | None] = {"prose": prose, "code": code, "repeat": repeat}
        samples = {"prose": [prose] * 3, "code": [code] * 3, "repeat": [repeat] * 3}
        return auto.Measurement(c, ratios, samples=samples)

    ngram = auto.Candidate("ngram-mod", 64)
    measured = [
        auto.Measurement(auto.OFF, dict.fromkeys(auto.WORKLOADS, 1.0)),
        alike(auto.Candidate("draft", 8, None, 0.2), 1.86, 1.92, 1.92),
        alike(ngram, 1.00, 0.99, 3.57),
        alike(auto.Candidate("draft+ngram-mod", 8, 64, 0.2), 1.87, 1.85, 3.06),
    ]
    auto.store_result(auto.CalibrationResult(plan.key, measured, 4.0))
    dlg = open_dialog(w, qtbot)
    qtbot.waitUntil(lambda: dlg.auto_panel.state == "stored", timeout=20_000)
    assert dlg.auto_panel.chosen.text() == "Auto chose: draft 8/round"
    why = dlg.auto_panel.why.text()
    assert "on repeats, for repeat;" in why  # ngram-mod serves repeats
    assert why.endswith("on repeats, not used")  # the chain serves nothing
    dlg.reject()
    w.set_language("ja")
    dlg = open_dialog(w, qtbot)
    qtbot.waitUntil(lambda: dlg.auto_panel.state == "stored", timeout=20_000)
    assert "繰り返しに使用" in dlg.auto_panel.why.text()
