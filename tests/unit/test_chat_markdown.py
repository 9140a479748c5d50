from __future__ import annotations

import base64
import re

from app.core.chat import render_markdown
from app.core.chat.render import code_blocks, code_id

HL = '<span style="background-color:#111;">'


def test_blocks_and_inline() -> None:
    out = render_markdown(
        "# Title\n\nSome **bold** and *it* and `x<y`.\n\n- a\n- b\n\n1. one\n\n> quote\n\n---"
    )
    assert "<h3>Title</h3>" in out  # a chat's "#" is a section, not a page title
    assert "<strong>bold</strong>" in out and "<em>it</em>" in out and "<code>x&lt;y</code>" in out
    assert "<ul>\n<li>a</li>\n<li>b</li>\n</ul>" in out
    assert "<ol>\n<li>one</li>\n</ol>" in out
    assert "<blockquote>\n<p>quote</p>\n</blockquote>" in out
    assert "<hr" in out


def test_gfm_table_nested_list_strikethrough_and_tasks() -> None:
    out = render_markdown(
        "| a | b |\n|---|--:|\n| 1 | 2 |\n\n- x\n  - y\n\n~~gone~~\n\n- [x] done\n- [ ] todo"
    )
    assert "<table" in out and "<th>a</th>" in out and '<td style="text-align:right">2</td>' in out
    assert re.search(r"<li>x\s*<ul>\s*<li>y</li>", out)
    assert "<s>gone</s>" in out
    assert "\u2611 done" in out and "\u2610 todo" in out


def test_model_html_is_escaped_and_unsafe_links_are_not_links() -> None:
    out = render_markdown(
        '<b onclick="x">hi</b> [a](javascript:alert(1)) [d](data:text/html,x) [ok](https://e.org)'
    )
    assert "<b " not in out and "&lt;b onclick" in out
    assert 'href="javascript' not in out and 'href="data:' not in out
    assert '<a href="https://e.org">ok</a>' in out
    assert '<a href="https://e.org/x">https://e.org/x</a>' in render_markdown("see https://e.org/x")


def test_dollar_amounts_are_prose_and_formulas_are_math() -> None:
    assert "<code" not in render_markdown("It costs $5 and $10 today.")
    out = render_markdown(
        r"A third: $\frac{1}{3}$ and \(x^2\), then $$\sum_{i=1}^n i$$" + "\n\n" + r"\[\sqrt{2}\]"
    )
    images = re.findall(r'<img src="data:image/png;base64,([A-Za-z0-9+/=]+)" alt="([^"]*)"', out)
    assert [alt for _png, alt in images] == [r"\frac{1}{3}", "x^2", r"\sum_{i=1}^n i", r"\sqrt{2}"]
    for png, _alt in images:
        assert base64.b64decode(png).startswith(b"\x89PNG")
    # TeX mathtext cannot draw shows its source in a code style, never an error
    out = render_markdown(r"$\begin{pmatrix}a\end{pmatrix}$")
    assert "<img" not in out and r"\begin{pmatrix}a\end{pmatrix}</code>" in out


def test_code_fence_is_escaped_highlighted_and_kept_verbatim() -> None:
    source = "def f(a, b):\n    if a < b:  # compare\n        return 'x'\n"
    out = render_markdown(f"Look:\n```python\n{source}```\nafter")
    colours = set(re.findall(r"color:(#[0-9A-Fa-f]{3,6});", out.split("<pre", 1)[1]))
    assert len(colours) >= 3, colours
    assert "&lt;" in out and "<em>" not in out
    assert f'href="copy:{code_id(source)}"' in out and ">python<" in out
    assert out.endswith("<p>after</p>\n")
    assert code_blocks(f"x\n```python\n{source}```\n\n    indented\n") == [source, "indented\n"]


def test_unterminated_fence_while_streaming() -> None:
    out = render_markdown("```\ncode so far")
    assert "code so far</code></pre>" in out


def test_a_streaming_fence_is_lexed_once_per_finished_line() -> None:
    """A live render colours the lines a streamed fence has finished, from one lexing of them
    that later flushes reuse; the line being written stays uncoloured until it ends; the same
    text rendered finished is coloured to its last character."""
    from pygments.lexers import PythonLexer

    from app.core.chat.render import code as code_html

    class CountingLexer(PythonLexer):
        calls = 0

        def get_tokens_unprocessed(self, text: str, stack: tuple[str, ...] = ("root",)) -> object:
            CountingLexer.calls += 1
            return super().get_tokens_unprocessed(text, stack)

    lexer = CountingLexer(stripnl=False, ensurenl=False)
    done = "def f(x):\n    return x\n"
    for partial in ("pri", "print(f", "print(f(1))"):
        code = done + partial
        out = code_html.highlight(code, lexer, bytes(len(code)), None, dark=False, live=True)
        assert out.endswith(partial) and "<span" in out[: -len(partial)]
    assert CountingLexer.calls == 1  # the finished lines, lexed once for the three flushes
    code = done + "print(f(1))\n"
    finished = code_html.highlight(code, lexer, bytes(len(code)), None, dark=False, live=True)
    assert CountingLexer.calls == 2 and not finished.endswith("print(f(1))\n")  # now coloured
    whole = code_html.highlight(done + "print(f(1))", lexer, bytes(len(done) + 11), None, dark=False)
    assert "print" in whole and not whole.endswith("print(f(1))")  # not live: coloured to the end
    text = "```python\nx = 1\ny = x"
    live = render_markdown(text, live=True)
    assert "y = x</code></pre>" in live and "color:#" in live.split("y = x")[0].split("<code>")[-1]
    assert "y = x</code></pre>" not in render_markdown(text)


