"""The MLX engine on real (tiny, generated) checkpoints, on the CPU through mlx[cpu].

Checkpoints are built once per session by :mod:`tests.integration.mlx_fixtures` with mlx-vlm's
and mlx-lm's own model classes; nothing is downloaded.
"""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.engines.base import (
    CancelToken,
    DrafterMismatchError,
    EngineUnavailable,
    Event,
    Finished,
    GenerationError,
    LoadRequest,
    ModelLoadError,
    Round,
    Sampling,
    TextDelta,
)
from app.core.engines.capability import Availability
from app.core.engines.mlx_stream import IncrementalDecoder, StopScanner, classic_rounds
from app.core.speculative import SpeculationOptions
from tests.integration import mlx_fixtures as fx

pytestmark = pytest.mark.mlx

MESSAGES = [{"role": "user", "content": "Write a short note about speculative decoding."}]


@pytest.fixture(scope="session")
def mlx_libs() -> None:
    pytest.importorskip("mlx.core")
    pytest.importorskip("mlx_vlm")
    pytest.importorskip("mlx_lm")


@pytest.fixture(scope="session")
def ckpt(mlx_libs: None, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("mlx-checkpoints")
    return {
        "g4_target": fx.write_gemma4_target(root / "g4-target"),
        "g4_drafter": fx.write_gemma4_assistant(root / "g4-assistant"),
        "g4_target_forced": fx.write_gemma4_target(root / "g4-target-forced", forced=True),
        "g4_drafter_forced": fx.write_gemma4_assistant(root / "g4-assistant-forced", forced=True),
        "llama_target": fx.write_llama_target(root / "llama-target"),
        "llama_drafter": fx.write_llama_drafter(root / "llama-drafter"),
        "llama_target_forced": fx.write_llama_target(root / "llama-target-forced", forced=True),
        "llama_drafter_forced": fx.write_llama_drafter(root / "llama-drafter-forced", forced=True),
        "root": root,
    }


def _load(target: Path, drafter: Path | None = None, method: str = "mtp", n: int | None = None) -> object:
    from app.core.engines.mlx import MLXEngine

    spec = SpeculationOptions.build(
        enabled=drafter is not None,
        method=method,
        draft_model_path=str(drafter) if drafter else None,
        num_speculative_tokens=n,
    )
    return MLXEngine.load(LoadRequest(str(target), spec))


@pytest.fixture
def engines() -> Iterator[list[object]]:
    """Engines opened by a test; closed (threads joined) at teardown even when the test fails."""
    opened: list[object] = []
    yield opened
    for e in opened:
        e.close()  # type: ignore[attr-defined]


def _run(engine: object, max_tokens: int, **kw: object) -> list[Event]:
    return list(engine.generate(MESSAGES, Sampling(max_tokens=max_tokens, **kw)))  # type: ignore[attr-defined,arg-type]


def _finished(events: list[Event]) -> Finished:
    assert isinstance(events[-1], Finished)
    assert not any(isinstance(e, Finished) for e in events[:-1])
    return events[-1]


def _check_accounting(events: list[Event]) -> None:
    """The invariants every speculative stream must keep."""
    fin = _finished(events)
    deltas = [e for e in events if isinstance(e, TextDelta)]
    rounds = [e for e in events if isinstance(e, Round)]
    assert sum(d.token_count for d in deltas) == fin.completion_tokens
    # An end-of-generation token is counted but not part of token_ids.
    assert len(fin.token_ids or []) in (fin.completion_tokens, fin.completion_tokens - 1)
    assert sum(d.token_count for d in deltas if d.from_draft) == fin.accepted_total
    assert sum(r.emitted for r in rounds) == fin.completion_tokens
    assert sum(r.drafted for r in rounds) == fin.drafted_total
    assert sum(r.accepted for r in rounds) == fin.accepted_total
    assert [r.index for r in rounds] == list(range(len(rounds))) and fin.rounds == len(rounds)


def _first_difference(a: list[int], b: list[int]) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"first difference at position {i}: spec-off {x}, spec-on {y}"
    return f"lengths differ: spec-off {len(a)}, spec-on {len(b)}"


# --- greedy parity ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [None, 2])
def test_gemma4_mtp_greedy_is_token_identical_to_spec_off(
    ckpt: dict[str, Path], engines: list[object], n: int | None
) -> None:
    off = _load(ckpt["g4_target"])
    engines.append(off)
    on = _load(ckpt["g4_target"], ckpt["g4_drafter"], "mtp", n)
    engines.append(on)
    assert on.spec_kind == "mtp" and on.draft_tokens == (n or 3)  # type: ignore[attr-defined]
    ref = _finished(_run(off, 40))
    events = _run(on, 40)
    got = _finished(events)
    assert ref.token_ids == got.token_ids, _first_difference(ref.token_ids or [], got.token_ids or [])
    _check_accounting(events)
    assert got.drafted_total > 0 and ref.drafted_total == 0
    assert all(r.drafted <= (n or 3) for r in events if isinstance(r, Round))


def test_classic_draft_greedy_is_token_identical_to_spec_off(
    ckpt: dict[str, Path], engines: list[object]
) -> None:
    off = _load(ckpt["llama_target"])
    engines.append(off)
    on = _load(ckpt["llama_target"], ckpt["llama_drafter"], "draft", 4)
    engines.append(on)
    ref = _finished(_run(off, 40))
    events = _run(on, 40)
    got = _finished(events)
    assert ref.token_ids == got.token_ids, _first_difference(ref.token_ids or [], got.token_ids or [])
    _check_accounting(events)
    assert got.drafted_total > 0


# --- forced acceptance: exact round stats and from-draft marks -------------------------------------


def _expected_marks(rounds: list[tuple[int, int, int]]) -> list[bool]:
    return [i < accepted for _, accepted, emitted in rounds for i in range(emitted)]


@pytest.mark.parametrize(
    ("kind", "n", "expected"),
    [
        # mlx-vlm: the prefill token is a round of its own; default depth is block_size 4 - 1 = 3;
        # the last round is cut to the budget (1 token left -> 1 draft).
        ("mtp", None, [(0, 0, 1), (3, 3, 4), (3, 3, 4), (1, 1, 1)]),
        ("mtp", 2, [(0, 0, 1), (2, 2, 3), (2, 2, 3), (2, 2, 3)]),
        # mlx-lm: every round drafts min(k, tokens left); the last one ends on accepted drafts.
        ("draft", 3, [(3, 3, 4), (3, 3, 4), (2, 2, 2)]),
    ],
)
def test_forced_acceptance_rounds_and_marks_are_exact(
    ckpt: dict[str, Path],
    engines: list[object],
    kind: str,
    n: int | None,
    expected: list[tuple[int, int, int]],
) -> None:
    if kind == "mtp":
        engine = _load(ckpt["g4_target_forced"], ckpt["g4_drafter_forced"], "mtp", n)
    else:
        engine = _load(ckpt["llama_target_forced"], ckpt["llama_drafter_forced"], "draft", n)
    engines.append(engine)
    for _ in range(2):  # the drafter's per-round lists must not leak into the next request
        events = _run(engine, 10)
        fin = _finished(events)
        assert fin.token_ids == [0] * 10 and fin.reason == "length"
        rounds = [(r.drafted, r.accepted, r.emitted) for r in events if isinstance(r, Round)]
        assert rounds == expected
        marks = [d.from_draft for d in events if isinstance(d, TextDelta) and d.token_count]
        assert marks == _expected_marks(expected)
        assert fin.drafted_total == fin.accepted_total == sum(a for _, a, _ in expected)
        _check_accounting(events)


def test_stop_string_ends_the_answer(ckpt: dict[str, Path], engines: list[object]) -> None:
    engine = _load(ckpt["llama_target_forced"], ckpt["llama_drafter_forced"], "draft", 3)
    engines.append(engine)
    events = _run(engine, 10, stop=("\x00\x00\x00",))
    fin = _finished(events)
    assert fin.reason == "stop" and fin.completion_tokens == 3
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == ""


@pytest.mark.parametrize("pair", ["mtp", "draft"])
def test_end_of_generation_token_is_counted_not_streamed(
    ckpt: dict[str, Path], engines: list[object], tmp_path: Path, pair: str
) -> None:
    # The forced models always pick token 0; declaring 0 as EOS makes the first token end the answer.
    key = "g4" if pair == "mtp" else "llama"
    target = tmp_path / "target"
    shutil.copytree(ckpt[f"{key}_target_forced"], target)
    (target / "generation_config.json").write_text(json.dumps({"eos_token_id": 0}))
    engine = _load(target, ckpt[f"{key}_drafter_forced"], pair, 3)
    engines.append(engine)
    events = _run(engine, 10)
    fin = _finished(events)
    assert fin.reason == "stop" and fin.completion_tokens == 1 and fin.token_ids == []
    rounds = [(r.drafted, r.accepted, r.emitted) for r in events if isinstance(r, Round)]
    # mlx-vlm: the prefill token is the EOS; mlx-lm: the first accepted draft is.
    assert rounds == ([(0, 0, 1)] if pair == "mtp" else [(3, 1, 1)])
    _check_accounting(events)


# --- refusals at load ----------------------------------------------------------------------------


def _config_only_drafter(root: Path, name: str, **overrides: object) -> Path:
    out = root / name
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(fx.gemma4_assistant_config(**overrides)))  # type: ignore[arg-type]
    return out


