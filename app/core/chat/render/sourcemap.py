"""Where each character a parser token holds came from in the source text.

markdown-it gives block tokens their source lines (``token.map``) but not columns, and the text it
hands inline rules has lost its escapes, entities, indentation and container markers. The
characters still appear in the source in order, so each one is found a short way ahead of the
previous one; a character that cannot be found (an entity's expansion) maps to ``-1`` and is
simply never shown as drafted.
"""

from __future__ import annotations

from collections.abc import Sequence

#: how far ahead of the previous character the next one may sit: covers a table's ``" | "``, a
#: backslash escape, a quote marker and list indentation on a new line
_LOOKAHEAD = 16


def line_starts(text: str) -> list[int]:
    """The offset of each line's first character, plus the text's end as a last entry."""
    starts = [0]
    pos = text.find("\n")
    while pos >= 0:
        starts.append(pos + 1)
        pos = text.find("\n", pos + 1)
    starts.append(len(text) + 1)
    return starts


def align(content: str, source: str, start: int, end: int) -> tuple[list[int], int]:
    """Source offsets of ``content``'s characters, searched in ``source[start:end]`` in order;
    also the offset after the last one found (the next token of the same lines starts there)."""
    out: list[int] = []
    cursor = start
    for ch in content:
        limit = min(end, cursor + _LOOKAHEAD)
        found = source.find(ch, cursor, limit)
        if found < 0 and ch == " ":  # markdown-it turns a code span's line end into a space
            found = source.find("\n", cursor, limit)
        if found < 0:
            out.append(-1)
            continue
        out.append(found)
        cursor = found + 1
    return out, cursor


def drafted_mask(length: int, spans: Sequence[tuple[int, int]]) -> bytearray:
    """One byte per source character: 1 where a drafted span covers it."""
    mask = bytearray(length)
    for a, b in spans:
        a, b = max(0, a), min(length, b)
        if a < b:
            mask[a:b] = b"\x01" * (b - a)
    return mask


def runs(positions: Sequence[int], mask: bytes | bytearray) -> list[tuple[int, int, bool]]:
    """``(start, end, drafted)`` runs over the token's own characters."""
    out: list[tuple[int, int, bool]] = []
    n = len(mask)
    start = 0
    prev: bool | None = None
    for i, p in enumerate(positions):
        d = 0 <= p < n and mask[p] == 1
        if prev is None:
            prev = d
        elif d != prev:
            out.append((start, i, prev))
            start, prev = i, d
    if prev is not None:
        out.append((start, len(positions), prev))
    return out