def test_draft_spans_are_highlighted_and_can_be_turned_off() -> None:
    text = "Hello world\nnext line"
    out = render_markdown(text, [(6, 16)], highlight="#abcdef")
    assert '<span style="background-color:#abcdef;">world</span>' in out
    assert '<span style="background-color:#abcdef;">next</span>' in out
    plain = render_markdown(text, [(6, 16)], highlight=None)
    assert "span" not in plain


def test_draft_spans_in_list_items_headings_links_table_cells_and_code() -> None:
    out = render_markdown("- item one\n## Head", [(2, 6), (14, 18)], highlight="#111")
    assert f"<li>{HL}item</span> one</li>" in out
    assert f"<h4>{HL}Head</span></h4>" in out
    text = "| k | v |\n|---|---|\n| cat | dog |\n\nsee [the link](https://e.org)"
    cell, link = text.index("dog"), text.index("link")
    out = render_markdown(text, [(cell, cell + 3), (link, link + 4)], highlight="#111")
    assert f"<td>{HL}dog</span></td>" in out and "<td>cat</td>" in out
    assert f'<a href="https://e.org">the {HL}link</span></a>' in out
    text = "```python\nvalue = compute(1)\n```"
    start = text.index("compute")
    out = render_markdown(text, [(start, start + 7)], highlight="#111")
    assert '<span style="background-color:#111;text-decoration:underline;">compute</span>' in out


def test_unlabelled_code_is_guessed_only_when_confident_and_finished() -> None:
    code = "import os\n\n\ndef main():\n    print(os.getcwd())\n    return 0\n"
    assert ">python<" in render_markdown(f"```\n{code}```\n")
    assert ">python<" not in render_markdown(f"```\n{code}")  # still streaming: no guess yet
    assert "color:#" not in render_markdown("```\nhello there\n```\n").split("<pre", 1)[1].split(">", 1)[1]
    assert "<span" not in render_markdown("```pytho\n").split("<pre", 1)[1]  # a half-written name


def test_drafted_ranges_survive_escapes_entities_and_quotes() -> None:
    text = "> a \\*b\\* &amp; *cat* done"
    start = text.index("cat")
    out = render_markdown(text, [(start, start + 3), (text.index("done"), len(text))], highlight="#111")
    assert f"<em>{HL}cat</span></em>" in out and f"{HL}done</span>" in out
    assert "*b* &amp;" in out  # the escapes and the entity themselves are not shaded


def test_stable_prefix_splits_between_top_level_blocks_only() -> None:
    from app.core.chat.markdown import stable_prefix

    text = "Intro.\n\n1. one\n\n2. two\n\nLast para"
    assert text[stable_prefix(text) :] == "Last para"  # the loose list is one block before it
    assert stable_prefix("A [x][r] b.\n\n[r]: https://e.org\n\nmore") == 0  # a reference: whole
    assert stable_prefix("only one block") == 0


def test_bracket_display_math_in_running_text_and_after_a_sentence() -> None:
    """``\\[…\\]`` is a formula wherever it stands: mid-sentence, opened on the line after a
    sentence, or alone; drafted text around it keeps its shading; escaped brackets stay text."""
    mid = r"The identity \[a^2+b^2=c^2\] holds."
    out = render_markdown(mid, [(0, 4)])
    assert out.count("<img") == 1 and 'alt="a^2+b^2=c^2"' in out and "holds." in out
    assert '<span style="background-color:#d8efe0;">The </span>' in out
    after = "Display:\n\\[\n\\frac{1}{2}\n\\]\nand on."
    assert 'alt="\\frac{1}{2}"' in render_markdown(after) and "and on." in render_markdown(after)
    assert render_markdown("\\[x^2\\]").count("<img") == 1
    assert "<img" not in render_markdown(r"an escaped \[bracket] stays")
    assert "<img" not in render_markdown(r"escapes \[\\\] only")
    assert "<img" not in render_markdown("`\\[x\\]` is code")


def test_the_start_up_warm_up_draws_a_formula_and_leaves_the_cache_alone() -> None:
    from app.core.chat.render.math import formula_png, warm_up

    before = formula_png.cache_info().currsize
    assert warm_up() is True
    assert formula_png.cache_info().currsize == before
