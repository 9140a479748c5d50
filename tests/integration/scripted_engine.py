"""A scripted engine for the server tests: it writes a fixed answer (the model's output, e.g. tool-call
markup the tiny real model cannot write), records what it was given, and may fail or add calls of its own."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from app.core.engines.base import (
    CancelToken,
    ChatMessage,
    Event,
    Finished,
    GenerationError,
    Round,
    Sampling,
    TextDelta,
    ToolCall,
)
from app.devtools.scripted import ScriptedStream

Q = '<|"|>'
SEED = 'The user said "你好" (Hello), a simple greeting.'
GEMMA_ANSWER = (
    f"Routing.<|tool_call>call:route{{intent:{Q}greeting{Q},reason:{Q}{SEED}{Q}}}<tool_call|>"
    f"<|tool_call>call:get_weather{{location:{Q}Shanghai{Q},days:3}}<tool_call|>"
)
EXPECTED = [
    ("route", {"intent": "greeting", "reason": SEED}),
    ("get_weather", {"location": "Shanghai", "days": 3}),
]


class Script(ScriptedStream):
    """Writes a fixed answer in 3-character deltas; records what it was given; may fail or add
    calls of its own on Finished (as llama.cpp does for templates it knows)."""

    name = "scripted"
    model_path = "scripted"
    spec_kind = "scripted"
    supports_tools = True
    supports_structured_output = True
    supports_images = False
    candidates_with_speculation = False

    def __init__(self, text: str, engine_calls: list[ToolCall] | None = None, fail: bool = False) -> None:
        self.text = text
        self.engine_calls = engine_calls
        self.fail = fail
        self.seen: list[tuple[list[ChatMessage], Any, Any]] = []

    def script(
        self,
        messages: Sequence[ChatMessage],
        sampling: Sampling,
        cancel: CancelToken | None = None,
        top_logprobs: int = 0,
        tools: Sequence[Mapping[str, Any]] | None = None,
        tool_choice: Any = None,
        response_format: Mapping[str, Any] | None = None,
    ) -> Iterator[Event]:
        self.seen.append((list(messages), tools, tool_choice))
        pieces = [self.text[i : i + 3] for i in range(0, len(self.text), 3)]
        for i, piece in enumerate(pieces):
            yield Round(i, 2, 1, 1)
            yield TextDelta(piece)
            if self.fail and i == 1:
                raise GenerationError("the scripted engine failed")
        yield Finished(
            "stop",
            12,
            len(pieces),
            1.0,
            10.0,
            2 * len(pieces),
            len(pieces),
            len(pieces),
            tool_calls=self.engine_calls,
        )

    def close(self) -> None:
        pass
