"""Engines (llama.cpp, MLX) behind one event contract, plus the capability table."""

from app.core.engines.base import (
    CancelToken,
    ChatMessage,
    DrafterMismatchError,
    Engine,
    EngineError,
    EngineUnavailable,
    Event,
    Finished,
    GenerationError,
    LoadRequest,
    ModelLoadError,
    Round,
    Sampling,
    TextDelta,
)

__all__ = [
    "CancelToken",
    "ChatMessage",
    "DrafterMismatchError",
    "Engine",
    "EngineError",
    "EngineUnavailable",
    "Event",
    "Finished",
    "GenerationError",
    "LoadRequest",
    "ModelLoadError",
    "Round",
    "Sampling",
    "TextDelta",
]
