"""The suffix trees behind :mod:`app.core.speculative.suffix`: corpora of token sequences, read
backwards, that propose the most likely continuation of a context (arctic-inference's drafts).

A rare n-gram is the list of its occurrences, a frequent one a node with its counts, so a proposal
costs about the same on a large corpus as on a small one; counts, probabilities and scores follow
arctic-inference 0.3.0 exactly (single precision, its sibling order), see the module docstring of
:mod:`app.core.speculative.suffix` for the contract and the few differences kept on purpose.
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: Longest match the tree looks for (arctic-inference's ``max_tree_depth`` default).
MAX_TREE_DEPTH = 64


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
            # and a shared helper makes loading measurably slower)
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
