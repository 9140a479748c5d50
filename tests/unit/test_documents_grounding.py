"""Documents into the prompt: passages, BM25 ranking, fit whole or retrieve, the room the context
leaves, and the store that keeps documents and their text (real files under the temp home)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.documents.extract import DocumentError, read_document
from app.core.documents.grounding import (
    Source,
    answer_reserve,
    estimated_tokens,
    ground,
    ground_to_fit,
)
from app.core.documents.index import PassageIndex, check_memory, search_all, words
from app.core.documents.passages import PASSAGE_CHARS, passages_of
from app.core.documents.store import Attachment, DocumentStore
from app.core.engines.base import ChatMessage
from app.devtools.documents import CODE, CODE_QUESTION, CODE_SENTENCE, filler_paragraphs, text_with_code
from app.devtools.pdf import pdf_bytes


def _ask(question: str, *names: str) -> list[ChatMessage]:
    return [{"role": "user", "content": question, "documents": list(names)}]


def test_passages_keep_their_page_and_stay_short() -> None:
    pages = ["\n\n".join(filler_paragraphs(6, seed=s)) for s in range(3)]
    pages[1] += "\n\n" + "word " * 700  # one paragraph longer than a passage
    doc = read_document("book.pdf", pdf_bytes(pages))
    found = passages_of(doc)
    assert {p.page for p in found} == {1, 2, 3}
    assert all(len(p.text) <= PASSAGE_CHARS for p in found)
    assert [p.index for p in found] == list(range(len(found)))
    assert all(p.filename == "book.pdf" for p in found)


def test_words_split_scripts_without_spaces_into_pairs() -> None:
    assert words("The launch code is ZX-44") == ["launch", "code", "zx", "44"]
    assert words("東京タワー") == ["東京", "京タ", "タワ", "ワー"]
    assert words("한국어") == ["한국", "국어"]


def test_the_passage_with_the_answer_ranks_first() -> None:
    doc = read_document("vault.txt", text_with_code().encode())
    hits = PassageIndex(doc).search(CODE_QUESTION)
    assert hits and CODE in hits[0].passage.text
    other = read_document("other.txt", "\n\n".join(filler_paragraphs(30, seed=3)).encode())
    both = search_all([PassageIndex(other), PassageIndex(doc)], CODE_QUESTION)
    assert CODE in both[0].passage.text


def test_a_document_that_fits_goes_in_whole_in_its_own_message() -> None:
    doc = read_document("notes.md", b"# Ferry\n\nThe ferry leaves at nine from pier four.")
    messages: list[ChatMessage] = [
        *_ask("Read this.", doc.name),
        {"role": "assistant", "content": "Done."},
        {"role": "user", "content": "When does the ferry leave?"},
    ]
    grounded = ground(messages, {doc.name: doc}, 1000, estimated_tokens)
    assert not grounded.retrieved
    assert grounded.messages[0]["content"].startswith('<document filename="notes.md">\n# Ferry')
    assert grounded.messages[0]["content"].endswith("Read this.")
    assert grounded.messages[2]["content"] == "When does the ferry leave?"
    assert all("documents" not in m for m in grounded.messages)
    assert grounded.sources == (
        Source("notes.md", None, "# Ferry The ferry leaves at nine from pier four.", True),
    )


def test_a_long_document_gives_the_passages_that_answer_within_the_room() -> None:
    doc = read_document("vault.txt", text_with_code().encode())
    grounded = ground(_ask(CODE_QUESTION, doc.name), {doc.name: doc}, 900, estimated_tokens)
    assert grounded.retrieved and CODE in grounded.sources[0].text
    assert CODE_SENTENCE in grounded.messages[0]["content"]
    assert estimated_tokens(grounded.messages[0]["content"]) <= 900 + estimated_tokens(CODE_QUESTION)
    unmatched = ground(_ask("zzz qqq", doc.name), {doc.name: doc}, 900, estimated_tokens)
    assert unmatched.sources[0].passage == 0  # nothing matches: the beginning
    with pytest.raises(DocumentError) as no_room:
        ground(_ask(CODE_QUESTION, doc.name), {doc.name: doc}, 5, estimated_tokens)
    assert no_room.value.code == "no_room"
    with pytest.raises(DocumentError):
        ground(_ask(CODE_QUESTION, "0" * 64 + ".txt"), {}, 900, estimated_tokens)


def test_grounding_to_fit_measures_and_shrinks_until_the_prompt_fits() -> None:
    doc = read_document("vault.txt", text_with_code().encode())
    measured: list[int] = []

    def measure(messages: list[ChatMessage]) -> int:  # a tokenizer with more tokens than estimated
        n = sum(len(m["content"]) for m in messages) // 2
        measured.append(n)
        return n

    grounded = ground_to_fit(_ask(CODE_QUESTION, doc.name), {doc.name: doc}, 2048, 4096, measure)
    assert CODE in grounded.sources[0].text
    assert measure(grounded.messages) <= 2048 - answer_reserve(2048, 4096)
    assert len(measured) >= 3  # the conversation, a prompt that overflowed, the one that fits
    assert answer_reserve(2048, 4096) == 512 and answer_reserve(2048, 100) == 100
    plain = ground_to_fit([{"role": "user", "content": "hi"}], {}, 2048, 64, measure)
    assert plain.messages == [{"role": "user", "content": "hi"}] and plain.sources == ()


def test_a_document_too_large_for_the_memory_left_is_refused() -> None:
    doc = read_document("big.txt", "\n\n".join(filler_paragraphs(50)).encode())
    with pytest.raises(DocumentError) as found:
        check_memory(doc, available=1024)
    assert found.value.code == "no_memory" and "big.txt" in str(found.value)
    check_memory(doc, available=1 << 34)


def test_the_store_keeps_documents_and_their_text(tmp_path: Path) -> None:
    store = DocumentStore(tmp_path / "documents", text_dir=tmp_path / "text")
    doc = read_document("minutes.pdf", pdf_bytes(["first page words", "second page words"]))
    attachment = store.put(doc)
    assert attachment == Attachment(doc.name, "minutes.pdf")
    assert Attachment.from_json(attachment.to_json()) == attachment
    again = store.open(attachment)
    assert again.pages == doc.pages and again.data == doc.data and again.filename == "minutes.pdf"
    for kept in (tmp_path / "text").iterdir():
        kept.unlink()  # without the kept text, the file is read again
    assert store.open(attachment).pages == doc.pages
    assert store.collect([attachment.name]) == 0 and store.collect([]) == 1
    with pytest.raises(DocumentError) as gone:
        store.open(attachment)
    assert gone.value.code == "unreadable" and "minutes.pdf" in str(gone.value)
