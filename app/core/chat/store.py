"""Conversations and messages in SQLite under the user data dir.

An answer is written while it streams: its row is added as ``streaming`` when it starts, its text
is saved as it grows (the chat saves at most once a second, each save one committed transaction),
and its final status is written when it ends: ``complete``, ``stopped`` (the user stopped it; kept
so the user sees exactly what they got) or ``error``. A row still ``streaming`` when a store is
opened was cut off by a crash or a kill: it is marked ``interrupted``, with the
text saved so far, and the chat offers Regenerate for it.

A message's images are files of an :class:`~app.core.images.ImageStore` beside the
database, named by content hash; the row keeps their names (``images``, a JSON list). An image is
written completely before the row that names it, so a kill -9 never leaves a row naming a missing
or partial file; files no row names (a deleted conversation's, a process killed between the file
and its row, a truncated history's) are removed when a conversation is deleted and when a store
opens.

A message's documents are kept the same way, in a
:class:`~app.core.documents.store.DocumentStore` beside the database (``documents``; the text read
out of each in ``document-text`` beside it): the row keeps each one's stored name and the file
name the user attached it under (``documents``, a JSON list of
:meth:`~app.core.documents.store.Attachment.to_json`), and the documents and passages an answer
was given keep their file, page and text on the answer's row (``sources``, a JSON list of
:meth:`~app.core.documents.grounding.Source.stored`), so a reopened answer shows what it read
even when the passages would be chosen otherwise today. Files and texts no row names are removed
with the images.

An agent turn is stored as OpenAI's messages shape has it: an assistant row carries its
calls (``tool_calls``, a JSON list of wire calls) and each call's result is a ``tool`` row with its
``tool_call_id`` and the tool's ``name``. :meth:`Message.chat_message` gives every row back in
that shape, so a reopened conversation is sent to the engine, trimmed and exported as it happened.

Regenerate and edit-and-resend truncate the conversation at a message
(:meth:`ChatStore.truncate_from`) and append anew, which keeps the history linear and simple to show.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, cast

from app.core import paths
from app.core.chat.answer import AnswerStats
from app.core.documents.grounding import Source
from app.core.documents.store import Attachment, DocumentStore
from app.core.engines.base import ChatMessage
from app.core.engines.calls import WireToolCall
from app.core.images import ImageStore
from app.core.speculative import per_request

MessageStatus = Literal["complete", "stopped", "error", "streaming", "interrupted"]
Role = Literal["system", "user", "assistant", "tool"]

SCHEMA_VERSION = 1
#: when a store opens, unreferenced image and document files at least this old are removed (a
#: younger one may be on its way into a message of another window)
OPEN_COLLECT_AGE = 600.0
_SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    system_prompt TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    updated REAL NOT NULL,
    speculation TEXT NOT NULL DEFAULT 'auto',
    model TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    role TEXT NOT NULL,
    content TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'complete',
    model TEXT NOT NULL DEFAULT '',
    stats TEXT,
    draft_spans TEXT,
    created REAL NOT NULL,
    images TEXT,
    tool_calls TEXT,
    tool_call_id TEXT,
    tool_name TEXT,
    documents TEXT,
    sources TEXT
);
CREATE INDEX IF NOT EXISTS messages_by_conversation ON messages(conversation_id, id);
"""


_CONVERSATION_COLUMNS = "id, title, system_prompt, created, updated, speculation, model"


#: characters of context each side of a search hit's snippet
SNIPPET_CONTEXT = 40


def _contains(haystack: str | None, needle: str) -> bool:
    # Python's casefold, not SQLite's LIKE/lower (ASCII only): "Straße" finds "STRASSE", "Ä" finds "ä"
    return haystack is not None and needle in haystack.casefold()


