"""Documents in the chat, through the real window: attaching (button path, drop), reading off the
GUI thread, refusals (one line each, the typed text kept), storage, chips, sources, opening, export,
edit, reopening after a restart and deleting; documents that leave no room in the context; the
lines and chips in Japanese.

The fast tests answer with a scripted engine that records what it was sent (it counts no tokens,
so documents go in whole); the retrieval test drives the real llama.cpp engine on the embedded
SmolLM2 with a PDF of about 40,000 tokens, far more than its context holds."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl
from PySide6.QtWidgets import QApplication

from app.core.documents.grounding import Source
from app.core.engines.base import ChatMessage, Event, LoadRequest, Sampling
from app.devtools.pdf import docx_bytes, encrypted_pdf_bytes, image_only_pdf_bytes, pdf_bytes
from app.gui.views.chat.bubble import MessageBubble
from app.gui.views.documents import SourceDialog
from tests.gui.conftest import ScriptedEngine, scripted_loader


class ReadingEngine(ScriptedEngine):
    """A scripted engine that keeps the messages it was sent."""

    def __init__(self) -> None:
        super().__init__(text="The notes say the meeting moved to Thursday.")
        self.sent: list[list[ChatMessage]] = []

    def script(
        self, messages: Sequence[ChatMessage], sampling: Sampling, *a: Any, **k: Any
    ) -> Iterator[Event]:
        self.sent.append(list(messages))
        return super().script(messages, sampling, *a, **k)


def _load(w: Any, qtbot: Any, timeout: int = 10_000) -> None:
    with qtbot.waitSignal(w.modelLoaded, timeout=timeout):
        w.load_default_model()


def _read(composer: Any, qtbot: Any) -> None:
    """Wait until the composer has read every document it was given."""
    qtbot.waitUntil(lambda: not composer.reading(), timeout=30_000)


def _click(widget: Any, qtbot: Any) -> None:
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=QPoint(8, 8))


def test_attach_send_show_open_reopen_delete(make_window: Any, qtbot: Any, tmp_path: Path) -> None:
    engine = ReadingEngine()
    w = make_window(loader=scripted_loader(engine))
    _load(w, qtbot)
    opened: list[QUrl] = []
    w.chat.documents.launch = opened.append  # the desktop's opener: recorded, nothing launched
    composer = w.chat_view.composer
    notes = tmp_path / "notes.md"
    notes.write_text("# Team notes\n\nThe weekly meeting moves to Thursday at 10:00.\n", "utf-8")
    report = tmp_path / "report.pdf"
    report.write_bytes(pdf_bytes(["Quarterly report, page one.", "Revenue grew by 12 percent."]))
    # the attach button's path (the file dialog hands over these names) ...
    composer.add_files([notes])
    # ... and a file dropped from a file manager
    drop = QMimeData()
    drop.setUrls([QUrl.fromLocalFile(str(report))])
    assert composer.input.canInsertFromMimeData(drop)
    composer.input.insertFromMimeData(drop)
    assert composer.doc_chips.isVisibleTo(composer) and len(composer.doc_chips.chips) == 2
    _read(composer, qtbot)
    chips = composer.doc_chips.chips
    assert [c.name.text() for c in chips] == ["notes.md", "report.pdf"]
    assert chips[1].facts.text().startswith("PDF · 2 pages · ")
    assert chips[0].facts.text().startswith("MD · ")
    assert not composer.notice.isVisible() and composer.attachments == []
    # the file dialog offers everything supported, images only, documents only
    filters = composer.file_filters()
    assert "*.pdf" in filters[0] and "*.png" in filters[0] and "*.pdf" in filters[2]

    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000):
        composer.input.setPlainText("When is the meeting, and how did revenue do?")
        composer.button.click()
    assert composer.documents == [] and not composer.doc_chips.isVisibleTo(composer)
    cid = w.chat.conversation_id
    user, answer = w.store.messages(cid)
    assert [a.filename for a in user.documents] == ["notes.md", "report.pdf"]
    stored = [w.store.document_path(a.name) for a in user.documents]
    assert [f.read_bytes() for f in stored] == [notes.read_bytes(), report.read_bytes()]
    # the originals may go: the conversation has its copies
    notes.unlink()
    report.unlink()

    # the engine read both documents whole, under their file names, before the question
    sent = engine.sent[-1][-1]
    assert sent["role"] == "user" and "documents" not in sent
    assert sent["content"].startswith('<document filename="notes.md">')
    assert "Thursday at 10:00" in sent["content"] and "Revenue grew by 12 percent." in sent["content"]
    assert sent["content"].endswith("When is the meeting, and how did revenue do?")
    assert [(s.filename, s.whole) for s in answer.sources] == [("notes.md", True), ("report.pdf", True)]

    # the user message shows its chips; a click opens a copy under the file's own name
    bubble = w.chat_view.bubble(user.id)
    assert bubble is not None and len(bubble.doc_chips.chips) == 2 and bubble.doc_chips.isVisible()
    _click(bubble.doc_chips.chips[1], qtbot)
    assert len(opened) == 1
    copy = Path(opened[0].toLocalFile())
    assert copy.name == "report.pdf" and copy.read_bytes() == stored[1].read_bytes()

    # the answer lists its sources, collapsed; a source shows its text and opens its file
    shown = w.chat_view.bubble(answer.id)
    assert shown is not None
    panel = shown.sources_panel
    assert panel.isVisible() and panel.toggle.text() == "Sources (2)" and not panel.list.isVisible()
    panel.set_expanded(True)
    assert panel.list.isVisible()
    assert [r.place.text() for r in panel.rows] == [
        "notes.md · whole document",
        "report.pdf · whole document",
    ]
    _click(panel.rows[0], qtbot)
    dialog = next(d for d in QApplication.topLevelWidgets() if isinstance(d, SourceDialog) and d.isVisible())
    assert "Thursday at 10:00" in dialog.text.toPlainText()
    dialog.open_btn.click()
    assert Path(opened[-1].toLocalFile()).name == "notes.md"
    dialog.close()

    # a restart: another window over the same store shows the chips and the same sources
    again = make_window(loader=scripted_loader(ReadingEngine()))
    again.chat.open_conversation(cid)
    user_again = again.chat_view.bubble(user.id)
    answer_again = again.chat_view.bubble(answer.id)
    assert user_again is not None and answer_again is not None
    assert [c.name.text() for c in user_again.doc_chips.chips] == ["notes.md", "report.pdf"]
    assert answer_again.sources_panel.sources == answer.sources

    # every export names the attachments and carries the sources
    md = tmp_path / "export" / "chat.md"
    md.parent.mkdir()
    written = w.conversations.export(w.conversations.row_of(cid), md, "markdown")
    text = md.read_text("utf-8")
    assert "- Attached: [notes.md](<chat_documents/notes.md>)" in text and "**Sources (2):**" in text
    assert (md.parent / "chat_documents" / "report.pdf").read_bytes() == stored[1].read_bytes()
    assert len(written) == 3
    page = tmp_path / "export" / "chat.html"
    w.conversations.export(w.conversations.row_of(cid), page, "html")
    assert "Attached: notes.md, report.pdf" in page.read_text("utf-8")
    as_json = tmp_path / "export" / "chat.json"
    w.conversations.export(w.conversations.row_of(cid), as_json, "json")
    exported = json.loads(as_json.read_text("utf-8"))["messages"]
    assert exported[0]["tandem"]["documents"] == [{"filename": "notes.md"}, {"filename": "report.pdf"}]
    assert exported[1]["tandem"]["sources"][1]["filename"] == "report.pdf"

    # Edit puts the text and the documents back into the box
    w.chat.edit(user.id)
    assert composer.input.toPlainText() == "When is the meeting, and how did revenue do?"
    assert [d.filename for d in composer.documents] == ["notes.md", "report.pdf"]
    composer.remove_document(0)
    with qtbot.waitSignal(w.chat.answerFinished, timeout=10_000):
        composer.button.click()
    edited = w.store.messages(cid)[0]
    assert [a.filename for a in edited.documents] == ["report.pdf"]
    assert "Thursday" not in engine.sent[-1][-1]["content"]

    # deleting the conversation deletes its stored documents and the text read out of them
    texts = w.store.document_text_dir
    assert any(texts.glob("*.json"))
    w.store.delete_conversation(cid)
    assert not any(f.exists() for f in stored)
    assert w.store.documents.names() == set() and not any(texts.glob("*.json"))


def test_refused_documents_say_why_and_keep_the_message(make_window: Any, qtbot: Any, tmp_path: Path) -> None:
    w = make_window(loader=scripted_loader(ReadingEngine()))
    _load(w, qtbot)
    composer = w.chat_view.composer
    composer.input.setPlainText("Summarise these, please.")
    files = {
        "broken.pdf": pdf_bytes(["A page that is cut short."])[:200],
        "scan.pdf": image_only_pdf_bytes(2),
        "locked.pdf": encrypted_pdf_bytes("Secret text."),
        "tool.txt": b"\x7fELF" + bytes(300),
        "latin.txt": "café crème brûlée ".encode("latin-1") * 20,
    }
    paths = []
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        paths.append(tmp_path / name)
    big = tmp_path / "big.txt"
    with big.open("wb") as f:
        f.truncate(40 * 1024 * 1024)
    paths.append(big)
    composer.add_files(paths)
    _read(composer, qtbot)
    assert composer.documents == [] and composer.notice.isVisible()
    lines = composer.notice.text().split("\n")
    assert len(lines) == len(paths)
    by_file = {line.split(":", 1)[0]: line for line in lines}
    assert "damaged" in by_file["broken.pdf"]
    assert "no text layer" in by_file["scan.pdf"] and "no OCR" in by_file["scan.pdf"]
    assert "password" in by_file["locked.pdf"]
    assert "binary file" in by_file["tool.txt"]
    assert "UTF-8" in by_file["latin.txt"]
    assert "larger than Tandem reads (32 MB" in by_file["big.txt"]
    # the typed text stays, nothing was stored or sent
    assert composer.input.toPlainText() == "Summarise these, please."
    assert w.store.documents.names() == set() and w.store.conversations() == []

    # nine at once: eight attached, the ninth named
    many = []
    for i in range(9):
        many.append(tmp_path / f"part{i}.txt")
        many[-1].write_text(f"Part {i} of the notes.\n", "utf-8")
    composer.add_files(many)
    _read(composer, qtbot)
    assert len(composer.documents) == 8 and "At most 8 documents" in composer.notice.text()


def test_japanese_errors_and_chips(make_window: Any, qtbot: Any, tmp_path: Path) -> None:
    w = make_window(loader=scripted_loader(ReadingEngine()))
    w.i18n.set_language("ja")
    composer = w.chat_view.composer
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(image_only_pdf_bytes(1))
    ok = tmp_path / "two.pdf"
    ok.write_bytes(pdf_bytes(["one", "two"]))
    word = tmp_path / "議事録.docx"
    word.write_bytes(
        docx_bytes(["会議は木曜日に移りました。"], table=[["項目", "金額"], ["サーバー", "1200"]])
    )
    composer.add_files([scan, ok, word])
    _read(composer, qtbot)
    assert composer.notice.text().startswith("scan.pdf: ")
    assert "PDF" in composer.notice.text() and "OCR" in composer.notice.text()
    assert "no text layer" not in composer.notice.text()
    chips = composer.doc_chips.chips
    assert [c.name.text() for c in chips] == ["two.pdf", "議事録.docx"]
    assert chips[0].facts.text().startswith("PDF · 2 ページ · ")
    assert chips[1].facts.text().startswith("DOCX · ")
    assert "サーバー | 1200" in composer.documents[1].document.text


def test_an_older_store_gets_the_document_columns(tmp_path: Path) -> None:
    """A database written before documents opens with them: messages without documents, answers
    without sources, and new ones keep theirs."""
    import sqlite3

    from app.core.chat import ChatStore
    from app.core.documents.extract import read_document

    db = tmp_path / "old" / "chats.sqlite3"
    db.parent.mkdir()
    old = sqlite3.connect(db)
    old.executescript(
        "CREATE TABLE conversations (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL,"
        " system_prompt TEXT NOT NULL DEFAULT '', created REAL NOT NULL, updated REAL NOT NULL);"
        "CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, conversation_id INTEGER NOT NULL,"
        " role TEXT NOT NULL, content TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'complete',"
        " model TEXT NOT NULL DEFAULT '', stats TEXT, draft_spans TEXT, created REAL NOT NULL);"
        "INSERT INTO conversations(title, created, updated) VALUES ('old', 0, 0);"
        "INSERT INTO messages(conversation_id, role, content, created) VALUES (1, 'user', 'hi', 0);"
    )
    old.commit()
    old.close()
    store = ChatStore(db)
    try:
        (before,) = store.messages(1)
        assert before.documents == () and before.sources == ()
        attached = store.documents.put(read_document("a.txt", b"Some text."))
        assert store.documents.root == db.parent / "documents"
        assert store.document_text_dir == db.parent / "document-text"
        source = Source("a.txt", None, "Some text.", whole=True)
        store.add_message(1, "user", "and this?", documents=[attached])
        answer = store.add_message(1, "assistant", "", status="streaming")
        assert store.set_sources(answer.id, [source])
        assert [(m.documents, m.sources) for m in store.messages(1)[1:]] == [
            ((attached,), ()),
            ((), (source,)),
        ]
    finally:
        store.close()


class CountingEngine(ReadingEngine):
    """A scripted engine with a small context that counts a token per four characters."""

    n_ctx = 256

    def count_prompt_tokens(self, messages: Sequence[ChatMessage], tools: Any = None) -> int:
        return sum(len(str(m.get("content") or "")) // 4 + 4 for m in messages)


def test_documents_with_no_room_say_so_in_the_answers_place(
    make_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    engine = CountingEngine()
    w = make_window(loader=scripted_loader(engine))
    _load(w, qtbot)
    composer = w.chat_view.composer
    long = tmp_path / "long.txt"
    long.write_text(
        ("A long paragraph about tides and harbours without a break. " * 30 + "\n\n") * 10, "utf-8"
    )
    composer.add_files([long])
    _read(composer, qtbot)
    composer.input.setPlainText("What about the tides in the harbour?")
    composer.button.click()
    bubble = w.chat_view.bubbles[-1]
    qtbot.waitUntil(lambda: bubble.tool_note.isVisible() and not w.chat.generating, timeout=10_000)
    assert bubble.role == "assistant" and bubble.status_label.text() == "failed"
    assert bubble.tool_note.text().startswith("The documents leave no room in the model's context")
    assert not bubble.regen_btn.isVisible() and engine.sent == []
    # the message is kept, unanswered; nothing else is stored
    messages = w.store.messages(w.chat.conversation_id)
    assert [m.role for m in messages] == ["user"] and messages[0].documents


# --- retrieval over a long document, real model ----------------------------------------------------

#: the passage the question needs, on one page of many
CODE = "QX-4471-ZEBRA"
NEEDLE = f"The access code for the blue lighthouse on Marrow Island is {CODE}."
QUESTION = "What is the access code for the blue lighthouse on Marrow Island?"
NEEDLE_PAGE = 27
_WORD_TEXT = (
    "garden river window forest engine market letter harvest winter summer mountain valley "
    "kitchen station painter teacher farmer village bridge castle ribbon lantern orchard meadow "
    "basket candle feather pebble thunder whisper silver copper marble velvet cotton timber "
    "walks carries paints builds gathers follows watches repairs measures counts folds sorts "
    "quietly slowly gently early later often rarely nearly warmly brightly softly calmly"
)
_WORDS = _WORD_TEXT.split()


def long_pages(pages: int = 40, chars: int = 5200) -> list[str]:
    """About 40,000 tokens of plain sentences, the needle on :data:`NEEDLE_PAGE`."""
    rng = random.Random(7)
    out = []
    for number in range(1, pages + 1):
        paragraphs: list[str] = []
        size = 0
        while size < chars:
            sentences = [
                f"The {rng.choice(_WORDS)} {rng.choice(_WORDS)} {rng.choice(_WORDS)} the "
                f"{rng.choice(_WORDS)} {rng.choice(_WORDS)} near the {rng.choice(_WORDS)}."
                for _ in range(6)
            ]
            paragraphs.append(" ".join(sentences))
            size += len(paragraphs[-1])
        if number == NEEDLE_PAGE:
            paragraphs.insert(len(paragraphs) // 2, NEEDLE)
        out.append("\n\n".join(paragraphs))
    return out


def small_context(name: str, req: LoadRequest, progress: Any) -> Any:
    from dataclasses import replace

    from app.core.launch.plan import load_engine

    return load_engine(name, replace(req, n_ctx=2048, n_threads=2), progress)


@pytest.mark.usefixtures("smollm2_q4")
def test_a_long_pdf_gives_the_passages_that_answer(
    make_window: Any, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PDF far larger than the context: its passages are ranked (BM25) and the one with the
    answer reaches the engine under its file and page; the answer lists it, a reopened
    conversation shows the same passages."""
    w = make_window(loader=small_context)
    _load(w, qtbot, timeout=120_000)
    engine = w.engine.current_engine
    manual = tmp_path / "manual.pdf"
    manual.write_bytes(pdf_bytes(long_pages()))
    text_tokens = engine.count_prompt_tokens([{"role": "user", "content": "\n\n".join(long_pages())}])
    assert 35_000 < text_tokens < 50_000, text_tokens
    sent: list[list[ChatMessage]] = []
    stream = w.engine.stream

    def recording(configuration: Any, request: Any, loop: Any) -> Any:
        sent.append(list(request.messages))
        return stream(configuration, request, loop)

    monkeypatch.setattr(w.engine, "stream", recording)
    activities: list[str] = []
    set_activity = MessageBubble.set_activity

    def shown(bubble: MessageBubble, text: str) -> None:
        activities.append(text)
        set_activity(bubble, text)

    monkeypatch.setattr(MessageBubble, "set_activity", shown)
    w.chat.sampling = Sampling(temperature=0.0, max_tokens=16)
    composer = w.chat_view.composer
    composer.add_files([manual])
    assert composer.doc_chips.chips[0].facts.text() == "Reading…"  # read on a worker
    composer.input.setPlainText(QUESTION)
    with qtbot.waitSignal(w.chat.answerFinished, timeout=120_000) as blocker:
        composer.button.click()  # sent once the document is read
        assert composer.notice.text() == "Sending once manual.pdf is read…"
        assert w.store.conversations() == []
    assert not composer.notice.isVisible() and composer.documents == []
    # the answer's place said what was being done, then made way for the answer
    assert activities[:2] == ["Reading the documents…", "Reading manual.pdf…"] and activities[-1] == ""
    stats = blocker.args[0]
    assert 0 < stats.prompt_tokens <= 2048 - 16

    prompt = sent[-1][-1]["content"]
    assert f'<document filename="manual.pdf" page="{NEEDLE_PAGE}">' in prompt and CODE in prompt
    assert prompt.endswith(QUESTION)
    cid = w.chat.conversation_id
    answer = w.store.messages(cid)[-1]
    first = answer.sources[0]
    assert (first.filename, first.page, first.whole) == ("manual.pdf", NEEDLE_PAGE, False)
    assert CODE in first.text
    assert all(isinstance(s, Source) and s.page is not None for s in answer.sources)
    panel = w.chat_view.bubble(answer.id).sources_panel
    assert panel.toggle.text() == f"Sources ({len(answer.sources)})"
    assert panel.rows[0].place.text() == f"manual.pdf · page {NEEDLE_PAGE}"

    # reopened, the answer shows the same passages (kept, not ranked again)
    w.chat.open_conversation(None)
    w.chat.open_conversation(cid)
    again = w.chat_view.bubble(answer.id)
    assert again is not None and again.sources_panel.sources == answer.sources
