"""The chat's per-conversation speculation choice (issue 25): Auto / Off / the loaded method, by
the rule of the local API's ``tandem.speculation``, stored with the conversation."""

from __future__ import annotations

from typing import Any

import pytest

from app.core.settings import Settings
from app.gui.views.speculation_choice import SpeculationChoice
from tests.gui.conftest import ScriptedEngine, scripted_loader

QUESTION = "Name three colors."


def _choose(choice: SpeculationChoice, value: str) -> None:
    """Pick ``value`` as the user does (an enabled entry of the combo)."""
    item = choice.entry(value)
    assert item is not None and item.isEnabled(), value
    choice.combo.setCurrentIndex(item.row())


def _ask(w: Any, qtbot: Any, text: str) -> Any:
    with qtbot.waitSignal(w.chat.answerFinished, timeout=120_000) as blocker:
        w.chat_view.composer.input.setPlainText(text)
        w.chat_view.composer.button.click()
    return blocker.args[0]


@pytest.mark.usefixtures("smollm2_q4")
def test_off_answers_plainly_with_the_text_of_auto_and_survives_a_restart(
    make_window: Any, qtbot: Any
) -> None:
    """Real SmolLM2 on llama.cpp. Speculation cannot change per request, so Off is honoured by a
    model loaded without speculation (here the default launch is plain): Off then answers with no
    drafted tokens and the same greedy text as Auto, and the choice is kept with its conversation."""
    w = make_window(settings=Settings(default_speculation="off"))
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000):
        w.load_default_model()
    choice: SpeculationChoice = w.chat_page.speculation
    assert choice.value == "auto" and [choice.combo.itemText(i) for i in range(2)] == ["Auto", "Off"]
    entries = [choice.entry(v) for v in ("auto", "off")]
    assert choice.isVisible() and all(e is not None and e.isEnabled() for e in entries)
    w.chat.sampling = w.chat.sampling.__class__(temperature=0.0, max_tokens=24)

    auto = _ask(w, qtbot, QUESTION)
    auto_id = w.chat.conversation_id
    auto_text = w.chat_view.bubbles[-1].text

    w.new_chat()
    assert choice.value == "auto"  # a new conversation starts at Auto
    _choose(choice, "off")  # chosen before the conversation exists: stored when it is created
    off = _ask(w, qtbot, QUESTION)
    off_id = w.chat.conversation_id
    assert off_id != auto_id and w.store.conversation(off_id).speculation == "off"
    assert off.drafted == 0 and off.accepted == 0 and off.speculation == ""  # the strip names none
    assert w.chat_view.bubbles[-1].text == auto_text and off.completion_tokens == auto.completion_tokens
    assert not w.chat_view.bubbles[-1].spans  # no draft tokens highlighted

    w.chat.open_conversation(auto_id)  # switching conversations switches the control
    assert choice.value == "auto" and choice.combo.currentText() == "Auto"
    w.chat.open_conversation(off_id)
    assert choice.value == "off" and choice.combo.currentText() == "Off"

    # restart: a new window over the same conversation store
    w.close()
    w.shutdown()
    w.store.close()
    again = make_window(loader=scripted_loader(ScriptedEngine(plain=True)))
    assert {c.id: c.speculation for c in again.store.conversations()} == {auto_id: "auto", off_id: "off"}
    again.chat.open_conversation(off_id)
    assert again.chat_page.speculation.value == "off"
    again.chat.open_conversation(auto_id)
    assert again.chat_page.speculation.value == "auto"