def snippet(text: str, needle: str, context: int = SNIPPET_CONTEXT) -> str:
    """The part of ``text`` around the first place ``needle`` (casefolded) occurs, on one line."""
    folded = text.casefold()
    at = folded.find(needle)
    if at < 0:
        at = 0
    elif len(folded) != len(text):  # casefold grew a character ("ß" -> "ss"): map the offset back
        size, i = 0, 0
        while i < len(text) and size + len(text[i].casefold()) <= at:
            size += len(text[i].casefold())
            i += 1
        at = i
    start, end = max(0, at - context), min(len(text), at + len(needle) + context)
    piece = " ".join(text[start:end].split())
    return ("…" if start > 0 else "") + piece + ("…" if end < len(text) else "")


@dataclass(frozen=True)
class SearchHit:
    """A conversation that holds the searched text: its id and the text around the first hit in
    its messages ("" when only its title matched)."""

    conversation_id: int
    snippet: str


def default_db_path() -> Path:
    return paths.data_dir() / "chats.sqlite3"


@dataclass(frozen=True)
class Conversation:
    id: int
    title: str
    system_prompt: str
    created: float
    updated: float
    #: the conversation's speculation choice: "auto", "off" or a method; see
    #: :mod:`app.core.speculative.per_request`
    speculation: str = per_request.AUTO
    #: the model the conversation answers with (its label, "family SIZE QUANT"); "" answers
    #: with whatever model is loaded
    model: str = ""


@dataclass(frozen=True)
class Message:
    id: int
    conversation_id: int
    role: Role
    content: str
    status: MessageStatus = "complete"
    model: str = ""
    stats: AnswerStats | None = None
    draft_spans: list[tuple[int, int]] = field(default_factory=list)
    created: float = 0.0
    #: the stored names (``<sha256>.<ext>``) of the message's images, in order
    images: tuple[str, ...] = ()
    #: an assistant message's tool calls, in OpenAI's wire shape
    tool_calls: tuple[WireToolCall, ...] = ()
    #: a ``tool`` message: the call it answers and the tool's name
    tool_call_id: str = ""
    tool_name: str = ""
    #: a user message's documents (stored names and the file names they were attached under)
    documents: tuple[Attachment, ...] = ()
    #: an answer's sources: the documents and passages its prompt was given
    sources: tuple[Source, ...] = ()

    @property
    def has_body(self) -> bool:
        """The message says something: text, images, documents, calls, or it is a tool's result
        (whose text may be empty)."""
        return bool(self.content or self.images or self.documents or self.tool_calls) or self.role in (
            "user",
            "tool",
        )

    def chat_message(self) -> ChatMessage:
        """The message in OpenAI's messages shape (images and documents left out: their files
        are the store's business)."""
        out: ChatMessage = {"role": self.role, "content": self.content}
        if self.tool_calls:
            out["tool_calls"] = [_copy_call(c) for c in self.tool_calls]
        if self.role == "tool":
            out["tool_call_id"] = self.tool_call_id
            out["name"] = self.tool_name
        return out


