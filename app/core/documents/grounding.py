"""Documents into the prompt: whole when they fit, else the passages that answer the question.

A message names its documents (``documents`` on :class:`~app.core.engines.base.ChatMessage`:
their stored names). :func:`ground` turns those names into text the engine reads, in the message
they were attached to, before its own text:

* when every document of the conversation fits the room left in the context (the caller's
  ``room``, in tokens), each goes in whole, under its file name;
* otherwise the documents' passages (:mod:`app.core.documents.passages`) are ranked against the
  latest question (:mod:`app.core.documents.index`) and the best go in, as many as the room
  holds, each under its file name and page, in reading order; a question that matches no word of
  the documents gets their beginnings.

Every document or passage used is a :class:`Source` (file, page, text): the answer lists them
(``tandem.sources``), so the user sees what the answer was given.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from app.core.documents.extract import Document, DocumentError
from app.core.documents.index import index_of, search_all
from app.core.documents.passages import Passage
from app.core.engines.base import ChatMessage

#: the most passages one prompt quotes (more rarely helps a small model, and costs prefill)
MAX_PASSAGES = 12
#: what a source of a document that went in whole shows of it (characters)
WHOLE_PREVIEW_CHARS = 300

#: counts the tokens of a text as the model reads it
Counter = Callable[[str], int]


@dataclass(frozen=True)
class Source:
    """A document (``whole``) or one of its passages given to the model with a question."""

    filename: str
    page: int | None
    text: str
    whole: bool = False
    #: the passage's place among its document's passages (None for a whole document)
    passage: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"filename": self.filename, "page": self.page, "text": self.text}
        if self.whole:
            out["whole"] = True
        return out

    @classmethod
    def from_json(cls, raw: Any) -> Source:
        if not isinstance(raw, dict) or not isinstance(raw.get("filename"), str):
            raise ValueError(f"not a source: {raw!r}")
        page = raw.get("page")
        passage = raw.get("passage")
        return cls(
            raw["filename"],
            page if isinstance(page, int) else None,
            str(raw.get("text", "")),
            bool(raw.get("whole", False)),
            passage if isinstance(passage, int) else None,
        )

    def stored(self) -> dict[str, Any]:
        """:meth:`to_json` with the passage's place (what a conversation keeps)."""
        out = self.to_json()
        if self.passage is not None:
            out["passage"] = self.passage
        return out


@dataclass(frozen=True)
class Grounded:
    """The messages as the engine reads them, and the sources they were given."""

    messages: list[ChatMessage]
    sources: tuple[Source, ...]
    #: passages were retrieved (the documents did not fit whole)
    retrieved: bool = False


def document_names(messages: Sequence[Mapping[str, Any]]) -> list[str]:
    """The stored names of the documents these messages carry, in order, each once."""
    out: dict[str, None] = {}
    for m in messages:
        for name in m.get("documents") or ():
            out[str(name)] = None
    return list(out)


def question_of(messages: Sequence[Mapping[str, Any]]) -> str:
    """The latest user message's text: what passages are ranked against."""
    for m in reversed(messages):
        if m.get("role") == "user" and isinstance(m.get("content"), str) and m["content"].strip():
            return str(m["content"])
    return ""


def whole_block(document: Document) -> str:
    return f'<document filename="{_attr(document.filename)}">\n{document.text}\n</document>'


def passage_block(passage: Passage) -> str:
    page = f' page="{passage.page}"' if passage.page is not None else ""
    return f'<document filename="{_attr(passage.filename)}"{page}>\n{passage.text}\n</document>'


