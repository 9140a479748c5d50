"""Markdown to the HTML subset Qt's rich text engine (QTextDocument) shows, on markdown-it-py.

CommonMark plus GFM tables, strikethrough, task lists and bare-URL links, footnotes and math
delimiters. Raw HTML the model writes is shown as text (``html`` off), and markdown-it's link
check drops ``javascript:``, ``vbscript:``, ``file:`` and non-image ``data:`` targets. Images are
shown as links: a chat label must not fetch from the network.

Drafted-token ranges are character ranges of the source. Each inline token's characters are
mapped back to the source within the lines its block's ``map`` names (see ``sourcemap``), so a
highlight lands in table cells, list items, headings, links and code alike.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.tasklists import tasklists_plugin
from mdit_py_plugins.texmath import texmath_plugin

from app.core.chat.render import code as code_html
from app.core.chat.render.colors import LIGHT, Colors
from app.core.chat.render.math import formula_png
from app.core.chat.render.sourcemap import align, drafted_mask, line_starts, runs

MONO = "'DejaVu Sans Mono','Menlo','Consolas',monospace"
#: a reference definition or footnote anywhere changes how earlier text renders
_REFERENCE = re.compile(r"^ {0,3}\[[^\]\n]+\]:", re.MULTILINE)
_TEXT_TOKENS = (
    "text",
    "code_inline",
    "math_inline",
    "math_inline_double",
    "math_single",
    "math_display_inline",
)
#: ``\[ ... \]`` inside a paragraph (texmath's block rule only takes one that fills its lines)
_BRACKET_DISPLAY = re.compile(r"\\\[(.+?)\\\]", re.DOTALL)
_FORMULA_TEXT = re.compile(r"[^\\\s]")


def _bracket_display(state: StateInline, silent: bool) -> bool:
    """A display formula written in running text ("the identity \\[a^2+b^2=c^2\\] holds", or
    opened on the line after a sentence): drawn at display size where it stands."""
    if not state.src.startswith("\\[", state.pos):
        return False
    found = _BRACKET_DISPLAY.match(state.src, state.pos)
    # a formula holds more than backslashes ("\\[\\\\\\]" is three escaped characters)
    if found is None or not _FORMULA_TEXT.search(found.group(1)):
        return False
    if not silent:
        token = state.push("math_display_inline", "math", 0)
        token.content = found.group(1)
        token.markup = "\\["
    state.pos = found.end()
    return True


@lru_cache(maxsize=2)
def parser(breaks: bool) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": True, "breaks": breaks})
    md.enable(["table", "strikethrough", "linkify"])
    # "$5 and $10" is prose: a dollar next to a digit or a space does not open or close math
    md.use(dollarmath_plugin, allow_space=False, allow_digits=False, double_inline=True)
    md.use(texmath_plugin, delimiters="brackets")
    md.inline.ruler.before("escape", "math_display_inline", _bracket_display)
    md.use(footnote_plugin)
    md.use(tasklists_plugin)
    return md


def code_id(code: str) -> str:
    """A short stable name for a code block's source (the Copy link carries it)."""
    return hashlib.sha1(code.encode("utf-8")).hexdigest()[:12]


def code_blocks(text: str) -> list[str]:
    """The source of every fenced or indented code block in ``text``, in order."""
    return [t.content for t in parser(True).parse(text) if t.type in ("fence", "code_block")]


def stable_end(text: str, start: int = 0) -> int:
    """The offset where the last top-level block of ``text[start:]`` begins (``start`` when
    there is one block or none). Text after it cannot change how the blocks before it render, so
    rendering the two parts apart gives the full render; reference definitions and footnotes
    resolve across the whole text, so a text holding one never splits."""
    if _REFERENCE.search(text, start):
        return start
    rest = text[start:]
    tops = [t for t in parser(True).parse(rest) if t.level == 0 and t.map is not None and t.nesting >= 0]
    if len(tops) < 2:
        return start
    last = tops[-1].map
    assert last is not None
    return start + line_starts(rest)[last[0]]


