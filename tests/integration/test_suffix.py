"""Suffix decoding and prompt lookup on the MLX engine, on real tiny and small models.

Tiny random-weight checkpoints (mlx-vlm Gemma 4, mlx-lm llama) come from
:mod:`app.devtools.mlx_models`; SmolLM2-135M is the F32 GGUF fixture converted to MLX by
:mod:`app.core.engines.mlx.convert` (cached in the test-asset folder). Every test has its own
``TANDEM_HOME`` (conftest), so the learned corpus starts empty and lives in the test's data dir.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.engines.base import CancelToken, Finished, LoadRequest, Round, Sampling, TextDelta
from app.core.engines.blocking import generate
from app.core.speculative import SpeculationOptions
from app.core.speculative import suffix as sx
from app.devtools import mlx_models as fx
from app.devtools.assets import ASSET_DIR
from tests.mlx_required import require_mlx

pytestmark = pytest.mark.mlx

QUESTION = [{"role": "user", "content": "Write a short note about speculative decoding."}]
OTHER = [{"role": "user", "content": "Tell me about the sea."}]


@pytest.fixture(scope="session")
def tiny(real_models: None, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    require_mlx()
    root = tmp_path_factory.mktemp("suffix-checkpoints")
    return {"gemma4": fx.write_gemma4_target(root / "g4"), "llama": fx.write_llama_target(root / "llama")}


@pytest.fixture(scope="session")
def smollm2_mlx(smollm2_f32: Path) -> Path:
    require_mlx("mlx_lm")
    from app.core.engines.mlx.convert import smollm2_mlx as convert

    return convert(smollm2_f32, ASSET_DIR)


@pytest.fixture
def engines() -> Iterator[list[Any]]:
    opened: list[Any] = []
    yield opened
    for e in opened:
        e.close()


def _load(engines: list[Any], path: Path, method: str | None = None, n: int | None = None) -> Any:
    from app.core.engines.mlx.engine import MLXEngine

    spec = SpeculationOptions.build(enabled=method is not None, method=method, num_speculative_tokens=n)
    engine = MLXEngine.load(LoadRequest(str(path), spec))
    engine.cost_gate = False  # every proposal verified: acceptance is then a property of the tree
    engines.append(engine)
    return engine


def _ask(
    engine: Any, messages: list[dict[str, str]], max_tokens: int, **kw: Any
) -> tuple[Finished, list[Any]]:
    events = list(generate(engine, messages, Sampling(max_tokens=max_tokens, **kw)))
    fin = events[-1]
    assert isinstance(fin, Finished)
    deltas = [e for e in events if isinstance(e, TextDelta)]
    rounds = [e for e in events if isinstance(e, Round)]
    # the accounting every stream keeps: a plain engine's has no rounds, a speculating one's rounds
    # emit every token of the answer
    assert sum(d.token_count for d in deltas) == fin.completion_tokens
    if engine.spec_kind is None:
        assert rounds == []
    else:
        assert rounds and sum(r.emitted for r in rounds) == fin.completion_tokens, rounds
    assert sum(d.token_count for d in deltas if d.from_draft) == fin.accepted_total
    assert sum(r.drafted for r in rounds) == fin.drafted_total
    return fin, events


def _text(events: list[Any]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


def _records() -> list[sx.Record]:
    files = sorted(sx.store_dir().glob("*.jsonl"))
    assert len(files) <= 1
    return sx.SuffixStore(files[0].stem).records() if files else []


@pytest.mark.parametrize("model", ["gemma4", "llama"])
def test_greedy_parity_and_the_repeated_request_comes_from_the_tree(
    tiny: dict[str, Path], engines: list[Any], model: str
) -> None:
    plain = _load(engines, tiny[model])
    suffix = _load(engines, tiny[model], "suffix")
    ref, _ = _ask(plain, QUESTION, 48)
    first, _ = _ask(suffix, QUESTION, 48)
    again, _ = _ask(suffix, QUESTION, 48)  # regenerate: the repeated workload
    assert first.token_ids == ref.token_ids and again.token_ids == ref.token_ids
    assert again.accepted_total >= 0.8 * again.completion_tokens, again
    assert again.rounds < first.rounds
    assert suffix._state.suffix.active_requests == frozenset()  # released when it finished


@pytest.mark.parametrize("penalty", [1.0, 1.3])
def test_pipelined_rounds_and_split_drafts_keep_greedy_parity(
    tiny: dict[str, Path], engines: list[Any], penalty: float
) -> None:
    """Rounds without a draft are pipelined (the next pass is queued before the token is known);
    a draft found after such a token is verified by that queued pass plus a pass of its own. Both
    keep the answer token-identical to plain decoding, with a repeat penalty too (its window then
    ends in a token not yet known)."""
    plain = _load(engines, tiny["llama"])
    suffix = _load(engines, tiny["llama"], "suffix")
    ref, _ = _ask(plain, QUESTION, 48, repeat_penalty=penalty)
    first, events = _ask(suffix, QUESTION, 48, repeat_penalty=penalty)
    rounds = [e for e in events if isinstance(e, Round)]
    assert any(a.drafted == 0 and b.drafted > 0 for a, b in itertools.pairwise(rounds)), rounds
    again, _ = _ask(suffix, QUESTION, 48, repeat_penalty=penalty)
    assert first.token_ids == ref.token_ids and again.token_ids == ref.token_ids
    assert again.accepted_total >= 0.8 * again.completion_tokens, again


def test_rounds_without_a_draft_are_pipelined_like_plain_decoding(
    smollm2_mlx: Path, engines: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each round without a draft queues the next one-token pass (``mx.async_eval``, as mlx-lm's
    plain ``generate_step`` does) before its own token is read, so the loop is as fast as plain
    decoding when the tree has nothing to offer (it evaluated every round synchronously)."""
    import mlx.core as mx

    queued: list[int] = []
    real = mx.async_eval

    def spy(*arrays: Any) -> None:
        queued.append(len(arrays))
        real(*arrays)

    monkeypatch.setattr(mx, "async_eval", spy)
    prompt_lookup = _load(engines, smollm2_mlx, "prompt-lookup")
    fin, events = _ask(prompt_lookup, OTHER, 32)
    plain_rounds = [e for e in events if isinstance(e, Round) and e.drafted == 0]
    assert fin.completion_tokens == 32 and len(plain_rounds) >= 8, events
    # every round without a draft queues its successor (the last token has none to queue)
    assert len(queued) >= len(plain_rounds) - 1, (len(queued), len(plain_rounds))


