"""Fitting a conversation into the model's context window.

The rule: the system prompt and the newest turns that fit are sent; older turns are left out,
whole turns at a time (a user message with the answers after it), so the history sent always
starts with a user message (some chat templates refuse anything else). Sizes are measured in
tokens by the engine's own tokenizer with the chat template applied (``count``), and room is kept
for the answer: ``min(max_tokens, n_ctx // 2)`` tokens, so a large max-tokens setting cannot
leave no room at all for the history (the answer then ends at the context's end, as llama.cpp and
MLX do). When the system prompt and the newest message alone do not fit, nothing is sent and
:class:`ContextOverflowError` says by how much.

``count`` is called O(log turns) times (a binary search over where the kept history starts).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.core.engines.base import ChatMessage, GenerationError

#: measures a list of messages in tokens, chat template and generation prompt included
TokenCount = Callable[[Sequence[ChatMessage]], int]


class ContextOverflowError(GenerationError):
    """The newest message (with the system prompt) alone does not fit in the context."""

    hint = "Shorten the message, lower Max new tokens, or load the model with a larger context length."

    def __init__(self, needed: int, n_ctx: int, reserved: int) -> None:
        self.needed = needed
        self.n_ctx = n_ctx
        self.reserved = reserved
        super().__init__(
            f"This message needs {needed} tokens (with the system prompt), but the model's context holds "
            f"{n_ctx} tokens and {reserved} of them are kept for the answer."
        )


@dataclass(frozen=True)
class FittedHistory:
    messages: list[ChatMessage]
    #: how many messages (not counting the system prompt) were left out
    dropped: int
    #: the size of ``messages`` in tokens
    prompt_tokens: int


def answer_reserve(n_ctx: int, max_tokens: int) -> int:
    """Tokens kept free for the answer: max new tokens, but never more than half the context."""
    return max(1, min(max_tokens, n_ctx // 2))


def fit_history(
    messages: Sequence[ChatMessage], count: TokenCount, n_ctx: int, max_tokens: int
) -> FittedHistory:
    """Keep the leading system messages and the newest turns that fit in ``n_ctx``.

    ``n_ctx <= 0`` means the context length is unknown: everything is sent as it is.
    """
    msgs = list(messages)
    if n_ctx <= 0:
        return FittedHistory(msgs, 0, -1)
    reserved = answer_reserve(n_ctx, max_tokens)
    budget = n_ctx - reserved
    n_system = 0
    while n_system < len(msgs) and msgs[n_system]["role"] == "system":
        n_system += 1
    system, rest = msgs[:n_system], msgs[n_system:]
    total = count(msgs)
    if total <= budget:
        return FittedHistory(msgs, 0, total)
    # where a kept history may start: the first message, or any user message
    starts = sorted({0} | {i for i, m in enumerate(rest) if m["role"] == "user"})

    def size(k: int) -> int:
        return count(system + rest[starts[k] :])

    newest = len(starts) - 1
    smallest = size(newest) if newest > 0 else total
    if smallest > budget:
        raise ContextOverflowError(smallest, n_ctx, reserved)
    # the earliest start that fits (size() shrinks as the start moves later); hi always fits
    lo, hi, tokens = 1, newest, smallest
    while lo < hi:
        mid = (lo + hi) // 2
        measured = size(mid)
        if measured <= budget:
            hi, tokens = mid, measured
        else:
            lo = mid + 1
    k = hi
    return FittedHistory(system + rest[starts[k] :], starts[k], tokens)
