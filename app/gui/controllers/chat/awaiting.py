"""A message whose conversation's model is loading: stored and shown at once, the load's progress
in its answer's place, answered once the model is loaded (:class:`AwaitedLoad`). A load that ends
without the model leaves the message unanswered (send it again, or edit it); Stop cancels the
load."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from app.gui.engine.info import ModelInfo
from app.gui.views.chat import ChatView
from app.gui.views.chat.bubble import MessageBubble


@dataclass
class _Waiting:
    conversation_id: int
    model: str
    tool_choice: str
    bubble: MessageBubble


class AwaitedLoad:
    """``answer(tool_choice)`` answers the shown conversation's last message, ``shown()`` is the
    shown conversation, ``changed()`` refreshes the chat's actions."""

    def __init__(
        self,
        view: ChatView,
        answer: Callable[[str], None],
        shown: Callable[[], int | None],
        changed: Callable[[], None],
    ) -> None:
        self._view = view
        self._answer = answer
        self._shown = shown
        self._changed = changed
        self._waiting: _Waiting | None = None

    @property
    def pending(self) -> bool:
        return self._waiting is not None

    def holds(self, conversation_id: int | None) -> bool:
        """``conversation_id``'s message waits for its model."""
        return self._waiting is not None and self._waiting.conversation_id == conversation_id

    def wait(self, conversation_id: int, model: str, tool_choice: str) -> None:
        bubble = self._view.add_bubble("assistant")
        bubble.set_status("streaming")
        bubble.set_content(_loading_text(model, ""))
        self._waiting = _Waiting(conversation_id, model, tool_choice, bubble)
        self._changed()

    def progress(self, step: str) -> None:
        if self._waiting is not None:
            self._waiting.bubble.set_content(_loading_text(self._waiting.model, step))

    def drop(self) -> None:
        """The load ended without the model: the message stays, unanswered."""
        waiting, self._waiting = self._waiting, None
        if waiting is not None:
            self._view.remove_bubble(waiting.bubble)
            self._changed()

    def loaded(self, info: ModelInfo) -> None:
        """A model was loaded: the message waiting for it is answered now (when its conversation
        is shown; else it stays, unanswered, to be sent again there)."""
        waiting = self._waiting
        if waiting is None or info.label != waiting.model:
            return
        self._waiting = None
        self._view.remove_bubble(waiting.bubble)
        if waiting.conversation_id == self._shown():
            self._answer(waiting.tool_choice)
        else:
            self._changed()


def _loading_text(model: str, step: str) -> str:
    text = QCoreApplication.translate("ChatController", "Loading {model}…").format(model=model)
    return f"*{text}*" + (f"\n\n{step}" if step else "")
