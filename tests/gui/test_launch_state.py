"""The launch dialog shows what it launches, whatever the order of the user's clicks.

A sequence such as Auto on, then the drafter switched on and off again, must not leave Auto's
switch drawn on with Auto's text gone and a launch with speculation off after the dialog said what
Auto answers with (a switch whose signals are blocked while it is turned off does exactly that).
The dialog keeps one form state, renders every widget from it and launches the state's request.

These tests click the real dialog (opened by the real window, as the user opens it) through every
sequence of up to four clicks on Auto's switch, the drafter switch and the model-free method, and
after each click compare what the dialog shows with the launch it would start, and with what the
user expects from the clicks (:class:`Expected`).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.core.launch import auto
from app.core.launch.plan import plan_auto
from app.gui.cache_bridge import CacheBridge
from app.gui.views.launch_dialog import LaunchDialog

TOGGLES = ("auto", "drafter", "model-free")
MODEL_FREE = "ngram-mod"


@dataclass
class Expected:
    """What the user expects after their clicks: one choice at a time; a manual choice replaces
    Auto while it is made, and withdrawing it goes back to Auto unless Auto was switched off."""

    auto: bool = True  # the user's Auto switch
    drafter: bool = False
    model_free: bool = False

    @property
    def runs(self) -> str:
        if self.drafter:
            return "drafter"
        if self.model_free:
            return "model-free"
        return "auto" if self.auto else "off"

    def click(self, toggle: str) -> None:
        if toggle == "auto":
            if self.runs == "auto":
                self.auto = False
            else:
                self.auto, self.drafter, self.model_free = True, False, False
        elif toggle == "drafter":
            self.drafter = not self.drafter
            self.model_free = False
        elif not self.drafter:  # the method list is disabled while the drafter is on
            self.model_free = not self.model_free


def open_dialog(w: Any, qtbot: Any, name: str, quant: str | None = None) -> LaunchDialog:
    family, spec, q = w.registry.match(name, "gguf", None, quant)
    with qtbot.waitSignal(w.launchDialogOpened, timeout=20_000) as opened:
        w.open_launch_dialog(family, spec, q)
    dlg: LaunchDialog = opened.args[0]
    assert dlg.engine_name == "llama.cpp" and dlg.is_panel_visible()
    return dlg


def click(qtbot: Any, dlg: LaunchDialog, toggle: str) -> None:
    """Click as the user does: a disabled widget takes no click."""
    if toggle == "auto":
        qtbot.mouseClick(dlg.auto_panel.switch, Qt.MouseButton.LeftButton)
    elif toggle == "drafter":
        qtbot.mouseClick(dlg.enable, Qt.MouseButton.LeftButton)
    elif dlg.ngram_method.isEnabled():
        chosen = dlg.ngram_method.currentData() is not None
        dlg.ngram_method.setCurrentIndex(0 if chosen else dlg.ngram_method.findData(MODEL_FREE))


def check(dlg: LaunchDialog, expected: Expected, drafter_method: str, steps: tuple[str, ...]) -> None:
    """What the dialog shows is what it would launch, and what the clicks asked for."""
    why = f"after {steps}"
    choice = dlg.choice()
    auto_shown = dlg.auto_panel.switch.isChecked()
    drafter_shown = dlg.enable.isChecked()
    method_shown = dlg.ngram_method.currentData()
    shown = "auto" if auto_shown else "drafter" if drafter_shown else "model-free" if method_shown else "off"
    assert sum((auto_shown, drafter_shown, method_shown is not None)) <= 1, why
    assert shown == expected.runs, why
    # the launch is the one shown
    assert choice.auto is auto_shown, why
    assert choice.speculation.enabled is (drafter_shown or method_shown is not None), why
    if drafter_shown:
        assert choice.speculation.method == drafter_method, why
    if method_shown is not None:
        assert choice.speculation.method == method_shown, why
    # Auto's text is there whenever Auto is on; otherwise a sentence says what the launch runs
    summary = dlg.speculation_summary
    if auto_shown:
        assert dlg.auto_panel.chosen.isVisible() and dlg.auto_panel.chosen.text(), why
        assert not summary.isVisible(), why
    else:
        assert summary.isVisible() and not dlg.auto_panel.chosen.isVisible(), why
        text = summary.text()
        if shown == "off":
            assert "answers without speculation" in text, why
        else:
            assert "This launch drafts with" in text and ("go back to Auto" in text) is expected.auto, why
            assert ("ngram-mod" in text) is (shown == "model-free"), why


def knob_settles(qtbot: Any, dlg: LaunchDialog) -> None:
    """Each switch is drawn as it is (the knob's animation ends where its state says)."""
    for switch in (dlg.auto_panel.switch, dlg.enable):
        qtbot.waitUntil(
            lambda s=switch: s.property("knob") == (1.0 if s.isChecked() else 0.0),
            timeout=5_000,
        )


@pytest.mark.parametrize(
    ("name", "quant", "drafter_method", "depth"),
    [
        # the drafter is on disk (the embedded pair)
        ("smollm2-135m-instruct", "Q4_1", "draft", 4),
        # an MTP assistant that is not downloaded: launching with it queues its download
        ("gemma-4", None, "mtp", 3),
    ],
)
def test_every_click_sequence_launches_what_the_dialog_shows(
    make_window: Any, qtbot: Any, name: str, quant: str | None, drafter_method: str, depth: int
) -> None:
    w = make_window()
    sequences = list(itertools.product(TOGGLES, repeat=depth))  # their prefixes are checked on the way
    for sequence in sequences:
        dlg = open_dialog(w, qtbot, name, quant)
        expected = Expected()
        check(dlg, expected, drafter_method, ())
        for i, toggle in enumerate(sequence):
            click(qtbot, dlg, toggle)
            expected.click(toggle)
            check(dlg, expected, drafter_method, sequence[: i + 1])
        knob_settles(qtbot, dlg)
        dlg.reject()


@pytest.mark.usefixtures("smollm2_q4")
def test_drafter_on_and_off_launches_auto_as_the_dialog_says(make_window: Any, qtbot: Any) -> None:
    """The user's sequence, launched for real: Auto on, drafter on, drafter off. Auto's text is
    back and the model loads with Auto, not with speculation off."""
    w = make_window()
    dlg = open_dialog(w, qtbot, "smollm2-135m-instruct", "Q4_1")
    qtbot.waitUntil(lambda: dlg.auto_panel.state == "unmeasured", timeout=20_000)
    said = dlg.auto_panel.chosen.text()
    assert said.startswith("Not measured yet: Auto answers with ngram-mod 64/round at once")
    click(qtbot, dlg, "drafter")
    assert not dlg.auto_panel.switch.isChecked() and dlg.speculation_summary.isVisible()
    click(qtbot, dlg, "drafter")
    assert dlg.auto_panel.switch.isChecked() and not dlg.speculation_summary.isVisible()
    qtbot.waitUntil(lambda: dlg.auto_panel.chosen.text() == said, timeout=20_000)
    knob_settles(qtbot, dlg)
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000) as loaded:
        dlg.launch_button.click()
    assert loaded.args[0].speculation == "Auto: ngram-mod 64/round"
    assert w.status_spec.text().startswith("Speculation: Auto: ngram-mod 64/round")  # not "off"


