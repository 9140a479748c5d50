"""The rendered HTML of a message cut into its top-level blocks, for a view that shows code, tables
and display formulas in boxes of their own (scrolled sideways when wider than the view), and break
points for long unbreakable runs of prose (a URL, a hash, a path), so that prose wraps instead of
widening what holds it.

Both read only the HTML :func:`app.core.chat.render.render_html` and the chat's tool-call blocks
write: text is escaped (``<`` never stands for itself), tags are well nested, and raw HTML from the
model is shown as text, so a tag scanner is enough; no general HTML parser is needed.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_right
from typing import Literal

#: a zero-width space: where a line may break inside a long run, shown as nothing
BREAK = "\u200b"
#: a run of this many characters without a place to break gets break points
LONG_RUN = 30
#: at most this many characters between two break points inside a long run
BREAK_EVERY = 20
#: a long run prefers to break after these (a URL's or a path's separators)
_SEPARATORS = frozenset("/\\?&=.,;-_#%+~|)]}>")
#: tags that end a line of text: a run of characters does not continue across them
_BLOCK_TAGS = frozenset(
    {"p", "div", "br", "li", "ul", "ol", "table", "thead", "tbody", "tr", "td", "th", "pre", "hr", "img"}
    | {"h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "section"}
)
_VOID_TAGS = frozenset({"br", "hr", "img", "input", "meta", "link", "wbr", "col"})
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)\b[^>]*?(/?)>")
#: a long run: characters other than spaces and those a line already breaks around (CJK and
#: full-width forms)
_LONG = re.compile(
    r"[^\s\u2e80-\u303f\u3040-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]"
    + f"{{{LONG_RUN + 1},}}"
)

Kind = Literal["prose", "code", "wide"]


def split_blocks(markup: str) -> list[tuple[Kind, str]]:
    """``markup`` cut at its top-level blocks: each code block (``<pre>``) is a ``code`` part,
    each table and each formula on a line of its own (a centred paragraph holding an image) a
    ``wide`` part, and the runs of everything else ``prose`` parts. The parts, joined, are
    ``markup`` again."""
    parts: list[tuple[Kind, str]] = []
    depth = 0
    start = 0  # where the part being collected begins
    block_start = 0  # where the current top-level element begins
    block_kind: Kind = "prose"
    for m in _TAG.finditer(markup):
        closing, name, selfclosing = m.group(1) == "/", m.group(2).lower(), m.group(3) == "/"
        if name in _VOID_TAGS or selfclosing:
            continue
        if not closing:
            if depth == 0:
                block_start = m.start()
                block_kind = _kind(name, m.group(0), markup, m.end())
            depth += 1
            continue
        depth = max(0, depth - 1)
        if depth == 0 and block_kind != "prose":
            if block_start > start:
                parts.append(("prose", markup[start:block_start]))
            end = m.end()
            while end < len(markup) and markup[end] == "\n":
                end += 1  # the renderer's line end after a block belongs to it
            parts.append((block_kind, markup[block_start:end]))
            start = end
            block_kind = "prose"
    if start < len(markup):
        parts.append(("prose", markup[start:]))
    return _merge_prose(parts)


def _kind(name: str, tag: str, markup: str, after: int) -> Kind:
    if name == "pre":
        return "code"
    if name == "table":
        return "wide"
    if name == "p" and 'align="center"' in tag and markup.startswith("<img", after):
        return "wide"  # a display formula drawn as an image
    return "prose"


def _merge_prose(parts: list[tuple[Kind, str]]) -> list[tuple[Kind, str]]:
    """Prose next to prose as one part; blank prose (the line ends between blocks) joined to the
    part before it (or after it, at the start), where it shows nothing."""
    out: list[tuple[Kind, str]] = []
    lead = ""
    for kind, text in parts:
        if not text:
            continue
        if kind == "prose" and not text.strip():
            if out:
                out[-1] = (out[-1][0], out[-1][1] + text)
            else:
                lead += text
        elif kind == "prose" and out and out[-1][0] == "prose":
            out[-1] = ("prose", out[-1][1] + text)
        else:
            out.append((kind, lead + text))
            lead = ""
    if lead:
        out.append(("prose", lead))
    return out


def with_break_points(markup: str) -> str:
    """``markup`` with a :data:`BREAK` inside each run of more than :data:`LONG_RUN` characters
    that holds no space (after a separator such as ``/`` or ``&`` where one comes, else every
    :data:`BREAK_EVERY` characters), so that a line can wrap there. Runs continue across inline
    tags (a drafted span, a link) and end at blocks, spaces and CJK text (which breaks anywhere
    already). Text without such a run comes back unchanged."""
    pieces = _pieces(markup)
    # the text of the markup as one string, each block tag standing as a line end; starts[i]:
    # where piece i's text begins in it
    texts: list[str] = []
    starts: list[int] = []
    pos = 0
    for is_tag, value in pieces:
        if is_tag:
            tag = _TAG.match(value)
            value = "\n" if tag is not None and tag.group(2).lower() in _BLOCK_TAGS else ""
        else:
            value = html.unescape(value)
        starts.append(pos)
        texts.append(value)
        pos += len(value)
    text = "".join(texts)
    marks: dict[int, set[int]] = {}  # piece -> offsets in its text after which a break goes
    for run in _LONG.finditer(text):
        for at in _breaks_in(text, run.start(), run.end()):
            piece = bisect_right(starts, at) - 1
            while not texts[piece] or pieces[piece][0]:  # an inline tag holds no text
                piece -= 1
            marks.setdefault(piece, set()).add(at - starts[piece])
    if not marks:
        return markup
    out = []
    for i, (_is_tag, value) in enumerate(pieces):
        if i in marks:
            after = marks[i]
            value = html.escape(
                "".join(ch + (BREAK if k in after else "") for k, ch in enumerate(texts[i])), quote=False
            )
        out.append(value)
    return "".join(out)


def _pieces(markup: str) -> list[tuple[bool, str]]:
    """``markup`` as (is a tag, text) pieces, in order."""
    out: list[tuple[bool, str]] = []
    pos = 0
    for m in _TAG.finditer(markup):
        if m.start() > pos:
            out.append((False, markup[pos : m.start()]))
        out.append((True, m.group(0)))
        pos = m.end()
    if pos < len(markup):
        out.append((False, markup[pos:]))
    return out


def _breaks_in(text: str, start: int, end: int) -> list[int]:
    """Break points of the run ``text[start:end]`` (offsets of the characters a break follows):
    after separators, at most :data:`BREAK_EVERY` apart, none after the run's last character."""
    out: list[int] = []
    last = start - 1  # the last break (before the run: its start)
    for i in range(start, end - 1):
        separator = text[i] in _SEPARATORS and text[i + 1] not in _SEPARATORS
        if (separator and i - last >= 4) or i - last >= BREAK_EVERY:
            out.append(i)
            last = i
    return out
