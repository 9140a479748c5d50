"""The chat: message bubbles, the composer, the conversation's settings dialog and the column
that holds them. Each module holds one widget; :mod:`app.gui.controllers.chat` does the work."""

from app.gui.views.chat.bubble import MessageBubble
from app.gui.views.chat.composer import Composer
from app.gui.views.chat.sampling_dialog import SamplingDialog
from app.gui.views.chat.view import ChatView

__all__ = ["ChatView", "Composer", "MessageBubble", "SamplingDialog"]
