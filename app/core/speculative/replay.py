"""Exact counterfactual replay of llama.cpp's model-free speculative methods.

With greedy decoding every speculative configuration emits the same tokens, and a model-free method
(``ngram-simple``, ``ngram-map-k``, ``ngram-map-k4v``, ``ngram-mod``, ``ngram-cache``) is a function
of the token history. Replaying one over an answer's prompt and completion token ids therefore gives
exactly the drafts it would have proposed and how many of each the target would have kept: a draft
token is accepted while it equals the token the target actually emitted next, and the round then
emits the accepted tokens plus the target's own next token.

The algorithms are reimplemented from the llama.cpp that xllamacpp 2026.10.11549 vendors
(:data:`LLAMA_CPP_BUILD`): ``common/ngram-mod.*``, ``common/ngram-map.*``, ``common/ngram-cache.*``,
the implementations and the chaining rule of ``common/speculative.cpp``, and the server's drafting
loop (``tools/server/server-context.cpp``). What the replay keeps from that source, on purpose:

* **Rounds.** The first token comes from the prompt pass (a round with no draft). Before each later
  token the slot drafts from its history (the prompt and the tokens emitted so far, the last one as
  ``id_last``), limited to ``min(n_ctx - history - 2, max_tokens - emitted - 1)`` tokens; no room, or
  no draft, is a plain one-token step. A target that cannot drop rejected tokens from its memory
  (recurrent, hybrid) restores a checkpoint after a partial acceptance and verifies again
  (``rollback_limit``). Rounds are split as Tandem reads llama-server's counters
  (:class:`~app.core.speculative.rounds.RoundAccountant`): a round emits at most its accepted tokens
  and one of the target's; a further token of the same pass is a round of its own.
* **Chaining.** Several model-free types try in llama.cpp's fixed priority (:data:`PRIORITY`), not
  in the order they were given; the first non-empty draft wins and the later ones are not asked.
  Only the winner hears how many of its tokens were accepted.
* **State.** ``ngram-mod``'s hash pool is shared by every slot of a child and lives as long as the
  child (emptied when a prompt leaves it more than a quarter full, or after five rounds in a row
  that kept less than a quarter of their draft); its streak counter is per slot and survives
  requests. ``ngram-map-k`` / ``ngram-map-k4v`` keep a map per slot across requests, indexed by
  positions in the history (the next request's history is read at the same positions, as llama.cpp
  does). ``ngram-cache`` keeps its n-gram counts and its high-water mark per slot across requests.
  ``ngram-simple`` keeps nothing. :class:`ReplayState` carries all of it from one answer to the next
  answer of the same child.
* **Hashes and collisions.** ``ngram-mod``'s table (4 Mi entries, overwritten on collision) and the
  maps' hash index (256 Ki entries, first writer kept) are replayed with llama.cpp's own hash
  functions, so collisions land where they land in llama.cpp.
* **Ties in ngram-cache.** ``ngram-cache`` picks the first of equally frequent next tokens in the
  iteration order of a C++ ``std::unordered_map``; that order is replayed as libstdc++ lays it out
  (Linux builds). A build on another C++ library may break such ties differently.

Not replayed: ``ngram-cache``'s optional static and dynamic lookup files (llama.cpp loads them only
when their paths are set), drafter models, and synthetic acceptance.

The end of an answer: the token that ended it (end of generation) counts as an emitted token and
belongs to the replayed sequence (llama-server streams no logprobs entry for it, so callers append
it as ``end_token``). Tokens the target would have produced after the end are unknown: when a draft
matched every known token and proposed more, the round's acceptance is a lower bound and
:attr:`ReplayResult.exact` is False. With a ``max_tokens`` limit the server never drafts past it, so
an answer cut by the limit replays exactly.
"""

from __future__ import annotations

import copy
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

__all__ = [
    "LLAMA_CPP_BUILD",
    "PRIORITY",
    "XLLAMACPP_VERSION",
    "ReplayParams",
    "ReplayResult",
    "ReplayRound",
    "ReplayState",
    "replay",
]

#: The llama.cpp build vendored by xllamacpp 2026.10.11549 (its version's last part), whose sources
#: this module follows.
LLAMA_CPP_BUILD = "b11549"
XLLAMACPP_VERSION = "2026.10.11549"