def test_mismatched_mtp_drafter_with_weights_is_refused_at_load(
    ckpt: dict[str, Path], tmp_path: Path
) -> None:
    # mlx-vlm itself accepts this pair (it checks only the hidden size) and would fail mid-stream.
    drafter = fx.write_gemma4_assistant(tmp_path / "wrong-head-dim", head_dim=32)
    with pytest.raises(DrafterMismatchError, match=r"head_dim: drafter 32, target 16"):
        _load(ckpt["g4_target"], drafter)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"backbone_hidden": 48}, r"hidden size: drafter expects 48, target has 64"),
        ({"kv_heads": 2}, r"KV heads: drafter 2, target 1"),
        ({"global_head_dim": 64}, r"global_head_dim: drafter 64, target 32"),
        (
            {"layer_types": ("sliding_attention", "chunked_attention")},
            r"layer types: drafter uses chunked_attention",
        ),
        ({"vocab_size": 300}, r"vocabulary size: drafter 300, target 269"),
    ],
)
def test_mtp_pair_differences_are_named(
    ckpt: dict[str, Path], tmp_path: Path, overrides: dict[str, object], message: str
) -> None:
    drafter = _config_only_drafter(tmp_path, "drafter", **overrides)
    with pytest.raises(DrafterMismatchError, match=message):
        _load(ckpt["g4_target"], drafter)


