"""Conversations, their SQLite persistence and the accounting of one streamed answer (no Qt)."""

from app.core.chat.answer import AnswerBuilder, AnswerStats, RoundPoint
from app.core.chat.baselines import Baseline, BaselineStore, baseline_key
from app.core.chat.markdown import render_markdown
from app.core.chat.store import ChatStore, Conversation, Message, MessageStatus, default_db_path

__all__ = [
    "AnswerBuilder",
    "AnswerStats",
    "Baseline",
    "BaselineStore",
    "ChatStore",
    "Conversation",
    "Message",
    "MessageStatus",
    "RoundPoint",
    "baseline_key",
    "default_db_path",
    "render_markdown",
]
