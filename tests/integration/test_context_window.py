"""Context window management on the real llama.cpp engine.

SmolLM2 runs at n_ctx 512: a long conversation fails as it is, and fits once trimmed with the
engine's own tokenizer; the count matches what llama.cpp reports for the chat request.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.chat.context import fit_history
from app.core.engines.base import ChatMessage, Finished, GenerationError, LoadRequest, Sampling, TokenCounter
from app.core.engines.blocking import generate
from app.core.engines.llamacpp.engine import LlamaCppEngine


def long_conversation(turns: int = 12) -> list[ChatMessage]:
    out: list[ChatMessage] = [{"role": "system", "content": "You are a helpful assistant."}]
    for t in range(turns):
        out.append({"role": "user", "content": f"Tell me fact number {t} about the sea and its tides."})
        out.append(
            {
                "role": "assistant",
                "content": f"Fact {t}: the sea covers most of the planet, its tides follow the moon, "
                "and its water moves heat from the equator towards the poles every single day.",
            }
        )
    out.append({"role": "user", "content": "What is the capital of France?"})
    return out


@pytest.fixture(scope="module")
def engine(smollm2_q4: Path) -> Iterator[LlamaCppEngine]:
    eng = LlamaCppEngine.load(LoadRequest(str(smollm2_q4), n_ctx=512, n_threads=2))
    yield eng
    eng.close()


def test_counts_the_prompt_as_the_chat_request_builds_it(engine: LlamaCppEngine) -> None:
    assert isinstance(engine, TokenCounter) and engine.n_ctx == 512
    msgs: list[ChatMessage] = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Name three colors, please."},
    ]
    counted = engine.count_prompt_tokens(msgs)
    finished = list(generate(engine, msgs, Sampling(max_tokens=4)))[-1]
    assert isinstance(finished, Finished)
    assert counted == finished.prompt_tokens > 10


def test_a_long_conversation_fails_as_it_is_and_answers_once_trimmed(engine: LlamaCppEngine) -> None:
    msgs = long_conversation()
    assert engine.count_prompt_tokens(msgs) > 512
    with pytest.raises(GenerationError, match="exceeds the available context size"):
        list(generate(engine, msgs, Sampling(max_tokens=32)))
    fitted = fit_history(msgs, engine.count_prompt_tokens, engine.n_ctx, 32)
    assert fitted.dropped > 0 and fitted.messages[0] == msgs[0] and fitted.messages[-1] == msgs[-1]
    events = list(generate(engine, fitted.messages, Sampling(max_tokens=32)))
    finished = events[-1]
    assert isinstance(finished, Finished) and finished.completion_tokens > 0
    assert finished.prompt_tokens == fitted.prompt_tokens <= 512 - 32
