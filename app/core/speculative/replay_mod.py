"""The replay of llama.cpp's ``ngram-mod`` (``common/ngram-mod.*``).

``ngram-mod`` keeps one hash pool per child, shared by all its slots and kept as long as the
child: n-gram hash -> the token that followed it, 4 Mi entries, a colliding n-gram overwriting the
entry. A request's prompt is added at its start, and the pool is emptied when that leaves it more
than a quarter full. The history grows into the pool in chunks as the answer goes on. A draft
follows the pool from the last n tokens for up to ``n_max`` tokens and is dropped when it stops
before ``n_min``. Each slot counts rounds in a row that kept less than a quarter of their draft;
the fifth empties the pool. That streak is per slot and survives requests.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.core.speculative.replay_history import MOD_BITS, MOD_FACTOR, TokenSequence
from app.core.speculative.replay_params import NgramModParams

__all__ = ["ModPool", "ModSlot", "NgramMod"]

_MOD_SIZE = 1 << MOD_BITS
_MOD_RESET_OCCUPANCY = 0.25
_MOD_ADD_CHUNK = 32
_MOD_LOW_ACCEPT = 0.25
_MOD_LOW_STREAK = 5


@dataclass
class ModPool:
    """``common_ngram_mod``: n-gram hash -> next token, shared by the slots of a child."""

    n: int
    table: dict[int, int] = field(default_factory=dict)

    @property
    def used(self) -> int:
        return len(self.table)

    def reset(self) -> None:
        self.table.clear()


@dataclass
class ModSlot:
    i_last: int = 0
    n_draft_last: int = 0
    n_low: int = 0


class NgramMod:
    name = "ngram-mod"

    def __init__(self, params: NgramModParams, pool: ModPool, slot: ModSlot) -> None:
        self.p = params
        self.pool = pool
        self.s = slot

    def _add(self, seq: TokenSequence, start: int, stop: int) -> None:
        if start >= stop:
            return
        hashes = seq.mod_hashes(self.pool.n)
        tokens = seq.tokens
        n = self.pool.n
        table = self.pool.table
        for i in range(start, stop):
            table[hashes[i]] = tokens[i + n]

    def begin(self, seq: TokenSequence, prompt_len: int) -> None:
        s, n = self.s, self.pool.n
        s.i_last = 0
        s.n_draft_last = 0
        if prompt_len < n:
            return
        self._add(seq, 0, prompt_len - n)
        s.i_last = prompt_len - n
        if self.pool.used / _MOD_SIZE > _MOD_RESET_OCCUPANCY:
            self.pool.reset()

    def draft(self, seq: TokenSequence, cur_len: int) -> list[int]:
        s, n, p = self.s, self.pool.n, self.p
        s.n_draft_last = 0
        if cur_len < n:
            return []
        if s.i_last + _MOD_ADD_CHUNK < cur_len:
            self._add(seq, s.i_last, cur_len - n)
            s.i_last = cur_len - n
        tokens = seq.tokens
        # the window: the last n tokens of the history, id_last included, then the drafted ones
        window = tokens[cur_len + 1 - n : cur_len + 1]
        mask = _MOD_SIZE - 1
        f = MOD_FACTOR & mask
        top = pow(f, n - 1, _MOD_SIZE)
        h = seq.mod_hashes(n)[cur_len + 1 - n]
        table = self.pool.table
        out: list[int] = []
        for i in range(p.n_max):
            token = table.get(h)
            if token is None:
                if i < p.n_min:
                    return []
                break
            out.append(token)
            window.append(token)
            h = ((h - window[i] * top) * f + token) & mask
        s.n_draft_last = len(out)
        return out

    def accept(self, n_accepted: int) -> None:
        s = self.s
        if s.n_draft_last > 0:
            if n_accepted / s.n_draft_last < _MOD_LOW_ACCEPT:
                s.n_low += 1
                if s.n_low >= _MOD_LOW_STREAK:
                    self.pool.reset()
                    s.n_low = 0
                    s.i_last = 0
            else:
                s.n_low = 0