class ChatStore:
    """One connection, used from one thread (the GUI's); every write commits at once."""

    def __init__(self, path: Path | str | None = None, *, collect_images: bool = True) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        #: the files of the messages' images, beside the database
        self.images = ImageStore(self.path.parent / "images")
        #: the files of the messages' documents, and the text read out of them, beside the database
        self.documents = DocumentStore(self.path.parent / "documents", text_dir=self.document_text_dir)
        self._db = sqlite3.connect(str(self.path))
        self._db.execute("PRAGMA foreign_keys = ON")
        self._db.create_function("tandem_contains", 2, _contains, deterministic=True)
        self._db.execute("PRAGMA journal_mode = WAL")
        version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise RuntimeError(
                f"{self.path} was written by a newer Tandem (schema {version}); update Tandem to open it"
            )
        with self._db:
            self._db.executescript(_SCHEMA)
            self._add_speculation_column()
            self._add_model_column()
            self._add_images_column()
            self._add_tool_columns()
            self._add_document_columns()
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        #: answers found cut off by a crash when this store was opened (now ``interrupted``)
        self.recovered = self._mark_interrupted()
        if collect_images:  # the documents' files too
            self.collect_images(min_age=OPEN_COLLECT_AGE)
            self.collect_documents(min_age=OPEN_COLLECT_AGE)

    def _add_speculation_column(self) -> None:
        """Conversations stored before the per-conversation choice get it as Auto. The
        column is only added, so the schema version stays: an older Tandem still opens the file."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(conversations)")}
        if "speculation" not in columns:
            self._db.execute("ALTER TABLE conversations ADD COLUMN speculation TEXT NOT NULL DEFAULT 'auto'")

    def _add_model_column(self) -> None:
        """Conversations stored before the per-conversation model answer with the loaded one;
        only added, like ``speculation``."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(conversations)")}
        if "model" not in columns:
            self._db.execute("ALTER TABLE conversations ADD COLUMN model TEXT NOT NULL DEFAULT ''")

    def _add_images_column(self) -> None:
        """Messages stored before images have none; only added, like ``speculation``."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(messages)")}
        if "images" not in columns:
            self._db.execute("ALTER TABLE messages ADD COLUMN images TEXT")

    def _add_tool_columns(self) -> None:
        """Messages stored before tool turns have no calls and answer none; only
        added, like ``speculation``. An older Tandem still opens the file; it shows a ``tool``
        row as a message of an unknown role."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(messages)")}
        for name in ("tool_calls", "tool_call_id", "tool_name"):
            if name not in columns:
                self._db.execute(f"ALTER TABLE messages ADD COLUMN {name} TEXT")

    def _add_document_columns(self) -> None:
        """Messages stored before documents have none, and answers no sources; only added, like
        ``speculation``."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(messages)")}
        for name in ("documents", "sources"):
            if name not in columns:
                self._db.execute(f"ALTER TABLE messages ADD COLUMN {name} TEXT")

    def referenced_images(self) -> set[str]:
        """The image names some message refers to."""
        names: set[str] = set()
        for (raw,) in self._db.execute("SELECT images FROM messages WHERE images IS NOT NULL"):
            names.update(_image_names(raw))
        return names

    def collect_images(self, min_age: float = 0.0) -> int:
        """Remove image files no message refers to (older than ``min_age`` seconds); return how
        many were removed."""
        return self.images.collect(self.referenced_images(), min_age)

    def image_path(self, name: str) -> Path:
        """The file of one of a message's images."""
        return self.images.path_of(name)

    def referenced_documents(self) -> set[str]:
        """The stored document names some message refers to."""
        names: set[str] = set()
        for (raw,) in self._db.execute("SELECT documents FROM messages WHERE documents IS NOT NULL"):
            names.update(a.name for a in _attachments(raw))
        return names

    def collect_documents(self, min_age: float = 0.0) -> int:
        """Remove document files no message refers to, and the texts read out of them (older than
        ``min_age`` seconds); return how many files were removed."""
        referenced = self.referenced_documents()
        removed = self.documents.collect(referenced, min_age)
        _collect_texts(self.document_text_dir, {n.split(".", 1)[0] for n in referenced}, min_age)
        return removed

    @property
    def document_text_dir(self) -> Path:
        """Where the text read out of each stored document is kept."""
        return self.path.parent / "document-text"

    def document_path(self, name: str) -> Path:
        """The file of one of a message's documents."""
        return self.documents.path_of(name)

    def _mark_interrupted(self) -> int:
        """Answers left ``streaming`` by a process that died mid-answer become ``interrupted``."""
        with self._db:
            cur = self._db.execute("UPDATE messages SET status = 'interrupted' WHERE status = 'streaming'")
        return cur.rowcount

    def close(self) -> None:
        self._db.close()

    # --- conversations ---------------------------------------------------------------------
    def create_conversation(self, title: str, system_prompt: str = "") -> Conversation:
        now = time.time()
        with self._db:
            cur = self._db.execute(
                "INSERT INTO conversations(title, system_prompt, created, updated) VALUES (?, ?, ?, ?)",
                (title, system_prompt, now, now),
            )
        assert cur.lastrowid is not None
        return Conversation(cur.lastrowid, title, system_prompt, now, now)

    def conversations(self) -> list[Conversation]:
        """Most recently updated first."""
        rows = self._db.execute(
            f"SELECT {_CONVERSATION_COLUMNS} FROM conversations ORDER BY updated DESC, id DESC"
        ).fetchall()
        return [Conversation(*row) for row in rows]

    def search(self, text: str, limit: int = 500) -> list[SearchHit]:
        """Conversations whose title or any message holds ``text`` (case-insensitive, any script),
        most recently updated first."""
        needle = text.strip().casefold()
        if not needle:
            return []
        rows = self._db.execute(
            "SELECT c.id, (SELECT m.content FROM messages m WHERE m.conversation_id = c.id"
            "   AND tandem_contains(m.content, ?1) ORDER BY m.id LIMIT 1) AS hit"
            " FROM conversations c"
            " WHERE tandem_contains(c.title, ?1) OR hit IS NOT NULL"
            " ORDER BY c.updated DESC, c.id DESC LIMIT ?2",
            (needle, limit),
        ).fetchall()
        return [SearchHit(cid, snippet(hit, needle) if hit else "") for cid, hit in rows]

    def conversation(self, conversation_id: int) -> Conversation:
        row = self._db.execute(
            f"SELECT {_CONVERSATION_COLUMNS} FROM conversations WHERE id = ?",
            (conversation_id,),
        ).fetchone()
        if row is None:
            raise KeyError(f"no conversation {conversation_id}")
        return Conversation(*row)

    def rename(self, conversation_id: int, title: str) -> None:
        title = title.strip()
        if not title:
            raise ValueError("a conversation title must not be empty")
        with self._db:
            self._db.execute("UPDATE conversations SET title = ? WHERE id = ?", (title, conversation_id))

    def set_speculation(self, conversation_id: int, choice: str) -> None:
        """Store the conversation's speculation choice ("auto", "off" or a method)."""
        choice = choice.strip().lower()
        if not choice:
            raise ValueError("a speculation choice must not be empty")
        with self._db:
            self._db.execute(
                "UPDATE conversations SET speculation = ? WHERE id = ?", (choice, conversation_id)
            )

    def set_model(self, conversation_id: int, model: str) -> None:
        """Store the model the conversation answers with (its label; "": the loaded one)."""
        with self._db:
            self._db.execute(
                "UPDATE conversations SET model = ? WHERE id = ?", (model.strip(), conversation_id)
            )

    def set_system_prompt(self, conversation_id: int, prompt: str) -> None:
        with self._db:
            self._db.execute(
                "UPDATE conversations SET system_prompt = ? WHERE id = ?", (prompt, conversation_id)
            )

    def delete_conversation(self, conversation_id: int) -> None:
        first = self._db.execute(
            "SELECT c.system_prompt, m.content FROM conversations c "
            "JOIN messages m ON m.conversation_id = c.id "
            "WHERE c.id = ? AND m.role = 'user' ORDER BY m.id LIMIT 1",
            (conversation_id,),
        ).fetchone()
        with self._db:
            self._db.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))
        self.collect_images()
        self.collect_documents()
        if first is not None:
            # What suffix decoding learned from this conversation goes with it.
            from app.core.speculative import suffix

            suffix.forget_conversation(suffix.conversation_key(str(first[0] or ""), str(first[1])))

    # --- messages ------------------------------------------------------------------------
    def add_message(
        self,
        conversation_id: int,
        role: Role,
        content: str,
        *,
        status: MessageStatus = "complete",
        model: str = "",
        stats: AnswerStats | None = None,
        draft_spans: list[tuple[int, int]] | None = None,
        images: tuple[str, ...] | list[str] = (),
        tool_calls: Sequence[WireToolCall] = (),
        tool_call_id: str = "",
        tool_name: str = "",
        documents: Sequence[Attachment] = (),
        sources: Sequence[Source] = (),
    ) -> Message:
        """Add a message; ``images`` are names already in :attr:`images` (:meth:`ImageStore.put`)
        and ``documents`` attachments already in :attr:`documents` (:meth:`DocumentStore.put`),
        checked to exist here so a row never names a missing file. An assistant message may carry
        ``tool_calls`` and ``sources``; a ``tool`` message names the call it answers
        (``tool_call_id``) and the tool (``tool_name``)."""
        if role == "tool" and not tool_call_id:
            raise ValueError("a tool message must name the call it answers (tool_call_id)")
        now = time.time()
        stats_json = json.dumps(stats.to_json()) if stats is not None else None
        spans_json = json.dumps(draft_spans) if draft_spans else None
        names = tuple(images)
        for name in names:
            if not self.images.path_of(name).is_file():
                raise FileNotFoundError(f"image {name} is not in the image store")
        images_json = json.dumps(list(names)) if names else None
        attached = tuple(documents)
        for a in attached:
            if not self.documents.path_of(a.name).is_file():
                raise FileNotFoundError(f"document {a.name} is not in the document store")
        documents_json = json.dumps([a.to_json() for a in attached]) if attached else None
        given = tuple(sources)
        sources_json = json.dumps([s.stored() for s in given], ensure_ascii=False) if given else None
        calls = tuple(tool_calls)
        calls_json = json.dumps(list(calls)) if calls else None
        with self._db:
            cur = self._db.execute(
                "INSERT INTO messages(conversation_id, role, content, status, model, stats, draft_spans,"
                " created, images, tool_calls, tool_call_id, tool_name, documents, sources)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    conversation_id,
                    role,
                    content,
                    status,
                    model,
                    stats_json,
                    spans_json,
                    now,
                    images_json,
                    calls_json,
                    tool_call_id or None,
                    tool_name or None,
                    documents_json,
                    sources_json,
                ),
            )
            self._db.execute("UPDATE conversations SET updated = ? WHERE id = ?", (now, conversation_id))
        assert cur.lastrowid is not None
        return Message(
            cur.lastrowid,
            conversation_id,
            role,
            content,
            status,
            model,
            stats,
            list(draft_spans or []),
            now,
            names,
            calls,
            tool_call_id,
            tool_name,
            attached,
            given,
        )

    def set_sources(self, message_id: int, sources: Sequence[Source]) -> bool:
        """Keep the documents and passages answer ``message_id`` was given (when its prompt is
        built, before its first word); False when the message no longer exists."""
        raw = json.dumps([s.stored() for s in sources], ensure_ascii=False) if sources else None
        with self._db:
            cur = self._db.execute("UPDATE messages SET sources = ? WHERE id = ?", (raw, message_id))
        return cur.rowcount > 0

    def update_message(
        self,
        message_id: int,
        content: str,
        *,
        status: MessageStatus | None = None,
        stats: AnswerStats | None = None,
        draft_spans: list[tuple[int, int]] | None = None,
        tool_calls: Sequence[WireToolCall] | None = None,
        touch: bool = False,
    ) -> bool:
        """Save the text (and optionally status, stats, spans) of a message in one transaction.

        Returns False when the message no longer exists (its conversation was deleted meanwhile).
        ``touch`` also marks its conversation as updated now (an answer that just ended).
        """
        sets = ["content = ?"]
        values: list[object] = [content]
        if status is not None:
            sets.append("status = ?")
            values.append(status)
        if stats is not None:
            sets.append("stats = ?")
            values.append(json.dumps(stats.to_json()))
        if draft_spans is not None:
            sets.append("draft_spans = ?")
            values.append(json.dumps(draft_spans) if draft_spans else None)
        if tool_calls is not None:
            sets.append("tool_calls = ?")
            values.append(json.dumps(list(tool_calls)) if tool_calls else None)
        with self._db:
            cur = self._db.execute(
                f"UPDATE messages SET {', '.join(sets)} WHERE id = ?", (*values, message_id)
            )
            if cur.rowcount and touch:
                self._db.execute(
                    "UPDATE conversations SET updated = ? WHERE id = "
                    "(SELECT conversation_id FROM messages WHERE id = ?)",
                    (time.time(), message_id),
                )
        return cur.rowcount > 0

    def delete_message(self, message_id: int) -> None:
        with self._db:
            self._db.execute("DELETE FROM messages WHERE id = ?", (message_id,))

    def messages(self, conversation_id: int) -> list[Message]:
        rows = self._db.execute(
            "SELECT id, conversation_id, role, content, status, model, stats, draft_spans, created, images,"
            " tool_calls, tool_call_id, tool_name, documents, sources FROM messages"
            " WHERE conversation_id = ? ORDER BY id",
            (conversation_id,),
        ).fetchall()
        out = []
        for row in rows:
            mid, cid, role, content, status, model, stats, spans, created, imgs, calls, call_id, tool = row[
                :13
            ]
            docs, sources = row[13:]
            out.append(
                Message(
                    mid,
                    cid,
                    cast(Role, role),
                    content,
                    cast(MessageStatus, status),
                    model,
                    AnswerStats.from_json(json.loads(stats)) if stats else None,
                    [(int(a), int(b)) for a, b in json.loads(spans)] if spans else [],
                    created,
                    _image_names(imgs),
                    _tool_calls(calls),
                    call_id or "",
                    tool or "",
                    _attachments(docs),
                    _sources(sources),
                )
            )
        return out

    def truncate_from(self, conversation_id: int, message_id: int) -> None:
        """Delete ``message_id`` and everything after it (regenerate, edit-and-resend)."""
        with self._db:
            self._db.execute(
                "DELETE FROM messages WHERE conversation_id = ? AND id >= ?", (conversation_id, message_id)
            )


