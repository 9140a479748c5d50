from __future__ import annotations

from app.core.chat import render_markdown


def test_blocks_and_inline() -> None:
    out = render_markdown("# Title\n\nSome **bold** and *it* and `x<y`.\n\n- a\n- b\n\n1. one\n\n> quote")
    assert "<h3>Title</h3>" in out
    assert "<b>bold</b>" in out and "<i>it</i>" in out and "<code>x&lt;y</code>" in out
    assert "<ul><li>a</li><li>b</li></ul>" in out
    assert "<ol><li>one</li></ol>" in out
    assert "<blockquote>quote</blockquote>" in out


def test_code_fence_is_escaped_and_kept_verbatim() -> None:
    out = render_markdown("Look:\n```python\nif a < b:\n    print('*x*')\n```\nafter")
    assert "<pre" in out and "if a &lt; b:\n    print('*x*')" in out
    assert "<i>" not in out
    assert out.endswith("<p>after</p>")


def test_unterminated_fence_while_streaming() -> None:
    out = render_markdown("```\ncode so far")
    assert "code so far</pre>" in out


def test_draft_spans_are_highlighted_and_can_be_turned_off() -> None:
    text = "Hello world\nnext line"
    out = render_markdown(text, [(6, 16)], highlight="#abcdef")
    assert '<span style="background-color:#abcdef;">world</span>' in out
    assert '<span style="background-color:#abcdef;">next</span>' in out
    plain = render_markdown(text, [(6, 16)], highlight=None)
    assert "span" not in plain and "\ue000" not in plain


def test_draft_span_inside_list_item_and_heading() -> None:
    out = render_markdown("- item one\n## Head", [(2, 6), (14, 18)], highlight="#111")
    assert '<li><span style="background-color:#111;">item</span> one</li>' in out
    assert '<h4><span style="background-color:#111;">Head</span></h4>' in out
