"""The chat's per-conversation speculation choice: Auto / Off / the loaded method, by
the rule of the local API's ``tandem.speculation``, stored with the conversation."""

from __future__ import annotations

from typing import Any

import pytest

from app.core.engines.blocking import generate
from app.core.settings import Settings
from app.core.speculative.per_request import Speculation
from app.gui.views.speculation_choice import SpeculationChoice
from tests.gui.conftest import ScriptedEngine, scripted_loader

QUESTION = "Name three colors."


def _choose(choice: SpeculationChoice, value: str) -> None:
    """Pick ``value`` as the user does (an enabled entry of the combo)."""
    item = choice.entry(value)
    assert item is not None and item.isEnabled(), value
    choice.combo.setCurrentIndex(item.row())


def _ask(w: Any, qtbot: Any, text: str) -> Any:
    with qtbot.waitSignal(w.chat.answerFinished, timeout=40_000) as blocker:
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
    assert choice.value.name == "auto" and [choice.combo.itemText(i) for i in range(2)] == ["Auto", "Off"]
    entries = [choice.entry(v) for v in ("auto", "off")]
    assert choice.isVisible() and all(e is not None and e.isEnabled() for e in entries)
    w.chat.sampling = w.chat.sampling.__class__(temperature=0.0, max_tokens=24)

    auto = _ask(w, qtbot, QUESTION)
    auto_id = w.chat.conversation_id
    auto_text = w.chat_view.bubbles[-1].text

    w.new_chat()
    assert choice.value.name == "auto"  # a new conversation starts at Auto
    _choose(choice, "off")  # chosen before the conversation exists: stored when it is created
    off = _ask(w, qtbot, QUESTION)
    off_id = w.chat.conversation_id
    assert off_id != auto_id and w.store.conversation(off_id).speculation == "off"
    assert off.drafted == 0 and off.accepted == 0 and off.speculation == ""  # the strip names none
    assert w.chat_view.bubbles[-1].text == auto_text and off.completion_tokens == auto.completion_tokens
    assert not w.chat_view.bubbles[-1].spans  # no draft tokens highlighted

    w.chat.open_conversation(auto_id)  # switching conversations switches the control
    assert choice.value.name == "auto" and choice.combo.currentText() == "Auto"
    w.chat.open_conversation(off_id)
    assert choice.value.name == "off" and choice.combo.currentText() == "Off"

    # restart: a new window over the same conversation store
    w.close()
    w.shutdown()
    w.store.close()
    again = make_window(loader=scripted_loader(ScriptedEngine(plain=True)))
    assert {c.id: c.speculation for c in again.store.conversations()} == {auto_id: "auto", off_id: "off"}
    again.chat.open_conversation(off_id)
    assert again.chat_page.speculation.value.name == "off"
    again.chat.open_conversation(auto_id)
    assert again.chat_page.speculation.value.name == "auto"


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
    assert choice.value.name == "off" and choice.combo.currentText() == "Off"  # shown, though disabled
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
    assert choice.value.name == "scripted"


@pytest.mark.usefixtures("smollm2_q4")
def test_switching_the_conversation_never_reloads_and_each_answer_names_its_configuration(
    make_window: Any, qtbot: Any
) -> None:
    """Real SmolLM2 on llama.cpp, loaded with its drafter: the header offers Auto, Off,
    the loaded draft and every model-free method of the window's engine pool, all enabled. A
    conversation switched Auto -> Off -> ngram-mod -> draft never reloads the model: each answer runs
    on the pool's configuration for the choice, names it in the header and its stats, and has the
    greedy text of a plain answer of the same messages. While an answer streams, the process has no
    engine thread, stream bridge or stop watcher: the answer is read on the engine loop."""
    import threading
    from dataclasses import replace

    from app.core.answer import collect
    from app.core.engines.base import Sampling

    w = make_window(settings=Settings(default_speculation="off"))
    default = w.launcher.default_choice()
    draft = replace(default.speculation, enabled=True, method="draft", num_speculative_tokens=4)
    loads: list[object] = []
    w.modelLoaded.connect(loads.append)
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000):
        w.launcher.start_load(replace(default, speculation=draft, auto=False))
    assert w.engine.info is not None and w.engine.info.spec_kind == "draft"
    control: SpeculationChoice = w.chat_page.speculation
    shown = [control.combo.itemText(i) for i in range(control.combo.count())]
    assert shown[:3] == ["Auto", "Off", "draft"] and "ngram-mod" in shown
    for value in ("auto", "off", "ngram-mod", "draft"):
        item = control.entry(value)
        assert item is not None and item.isEnabled(), value
    assert "no reload" in control.entry("ngram-mod").toolTip()  # type: ignore[union-attr]
    w.chat.sampling = Sampling(temperature=0.0, max_tokens=24)
    question = "List the first ten prime numbers separated by commas."
    threads_while_answering: list[set[str]] = []

    def note_threads() -> None:
        threads_while_answering.append({t.name for t in threading.enumerate()})

    w.engine.eventsReady.connect(note_threads)
    answered: dict[str, tuple[str, Any, str]] = {}
    for value in ("auto", "off", "ngram-mod", "draft"):
        w.new_chat()
        _choose(control, value)
        stats = _ask(w, qtbot, question)
        cid = w.chat.conversation_id
        assert cid is not None and w.store.conversation(cid).speculation == value
        text = w.store.messages(cid)[-1].content
        answered[value] = (text, stats, control.answered.text())
    assert len(loads) == 1  # never reloaded
    texts = {value: text for value, (text, _s, _h) in answered.items()}
    assert len(set(texts.values())) == 1, texts
    off_text, off_stats, off_header = answered["off"]
    assert off_stats.drafted == 0 and off_stats.speculation == "" and off_header.endswith("Off")
    _t, ngram_stats, ngram_header = answered["ngram-mod"]
    assert ngram_stats.speculation == "ngram-mod" and ngram_header.endswith("ngram-mod")
    _t, draft_stats, draft_header = answered["draft"]
    assert draft_stats.speculation == w.engine.info.speculation and draft_header.endswith("draft")
    assert draft_stats.drafted > 0
    # Auto answered on one of the pool's configurations, and says which
    pool = w.engine.pool
    assert pool is not None
    auto_header = answered["auto"][2]
    assert any(auto_header.endswith(label) for label in (*(o.name for o in pool.offers()), "Off"))
    children = {c.label for c in pool.status().children}
    assert {"draft", "off", "ngram-mod"} <= children
    # the same greedy text as a plain answer of the same messages, read here without the window
    plain = pool.engine_of(Speculation("off"))
    assert plain is not None
    reference = collect(generate(plain, [{"role": "user", "content": question}], w.chat.sampling))
    assert reference.text == off_text
    # no engine thread, stream bridge or stop watcher while the answers streamed
    assert threads_while_answering
    for names in threads_while_answering:
        odd = {
            n
            for n in names
            if n.startswith(("tandem-engine", "tandem-llamacpp", "tandem-stream", "tandem-remote"))
        }
        assert odd <= {"tandem-engine-loop"}, names
