"""What the server answers, as types: the bodies and stream chunks of the three APIs, their errors,
and Tandem's ``tandem`` extension on every answer.

They are TypedDicts, so an answer is built as the plain JSON object it is sent as, while the type
checker holds every builder to the shape; the published document (:func:`~app.core.serving.schemas.openapi`)
describes the answers from these same types. (``typing_extensions.TypedDict``: pydantic reads
these to write the document, and needs that one before Python 3.12.)
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired

from pydantic import JsonValue
from typing_extensions import TypedDict


# --- every API ---------------------------------------------------------------------------------------
class SpeculationFigures(TypedDict):
    """A request's speculation figures: Tandem's names, plus vLLM's ``num_*`` counters."""

    enabled: bool
    method: str | None
    drafted: int
    accepted: int
    rounds: int
    drafting_rounds: int
    acceptance_rate: float | None
    mean_accepted_length: float | None
    num_drafts: int
    num_draft_tokens: int
    num_accepted_tokens: int
    #: the share of the answer's tokens that came from accepted drafts (None: no tokens)
    from_drafts: float | None


class Timings(TypedDict):
    prompt_ms: float
    decode_ms: float
    decode_tokens_per_second: float | None


class TandemExtension(TypedDict):
    """The ``tandem`` object of an answer."""

    speculative_decoding: SpeculationFigures
    timings: Timings
    #: what the server left out of the request and why (hosted tools it cannot run)
    warnings: NotRequired[list[str]]
    #: this answer against its own tokens decoded plainly (1.0 when it drafted nothing)
    speedup: NotRequired[float]
    #: where the plain step of ``speedup`` came from: nothing-drafted, own-steps, recent-steps,
    #: cost-model
    speedup_basis: NotRequired[str]
    #: every configuration's predicted decode speed on this answer: ``speculation``,
    #: ``draft_tokens``, ``decode_tokens_per_second``, ``basis`` (replayed or estimated)
    alternatives: NotRequired[list[dict[str, object]]]
    #: the documents (whole) and passages the prompt was given: ``filename``, ``page``, ``text``
    sources: NotRequired[list[dict[str, Any]]]


class OpenAIErrorDetail(TypedDict):
    message: str
    type: str
    param: str | None
    code: str | None


class OpenAIErrorBody(TypedDict):
    """An error on the OpenAI paths (and an error event of a chat stream)."""

    error: OpenAIErrorDetail


class AnthropicErrorDetail(TypedDict):
    type: str
    message: str


class AnthropicErrorBody(TypedDict):
    """An error on the Messages paths (and the ``error`` event of a Messages stream)."""

    type: Literal["error"]
    error: AnthropicErrorDetail


# --- OpenAI chat completions -------------------------------------------------------------------------
class FunctionCallOut(TypedDict):
    name: str
    #: the arguments object as JSON text
    arguments: str


class ChatToolCallOut(TypedDict):
    id: str
    type: Literal["function"]
    function: FunctionCallOut
    #: the call's place among the answer's calls (stream deltas only)
    index: NotRequired[int]


class AnswerMessage(TypedDict):
    role: Literal["assistant"]
    content: str | None
    tool_calls: NotRequired[list[ChatToolCallOut]]


class ChatChoice(TypedDict):
    index: int
    message: AnswerMessage
    finish_reason: Literal["stop", "length", "tool_calls"]


class ChatUsage(TypedDict):
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


class ChatCompletion(TypedDict):
    """The answer of ``POST /v1/chat/completions``."""

    id: str
    object: Literal["chat.completion"]
    created: int
    model: str
    choices: list[ChatChoice]
    usage: ChatUsage
    tandem: TandemExtension


class ChunkDelta(TypedDict, total=False):
    role: Literal["assistant"]
    content: str
    tool_calls: list[ChatToolCallOut]


class ChunkChoice(TypedDict):
    index: int
    delta: ChunkDelta
    finish_reason: Literal["stop", "length", "tool_calls"] | None


class ChatChunk(TypedDict):
    """One event of a chat-completions stream (the last ones carry the usage and figures)."""

    id: str
    object: Literal["chat.completion.chunk"]
    created: int
    model: str
    choices: list[ChunkChoice]
    usage: NotRequired[ChatUsage]
    tandem: NotRequired[TandemExtension]


# --- OpenAI Responses ----------------------------------------------------------------------------------
class OutputText(TypedDict):
    type: Literal["output_text"]
    text: str
    annotations: list[JsonValue]


