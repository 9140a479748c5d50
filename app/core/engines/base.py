"""The engine contract shared by llama.cpp, MLX and remote servers.

::

    engine = SomeEngine.load(LoadRequest(...))     # validates the target/drafter pair here
    async for ev in engine.stream(GenerateRequest(messages, sampling)):
        TextDelta | Round | Finished
    engine.close()

:meth:`Engine.stream` is the one way to generate: an async stream read on the engines' one event
loop (:mod:`app.core.engines.loop`), with no thread per request; a plain thread reads it through
:mod:`app.core.engines.blocking`. Errors are typed (:class:`EngineError` subclasses) and carry a
user-safe message with the next step; they are raised on the consumer's side, never turned into
chat text.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, Protocol, TypedDict, runtime_checkable

from app.core import limits
from app.core.cancel import CancelToken
from app.core.engines.calls import FunctionTool, ToolCall, ToolChoice, WireToolCall
from app.core.limits import MAX_NEW_TOKENS
from app.core.speculative import SpeculationOptions
from app.core.speculative.per_request import Speculation
from app.core.speculative.predict import Alternative
from app.core.speculative.rounds import DecodeFigures, Pass, Round
from app.core.speculative.speedup import Speedup


class ChatMessage(TypedDict):
    """One message of a conversation; the tool fields appear in agent turns (OpenAI shapes)."""

    role: str
    content: str
    tool_calls: NotRequired[list[WireToolCall]]
    tool_call_id: NotRequired[str]
    name: NotRequired[str]
    #: image files (absolute paths, checked by :mod:`app.core.images`) the message shows,
    #: in order, before its text; only engines whose ``supports_images`` is True get them
    images: NotRequired[list[str]]
    #: stored names of the documents attached to the message (:mod:`app.core.documents`); put
    #: into its text by :func:`app.core.documents.grounding.ground` before any engine reads it
    documents: NotRequired[list[str]]


@dataclass(frozen=True)
class TextDelta:
    text: str
    token_count: int = 1
    from_draft: bool = False


FinishReason = Literal["stop", "length", "cancelled"]


@dataclass(frozen=True)
class TokenCandidate:
    """One of the most likely tokens at a position, as the engine's sampler saw it."""

    id: int
    text: str
    logprob: float


@dataclass(frozen=True)
class Finished(DecodeFigures):
    """The end of a generation: its totals; ``decode_tps`` and ``acceptance_rate`` come from them."""

    reason: FinishReason
    prompt_tokens: int
    completion_tokens: int
    prompt_ms: float
    decode_ms: float
    drafted_total: int
    accepted_total: int
    rounds: int = 0
    #: Ids of the streamed completion tokens where the engine exposes them for every one, else None
    #: (an end-of-generation token is counted in completion_tokens but not streamed).
    token_ids: list[int] | None = None
    #: False when some round's draft count was unknown (see :class:`Round`); drafted_total then
    #: counts only the known rounds and the acceptance rate is unknown.
    drafted_known: bool = True
    #: tool calls the engine parsed itself (llama.cpp does for chat templates it knows when a
    #: request passes ``tools``), else None
    tool_calls: list[ToolCall] | None = None
    #: top candidates per completion token when the request asked for them (``top_logprobs``)
    #: and the engine exposes them, else None. Row i belongs to the i-th completion token.
    candidates: list[list[TokenCandidate]] | None = None
    #: the request's stop string that ended the answer (left out of the text), when the engine
    #: says which one (llama-server does); None when it ended otherwise or the engine cannot say
    stop_sequence: str | None = None
    #: the target's passes with their times (llama-server's per-token timings), None when the
    #: engine does not time them
    passes: tuple[Pass, ...] | None = None
    #: this answer against plain decoding of its own tokens, where the one who ran it knows more
    #: than the answer (an engine pool's recent plain steps and learned pass costs); None: the
    #: answer's own passes say it (:attr:`app.core.answer.Answer.speedup`)
    speedup: Speedup | None = None
    #: what every configuration of the engine pool would have done on this answer (replayed drafts
    #: priced by the cost model, :mod:`app.core.speculative.predict`), None when not predicted
    alternatives: tuple[Alternative, ...] | None = None


