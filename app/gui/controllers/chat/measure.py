""" "Measure": an answer's prompt run again without speculation, for the direct speedup.

A plain engine of the same model file (same engine and threads) is loaded for the run, off the GUI
thread, and closed after: the pool's "off" configuration would answer in slots beside other
requests, and the measurement wants the model to itself. A MLX or remote engine has no "off" to
switch to anyway. The figure is fairest with no other conversation answering meanwhile. A prompt
with documents gets them put in as the answer did (``documents.py``), measured by the plain
engine.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from PySide6.QtCore import QCoreApplication, QObject, Signal

from app.core.chat import ChatStore, Message
from app.core.documents.store import Attachment
from app.core.engines.base import ChatMessage, GenerationError, Sampling
from app.core.measure.plain import plain_sampling, run_plain
from app.gui.controllers.chat.context import PlainEngineFactory
from app.gui.controllers.chat.documents import attachments_of, ground_history
from app.gui.controllers.chat.speeds import AnswerSpeeds
from app.gui.engine import EngineHost, ModelInfo
from app.gui.errors import ErrorBridge
from app.gui.ops import Ops
from app.gui.views.chat import ChatView


class MeasureHost(Protocol):
    """What a measurement asks of the chat it runs in."""

    @property
    def sampling(self) -> Sampling: ...

    def busy_here(self) -> bool: ...

    def message(self, message_id: int) -> Message | None: ...

    def history_before(self, message_id: int) -> list[ChatMessage]: ...


class AnswerMeasure(QObject):
    """Signals: ``measured(int message_id, object AnswerStats)``, ``runningChanged(bool)``."""

    measured = Signal(int, object)
    runningChanged = Signal(bool)

    def __init__(
        self,
        host: MeasureHost,
        store: ChatStore,
        engine: EngineHost,
        view: ChatView,
        errors: ErrorBridge,
        speeds: AnswerSpeeds,
        ops: Ops | None,
        factory: PlainEngineFactory | None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.host = host
        self.store = store
        self.engine = engine
        self.view = view
        self.errors = errors
        self.speeds = speeds
        self._ops = ops
        self._factory = factory
        #: the answer being measured
        self.message_id: int | None = None
        #: the documents of its conversation, by stored name
        self._attachments: dict[str, Attachment] = {}

    @property
    def running(self) -> bool:
        return self.message_id is not None

    def measure(self, message_id: int) -> None:
        """Rerun the prompt of answer ``message_id`` without speculation and store the direct ratio."""
        ops, factory = self._ops, self._factory
        if ops is None or factory is None or self.host.busy_here():
            return
        msg = self.host.message(message_id)
        if msg is None or msg.stats is None or not msg.stats.speculation or msg.role != "assistant":
            return
        info = self.engine.info
        if info is None or info.label != msg.model:
            self.errors.report(
                GenerationError(
                    QCoreApplication.translate("ChatController", "This answer's model is not loaded."),
                    QCoreApplication.translate(
                        "ChatController", "Load {model} again to measure this answer."
                    ).format(model=msg.model),
                )
            )
            return
        history = self.host.history_before(message_id)
        self._attachments = attachments_of(self.store, msg.conversation_id)
        self._set_running(message_id)
        ops.spawn(self._measure(ops, factory, msg, info, history))

    def _set_running(self, message_id: int | None) -> None:
        shown = message_id if message_id is not None else self.message_id
        self.message_id = message_id
        bubble = self.view.bubble(shown) if shown is not None else None
        if bubble is not None:
            bubble.stats_strip.set_measuring(message_id is not None)
        self.runningChanged.emit(message_id is not None)

    async def _measure(
        self,
        ops: Ops,
        factory: PlainEngineFactory,
        msg: Message,
        info: ModelInfo,
        history: list[ChatMessage],
    ) -> None:
        stats = msg.stats
        assert stats is not None
        try:
            try:
                engine = await ops.run(factory, info, stats.prompt_tokens, stats.completion_tokens)
                try:
                    if any(m.get("documents") for m in history):
                        grounded = await ops.run(
                            ground_history,
                            self.store.documents,
                            history,
                            self._attachments,
                            engine,
                            self.host.sampling.max_tokens,
                        )
                        history = grounded.messages
                    run = await ops.run(
                        run_plain,
                        engine,
                        history,
                        plain_sampling(self.host.sampling, stats.completion_tokens),
                    )
                finally:
                    await ops.run(engine.close)
            finally:
                self._set_running(None)
        except Exception as exc:
            self.errors.report(
                exc, QCoreApplication.translate("ChatController", "The answer could not be measured")
            )
            return
        tps = run.decode_tps
        assert tps is not None  # run_plain refuses an answer it could not time
        new = replace(stats, measured_tps=tps)
        self.store.update_message(msg.id, msg.content, stats=new)
        self.speeds.record_plain(info, tps, run.completion_tokens)
        bubble = self.view.bubble(msg.id)
        if bubble is not None:
            bubble.set_stats(new)
        self.speeds.note(msg.id, new, info)
        self.measured.emit(msg.id, new)
