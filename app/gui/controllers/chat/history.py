"""A conversation's stored messages as the model reads them, and the titles the chat shows.

The prompt is the conversation's system prompt, unless it is blank, then its user, assistant and
tool messages that neither failed nor are still being written, tool calls and results in OpenAI's
shape. A message's images that are still on disk go with it, and the stored names of its
documents that are (``documents``, put into its text before the engine reads it); a message with
no text, no image, no document and no call is left out, a tool result never is. A new
conversation is titled after its first message, or after its first document or its images when it
has no text; the view's title is "New chat" until then.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from app.core.chat import ChatStore, Message
from app.core.documents.extract import DocumentError
from app.core.engines.base import ChatMessage


class ConversationHistory:
    """Reads conversations' prompts and messages from the store."""

    def __init__(self, store: ChatStore) -> None:
        self.store = store

    def prompt_messages(self, conversation_id: int) -> list[tuple[int, ChatMessage]]:
        """The prompt, each message with its row's id (0 for the system prompt)."""
        conv = self.store.conversation(conversation_id)
        out: list[tuple[int, ChatMessage]] = []
        if conv.system_prompt.strip():
            out.append((0, {"role": "system", "content": conv.system_prompt}))
        for m in self.store.messages(conversation_id):
            if m.role in ("user", "assistant", "tool") and m.status not in ("error", "streaming"):
                # tool calls and results in OpenAI's shape
                message: ChatMessage = m.chat_message()
                files = [str(p) for p in map(self.store.image_path, m.images) if p.is_file()]
                if files:
                    message["images"] = files
                docs = [a.name for a in m.documents if self._stored(a.name)]
                if docs:
                    message["documents"] = docs
                if m.content or files or docs or m.tool_calls or m.role == "tool":
                    out.append((m.id, message))
        return out

    def _stored(self, name: str) -> bool:
        """A document's file is in the store (a row naming anything else is passed over)."""
        try:
            return self.store.document_path(name).is_file()
        except DocumentError:
            return False

    def prompt(self, conversation_id: int) -> list[ChatMessage]:
        """What the model reads to answer the conversation's last message."""
        return [m for _id, m in self.prompt_messages(conversation_id)]

    def before(self, conversation_id: int, message_id: int) -> list[ChatMessage]:
        """The prompt answer ``message_id`` was written for."""
        out: list[ChatMessage] = []
        for m in self.prompt_messages(conversation_id):
            if m[0] == message_id:
                break
            out.append(m[1])
        return out

    def message(self, conversation_id: int, message_id: int) -> Message | None:
        return next((m for m in self.store.messages(conversation_id) if m.id == message_id), None)


def new_chat_title() -> str:
    """The title of a conversation not stored yet, or of one whose first message gives none."""
    return QCoreApplication.translate("ChatController", "New chat")


def image_title(count: int) -> str:
    """A conversation's title when its first message is images only."""
    if count == 1:
        return QCoreApplication.translate("ChatController", "An image")
    return QCoreApplication.translate("ChatController", "{n} images").format(n=count)
