"""Nothing the model wrote is ever invisible in its chat bubble.

A real case: the SmolLM2 F32 model asked to count to 30 writes 512 tokens of "1. 1. 1. 2. 3. ..."
that Markdown turns into hundreds of empty nested lists, which rendered as they are make an empty
bubble, during the answer and after it. Here degenerate outputs go through the real renderer and a real
:class:`MessageBubble`, streamed in steps and then ended, and what Qt shows of the bubble's labels
(their documents' text, list markers included) must hold every word of the text that has arrived.
The placeholder of an answer not written yet is checked in the real window in two languages, and
the real F32 model answers the user's prompt.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QTextDocument

from app.core.chat.render.blocks import BREAK
from app.core.chat.render.shown import PLAIN_CLASS
from app.core.engines.base import Sampling
from app.core.speculative import SpeculationOptions
from app.gui.views.chat import MessageBubble
from app.gui.views.chat.text_label import TextLabel
from tests.gui.conftest import ScriptedEngine, scripted_loader
from tests.gui.test_chat import load_default

_WORD = re.compile(r"[^\W_]+")
#: the user's answer: one run of it, and the answer is that run again and again (512 tokens)
_RUN = " ".join(["1.", "1.", "1."] + [f"{i}." for i in range(2, 31)])
_LONG_WORDS = " ".join(f"word{i}" for i in range(14_000))  # about 100 KB on one line

DEGENERATE = {
    "list markers": " ".join([_RUN] * 16),
    "list markers on lines": "\n".join([_RUN] * 16),
    "quote markers": ">" * 3000 + " the words after the quotes",
    "spaced quote markers": "> " * 1500 + "the words after the quotes",
    "stars": "*" * 3000 + " the words after the stars",
    "spaced stars": "* " * 1500 + "the words after the stars",
    "emphasis": "**" * 1000 + "bold words" + "**" * 1000,
    "unclosed fence": "Here it is:\n\n```python\ndef count():\n    return [1, 2, 3]\n",
    "unclosed fences": "```\n" * 500 + "words at the end",
    "100 KB line": _LONG_WORDS,
    "100 KB of brackets": "[" * 50_000 + " the middle " + "[" * 50_000,
    "100 KB line in a fence": "Minified:\n\n```\n" + "x" * 100_000 + " tail\n```\n\nAfter it.",
    "deep list": "\n".join("  " * i + f"- item{i}" for i in range(60)),
    "deep quotes": "\n".join(">" * i + f" level{i}" for i in range(1, 60)),
    "deep ordered list": "\n".join("    " * i + f"{i + 1}. step{i}" for i in range(40)),
    "empty items": "Intro line.\n\n1.\n2.\n3.\n\n- \n\n>\n\n#\n\nOutro line.",
    "mixed": "\n".join(
        ["# Counting", "", "Good text with **bold** and a [link](https://example.com).", ""]
        + [_RUN + " > * `c` 1. - > word"] * 30
        + ["", "```", "code after " * 3]
    ),
    "footnotes": "A claim[^1].\n\n[^1]: The source.\n\n[^unused]: Never cited words.",
}


def shown_text(bubble: MessageBubble) -> str:
    """What Qt shows of the bubble's message text: each visible label's document, with the
    number or bullet Qt draws before a list item and the targets of links (break points left
    out)."""
    out = []
    for label in bubble.findChildren(TextLabel):
        if not label.isVisibleTo(bubble):
            continue
        doc = QTextDocument()
        doc.setHtml(label.text())
        block = doc.begin()
        while block.isValid():
            listed = block.textList()
            if listed is not None:
                out.append(listed.itemText(block))
            out.append(block.text())
            fragments = block.begin()
            while not fragments.atEnd():  # a link's target shows on hover and opens on a click
                out.append(fragments.fragment().charFormat().anchorHref())
                fragments += 1
            block = block.next()
    return "\n".join(out).replace(BREAK, "")


def words(text: str) -> Counter[str]:
    return Counter(_WORD.findall(text.lower()))


def assert_shows_all(bubble: MessageBubble, text: str) -> None:
    missing = words(text) - words(shown_text(bubble))
    assert not missing, (sorted(missing.items())[:20], text[:200])


def assert_within_width(bubble: MessageBubble) -> None:
    """Every line of text starts inside its label (runaway indentation pushes text out)."""
    for label in bubble.findChildren(TextLabel):
        if not label.isVisibleTo(bubble) or not label.wordWrap():
            continue  # a code block scrolls sideways in its own box
        doc = QTextDocument()
        doc.setDefaultFont(label.font())
        doc.setDocumentMargin(0)
        doc.setHtml(label.text())
        doc.setTextWidth(label.width())
        layout = doc.documentLayout()
        block = doc.begin()
        while block.isValid():
            if block.text().strip():
                x = layout.blockBoundingRect(block).x()
                lines = block.layout()
                for i in range(lines.lineCount()):
                    assert x + lines.lineAt(i).x() < label.width() - 20, block.text()[:40]
            block = block.next()


def cut_points(text: str) -> list[int]:
    """Where a streamed answer is flushed: token-sized steps at the start, then a few large ones."""
    early = list(range(1, min(len(text), 120), 3))
    late = [len(text) * k // 8 for k in range(1, 8)]
    return [*sorted({p for p in early + late if 0 < p < len(text)}), len(text)]


@pytest.mark.parametrize("name", list(DEGENERATE))
def test_a_degenerate_answer_shows_every_word_while_streaming_and_after(qtbot: Any, name: str) -> None:
    text = DEGENERATE[name]
    bubble = MessageBubble("assistant", 1)
    qtbot.addWidget(bubble)
    bubble.resize(700, 500)
    bubble.show()
    bubble.set_status("streaming")
    bubble.set_content("")
    assert "Writing the answer…" in bubble.rendered_html()
    slowest = 0.0
    for end in cut_points(text):
        spans = [(a, min(a + 3, end)) for a in range(0, end, 7)]  # drafted runs all along
        started = time.thread_time()
        bubble.set_content(text[:end], spans)
        bubble.heightForWidth(700)  # the layout the column asks for
        slowest = max(slowest, time.thread_time() - started)
        if text[:end].strip():
            assert "Writing the answer…" not in bubble.rendered_html()
        assert_shows_all(bubble, text[:end])
    bubble.set_status("complete")
    assert_shows_all(bubble, text)
    assert_within_width(bubble)
    # the same answer loaded from the store
    loaded = MessageBubble("assistant", 2)
    qtbot.addWidget(loaded)
    loaded.resize(700, 500)
    loaded.show()
    loaded.set_content(text)
    loaded.set_status("complete")
    assert_shows_all(loaded, text)
    assert_within_width(loaded)
    # a flush's render and layout take the GUI thread well under a second (CPU time, so a busy
    # machine does not fail it), a 100 KB fenced line included
    assert slowest < 3.0, slowest


def test_only_the_block_that_hides_text_is_shown_plain(qtbot: Any) -> None:
    # (a run long enough to reach the parser's nesting limit takes the rest of the text with it:
    # the parser drops it, and the plain text shows it)
    good = "# Title\n\nSome **bold** text and `code`.\n\n- one\n- two\n"
    text = good + "\n1. 1. 1. 2. 3. 4. 5.\n\nA closing *line*."
    bubble = MessageBubble("assistant", 1)
    qtbot.addWidget(bubble)
    bubble.set_content(text)
    markup = bubble.body.text()
    assert "<strong>bold</strong>" in markup and "<li>one</li>" in markup and "<em>line</em>" in markup
    assert markup.count(PLAIN_CLASS) == 1 and "1. 1. 1. 2. 3. 4. 5.</p>" in markup
    assert_shows_all(bubble, text)


def test_the_writing_note_shows_until_the_first_character(
    make_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    """The real window: an answer held before its first token shows that it is being written, in
    the window's language; the first text replaces the note."""
    import threading

    release = threading.Event()
    reached = threading.Event()

    def gate(i: int) -> None:
        if i == 0:
            reached.set()
            release.wait(10)

    answer = " ".join([_RUN] * 4)
    w = make_window(loader=scripted_loader(ScriptedEngine(answer, gate=gate, plain=True)))
    w.resize(1366, 768)
    load_default(w, qtbot, 10_000)
    w.chat.send("Count from 1 to 30, separated by commas.")
    qtbot.waitUntil(reached.is_set, timeout=10_000)
    bubble = w.chat_view.bubbles[-1]
    qtbot.waitUntil(lambda: "Writing the answer…" in shown_text(bubble), timeout=5_000)
    w.grab().save(str(tmp_path / "writing_note_en.png"))
    w.set_language("ja")
    qtbot.waitUntil(lambda: "回答を書いています…" in shown_text(bubble), timeout=5_000)
    w.grab().save(str(tmp_path / "writing_note_ja.png"))
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000):
        release.set()
    assert "回答を書いています" not in shown_text(bubble)
    assert_shows_all(bubble, answer)
    w.grab().save(str(tmp_path / "degenerate_answer_ja.png"))