class _Html(RendererHTML):
    """markdown-it's HTML renderer with drafted runs, Qt-friendly blocks and inline styles."""

    def __init__(self, source: str, spans: Sequence[tuple[int, int]], opts: dict[str, Any]) -> None:
        super().__init__()
        self.source = source
        self.mask = drafted_mask(len(source), spans)
        self.draft = f"background-color:{opts['highlight']};" if opts["highlight"] else None
        self.opts = opts
        self._starts: list[int] | None = None

    def _marked(self, token: Token) -> str:
        pos = token.meta.get("pos")
        if self.draft is None or not pos:
            return html.escape(token.content, quote=False)
        out = []
        for a, b, drafted in runs(pos, self.mask):
            part = html.escape(token.content[a:b], quote=False)
            out.append(f'<span style="{self.draft}">{part}</span>' if drafted else part)
        return "".join(out)

    def text(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return self._marked(tokens[idx])

    def code_inline(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return f"<code>{self._marked(tokens[idx])}</code>"

    def _math(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        # an image with the TeX as its alt text; the source in a code style when it cannot be
        # drawn (a block formula gets a line of its own either way)
        token = tokens[idx]
        display = token.block or token.type == "math_display_inline"
        url = formula_png(token.content, display, str(self.opts["code_fg"])) if self.opts["math"] else None
        if url is None:
            body = f'<code style="font-family:{MONO};">{self._marked(token)}</code>'
        else:
            body = (
                f'<img src="{url}" alt="{html.escape(token.content.strip())}" style="vertical-align:middle;">'
            )
        return f'<p align="center">{body}</p>' if token.block else body

    # dollarmath's and texmath's token names
    math_inline = math_inline_double = math_single = math_display_inline = _math
    math_block = math_block_eqno = math_block_label = _math

    def image(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        alt = self.renderInlineAsText(token.children or [], options, env) or str(token.attrGet("src"))
        src = html.escape(str(token.attrGet("src") or ""))
        return f'<a href="{src}">{html.escape(alt, quote=False)}</a>'

    def html_inline(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        # only plugins make these (raw HTML is off): a task list's checkbox, which Qt cannot show
        content = tokens[idx].content
        if content.startswith("<input"):
            return "\u2611" if "checked" in content else "\u2610"
        return html.escape(content, quote=False)

    def heading_open(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return f"<h{self._level(tokens[idx])}>"

    def heading_close(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return f"</h{self._level(tokens[idx])}>\n"

    def _level(self, token: Token) -> int:
        return min(int(token.tag[1]) + int(self.opts["heading_offset"]), 6)

    def table_open(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return '<table border="1" cellspacing="0" cellpadding="4" style="border-collapse:collapse;">\n'

    def fence(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        name = token.info.strip().split(maxsplit=1)[0] if token.info.strip() else ""
        lexer = code_html.lexer_for(name) if name else None
        # a guess (~15 ms) waits for the closing fence: re-guessing on every flush of a streaming
        # block would cost that each time and could switch colours as the code grows
        if not name and self.opts["chrome"] and self._closed(token):
            guessed = code_html.guess(token.content)
            if guessed:
                name, lexer = guessed
        return self._code(token, name, lexer if self.opts["chrome"] else None)

    def _closed(self, token: Token) -> bool:
        if token.map is None or token.map[1] - token.map[0] < 2:
            return False
        if self._starts is None:
            self._starts = line_starts(self.source)
        starts = self._starts
        last = self.source[starts[token.map[1] - 1] : starts[token.map[1]]].strip()
        return last.startswith(token.markup)

    def code_block(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return self._code(tokens[idx], "", None)

    def _code_draft(self) -> str | None:
        # the shading alone hardly shows on a code block's own background: underlined too
        return f"{self.draft}text-decoration:underline;" if self.draft else None

    def _code(self, token: Token, name: str, lexer: Any) -> str:
        o = self.opts
        code = token.content
        flags = code_html.drafted_flags(token.meta.get("pos") or [], self.mask, len(code))
        body = code_html.highlight(code, lexer, flags, self._code_draft(), bool(o["dark"]), bool(o["live"]))
        style = (
            f"background-color:{o['code_bg']}; color:{o['code_fg']}; font-family:{MONO};"
            " padding:6px; white-space:pre-wrap;"
        )
        pre = f'<pre style="{style}"><code>{body}</code></pre>\n'
        if not o["chrome"]:
            return pre
        label = html.escape(name, quote=False) if name else ""
        copy = html.escape(str(o["copy_label"]), quote=False)
        link = f'<a href="copy:{code_id(token.content)}">{copy}</a>' if copy else ""
        head = (
            f'<p class="code-head" style="margin-top:6px; margin-bottom:0px; color:{o["muted"]};">'
            f'<span style="font-family:{MONO};">{label}</span>'
            f"{'&nbsp;&nbsp;' if label and link else ''}{link}</p>"
        )
        return head + pre


def _annotate(tokens: Sequence[Token], source: str) -> None:
    """Record, on every token that shows source text, each character's source offset."""
    starts = line_starts(source)
    cursors: dict[tuple[int, int], int] = {}

    def place(token: Token, first: int, last: int) -> None:
        lo = starts[min(first, len(starts) - 1)]
        hi = min(len(source), starts[min(last, len(starts) - 1)])
        key = (first, last)
        pos, cursors[key] = align(token.content, source, max(lo, cursors.get(key, lo)), hi)
        token.meta["pos"] = pos

    for token in tokens:
        if token.map is None:
            continue
        first, last = token.map
        if token.type == "inline":
            for child in token.children or []:
                if child.type in _TEXT_TOKENS:
                    place(child, first, last)
        elif token.type in ("fence", "code_block") or token.type.startswith("math_block"):
            place(token, first + (token.type != "code_block"), last)


def render_html(
    text: str,
    draft_spans: Sequence[tuple[int, int]] = (),
    *,
    highlight: str | None = None,
    colors: Colors = LIGHT,
    heading_offset: int = 2,
    breaks: bool = True,
    chrome: bool = True,
    copy_label: str = "Copy",
    math: bool = True,
    live: bool = False,
) -> str:
    """``text`` as Qt rich-text HTML. ``draft_spans`` (source char ranges) get ``highlight`` as
    background if given; ``colors``: code, formulas and labels for a light or dark background.
    ``heading_offset`` shifts heading levels (a chat bubble's ``#`` reads as
    a section, not a page title); ``breaks`` keeps the model's single line ends; ``chrome`` adds
    each code block's language label and Copy link (``copy:<code_id>``; none when
    ``copy_label`` is empty) and colours; ``math``
    draws formulas as images (see ``math``), else shows their source; ``live``: the text is still
    being written (a code block's unfinished last line stays uncoloured until it ends, see
    :func:`code.highlight`)."""
    md = parser(breaks)
    env: dict[str, Any] = {}
    tokens = md.parse(text, env)
    if highlight and draft_spans:
        _annotate(tokens, text)
    opts = {
        "highlight": highlight,
        "code_bg": colors.code_bg,
        "code_fg": colors.code_fg,
        "muted": colors.muted,
        "dark": colors.dark,
        "heading_offset": heading_offset,
        "chrome": chrome,
        "copy_label": copy_label,
        "math": math,
        "live": live,
    }
    return _Html(text, draft_spans, opts).render(tokens, md.options, env)
