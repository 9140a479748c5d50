"""Suffix decoding's learned corpus: model-free drafts from prompts and earlier answers (issue 11).

The contract is the one of ``arctic_inference.suffix_decoding.SuffixDecodingCache`` (the suffix
trees behind vllm-metal's suffix decoding, arXiv 2411.04975):

* :meth:`SuffixCache.start_request` opens a request with its prompt (the request's own, *local*
  corpus: prompt lookup);
* :meth:`SuffixCache.add_active_response` appends committed tokens of the answer;
* :meth:`SuffixCache.speculate` proposes a continuation of the context: it finds the longest
  suffix of the context seen before (up to ``max_tree_depth`` tokens) in the local corpus and, for
  suffix decoding, in the *global* corpus of earlier requests, then follows the most frequent
  continuation while its probability (a product of continuation frequencies) stays above
  ``min_token_prob``; the draft is at most ``max_spec_factor * match_len + max_spec_offset`` long;
* :meth:`SuffixCache.stop_request` releases the request and moves its answer (with the prompt's
  tail, so a repeated question is matched from its first answer token) into the global corpus.

Why not arctic-inference itself: it is sdist-only and its ``setup.py`` imports torch to find CMake,
so ``pip install`` fails on a clean machine without torch (see ``docs/architecture-notes.md``).
This module keeps the same semantics in pure Python: the suffix tree is realised as an n-gram index
over the stored sequences (n = 1, 2, 4) whose hits are extended backwards to their full match
length, which yields the same deepest-node matches a suffix tree finds, at a cost that grows with
the number of hits looked at (capped), not with the corpus.

:class:`SuffixStore` persists the global corpus in the user data dir (one JSON-lines file per
tokenizer vocabulary), bounded by a size limit (oldest dropped first), with the conversation each
answer came from, so deleting a conversation deletes what was learned from it; :func:`forget_all`
is Settings' "Forget learned text".
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import time
import weakref
from collections import Counter, OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: Longest match the tree looks for (arctic-inference's ``max_tree_depth`` default).
MAX_TREE_DEPTH = 64
#: n-gram lengths indexed; a lookup starts with the longest that has hits.
_KEYS = (4, 2, 1)
#: Hits of one n-gram looked at per lookup (the most recent ones).
MAX_HITS = 64
#: Distinct match lengths (tree nodes) scored per lookup, deepest first.
MAX_NODES = 4
#: Prompt tokens stored in front of each learned answer in the global corpus.
PROMPT_TAIL = 512
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


class _Corpus:
    """Token sequences indexed by the n-grams that end at each position."""

    def __init__(self) -> None:
        self.seqs: dict[int, list[int]] = {}
        self._index: dict[tuple[int, ...], list[tuple[int, int]]] = {}
        self._stale = 0  # index entries of removed sequences
        self._live = 0

    def add(self, sid: int, tokens: Sequence[int]) -> None:
        self.seqs[sid] = []
        self.extend(sid, tokens)

    def extend(self, sid: int, tokens: Sequence[int]) -> None:
        seq = self.seqs[sid]
        start = len(seq)
        seq.extend(int(t) for t in tokens)
        index = self._index
        for p in range(start, len(seq)):
            for n in _KEYS:
                if p + 1 >= n:
                    index.setdefault(tuple(seq[p + 1 - n : p + 1]), []).append((sid, p))
                    self._live += 1

    def remove(self, sid: int) -> None:
        seq = self.seqs.pop(sid, None)
        if seq is None:
            return
        gone = sum(max(0, len(seq) - n + 1) for n in _KEYS)
        self._stale += gone
        self._live -= gone
        if self._stale > max(self._live, 4096):
            self._rebuild()

    def _rebuild(self) -> None:
        seqs, self.seqs, self._index = self.seqs, {}, {}
        self._stale = self._live = 0
        for sid, seq in seqs.items():
            self.add(sid, seq)

    def matches(self, context: Sequence[int], max_depth: int) -> list[tuple[int, list[int], int]]:
        """(match length, sequence, position of the match's last token) of the most recent hits."""
        for n in _KEYS:
            if len(context) < n:
                continue
            hits = self._index.get(tuple(context[-n:]))
            if not hits:
                continue
            out: list[tuple[int, list[int], int]] = []
            limit = min(max_depth, len(context))
            for sid, p in reversed(hits):
                seq = self.seqs.get(sid)
                if seq is None or p + 1 >= len(seq):
                    continue  # removed, or nothing after it yet (the context's own end)
                length = n
                while length < limit and p - length >= 0 and seq[p - length] == context[-length - 1]:
                    length += 1
                out.append((length, seq, p))
                if len(out) >= MAX_HITS:
                    break
            if out:
                return out
        return []


def _best_draft(
    matches: list[tuple[int, list[int], int]],
    max_spec_tokens: int,
    max_spec_factor: float,
    max_spec_offset: float,
    min_token_prob: float,
) -> Draft:
    best = Draft()
    for depth in sorted({m[0] for m in matches}, reverse=True)[:MAX_NODES]:
        limit = min(max_spec_tokens, int(max_spec_factor * depth + max_spec_offset))
        if limit <= 0:
            continue
        cur = [(seq, p + 1) for length, seq, p in matches if length >= depth]
        tokens: list[int] = []
        probs: list[float] = []
        prob = 1.0
        while len(tokens) < limit and cur:
            counts = Counter(seq[q] for seq, q in cur if q < len(seq))
            if not counts:
                break
            tok, count = counts.most_common(1)[0]  # ties: the most recent hit (cur is newest first)
            prob *= count / len(cur)
            if prob < min_token_prob:
                break
            tokens.append(tok)
            probs.append(prob)
            cur = [(seq, q + 1) for seq, q in cur if q < len(seq) and seq[q] == tok]
        score = sum(probs)
        if score > best.score:
            best = Draft(tuple(tokens), tuple(probs), depth, score)
    return best


class SuffixCache:
    """Active requests (local corpora) and the global corpus of earlier answers; thread-safe."""

    def __init__(self, max_tree_depth: int = MAX_TREE_DEPTH, max_cached_tokens: int | None = None) -> None:
        if max_tree_depth < 1:
            raise ValueError(f"max_tree_depth must be at least 1 (got {max_tree_depth})")
        self.max_tree_depth = max_tree_depth
        self.max_cached_tokens = max_cached_tokens
        self._lock = threading.Lock()
        self._global = _Corpus()
        self._local: dict[Any, _Corpus] = {}
        self._prompts: dict[Any, list[int]] = {}
        self._responses: dict[Any, list[int]] = {}
        #: global sequence id -> (conversation key or None, tokens), oldest first
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
            corpus = _Corpus()
            corpus.add(0, prompt_ids)
            self._local[req_id] = corpus
            self._prompts[req_id] = [int(t) for t in prompt_ids]
            self._responses[req_id] = []

    def add_active_response(self, req_id: Any, token_ids: Sequence[int]) -> None:
        with self._lock:
            corpus = self._local.get(req_id)
            if corpus is None:
                raise KeyError(f"request {req_id!r} is not active")
            corpus.extend(0, token_ids)
            self._responses[req_id].extend(int(t) for t in token_ids)

    def stop_request(
        self, req_id: Any, *, learn: bool = True, conversation: str | None = None
    ) -> tuple[list[int], list[int]] | None:
        """Release the request; with ``learn`` its answer joins the global corpus.

        Returns (prompt tail, response) that was learned, or None when nothing was.
        """
        with self._lock:
            if self._local.pop(req_id, None) is None:
                raise KeyError(f"request {req_id!r} is not active")
            prompt = self._prompts.pop(req_id)
            response = self._responses.pop(req_id)
            if not learn or not response:
                return None
            tail = prompt[-PROMPT_TAIL:]
            self._add_global(tail, response, conversation)
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
        earlier answers; empty when nothing matches or ``max_spec_tokens`` < 1."""
        if max_spec_tokens < 1:
            return Draft()
        ctx = list(context[-self.max_tree_depth :])
        with self._lock:
            local = self._local.get(req_id)
            if local is None:
                raise KeyError(f"request {req_id!r} is not active")
            args = (max_spec_tokens, max_spec_factor, max_spec_offset, min_token_prob)
            best = _best_draft(local.matches(ctx, self.max_tree_depth), *args)
            if use_global and self._global.seqs:
                other = _best_draft(self._global.matches(ctx, self.max_tree_depth), *args)
                if other.score > best.score:
                    best = other
            return best

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
            self._add_global(list(prompt_tail)[-PROMPT_TAIL:], list(response), conversation)

    def _add_global(self, tail: list[int], response: list[int], conversation: str | None) -> None:
        sid = self._next_sid
        self._next_sid += 1
        self._global.add(sid, [*tail, *response])
        n = len(tail) + len(response)
        self._entries[sid] = (conversation, n)
        self._tokens += n
        limit = self.max_cached_tokens
        while limit is not None and self._tokens > limit and len(self._entries) > 1:
            old, (_conv, size) = self._entries.popitem(last=False)
            self._global.remove(old)
            self._tokens -= size

    def forget_conversation(self, conversation: str) -> int:
        """Drop every learned answer of ``conversation``; returns how many were dropped."""
        with self._lock:
            gone = [sid for sid, (conv, _n) in self._entries.items() if conv == conversation]
            for sid in gone:
                _conv, size = self._entries.pop(sid)
                self._global.remove(sid)
                self._tokens -= size
            return len(gone)

    def forget_all(self) -> None:
        with self._lock:
            self._global = _Corpus()
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