#: llama.cpp's order of preference among the model-free types (``common_speculative_init``).
PRIORITY: tuple[str, ...] = ("ngram-simple", "ngram-map-k", "ngram-map-k4v", "ngram-mod", "ngram-cache")

#: ``ngram-cache`` drafts at most this many tokens per round: llama.cpp fixes it, whatever the
#: configured draft depth.
NGRAM_CACHE_N_DRAFT = 8

_U16 = 0xFFFF


# --- parameters ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class NgramModParams:
    """``params.speculative.ngram_mod`` (llama.cpp's defaults)."""

    n_match: int = 24
    n_max: int = 64
    n_min: int = 48


@dataclass(frozen=True)
class NgramMapParams:
    """``params.speculative.ngram_simple`` / ``ngram_map_k`` / ``ngram_map_k4v`` (llama.cpp's
    defaults): key n-gram size, draft (value) size, hits a k4v key needs before it drafts."""

    size_n: int = 12
    size_m: int = 48
    min_hits: int = 1


@dataclass(frozen=True)
class ReplayParams:
    """The settings the model-free types read; :meth:`from_settings` takes the dotted
    ``CommonParams`` paths Tandem writes (``speculative.ngram_mod.n_max`` ...)."""

    ngram_mod: NgramModParams = field(default_factory=NgramModParams)
    ngram_simple: NgramMapParams = field(default_factory=NgramMapParams)
    ngram_map_k: NgramMapParams = field(default_factory=NgramMapParams)
    ngram_map_k4v: NgramMapParams = field(default_factory=NgramMapParams)

    @classmethod
    def from_settings(cls, settings: Mapping[str, object]) -> ReplayParams:
        """Parameters from dotted ``CommonParams`` settings (e.g. a llama.cpp plan's ``settings``);
        what is not set keeps llama.cpp's default. Values are cut to the C++ field widths."""

        def num(key: str, default: int) -> int:
            value = settings.get(key, default)
            if isinstance(value, bool) or not isinstance(value, int | float | str):
                return default
            return int(value)

        def map_params(name: str) -> NgramMapParams:
            d = NgramMapParams()
            base = f"speculative.{name}."
            return NgramMapParams(
                num(base + "size_n", d.size_n) & _U16,
                num(base + "size_m", d.size_m) & _U16,
                num(base + "min_hits", d.min_hits) & _U16,
            )

        m = NgramModParams()
        return cls(
            ngram_mod=NgramModParams(
                num("speculative.ngram_mod.n_match", m.n_match) & _U16,
                num("speculative.ngram_mod.n_max", m.n_max),
                num("speculative.ngram_mod.n_min", m.n_min),
            ),
            ngram_simple=map_params("ngram_simple"),
            ngram_map_k=map_params("ngram_map_k"),
            ngram_map_k4v=map_params("ngram_map_k4v"),
        )


# --- results ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ReplayRound:
    """One pass of the target: ``drafted`` tokens proposed by ``method`` ("" for a plain step),
    ``accepted`` of them kept (as llama.cpp counts them), ``emitted`` tokens streamed."""

    drafted: int
    accepted: int
    emitted: int
    method: str = ""


@dataclass
class ReplayResult:
    """The rounds of one replayed answer, their totals, and the state to replay the next answer of
    the same child with."""

    rounds: list[ReplayRound]
    state: ReplayState
    #: False when a draft matched every known token and proposed more (its acceptance, and the
    #: totals, are then lower bounds: the target's tokens after the end are unknown)
    exact: bool = True

    @property
    def drafted_total(self) -> int:
        return sum(r.drafted for r in self.rounds)

    @property
    def accepted_total(self) -> int:
        return sum(r.accepted for r in self.rounds)

    @property
    def emitted_total(self) -> int:
        return sum(r.emitted for r in self.rounds)

    @property
    def round_count(self) -> int:
        return len(self.rounds)

    @property
    def drafting_rounds(self) -> int:
        return sum(1 for r in self.rounds if r.drafted)


