"""Markdown to the HTML subset Qt's rich text engine (QTextDocument) shows, on markdown-it-py.

CommonMark plus GFM tables, strikethrough, task lists and bare-URL links, footnotes and math
delimiters. Raw HTML the model writes is shown as text (``html`` off), and markdown-it's link
check drops ``javascript:``, ``vbscript:``, ``file:`` and non-image ``data:`` targets. Images are
shown as links: a chat label must not fetch from the network.

Each top-level block is checked against its source (:mod:`.shown`): where the render would hide
some of what the model wrote (empty nested lists, text past the parser's nesting limit), nest
deeper than can be read, or show nothing, the block is shown as its plain text instead.

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

from markdown_it import MarkdownIt, rules_block, rules_core
from markdown_it.renderer import RendererHTML
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
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
from app.core.chat.render.shown import (
    LONG_LINE,
    MAX_DEPTH,
    has_long_line,
    letters,
    plain_html,
    shown_text,
    source_letters,
)
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
_FORMULA_TEXT = re.compile(r"[^\\\s]")
#: a table of more columns than this is shown as the text it was written as
MAX_COLUMNS = 64
#: the token type of inline text too long to parse (see _long_inline)
_INLINE_TEXT = "inline_text"
#: lists and quotes: each nests the text one level deeper
_CONTAINERS = frozenset({"bullet_list_open", "ordered_list_open", "blockquote_open"})
_CONTAINER_ENDS = frozenset({"bullet_list_close", "ordered_list_close", "blockquote_close"})
#: what may follow a list item's opening when the item shows no marker (Qt draws a list item's
#: number or bullet on its first line of text; an item that starts with a list has none)
_NO_MARKER = frozenset({"bullet_list_open", "ordered_list_open", "list_item_close"})
#: the env key of :func:`_bracket_close`'s last search
_BRACKET_MEMO = "tandem_bracket_close"


def _bracket_close(state: StateInline) -> int:
    """Where the first ``\\]`` at least one character after an opening ``\\[`` at ``state.pos``
    starts, or -1. The last search is kept in the parse's env: a paragraph of thousands of
    unclosed ``\\[`` would otherwise search to its end from each of them."""
    src, pos = state.src, state.pos
    memo = state.env.get(_BRACKET_MEMO)
    if memo is not None and memo[0] is src and memo[1] <= pos and (memo[2] < 0 or memo[2] >= pos + 3):
        return int(memo[2])
    found = src.find("\\]", pos + 3)
    state.env[_BRACKET_MEMO] = (src, pos, found)
    return found


def _bracket_display(state: StateInline, silent: bool) -> bool:
    """A display formula written in running text ("the identity \\[a^2+b^2=c^2\\] holds", or
    opened on the line after a sentence): drawn at display size where it stands."""
    if not state.src.startswith("\\[", state.pos):
        return False
    close = _bracket_close(state)
    if close < 0:
        return False
    content = state.src[state.pos + 2 : close]
    # a formula holds more than backslashes ("\\[\\\\\\]" is three escaped characters)
    if not _FORMULA_TEXT.search(content):
        return False
    if not silent:
        token = state.push("math_display_inline", "math", 0)
        token.content = content
        token.markup = "\\["
    state.pos = close + 2
    return True


@lru_cache(maxsize=2)
def parser(breaks: bool) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": True, "breaks": breaks})
    md.enable(["table", "strikethrough", "linkify"])
    md.block.ruler.at("table", _table)
    # "$5 and $10" is prose: a dollar next to a digit or a space does not open or close math
    md.use(dollarmath_plugin, allow_space=False, allow_digits=False, double_inline=True)
    md.use(texmath_plugin, delimiters="brackets")
    md.inline.ruler.before("escape", "math_display_inline", _bracket_display)
    md.use(footnote_plugin)
    md.use(tasklists_plugin)
    md.core.ruler.before("inline", "long_inline", _long_inline)
    return md


def _table(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """GFM's table rule, for tables of at most :data:`MAX_COLUMNS` columns: a wider one stays a
    paragraph (its cells cost the parser time in proportion, and no chat can show them)."""
    for line in (start, start + 1):
        if line < end:
            first, last = state.bMarks[line] + state.tShift[line], state.eMarks[line]
            if state.src.count("|", first, last) > MAX_COLUMNS + 1:
                return False
    return rules_block.table(state, start, end, silent)


def _long_inline(state: StateCore) -> None:
    """Inline text longer than :data:`~.shown.LONG_LINE` (a paragraph, a heading, a table cell) is
    shown as written, not parsed for emphasis, links and code spans: the inline parser's cost on
    some runs of punctuation (thousands of ``[`` or ``<``) grows to seconds."""
    for token in state.tokens:
        if token.type == "inline" and len(token.content) > LONG_LINE:
            token.type = _INLINE_TEXT


def _top_blocks(text: str) -> list[Token]:
    """The block tokens of ``text`` as :func:`parser` makes them, without the inline parse (a
    stable end needs the blocks' lines only)."""
    state = StateCore(text, parser(True), {})
    rules_core.normalize(state)
    rules_core.block(state)
    return state.tokens


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
    tops = [t for t in _top_blocks(rest) if t.level == 0 and t.map is not None and t.nesting >= 0]
    if len(tops) < 2:
        return start
    last = tops[-1].map
    assert last is not None
    return start + line_starts(rest)[last[0]]


class _Html(RendererHTML):
    """markdown-it's HTML renderer with drafted runs, Qt-friendly blocks and inline styles."""

    def __init__(
        self, md: MarkdownIt, source: str, spans: Sequence[tuple[int, int]], opts: dict[str, Any]
    ) -> None:
        super().__init__()
        # the plugins' own rules (footnotes) are registered on the parser's renderer
        for name, rule in getattr(md.renderer, "rules", {}).items():
            self.rules.setdefault(name, rule)
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

    def inline_text(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        # inline text shown as written (see _long_inline): its line ends as the parser keeps them
        body = self._marked(tokens[idx])
        return body.replace("\n", "<br />\n") if options.get("breaks") else body

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

    def footnote_ref(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        # the number alone: a label has no page to jump in (the plugin's link and back link)
        caption = self.rules["footnote_caption"](tokens, idx, options, env)
        return f'<sup class="footnote-ref">{caption}</sup>'

    def footnote_anchor(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return ""

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
        # a guess (slow) waits for the closing fence: re-guessing on every flush of a streaming
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
        elif token.type == _INLINE_TEXT:
            place(token, first, last)
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
    return _checked(md, _Html(md, text, draft_spans, opts), tokens, env)


def _checked(md: MarkdownIt, renderer: _Html, tokens: Sequence[Token], env: EnvType) -> str:
    """The rendered HTML of ``tokens``, each top-level block checked against its source (see
    :mod:`.shown`): a block whose render hides some of its letters or digits, nests lists and
    quotes deeper than :data:`~.shown.MAX_DEPTH` or shows nothing is shown as its plain source
    text instead, and so is a block with a line longer than :data:`~.shown.LONG_LINE` (not
    rendered: a code block's colours and its unwrapped line would take seconds).

    A block's source runs from its first line to the next block's first line, so the blank
    lines, reference definitions and whatever the parser dropped after a block are its own.
    Footnotes are rendered at the end, away from their definitions: what they show counts for
    every block."""
    source = renderer.source
    starts = line_starts(source)
    groups = _top_level(tokens)
    blocks = [(i, j, lines) for i, j, lines in groups if lines is not None]
    away = [(i, j) for i, j, lines in groups if lines is None]
    apart = [renderer.render(tokens[i:j], md.options, env) for i, j in away]
    # letters the syntax took anywhere (reference labels and targets, footnote labels), and what
    # the footnotes show and their syntax took
    anywhere = letters(
        " ".join(
            [_accounted_anywhere(md, env, source)]
            + [shown_text(h)[0] for h in apart]
            + [_accounted(md, tokens[i:j])[0] for i, j in away]
        )
    )
    if not blocks and source.strip():
        blocks = [(0, 0, (0, 0))]  # only definitions, or nothing the parser kept: one empty block
    out: list[str] = []
    for k, (i, j, lines) in enumerate(blocks):
        a = 0 if k == 0 else min(len(source), starts[lines[0]])
        b = min(len(source), starts[blocks[k + 1][2][0]]) if k + 1 < len(blocks) else len(source)
        if has_long_line(source, a, b):
            out.append(plain_html(source, a, b, renderer.mask, renderer.draft))
            continue
        part = renderer.render(tokens[i:j], md.options, env) if j > i else ""
        accounted, depth = _accounted(md, tokens[i:j])
        shown, visible = shown_text(part)
        missing = source_letters(source[a:b]) - letters(shown)
        if missing and accounted:
            missing -= letters(accounted)
        if missing:
            missing -= anywhere
        if missing or depth > MAX_DEPTH or (not visible and source[a:b].strip()):
            part = plain_html(source, a, b, renderer.mask, renderer.draft)
        out.append(part)
    return "".join(out + apart)


def _top_level(tokens: Sequence[Token]) -> list[tuple[int, int, tuple[int, int] | None]]:
    """The top-level blocks of ``tokens``: ``(first token, end token, source lines)``; the lines
    are None for a block the parser built away from the source (the footnotes)."""
    out: list[tuple[int, int, tuple[int, int] | None]] = []
    i, n = 0, len(tokens)
    while i < n:
        j, level = i + 1, int(tokens[i].nesting)
        while level > 0 and j < n:
            level += tokens[j].nesting
            j += 1
        lines = tokens[i].map
        out.append((i, j, (lines[0], lines[1]) if lines is not None else None))
        i = j
    return out


def _accounted(md: MarkdownIt, tokens: Sequence[Token]) -> tuple[str, int]:
    """The text the syntax of ``tokens`` took rather than showed (a link's or image's target and
    title, a fence's language, a formula's label, the numbers of list items Qt draws a marker
    for, a ticked task's ``x``); and how deep lists and quotes nest in them."""
    out: list[str] = []
    depth = deepest = 0
    for n, token in enumerate(tokens):
        kind = token.type
        if kind in _CONTAINERS:
            depth += 1
            deepest = max(deepest, depth)
        elif kind in _CONTAINER_ENDS:
            depth -= 1
        if token.info and (
            kind != "list_item_open" or (n + 1 < len(tokens) and tokens[n + 1].type not in _NO_MARKER)
        ):
            out.append(token.info)
        _accounted_inline(md, token.children or (), out)
    return " ".join(out), deepest


def _accounted_inline(md: MarkdownIt, children: Sequence[Token], out: list[str]) -> None:
    for child in children:
        for key in ("href", "src", "title"):
            value = child.attrs.get(key)
            if value:  # the target as written and as shown (percent-escapes decoded)
                out.extend([str(value), md.normalizeLinkText(str(value))])
        if child.type == "html_inline" and "checked" in child.content:
            out.append("x")
        if child.children:  # an image's alt text holds inline tokens (links, images) too
            _accounted_inline(md, child.children, out)


def _accounted_anywhere(md: MarkdownIt, env: EnvType, source: str) -> str:
    """The text the syntax took that resolves across the whole text: reference definitions (each
    label as often as the text names it) and footnote labels."""
    out: list[str] = []
    references = env.get("references") or {}
    # labels are matched as markdown-it keys them: case folded, white space collapsed
    folded = " ".join(source.lower().split()) if references else ""
    for label, ref in references.items():
        out.extend([str(label)] * max(1, folded.count(str(label).lower())))
        href = str(ref.get("href", ""))
        out.extend([href, md.normalizeLinkText(href), str(ref.get("title", ""))])
    for note in ((env.get("footnotes") or {}).get("list") or {}).values():
        if note.get("label"):
            out.extend([str(note["label"])] * (int(note.get("count", 0)) + 1))
    return " ".join(out)