def _attr(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def ground(
    messages: Sequence[ChatMessage],
    documents: Mapping[str, Document],
    room: int,
    count: Counter,
    question: str | None = None,
) -> Grounded:
    """``messages`` with their documents put in (see the module docstring); ``documents``: every
    stored name they carry -> its document; ``room``: the tokens the documents may take;
    ``count``: a text's tokens. :class:`DocumentError` (``no_room``) when not one passage fits."""
    names = document_names(messages)
    if not names:
        return Grounded([_plain(m) for m in messages], ())
    missing = [n for n in names if n not in documents]
    if missing:
        raise DocumentError(f"a message names a document that was not attached ({missing[0]})", "missing")
    docs = [documents[n] for n in names]
    blocks = {d.name: whole_block(d) for d in docs}
    if sum(count(b) for b in blocks.values()) <= room:
        placed = {d.name: [blocks[d.name]] for d in docs}
        sources = tuple(Source(d.filename, None, _preview(d.text), whole=True) for d in docs)
        return Grounded(_placed(messages, placed), sources)
    chosen = _retrieve(docs, question if question is not None else question_of(messages), room, count)
    if not chosen:
        raise DocumentError(
            "the conversation leaves no room in the model's context for its documents; start a new "
            "conversation, or load the model with a larger context",
            "no_room",
        )
    by_doc: dict[str, list[Passage]] = {}
    owner = {d.sha256: d.name for d in docs}
    for doc, passage in chosen:
        by_doc.setdefault(owner[doc.sha256], []).append(passage)
    placed = {
        name: [passage_block(p) for p in sorted(found, key=lambda p: p.index)]
        for name, found in by_doc.items()
    }
    sources = tuple(Source(p.filename, p.page, p.text, passage=p.index) for _, p in chosen)
    return Grounded(_placed(messages, placed), sources, retrieved=True)


def _retrieve(
    docs: Sequence[Document], question: str, room: int, count: Counter
) -> list[tuple[Document, Passage]]:
    """The passages that go in, best first, within ``room`` tokens."""
    indexes = [index_of(d) for d in docs]
    doc_of = {id(p): d for d, index in zip(docs, indexes, strict=True) for p in index.passages}
    ranked = [h.passage for h in search_all(indexes, question)]
    if not ranked:  # nothing matches: the beginnings, one document after another
        ranked = [p for index in indexes for p in index.passages[:MAX_PASSAGES]]
    chosen: list[tuple[Document, Passage]] = []
    left = room
    for passage in ranked:
        cost = count(passage_block(passage))
        if cost > left:
            continue
        chosen.append((doc_of[id(passage)], passage))
        left -= cost
        if len(chosen) >= MAX_PASSAGES:
            break
    return chosen


def _order(passage: Passage) -> int:
    return passage.index


def _preview(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= WHOLE_PREVIEW_CHARS else text[: WHOLE_PREVIEW_CHARS - 1].rstrip() + "\u2026"


def _plain(message: ChatMessage) -> ChatMessage:
    out = dict(message)
    out.pop("documents", None)
    return cast(ChatMessage, out)


def _placed(messages: Sequence[ChatMessage], placed: Mapping[str, list[str]]) -> list[ChatMessage]:
    out: list[ChatMessage] = []
    for m in messages:
        names = m.get("documents") or []
        blocks = [b for n in names for b in placed.get(n, [])]
        plain = _plain(m)
        if blocks:
            text = plain.get("content") or ""
            plain["content"] = "\n\n".join([*blocks, text] if text else blocks)
        out.append(plain)
    return out


#: tokens kept free beside the prompt and the answer (a template's few extra tokens)
MARGIN_TOKENS = 32
#: tries at fitting: each measures the prompt the engine will read and shrinks the room by what
#: it overflowed
FIT_TRIES = 4
_CJK_RANGES = ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF))
#: characters per token of text in other scripts, reckoned low (so the estimate is generous)
CHARS_PER_TOKEN = 3.0


#: the least room kept for the answer beside documents (tokens), unless the answer asks for less
MIN_ANSWER_TOKENS = 256


def answer_reserve(n_ctx: int, max_tokens: int) -> int:
    """The tokens kept for the answer when documents fill the context: the answer's
    ``max_tokens``, but no more than a quarter of the context (at least :data:`MIN_ANSWER_TOKENS`),
    so a long default budget does not leave the documents no room."""
    return min(max_tokens, max(MIN_ANSWER_TOKENS, n_ctx // 4))


def estimated_tokens(text: str) -> int:
    """A generous estimate of ``text``'s tokens: a character of a Chinese, Japanese or Korean
    script each, :data:`CHARS_PER_TOKEN` characters of anything else."""
    cjk = sum(1 for ch in text if any(lo <= ord(ch) <= hi for lo, hi in _CJK_RANGES))
    return cjk + int((len(text) - cjk) / CHARS_PER_TOKEN) + 1


def ground_to_fit(
    messages: Sequence[ChatMessage],
    documents: Mapping[str, Document],
    n_ctx: int,
    max_tokens: int,
    measure: Callable[[list[ChatMessage]], int] | None,
    count: Counter = estimated_tokens,
) -> Grounded:
    """:func:`ground` with the room the context leaves: ``n_ctx`` less the conversation without
    its documents (``measure``: the prompt's tokens as the engine builds it; None: estimated) and
    the answer's room (:func:`answer_reserve`); the grounded prompt is measured again and the room
    shrunk until it fits (``count`` estimates each block). ``n_ctx`` 0: no limit known (documents go in
    whole). Blocking: call it off the GUI thread and off the event loop."""
    if not document_names(messages):
        return Grounded([_plain(m) for m in messages], ())

    def size(found: list[ChatMessage]) -> int:
        if measure is not None:
            return measure(found)
        return sum(estimated_tokens(str(m.get("content") or "")) + 4 for m in found)

    if n_ctx <= 0:
        return ground(messages, documents, 1 << 40, count)
    limit = n_ctx - answer_reserve(n_ctx, max_tokens) - MARGIN_TOKENS
    room = limit - size([_plain(m) for m in messages])
    for _ in range(FIT_TRIES):
        if room <= 0:
            break
        grounded = ground(messages, documents, room, count)
        over = size(grounded.messages) - limit
        if over <= 0:
            return grounded
        room -= over + max(16, over // 10)
    raise DocumentError(
        "the conversation leaves no room in the model's context for its documents; start a new "
        "conversation, or load the model with a larger context",
        "no_room",
    )