# --- hashing helpers ----------------------------------------------------------------------------
def _window_hashes(tokens: Sequence[int], n: int, factor: int, bits: int) -> list[int]:
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


class _Sequence:
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
            self._mod[n] = _window_hashes(self.tokens, n, _MOD_FACTOR, _MOD_BITS)
        return self._mod[n]

    def lcg_hashes(self, n: int) -> list[int]:
        if n not in self._lcg:
            self._lcg[n] = _window_hashes(self.tokens, n, _LCG_FACTOR, 32)
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


# --- ngram-mod ----------------------------------------------------------------------------------
_MOD_FACTOR = 6364136223846793005
#: the pool has 4 Mi entries: a power of two, so the 64-bit hash is reduced modulo 2**22
_MOD_BITS = 22
_MOD_SIZE = 1 << _MOD_BITS
_MOD_RESET_OCCUPANCY = 0.25
_MOD_ADD_CHUNK = 32
_MOD_LOW_ACCEPT = 0.25
_MOD_LOW_STREAK = 5


@dataclass
class _ModPool:
    """``common_ngram_mod``: n-gram hash -> next token, shared by the slots of a child."""

    n: int
    table: dict[int, int] = field(default_factory=dict)

    @property
    def used(self) -> int:
        return len(self.table)

    def reset(self) -> None:
        self.table.clear()


@dataclass
class _ModSlot:
    i_last: int = 0
    n_draft_last: int = 0
    n_low: int = 0


class _NgramMod:
    name = "ngram-mod"

    def __init__(self, params: NgramModParams, pool: _ModPool, slot: _ModSlot) -> None:
        self.p = params
        self.pool = pool
        self.s = slot

    def _add(self, seq: _Sequence, start: int, stop: int) -> None:
        if start >= stop:
            return
        hashes = seq.mod_hashes(self.pool.n)
        tokens = seq.tokens
        n = self.pool.n
        table = self.pool.table
        for i in range(start, stop):
            table[hashes[i]] = tokens[i + n]

    def begin(self, seq: _Sequence, prompt_len: int) -> None:
        s, n = self.s, self.pool.n
        s.i_last = 0
        s.n_draft_last = 0
        if prompt_len < n:
            return
        self._add(seq, 0, prompt_len - n)
        s.i_last = prompt_len - n
        if self.pool.used / _MOD_SIZE > _MOD_RESET_OCCUPANCY:
            self.pool.reset()

    def draft(self, seq: _Sequence, cur_len: int) -> list[int]:
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
        f = _MOD_FACTOR & mask
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


# --- ngram-simple ------------------------------------------------------------------------------
class _NgramSimple:
    name = "ngram-simple"

    def __init__(self, params: NgramMapParams) -> None:
        self.n = params.size_n
        self.m = params.size_m

    def begin(self, seq: _Sequence, prompt_len: int) -> None:
        return None

    def draft(self, seq: _Sequence, cur_len: int) -> list[int]:
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


# --- ngram-map-k / ngram-map-k4v --------------------------------------------------------------------
_LCG_FACTOR = 2654435761
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
class _MapSlot:
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


class _NgramMap:
    def __init__(self, params: NgramMapParams, key_only: bool, slot: _MapSlot) -> None:
        self.n = params.size_n
        self.m = params.size_m
        self.min_hits = params.min_hits
        self.key_only = key_only
        self.s = slot
        self.name = "ngram-map-k" if key_only else "ngram-map-k4v"
        #: set when a read past the history was met (the replay is then not exact)
        self.undefined = False

    def begin(self, seq: _Sequence, prompt_len: int) -> None:
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

    def draft(self, seq: _Sequence, cur_len: int) -> list[int]:
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
        seq: _Sequence,
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


