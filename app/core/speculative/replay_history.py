"""The token sequence a replay walks, and llama.cpp's rolling n-gram hashes over it.

One request's sequence is its prompt followed by every token the answer emitted; at any step the
history a drafter sees is a prefix of it, so every hash and position index is built once over the
whole sequence, on first use, and read at the prefix's length.

The hashes are llama.cpp's own polynomial hashes (``h = h * factor + token``): ``ngram-mod``'s with
a 64-bit factor reduced to its pool's 2**22 entries, the n-gram maps' 32-bit LCG hash. Reducing
modulo a power of two is exact because the C++ hash wraps at a larger one, so collisions fall where
they fall in llama.cpp.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["LCG_FACTOR", "MOD_BITS", "MOD_FACTOR", "TokenSequence", "window_hashes"]

#: ``common_ngram_mod``'s hash factor
MOD_FACTOR = 6364136223846793005
#: the pool has 4 Mi entries: a power of two, so the 64-bit hash is reduced modulo 2**22
MOD_BITS = 22
#: ``common_ngram_map``'s 32-bit LCG hash factor
LCG_FACTOR = 2654435761


def window_hashes(tokens: Sequence[int], n: int, factor: int, bits: int) -> list[int]:
    """``h[i]`` = llama.cpp's polynomial hash of ``tokens[i:i+n]`` (``h = h*factor + t``), reduced
    modulo ``2**bits`` (exact: the C++ hash wraps at a larger power of two)."""
    count = len(tokens) - n + 1
    if n <= 0 or count <= 0:
        return []
    mask = (1 << bits) - 1
    f = factor & mask
    top = pow(f, n - 1, 1 << bits)
    h = 0
    for t in tokens[:n]:
        h = (h * f + t) & mask
    out = [h]
    append = out.append
    for i in range(1, count):
        h = ((h - tokens[i - 1] * top) * f + tokens[i + n - 1]) & mask
        append(h)
    return out


class TokenSequence:
    """One replayed request's token sequence (prompt + emitted tokens) and hash indexes over it,
    built on first use. At any step the history a method sees is a prefix of it."""

    def __init__(self, tokens: list[int]) -> None:
        self.tokens = tokens
        self._mod: dict[int, list[int]] = {}
        self._lcg: dict[int, list[int]] = {}
        self._lcg_positions: dict[int, dict[int, list[int]]] = {}
        self._windows: dict[int, dict[tuple[int, ...], list[int]]] = {}

    def mod_hashes(self, n: int) -> list[int]:
        if n not in self._mod:
            self._mod[n] = window_hashes(self.tokens, n, MOD_FACTOR, MOD_BITS)
        return self._mod[n]

    def lcg_hashes(self, n: int) -> list[int]:
        if n not in self._lcg:
            self._lcg[n] = window_hashes(self.tokens, n, LCG_FACTOR, 32)
        return self._lcg[n]

    def lcg_positions(self, n: int) -> dict[int, list[int]]:
        """32-bit window hash -> ascending start positions."""
        if n not in self._lcg_positions:
            index: dict[int, list[int]] = {}
            for i, h in enumerate(self.lcg_hashes(n)):
                index.setdefault(h, []).append(i)
            self._lcg_positions[n] = index
        return self._lcg_positions[n]

    def windows(self, n: int) -> dict[tuple[int, ...], list[int]]:
        """n-gram -> ascending start positions."""
        if n not in self._windows:
            index: dict[tuple[int, ...], list[int]] = {}
            t = self.tokens
            for i in range(len(t) - n + 1):
                index.setdefault(tuple(t[i : i + n]), []).append(i)
            self._windows[n] = index
        return self._windows[n]
