"""A document split into passages: the pieces retrieval ranks and the prompt quotes.

A passage is one or more whole paragraphs of one page, up to :data:`PASSAGE_CHARS` characters
(a paragraph longer than that is cut at sentence ends, else at spaces), so each passage says where
it comes from (file and page) and reads on its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.core.documents.extract import Document

#: the longest passage (characters: a few hundred tokens, a paragraph or two of prose)
PASSAGE_CHARS = 1200

_PARAGRAPHS = re.compile(r"\n\s*\n")
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+")


@dataclass(frozen=True)
class Passage:
    """One passage of a document: its file, page (None for a document without pages), its place
    among the document's passages, and its text."""

    filename: str
    page: int | None
    index: int
    text: str


def _pieces(paragraph: str, limit: int) -> list[str]:
    """``paragraph`` cut to pieces of at most ``limit`` characters: at sentence ends, else at
    spaces, else anywhere."""
    if len(paragraph) <= limit:
        return [paragraph]
    out: list[str] = []
    current = ""
    for sentence in _SENTENCE_END.split(paragraph):
        while len(sentence) > limit:
            cut = sentence.rfind(" ", 0, limit)
            cut = cut if cut > limit // 2 else limit
            head, sentence = sentence[:cut].rstrip(), sentence[cut:].lstrip()
            if current:
                out.append(current)
                current = ""
            out.append(head)
        if current and len(current) + 1 + len(sentence) > limit:
            out.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}" if current else sentence
    if current:
        out.append(current)
    return [p for p in out if p.strip()]


def passages_of(document: Document, limit: int = PASSAGE_CHARS) -> list[Passage]:
    """The passages of ``document`` in reading order."""
    out: list[Passage] = []
    for page in document.pages:
        current = ""
        for raw in _PARAGRAPHS.split(page.text):
            paragraph = raw.strip()
            if not paragraph:
                continue
            for piece in _pieces(paragraph, limit):
                if current and len(current) + 2 + len(piece) > limit:
                    out.append(Passage(document.filename, page.number, len(out), current))
                    current = piece
                else:
                    current = f"{current}\n\n{piece}" if current else piece
        if current:
            out.append(Passage(document.filename, page.number, len(out), current))
    return out
