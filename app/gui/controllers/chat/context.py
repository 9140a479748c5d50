"""What the chat controller works with, handed over in one piece."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from app.core.chat import ChatStore
from app.core.engines.base import Engine, Sampling
from app.core.measure.baselines import BaselineStore
from app.core.registry import Registry
from app.core.settings import SamplingDefaults
from app.gui.engine import EngineHost, ModelInfo
from app.gui.errors import ErrorBridge
from app.gui.models.conversations_model import ConversationsModel
from app.gui.ops import Ops
from app.gui.views.chat import ChatView
from app.gui.views.model_choice import ModelChoice
from app.gui.views.speculation_choice import SpeculationChoice

#: (engine info, prompt tokens, completion tokens) -> a plain engine of the loaded model (blocking)
PlainEngineFactory = Callable[[ModelInfo, int, int], Engine]


@dataclass
class ChatContext:
    """The chat's collaborators and starting values. The optional ones switch features on:
    ``registry`` (the loaded family's tool-call style), ``speculation`` (the header's per-
    conversation choice), ``ops`` with ``plain_engine`` ("Measure")."""

    store: ChatStore
    engine: EngineHost
    view: ChatView
    conversations: ConversationsModel
    errors: ErrorBridge
    sampling: Sampling = field(default_factory=Sampling)
    system_prompt: str = ""
    # a tiny JSON file in the user data dir: reading/writing it at answer end is not noticeable
    baselines: BaselineStore = field(default_factory=BaselineStore)
    registry: Registry | None = None
    speculation: SpeculationChoice | None = None
    #: the header's per-conversation model (None: conversations answer with the loaded model)
    model_choice: ModelChoice | None = None
    ops: Ops | None = None
    plain_engine: PlainEngineFactory | None = None
    #: the Auto tuner demotes a losing choice by itself: no notice then
    auto_demotes: bool = False


def to_sampling(values: SamplingDefaults, base: Sampling | None = None) -> Sampling:
    """Stored sampling values as the engine's :class:`Sampling` (seed and stops kept from ``base``)."""
    return Sampling(
        temperature=values.temperature,
        top_p=values.top_p,
        top_k=values.top_k,
        max_tokens=values.max_tokens,
        repeat_penalty=values.repeat_penalty,
        seed=base.seed if base else None,
        stop=base.stop if base else (),
    )
