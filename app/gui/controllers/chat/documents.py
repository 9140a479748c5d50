"""An answer's documents: put into its prompt before the engine reads it, and their files opened.

Before an answer, the conversation's messages that name documents are grounded on a worker
(:func:`ground_history`: each stored document's text opened, the passage indexes of documents too
long to go in whole built, then
:func:`~app.core.documents.grounding.ground_to_fit`, measured by the engine's own tokenizer when it
has one), while the answer's place says what is being done. The sources the answer was given are
kept on its row at once and shown under it. Documents that leave no room in the context are one
line in the answer's place (``endings.py``).

A document chip or a source opens the stored copy with the system's viewer: the copy is made
under the file name it was attached under (:func:`app.gui.views.documents.open_copy`), then
handed to :attr:`ChatDocuments.launch` (the desktop's opener; a test records the address instead).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import shiboken6
from PySide6.QtCore import QCoreApplication, QUrl
from PySide6.QtGui import QDesktopServices

from app.core.chat import ChatStore
from app.core.chat.context import answer_reserve
from app.core.documents.extract import Document, DocumentError
from app.core.documents.grounding import Grounded, document_names, ground_to_fit, whole_block
from app.core.documents.grounding import estimated_tokens as estimated
from app.core.documents.index import index_of
from app.core.documents.store import Attachment, DocumentStore
from app.core.engines.base import ChatMessage, Engine, GenerationError, Sampling, TokenCounter
from app.gui.controllers.chat.answers import RunningAnswer
from app.gui.errors import ErrorBridge
from app.gui.ops import Ops
from app.gui.views.documents import open_copy

#: what the worker reports: ("reading" | "indexing", file name) or ("fitting", "")
Progress = Callable[[str, str], None]


class StoredDocumentError(DocumentError):
    """A stored document that cannot be opened: the reason, and the file name it was attached
    under (the line the user sees names it)."""

    def __init__(self, error: DocumentError, filename: str) -> None:
        super().__init__(str(error), error.code)
        self.filename = filename


def attachments_of(store: ChatStore, conversation_id: int) -> dict[str, Attachment]:
    """The documents attached in a conversation, by stored name (the latest file name a content
    was attached under)."""
    return {a.name: a for m in store.messages(conversation_id) for a in m.documents}


def ground_history(
    store: DocumentStore,
    history: list[ChatMessage],
    attachments: Mapping[str, Attachment],
    engine: Engine | None,
    max_tokens: int,
    report: Progress | None = None,
) -> Grounded:
    """``history`` with its documents put in (blocking: run it off the GUI thread).

    Each named document is opened from ``store`` under its file name (``attachments``: stored
    name -> attachment; a name not there goes under itself); when they cannot all go in whole,
    their passage indexes are built here (with ``report``), so the fitting that follows only ranks
    them. The room is the context less the answer's reserve
    (:func:`app.core.chat.context.answer_reserve`), measured by ``engine`` when it counts tokens.
    :class:`StoredDocumentError` when a document cannot be opened, :class:`DocumentError`
    (``no_room``) when the documents leave no room."""
    documents: dict[str, Document] = {}
    for name in document_names(history):
        attachment = attachments.get(name, Attachment(name, name))
        if report is not None:
            report("reading", attachment.filename)
        try:
            documents[name] = store.open(attachment)
        except DocumentError as exc:
            raise StoredDocumentError(exc, attachment.filename) from exc
    counter = engine if isinstance(engine, TokenCounter) else None
    n_ctx = counter.n_ctx if counter is not None else 0
    reserve = answer_reserve(n_ctx, max_tokens) if n_ctx > 0 else max_tokens
    if n_ctx > 0 and sum(estimated(whole_block(d)) for d in documents.values()) > n_ctx - reserve:
        for document in documents.values():  # passages will be ranked: their indexes, one by one
            if report is not None:
                report("indexing", document.filename)
            try:
                index_of(document)
            except DocumentError as exc:  # too large to index in the memory left
                raise StoredDocumentError(exc, document.filename) from exc
    if report is not None:
        report("fitting", "")
    measure = counter.count_prompt_tokens if counter is not None else None
    return ground_to_fit(history, documents, n_ctx, reserve, measure)


def progress_text(stage: str, filename: str) -> str:
    """What an answer's place says while its documents are prepared."""
    if stage == "reading":
        return QCoreApplication.translate("ChatController", "Reading {file}…").format(file=filename)
    if stage == "indexing":
        return QCoreApplication.translate("ChatController", "Finding the passages of {file}…").format(
            file=filename
        )
    return QCoreApplication.translate("ChatController", "Reading the documents…")


