"""The chat: one controller over a conversation's turns, with its helpers (the running answers,
reading them from the engine, showing and saving them as they grow, ending them, a message's tool
loop, the prompt and titles, the per-conversation speculation choice, speed comparisons and Auto's
loss notice, "Measure")."""

from app.gui.controllers.chat.context import ChatContext, PlainEngineFactory, to_sampling
from app.gui.controllers.chat.controller import ChatController

__all__ = ["ChatContext", "ChatController", "PlainEngineFactory", "to_sampling"]