# --- ngram-cache --------------------------------------------------------------------------------
#: ``std::__detail::__prime_list`` of libstdc++ up to 2**22 (bucket counts of unordered containers)
_PRIMES = (
    2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97,
    103, 109, 113, 127, 137, 139, 149, 157, 167, 179, 193, 199, 211, 227, 241, 257, 277, 293, 313,
    337, 359, 383, 409, 439, 467, 503, 541, 577, 619, 661, 709, 761, 823, 887, 953, 1031, 1109, 1193,
    1289, 1381, 1493, 1613, 1741, 1879, 2029, 2179, 2357, 2549, 2753, 2971, 3209, 3469, 3739, 4027,
    4349, 4703, 5087, 5503, 5953, 6427, 6949, 7517, 8123, 8783, 9497, 10273, 11113, 12011, 12983,
    14033, 15173, 16411, 17749, 19183, 20753, 22447, 24281, 26267, 28411, 30727, 33223, 35933, 38873,
    42043, 45481, 49201, 53201, 57557, 62233, 67307, 72817, 78779, 85229, 92203, 99733, 107897,
    116731, 126271, 136607, 147793, 159871, 172933, 187091, 202409, 218971, 236897, 256279, 277261,
    299951, 324503, 351061, 379787, 410857, 444487, 480881, 520241, 562841, 608903, 658753, 712697,
    771049, 834181, 902483, 976369, 1056323, 1142821, 1236397, 1337629, 1447153, 1565659, 1693859,
    1832561, 1982627, 2144977, 2320627, 2510653, 2716249, 2938679, 3179303, 3439651, 3721303,
    4026031,
)  # fmt: skip
_FAST_BUCKETS = (2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13)


def _libstdcxx_order(keys: Sequence[int]) -> list[int]:
    """The iteration order of a ``std::unordered_map<llama_token, ...>`` after inserting ``keys``
    (distinct, in this order) into an empty one, as libstdc++ lays it out: the nodes of a bucket
    are contiguous, a node goes to the front of its bucket's run, a node of an empty bucket goes to
    the front of the list, a rehash relinks the nodes in their old order by that rule, and the
    bucket count grows by libstdc++'s prime rehash policy (maximum load factor 1)."""
    count, next_resize = 1, 0
    buckets: dict[int, list[int]] = {}
    order: list[int] = []  # buckets, the first in iteration order first

    def link(key: int) -> None:
        b = key % count
        run = buckets.get(b)
        if run is None:
            buckets[b] = [key]
            order.insert(0, b)
        else:
            run.insert(0, key)

    for n_elt, key in enumerate(keys):
        if n_elt + 1 > next_resize:
            min_buckets = max(n_elt + 1, 0 if next_resize else 11)
            if min_buckets >= count:
                wanted = max(min_buckets + 1, count * 2)
                if wanted < len(_FAST_BUCKETS):
                    new_count = _FAST_BUCKETS[wanted]
                else:
                    new_count = _PRIMES[min(bisect_right(_PRIMES, wanted - 1, lo=6), len(_PRIMES) - 1)]
                next_resize = new_count
                old = [k for b in order for k in buckets[b]]
                count, buckets, order = new_count, {}, []
                for k in old:
                    link(k)
            else:
                next_resize = count
        link(key)
    return [k for b in order for k in buckets[b]]


_CACHE_NGRAM_MIN = 1
_CACHE_NGRAM_MAX = 4
_CACHE_NGRAM_STATIC = 2
_CACHE_MIN_SAMPLES = (2, 2, 1, 1)
_CACHE_MIN_PERCENT = (66, 50, 50, 50)


@dataclass
class _CacheSlot:
    cache_size: int = 0
    #: n-gram -> next token -> count (a dict keeps the order of first insertion, which with
    #: :func:`_libstdcxx_order` gives llama.cpp's iteration order)
    context: dict[tuple[int, ...], dict[int, int]] = field(default_factory=dict)


