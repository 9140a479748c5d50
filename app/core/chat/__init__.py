"""Conversations, their SQLite persistence and the accounting of one streamed answer (no Qt)."""

from app.core.chat.answer import AnswerBuilder, AnswerStats, RoundPoint
from app.core.chat.markdown import render_markdown
from app.core.chat.store import ChatStore, Conversation, Message, MessageStatus, default_db_path

__all__ = [
    "AnswerBuilder",
    "AnswerStats",
    "ChatStore",
    "Conversation",
    "Message",
    "MessageStatus",
    "RoundPoint",
    "default_db_path",
    "render_markdown",
]