def test_classic_vocabulary_mismatch_is_refused(ckpt: dict[str, Path], tmp_path: Path) -> None:
    bigger = fx.write_llama_drafter(tmp_path / "bigger", extra_tokens=5)
    with pytest.raises(
        DrafterMismatchError, match=r"vocabulary \(274 tokens\) is larger than the target's \(269\)"
    ):
        _load(ckpt["llama_target"], bigger, "draft")
    swapped = tmp_path / "swapped"
    shutil.copytree(ckpt["llama_drafter"], swapped)
    tok = json.loads((swapped / "tokenizer.json").read_text())
    vocab = tok["model"]["vocab"]
    vocab["a"], vocab["b"] = vocab["b"], vocab["a"]
    (swapped / "tokenizer.json").write_text(json.dumps(tok))
    with pytest.raises(DrafterMismatchError, match=r"id 97 is 'a' in the target and 'b' in the drafter"):
        _load(ckpt["llama_target"], swapped, "draft")


def test_method_and_drafter_kind(ckpt: dict[str, Path], engines: list[object]) -> None:
    with pytest.raises(
        DrafterMismatchError, match=r"needs an mlx-vlm drafter .* plain 'llama' language model"
    ):
        _load(ckpt["llama_target"], ckpt["llama_drafter"], "mtp")
    with pytest.raises(DrafterMismatchError, match=r"classic drafter needs a text model .* 'gemma4'"):
        _load(ckpt["g4_target"], ckpt["llama_drafter"], "draft")
    # "draft" (what a bare --draft-model-path means) with a Gemma 4 assistant: detected, and said so.
    engine = _load(ckpt["g4_target"], ckpt["g4_drafter"], "draft")
    engines.append(engine)
    assert engine.spec_kind == "mtp"  # type: ignore[attr-defined]
    assert any("'gemma4_assistant' runs as 'mtp'" in note for note in engine.notes)  # type: ignore[attr-defined]


def test_missing_files_and_model_free_methods_are_refused(ckpt: dict[str, Path], tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match=r"no config\.json"):
        _load(tmp_path)
    with pytest.raises(ModelLoadError, match="no drafter checkpoint"):
        from app.core.engines.mlx import MLXEngine

        MLXEngine.load(LoadRequest(str(ckpt["g4_target"]), SpeculationOptions(enabled=True, method="mtp")))
    with pytest.raises(ModelLoadError, match="model-free method 'ngram-mod'"):
        MLXEngine.load(
            LoadRequest(str(ckpt["g4_target"]), SpeculationOptions(enabled=True, method="ngram-mod"))
        )


