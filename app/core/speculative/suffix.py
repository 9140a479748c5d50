"""Suffix decoding's learned corpus: model-free drafts from prompts and earlier answers.

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
The tree is kept read backwards (:class:`~app.core.speculative.suffix_tree._Corpus`, in
:mod:`~app.core.speculative.suffix_tree`): a rare n-gram is the list of its occurrences, a frequent
one a node with its counts, so a proposal costs about the same on a large corpus as on a small one.

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

import hashlib
import json
import logging
import os
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.core.speculative.suffix_tree import MAX_TREE_DEPTH, Draft, _bounds_args, _Corpus

log = logging.getLogger(__name__)

#: Prompt tokens kept in front of each learned answer's opening (a match is shorter than the
#: tree is deep, so more would never be matched).
PROMPT_TAIL = MAX_TREE_DEPTH - 1
#: Default size limit of the persisted corpus per vocabulary, in tokens (about 1.6 MB on disk).
DEFAULT_MAX_TOKENS = 200_000
#: arctic-inference / vLLM defaults for the draft bounds.
DEFAULT_SPEC_FACTOR = 1.0
DEFAULT_MIN_TOKEN_PROB = 0.1


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


#: ``SpeculationOptions.engine_native`` key read by Tandem's MLX loop: True gives suffix decoding a
#: private corpus, empty at load and never stored (Auto measures with it, so its fixed prompts
#: neither see the user's history nor join it).
PRIVATE_CORPUS = "suffix.private_corpus"


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
