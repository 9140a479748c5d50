"""The renderer shows every letter and digit the model wrote (app.core.chat.render.shown).

What the rendered HTML shows is read here with Python's own HTML parser (text, image alt text, link
targets), not with the renderer's scanner, and compared with the source's words. The HTML export
uses the same renderer and is checked the same way on a real store.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from app.core.chat import ChatStore, render_markdown
from app.core.chat.export import export_conversation
from app.core.chat.markdown import spans_in, stable_prefix
from app.core.chat.render import render_html
from app.core.chat.render.shown import LONG_LINE, MAX_DEPTH, PLAIN_CLASS

_WORD = re.compile(r"[^\W_]+")
_RUN = " ".join(["1.", "1.", "1."] + [f"{i}." for i in range(2, 31)])

DEGENERATE = {
    "list markers": " ".join([_RUN] * 16),
    "list markers on lines": "\n".join([_RUN] * 16),
    "quote markers": ">" * 3000 + " the words after",
    "spaced stars": "* " * 1500 + "the words after",
    "past the nesting limit": "\n".join("  " * i + f"- item{i}" for i in range(30)),
    "quotes past the limit": "> " * 40 + "deep words\n\nafter the quote",
    "unclosed fences": "```\n" * 301 + "words at the end",
    "empty items": "1.\n2.\n3.\n\n- \n\n>\n\n#\n",
    "only a definition": "[label]: https://example.com/page",
    "unused footnote": "Text.\n\n[^gone]: A note nobody cites.",
    "extra cells": "| a | b |\n|---|---|\n| 1 | 2 | 3 |",
    "mixed": "\n".join([_RUN + " > * `c` 1. - > word"] * 30),
}


class _Shown(HTMLParser):
    """The text a browser or Qt shows of the HTML, with image alt text and link targets."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for key, value in attrs:
            if key in ("alt", "href") and value and not value.startswith("copy:"):
                self.parts.append(value)

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def shown_words(markup: str) -> Counter[str]:
    parser = _Shown()
    parser.feed(markup)
    parser.close()
    return Counter(_WORD.findall(" ".join(parser.parts).lower()))


def words(text: str) -> Counter[str]:
    return Counter(_WORD.findall(text.lower()))


@pytest.mark.parametrize("name", list(DEGENERATE))
def test_a_degenerate_text_renders_with_every_word(name: str) -> None:
    text = DEGENERATE[name]
    markup = render_markdown(text)
    assert not words(text) - shown_words(markup), markup[:300]
    # each of these hides text as Markdown (empty fences are boxes: shown as such)
    assert (PLAIN_CLASS in markup) == (name != "unclosed fences")


@pytest.mark.parametrize("name", list(DEGENERATE))
def test_the_parts_of_a_streamed_degenerate_text_render_as_the_whole(name: str) -> None:
    text = DEGENERATE[name]
    for end in sorted({len(text) * k // 10 for k in range(1, 11)}):
        shown = text[:end]
        spans = [(a, a + 2) for a in range(0, end, 5)]
        k = stable_prefix(shown)
        parts = render_markdown(shown[:k], spans_in(spans, 0, k)) + render_markdown(
            shown[k:], spans_in(spans, k)
        )
        assert parts == render_markdown(shown, spans)


def test_markdown_that_shows_everything_stays_markdown() -> None:
    text = (
        '# Title\n\nSome **bold**, *em*, `code`, a [link](https://example.com/a%20b "Title") and '
        "https://bare.example.org.\n\n1. one\n1. two\n1. three\n\n- [x] done\n- [ ] todo\n\n"
        "> a quote\n\n```python\nprint('hi')\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
        "A note[^n] and a [ref][r].\n\n"
        "[^n]: The note, see [a paper](https://arxiv.org/abs/2106.09685).\n\n"
        "[r]: https://example.com/ref\n\n"
        "Formula $x^2$ and\n\n$$y = 1$$ (1)\n\n---\n\nDone &amp; dusted, caf&eacute;."
    )
    markup = render_markdown(text)
    assert PLAIN_CLASS not in markup
    assert "<strong>bold</strong>" in markup and "<table" in markup and "<blockquote>" in markup
    assert 'class="footnote-ref"' in markup and "< />" not in markup  # footnotes render


def test_nesting_deeper_than_the_cap_is_plain() -> None:
    at_cap = "\n".join("  " * i + f"- item{i}" for i in range(MAX_DEPTH))
    past = "\n".join("  " * i + f"- item{i}" for i in range(MAX_DEPTH + 1))
    assert PLAIN_CLASS not in render_html(at_cap) and render_html(at_cap).count("<ul>") == MAX_DEPTH
    assert PLAIN_CLASS in render_html(past)
    quotes = ">" * (MAX_DEPTH + 1) + " deep"
    assert PLAIN_CLASS in render_html(quotes) and "<blockquote>" not in render_html(quotes)


def test_the_plain_text_keeps_drafted_runs_and_escapes() -> None:
    text = "1. 1. <b>x</b> & 2."
    markup = render_html(text, [(6, 14)], highlight="#ffee00")
    assert PLAIN_CLASS in markup
    assert '<span style="background-color:#ffee00;">&lt;b&gt;x&lt;/b&gt;</span>' in markup
    assert "<b>" not in markup and "&amp;" in markup


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        ("[" * 9_999 + "\n") * 10,
        "\\[a " * 25_000,
        ("<" * 9_999 + "\n") * 10,
        ("|a" * 4_999 + "\n" + "|-" * 4_999 + "\n") * 5,
        "```\n" + "x" * 100_000 + "\n```",
        "```python\n" + "x = [" + "1, " * 33_000 + "]\n```",
        " ".join(f"word{i}" for i in range(14_000)),
    ],
    ids=[
        "brackets",
        "bracket lines",
        "unclosed formulas",
        "angle lines",
        "wide tables",
        "long fenced line",
        "long python line",
        "long line of words",
    ],
)
def test_a_pathological_100_kb_text_renders_in_well_under_a_second(text: str) -> None:
    started = time.thread_time()
    markup = render_markdown(text, live=True)
    stable_prefix(text)
    assert time.thread_time() - started < 1.0
    assert not words(text) - shown_words(markup)


def test_a_line_past_the_limit_is_plain_in_its_own_block_only() -> None:
    text = "Intro *here*.\n\n```\n" + "x" * (LONG_LINE + 1) + "\n```\n\nAfter *it*."
    markup = render_html(text)
    assert markup.count(PLAIN_CLASS) == 1
    assert "<em>here</em>" in markup and "<em>it</em>" in markup


def test_the_html_export_shows_a_degenerate_answer(tmp_path: Path) -> None:
    store = ChatStore()
    try:
        conv = store.create_conversation("Counting")
        store.add_message(conv.id, "user", "Count from 1 to 30, separated by commas.")
        answer = DEGENERATE["list markers"]
        store.add_message(conv.id, "assistant", answer)
        [page] = export_conversation(store, conv.id, tmp_path / "c.html", "html")
    finally:
        store.close()
    markup = page.read_text("utf-8")
    assert not words(answer) - shown_words(markup)
    assert PLAIN_CLASS in markup
