"""Suffix decoding's learned corpus: model-free drafts from prompts and earlier answers (issue 11).

The contract is the one of ``arctic_inference.suffix_decoding.SuffixDecodingCache`` (the suffix
trees behind vLLM's and vllm-metal's suffix decoding, arXiv 2411.04975):

* :meth:`SuffixCache.start_request` opens a request with its prompt (the request's own, *local*
  corpus: prompt lookup);
* :meth:`SuffixCache.add_active_response` appends committed tokens of the answer, to the local
  corpus and to the *global* one, where concurrent requests see it while it is still running;
* :meth:`SuffixCache.speculate` proposes a continuation of the context (its last
  ``max_tree_depth`` tokens): for every length of a context suffix that occurs (shorter than the
  context), it follows the most frequent child while the path probability (a product of
  child count / node count) stays at or above ``min_token_prob``, for at most
  ``max_spec_factor * match_len + max_spec_offset`` tokens and no deeper than the tree; the draft
  with the highest score (sum of the probabilities) wins, ties to the longer match and to the
  local corpus;
* :meth:`SuffixCache.stop_request` releases the request; its answer stays in the global corpus.

The drafts are arctic-inference 0.3.0's, checked step by step by ``tests/vllm`` (marker
``vllm``) against the real library on every workload there (a 200k-token corpus and concurrent
requests included): counts include occurrences with nothing after them yet (the context's own
end), probabilities and scores are computed in single precision, and equal counts are ordered as
arctic's sibling lists order them (:func:`_replay`, the tokens in the order they were appended).
The tree is kept read backwards (:class:`_Corpus`): a rare n-gram is the list of its occurrences,
a frequent one a node with its counts, so a proposal costs about the same on a large corpus as on
a small one.

Differences, each kept on purpose and covered by ``tests/vllm/test_suffix_reference.py``:

* **Openings** (``prompt_tail``, default the tree depth less one): a learned answer's first
  ``max_tree_depth`` tokens are also kept after the prompt's tail, in a corpus of their own, and
  a draft from it is taken only when its match reaches back into the prompt and it scores above
  both trees. A repeated question is then drafted from its answer's first token, where arctic
  needs the answer's first tokens to match (regenerating an answer: 7.99 accepted tokens per
  proposal vs 7.81); it lowered no workload's acceptance. ``prompt_tail=0``: none.
* Children with equal counts of an n-gram that lost occurrences (an answer evicted) while it was
  still a list of occurrences may be ordered otherwise than arctic orders them: a list keeps the
  occurrences that remain, not the order in which the others went.
* ``stop_request(learn=False)`` drops the answer from the global corpus (arctic keeps it); the
  global corpus is bounded in tokens (``max_cached_tokens``, oldest first) where arctic counts
  requests; an unknown request raises ``KeyError`` where arctic raises ``ValueError``.

Why not arctic-inference itself: it is sdist-only and its ``setup.py`` imports torch to find CMake,
so ``pip install`` fails on a clean machine without torch (see ``docs/architecture-notes.md``).

:class:`SuffixStore` persists the global corpus in the user data dir (one JSON-lines file per
tokenizer vocabulary), bounded by a size limit (oldest dropped first), with the conversation each
answer came from, so deleting a conversation deletes what was learned from it; :func:`forget_all`
is Settings' "Forget learned text".
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import struct
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: Longest match the tree looks for (arctic-inference's ``max_tree_depth`` default).
MAX_TREE_DEPTH = 64
#: Prompt tokens kept in front of each learned answer's opening (a match is shorter than the
#: tree is deep, so more would never be matched).
PROMPT_TAIL = MAX_TREE_DEPTH - 1
#: Default size limit of the persisted corpus per vocabulary, in tokens (about 1.6 MB on disk).
DEFAULT_MAX_TOKENS = 200_000
#: arctic-inference / vLLM defaults for the draft bounds.
DEFAULT_SPEC_FACTOR = 1.0
DEFAULT_MIN_TOKEN_PROB = 0.1


@dataclass(frozen=True)
class Draft:
    """A proposed continuation: ``token_ids[i]`` with its path probability ``probs[i]``."""

    token_ids: tuple[int, ...] = ()
    probs: tuple[float, ...] = ()
    #: length of the context suffix the continuation was found after
    match_len: int = 0
    #: sum of ``probs`` (arctic-inference's score): the expected number of accepted tokens
    score: float = 0.0


#: A draft's fields (:class:`Draft`) as a corpus finds them.
_Found = tuple[tuple[int, ...], tuple[float, ...], int, float]
_NONE: _Found = ((), (), 0, 0.0)

_FLOAT = struct.Struct("<f")
_FLOAT_MAX = 3.4e38


_pack, _unpack = _FLOAT.pack, _FLOAT.unpack


def _f32(x: float) -> float:
    """``x`` rounded to single precision: arctic's tree computes probabilities and scores in
    ``float``, and equal scores decide between match lengths and between the two trees."""
    value: float = _unpack(_pack(x))[0]
    return value


@functools.lru_cache(maxsize=256)
def _limits(max_tokens: int, factor: float, offset: float, max_depth: int) -> tuple[int, ...]:
    """The longest draft after a match of each length (index): ``max_spec_factor * match_len +
    max_spec_offset`` computed as arctic does, at most ``max_tokens``, and no deeper than the tree."""
    out = [0]
    for match_len in range(1, max_depth + 1):
        value = _f32(min(_FLOAT_MAX, _f32(min(_FLOAT_MAX, match_len * factor)) + offset)) + 1e-6
        out.append(min(max_tokens, max(0, int(min(value, 1 << 30))), max_depth - match_len))
    return tuple(out)


@functools.lru_cache(maxsize=64)
def _bounds_args(
    depth: int, max_tokens: int, factor: float, offset: float, min_prob: float
) -> tuple[int, int, float, float, float]:
    """A proposal's bounds as arctic's tree holds them (single precision, finite)."""

    def f32(x: float) -> float:
        return _f32(max(-_FLOAT_MAX, min(_FLOAT_MAX, x)))

    return depth, max_tokens, f32(factor), f32(offset), f32(min_prob)


def _most(counts: dict[int, int]) -> tuple[int, int, bool]:
    """(the most frequent token, its count, whether another token has that count too)."""
    best, most, tied = -1, 0, False
    for tok, n in counts.items():
        if n > most:
            best, most, tied = tok, n, False
        elif n == most:
            tied = True
    return best, most, tied


def _replay(order: list[int], counts: dict[int, int], events: Iterable[int]) -> None:
    """Apply child events (a token: one more occurrence, ``~token``: one fewer) to a node's list
    of children as arctic's tree orders it: by count, and among equal counts as its sibling list
    moves a child (a child that reaches a count joins the others with that count at the front if
    it led the ones with its old count, else at the back; a new child goes last)."""
    for e in events:
        if e >= 0:
            c = counts.get(e, 0)
            counts[e] = c + 1
            if c == 0:
                order.append(e)
                continue
            i = order.index(e)
            if i == 0:
                continue
            above = counts[order[i - 1]]
            if above > c + 1:
                continue
            j = i - 1
            while j > 0 and counts[order[j - 1]] == above:
                j -= 1
            del order[i]
            order.insert(j, e)
        else:
            t = ~e
            c = counts[t]
            i = order.index(t)
            if c == 1:
                del order[i]
                del counts[t]
                continue
            counts[t] = c - 1
            if i + 1 == len(order) or counts[order[i + 1]] < c:
                continue
            j = i + 1
            while j < len(order) and counts[order[j]] == c:
                j += 1
            del order[i]
            order.insert(j - 1, t)


class _Seq(list[int]):
    """A corpus sequence: its tokens, and when each was appended (``stamps``, the corpus clock)."""

    __slots__ = ("stamps",)

    def __init__(self) -> None:
        super().__init__()
        self.stamps: list[int] = []


_Hit = tuple[_Seq, int]  # (sequence, position of an n-gram's last token)


def _room(hit: _Hit) -> int:
    """Tokens after an occurrence."""
    return len(hit[0]) - hit[1] - 1


def _after(hits: Iterable[_Hit]) -> list[int]:
    """The tokens after the occurrences ``hits``, in the order they were appended (the events
    that ordered the children of their node in arctic's tree)."""
    return [tok for _stamp, tok in sorted((s.stamps[p + 1], s[p + 1]) for s, p in hits if p + 1 < len(s))]


def _head_of(events: list[int]) -> int:
    order: list[int] = []
    _replay(order, {}, events)
    return order[0]


def _agree(seq: _Seq, p: int, ctx: list[int], m: int, longest: int) -> int:
    """How many of the context's last tokens the occurrence ending at ``p`` matches (at most
    ``longest``), knowing that it matches the last ``m``; compared a slice at a time."""
    n = len(ctx)
    if m >= longest or p < m or seq[p - m] != ctx[n - 1 - m]:
        return m  # most occurrences: no further
    limit = min(longest, p + 1)
    if p + 1 == len(seq) and seq[p - limit + 1 : p - m + 1] == ctx[n - limit : n - m]:
        return limit  # all the way: the context's own end, in the corpus it was added to
    while m < limit:
        k = min(8, limit - m)
        if seq[p - m - k + 1 : p - m + 1] == ctx[n - m - k : n - m]:
            m += k
            continue
        while seq[p - m] == ctx[n - 1 - m]:
            m += 1
        return m
    return m


def _narrow(hits: list[_Hit], depth: int, label: list[int]) -> list[_Hit]:
    """The occurrences of ``label`` among ``hits``, the occurrences of its last ``depth`` tokens."""
    size = len(label)
    if depth >= size:
        return hits
    back, want = size - 1, label[: size - depth]
    return [h for h in hits if h[1] >= back and h[0][h[1] - back : h[1] - depth + 1] == want]


def _best_length(sums: list[float], size: int, limits: Sequence[int]) -> tuple[float, int]:
    """(the best score of a path of ``size`` tokens among match lengths whose drafts are at most
    ``limits`` long, the index of the first, i.e. longest, match length with it); ``sums[k]``:
    the score of the path's first ``k`` tokens (it grows with ``k``)."""
    if len(limits) == 1:
        k = limits[0]
        return sums[k if k < size else size], 0
    values = [sums[k if k < size else size] for k in limits]
    value = max(values)
    return value, values.index(value)


#: Occurrences of an n-gram kept as a list before it becomes a :class:`_Node` with its own counts.
HEAVY = 16
#: Margin of the early stop of a path (single-precision sums may round a little above the bound).
_SLACK = 1e-3


class _Node:
    """A frequent n-gram: a node of the suffix tree that reached :data:`HEAVY` occurrences.

    ``count``: its occurrences; ``kids``: token -> occurrences followed by it; ``buckets``: count
    -> the children with that count in arctic's order (:func:`_replay`'s rules, applied as each
    event comes), ``top`` the highest count (0: no child); ``back``: the token before it -> the
    longer n-gram (a node, or the list of its occurrences while it has fewer); ``fwd``: token ->
    the n-gram followed by that token: its node, or the list of occurrences that holds its own
    (:meth:`_Corpus._locate`; found once, dropped with the child, looked up again once the list
    is emptied).
    """

    __slots__ = ("back", "buckets", "count", "fwd", "kids", "top")

    def __init__(self) -> None:
        self.count = 0
        self.kids: dict[int, int] = {}
        self.buckets: dict[int, list[int]] = {}
        self.top = 0
        self.back: dict[int, _Node | list[_Hit]] = {}
        self.fwd: dict[int, _Node | tuple[list[_Hit], int]] = {}

    def bump(self, tok: int) -> None:
        """One more occurrence followed by ``tok``: it joins the children with its new count at
        the front if it led those with its old count, else at the back (a new child: last)."""
        kids, buckets = self.kids, self.buckets
        c = kids.get(tok, 0)
        kids[tok] = c + 1
        first = False
        if c:
            old = buckets[c]
            if old[0] == tok:
                first = True
                del old[0]
            else:
                old.remove(tok)
            if not old:
                del buckets[c]
        new = buckets.get(c + 1)
        if new is None:
            buckets[c + 1] = [tok]
        elif first:
            new.insert(0, tok)
        else:
            new.append(tok)
        if c >= self.top:
            self.top = c + 1

    def unbump(self, tok: int) -> None:
        """One occurrence followed by ``tok`` fewer: it leads the children with its new count."""
        kids, buckets = self.kids, self.buckets
        c = kids[tok]
        old = buckets[c]
        old.remove(tok)
        if not old:
            del buckets[c]
            if c == self.top:
                self.top = c - 1
        if c > 1:
            kids[tok] = c - 1
            new = buckets.get(c - 1)
            if new is None:
                buckets[c - 1] = [tok]
            else:
                new.insert(0, tok)
        else:
            del kids[tok]
            self.fwd.pop(tok, None)

    def order(self) -> list[int]:
        """The children in arctic's order."""
        return [tok for c in sorted(self.buckets, reverse=True) for tok in self.buckets[c]]


class _Corpus:
    """Token sequences with the statistics of a depth-limited suffix tree over them (arctic's
    counts, exactly, whatever the corpus size).

    The tree is kept read backwards from an n-gram's last token: the root's ``back`` maps a token
    to its 1-gram, a node's ``back`` maps the token before its n-gram to the longer one. An n-gram
    is the list of its occurrences until it has :data:`HEAVY` of them; then it becomes a
    :class:`_Node` whose counts follow every token appended or removed, and its occurrences go a
    level down. The context's matches of every length are one walk down from the root; a draft
    follows the most frequent child through the nodes' counts, then through the occurrences.
    """

    def __init__(self, max_depth: int = MAX_TREE_DEPTH) -> None:
        self.max_depth = max_depth
        self.seqs: dict[int, _Seq] = {}
        self._root = _Node()
        self._clock = 0

    def add(self, sid: int, tokens: Sequence[int]) -> None:
        self.seqs[sid] = _Seq()
        self.extend(sid, tokens)

    def extend(self, sid: int, tokens: Sequence[int]) -> None:
        seq = self.seqs[sid]
        stamps = seq.stamps
        root, limit = self._root, self.max_depth
        for raw in tokens:
            t = int(raw)
            p = len(seq)
            seq.append(t)
            stamps.append(self._clock)
            self._clock += 1
            # the frequent n-grams ending just before t gain a child occurrence: t (this walk and
            # its twin in remove stay inline: a loaded store runs them for each of its tokens,
            # and a shared helper made loading 200k tokens ~10% slower)
            x, d = root, 0
            while d < p and d < limit:
                y = x.back.get(seq[p - 1 - d])
                if not isinstance(y, _Node):
                    break
                y.bump(t)
                x, d = y, d + 1
            # every n-gram ending with t gains an occurrence
            x, d = root, 0
            while True:
                if d:
                    x.count += 1
                if d > p or d >= limit:
                    break  # it starts the sequence, or the tree is no deeper
                key = seq[p - d]
                y = x.back.get(key)
                if y is None:
                    x.back[key] = [(seq, p)]
                    break
                if isinstance(y, _Node):
                    x, d = y, d + 1
                    continue
                y.append((seq, p))
                if len(y) >= HEAVY:
                    x.back[key] = self._promote(y, d + 1)
                    y.clear()  # a draft path that kept it looks the n-gram up again
                break

    def _promote(self, hits: list[_Hit], depth: int) -> _Node:
        """The node of an n-gram of ``depth`` tokens whose occurrences are ``hits``."""
        node = _Node()
        node.count = len(hits)
        for tok in _after(hits):
            node.bump(tok)
        if depth < self.max_depth:
            lists: dict[int, list[_Hit]] = {}
            for hit in hits:
                seq, p = hit
                if p >= depth:
                    lists.setdefault(seq[p - depth], []).append(hit)
            back = node.back
            for key, lst in lists.items():
                back[key] = self._promote(lst, depth + 1) if len(lst) >= HEAVY else lst
        return node

    def remove(self, sid: int) -> None:
        seq = self.seqs.pop(sid, None)
        if seq is None:
            return
        root, limit = self._root, self.max_depth
        for p, t in enumerate(seq):
            x, d = root, 0  # (extend's walk, with unbump)
            while d < p and d < limit:
                y = x.back.get(seq[p - 1 - d])
                if not isinstance(y, _Node):
                    break
                y.unbump(t)
                x, d = y, d + 1
            x, d = root, 0
            while True:
                if d:
                    x.count -= 1
                if d > p or d >= limit:
                    break
                key = seq[p - d]
                y = x.back[key]
                if isinstance(y, _Node):
                    if y.count == 1:  # its last occurrence: the n-gram is gone
                        del x.back[key]
                        break
                    x, d = y, d + 1
                    continue
                for i, (s, q) in enumerate(y):
                    if q == p and s is seq:
                        del y[i]
                        break
                if not y:
                    del x.back[key]
                break

    def count(self, gram: Sequence[int]) -> int:
        """Occurrences of ``gram`` (for tests)."""
        found = self._find(list(gram))
        return found.count if isinstance(found, _Node) else len(found)

    def _find(self, label: list[int]) -> _Node | list[_Hit]:
        """The node of the n-gram ``label``, or the list of its occurrences (empty: none)."""
        found = self._locate(label)
        return found if isinstance(found, _Node) else _narrow(*found, label)

    def _locate(self, label: list[int]) -> _Node | tuple[list[_Hit], int]:
        """The node of the n-gram ``label``, or the list of occurrences of its last tokens that
        holds its own, with how many tokens that list is of."""
        x, d, size = self._root, 0, len(label)
        while d < size:
            y = x.back.get(label[size - 1 - d])
            d += 1
            if y is None:
                return [], d
            if not isinstance(y, _Node):
                return y, d
            x = y
        return x

    def speculate(
        self,
        ctx: list[int],
        max_depth: int,
        max_tokens: int,
        factor: float,
        offset: float,
        min_prob: float,
        min_match: int = 0,
        beat: float = 0.0,
    ) -> _Found:
        """The best path after some suffix of ``ctx`` (shorter than ``ctx``), as arctic's
        ``SuffixTree.speculate``: every match length is tried, the highest score wins, ties go to
        the longer match. Only matches longer than ``min_match`` count, and only a score above
        ``beat`` (another corpus's best): else no tokens. The fields of a :class:`Draft`."""
        n = len(ctx)
        longest = n - 1
        if longest <= min_match or not self.seqs:
            return _NONE
        # the frequent n-grams ending the context (nodes[k - 1]: its last k tokens), then the
        # occurrences of the first rare one, each with how far back it matches the context
        nodes: list[_Node] = []
        x: _Node = self._root
        leaf: list[_Hit] = []
        for tok in ctx[:0:-1]:  # the last token first; a match is shorter than the context
            y = x.back.get(tok)
            if y is None:
                break
            if not isinstance(y, _Node):
                leaf = y
                break
            nodes.append(y)
            x = y
        heavy = len(nodes)
        # (longest, shortest match length, occurrences): lengths with the same
        # occurrences follow the same path (only their bounds differ)
        groups: list[tuple[int, int, list[_Hit]]] = []
        first = heavy + 1  # how far back every occurrence of the leaf matches
        if leaf and min_match >= first:
            # only occurrences that match more than ``min_match`` count: one slice each
            tail, back = ctx[n - 1 - min_match :], min_match
            leaf = [(seq, p) for seq, p in leaf if p >= back and seq[p - back : p + 1] == tail]
            first = min_match + 1
        if leaf:
            if first < longest:
                # most occurrences match no further back: only those that do are compared on
                want = ctx[n - 1 - first]
                agreed = [
                    first if p < first or seq[p - first] != want else _agree(seq, p, ctx, first, longest)
                    for seq, p in leaf
                ]
            else:
                agreed = [first] * len(leaf)
            lengths = sorted(set(agreed), reverse=True)
            if len(lengths) == 1:
                groups.append((lengths[0], first, leaf))
            else:
                for i, hi in enumerate(lengths):
                    lo = lengths[i + 1] + 1 if i + 1 < len(lengths) else first
                    hits = [hit for hit, m in zip(leaf, agreed, strict=True) if m >= hi]
                    groups.append((hi, lo, hits))
        top = groups[0][0] if groups else heavy
        if top <= min_match:
            return _NONE
        score, found, found_len = beat, 0, 0
        tokens: list[int] = []
        probs: list[float] = []
        bounds = _limits(max_tokens, factor, offset, max_depth)
        for hi, lo, occurrences in groups:
            if hi <= min_match:
                break
            for seq, p in occurrences:
                if p + 1 < len(seq):
                    break
            else:
                continue  # nothing after any of them yet (the context's own end)
            lo = max(lo, min_match + 1)
            limits = bounds[hi : lo - 1 : -1]
            most = max(limits)
            if most <= score:
                continue  # even a draft of certain tokens would not score more
            path, chances, sums = self._follow(ctx[n - hi :], None, occurrences, most, min_prob, score)
            size = len(path)
            if not size:
                continue
            value, i = _best_length(sums, size, limits)
            if value > score:
                score, found, found_len = value, min(limits[i], size), hi - i
                tokens, probs = path, chances
        # The frequent n-grams, most promising first: no draft from one scores more than its
        # bound (its first token's probability times the longest draft allowed after it). A run
        # of them with as many occurrences has the same occurrences: one path.
        ranked: list[tuple[float, int, int, _Node]] = []  # (-bound, -longest, shortest, node)
        k = min(heavy, longest)
        while k > min_match:
            node = nodes[k - 1]
            lo = k
            while lo - 1 > min_match and nodes[lo - 2].count == node.count:
                lo -= 1
            most = max(bounds[k : lo - 1 : -1])
            if node.top and most:
                ranked.append((-most * node.top / node.count, -k, lo, node))
            k = lo - 1
        ranked.sort()  # the highest bound first, then the longer match (-k is never equal)
        for bound, minus_hi, lo, node in ranked:
            if _SLACK - bound <= score:
                break
            hi = -minus_hi
            limits = bounds[hi : lo - 1 : -1]
            path, chances, sums = self._follow(ctx[n - hi :], node, None, max(limits), min_prob, score)
            size = len(path)
            if not size:
                continue
            value, i = _best_length(sums, size, limits)
            if value > score or (found and value == score and hi - i > found_len):
                score, found, found_len = value, min(limits[i], size), hi - i
                tokens, probs = path, chances
        if not found:
            return (), (), top, beat
        return tuple(tokens[:found]), tuple(probs[:found]), found_len, score

    def _follow(
        self,
        label: list[int],
        node: _Node | None,
        cur: list[_Hit] | None,
        limit: int,
        min_prob: float,
        beat: float,
    ) -> tuple[list[int], list[float], list[float]]:
        """Follow the most frequent child from the n-gram ``label`` (its ``node``, or its
        occurrences ``cur``): (tokens, probabilities, running scores from 0). It stops early
        where no longer draft could score above ``beat``: even if every further token were as
        likely as the last one."""
        tokens: list[int] = []
        probs: list[float] = []
        sums = [0.0]
        score = 0.0
        prob = 1.0
        pack, unpack = _pack, _unpack
        while node is not None and len(tokens) < limit:
            n = node.top
            if not n:
                return tokens, probs, sums
            tok = node.buckets[n][0]
            total = node.count
            if n != total:
                prob = unpack(pack(prob * unpack(pack(n / total))[0]))[0]
                if prob < min_prob:
                    return tokens, probs, sums
            tokens.append(tok)
            probs.append(prob)
            score = unpack(pack(score + prob))[0]
            sums.append(score)
            if score + prob * (limit - len(tokens)) + _SLACK <= beat:
                return tokens, probs, sums
            nxt = node.fwd.get(tok)
            if nxt is None or (not isinstance(nxt, _Node) and not nxt[0]):  # unknown, or stale
                nxt = self._locate(label + tokens)
                if isinstance(nxt, _Node) or nxt[0]:
                    node.fwd[tok] = nxt
            if not isinstance(nxt, _Node):
                node, cur = None, _narrow(*nxt, label + tokens)
                break
            node = nxt
        while cur and len(tokens) < limit:
            if len(cur) == 1:  # one occurrence: its next tokens, each as likely as the last
                seq, p = cur[0]
                rest = seq[p + 1 : p + 1 + limit - len(tokens)]
                if sums[-1] + prob * len(rest) + _SLACK <= beat:
                    break
                tokens += rest
                probs += [prob] * len(rest)
                score = sums[-1]
                for _ in rest:
                    score = unpack(pack(score + prob))[0]
                    sums.append(score)
                break
            # The next token after each occurrence (None: it ends there). Where two differ, the
            # path branches here: the most frequent of them goes on.
            nexts = [seq[p + 1] if p + 1 < len(seq) else None for seq, p in cur]
            going = set(nexts)
            going.discard(None)
            if not going:
                break  # every occurrence ends here
            if len(going) > 1:
                after: dict[int, list[_Hit]] = {}  # next token -> the occurrences it follows
                for (seq, p), nxt_tok in zip(cur, nexts, strict=True):
                    if nxt_tok is not None:
                        group = after.get(nxt_tok)
                        if group is None:
                            after[nxt_tok] = [(seq, p + 1)]
                        else:
                            group.append((seq, p + 1))
                total = len(cur)
                tok, n, tied = _most({t: len(group) for t, group in after.items()})
                if tied:
                    # arctic's order of equal counts; children seen once each: as appended
                    if n == 1:
                        tok = min((seq.stamps[p], seq[p]) for group in after.values() for seq, p in group)[1]
                    else:
                        tok = _head_of(_after(cur))
                if n != total:
                    prob = unpack(pack(prob * unpack(pack(n / total))[0]))[0]
                    if prob < min_prob:
                        break
                tokens.append(tok)
                probs.append(prob)
                score = unpack(pack(sums[-1] + prob))[0]
                sums.append(score)
                if score + prob * (limit - len(tokens)) + _SLACK <= beat:
                    break
                cur = after[tok]
                continue
            # Along a stretch where no occurrence goes on with another token than the others
            # (some may end: the count drops), the path is known without a pass per token.
            want = limit - len(tokens)
            seq0, p0 = max(cur, key=_room) if _room(cur[0]) < want else cur[0]
            ref = seq0[p0 + 1 : p0 + 1 + want]
            safe = len(ref)
            head = ref
            agree: list[int] = []
            for seq, p in cur:
                seg = seq[p + 1 : p + 1 + safe]
                if seg == head:
                    k = safe
                else:
                    k = 0
                    size = len(seg)
                    while k < size and seg[k] == head[k]:
                        k += 1
                    if k < size:  # another token after ref[:k]: a real branch there
                        safe = k
                        head = ref[:k]
                        if not safe:
                            break
                agree.append(k)
            if safe and min(agree) >= safe:
                # every occurrence goes on with the whole stretch: each token as likely as the
                # last (a draft stopped inside it could not score more than one that goes on)
                tokens += ref[:safe]
                probs += [prob] * safe
                score = sums[-1]
                for _ in range(safe):
                    score = unpack(pack(score + prob))[0]
                    sums.append(score)
                if len(tokens) >= limit or score + prob * (limit - len(tokens)) + _SLACK <= beat:
                    break
                cur = [(seq, p + safe) for seq, p in cur]
                continue
            alive = [0] * (safe + 2)  # alive[k]: occurrences that go on with ref[:k]
            if safe:
                for k in agree:
                    alive[min(k, safe)] += 1
                for k in range(safe, -1, -1):
                    alive[k] += alive[k + 1]
            taken = 0
            while taken < safe:
                total, n = alive[taken], alive[taken + 1]
                if n == 0:
                    return tokens, probs, sums  # every occurrence ends here
                if n != total:
                    prob = _f32(prob * _f32(n / total))
                    if prob < min_prob:
                        return tokens, probs, sums
                tokens.append(ref[taken])
                probs.append(prob)
                score = _f32(sums[-1] + prob)
                sums.append(score)
                if score + prob * (limit - len(tokens)) + _SLACK <= beat:
                    return tokens, probs, sums
                taken += 1
            if len(tokens) >= limit:
                break
            if not taken:
                break  # every occurrence ends here
            cur = [(seq, p + taken) for (seq, p), k in zip(cur, agree, strict=True) if k >= taken]
        return tokens, probs, sums


class SuffixCache:
    """Active requests (local corpora) and the global corpus of answers; thread-safe.

    ``prompt_tail`` (default: the tree depth less one) prompt tokens are kept in front of each
    learned answer's opening (0: none, the drafts are arctic-inference's).
    """

    def __init__(
        self,
        max_tree_depth: int = MAX_TREE_DEPTH,
        max_cached_tokens: int | None = None,
        *,
        prompt_tail: int | None = None,
    ) -> None:
        if max_tree_depth < 1:
            raise ValueError(f"max_tree_depth must be at least 1 (got {max_tree_depth})")
        self.max_tree_depth = max_tree_depth
        self.max_cached_tokens = max_cached_tokens
        self.prompt_tail = max(0, max_tree_depth - 1 if prompt_tail is None else prompt_tail)
        self._lock = threading.Lock()
        self._global = _Corpus(max_tree_depth)
        #: learned answers' openings (prompt tail + first tokens), under their global ids
        self._openings = _Corpus(max_tree_depth)
        self._local: dict[Any, _Corpus] = {}
        self._prompts: dict[Any, list[int]] = {}
        self._responses: dict[Any, list[int]] = {}
        #: active request -> id of its (growing) answer in the global corpus
        self._active: dict[Any, int] = {}
        #: learned global sequence id -> (conversation key or None, tokens), oldest first
        self._entries: OrderedDict[int, tuple[str | None, int]] = OrderedDict()
        self._next_sid = 0
        self._tokens = 0

    # --- requests -------------------------------------------------------------------------------

    @property
    def active_requests(self) -> frozenset[Any]:
        with self._lock:
            return frozenset(self._local)

    def start_request(self, req_id: Any, prompt_ids: Sequence[int]) -> None:
        with self._lock:
            if req_id in self._local:
                raise ValueError(f"request {req_id!r} is already active")
            corpus = _Corpus(self.max_tree_depth)
            corpus.add(0, prompt_ids)
            self._local[req_id] = corpus
            self._prompts[req_id] = [int(t) for t in prompt_ids]
            self._responses[req_id] = []
            sid = self._next_sid
            self._next_sid += 1
            self._global.add(sid, [])
            self._active[req_id] = sid

    def add_active_response(self, req_id: Any, token_ids: Sequence[int]) -> None:
        with self._lock:
            corpus = self._local.get(req_id)
            if corpus is None:
                raise KeyError(f"request {req_id!r} is not active")
            tokens = [int(t) for t in token_ids]
            corpus.extend(0, tokens)
            self._responses[req_id].extend(tokens)
            sid = self._active[req_id]
            if sid in self._global.seqs:
                self._global.extend(sid, tokens)

    def stop_request(
        self, req_id: Any, *, learn: bool = True, conversation: str | None = None
    ) -> tuple[list[int], list[int]] | None:
        """Release the request; with ``learn`` its answer stays in the global corpus (and its
        opening after the prompt's tail), without it the answer is dropped.

        Returns (prompt tail, response) that was learned, or None when nothing was.
        """
        with self._lock:
            if self._local.pop(req_id, None) is None:
                raise KeyError(f"request {req_id!r} is not active")
            prompt = self._prompts.pop(req_id)
            response = self._responses.pop(req_id)
            sid = self._active.pop(req_id)
            if not learn or not response:
                self._global.remove(sid)
                return None
            tail = prompt[-self.prompt_tail :] if self.prompt_tail else []
            self._keep(sid, tail, response, conversation)
            return tail, response

    def speculate(
        self,
        req_id: Any,
        context: Sequence[int],
        max_spec_tokens: int,
        max_spec_factor: float = DEFAULT_SPEC_FACTOR,
        max_spec_offset: float = 0.0,
        min_token_prob: float = DEFAULT_MIN_TOKEN_PROB,
        use_global: bool = True,
    ) -> Draft:
        """The best continuation of ``context`` from the request's own text and (``use_global``)
        the global corpus; empty when nothing matches or ``max_spec_tokens`` < 1."""
        if max_spec_tokens < 1:
            return Draft()
        depth = self.max_tree_depth
        tail = context[-depth:]
        args = _bounds_args(
            self.max_tree_depth, max_spec_tokens, max_spec_factor, max_spec_offset, min_token_prob
        )
        with self._lock:
            local = self._local.get(req_id)
            if local is None:
                raise KeyError(f"request {req_id!r} is not active")
            # the context is usually the request's own text so far, held as ints already
            own = local.seqs[0]
            if type(tail) is list and len(context) == len(own) and own[-depth:] == tail:
                ctx = own[-depth:]
            else:
                ctx = list(map(int, tail))
            best = local.speculate(ctx, *args)
            if use_global:
                other = self._global.speculate(ctx, *args, 0, best[3])
                if other[3] > best[3]:
                    best = other
                if self._openings.seqs:
                    # only a match that reaches back into the prompt: the same question again
                    answered = len(self._responses[req_id])
                    opening = self._openings.speculate(ctx, *args, answered, best[3])
                    if opening[3] > best[3]:
                        best = opening
            return Draft(*best)

    # --- the global corpus ------------------------------------------------------------------------

    @property
    def cached_tokens(self) -> int:
        with self._lock:
            return self._tokens

    @property
    def cached_responses(self) -> int:
        with self._lock:
            return len(self._entries)

    def learn(
        self, prompt_tail: Sequence[int], response: Sequence[int], conversation: str | None = None
    ) -> None:
        """Add a finished (prompt tail, response) to the global corpus (used to replay a store)."""
        with self._lock:
            tail = list(prompt_tail)[-self.prompt_tail :] if self.prompt_tail else []
            sid = self._next_sid
            self._next_sid += 1
            answer = [int(t) for t in response]
            self._global.add(sid, answer)
            self._keep(sid, [int(t) for t in tail], answer, conversation)

    def _keep(self, sid: int, tail: list[int], response: list[int], conversation: str | None) -> None:
        """The answer ``sid`` (in the global corpus) is learned; its opening joins the openings."""
        if tail:
            self._openings.add(sid, [*tail, *response[: self.max_tree_depth]])
        n = len(tail) + len(response)
        self._entries[sid] = (conversation, n)
        self._tokens += n
        self._evict()

    def _evict(self) -> None:
        limit = self.max_cached_tokens
        while limit is not None and self._tokens > limit and len(self._entries) > 1:
            old, (_conv, size) = self._entries.popitem(last=False)
            self._global.remove(old)
            self._openings.remove(old)
            self._tokens -= size

    def forget_conversation(self, conversation: str) -> int:
        """Drop every learned answer of ``conversation``; returns how many were dropped."""
        with self._lock:
            gone = [sid for sid, (conv, _n) in self._entries.items() if conv == conversation]
            for sid in gone:
                _conv, size = self._entries.pop(sid)
                self._global.remove(sid)
                self._openings.remove(sid)
                self._tokens -= size
            return len(gone)

    def forget_all(self) -> None:
        """Drop every learned answer (the answers of active requests stay until they stop)."""
        with self._lock:
            for sid in self._entries:
                self._global.remove(sid)
            self._openings = _Corpus(self.max_tree_depth)
            self._entries.clear()
            self._tokens = 0


# --- conversation keys ------------------------------------------------------------------------------


def conversation_key(system_prompt: str, first_user_message: str) -> str:
    """The key learned answers are stored under: the conversation's system prompt and first question.

    The engine sees messages, not conversation ids; the chat store computes the same key from a
    conversation it deletes (:func:`key_for_messages` / :func:`forget_conversation`). Regenerate and
    edit-and-resend of a later message keep the key; two conversations that start with the very
    same question share it (deleting one forgets what both taught: the safe direction).
    """
    digest = hashlib.sha256(f"{system_prompt}\x00{first_user_message}".encode()).hexdigest()
    return digest[:24]


def key_for_messages(messages: Iterable[Mapping[str, Any]]) -> str | None:
    system = ""
    for m in messages:
        role, content = m.get("role"), str(m.get("content") or "")
        if role == "system" and not system:
            system = content
        elif role == "user":
            return conversation_key(system, content)
    return None


# --- persistence --------------------------------------------------------------------------------------


def vocabulary_fingerprint(vocab: Mapping[str, int]) -> str:
    """Token ids mean something only for one vocabulary: each vocabulary has its own corpus."""
    digest = hashlib.sha256(json.dumps(sorted(vocab.items()), ensure_ascii=False).encode()).hexdigest()
    return digest[:20]


def store_dir() -> Path:
    from app.core import paths

    return paths.data_dir() / "suffix"


@dataclass
class Record:
    prompt: list[int]
    response: list[int]
    conversation: str | None = None
    time: float = field(default_factory=time.time)

    @property
    def size(self) -> int:
        return len(self.prompt) + len(self.response)

    def to_line(self) -> str:
        return json.dumps(
            {"v": 1, "c": self.conversation, "t": round(self.time, 3), "p": self.prompt, "r": self.response},
            separators=(",", ":"),
        )

    @classmethod
    def from_line(cls, line: str) -> Record | None:
        try:
            data = json.loads(line)
            prompt, response = data["p"], data["r"]
            if not (isinstance(prompt, list) and isinstance(response, list)):
                return None
            conv = data.get("c")
            return cls(
                [int(t) for t in prompt],
                [int(t) for t in response],
                conv if isinstance(conv, str) else None,
                float(data.get("t") or 0.0),
            )
        except (ValueError, KeyError, TypeError):
            return None


_store_lock = threading.Lock()
#: live caches per vocabulary, told when a conversation is deleted or the corpus is cleared
_live: weakref.WeakValueDictionary[int, SuffixCache] = weakref.WeakValueDictionary()


class SuffixStore:
    """The persisted global corpus of one vocabulary: ``<data dir>/suffix/<fingerprint>.jsonl``."""

    def __init__(
        self, fingerprint: str, max_tokens: int = DEFAULT_MAX_TOKENS, root: Path | None = None
    ) -> None:
        self.fingerprint = fingerprint
        self.max_tokens = max_tokens
        self.root = root or store_dir()
        self.path = self.root / f"{fingerprint}.jsonl"

    def records(self) -> list[Record]:
        try:
            text = self.path.read_text("utf-8")
        except FileNotFoundError:
            return []
        except OSError as exc:
            log.warning("suffix corpus %s unreadable: %s", self.path, exc)
            return []
        out = [r for r in (Record.from_line(ln) for ln in text.splitlines() if ln.strip()) if r is not None]
        return _bounded(out, self.max_tokens)

    def open_cache(self, max_tree_depth: int = MAX_TREE_DEPTH) -> SuffixCache:
        """A cache holding every stored answer, registered to hear deletions."""
        cache = SuffixCache(max_tree_depth, self.max_tokens)
        with _store_lock:
            for r in self.records():
                cache.learn(r.prompt, r.response, r.conversation)
            _live[id(cache)] = cache
        return cache

    def append(self, record: Record) -> None:
        """Store one learned answer; rewrites the file without the oldest ones past the limit."""
        with _store_lock:
            self.root.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as f:
                f.write(record.to_line() + "\n")
            try:
                size = self.path.stat().st_size
            except OSError:
                return
            # A token takes a few bytes in the file: check the real count only when it may be over.
            if size > 4 * self.max_tokens:
                records = self.records()
                _rewrite(self.path, records)


def _bounded(records: list[Record], max_tokens: int) -> list[Record]:
    total = sum(r.size for r in records)
    start = 0
    while total > max_tokens and start < len(records) - 1:
        total -= records[start].size
        start += 1
    return records[start:]


def _rewrite(path: Path, records: list[Record]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(r.to_line() + "\n" for r in records), encoding="utf-8")
    os.replace(tmp, path)


def forget_conversation(key: str, root: Path | None = None) -> int:
    """Delete every stored answer learned in the conversation ``key``, on disk and in live caches."""
    directory = root or store_dir()
    dropped = 0
    with _store_lock:
        for path in sorted(directory.glob("*.jsonl")) if directory.is_dir() else []:
            try:
                lines = [ln for ln in path.read_text("utf-8").splitlines() if ln.strip()]
            except OSError as exc:
                log.warning("suffix corpus %s unreadable: %s", path, exc)
                continue
            records = [r for r in (Record.from_line(ln) for ln in lines) if r is not None]
            keep = [r for r in records if r.conversation != key]
            if len(keep) != len(records) or len(records) != len(lines):
                dropped += len(records) - len(keep)
                _rewrite(path, keep)
        for cache in list(_live.values()):
            cache.forget_conversation(key)
    return dropped


def forget_conversation_messages(system_prompt: str, messages: Iterable[Mapping[str, Any]]) -> int:
    """:func:`forget_conversation` for a conversation given as its stored messages."""
    first = next((str(m.get("content") or "") for m in messages if m.get("role") == "user"), None)
    if first is None:
        return 0
    return forget_conversation(conversation_key(system_prompt, first))


def forget_all(root: Path | None = None) -> None:
    """Settings' "Forget learned text": every stored corpus and every live cache's global corpus."""
    directory = root or store_dir()
    with _store_lock:
        for path in sorted(directory.glob("*.jsonl")) if directory.is_dir() else []:
            path.unlink(missing_ok=True)
        for cache in list(_live.values()):
            cache.forget_all()


def stored_tokens(root: Path | None = None) -> int:
    """Tokens learned on disk, over all vocabularies (for Settings' label)."""
    directory = root or store_dir()
    total = 0
    for path in sorted(directory.glob("*.jsonl")) if directory.is_dir() else []:
        try:
            for ln in path.read_text("utf-8").splitlines():
                r = Record.from_line(ln) if ln.strip() else None
                total += r.size if r is not None else 0
        except OSError:
            continue
    return total
