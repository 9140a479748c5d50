"""xllamacpp on the real embedded models: parity, rounds, cancel, bad input, the HTTP listener."""

from __future__ import annotations

import shutil
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.answer import collect
from app.core.engines.base import (
    CancelToken,
    ChatMessage,
    DrafterMismatchError,
    Event,
    Finished,
    LoadRequest,
    ModelLoadError,
    Round,
    Sampling,
    TextDelta,
)
from app.core.engines.blocking import generate
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.measure import compare, run_once
from app.core.speculative import SpeculationOptions

PROMPTS = [
    "Count from 1 to 15, one number per line.",
    "Write a Python function that returns the square of a number.",
    "Tell me a short story about a cat.",
]
GREEDY = Sampling(temperature=0.0, max_tokens=48)


def _load(path: Path, **spec: object) -> LlamaCppEngine:
    return LlamaCppEngine.load(
        LoadRequest(str(path), SpeculationOptions.build(**spec), n_ctx=1024, n_threads=2)
    )


@pytest.fixture(scope="module")
def plain(smollm2_f32: Path) -> Iterator[LlamaCppEngine]:
    eng = _load(smollm2_f32)
    yield eng
    eng.close()


@pytest.fixture(scope="module")
def drafted(smollm2_f32: Path, smollm2_q4: Path) -> Iterator[LlamaCppEngine]:
    eng = _load(smollm2_f32, enabled=True, draft_model_path=str(smollm2_q4), num_speculative_tokens=4)
    yield eng
    eng.close()


def _events(engine: LlamaCppEngine, prompt: str, sampling: Sampling = GREEDY) -> list[object]:
    return list(generate(engine, [{"role": "user", "content": prompt}], sampling))


@pytest.mark.parametrize("prompt", PROMPTS)
def test_draft_pair_is_token_identical_to_plain(
    plain: LlamaCppEngine, drafted: LlamaCppEngine, prompt: str
) -> None:
    off = run_once(plain, prompt, GREEDY, top_logprobs=3)
    on = run_once(drafted, prompt, GREEDY)
    assert off.token_ids is not None
    # every streamed token has its id; an end-of-generation token is counted but not streamed
    assert len(off.token_ids) == off.completion_tokens - (1 if off.reason == "stop" else 0)
    result = compare(off, on)
    assert result.identical, (
        f"spec-on diverged at token {result.first_difference}: off={result.off_token!r} "
        f"on={result.on_text!r} "
        f"candidates={result.candidates} gap={result.logprob_gap}"
    )
    # the pieces line up token by token too, not only the joined text
    assert off.pieces == on.pieces
    assert on.drafted_total > 0, "the drafter never proposed anything"


def test_round_stats_are_consistent(drafted: LlamaCppEngine) -> None:
    events = _events(drafted, PROMPTS[0])
    rounds = [e for e in events if isinstance(e, Round)]
    deltas = [e for e in events if isinstance(e, TextDelta)]
    fin = events[-1]
    assert isinstance(fin, Finished)
    assert sum(r.emitted for r in rounds) == fin.completion_tokens == sum(d.token_count for d in deltas)
    assert all(0 <= r.accepted <= r.drafted for r in rounds)
    assert all(r.emitted <= r.accepted + 1 for r in rounds)
    assert sum(r.drafted for r in rounds) == fin.drafted_total
    assert sum(r.accepted for r in rounds) == fin.accepted_total
    assert [r.index for r in rounds] == list(range(len(rounds))) and fin.rounds == len(rounds)
    # tokens marked from_draft are exactly the accepted drafts
    assert sum(d.token_count for d in deltas if d.from_draft) == fin.accepted_total
    assert fin.acceptance_rate is not None and fin.acceptance_rate > 0.5  # Q4_1 drafting for its own F32


def test_one_answer_collected_from_a_real_stream_and_a_cancelled_one(drafted: LlamaCppEngine) -> None:
    """The one accumulator (app/core/answer.py) on a real speculative stream: its figures are the
    engine's; a cancel token stops the reading there, the answer is cancelled, the engine is free."""
    messages: list[ChatMessage] = [{"role": "user", "content": PROMPTS[0]}]
    answer = collect(generate(drafted, messages, GREEDY))
    fin = answer.finished
    assert fin is not None and answer.complete and answer.reason == fin.reason
    assert answer.completion_tokens == fin.completion_tokens == answer.streamed_tokens
    assert answer.completion_tokens == sum(r.emitted for r in answer.rounds)
    assert answer.round_count == len(answer.rounds) == fin.rounds and answer.drafting_rounds > 0
    assert (answer.drafted_total, answer.accepted_total) == (fin.drafted_total, fin.accepted_total)
    assert answer.decode_tps == fin.decode_tps and answer.acceptance_rate == fin.acceptance_rate
    assert answer.draft_spans and all(0 <= a < b <= len(answer.text) for a, b in answer.draft_spans)
    assert answer.ttft_ms is not None and 0 < answer.ttft_ms <= answer.wall_ms

    cancel = CancelToken()

    def stop_at_the_third_text(events: Iterator[Event]) -> Iterator[Event]:
        seen = 0
        for ev in events:
            if isinstance(ev, TextDelta):
                seen += 1
                if seen == 3:
                    cancel.cancel()  # Stop, pressed while the third text is on its way
            yield ev

    stopped = collect(
        stop_at_the_third_text(generate(drafted, messages, Sampling(max_tokens=200), cancel)), cancel
    )
    assert stopped.cancelled and not stopped.complete and stopped.finished is None
    assert len(stopped.pieces) == 3 and stopped.completion_tokens >= 3
    again = collect(generate(drafted, messages, Sampling(max_tokens=8)))
    assert again.complete and again.reason == "length" and again.completion_tokens == 8