class _NgramCache:
    name = "ngram-cache"

    def __init__(self, slot: _CacheSlot) -> None:
        self.s = slot

    def begin(self, seq: _Sequence, prompt_len: int) -> None:
        return None

    def draft(self, seq: _Sequence, cur_len: int) -> list[int]:
        s = self.s
        tokens = seq.tokens
        if s.cache_size < cur_len + 1:
            # only n-grams inside the new stretch (the history after the high-water mark, then
            # id_last) are counted, as llama.cpp updates from that stretch alone
            fresh = [*tokens[s.cache_size : cur_len], tokens[cur_len]]
            ctx = s.context
            for size in range(_CACHE_NGRAM_MIN, _CACHE_NGRAM_MAX + 1):
                for i in range(size, len(fresh)):
                    key = tuple(fresh[i - size : i])
                    part = ctx.get(key)
                    token = fresh[i]
                    if part is None:
                        ctx[key] = {token: 1}
                    else:
                        part[token] = part.get(token, 0) + 1
            s.cache_size = cur_len + 1
        inp_size = cur_len + 1  # the history and id_last
        if inp_size < _CACHE_NGRAM_STATIC:
            return []
        seqn = tokens[:inp_size]
        out: list[int] = []
        while len(out) < NGRAM_CACHE_N_DRAFT:
            drafted = self._try_draft(seqn)
            if drafted is None:
                break
            out.append(drafted)
            seqn.append(drafted)
        return out

    def _try_draft(self, seqn: list[int]) -> int | None:
        ctx = self.s.context
        for i in range(_CACHE_NGRAM_MAX - _CACHE_NGRAM_MIN, -1, -1):
            size = i + _CACHE_NGRAM_MIN
            if len(seqn) < size:
                continue
            part = ctx.get(tuple(seqn[len(seqn) - size :]))
            if part is None:
                continue
            counts = part
            best = max(counts.values())
            total = sum(counts.values())
            if total < _CACHE_MIN_SAMPLES[i] or 100 * best < _CACHE_MIN_PERCENT[i] * total:
                continue
            tied = [t for t, c in counts.items() if c == best]
            if len(tied) == 1:
                return tied[0]
            return next(t for t in _libstdcxx_order(list(counts)) if counts[t] == best)
        return None

    def accept(self, n_accepted: int) -> None:
        return None


# --- state --------------------------------------------------------------------------------------
@dataclass
class _SlotState:
    mod: _ModSlot = field(default_factory=_ModSlot)
    maps: dict[str, _MapSlot] = field(default_factory=dict)
    cache: _CacheSlot = field(default_factory=_CacheSlot)


class ReplayState:
    """What one llama.cpp child keeps between requests for one configuration of model-free types:
    ``ngram-mod``'s pool (shared by its slots) and each slot's own state. Updated in place by
    :func:`replay`; :meth:`copy` branches it."""

    def __init__(self, methods: Sequence[str], params: ReplayParams) -> None:
        self.methods = _methods(methods)
        self.params = params
        self.pool = _ModPool(params.ngram_mod.n_match & _U16)
        self.slots: dict[int, _SlotState] = {}

    def copy(self) -> ReplayState:
        return copy.deepcopy(self)

    def _impls(self, slot: int) -> list[_NgramSimple | _NgramMap | _NgramMod | _NgramCache]:
        st = self.slots.setdefault(slot, _SlotState())
        p = self.params
        impls: list[_NgramSimple | _NgramMap | _NgramMod | _NgramCache] = []
        for name in self.methods:
            if name == "ngram-simple":
                impls.append(_NgramSimple(p.ngram_simple))
            elif name == "ngram-map-k":
                impls.append(_NgramMap(p.ngram_map_k, True, st.maps.setdefault(name, _MapSlot())))
            elif name == "ngram-map-k4v":
                impls.append(_NgramMap(p.ngram_map_k4v, False, st.maps.setdefault(name, _MapSlot())))
            elif name == "ngram-mod":
                impls.append(_NgramMod(p.ngram_mod, self.pool, st.mod))
            else:
                impls.append(_NgramCache(st.cache))
        return impls


def _check(methods: tuple[str, ...], params: ReplayParams) -> None:
    sizes = {
        "ngram-mod": params.ngram_mod.n_match,
        "ngram-simple": params.ngram_simple.size_n,
        "ngram-map-k": params.ngram_map_k.size_n,
        "ngram-map-k4v": params.ngram_map_k4v.size_n,
    }
    small = [m for m in methods if sizes.get(m, 1) < 1]
    if small:
        raise ValueError(
            f"replay: the n-gram size of {', '.join(small)} must be at least 1 (llama.cpp refuses 0)"
        )


def _methods(methods: Sequence[str] | str) -> tuple[str, ...]:
    names = [m.strip() for m in (methods.split("+") if isinstance(methods, str) else methods)]
    names = [m for m in names if m]
    unknown = [m for m in names if m not in PRIORITY]
    if unknown or not names:
        raise ValueError(
            f"replay: {', '.join(unknown) or 'no method'} is not a llama.cpp model-free method "
            f"({', '.join(PRIORITY)})"
        )
    return tuple(m for m in PRIORITY if m in names)


