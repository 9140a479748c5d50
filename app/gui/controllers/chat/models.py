"""A conversation's model: chosen in the chat header among the models on disk, stored with the
conversation, and made the current one before its next answer.

A model that is loaded (the current one, or one kept loaded since) answers at once; another is
loaded first, with its last launch settings, while the message waits in its place (the chat
shows the load's progress where the answer will be). The model used before stays loaded while
memory allows (:class:`~app.gui.engine.host.EngineHost`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QObject, Signal

from app.core.chat import ChatStore
from app.core.registry import AnySpec, Family, Registry
from app.gui.engine import EngineHost
from app.gui.ops import Ops
from app.gui.views.model_choice import ModelChoice

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DiskModel:
    """A model on disk a conversation may answer with: its label ("family SIZE QUANT", as the
    window names a loaded model) and what the launch path needs."""

    label: str
    family: Family
    spec: AnySpec
    quantization: str
    #: its id in the local API (as ``tandem serve --all`` names it)
    id: str = ""


def disk_models(registry: Registry) -> list[DiskModel]:
    """The downloaded GGUF models Tandem knows and the embedded default (blocking: reads the
    download cache)."""
    from app.core.launch.known_models import known_entries

    out: list[DiskModel] = []
    for entry in known_entries(registry):
        if entry.registry is None:
            continue
        name, fmt, size, quant = entry.registry
        try:
            family, spec, q = registry.match(name, fmt, size, quant)
        except Exception as exc:  # a spec gone from the registry meanwhile
            log.info("%s is not offered: %s", entry.id, exc)
            continue
        out.append(DiskModel(f"{family.name} {spec.size_text} {q}", family, spec, q, entry.id))
    return out


class ConversationModels(QObject):
    """The shown conversation's model, its header control, and the switch before an answer.
    ``load`` (set by the window) loads a model on disk, keeping the current one loaded.
    Signals: ``diskChanged()`` once the models on disk were read again."""

    diskChanged = Signal()

    def __init__(
        self,
        store: ChatStore,
        engine: EngineHost,
        ops: Ops | None,
        registry: Registry | None,
        conversation: Callable[[], int | None],
        control: ModelChoice | None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.engine = engine
        self._ops = ops
        self._registry = registry
        self._conversation = conversation
        self._control = control
        self.models: list[DiskModel] = []
        #: the model of a chat not yet stored ("": the loaded one)
        self.new_choice = ""
        self.load: Callable[[DiskModel], bool] | None = None
        #: the models on disk were read (they are read when first needed: the list opens, a
        #: conversation that chose a model answers, the Local server starts)
        self.read = False
        if control is not None:
            control.chosen.connect(self._on_chosen)
            control.opened.connect(self.ensure)
        engine.modelsChanged.connect(self.sync)

    def ensure(self) -> None:
        """Read the models on disk unless they were read."""
        if not self.read:
            self.refresh()

    def refresh(self) -> None:
        """Read the models on disk again (on a worker), then show them."""
        if self._ops is None or self._registry is None:
            return
        self.read = True
        registry, ops = self._registry, self._ops

        async def read() -> None:
            self.models = await ops.run(disk_models, registry)
            self.sync()
            self.diskChanged.emit()

        ops.spawn(
            read(), QCoreApplication.translate("ChatController", "The models on disk could not be read")
        )

    def wanted(self) -> str:
        """The shown conversation's model ("": the loaded one)."""
        cid = self._conversation()
        return self.new_choice if cid is None else self.store.conversation(cid).model

    def store_new(self, conversation_id: int) -> None:
        """A new conversation was just stored: keep the model chosen before it existed."""
        if self.new_choice:
            self.store.set_model(conversation_id, self.new_choice)

    def sync(self) -> None:
        if self.wanted():
            self.ensure()  # the conversation's model is looked up among them before its answer
        if self._control is None:
            return
        info = self.engine.info
        loaded = [e.label for e in self.engine.loaded_models()]
        self._control.set_state(
            self.wanted(), [m.label for m in self.models], loaded, info.label if info is not None else ""
        )

    def _on_chosen(self, label: str) -> None:
        cid = self._conversation()
        if cid is None:
            self.new_choice = label
        else:
            self.store.set_model(cid, label)

    def prepare(self) -> str:
        """Make the conversation's model the one that answers: at once when it is loaded (""
        then), else its load starts and its label is returned (the answer waits for it); "" too
        when the conversation answers with the loaded model or its model is not on disk."""
        wanted = self.wanted()
        info = self.engine.info
        if not wanted or (info is not None and info.label == wanted) or self.engine.busy:
            return ""
        if self.engine.switch_to(wanted):
            return ""
        model = next((m for m in self.models if m.label == wanted), None)
        if model is None and self._registry is not None:  # sent before the list was read
            model = next((m for m in disk_models(self._registry) if m.label == wanted), None)
        if model is None or self.load is None:
            log.info("the conversation's model %s is not on disk: the loaded model answers", wanted)
            return ""
        return wanted if self.load(model) else ""