def test_ngram_mod_is_token_identical(smollm2_f32: Path, plain: LlamaCppEngine) -> None:
    prompt = "Repeat this list exactly twice: apple, banana, cherry, date, elderberry, fig, grape."
    sampling = Sampling(temperature=0.0, max_tokens=64)
    off = run_once(plain, prompt, sampling, top_logprobs=3)
    eng = _load(smollm2_f32, enabled=True, method="ngram-mod", num_speculative_tokens=16)
    try:
        assert eng.plan.types == ["NGRAM_MOD"]
        first = run_once(eng, prompt, sampling)
        second = run_once(eng, prompt, sampling)  # the pool learned from the first answer
    finally:
        eng.close()
    for on in (first, second):
        result = compare(off, on)
        assert result.identical, f"ngram-mod diverged at token {result.first_difference}: {result}"
    assert second.drafted_total > 0 and second.accepted_total > 0


def test_cancel_mid_stream_then_next_request_works(plain: LlamaCppEngine) -> None:
    cancel = CancelToken()
    seen = 0
    events = []
    for ev in generate(plain, [{"role": "user", "content": PROMPTS[2]}], Sampling(max_tokens=200), cancel):
        events.append(ev)
        if isinstance(ev, TextDelta):
            seen += 1
            if seen == 3:
                cancel.cancel()
    fin = events[-1]
    assert isinstance(fin, Finished) and fin.reason == "cancelled"
    assert fin.completion_tokens <= 6  # stops within a token or two
    # breaking out of the iterator early also cancels and frees the slot
    for ev in generate(plain, [{"role": "user", "content": PROMPTS[1]}], Sampling(max_tokens=200)):
        if isinstance(ev, TextDelta):
            break
    again = _events(plain, PROMPTS[0], Sampling(max_tokens=8))
    assert (
        isinstance(again[-1], Finished) and again[-1].reason == "length" and again[-1].completion_tokens == 8
    )


def test_vocab_mismatched_drafter_is_refused(smollm2_q4: Path, gemma3_q4: Path) -> None:
    with pytest.raises(DrafterMismatchError) as info:
        _load(smollm2_q4, enabled=True, draft_model_path=str(gemma3_q4))
    msg = info.value.user_message()
    assert "cannot draft for" in msg and "tokenizer type differs" in msg
    assert "Choose the drafter declared for this model" in msg


def test_corrupt_and_non_gguf_files_are_refused(tmp_path: Path, smollm2_q4: Path) -> None:
    truncated = tmp_path / "truncated.gguf"
    with smollm2_q4.open("rb") as src, truncated.open("wb") as dst:
        dst.write(src.read(5_000_000))
    with pytest.raises(ModelLoadError, match="damaged or incomplete GGUF"):
        _load(truncated)
    text = tmp_path / "notes.gguf"
    text.write_text("this is not a model")
    with pytest.raises(ModelLoadError, match="is not a GGUF model file"):
        _load(text)
    with pytest.raises(ModelLoadError, match="does not exist"):
        _load(tmp_path / "missing.gguf")
    copy = tmp_path / "copy.gguf"
    shutil.copy(smollm2_q4, copy)
    with pytest.raises(ModelLoadError, match="damaged or incomplete GGUF"):
        _load(copy, enabled=True, draft_model_path=str(truncated))


def test_http_listener_refuses_unauthenticated_requests(plain: LlamaCppEngine) -> None:
    address = plain.listening_address
    assert address.startswith("http://127.0.0.1:")
    for path in ("/v1/models", "/v1/chat/completions", "/completion"):
        req = urllib.request.Request(address + path, data=b"{}" if "comp" in path else None)
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(req, timeout=5)
        info.value.close()
        assert info.value.code == 401
    bad = urllib.request.Request(address + "/v1/models", headers={"Authorization": "Bearer guess"})
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(bad, timeout=5)
    info.value.close()
    assert info.value.code == 401