def test_unavailable_mlx_is_reported_with_its_reason(
    ckpt: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.core.engines import mlx as mlx_engine

    monkeypatch.setattr(
        mlx_engine, "engine_availability", lambda name: Availability(False, None, "mlx-vlm is not installed")
    )
    assert not mlx_engine.availability().ok
    with pytest.raises(EngineUnavailable, match="mlx-vlm is not installed"):
        _load(ckpt["g4_target"])


# --- sampling, cancel, close ---------------------------------------------------------------------


def test_greedy_only_drafter_refuses_sampling_up_front(ckpt: dict[str, Path], engines: list[object]) -> None:
    engine = _load(ckpt["g4_target"], ckpt["g4_drafter"])
    engines.append(engine)
    assert engine.greedy_only is False  # type: ignore[attr-defined]
    sampled = _finished(_run(engine, 12, temperature=0.8, seed=7))
    assert sampled.completion_tokens == 12 or sampled.reason == "stop"
    engine.greedy_only = True  # type: ignore[attr-defined]  # what a greedy-only drafter sets at load
    with pytest.raises(GenerationError, match="greedy decoding only"):
        engine.generate(MESSAGES, Sampling(temperature=0.7))  # type: ignore[attr-defined]


@pytest.mark.parametrize("pair", ["mtp", "draft"])
def test_cancel_mid_stream_then_a_second_request(
    ckpt: dict[str, Path], engines: list[object], pair: str
) -> None:
    if pair == "mtp":
        engine = _load(ckpt["g4_target_forced"], ckpt["g4_drafter_forced"])
    else:
        engine = _load(ckpt["llama_target_forced"], ckpt["llama_drafter_forced"], "draft")
    engines.append(engine)
    cancel = CancelToken()
    events: list[Event] = []
    for ev in engine.generate(MESSAGES, Sampling(max_tokens=400), cancel):  # type: ignore[attr-defined]
        events.append(ev)
        if isinstance(ev, TextDelta) and len(events) == 6:
            cancel.cancel()  # inside a round: its tokens are already computed
    fin = _finished(events)
    assert fin.reason == "cancelled" and 0 < fin.completion_tokens < 400
    _check_accounting(events)
    # Abandoning an iterator halfway also leaves the engine usable.
    stream = engine.generate(MESSAGES, Sampling(max_tokens=400))  # type: ignore[attr-defined]
    next(stream)
    stream.close()
    again = _finished(_run(engine, 10))
    assert again.reason == "length" and again.token_ids == [0] * 10


def test_close_joins_the_engine_thread(ckpt: dict[str, Path]) -> None:
    before = {t.name for t in threading.enumerate()}
    engine = _load(ckpt["g4_target"], ckpt["g4_drafter"])
    mine = [t for t in threading.enumerate() if t.name.startswith("tandem-mlx-") and t.name not in before]
    assert len(mine) == 1 and not mine[0].daemon
    engine.close()  # type: ignore[attr-defined]
    assert not mine[0].is_alive()
    engine.close()  # type: ignore[attr-defined]  # idempotent
    with pytest.raises(GenerationError, match="closed"):
        engine.generate(MESSAGES, Sampling())  # type: ignore[attr-defined]


def test_failed_load_leaves_no_thread(ckpt: dict[str, Path], tmp_path: Path) -> None:
    drafter = _config_only_drafter(tmp_path, "drafter")  # fits the target by config but has no weights
    before = set(threading.enumerate())
    with pytest.raises(ModelLoadError):
        _load(ckpt["g4_target"], drafter)
    assert not [t for t in threading.enumerate() if t not in before and t.name.startswith("tandem-mlx-")]


class LoadCancelled(Exception):
    """What the GUI raises from the progress callback when the user presses Cancel."""


class _Interrupt(BaseException):
    """A BaseException (not an Exception) raised inside an MLX job."""


def _new_mlx_threads(before: set[threading.Thread]) -> list[str]:
    return [t.name for t in threading.enumerate() if t not in before and t.name.startswith("tandem-mlx-")]


def _in_thread(fn: object, timeout: float = 30) -> dict[str, object]:
    """Run ``fn`` on a daemon thread; ``{"hung": True}`` when it has not returned in time."""
    out: dict[str, object] = {}

    def run() -> None:
        try:
            out["value"] = fn()  # type: ignore[operator]
        except BaseException as exc:
            out["error"] = exc

    t = threading.Thread(target=run, name="test-consumer", daemon=True)
    t.start()
    t.join(timeout)
    out["hung"] = t.is_alive()
    return out


def test_progress_callback_raising_closes_the_engine(ckpt: dict[str, Path]) -> None:
    from app.core.engines.mlx import MLXEngine

    req = LoadRequest(str(ckpt["llama_target"]), SpeculationOptions.build(enabled=False))
    calls: list[str] = []
    MLXEngine.load(req, calls.append).close()
    assert calls
    before = set(threading.enumerate())
    seen: list[str] = []

    def progress(msg: str) -> None:
        seen.append(msg)
        if len(seen) == len(calls):  # the last report: the load thread is well under way
            raise LoadCancelled()

    with pytest.raises(LoadCancelled):
        MLXEngine.load(req, progress)
    assert _new_mlx_threads(before) == []
    import gc

    gc.collect()
    alive = [o for o in gc.get_objects() if isinstance(o, MLXEngine) and not o._closed]
    assert alive == []


def test_generator_created_before_close_raises_instead_of_hanging(ckpt: dict[str, Path]) -> None:
    before = set(threading.enumerate())
    engine = _load(ckpt["llama_target"])
    gen = engine.generate(MESSAGES, Sampling(max_tokens=4))  # type: ignore[attr-defined]
    engine.close()  # type: ignore[attr-defined]  # e.g. the user unloads while a request is queued
    out = _in_thread(lambda: next(gen), timeout=10)
    assert not out["hung"], "iterating a generator after close() blocked"
    assert isinstance(out.get("error"), GenerationError) and "closed" in str(out["error"])
    assert _new_mlx_threads(before) == []


def test_queued_jobs_are_failed_when_the_worker_ends() -> None:
    """Jobs still queued when the MLX thread ends are answered (failed), never left waiting."""
    from app.core.engines.mlx import WorkerClosed, _Worker

    class OneJobWorker(_Worker):
        """Ends after one job, as the real one does when the main thread has finished."""

        def _serve(self) -> None:
            entry = self._jobs.get()
            assert entry is not None
            entry[0]()

    gate = threading.Event()
    answers: list[str] = []
    w = OneJobWorker()
    w.submit(lambda: (gate.wait(10), answers.append("first ran")), lambda: answers.append("first failed"))
    w.submit(lambda: answers.append("second ran"), lambda: answers.append("second failed"))
    gate.set()
    w.thread.join(10)
    assert not w.thread.is_alive() and answers == ["first ran", "second failed"]
    with pytest.raises(WorkerClosed):
        w.submit(lambda: None, lambda: None)


def test_base_exception_in_the_load_job_is_answered(
    ckpt: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.core.engines.mlx import MLXEngine

    def interrupted(self: object, say: object) -> object:
        raise _Interrupt()

    monkeypatch.setattr(MLXEngine, "_load_models", interrupted)
    before = set(threading.enumerate())
    out = _in_thread(lambda: _load(ckpt["llama_target"]), timeout=20)
    assert not out["hung"], "load() waited forever for a job that died of a BaseException"
    assert isinstance(out.get("error"), ModelLoadError) and "_Interrupt" in str(out["error"])
    assert _new_mlx_threads(before) == []


def test_base_exception_in_a_generation_job_is_answered(
    ckpt: dict[str, Path], engines: list[object], monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = _load(ckpt["llama_target"])
    engines.append(engine)

    def interrupted(*args: object) -> object:
        raise _Interrupt()

    monkeypatch.setattr(engine, "_prompt_ids", interrupted)
    out = _in_thread(lambda: _run(engine, 4), timeout=20)
    assert not out["hung"], "the stream waited forever for a job that died of a BaseException"
    assert isinstance(out.get("error"), GenerationError) and "_Interrupt" in str(out["error"])
    monkeypatch.undo()
    assert _finished(_run(engine, 3)).completion_tokens == 3  # the engine still serves


# --- stream helpers (no model) -------------------------------------------------------------------


def test_incremental_decoder_holds_split_characters() -> None:
    data = "é€".encode()
    dec = IncrementalDecoder(lambda ids: bytes(ids).decode("utf-8", errors="replace"))
    pieces = [dec.add(b) for b in data]
    assert pieces == ["", "é", "", "", "€"]
    bad = IncrementalDecoder(lambda ids: bytes(ids).decode("utf-8", errors="replace"), max_hold=2)
    assert [bad.add(b) for b in (0xC3, 0xC3, 0x41)] == ["", "\ufffd\ufffd", "A"]


def test_stop_scanner_holds_partial_matches() -> None:
    s = StopScanner(["END"])
    assert [s.feed(p) for p in ("ab", "E", "N", "x")] == ["ab", "", "", "ENx"]
    s = StopScanner(["END"])
    assert [s.feed(p) for p in ("abE", "ND tail")] == ["ab", ""] and s.stopped


def test_classic_rounds_recovers_draft_counts() -> None:
    marks = [(1, True), (2, False), (3, False), (4, True), (5, True), (6, True)]
    steps = list(classic_rounds(iter(marks), 3, 6))
    assert steps == [(1, (3, 1)), (2, None), (3, (3, 0)), (4, (3, 3)), (5, None), (6, None)]
