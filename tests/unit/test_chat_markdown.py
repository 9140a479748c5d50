from __future__ import annotations

from app.core.chat import render_markdown


def test_blocks_and_inline() -> None:
    out = render_markdown("# Title\n\nSome **bold** and *it* and `x<y`.\n\n- a\n- b\n\n1. one\n\n> quote")
    assert "<h3>Title</h3>" in out
    assert "<b>bold</b>" in out and "<i>it</i>" in out and "<code>x&lt;y</code>" in out
    assert "<ul><li>a</li><li>b</li></ul>" in out
    assert "<ol><li>one</li></ol>" in out
    assert "<blockquote>quote</blockquote>" in out


def test_a_numbered_list_with_blank_lines_keeps_its_numbers() -> None:
    """Seen in the chat: a model's "1. … (blank line) 2. … (blank line) 3. …" read "1. 1. 1.".
    Each block keeps the number its first item was written with (Qt honours ``start``)."""
    text = "Three rivers:\n\n1. Danube: long.\n\n2. Rhône: French.\n\n3. Nile: African.\n4) Po"
    out = render_markdown(text)
    assert "<ol><li>Danube: long.</li></ol>" in out  # 1 is the default: no attribute
    assert '<ol start="2"><li>Rhône: French.</li></ol>' in out
    assert '<ol start="3"><li>Nile: African.</li><li>Po</li></ol>' in out
    # a list that starts elsewhere keeps its first number; bullets have none
    assert render_markdown("7. seven\n8. eight") == '<ol start="7"><li>seven</li><li>eight</li></ol>'
    assert render_markdown("- a\n\n- b") == "<ul><li>a</li></ul><ul><li>b</li></ul>"


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