def test_a_loaded_engine_keeps_no_thread_and_close_ends_its_child(smollm2_q4: Path) -> None:
    import threading

    before = set(threading.enumerate())
    eng = _load(smollm2_q4)
    # the child process serves it; requests are read on the shared engine loop, no thread of its own
    assert [t.name for t in threading.enumerate() if t not in before and t.is_alive()] == []
    assert [
        e.text
        for e in generate(eng, [{"role": "user", "content": "Hi"}], Sampling(max_tokens=4))
        if isinstance(e, TextDelta)
    ]
    assert [t.name for t in threading.enumerate() if t not in before and t.is_alive()] == []
    host = eng._host
    assert host is not None and host.alive
    eng.close()
    assert not host.alive
    eng.close()  # idempotent


def test_cancel_from_the_progress_callback_leaves_nothing_running(smollm2_q4: Path) -> None:
    import threading

    class Cancelled(Exception):
        pass

    def progress(msg: str) -> None:
        if msg == "ready":  # the model is up: the user pressed Cancel just now
            raise Cancelled

    before = {t for t in threading.enumerate() if t.name.startswith("tandem-llamacpp")}
    with pytest.raises(Cancelled):
        LlamaCppEngine.load(
            LoadRequest(str(smollm2_q4), SpeculationOptions(), n_ctx=512, n_threads=2), progress
        )
    after = {t for t in threading.enumerate() if t.name.startswith("tandem-llamacpp")}
    assert after == before


def test_generator_started_after_close_fails_instead_of_hanging(smollm2_q4: Path) -> None:
    from app.core.engines.base import GenerationError

    eng = _load(smollm2_q4)
    pending = generate(eng, [{"role": "user", "content": "hi"}], Sampling(max_tokens=4))
    eng.close()
    with pytest.raises(GenerationError, match="closed"):
        next(iter(pending))


def test_stopping_early_does_not_cancel_the_callers_token(plain: LlamaCppEngine) -> None:
    token = CancelToken()
    for ev in generate(plain, [{"role": "user", "content": PROMPTS[0]}], Sampling(max_tokens=50), token):
        if isinstance(ev, TextDelta):
            break
    assert not token.cancelled
    again = _events(plain, PROMPTS[0], Sampling(max_tokens=6))
    assert isinstance(again[-1], Finished) and again[-1].reason == "length"


def test_absurd_depth_is_refused_with_a_message(smollm2_q4: Path) -> None:
    from app.core.speculative import SpeculationError

    with pytest.raises(SpeculationError, match="tokens per round"):
        _load(
            smollm2_q4, enabled=True, draft_model_path=str(smollm2_q4), num_speculative_tokens=2_147_483_648
        )


def test_a_native_abort_while_loading_is_an_error_not_the_end_of_the_app(smollm2_q4: Path) -> None:
    """llama.cpp's GGML_ASSERTs end the process they run in; that is the child, not the app.

    DRAFT_DFLASH with a drafter that is not a DFlash model aborts while the Server is built (the
    engine refuses it before it starts; here the child is started with it on purpose).
    """
    from app.core.engines.llamacpp.host import HostConfig, HostError, ServerProcess, live_processes
    from app.core.engines.llamacpp.translate import LlamaCppPlan

    plan = LlamaCppPlan(types=["DRAFT_DFLASH"], draft_path=str(smollm2_q4))
    host = ServerProcess(HostConfig(str(smollm2_q4), 512, 2, "key", "", plan))
    with pytest.raises(HostError, match="SIGABRT"):
        host.start(lambda: False)
    assert host._proc is not None
    assert not host.alive and host._proc.pid not in live_processes()


def test_a_child_that_dies_mid_answer_gives_a_clear_error(smollm2_q4: Path) -> None:
    import os
    import signal

    from app.core.engines.base import GenerationError

    eng = _load(smollm2_q4)
    try:
        with pytest.raises(GenerationError, match=r"stopped while answering .*SIGKILL"):
            for ev in generate(eng, [{"role": "user", "content": PROMPTS[0]}], Sampling(max_tokens=200)):
                if isinstance(ev, TextDelta):
                    host = eng._host
                    assert host is not None and host._proc is not None
                    os.kill(host._proc.pid, signal.SIGKILL)  # what a native crash does to it
        with pytest.raises(GenerationError, match=r"stopped while answering|not loaded"):
            _events(eng, "hi")
    finally:
        eng.close()


def test_the_child_process_ends_when_the_engine_closes(smollm2_q4: Path) -> None:
    from app.core.engines.llamacpp.host import live_processes

    eng = _load(smollm2_q4)
    host = eng._host
    assert host is not None and host._proc is not None and host.alive
    pid = host._proc.pid
    assert pid in live_processes()
    eng.close()
    assert not host.alive and pid not in live_processes()
