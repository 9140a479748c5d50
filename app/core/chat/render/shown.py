"""What a reader sees of rendered Markdown, and the plain text shown where that is less than what
the model wrote.

Markdown can hide text: a line of list markers ("1. 1. 2. 3.") becomes nested empty lists, which
Qt draws as nothing; past the parser's nesting limit the rest of a block is dropped unseen; an
unreferenced footnote vanishes. The renderer compares, for each top-level block, the letters and
digits of its source with those its rendered HTML shows (plus those the Markdown syntax accounts
for: link targets, a fence's language, list numbers, reference labels), and shows the block as
plain text when a letter or digit is missing, when it nests deeper than :data:`MAX_DEPTH`, or
when it shows nothing at all. Letters are compared as counts, not as words: markup and drafted
highlights split words at any character, so only the multiset of characters is stable.

Everything here is linear in the text's length: a streamed answer renders its last block on every
flush.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Sequence

from app.core.chat.render.sourcemap import runs

#: lists and quotes nested deeper than this show as plain text: each level indents the text, and
#: a runaway nesting leaves no width to read it in
MAX_DEPTH = 8
#: a block with a line longer than this is shown as plain text; inline text longer than this is
#: not parsed for inline markup. Some runs of punctuation (thousands of ``[``) cost the parser
#: seconds, and a code line this long, unwrapped, costs Qt's layout as much
LONG_LINE = 10_000

_NOT_LETTER = re.compile(r"[\W_]+")
#: an HTML entity in the source: Markdown shows its character (or, in code, its spelling), so its
#: letters are not counted on either side
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
#: a code block's chrome (language label and Copy link): not text of the answer
_CODE_HEAD = re.compile(r'<p class="code-head"[^>]*>.*?</p>', re.DOTALL)
_ALT = re.compile(r'<img\b[^>]*?\balt="([^"]*)"')
#: every ``<`` of the rendered HTML opens a tag (text and attribute values are escaped)
_ANY_TAG = re.compile(r"<[^>]*>")
#: what shows without text: a rule, an image (a formula), a code block's box, a table's grid
_MARK = re.compile(r"<(?:hr|img|pre|table)\b")

#: the class of the paragraph :func:`plain_html` writes (Qt ignores it; tests and exports see it)
PLAIN_CLASS = "plain-text"


def letters(text: str) -> Counter[str]:
    """How often each letter and digit occurs in ``text`` (case folded)."""
    return Counter(_NOT_LETTER.sub("", text.lower()))


def source_letters(text: str) -> Counter[str]:
    """The letters and digits of Markdown source, entities left out."""
    return letters(_ENTITY.sub(" ", text) if "&" in text else text)


def shown_text(markup: str) -> tuple[str, bool]:
    """The text a reader sees of rendered ``markup``: its text outside tags (entities decoded)
    and the alt text of its images (formulas), without a code block's chrome; and whether the
    markup shows anything at all (text other than spaces, a rule, an image, a box, a grid)."""
    body = _CODE_HEAD.sub("", markup) if "code-head" in markup else markup
    alts = " ".join(_ALT.findall(body)) if "<img" in body else ""
    text = html.unescape(_ANY_TAG.sub("", body)) + " " + html.unescape(alts)
    return text, bool(text.strip()) or _MARK.search(body) is not None


def has_long_line(text: str, start: int = 0, end: int | None = None, limit: int = LONG_LINE) -> bool:
    """Whether a line of ``text[start:end]`` is longer than ``limit`` characters."""
    end = len(text) if end is None else end
    if end - start <= limit:
        return False
    while start < end:
        stop = text.find("\n", start, end)
        stop = end if stop < 0 else stop
        if stop - start > limit:
            return True
        start = stop + 1
    return False


def plain_html(
    source: str,
    start: int = 0,
    end: int | None = None,
    mask: bytes | bytearray = b"",
    draft_style: str | None = None,
) -> str:
    """``source[start:end]`` as one paragraph of plain text: escaped, its line ends and spaces
    kept, wrapped at the width it has; drafted characters (``mask``, one byte per source
    character) in ``draft_style``. Blank lines at either end are left out."""
    end = len(source) if end is None else end
    while start < end and source[start] in "\r\n":
        start += 1
    while end > start and source[end - 1] in "\r\n ":
        end -= 1
    if start >= end:
        return ""
    part = source[start:end]
    if draft_style and any(mask[start:end]):
        pieces: Sequence[tuple[int, int, bool]] = runs(range(start, end), mask)
        body = "".join(
            f'<span style="{draft_style}">{html.escape(part[a:b], quote=False)}</span>'
            if drafted
            else html.escape(part[a:b], quote=False)
            for a, b, drafted in pieces
        )
    else:
        body = html.escape(part, quote=False)
    return f'<p class="{PLAIN_CLASS}" style="white-space:pre-wrap;">{body}</p>\n'
