"""The replay of llama.cpp's n-gram map types (``common/ngram-map.*``): ``ngram-simple``,
``ngram-map-k`` and ``ngram-map-k4v``.

``ngram-simple`` keeps nothing: it drafts what followed the latest earlier occurrence of the last
n tokens. ``ngram-map-k`` and ``ngram-map-k4v`` keep a map per slot across requests, indexed by
positions in the history; the next request's history is read at the same positions, as llama.cpp
does, and a prompt shorter than the history last read drops the entries that may lie past their
common start. Their hash index (256 Ki entries, the first position written to an entry kept) uses
llama.cpp's LCG hash, so its collisions are llama.cpp's. ``ngram-map-k`` drafts what followed a
known key, at most as many tokens as the key's last draft had accepted (``size_m`` at first);
``ngram-map-k4v`` counts up to four different values per key and, once the key has been met
``min_hits`` times, drafts the value met at least twice as often as the others together.

Where llama.cpp would read past its history vector (undefined behaviour in C++), the replay drafts
nothing and marks itself :attr:`NgramMap.undefined`, which makes the replay inexact.
"""

from __future__ import annotations

import copy
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from app.core.speculative.replay_history import TokenSequence
from app.core.speculative.replay_params import NgramMapParams

__all__ = ["MapSlot", "NgramMap", "NgramSimple"]


class NgramSimple:
    name = "ngram-simple"

    def __init__(self, params: NgramMapParams) -> None:
        self.n = params.size_n
        self.m = params.size_m

    def begin(self, seq: TokenSequence, prompt_len: int) -> None:
        return None

    def draft(self, seq: TokenSequence, cur_len: int) -> list[int]:
        n, m = self.n, self.m
        if cur_len <= n + m + 1:
            return []
        tokens = seq.tokens
        pattern = tuple(tokens[cur_len + 1 - n : cur_len + 1])
        positions = seq.windows(n).get(pattern)
        if not positions:
            return []
        # the latest earlier occurrence that starts at 1 or later and ends before the pattern's
        i = bisect_right(positions, cur_len - n - 1) - 1
        if i < 0 or positions[i] < 1:
            return []
        match_pos = positions[i]
        copy_max = min(m, cur_len - (match_pos + n))
        if copy_max < n:
            return []
        return tokens[match_pos + n : match_pos + n + copy_max]

    def accept(self, n_accepted: int) -> None:
        return None


_KEY_MAP_BITS = 18
_KEY_MAP_MASK = (1 << _KEY_MAP_BITS) - 1
_MAX_VALUES = 4
_MAX_VALUE_COUNT = 16380


@dataclass
class _Value:
    value_idx: int = 0
    value_num: int = 0
    n_accepted: int = -1


@dataclass
class _Key:
    key_idx: int
    stat_idx: int = 0
    key_num: int = 0
    values: list[_Value] = field(default_factory=list)


@dataclass
class MapSlot:
    """``common_ngram_map`` of one slot; positions index the history of the current request."""

    keys: list[_Key] = field(default_factory=list)
    size_last_begin: int = 0
    last_draft_created: bool = False
    last_draft_key_idx: int = 0
    last_draft_value_idx: int = 0
    idx_last_check: int = 0
    key_map: dict[int, int] = field(default_factory=dict)  # hash -> position (0: none)
    key_map_last_idx: int = 0


class _UndefinedRead(Exception):
    """llama.cpp would read past its history vector here (undefined behaviour)."""