def test_whitespace_only_answers_say_they_are_empty(qtbot: Any) -> None:
    bubble = MessageBubble("assistant", 1)
    qtbot.addWidget(bubble)
    bubble.set_status("streaming")
    bubble.set_content("\n\n  ")
    assert "Writing the answer…" in shown_text(bubble)
    bubble.set_status("complete")
    assert "The model gave an empty answer." in shown_text(bubble)


@pytest.mark.usefixtures("smollm2_f32")
def test_the_f32_model_counting_to_30_shows_its_whole_answer(
    make_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    """The user's case on the real engine: the F32 SmolLM2, greedy, 512 tokens at most. Whatever
    it writes (degenerate or not), the bubble shows every word of it while it streams and after."""
    w = make_window()
    w.resize(1366, 768)
    family, spec, _q = w.registry.match("smollm2-135m-instruct", "gguf", None, "F32")
    choice = replace(
        w.launcher.default_choice(),
        family=family,
        spec=spec,
        quantization="F32",
        engine="llama.cpp",
        speculation=SpeculationOptions(),
        auto=False,
        n_ctx=2048,
    )
    with qtbot.waitSignal(w.modelLoaded, timeout=240_000):
        w.start_load(choice)
    w.chat.sampling = Sampling(temperature=0.0, max_tokens=512)
    seen: list[tuple[str, Counter[str]]] = []

    def check_mid_answer() -> bool:
        bubble = w.chat_view.bubbles[-1] if w.chat_view.bubbles else None
        if bubble is None or bubble.status != "streaming" or len(bubble.text) < 40:
            return False
        # what has arrived is on screen, at this instant
        seen.append((bubble.text, words(bubble.text) - words(shown_text(bubble))))
        return True

    with qtbot.waitSignal(w.chat.answerFinished, timeout=300_000) as done:
        w.chat.send("Count from 1 to 30, separated by commas.")
        qtbot.waitUntil(check_mid_answer, timeout=240_000)
    stats = done.args[0]
    bubble = w.chat_view.bubbles[-1]
    stored = w.store.messages(w.chat.conversation_id)[-1]
    assert stored.content == bubble.text and bubble.text.strip() and stats.completion_tokens > 0
    assert seen and bubble.text.startswith(seen[0][0]) and not seen[0][1], seen
    assert_shows_all(bubble, bubble.text)
    assert_within_width(bubble)
    w.grab().save(str(tmp_path / "f32_count_to_30.png"))