def test_a_choice_needing_a_reload_is_disabled_says_why_and_is_refused(make_window: Any, qtbot: Any) -> None:
    """A speculating model (the scripted engine runs method "scripted") cannot turn speculation off
    per answer: Off is disabled with its reason, and a conversation stored as Off is refused like
    the API refuses it (the message stays in the box); Auto answers with the loaded method."""
    w = make_window(loader=scripted_loader(ScriptedEngine()))
    with qtbot.waitSignal(w.modelLoaded, timeout=10_000):
        w.load_default_model()
    choice: SpeculationChoice = w.chat_page.speculation
    off, method = choice.entry("off"), choice.entry("scripted")
    assert off is not None and not off.isEnabled() and "Needs a reload without speculation" in off.toolTip()
    assert "scripted" in off.toolTip()
    assert method is not None and method.isEnabled()

    conv = w.store.create_conversation("stored as off")
    w.store.set_speculation(conv.id, "off")
    w.conversations.reload()
    w.chat.open_conversation(conv.id)
    assert choice.value == "off" and choice.combo.currentText() == "Off"  # shown, though disabled
    assert choice.combo.toolTip() == off.toolTip()  # the box itself says why
    with qtbot.waitSignal(w.errors.raised, timeout=5000) as raised:
        w.chat_view.composer.input.setPlainText("hello")
        w.chat_view.composer.button.click()
    err = raised.args[0]
    assert "cannot change it without a reload" in err.message and "scripted" in err.message and err.hint
    assert w.chat_view.composer.input.toPlainText() == "hello" and not w.store.messages(conv.id)

    _choose(choice, "auto")  # honoured: the answer runs what is loaded
    assert w.store.conversation(conv.id).speculation == "auto"
    stats = _ask(w, qtbot, "hello")
    assert stats.drafted > 0  # the loaded method drafted


def test_a_change_mid_answer_applies_from_the_next_answer(make_window: Any, qtbot: Any) -> None:
    """The choice is read when an answer starts: changing it while one streams leaves that one."""
    import threading

    started, release = threading.Event(), threading.Event()

    def gate(i: int) -> None:
        if i == 4:
            started.set()
            release.wait(10)

    w = make_window(loader=scripted_loader(ScriptedEngine(gate=gate)))
    with qtbot.waitSignal(w.modelLoaded, timeout=10_000):
        w.load_default_model()
    choice: SpeculationChoice = w.chat_page.speculation
    with qtbot.waitSignal(w.engine.eventsReady, timeout=10_000):
        w.chat.send("hello")
    _choose(choice, "scripted")  # the loaded method, chosen while the answer streams
    cid = w.chat.conversation_id
    assert w.store.conversation(cid).speculation == "scripted"
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000) as blocker:
        release.set()
    assert blocker.args[0].finish_reason == "stop"
    assert choice.value == "scripted"


@pytest.mark.usefixtures("smollm2_q4")
def test_a_real_speculating_model_offers_its_method_and_greys_off(make_window: Any, qtbot: Any) -> None:
    """Real SmolLM2 on llama.cpp with ngram-mod (model-free: no drafter file): the entries are
    Auto, Off (disabled, with the reason) and ngram-mod; an Auto answer runs the loaded method and
    a switch to Off is never stored from the combo (the entry cannot be picked)."""
    from dataclasses import replace

    from app.core.speculative import SpeculationOptions

    w = make_window(settings=Settings(default_speculation="off"))
    ngram = SpeculationOptions(enabled=True, method="ngram-mod")
    choice = replace(w.launcher.default_choice(), speculation=ngram, auto=False)
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000):
        w.launcher.start_load(choice)
    assert w.engine.info is not None and w.engine.info.spec_kind == "ngram-mod"
    control: SpeculationChoice = w.chat_page.speculation
    off, method = control.entry("off"), control.entry("ngram-mod")
    assert [control.combo.itemText(i) for i in range(control.combo.count())] == ["Auto", "Off", "ngram-mod"]
    assert off is not None and not off.isEnabled()
    assert "Needs a reload without speculation" in off.toolTip() and "ngram-mod" in off.toolTip()
    assert method is not None and method.isEnabled()
    _choose(control, "ngram-mod")
    w.chat.sampling = w.chat.sampling.__class__(temperature=0.0, max_tokens=16)
    stats = _ask(w, qtbot, "Count from 1 to 20 separated by commas.")
    assert w.store.conversation(w.chat.conversation_id).speculation == "ngram-mod"
    assert stats.completion_tokens > 0 and "ngram-mod" in stats.speculation