def test_the_drafter_tooltip_follows_its_cache_state(make_window: Any, qtbot: Any) -> None:
    w = make_window()
    on_disk = open_dialog(w, qtbot, "smollm2-135m-instruct", "Q4_1")
    assert "is already on this computer; nothing is downloaded" in on_disk.enable.toolTip()
    assert "downloads" not in on_disk.enable.toolTip().replace("nothing is downloaded", "")
    on_disk.reject()
    missing = open_dialog(w, qtbot, "gemma-4")
    quant = missing.draft_quant.currentData()
    assert f"The drafter ({quant}) is not on this computer yet" in missing.enable.toolTip()
    # another quantization of the drafter: the tooltip names it
    missing.draft_quant.setCurrentIndex(missing.draft_quant.count() - 1)
    other = missing.draft_quant.currentData()
    assert other != quant and f"The drafter ({other}) is not on this computer yet" in missing.enable.toolTip()


def test_auto_off_says_what_the_launch_runs_in_every_language(make_window: Any, qtbot: Any) -> None:
    """With Auto off the Speculation box was an empty frame under the switch."""
    w = make_window()
    dlg = open_dialog(w, qtbot, "smollm2-135m-instruct", "Q4_1")
    click(qtbot, dlg, "auto")
    assert not dlg.choice().auto and not dlg.choice().speculation.enabled
    assert dlg.speculation_summary.text().startswith("Auto is off: this launch answers without speculation.")
    dlg.reject()
    w.set_language("ja")
    dlg = open_dialog(w, qtbot, "smollm2-135m-instruct", "Q4_1")
    click(qtbot, dlg, "drafter")
    text = dlg.speculation_summary.text()
    assert dlg.speculation_summary.isVisible() and "Auto" in text and "ドラフター" in text
    assert "drafts" not in text  # said in Japanese
    dlg.reject()
    w.set_language("en")


def test_autos_figures_are_plain_words(make_window: Any, qtbot: Any) -> None:
    """Auto's ranges ("2.69x (0.37-19.50)") asked the user to read an interval: a sure speedup
    says how much at least, one inside the noise says there is no clear difference, and one whose
    interval says nothing yet says so."""
    from app.core.launch.auto.router import RequestRouter

    w = make_window()
    choice = w.launcher.default_choice()
    plan = plan_auto(choice, CacheBridge().resolve)
    measurements = [
        auto.Measurement(auto.OFF, dict.fromkeys(auto.WORKLOADS, 1.0)),
        auto.Measurement(auto.Candidate("ngram-mod", 64), {"prose": 1.01, "code": 1.2, "repeat": 3.6}),
    ]
    auto.store_result(auto.CalibrationResult(plan.key, measurements, 4.0))
    router = RequestRouter.for_model(plan.key, plan.candidates, plan.drafter_path)
    assert router.learner is not None
    for ratio in (0.4, 19.0):  # two answers that disagree wildly
        router.learner.observe(auto.RequestKind.CODE_EDIT, auto.Candidate("ngram-mod", 64), ratio)
    router.learner.save()
    dlg = open_dialog(w, qtbot, "smollm2-135m-instruct", "Q4_1")
    qtbot.waitUntil(lambda: dlg.auto_panel.state == "stored", timeout=20_000)
    why, learned = dlg.auto_panel.why.text(), dlg.auto_panel.learned.text()
    raw = re.compile(r"\d\.\d\d-\d+\.\d\d")  # an interval as numbers
    assert not raw.search(why) and not raw.search(learned), (why, learned)
    assert "no clear difference (1.01x) on prose" in why
    assert "3.60x faster (at least 3.07x) on repeats" in why
    assert learned.startswith("Learned from your answers: code edit: ngram-mod 64/round, ")
    assert "not enough answers yet (2 so far)" in learned
    assert "at least" in dlg.auto_panel.why.toolTip()
