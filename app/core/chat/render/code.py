"""Code blocks: Pygments colours as inline styles (Qt's rich text has no stylesheet classes),
with drafted runs marked inside the code."""

from __future__ import annotations

import html
from collections.abc import Sequence
from functools import lru_cache

from pygments.lexer import Lexer
from pygments.lexers import get_all_lexers, get_lexer_by_name, guess_lexer
from pygments.style import StyleMeta
from pygments.styles import get_style_by_name
from pygments.util import ClassNotFound

from app.core.chat.render.sourcemap import runs

#: styles whose colours keep contrast on the code background of each palette
_STYLES = {False: "default", True: "monokai"}
#: a guess below this score is more often wrong than right on short snippets
_GUESS_MIN = 0.5
#: a guess reads this many characters of the code at most
_GUESS_CHARS = 4096


@lru_cache(maxsize=1)
def _aliases() -> frozenset[str]:
    return frozenset(a for _name, aliases, _f, _m in get_all_lexers(plugins=False) for a in aliases)


@lru_cache(maxsize=64)
def lexer_for(name: str) -> Lexer | None:
    # an unknown name makes Pygments scan the installed packages' entry points, a stall
    # mid-stream while a fence's language is half written: only known names are looked up
    if name.lower() not in _aliases():
        return None
    try:
        return get_lexer_by_name(name, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


@lru_cache(maxsize=128)
def guess(code: str) -> tuple[str, Lexer] | None:
    """A lexer for unlabelled code, only when Pygments is confident. Judged on the code's start:
    some lexers' tests take time that grows faster than the text (a long line of one character)."""
    if len(code) < 40:
        return None
    code = code[:_GUESS_CHARS]
    try:
        lexer = guess_lexer(code, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None
    score = type(lexer).analyse_text(code)
    if score < _GUESS_MIN or lexer.name == "Text only":
        return None
    return lexer.aliases[0] if lexer.aliases else lexer.name, lexer


@lru_cache(maxsize=4)
def _style(dark: bool) -> StyleMeta:
    return get_style_by_name(_STYLES[dark])


@lru_cache(maxsize=512)
def _css(dark: bool, ttype: object) -> str:
    style = _style(dark)
    try:
        spec = style.style_for_token(ttype)
    except KeyError:
        return ""
    out = []
    if spec["color"]:
        out.append(f"color:#{spec['color']};")
    if spec["bold"]:
        out.append("font-weight:bold;")
    if spec["italic"]:
        out.append("font-style:italic;")
    return "".join(out)


def drafted_flags(positions: Sequence[int], mask: bytearray, length: int) -> bytes:
    """One byte per character of a code block (1: drafted), from its characters' source
    ``positions``; all 0 when the positions do not cover the code (no highlight asked)."""
    if len(positions) != length or not length:
        return bytes(length)
    first, n = positions[0], len(mask)
    if positions[-1] - first == length - 1 and first >= 0 and positions[-1] < n:
        return bytes(mask[first : first + length])  # the block's lines sit in the source unbroken
    return bytes(1 if 0 <= p < n and mask[p] == 1 else 0 for p in positions)


def _marked(value: str, flags: bytes, draft_style: str | None) -> str:
    if not draft_style or 1 not in flags:
        return html.escape(value, quote=False)
    out = []
    for a, b, drafted in runs(range(len(value)), flags):
        part = html.escape(value[a:b], quote=False)
        out.append(f'<span style="{draft_style}">{part}</span>' if drafted else part)
    return "".join(out)


@lru_cache(maxsize=16)
def _lines_html(code: str, lexer: Lexer | None, flags: bytes, draft_style: str | None, dark: bool) -> str:
    pieces = [("", code)]
    if lexer is not None:
        pieces = [(_css(dark, ttype), value) for ttype, value in lexer.get_tokens(code)]
    out: list[str] = []
    i = 0
    for css, value in pieces:
        body = _marked(value, flags[i : i + len(value)], draft_style)
        out.append(f'<span style="{css}">{body}</span>' if css and body.strip() else body)
        i += len(value)
    return "".join(out)


def highlight(
    code: str, lexer: Lexer | None, flags: bytes, draft_style: str | None, dark: bool, live: bool = False
) -> str:
    """``code`` as escaped HTML, coloured by ``lexer`` (plain when None), drafted characters
    (``flags``, see :func:`drafted_flags`) wrapped in ``draft_style`` spans.

    The lines the code has finished are lexed and rendered together, once (cached). With
    ``live`` (the answer is still being written) a last line without its line end is shown
    uncoloured until it ends. Lexing the whole block again on each flush of a streamed answer
    costs time in proportion to the block on every flush, CPU the engine shares on a small
    machine; a line lexed on its own could take the wrong colours (a line inside a string)."""
    cut = code.rfind("\n") + 1 if live else len(code)
    head = _lines_html(code[:cut], lexer, flags[:cut], draft_style, dark) if cut else ""
    return head + _marked(code[cut:], flags[cut:], draft_style)