Event = TextDelta | Round | Finished


# re-exported: engines and their callers import them from here
__all__ = ["MAX_NEW_TOKENS", "CancelToken", "Round", "ToolCall", "WireToolCall"]


class SamplingError(ValueError):
    """Sampling settings that no engine should run; the message is meant for the user."""


@dataclass(frozen=True)
class Sampling:
    """Sampling settings of one request, checked when constructed (every engine gets valid ones).

    ``max_tokens`` is at least 1 on every engine: llama.cpp reads -1 as "unlimited" and MLX
    refuses it, so neither 0 nor negatives are passed through. ``repeat_penalty`` 1.0 is off.
    """

    temperature: float = 0.0
    top_p: float = 1.0
    top_k: int = 0
    max_tokens: int = 256
    seed: int | None = None
    stop: tuple[str, ...] = ()
    repeat_penalty: float = 1.0

    def __post_init__(self) -> None:
        check_max_tokens(self.max_tokens)
        t, p, k, r = limits.TEMPERATURE, limits.TOP_P, limits.TOP_K, limits.REPEAT_PENALTY
        if not (math.isfinite(self.temperature) and t.admits(self.temperature)):
            raise SamplingError(f"temperature: must be from 0 to {t.maximum:g} (got {self.temperature})")
        if not (math.isfinite(self.top_p) and p.admits(self.top_p)):
            raise SamplingError(f"top-p: must be more than 0 and at most 1 (got {self.top_p})")
        if isinstance(self.top_k, bool) or not isinstance(self.top_k, int) or not k.admits(self.top_k):
            raise SamplingError(
                f"top-k: must be 0 (off) or a whole number up to {k.maximum:g} (got {self.top_k!r})"
            )
        if not (math.isfinite(self.repeat_penalty) and r.admits(self.repeat_penalty)):
            raise SamplingError(
                f"repeat penalty: must be more than 0 and at most {r.maximum:g} (got {self.repeat_penalty})"
            )