def test_a_capped_answer_teaches_every_token_and_is_released_at_once(
    tiny: dict[str, Path], engines: list[Any]
) -> None:
    suffix = _load(engines, tiny["llama"], "suffix", n=4)
    fin, _ = _ask(suffix, QUESTION, 21)  # capped by max tokens, the last round after the last draft
    assert fin.reason == "length" and fin.completion_tokens == 21
    (record,) = _records()
    assert record.response == fin.token_ids  # all 21, the tail after the last drafting step too
    assert record.conversation == sx.key_for_messages(QUESTION)
    assert suffix._state.suffix.active_requests == frozenset()


def test_draft_length_is_capped_by_the_tokens_left(tiny: dict[str, Path], engines: list[Any]) -> None:
    suffix = _load(engines, tiny["llama"], "suffix", n=16)
    _ask(suffix, QUESTION, 40)
    fin, events = _ask(suffix, QUESTION, 10)
    rounds = [e for e in events if isinstance(e, Round)]
    produced = 0
    for r in rounds:
        assert r.drafted <= 10 - produced - 1  # verification always emits one more token
        produced += r.emitted
    # the prompt pass gives token 1; then one round of 8 drafts (10 - 1 - 1), all accepted, + 1
    assert produced == 10 and fin.accepted_total == 8 and len(rounds) == 2