# --- the server loop ----------------------------------------------------------------------------
_NO_LIMIT = 1 << 30


def replay(
    method: str | Sequence[str],
    params: ReplayParams | None,
    prompt_ids: Sequence[int],
    completion_ids: Sequence[int],
    state: ReplayState | None = None,
    *,
    end_token: int | None = None,
    max_tokens: int | None = None,
    n_ctx: int | None = None,
    slot: int = 0,
    rollback_limit: int | None = None,
) -> ReplayResult:
    """Replay what llama.cpp's ``method`` (one model-free type, or several joined with ``+``) drafts
    and gets accepted over one answer.

    ``prompt_ids`` are the prompt's tokens as the server saw them (chat template applied, special
    tokens added); ``completion_ids`` the emitted tokens, and ``end_token`` the end-of-generation
    token that ended the answer when it is not among them. ``max_tokens`` is the request's limit and
    ``n_ctx`` the slot's context (None: no limit), both of which cap a draft as the server does.
    ``state`` is the child's state after its earlier answers (None: a fresh child); it is updated
    in place and returned in the result. ``slot`` is the server slot that answered.

    ``rollback_limit`` is how many rejected draft tokens the target's memory drops in place: None
    for any number (a KV cache), 0 for none (a recurrent or hybrid target), n for a bounded
    recurrent state. Past it, llama.cpp restores a checkpoint after a partial acceptance and
    verifies the kept tokens again, which emits one more token of the target's without a draft and
    tells the drafter one more accepted token.
    """
    params = params or ReplayParams()
    methods = _methods(method)
    _check(methods, params)
    if state is None:
        state = ReplayState(methods, params)
    elif state.methods != methods or state.params != params:
        raise ValueError("replay: the state belongs to another configuration")
    generated = list(completion_ids) + ([end_token] if end_token is not None else [])
    prompt_len = len(prompt_ids)
    seq = _Sequence([*prompt_ids, *generated])
    total = len(generated)
    rounds: list[ReplayRound] = []
    exact = True
    if total == 0:
        return ReplayResult(rounds, state, exact)
    impls = state._impls(slot)
    for impl in impls:
        impl.begin(seq, prompt_len)
    tokens = seq.tokens
    rounds.append(ReplayRound(0, 0, 1))
    k = 1  # tokens emitted so far; the last one is id_last
    while k < total:
        cur_len = prompt_len + k - 1
        room = n_ctx - cur_len - 2 if n_ctx is not None and n_ctx > 0 else _NO_LIMIT
        if max_tokens is not None and max_tokens > 0 and max_tokens - k > 0:
            room = min(room, max_tokens - k - 1)
        draft: list[int] = []
        winner = None
        if room > 0:
            for impl in impls:
                draft = impl.draft(seq, cur_len)
                if draft:
                    winner = impl
                    break
        if winner is None or not draft:
            rounds.append(ReplayRound(0, 0, 1))
            k += 1
            continue
        draft = draft[:room]
        start = cur_len + 1
        known = total - k
        a = 0
        limit = min(len(draft), known)
        while a < limit and draft[a] == tokens[start + a]:
            a += 1
        if a == known and a < len(draft):
            exact = False
        rollback = len(draft) - a
        if rollback > 0 and rollback_limit is not None and rollback > rollback_limit:
            # the second pass verifies the a tokens and the target's own again, and adds one
            winner.accept(a + 1)
            emitted = min(a + 2, known)
            rounds.append(ReplayRound(len(draft), a, min(a + 1, emitted), winner.name))
            if emitted == a + 2:
                rounds.append(ReplayRound(0, 0, 1))
        else:
            winner.accept(a)
            emitted = min(a + 1, known)
            rounds.append(ReplayRound(len(draft), a, emitted, winner.name))
        k += emitted
    if any(isinstance(impl, _NgramMap) and impl.undefined for impl in impls):
        exact = False
    return ReplayResult(rounds, state, exact)
