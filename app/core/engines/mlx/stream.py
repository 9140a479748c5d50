"""Token-stream helpers for the MLX engine: incremental text, stop strings, round recovery.

No MLX here: these work on plain ints and strings so they can be reasoned about (and tested)
without a model.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

#: A token id, or a token id with what the engine keeps beside it (e.g. its log-probabilities).
T = TypeVar("T")
#: (token, a round that starts at this token as (drafted, accepted), or None)
TokenStep = tuple[T, tuple[int, int] | None]


class IncrementalDecoder:
    """Turns token ids into text pieces without splitting multi-byte characters.

    The usual prefix/read-offset scheme: decode a short window twice and emit the difference,
    holding text back while it ends in an incomplete UTF-8 sequence (U+FFFD). A character is
    at most 4 bytes, so after ``max_hold`` tokens the text is released even if it still ends in
    U+FFFD (a model can emit invalid byte sequences; they must not stall the stream).
    """

    def __init__(self, decode: Callable[[Sequence[int]], str], max_hold: int = 4) -> None:
        self._decode = decode
        self._max_hold = max_hold
        self._ids: list[int] = []
        self._prefix = 0
        self._read = 0

    def add(self, token_id: int) -> str:
        self._ids.append(token_id)
        before = self._decode(self._ids[self._prefix : self._read])
        after = self._decode(self._ids[self._prefix :])
        complete = not after.endswith("\ufffd") or len(self._ids) - self._read >= self._max_hold
        if len(after) > len(before) and complete:
            self._prefix, self._read = self._read, len(self._ids)
            return after[len(before) :]
        return ""

    def flush(self) -> str:
        """Whatever is still held back (an incomplete character at the very end)."""
        before = self._decode(self._ids[self._prefix : self._read])
        after = self._decode(self._ids[self._prefix :])
        self._prefix = self._read = len(self._ids)
        return after[len(before) :] if len(after) > len(before) else ""


class StopScanner:
    """Cuts the text at the first stop string, holding back a possible partial match."""

    def __init__(self, stops: Iterable[str]) -> None:
        self._stops = tuple(s for s in stops if s)
        self._text = ""
        self._emitted = 0
        self.stopped = False

    def feed(self, piece: str) -> str:
        """Add decoded text; return what may be shown now."""
        if self.stopped:
            return ""
        self._text += piece
        if not self._stops:
            out, self._emitted = self._text[self._emitted :], len(self._text)
            return out
        window = max(0, self._emitted - max(len(s) for s in self._stops))
        hits = [p for p in (self._text.find(s, window) for s in self._stops) if p >= 0]
        if hits:
            cut = min(hits)
            self.stopped = True
            out = self._text[self._emitted : cut] if cut > self._emitted else ""
            self._emitted = max(self._emitted, cut)
            return out
        hold = 0
        for s in self._stops:
            for k in range(min(len(s) - 1, len(self._text)), 0, -1):
                if self._text.endswith(s[:k]):
                    hold = max(hold, k)
                    break
        safe = max(self._emitted, len(self._text) - hold)
        out, self._emitted = self._text[self._emitted : safe], safe
        return out

    def flush(self) -> str:
        if self.stopped:
            return ""
        out, self._emitted = self._text[self._emitted :], len(self._text)
        return out
