"""Ranking a document's passages against a question: BM25 (:mod:`bm25s`), offline, no model.

Words are lowercased runs of letters and digits; text in Chinese, Japanese or Korean scripts,
written without spaces, counts each pair of neighbouring characters as a word, so a question in
those languages finds its passages too. Common English words are left out. An index is built once
per document content (:func:`index_of` keeps the most recent ones by SHA-256).
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import bm25s
import psutil

from app.core.documents.extract import Document, DocumentError
from app.core.documents.passages import Passage, passages_of

# bm25s sets its own logger to DEBUG on import, which would print each index build on a console
# that shows debug lines of other libraries; its warnings still show
logging.getLogger("bm25s").setLevel(logging.WARNING)

#: indexes kept in memory (a conversation's documents, and a few more)
KEPT = 16
#: what indexing takes per character of text at its peak (bytes), reckoned generously: the words,
#: their ids and the index's arrays
INDEX_BYTES_PER_CHAR = 32

_WORDS = re.compile(r"\w+", re.UNICODE)
_CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
#: a word's runs: one of Chinese, Japanese or Korean characters, or one of anything else
_RUNS = re.compile(f"([{_CJK_CHARS}]+)|([^{_CJK_CHARS}]+)")
_STOPWORD_TEXT = """a about above after again all also am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers him his how i if in into is it its itself just me more
    most my no nor not now of off on once only or other our ours out over own same she should so
    some such than that the their theirs them then there these they this those through to too
    under until up very was we were what when where which while who whom why will with would you
    your yours"""
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def words(text: str) -> list[str]:
    """The words BM25 compares (see the module docstring)."""
    out: list[str] = []
    for token in _WORDS.findall(text.lower()):
        for run in _RUNS.finditer(token):
            cjk, other = run.group(1), run.group(2)
            if cjk:
                out.extend([cjk] if len(cjk) == 1 else [cjk[k : k + 2] for k in range(len(cjk) - 1)])
            elif other not in _STOPWORDS and (len(other) > 1 or other.isdigit()):
                out.append(other)
    return out


@dataclass(frozen=True)
class Hit:
    passage: Passage
    score: float


def check_memory(document: Document, available: int | None = None) -> None:
    """:class:`DocumentError` (``no_memory``) when indexing ``document`` needs more memory than
    this machine has available now (``available`` bytes: psutil's reading by default)."""
    needed = len(document.text) * INDEX_BYTES_PER_CHAR
    free = psutil.virtual_memory().available if available is None else available
    if needed > free:
        raise DocumentError(
            f'"{document.filename}" is too large to index in the memory left '
            f"({needed / 2**20:.0f} MB needed, {free / 2**20:.0f} MB free); close other programs or "
            "unload a model, or attach a shorter part of it",
            "no_memory",
        )


class PassageIndex:
    """The passages of one document and their BM25 index (:func:`check_memory` first)."""

    def __init__(self, document: Document) -> None:
        check_memory(document)
        self.sha256 = document.sha256
        self.passages = passages_of(document)
        self._bm25 = bm25s.BM25()
        if self.passages:
            self._bm25.index([words(p.text) or ["\u2205"] for p in self.passages], show_progress=False)

    def search(self, question: str) -> list[Hit]:
        """Every passage that shares a word with ``question``, best first (ties: reading order)."""
        query = words(question)
        if not query or not self.passages:
            return []
        scores = self._bm25.get_scores(query)
        hits = [Hit(p, float(s)) for p, s in zip(self.passages, scores, strict=True) if s > 0]
        return sorted(hits, key=lambda h: (-h.score, h.passage.index))


_lock = threading.Lock()
_kept: OrderedDict[str, PassageIndex] = OrderedDict()


def index_of(document: Document) -> PassageIndex:
    """``document``'s index, built once per content (thread-safe; a build runs outside the lock)."""
    with _lock:
        found = _kept.get(document.sha256)
        if found is not None:
            _kept.move_to_end(document.sha256)
            return found
    built = PassageIndex(document)
    with _lock:
        _kept[document.sha256] = built
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return built


def search_all(indexes: Sequence[PassageIndex], question: str) -> list[Hit]:
    """The passages of several documents that match ``question``, best first: each document's
    scores are divided by its best, so a long document does not drown a short one."""
    out: list[Hit] = []
    for index in indexes:
        hits = index.search(question)
        if hits:
            top = hits[0].score
            out.extend(Hit(h.passage, h.score / top) for h in hits)
    return sorted(out, key=lambda h: -h.score)