def _image_names(raw: object) -> tuple[str, ...]:
    """The image names of a message row's ``images`` column (None, or a JSON list of names)."""
    if not raw:
        return ()
    try:
        names = json.loads(str(raw))
    except ValueError:
        return ()
    return tuple(n for n in names if isinstance(n, str)) if isinstance(names, list) else ()


def _json_list(raw: object) -> list[object]:
    if not raw:
        return []
    try:
        items = json.loads(str(raw))
    except ValueError:
        return []
    return items if isinstance(items, list) else []


def _attachments(raw: object) -> tuple[Attachment, ...]:
    """The documents of a message row's ``documents`` column (None, or a JSON list of
    attachments); a malformed entry is left out rather than failing the whole conversation."""
    out: list[Attachment] = []
    for item in _json_list(raw):
        try:
            out.append(Attachment.from_json(item))
        except ValueError:
            continue
    return tuple(out)


def _sources(raw: object) -> tuple[Source, ...]:
    """The sources of an answer row's ``sources`` column, malformed entries left out."""
    out: list[Source] = []
    for item in _json_list(raw):
        try:
            out.append(Source.from_json(item))
        except ValueError:
            continue
    return tuple(out)


def _collect_texts(root: Path, keep: set[str], min_age: float) -> None:
    """Remove the kept texts (``<sha256>.json``) of documents not in ``keep``."""
    if not root.is_dir():
        return
    now = time.time()
    for p in root.glob("*.json"):
        if p.stem in keep:
            continue
        try:
            if min_age <= 0 or now - p.stat().st_mtime >= min_age:
                p.unlink()
        except OSError:
            continue


def _copy_call(call: WireToolCall) -> WireToolCall:
    fn = call["function"]
    return {
        "id": call["id"],
        "type": "function",
        "function": {"name": fn["name"], "arguments": fn["arguments"]},
    }


def _tool_calls(raw: object) -> tuple[WireToolCall, ...]:
    """The calls of a message row's ``tool_calls`` column (None, or a JSON list of wire calls);
    a malformed entry is left out rather than failing the whole conversation."""
    if not raw:
        return ()
    try:
        calls = json.loads(str(raw))
    except ValueError:
        return ()
    if not isinstance(calls, list):
        return ()
    out: list[WireToolCall] = []
    for c in calls:
        fn = c.get("function") if isinstance(c, dict) else None
        if isinstance(fn, dict) and isinstance(fn.get("name"), str):
            args = fn.get("arguments")
            out.append(
                {
                    "id": str(c.get("id") or ""),
                    "type": "function",
                    "function": {"name": fn["name"], "arguments": args if isinstance(args, str) else "{}"},
                }
            )
    return tuple(out)


def title_from_message(text: str, limit: int = 48) -> str:
    """A conversation title from its first message: one line, cut at a word with an ellipsis."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1]
    space = cut.rfind(" ")
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,.;:") + "…"