def check_max_tokens(value: object) -> int:
    """The one rule for max new tokens (CLI flag, dialog field, API request): 1..MAX_NEW_TOKENS."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise SamplingError(f"max tokens: expected a whole number of at least 1, got {value!r}")
    if value < 1:
        raise SamplingError(f"max tokens: must be at least 1 (got {value})")
    if value > MAX_NEW_TOKENS:
        raise SamplingError(f"max tokens: {value} is more than {MAX_NEW_TOKENS}")
    return value


@dataclass(frozen=True)
class LoadRequest:
    model_path: str
    speculation: SpeculationOptions = field(default_factory=SpeculationOptions)
    n_ctx: int = 4096
    n_threads: int | None = None
    chat_template: str | None = None
    #: family name and size, for defaults such as the Gemma 4 tokens-per-round table
    family_name: str = ""
    size_in_billions: float = 0.0
    #: llama.cpp: the target's multimodal projector (``mmproj`` GGUF) that lets it read images
    #:; None loads the target text-only
    mmproj_path: str | None = None
    #: llama.cpp: requests answered at once, each in its own slot (1: one at a time)
    n_parallel: int = 1
    #: llama.cpp: children that take turns computing share a group and count once in the thread
    #: budget; "" is the model file's group (a pool's configurations, a calibration's and a
    #: measurement's engines of one model take turns)
    thread_group: str = ""
    #: llama.cpp: an automatic thread count is at most this (Auto's calibration found that more
    #: threads do not pay on this machine); None: the cores that do math
    max_threads: int | None = None


class EngineError(RuntimeError):
    """Base of engine errors; ``str()`` is user-safe, ``hint`` says what to do next."""

    hint: str = ""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        if hint:
            self.hint = hint

    def user_message(self) -> str:
        return f"{self}\n{self.hint}" if self.hint else str(self)


class EngineUnavailable(EngineError):
    hint = "Install the engine's extra (see the README) or choose another engine."


def error_message_of(body: object) -> str | None:
    """The message of an OpenAI-style error body or stream event (``{"error": {"message": ...}}``,
    ``{"error": "..."}``, ``{"code": ..., "message": ...}``, FastAPI's ``{"detail": ...}``),
    whitespace folded and cut at 300 characters; None when it carries none."""
    if not isinstance(body, Mapping):
        return None
    err = body.get("error", body)
    msg = err.get("message") if isinstance(err, Mapping) else err
    if msg is None and "detail" in body:
        msg = body["detail"]
    return " ".join(str(msg).split())[:300] if msg else None


class ModelLoadError(EngineError):
    hint = "Check that the file is a complete model download; delete and download it again if not."


class DrafterMismatchError(ModelLoadError):
    hint = "Choose the drafter declared for this model, or turn speculative decoding off."


class GenerationError(EngineError):
    hint = "The model stays loaded; try again, or reload it if the error repeats."


class InvalidRequestError(GenerationError):
    """The engine refused the request itself (llama-server answered 400: a JSON schema it cannot
    compile, a prompt too long for its context); an API server answers it as a client error."""

    hint = "Change the request; the model stays loaded."


def structured_refusal(who: str) -> str:
    """The one message of an engine that cannot constrain output to a ``response_format``."""
    return (
        f"{who} cannot constrain output to a JSON object or schema (response_format); "
        "use a llama.cpp model, or a llama-server / vLLM / SGLang server, for structured output"
    )


class ImagesUnsupportedError(InvalidRequestError):
    """A message carries images and the loaded model cannot see them."""

    hint = "Load a model that reads images (a vision model), or remove the images."

    def __init__(self, model: str = "") -> None:
        who = f"{model} " if model else "The loaded model "
        super().__init__(f"{who}cannot read images; this message has images attached.")


def has_images(messages: Sequence[ChatMessage]) -> bool:
    return any(m.get("images") for m in messages)


class ContextLengthError(GenerationError):
    """The prompt leaves no room for an answer in the context the model was loaded with."""

    hint = "Shorten the conversation or the message, or load the model with a larger context."

    def __init__(self, prompt_tokens: int, n_ctx: int) -> None:
        super().__init__(
            f"The prompt is {prompt_tokens} tokens but the context holds {n_ctx}: "
            "there is no room left for an answer."
        )
        self.prompt_tokens = prompt_tokens
        self.n_ctx = n_ctx


class Engine(Protocol):
    """What every engine offers (llama.cpp, MLX, remote); callers never probe with ``getattr``.

    Per-request state travels on the request (``tools``) and on :class:`Finished` (tool calls,
    candidates), never on the shared engine.
    """

    name: str

    @property
    def model_path(self) -> str:
        """The loaded target: a file or folder, or a server's model id."""
        ...

    @property
    def spec_kind(self) -> str | None:
        """The speculation method actually running ("mtp", "ngram-mod", "draft+ngram-mod", ...), or
        None when speculation is off or the engine cannot tell (a remote server)."""
        ...

    @property
    def supports_tools(self) -> bool:
        """A request's ``tools`` reach a chat template that renders them."""
        ...

    @property
    def candidates_with_speculation(self) -> bool:
        """``top_logprobs`` candidates are recorded with speculation on too (parity evidence)."""
        ...

    @property
    def supports_images(self) -> bool:
        """The loaded model reads the ``images`` of a message (a vision target: mlx-vlm with a vision
        tower, llama.cpp with an mmproj, a server that says it sees); callers refuse a message
        with images before sending it to an engine that does not."""
        ...

    @property
    def supports_structured_output(self) -> bool:
        """A request's ``response_format`` constrains the output (JSON, a JSON schema); an engine
        that cannot refuses a request that sets it instead of answering free text."""
        ...

    def stream(self, request: GenerateRequest) -> AsyncIterator[Event]:
        """The request's events, read on the running event loop (the engine loop, or another loop
        it relays them to); see :class:`GenerateRequest` for what a request holds. A request the
        engine cannot take raises a typed error before any event. Cancelling the consuming task
        (or closing the iterator) stops the generation at once and frees what it held (llama.cpp:
        the connection to its child goes, which ends the request there)."""
        ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class GenerateRequest:
    """One generation as :meth:`Engine.stream` takes it (a cancel is the task's cancellation, not a
    token). ``top_logprobs`` > 0 also records that many candidates per token (on
    :class:`Finished`); ``tools`` / ``tool_choice`` / ``response_format`` are OpenAI chat shapes
    (``{"type": "json_object"}`` or ``{"type": "json_schema", "json_schema": {...}}``)."""

    messages: Sequence[ChatMessage]
    sampling: Sampling
    top_logprobs: int = 0
    tools: Sequence[FunctionTool] | None = None
    tool_choice: ToolChoice | None = None
    response_format: Mapping[str, Any] | None = None
    #: an agent's turn (it offered tools or carried tool calls or results) even when fitting it to
    #: a template that renders no tools left none of that visible in ``messages`` and ``tools``:
    #: Auto routes it by its agent route
    agentic: bool = False
    #: the speculation this request runs on an engine that switches per request
    #: (:class:`SpeculationSwitch`): one of its :meth:`~SpeculationSwitch.offers`; None runs what
    #: the engine loaded
    speculation: Speculation | None = None
    #: a soft stop (the cancel of a plain thread's reader, :mod:`app.core.engines.blocking`): once
    #: set, the engine ends the answer at its next step and closes it with its own ``cancelled``
    #: :class:`Finished` (what it generated, its rounds and token ids). Cancelling the reading task
    #: stops at once instead, with no Finished.
    stop: CancelToken | None = field(default=None, compare=False)


@runtime_checkable
class SpeculationSwitch(Protocol):
    """An engine that runs another speculation per request without a reload (MLX: off, its loaded
    drafter and the model-free methods, in its own decode loop)."""

    def offers(self) -> list[Speculation]:
        """What :attr:`GenerateRequest.speculation` may name: off and methods, what runs included."""
        ...


def is_agent_turn(messages: Sequence[Mapping[str, Any]], tools: Sequence[Mapping[str, Any]] | None) -> bool:
    """Tools offered, or tool calls / tool results in the conversation: an agent's turn."""
    return bool(tools) or any(m.get("role") == "tool" or m.get("tool_calls") for m in messages)


@runtime_checkable
class TokenCounter(Protocol):
    """An engine that can measure a conversation in its own tokens (context trimming).

    ``count_prompt_tokens`` applies the chat template with the generation prompt, exactly as a
    request would, and runs on the caller's thread; ``n_ctx`` is the loaded context length.
    """

    @property
    def n_ctx(self) -> int: ...

    def count_prompt_tokens(
        self, messages: Sequence[ChatMessage], tools: Sequence[Mapping[str, Any]] | None = None
    ) -> int: ...


@runtime_checkable
class PromptMeasure(Protocol):
    """An engine that measures a prompt without a thread: ``measure_prompt`` is
    :meth:`TokenCounter.count_prompt_tokens` awaited on any event loop (llama.cpp and remote
    servers ask over HTTP on the engine loop). Code already on the engine loop uses it, so it never
    hops to a thread and back."""

    async def measure_prompt(
        self, messages: Sequence[ChatMessage], tools: Sequence[Mapping[str, Any]] | None = None
    ) -> int: ...


@dataclass(frozen=True)
class TemplateCaps:
    """What the loaded model's chat template can render, as its engine found out."""

    #: ``tools`` given to the engine appear in the prompt (else they would be dropped silently)
    renders_tools: bool
    #: a system message after the first turn stays where it is (else system messages are merged
    #: into the leading one, the only place every template takes them)
    system_anywhere: bool = False


@runtime_checkable
class TemplateInspector(Protocol):
    """An engine that can say what its chat template renders (llama.cpp reads it off llama-server),
    awaited on any event loop."""

    async def template_caps(self) -> TemplateCaps: ...
