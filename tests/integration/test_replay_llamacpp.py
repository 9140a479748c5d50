"""The replay of llama.cpp's model-free methods against the real engine (the embedded SmolLM2).

Each method runs in its own child over the same conversation: a list whose answer repeats its own
pattern, a second turn that asks to repeat the previous answer (its text is in the prompt), a short
unrelated question, and the first request again in the same child (ngram-mod's pool remembers the
first answer). Every answer's rounds are replayed over its prompt ids (as the child tokenized them)
and its token ids (from a plain child: greedy answers are the same, which the test checks first),
carrying the replay's state from answer to answer like the child carries its own, and the replayed
rounds must equal the streamed ones, round by round, with the same drafted and accepted totals.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from app.core import gguf_tools
from app.core.answer import Answer, collect
from app.core.engines.base import ChatMessage, LoadRequest, Round, Sampling
from app.core.engines.blocking import generate
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.speculative import SpeculationOptions
from app.core.speculative.replay import ReplayResult, ReplayRound, ReplayState, replay
from app.core.speculative.replay_params import ReplayParams

N_CTX = 2048
LIST = "List the numbers from 1 to 30, separated by commas."
POEM = "Write a short poem about the sea."
HAIKU = "Write a haiku about autumn."


def _load(path: Path, method: str | None = None, depth: int | None = None) -> LlamaCppEngine:
    spec = SpeculationOptions.build(enabled=method is not None, method=method, num_speculative_tokens=depth)
    return LlamaCppEngine.load(LoadRequest(str(path), spec, n_ctx=N_CTX, n_threads=2))


def _ask(engine: LlamaCppEngine, messages: list[ChatMessage], max_tokens: int, ids: bool = False) -> Answer:
    greedy = Sampling(temperature=0.0, max_tokens=max_tokens)
    return collect(generate(engine, messages, greedy, None, top_logprobs=1 if ids else 0))


@pytest.fixture(scope="module")
def plain(smollm2_q4: Path) -> Iterator[LlamaCppEngine]:
    with _load(smollm2_q4) as engine:
        yield engine


def _repeat_turn(plain: LlamaCppEngine, question: str, max_tokens: int) -> list[ChatMessage]:
    """A second turn that asks for the plain child's first answer again (its text is in the prompt)."""
    first = _ask(plain, [{"role": "user", "content": question}], max_tokens).text
    return [
        {"role": "user", "content": question},
        {"role": "assistant", "content": first},
        {"role": "user", "content": "Repeat your previous answer exactly, word for word."},
    ]


@pytest.fixture(scope="module")
def conversation(plain: LlamaCppEngine) -> list[tuple[list[ChatMessage], int]]:
    """The requests, in order, with their max_tokens. The haiku is repeated verbatim and cut by the
    limit before its end (past the end of an answer the target's tokens are unknown); the poem is
    repeated in part."""
    return [
        (_repeat_turn(plain, HAIKU, 64), 28),
        ([{"role": "user", "content": LIST}], 120),
        (_repeat_turn(plain, POEM, 96), 64),
        ([{"role": "user", "content": "Say hi."}], 32),
        ([{"role": "user", "content": LIST}], 120),
    ]


@pytest.fixture(scope="module")
def reference(plain: LlamaCppEngine, conversation: list[tuple[list[ChatMessage], int]]) -> list[Answer]:
    """The plain child's answers with their token ids (a speculative child streams no ids for
    drafted tokens)."""
    out = []
    for messages, max_tokens in conversation:
        answer = _ask(plain, messages, max_tokens, ids=True)
        assert answer.token_ids is not None and answer.complete
        out.append(answer)
    return out


def _rounds(rounds: Sequence[Round | ReplayRound]) -> list[tuple[int, int, int]]:
    """(drafted, accepted, emitted) per round, accepted as the stream shows it (at most emitted)."""
    return [(r.drafted, min(r.accepted, r.emitted), r.emitted) for r in rounds]


def _first_difference(got: list[tuple[int, int, int]], want: list[tuple[int, int, int]]) -> str:
    for i, (g, w) in enumerate(zip(got, want, strict=False)):
        if g != w:
            return f"round {i}: replayed {g}, real {w}"
    return f"round {min(len(got), len(want))}: replayed {len(got)} rounds, real {len(want)}"


@pytest.mark.parametrize(
    ("method", "depth"),
    [
        ("ngram-mod", None),
        ("ngram-map-k", None),
        ("ngram-map-k4v", 16),
        ("ngram-simple", 16),
        ("ngram-cache", None),
    ],
)
def test_replay_matches_the_engine(
    smollm2_q4: Path,
    plain: LlamaCppEngine,
    conversation: list[tuple[list[ChatMessage], int]],
    reference: list[Answer],
    method: str,
    depth: int | None,
) -> None:
    end_token = gguf_tools.vocab_info(smollm2_q4).eos
    state: ReplayState | None = None
    drafted_anywhere = 0
    with _load(smollm2_q4, method, depth) as engine:
        params = ReplayParams.from_settings(engine.plan.settings)
        for n, ((messages, max_tokens), ref) in enumerate(zip(conversation, reference, strict=True)):
            real = _ask(engine, messages, max_tokens)
            assert real.complete
            assert real.text == ref.text, f"{method}, request {n}: the answer is not the plain child's"
            assert real.completion_tokens == ref.completion_tokens
            ids = ref.token_ids
            assert ids is not None
            ended = real.completion_tokens == len(ids) + 1  # the end-of-generation token has no id entry
            result: ReplayResult = replay(
                method,
                params,
                engine.prompt_token_ids(messages),
                ids,
                state,
                end_token=end_token if ended else None,
                max_tokens=max_tokens,
                n_ctx=N_CTX,
            )
            state = result.state
            got, want = _rounds(result.rounds), _rounds(real.rounds)
            assert result.exact, f"{method}, request {n}: a draft ran past the answer's end"
            assert got == want, f"{method}, request {n}: {_first_difference(got, want)}"
            assert (result.drafted_total, result.accepted_total) == (real.drafted_total, real.accepted_total)
            assert result.emitted_total == real.completion_tokens
            drafted_anywhere += real.drafted_total
    assert drafted_anywhere > 0, f"{method} never drafted: the comparison would be empty"
