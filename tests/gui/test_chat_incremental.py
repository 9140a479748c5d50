"""A streamed answer is rendered incrementally (the finished blocks frozen, only the block
being written rendered and laid out on each flush), and the finished answer is the same rich text
as a full render: on written answers with code, lists, tables, quotes and CJK text, and on a real
answer of the embedded model streamed through the real engine."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.core.chat import render_markdown
from app.core.chat.markdown import spans_in, stable_prefix
from app.gui.style import DRAFT_HIGHLIGHT
from app.gui.views.chat import bubble as chat_bubble
from app.gui.views.chat.bubble import FROZEN_LABEL_CHARS, MessageBubble
from tests.gui.test_chat import load_default

ANSWERS = [
    # code fences with blank lines inside, a list, a heading, inline markup
    "## Plan\n\nHere is **the** function:\n\n```python\ndef square(x):\n    return x * x\n\n\n"
    "print(square(3))\n```\n\nSteps:\n\n1. read the number\n2. square it\n3. *print* it\n\n"
    "- a `code` item\n- [a link](https://example.com)\n\nDone.",
    # a pipe table (shown as text lines), a quote, CJK paragraphs
    "| name | size |\n|------|------|\n| 小 | 1 |\n| 大 | 2 |\n\n> 引用された文です。\n\n"
    "这是一个很长的中文段落，用来检查增量渲染。第二句话。\n\n한국어 문단입니다. 두 번째 문장.\n\n終わり",
    # one long paragraph stream, then many short blocks (frozen labels fill and roll over)
    " ".join(f"word{i}" for i in range(400)) + "\n\n" + "\n\n".join(f"Block {i}: text." for i in range(300)),
]


def draft_spans(text: str, seed: int) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    spans, pos = [], 0
    while pos < len(text):
        start = pos + rng.randint(0, 12)
        end = min(len(text), start + rng.randint(1, 20))
        spans.append((start, end))
        pos = end + 1
    return spans


def full(text: str, spans: list[tuple[int, int]], live: bool = False) -> str:
    return render_markdown(text or "…", spans, highlight=DRAFT_HIGHLIGHT, tool_label="Tool call", live=live)


@pytest.mark.parametrize("index", range(len(ANSWERS)))
def test_the_parts_render_what_a_full_render_does_at_every_step(index: int) -> None:
    text = ANSWERS[index]
    spans = draft_spans(text, index)
    rng = random.Random(index)
    pos = 0
    while pos < len(text):
        pos = min(len(text), pos + rng.randint(1, 9))  # token-sized steps
        shown = text[:pos]
        mine = [(a, min(b, pos)) for a, b in spans if a < pos]
        k = stable_prefix(shown)
        parts = render_markdown(shown[:k], spans_in(mine, 0, k)) + render_markdown(
            shown[k:], spans_in(mine, k)
        )
        assert parts == render_markdown(shown, mine), (pos, k)


@pytest.mark.parametrize("index", range(len(ANSWERS)))
def test_a_streamed_bubble_renders_only_the_new_block_and_ends_identical(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch, index: int
) -> None:
    text = ANSWERS[index]
    spans = draft_spans(text, index)
    bubble = MessageBubble("assistant", 1)
    qtbot.addWidget(bubble)
    bubble.resize(600, 400)
    bubble.show()
    rendered: list[int] = []
    real = chat_bubble.render_markdown

    def counting(t: str, *args: Any, **kwargs: Any) -> str:
        rendered.append(len(t))
        return real(t, *args, **kwargs)

    monkeypatch.setattr(chat_bubble, "render_markdown", counting)
    bubble.set_status("streaming")
    bubble.set_content("")
    rng = random.Random(index + 10)
    pos, biggest_block = 0, 0
    while pos < len(text):
        step = rng.randint(1, 9)
        pos = min(len(text), pos + step)
        shown = text[:pos]
        mine = [(a, min(b, pos)) for a, b in spans if a < pos]
        before = bubble._frozen_end
        rendered.clear()
        bubble.set_content(shown, mine)
        # one flush renders the newly finished text and the block being written, never the rest
        biggest_block = max(biggest_block, len(shown) - before)
        assert sum(rendered) <= len(shown) - before + 1  # (+1: the "…" of an empty answer)
        assert bubble.rendered_html() == full(shown, mine, live=True)  # live: see code.highlight
    # the frozen text rolls over into new labels of about FROZEN_LABEL_CHARS characters each
    assert 1 <= len(bubble._frozen) <= bubble._frozen_end // FROZEN_LABEL_CHARS + 1
    if index == 2:
        assert len(bubble._frozen) >= 3
    assert biggest_block < len(text)  # the work per flush did not follow the answer's length
    frozen, before = list(bubble._frozen), bubble._frozen_end
    rendered.clear()
    bubble.set_status("complete")
    if len(text) <= chat_bubble.KEEP_PARTS_CHARS:  # a short answer ends as one text
        assert bubble._frozen == [] and bubble.body.text() == full(text, spans)
    else:
        # a long one keeps its frozen parts and renders only what follows them (one render of the
        # whole answer held the window 0.3-0.4 s at the end of an 8000-token answer)
        assert bubble._frozen == frozen and bubble.rendered_html() == full(text, spans)
        assert sum(rendered) <= len(text) - before
        # a later change (here the highlight) renders it as one text, as a loaded one shows
        bubble.set_highlight(False)
        plain = render_markdown(text, spans, highlight=None, tool_label="Tool call")
        assert bubble._frozen == [] and bubble.body.text() == plain


def test_highlight_toggle_copy_and_a_new_answer_keep_working_while_streaming(qtbot: Any) -> None:
    text = ANSWERS[0]
    spans = draft_spans(text, 3)
    bubble = MessageBubble("assistant", 1)
    qtbot.addWidget(bubble)
    bubble.set_status("streaming")
    bubble.set_content(text[:200], spans_in(spans, 0, 200))
    assert bubble._frozen
    bubble.set_highlight(False)  # the whole message again, without the shading
    assert bubble._frozen == [] and DRAFT_HIGHLIGHT not in bubble.body.text()
    bubble.set_content(text, spans)
    assert bubble.rendered_html() == render_markdown(text, spans, highlight=None)
    bubble._copy()
    from PySide6.QtGui import QGuiApplication

    assert QGuiApplication.clipboard().text() == text
    bubble.set_content("A new answer.", [])  # regenerate: not a continuation, rendered whole
    assert bubble._frozen == [] and bubble.body.text() == render_markdown("A new answer.", [], highlight=None)


@pytest.mark.usefixtures("smollm2_q4")
def test_a_real_answer_streamed_by_the_engine_ends_as_the_full_render(
    make_window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = make_window()
    load_default(w, qtbot)
    w.chat.sampling = w.chat.sampling.__class__(temperature=0.0, max_tokens=200)
    checks: list[bool] = []
    real_stream = MessageBubble._render_streaming

    def checked(self: MessageBubble) -> None:
        real_stream(self)
        if not self.text.strip():  # no text yet: the bubble says the answer is being written
            checks.append("Writing the answer…" in self.rendered_html())
            return
        checks.append(self.rendered_html() == full(self.text, self.spans, live=self.status == "streaming"))

    monkeypatch.setattr(MessageBubble, "_render_streaming", checked)
    with qtbot.waitSignal(w.chat.answerFinished, timeout=120_000):
        w.chat_view.composer.input.setPlainText(
            "Write a Python function that adds two numbers, with a short list of usage notes."
        )
        w.chat_view.composer.button.click()
    bubble: MessageBubble = w.chat_view.bubbles[-1]
    assert checks and all(checks)
    assert bubble._frozen == []
    assert bubble.body.text() == full(bubble.text, bubble.spans)


def test_text_labels_remember_their_height_per_width_until_the_text_or_font_changes(qtbot: Any) -> None:
    from PySide6.QtGui import QFont
    from PySide6.QtWidgets import QLabel

    label, plain = chat_bubble.TextLabel(), QLabel()
    for w in (label, plain):
        qtbot.addWidget(w)
        w.setWordWrap(True)
        w.setText(render_markdown(ANSWERS[0]))
    assert [label.heightForWidth(x) for x in (200, 400, 200)] == [
        plain.heightForWidth(x) for x in (200, 400, 200)
    ]
    assert set(label._heights) == {200, 400}
    label.setText(render_markdown(ANSWERS[1]))
    plain.setText(render_markdown(ANSWERS[1]))
    assert label._heights == {} and label.heightForWidth(300) == plain.heightForWidth(300)
    bigger = QFont(label.font())
    bigger.setPointSize(bigger.pointSize() + 6)
    label.setFont(bigger)
    plain.setFont(bigger)
    assert label.heightForWidth(300) == plain.heightForWidth(300)
