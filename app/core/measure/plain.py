"""Measure one answer: the same prompt again with speculation off, for a direct speedup.

llama.cpp fixes speculation when a model loads (the drafter and ``draft.n_max`` are server
options; a request cannot turn them off), so the plain run needs a plain engine of the same
model file: the caller loads one (same engine, file and thread count, a context just large enough
for the prompt and the answer), runs the prompt with the answer's sampling capped at the answer's
length, and closes it. The speculative engine stays loaded and idle meanwhile; the chat waits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.core.answer import Answer, collect
from app.core.cancel import CancelToken
from app.core.engines.base import ChatMessage, Engine, Sampling
from app.core.engines.blocking import generate
from app.core.measure.baselines import MIN_TOKENS

#: context slack over prompt + answer for the plain engine (chat template, end tokens)
CONTEXT_SLACK = 256
MIN_CONTEXT = 512


class MeasureError(RuntimeError):
    """The plain run gave nothing to compare (stopped, or too short to time)."""


def plain_context(prompt_tokens: int, completion_tokens: int, n_ctx: int) -> int:
    """A context that holds the prompt and the answer, never more than the launch's."""
    need = max(MIN_CONTEXT, prompt_tokens + completion_tokens + CONTEXT_SLACK)
    return min(n_ctx, need) if n_ctx > 0 else need


def plain_sampling(sampling: Sampling, completion_tokens: int) -> Sampling:
    """The answer's sampling (greedy stays greedy), capped at the answer's length so both runs
    decode about as many tokens."""
    return replace(sampling, max_tokens=max(completion_tokens, MIN_TOKENS))


def run_plain(
    engine: Engine, messages: Sequence[ChatMessage], sampling: Sampling, cancel: CancelToken | None = None
) -> Answer:
    """Run ``messages`` on a plain engine and time its decode (blocking: a worker thread).

    The answer is complete and its ``decode_tps`` measured; :class:`MeasureError` otherwise."""
    answer = collect(generate(engine, messages, sampling, cancel), cancel)
    if answer.cancelled:
        raise MeasureError("The measurement was stopped.")
    if answer.decode_tps is None or answer.completion_tokens < 2:
        raise MeasureError("The plain answer was too short to time.")
    return answer