def test_a_cancelled_answer_teaches_its_committed_part(tiny: dict[str, Path], engines: list[Any]) -> None:
    suffix = _load(engines, tiny["llama"], "suffix")
    cancel = CancelToken()
    taken: list[int] = []
    fin: Finished | None = None
    for ev in generate(suffix, QUESTION, Sampling(max_tokens=200), cancel):
        if isinstance(ev, TextDelta):
            taken.append(ev.token_count)
            if sum(taken) >= 7:
                cancel.cancel()
        elif isinstance(ev, Finished):
            fin = ev
    assert fin is not None and fin.reason == "cancelled"
    (record,) = _records()
    assert record.response == fin.token_ids and len(record.response) == fin.completion_tokens >= 7
    assert suffix._state.suffix.active_requests == frozenset()


def test_a_stop_string_inside_an_accepted_draft_ends_where_plain_decoding_does(
    tiny: dict[str, Path], engines: list[Any]
) -> None:
    plain = _load(engines, tiny["gemma4"])
    suffix = _load(engines, tiny["gemma4"], "suffix")
    _, full = _ask(plain, QUESTION, 48)
    text = _text(full)
    stop = text[20:23]
    assert stop and text.find(stop) >= 10, text
    ref, ref_events = _ask(plain, QUESTION, 48, stop=(stop,))
    _ask(suffix, QUESTION, 48)  # the tree learns the whole answer
    got, events = _ask(suffix, QUESTION, 48, stop=(stop,))
    assert got.reason == ref.reason == "stop"
    assert _text(events) == _text(ref_events) == text[: text.find(stop)]
    assert got.token_ids == ref.token_ids
    assert any(isinstance(e, Round) and e.accepted > 0 for e in events)  # the stop fell in a draft


def test_eos_inside_an_accepted_draft_ends_where_plain_decoding_does(
    smollm2_mlx: Path, engines: list[Any]
) -> None:
    ask = [{"role": "user", "content": "What is 2+2? Reply with just the number."}]
    plain = _load(engines, smollm2_mlx)
    suffix = _load(engines, smollm2_mlx, "suffix")
    ref, _ = _ask(plain, ask, 24)
    assert ref.reason == "stop" and ref.completion_tokens < 24  # the model ends with <|im_end|>
    _ask(suffix, ask, 24)
    again, events = _ask(suffix, ask, 24)
    assert again.reason == "stop" and again.token_ids == ref.token_ids
    assert again.completion_tokens == ref.completion_tokens  # the end token counted, nothing after it
    last_drafting = [e for e in events if isinstance(e, Round) and e.drafted][-1]
    assert last_drafting.accepted == last_drafting.drafted  # the end token came from the draft


def test_two_interleaved_conversations_keep_their_own_answers(
    tiny: dict[str, Path], engines: list[Any]
) -> None:
    plain = _load(engines, tiny["llama"])
    suffix = _load(engines, tiny["llama"], "suffix")
    ref_a, _ = _ask(plain, QUESTION, 32)
    ref_b, _ = _ask(plain, OTHER, 32)
    a1, _ = _ask(suffix, QUESTION, 32)
    b1, _ = _ask(suffix, OTHER, 32)
    a2, _ = _ask(suffix, QUESTION, 32)
    b2, _ = _ask(suffix, OTHER, 32)
    assert a1.token_ids == a2.token_ids == ref_a.token_ids
    assert b1.token_ids == b2.token_ids == ref_b.token_ids
    assert {r.conversation for r in _records()} == {sx.key_for_messages(QUESTION), sx.key_for_messages(OTHER)}
    # and at the cache level, two requests open at once do not see each other's active text
    cache = suffix._state.suffix
    cache.start_request("x", [1, 2, 3])
    cache.start_request("y", [1, 2, 3])
    cache.add_active_response("x", [4, 5, 1, 2, 3])
    assert 4 not in cache.speculate("y", [1, 2, 3], 4, use_global=False).token_ids
    cache.stop_request("x", learn=False)
    cache.stop_request("y", learn=False)