class MessageItem(TypedDict):
    type: Literal["message"]
    id: str
    status: Literal["in_progress", "completed"]
    role: Literal["assistant"]
    content: list[OutputText]


class FunctionCallItem(TypedDict):
    type: Literal["function_call"]
    id: str
    call_id: str
    name: str
    #: the arguments object as JSON text
    arguments: str
    status: Literal["in_progress", "completed"]


OutputItem = MessageItem | FunctionCallItem


class InputTokensDetails(TypedDict):
    cached_tokens: int


class OutputTokensDetails(TypedDict):
    reasoning_tokens: int


class ResponsesUsage(TypedDict):
    input_tokens: int
    input_tokens_details: InputTokensDetails
    output_tokens: int
    output_tokens_details: OutputTokensDetails
    total_tokens: int


class IncompleteDetails(TypedDict):
    reason: Literal["max_output_tokens"]


class ResponseError(TypedDict):
    code: str
    message: str


ResponseStatus = Literal["in_progress", "completed", "incomplete", "failed"]


class ResponseBody(TypedDict):
    """The ``response`` object: the answer of ``POST /v1/responses``, and what its stream's
    ``response.*`` events carry."""

    id: str
    object: Literal["response"]
    created_at: int
    status: ResponseStatus
    error: ResponseError | None
    incomplete_details: IncompleteDetails | None
    model: str
    output: list[OutputItem]
    parallel_tool_calls: bool
    tool_choice: str
    tools: list[JsonValue]
    usage: ResponsesUsage | None
    tandem: NotRequired[TandemExtension]


class ResponseLifecycleEvent(TypedDict):
    """The response as it stands: created, in progress, and how it ended."""

    type: Literal[
        "response.created",
        "response.in_progress",
        "response.completed",
        "response.incomplete",
        "response.failed",
    ]
    sequence_number: int
    response: ResponseBody


class OutputItemEvent(TypedDict):
    type: Literal["response.output_item.added", "response.output_item.done"]
    sequence_number: int
    output_index: int
    item: OutputItem


class ContentPartEvent(TypedDict):
    type: Literal["response.content_part.added", "response.content_part.done"]
    sequence_number: int
    item_id: str
    output_index: int
    content_index: int
    part: OutputText


class OutputTextDelta(TypedDict):
    type: Literal["response.output_text.delta"]
    sequence_number: int
    item_id: str
    output_index: int
    content_index: int
    delta: str
    logprobs: list[JsonValue]


class OutputTextDone(TypedDict):
    type: Literal["response.output_text.done"]
    sequence_number: int
    item_id: str
    output_index: int
    content_index: int
    text: str
    logprobs: list[JsonValue]


class ArgumentsDelta(TypedDict):
    type: Literal["response.function_call_arguments.delta"]
    sequence_number: int
    item_id: str
    output_index: int
    delta: str


class ArgumentsDone(TypedDict):
    type: Literal["response.function_call_arguments.done"]
    sequence_number: int
    item_id: str
    output_index: int
    name: str
    arguments: str


class StreamError(TypedDict):
    """The error event of a Responses stream (``response.failed`` follows it)."""

    type: Literal["error"]
    sequence_number: int
    code: str
    message: str
    param: str | None


#: one event of a Responses stream
ResponseStreamEvent = (
    ResponseLifecycleEvent
    | OutputItemEvent
    | ContentPartEvent
    | OutputTextDelta
    | OutputTextDone
    | ArgumentsDelta
    | ArgumentsDone
    | StreamError
)


# --- Anthropic Messages --------------------------------------------------------------------------------
class TextBlock(TypedDict):
    type: Literal["text"]
    text: str


class ToolUseBlock(TypedDict):
    type: Literal["tool_use"]
    id: str
    name: str
    input: dict[str, JsonValue]


class MessagesUsage(TypedDict):
    input_tokens: int
    output_tokens: int


StopReason = Literal["end_turn", "max_tokens", "stop_sequence", "tool_use", "model_context_window_exceeded"]


class MessageBody(TypedDict):
    """The answer of ``POST /v1/messages`` (a stream's ``message_start`` carries it empty)."""

    id: str
    type: Literal["message"]
    role: Literal["assistant"]
    model: str
    content: list[TextBlock | ToolUseBlock]
    stop_reason: StopReason | None
    stop_sequence: str | None
    usage: MessagesUsage
    tandem: NotRequired[TandemExtension]


class TokenCount(TypedDict):
    """The answer of ``POST /v1/messages/count_tokens``."""

    input_tokens: int