class NgramMap:
    def __init__(self, params: NgramMapParams, key_only: bool, slot: MapSlot) -> None:
        self.n = params.size_n
        self.m = params.size_m
        self.min_hits = params.min_hits
        self.key_only = key_only
        self.s = slot
        self.name = "ngram-map-k" if key_only else "ngram-map-k4v"
        #: set when a read past the history was met (the replay is then not exact)
        self.undefined = False

    def begin(self, seq: TokenSequence, prompt_len: int) -> None:
        s, n, m = self.s, self.n, self.m
        size_begin = prompt_len
        cleanup = s.size_last_begin
        if cleanup > size_begin:
            cleanup = size_begin - n - m if size_begin > n + m else 0
        if size_begin < s.idx_last_check:
            s.key_map = {h: j for h, j in s.key_map.items() if j < cleanup}
            s.key_map_last_idx = cleanup - 1 if cleanup > 0 else 0
        if size_begin < s.idx_last_check and s.keys:
            for i in range(len(s.keys) - 1, -1, -1):
                key = s.keys[i]
                if key.key_idx >= cleanup:
                    del s.keys[i]
                    continue
                if self.key_only:
                    continue
                for j in range(_MAX_VALUES - 1, -1, -1):
                    value = key.values[j]
                    if value.value_idx != 0 and value.value_idx >= cleanup:
                        for k in range(j, _MAX_VALUES - 1):
                            key.values[k] = copy.copy(key.values[k + 1])
                        last = key.values[_MAX_VALUES - 1]
                        key.values[_MAX_VALUES - 1] = _Value(0, 0, last.n_accepted)
                if key.values[0].value_idx == 0:
                    del s.keys[i]
        s.idx_last_check = size_begin
        s.size_last_begin = size_begin

    def _same(self, tokens: list[int], cur_len: int, a: int, b: int, length: int) -> bool:
        """``inp[a:a+length] == inp[b:b+length]`` compared token by token as llama.cpp does, within
        the history of ``cur_len`` tokens (a read past it is undefined in llama.cpp)."""
        if a + length <= cur_len and b + length <= cur_len:
            return tokens[a : a + length] == tokens[b : b + length]
        for j in range(length):
            if a + j >= cur_len or b + j >= cur_len:
                self.undefined = True
                raise _UndefinedRead
            if tokens[a + j] != tokens[b + j]:
                return False
        return True

    def _is_key(self, tokens: list[int], cur_len: int, at: int, key: list[int]) -> bool:
        """``inp[at:at+n] == key``, token by token, within the history."""
        n = len(key)
        if at + n <= cur_len:
            return tokens[at : at + n] == key
        for j in range(n):
            if at + j >= cur_len:
                self.undefined = True
                raise _UndefinedRead
            if tokens[at + j] != key[j]:
                return False
        return True

    def draft(self, seq: TokenSequence, cur_len: int) -> list[int]:
        s, n, m = self.s, self.n, self.m
        s.last_draft_created = False
        s.last_draft_key_idx = 0
        s.last_draft_value_idx = 0
        if cur_len < 2 * n + m:
            return []
        s.idx_last_check = cur_len
        tokens = seq.tokens
        key_pos = cur_len + 1 - n  # the key: the last n tokens, id_last included
        key_tokens = tokens[key_pos : cur_len + 1]
        lcg = seq.lcg_hashes(n)
        key_hash = lcg[key_pos]
        limit = cur_len - n - m - 1
        match_pos = 0
        idx_key = s.key_map.get(key_hash & _KEY_MAP_MASK, 0)
        if idx_key != 0 and idx_key < limit and tokens[idx_key : idx_key + n] == key_tokens:
            match_pos = idx_key
        first = seq.lcg_positions(n).get(key_hash, ())
        if match_pos == 0 and s.size_last_begin > n + m + 1:
            # descending over (key_map_last_idx, size_last_begin - n - m - 1]
            match_pos = _last_match(
                first, tokens, key_tokens, s.key_map_last_idx, s.size_last_begin - n - m - 1
            )
        if match_pos == 0:
            low = max(s.size_last_begin, s.key_map_last_idx)
            match_pos = _last_match(first, tokens, key_tokens, low, limit)
        # index the new n-grams by hash (the first position written to a slot stays)
        key_map = s.key_map
        if s.size_last_begin > n + m + 1:
            for j in range(s.size_last_begin - n - m - 1, s.key_map_last_idx, -1):
                key_map.setdefault(lcg[j] & _KEY_MAP_MASK, j)
        for j in range(limit, max(s.size_last_begin, s.key_map_last_idx), -1):
            key_map.setdefault(lcg[j] & _KEY_MAP_MASK, j)
        s.key_map_last_idx = max(limit, s.key_map_last_idx)
        if match_pos == 0:
            return []
        try:
            return self._draft_from(tokens, cur_len, match_pos, key_tokens, key_hash, seq)
        except _UndefinedRead:
            return []

    def _draft_from(
        self,
        tokens: list[int],
        cur_len: int,
        match_pos: int,
        key_tokens: list[int],
        key_hash: int,
        seq: TokenSequence,
    ) -> list[int]:
        s, n, m = self.s, self.n, self.m
        key_offset = len(s.keys)
        for i, key in enumerate(s.keys):
            if self._is_key(tokens, cur_len, key.key_idx, key_tokens):
                key_offset = i
                break
        if key_offset == len(s.keys):
            s.keys.append(_Key(match_pos, 0, 0, [_Value(0, 0, m) for _ in range(_MAX_VALUES)]))
        curr = s.keys[key_offset]
        curr.key_num = min(curr.key_num + 1, _MAX_VALUE_COUNT)
        if self.key_only:
            n_draft = min(m, curr.values[0].n_accepted)
            s.last_draft_created = True
            s.last_draft_key_idx = key_offset
            s.last_draft_value_idx = 0
            return tokens[match_pos + n : match_pos + n + max(0, n_draft)]
        if curr.key_num < self.min_hits:
            return []
        # count the values after every occurrence of the key in [stat_idx, match_pos]
        occurrences = seq.lcg_positions(n).get(key_hash, ())
        lo = bisect_right(occurrences, curr.stat_idx - 1)
        for i in occurrences[lo:]:
            if i > match_pos:
                break
            if tokens[i : i + n] != key_tokens:
                continue
            begin_value = i + n
            idx_value = -1
            for v in range(_MAX_VALUES):
                value = curr.values[v]
                if value.value_idx == 0:
                    value.value_idx = begin_value
                    value.value_num = 0
                    value.n_accepted = m
                    idx_value = v
                    break
                if self._same(tokens, cur_len, begin_value, value.value_idx, m):
                    idx_value = v
                    break
            if idx_value >= 0:
                value = curr.values[idx_value]
                value.value_num = min(value.value_num + 1, _MAX_VALUE_COUNT)
        curr.stat_idx = match_pos
        max_occur, slot_max = 0, 0
        for v in range(_MAX_VALUES):
            if curr.values[v].value_num > max_occur:
                max_occur, slot_max = curr.values[v].value_num, v
        sum_occur = sum(curr.values[v].value_num for v in range(_MAX_VALUES) if v != slot_max)
        if sum_occur > 0 and max_occur < 2 * sum_occur:
            return []
        n_draft = min(m, curr.values[slot_max].n_accepted)
        s.last_draft_created = True
        s.last_draft_key_idx = key_offset
        s.last_draft_value_idx = slot_max
        return tokens[match_pos + n : match_pos + n + max(0, n_draft)]

    def accept(self, n_accepted: int) -> None:
        s = self.s
        if not s.last_draft_created:
            return
        s.keys[s.last_draft_key_idx].values[s.last_draft_value_idx].n_accepted = n_accepted


def _last_match(positions: Sequence[int], tokens: list[int], key: list[int], low: int, high: int) -> int:
    """The largest start ``j`` with ``low < j <= high`` whose n-gram equals ``key``, else 0."""
    if high <= low:
        return 0
    i = bisect_right(positions, high) - 1
    n = len(key)
    while i >= 0 and positions[i] > low:
        j = positions[i]
        if tokens[j : j + n] == key:
            return j
        i -= 1
    return 0
