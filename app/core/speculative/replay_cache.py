"""The replay of llama.cpp's ``ngram-cache`` (``common/ngram-cache.*``).

``ngram-cache`` counts, per slot and across requests, which token followed each n-gram of one to
four tokens, updating only from the history past its high-water mark; a draft extends the history
one token at a time from the longest n-gram whose counts are frequent and dominant enough, up to
:data:`NGRAM_CACHE_N_DRAFT` tokens whatever the configured depth.

Among equally frequent next tokens llama.cpp takes the first in the iteration order of a C++
``std::unordered_map``; :func:`libstdcxx_order` lays that order out as libstdc++ does (Linux
builds). A build on another C++ library may break such ties differently. The optional static and
dynamic lookup files are not replayed (llama.cpp loads them only when their paths are set).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from app.core.speculative.replay_history import TokenSequence

__all__ = ["NGRAM_CACHE_N_DRAFT", "CacheSlot", "NgramCache", "libstdcxx_order"]

#: ``ngram-cache`` drafts at most this many tokens per round: llama.cpp fixes it, whatever the
#: configured draft depth.
NGRAM_CACHE_N_DRAFT = 8

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


def libstdcxx_order(keys: Sequence[int]) -> list[int]:
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
class CacheSlot:
    cache_size: int = 0
    #: n-gram -> next token -> count (a dict keeps the order of first insertion, which with
    #: :func:`libstdcxx_order` gives llama.cpp's iteration order)
    context: dict[tuple[int, ...], dict[int, int]] = field(default_factory=dict)


class NgramCache:
    name = "ngram-cache"

    def __init__(self, slot: CacheSlot) -> None:
        self.s = slot

    def begin(self, seq: TokenSequence, prompt_len: int) -> None:
        return None

    def draft(self, seq: TokenSequence, cur_len: int) -> list[int]:
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
            return next(t for t in libstdcxx_order(list(counts)) if counts[t] == best)
        return None

    def accept(self, n_accepted: int) -> None:
        return None
