"""What the local server serves and what it reports: the served model, one record per request,
and the refusal of a prompt that does not fit in the model's context."""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum

from app.core.answer import Answer
from app.core.engines.base import Engine, SpeculationSwitch
from app.core.pool.pool import EnginePool
from app.core.serving import protocol as P
from app.core.speculative.per_request import Speculation


@dataclass(frozen=True)
class ServedModel:
    """What the server serves: the engine, the id clients see, how to read its tool calls."""

    engine: Engine
    model_id: str
    #: the tool-call style of the family (``tool_parser``), or None (tool calls stay text)
    tool_style: str | None = None
    #: the other configurations a request may ask for (llama.cpp children on the same file), or
    #: None: every request runs on ``engine``
    pool: EnginePool | None = None

    @property
    def running(self) -> Speculation:
        """What the engine runs: its method, or off."""
        return Speculation.running(self.engine.spec_kind)

    def offered(self) -> list[Speculation]:
        """What ``tandem.speculation`` may name beyond what runs: a pool's configurations, or
        what an engine that switches per request offers (MLX)."""
        if self.pool is not None:
            return self.pool.offers()
        return self.engine.offers() if isinstance(self.engine, SpeculationSwitch) else []


class Outcome(StrEnum):
    """How a served request ended for its client (a string in ``tandem serve --json``)."""

    OK = "ok"
    CANCELLED = "cancelled"
    ERROR = "error"


@dataclass(frozen=True)
class ServedRequest:
    """One answered request, for the GUI's log and the CLI's output (``tandem serve --json`` prints
    its fields). A small immutable record made from the request's :class:`Answer` by :meth:`of`:
    it crosses to the GUI thread and stays in the log, where the answer's text is not wanted."""

    when: float
    client: str
    stream: bool
    status: Outcome
    prompt_tokens: int = 0
    completion_tokens: int = 0
    drafted: int = 0
    accepted: int = 0
    rounds: int = 0
    acceptance_rate: float | None = None
    mean_accepted_length: float | None = None
    decode_tps: float | None = None
    tool_calls: int = 0
    error: str = ""
    #: the model's context, when the request was refused because its prompt did not fit in it
    context_tokens: int = 0
    #: the speculative configuration that answered ("off", a method; "" when not known)
    configuration: str = ""
    #: the id of the model that answered ("" when not known)
    model: str = ""

    @classmethod
    def of(
        cls,
        answer: Answer,
        client: str,
        stream: bool,
        status: Outcome,
        tool_calls: int = 0,
        error: str = "",
        configuration: str = "",
        model: str = "",
    ) -> ServedRequest:
        figures = P.speculation_figures(answer, None)
        return cls(
            time.time(),
            client,
            stream,
            status,
            answer.prompt_tokens,
            answer.completion_tokens,
            figures["drafted"],
            figures["accepted"],
            figures["rounds"],
            figures["acceptance_rate"],
            figures["mean_accepted_length"],
            answer.decode_tps,
            tool_calls,
            error,
            configuration=configuration,
            model=model,
        )


class ContextOverflow(P.ApiError):
    """A prompt that leaves no room for an answer in the model's context: a 400 in each API's
    overflow shape (Anthropic's wording, OpenAI's ``context_length_exceeded``)."""

    def __init__(self, prompt_tokens: int, n_ctx: int, stream: bool) -> None:
        super().__init__(
            400,
            f"prompt is too long: {prompt_tokens} tokens > {n_ctx - 1} maximum (the model's context "
            f"holds {n_ctx} tokens with the answer; send less, or load the model with a larger context)",
            param="messages",
            code="context_length_exceeded",
        )
        self.prompt_tokens = prompt_tokens
        self.n_ctx = n_ctx
        self.stream = stream