class ChatDocuments:
    """Grounds the chat's answers in their documents and opens the documents' files."""

    def __init__(
        self, store: ChatStore, ops: Ops, errors: ErrorBridge, sampling: Callable[[], Sampling]
    ) -> None:
        self.store = store
        self.ops = ops
        self.errors = errors
        #: the chat's sampling now (its max new tokens set the answer's reserve)
        self._sampling = sampling
        #: opens a file's address with the desktop's application for it
        self.launch: Callable[[QUrl], object] = QDesktopServices.openUrl

    async def grounded(
        self, answer: RunningAnswer, engine: Engine | None, history: list[ChatMessage]
    ) -> list[ChatMessage]:
        """``history`` as the engine reads it: its documents put in (on a worker), the answer's
        sources kept and shown. Raises :class:`DocumentError` (the answer's place says it)."""
        if not document_names(history):
            return history
        attachments = attachments_of(self.store, answer.conversation_id)
        loop = self.ops.loop

        def show(stage: str, filename: str) -> None:
            answer.activity = progress_text(stage, filename)
            # a report may arrive after the window let the bubble go
            if answer.bubble is not None and shiboken6.isValid(answer.bubble):
                answer.bubble.set_activity(answer.activity)

        def report(stage: str, filename: str) -> None:
            loop.call_soon_threadsafe(show, stage, filename)

        show("fitting", "")
        try:
            grounded = await self.ops.run(
                ground_history,
                self.store.documents,
                history,
                attachments,
                engine,
                self._sampling().max_tokens,
                report,
            )
        finally:
            answer.activity = ""
            if answer.bubble is not None:
                answer.bubble.set_activity("")
        answer.sources = grounded.sources
        if not answer.removed:
            self.store.set_sources(answer.message_id, grounded.sources)
        if answer.bubble is not None:
            answer.bubble.set_sources(grounded.sources)
        return grounded.messages

    # --- opening ---------------------------------------------------------------------------------
    def open_document(self, attachment: Attachment) -> None:
        """Open a message's stored document with the system's viewer (a copy under its name)."""
        try:
            copy = open_copy(self.store.document_path(attachment.name), attachment.filename)
        except (OSError, DocumentError):
            self.errors.report(
                GenerationError(
                    QCoreApplication.translate("ChatController", "{file} cannot be opened.").format(
                        file=attachment.filename
                    ),
                    QCoreApplication.translate(
                        "ChatController", "Its stored copy is gone or unreadable; attach the file again."
                    ),
                )
            )
            return
        self.launch(QUrl.fromLocalFile(str(copy)))

    def open_source(self, conversation_id: int | None, message_id: int, filename: str) -> None:
        """Open the document a source of answer ``message_id`` came from: the latest one of that
        file name attached before the answer."""
        if conversation_id is None:
            return
        found: Attachment | None = None
        for m in self.store.messages(conversation_id):
            if message_id and m.id >= message_id:
                break
            found = next((a for a in m.documents if a.filename == filename), found)
        if found is None:
            self.errors.report(
                GenerationError(
                    QCoreApplication.translate("ChatController", "{file} cannot be opened.").format(
                        file=filename
                    ),
                    QCoreApplication.translate(
                        "ChatController", "The message it was attached to is no longer in this conversation."
                    ),
                )
            )
            return
        self.open_document(found)
