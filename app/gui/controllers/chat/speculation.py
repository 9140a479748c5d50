"""A conversation's speculation choice: Auto, Off or a method, shown in the chat header and stored
with the conversation. With a llama.cpp model each choice is a per-request choice of the engine
pool the window and its Local server share (:attr:`EngineHost.pool`): switching never reloads,
and the next answer runs on the new choice. A question is checked by the rule of the local API's
``tandem.speculation`` (:func:`app.core.speculative.per_request.honoured`): on an engine without a
pool, what needs a reload is refused, as the API refuses it, and the message stays in the box."""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication

from app.core.chat import ChatStore
from app.core.engines.base import GenerationError
from app.core.speculative import per_request
from app.core.speculative.per_request import Speculation
from app.gui.engine import EngineHost
from app.gui.errors import ErrorBridge
from app.gui.views.speculation_choice import SpeculationChoice

log = logging.getLogger(__name__)


class ConversationSpeculation:
    """The shown conversation's choice, its header control and the check before a question."""

    def __init__(
        self,
        store: ChatStore,
        engine: EngineHost,
        errors: ErrorBridge,
        conversation: Callable[[], int | None],
        control: SpeculationChoice | None,
    ) -> None:
        self.store = store
        self.engine = engine
        self.errors = errors
        self._conversation = conversation
        self._control = control
        #: the choice of a chat not yet stored
        self.new_choice = per_request.AUTO_CHOICE
        #: the configuration that wrote each conversation's last answer in this session: the
        #: header names the shown conversation's (a new chat has none)
        self._answered: dict[int, str] = {}
        if control is not None:
            control.chosen.connect(self._on_chosen)
        self.sync()

    @property
    def choice(self) -> Speculation:
        """The shown conversation's choice: auto, off or a method (a stored name that no longer
        parses is auto)."""
        cid = self._conversation()
        if cid is None:
            return self.new_choice
        stored = self.store.conversation(cid).speculation
        try:
            return Speculation.parse(stored)
        except ValueError:
            log.warning("conversation %d has no speculation choice %r stored: Auto", cid, stored)
            return per_request.AUTO_CHOICE

    def loaded_method(self) -> str | None:
        info = self.engine.info
        return info.spec_kind if info is not None else None

    def offered(self) -> tuple[Speculation, ...]:
        """The configurations the loaded model's pool starts for a request (none without one)."""
        return tuple(self.engine.offers())

    def sync(self) -> None:
        """Show the shown conversation's choice, and what wrote its last answer."""
        if self._control is not None:
            self._control.set_state(
                self.choice,
                self.loaded_method(),
                self.offered(),
                in_engine=self.engine.pool is None and bool(self.offered()),
                routed=self.engine.routed,
            )
            cid = self._conversation()
            self._control.set_answered(self._answered.get(cid, "") if cid is not None else "")

    def answered(self, configuration: str) -> None:
        """The shown conversation's last answer was written by ``configuration`` ("": not known,
        or the choice changed since)."""
        cid = self._conversation()
        if cid is not None:
            if configuration:
                self._answered[cid] = configuration
            else:
                self._answered.pop(cid, None)
        if self._control is not None:
            self._control.set_answered(configuration if cid is not None else "")

    def store_new(self, conversation_id: int) -> None:
        """A new conversation was just stored: keep the choice made before it existed."""
        if not self.new_choice.is_auto:
            self.store.set_speculation(conversation_id, self.new_choice.name)

    def _on_chosen(self, value: Speculation) -> None:
        """Stored at once; an answer being written keeps what it started with."""
        cid = self._conversation()
        if cid is None:
            self.new_choice = value
        else:
            self.store.set_speculation(cid, value.name)
        self.answered("")  # the next answer names its own

    def refuse(self) -> bool:
        """Say so, and return True, when the loaded model cannot honour the conversation's choice
        without a reload (the API answers such a request 400 ``speculation_unavailable``)."""
        choice, loaded = self.choice, self.loaded_method()
        if not self.engine.is_loaded or per_request.honoured(choice, loaded, self.offered()):
            return False
        shown = QCoreApplication.translate("ChatController", "Off") if choice.is_off else choice.name
        self.errors.report(
            GenerationError(
                QCoreApplication.translate(
                    "ChatController",
                    "This conversation's speculation choice is {choice}, but the loaded model runs {running} "
                    "and cannot change it without a reload.",
                ).format(
                    choice=shown,
                    running=loaded or QCoreApplication.translate("ChatController", "no speculation"),
                ),
                QCoreApplication.translate(
                    "ChatController",
                    "Choose Auto beside the conversation's title, or reload the model with that choice.",
                ),
            )
        )
        return True