def test_edit_and_resend_hits_the_tree(tiny: dict[str, Path], engines: list[Any]) -> None:
    edited = [{"role": "user", "content": "Write a short note about speculative decoding!"}]
    fresh = _load(engines, tiny["llama"], "prompt-lookup")
    baseline, _ = _ask(fresh, edited, 40)  # what the request's own text gives
    suffix = _load(engines, tiny["llama"], "suffix")
    _ask(suffix, QUESTION, 40)
    resent, _ = _ask(suffix, edited, 40)
    assert resent.token_ids == baseline.token_ids
    assert resent.accepted_total > baseline.accepted_total


def test_the_corpus_persists_and_is_forgotten_with_its_conversation(
    tiny: dict[str, Path], engines: list[Any]
) -> None:
    from app.core.chat.store import ChatStore

    first = _load(engines, tiny["gemma4"], "suffix")
    ref, _ = _ask(first, QUESTION, 40)
    first.close()
    second = _load(engines, tiny["gemma4"], "suffix")  # a restart: the tree comes from disk
    again, _ = _ask(second, QUESTION, 40)
    assert again.token_ids == ref.token_ids and again.accepted_total >= 0.8 * again.completion_tokens

    # deleting the chat conversation deletes what it taught, on disk and in the loaded engine
    store = ChatStore()
    conv = store.create_conversation("note")
    store.add_message(conv.id, "user", QUESTION[0]["content"])
    store.delete_conversation(conv.id)
    assert _records() == []
    prompt_only = _load(engines, tiny["gemma4"], "prompt-lookup")
    expected, _ = _ask(prompt_only, QUESTION, 40)
    after, _ = _ask(second, QUESTION, 40)  # learns again from this answer, but proposed nothing old
    assert after.accepted_total == expected.accepted_total


def test_forget_learned_text_clears_disk_and_live_engines(tiny: dict[str, Path], engines: list[Any]) -> None:
    suffix = _load(engines, tiny["llama"], "suffix")
    _ask(suffix, QUESTION, 24)
    assert _records() and suffix._state.suffix.cached_tokens > 0
    sx.forget_all()
    assert _records() == [] and suffix._state.suffix.cached_tokens == 0


def test_llamacpp_is_not_offered_suffix_and_mlx_is() -> None:
    from app.core.engines.capability import model_free_methods
    from app.core.engines.llamacpp.translate import plan as plan_llamacpp
    from app.core.speculative.options import SpeculationError

    assert model_free_methods("mlx") == ["prompt-lookup", "suffix"]
    assert "suffix" not in model_free_methods("llama.cpp") and "ngram-mod" in model_free_methods("llama.cpp")
    with pytest.raises(SpeculationError, match=r"llama\.cpp does not offer the method 'suffix'"):
        plan_llamacpp(SpeculationOptions.build(enabled=True, method="suffix"))


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ),
    )


def test_cli_generate_twice_in_new_processes_and_parity(smollm2_mlx: Path) -> None:
    """End to end across processes: a second process accepts most of its tokens from the persisted
    tree, and ``tandem parity --spec-method suffix`` exits 0 on benchmarks/prompts.txt."""
    base = ["--engine", "mlx", "--model-path", str(smollm2_mlx), "--spec-method", "suffix"]
    prompt = "Write a Python function that adds two numbers."
    runs = []
    for _ in range(2):
        done = _cli("generate", *base, "--prompt", prompt, "--max-tokens", "32", "--json")
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout))
    assert runs[0]["speculation"] and runs[0]["method"] == "suffix"
    assert runs[1]["text"] == runs[0]["text"]
    assert runs[1]["accepted_total"] >= 0.8 * runs[1]["completion_tokens"], runs[1]

    prompts = Path(__file__).resolve().parents[2] / "benchmarks" / "prompts.txt"
    done = _cli("parity", *base, "--prompts", str(prompts), "--max-tokens", "24")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "FAIL 0" in done.stdout
