"""The MLX engine on real (tiny, generated) checkpoints, on the CPU through mlx[cpu].

Checkpoints are built once per session by :mod:`app.devtools.mlx_models` with mlx-vlm's
and mlx-lm's own model classes; nothing is downloaded.
"""

from __future__ import annotations

import asyncio
import dataclasses
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
    GenerateRequest,
    GenerationError,
    LoadRequest,
    ModelLoadError,
    Round,
    Sampling,
    TextDelta,
)
from app.core.engines.blocking import generate
from app.core.engines.capability import Availability
from app.core.engines.mlx.stream import IncrementalDecoder, StopScanner
from app.core.speculative import SpeculationOptions
from app.core.speculative.depth import SETTLE_PLAIN, DepthControl
from app.core.speculative.per_request import Speculation
from app.devtools import mlx_models as fx
from tests.mlx_required import require_mlx

pytestmark = pytest.mark.mlx

MESSAGES = [{"role": "user", "content": "Write a short note about speculative decoding."}]


@pytest.fixture(scope="session")
def mlx_libs() -> None:
    require_mlx()


@pytest.fixture(scope="session")
def ckpt(real_models: None, mlx_libs: None, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("mlx-checkpoints")
    return {
        "g4_target": fx.write_gemma4_target(root / "g4-target"),
        "g4_drafter": fx.write_gemma4_assistant(root / "g4-assistant"),
        # a random drafter that gets a draft accepted now and then
        "g4_drafter_7": fx.write_gemma4_assistant(root / "g4-assistant-7", seed=7),
        "g4_target_forced": fx.write_gemma4_target(root / "g4-target-forced", forced=True),
        "g4_drafter_forced": fx.write_gemma4_assistant(root / "g4-assistant-forced", forced=True),
        "llama_target": fx.write_llama_target(root / "llama-target"),
        "llama_drafter": fx.write_llama_drafter(root / "llama-drafter"),
        "llama_target_forced": fx.write_llama_target(root / "llama-target-forced", forced=True),
        "llama_drafter_forced": fx.write_llama_drafter(root / "llama-drafter-forced", forced=True),
        "root": root,
    }


#: A test that asserts a classic drafter drafted runs it at a fixed depth (``adaptive_depth``
#: False): the adaptive depth times its rounds and may settle on plain decoding for a whole request
#: when another program takes the cores; it has tests of its own below.
FIXED_DEPTH = False


def _load(target: Path, drafter: Path | None = None, method: str = "mtp", n: int | None = None) -> object:
    from app.core.engines.mlx.engine import MLXEngine

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
    return list(generate(engine, MESSAGES, Sampling(max_tokens=max_tokens, **kw)))  # type: ignore[attr-defined,arg-type]


_finished = fx.finished
_check_accounting = fx.check_accounting


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
    on.adaptive_depth = FIXED_DEPTH  # type: ignore[attr-defined]
    ref = _finished(_run(off, 40))
    events = _run(on, 40)
    got = _finished(events)
    assert ref.token_ids == got.token_ids, _first_difference(ref.token_ids or [], got.token_ids or [])
    _check_accounting(events)
    assert got.drafted_total > 0


class _ScriptedDepth(DepthControl):
    """The depth controller with its choices scripted (the loop under test is the real one)."""

    def __init__(self, script: list[int], draft_request: bool = True, settle: bool = False) -> None:
        super().__init__(ceiling=6)
        self.script = list(script)
        self.asked: list[int] = []
        self.draft_request = draft_request
        self.settle = settle  # once the script is done, the rest of the request is plain

    def start_request(self) -> bool:
        return self.draft_request

    def next_depth(self, left: int) -> int:
        self.asked.append(left)
        if not self.script and self.settle:
            self.plain_streak = SETTLE_PLAIN
            return 0
        k = self.script.pop(0) if self.script else 2
        return min(k, max(0, left - 1))


@pytest.mark.parametrize("adaptive", [True, False])
def test_classic_draft_depth_per_round_keeps_greedy_parity(
    ckpt: dict[str, Path], engines: list[object], adaptive: bool
) -> None:
    """Tandem's own classic loop: whatever depth each round drafts (plain steps, 1, the ceiling,
    changing every round), the answer is plain decoding's, and each round reports its depth."""
    off = _load(ckpt["llama_target"])
    engines.append(off)
    on = _load(ckpt["llama_target"], ckpt["llama_drafter"], "draft", 6)
    engines.append(on)
    ref = _finished(_run(off, 40))
    script = [0, 1, 6, 3, 0, 0, 2, 5, 1, 6, 4]
    on.depth_control = _ScriptedDepth(script)  # type: ignore[attr-defined]
    events = _run(on, 40)
    got = _finished(events)
    assert ref.token_ids == got.token_ids, _first_difference(ref.token_ids or [], got.token_ids or [])
    _check_accounting(events)
    drafted = [r.drafted for r in events if isinstance(r, Round)]
    assert drafted[0] == 0  # the prefill's token
    assert drafted[1 : len(script) + 1] == script
    # handed over to mlx-lm's pipelined plain loop: mid-request, and for a whole request
    for scripted in (_ScriptedDepth([3, 0, 2], settle=True), _ScriptedDepth([], draft_request=False)):
        on.depth_control = scripted  # type: ignore[attr-defined]
        events = _run(on, 40)
        got = _finished(events)
        assert ref.token_ids == got.token_ids, _first_difference(ref.token_ids or [], got.token_ids or [])
        _check_accounting(events)
        drafted = [r.drafted for r in events if isinstance(r, Round)]
        assert drafted == ([0, 3, 0, 2] if scripted.draft_request else [])[: len(drafted)] + [0] * (
            len(drafted) - (4 if scripted.draft_request else 0)
        )
        assert len(scripted.asked) == (4 if scripted.draft_request else 0)
    # the real controller, adaptive or fixed, across two requests
    on.adaptive_depth = adaptive  # type: ignore[attr-defined]
    on.depth_control = None  # type: ignore[attr-defined]
    for _ in range(2):
        events = _run(on, 40)
        got = _finished(events)
        assert ref.token_ids == got.token_ids, _first_difference(ref.token_ids or [], got.token_ids or [])
        _check_accounting(events)
        assert all(r.drafted <= 6 for r in events if isinstance(r, Round))
    control = on.depth_control  # type: ignore[attr-defined]
    assert isinstance(control, DepthControl) and control.adaptive is adaptive
    assert 0.0 < control.acceptance < 1.0 and control.draft is not None
    if adaptive:
        assert control.one is not None and control.extra is not None  # it measured both sides
    else:
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
        # Tandem's classic loop at a fixed depth: the prefill token, then rounds of min(k, tokens
        # left - 1) drafts (a draft whose round would pass the budget is never verified), the last
        # token a plain step.
        ("draft", 3, [(0, 0, 1), (3, 3, 4), (3, 3, 4), (0, 0, 1)]),
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
        engine.adaptive_depth = False  # type: ignore[attr-defined]
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
    # both loops: the prefill's token is the EOS, before any round drafts
    assert rounds == [(0, 0, 1)]
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


def test_drafter_whose_state_cannot_be_rolled_back_is_refused(ckpt: dict[str, Path], tmp_path: Path) -> None:
    drafter = fx.write_mamba_drafter(tmp_path / "mamba")
    with pytest.raises(DrafterMismatchError, match=r"drafter's KV cache cannot be rolled back") as err:
        _load(ckpt["llama_target"], drafter, "draft", 3)
    assert "Choose another drafter" in (err.value.hint or "")


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
        from app.core.engines.mlx.engine import MLXEngine

        MLXEngine.load(LoadRequest(str(ckpt["g4_target"]), SpeculationOptions(enabled=True, method="mtp")))
    with pytest.raises(ModelLoadError, match="model-free method 'ngram-mod'"):
        MLXEngine.load(
            LoadRequest(str(ckpt["g4_target"]), SpeculationOptions(enabled=True, method="ngram-mod"))
        )


def test_unavailable_mlx_is_reported_with_its_reason(
    ckpt: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.core.engines.mlx import engine as mlx_engine

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
        list(generate(engine, MESSAGES, Sampling(temperature=0.7)))


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
    for ev in generate(engine, MESSAGES, Sampling(max_tokens=400), cancel):  # type: ignore[attr-defined]
        events.append(ev)
        if isinstance(ev, TextDelta) and len(events) == 6:
            cancel.cancel()  # inside a round: its tokens are already computed
    fin = _finished(events)
    assert fin.reason == "cancelled" and 0 < fin.completion_tokens < 400
    _check_accounting(events)
    # Abandoning an iterator halfway also leaves the engine usable.
    stream = generate(engine, MESSAGES, Sampling(max_tokens=400))  # type: ignore[attr-defined]
    next(stream)
    stream.close()
    again = _finished(_run(engine, 10))
    assert again.reason == "length" and again.token_ids == [0] * 10


def test_the_async_stream_gives_generates_events_on_the_owner_thread_and_a_cancel_stops_it(
    ckpt: dict[str, Path], engines: list[object]
) -> None:
    """MLX read from an event loop (the server's path): the same greedy tokens as ``generate``, no
    thread per request, and a cancelled task leaves the engine ready for the next request."""
    engine = _load(ckpt["g4_target"], ckpt["g4_drafter"], "mtp")
    engines.append(engine)
    request = GenerateRequest(MESSAGES, Sampling(max_tokens=24))
    ref = _finished(_run(engine, 24))

    async def read(stop_after: int | None) -> list[Event]:
        got: list[Event] = []

        async def consume() -> None:
            async for ev in engine.stream(request):  # type: ignore[attr-defined]
                got.append(ev)

        task = asyncio.create_task(consume())
        threads = threading.active_count()
        while not task.done():
            if stop_after is not None and len(got) >= stop_after:
                task.cancel()
            await asyncio.sleep(0.001)
        assert threading.active_count() <= threads
        return got

    events = asyncio.run(read(None))
    assert _finished(events).token_ids == ref.token_ids
    _check_accounting(events)
    partial = asyncio.run(read(3))
    assert not any(isinstance(ev, Finished) for ev in partial)
    assert _finished(_run(engine, 24)).token_ids == ref.token_ids  # ready for the next request


def test_close_joins_the_engine_thread(ckpt: dict[str, Path]) -> None:
    before = {t.name for t in threading.enumerate()}
    engine = _load(ckpt["g4_target"], ckpt["g4_drafter"])
    mine = [t for t in threading.enumerate() if t.name.startswith("tandem-mlx-") and t.name not in before]
    # a daemon thread: a forgotten close() never keeps the process alive (the worker's atexit
    # hook still closes and frees it)
    assert len(mine) == 1 and mine[0].daemon
    engine.close()  # type: ignore[attr-defined]
    assert not mine[0].is_alive()
    engine.close()  # type: ignore[attr-defined]  # idempotent
    with pytest.raises(GenerationError, match="closed"):
        list(generate(engine, MESSAGES, Sampling()))


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
    from app.core.engines.mlx.engine import MLXEngine

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
    gen = generate(engine, MESSAGES, Sampling(max_tokens=4))  # type: ignore[attr-defined]
    engine.close()  # type: ignore[attr-defined]  # e.g. the user unloads while a request is queued
    out = _in_thread(lambda: next(gen), timeout=10)
    assert not out["hung"], "iterating a generator after close() blocked"
    assert isinstance(out.get("error"), GenerationError) and "closed" in str(out["error"])
    assert _new_mlx_threads(before) == []


def test_base_exception_in_the_load_job_is_answered(
    ckpt: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.core.engines.mlx import engine as mlx_engine

    def interrupted(request: object, say: object) -> object:
        raise _Interrupt()

    monkeypatch.setattr(mlx_engine, "load_pair", interrupted)
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


def test_parity_cli_on_a_gemma4_assistant_pair(
    ckpt: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tandem parity --engine mlx`` runs on a Gemma 4 assistant pair (no TypeError on
    ``top_logprobs``)."""
    from app.cli import main

    prompts = tmp_path / "prompts.txt"
    prompts.write_text("Write a short note about speculative decoding.\nName three colours.\n")
    args = ["parity", "--model-path", str(ckpt["g4_target"]), "--draft-model-path", str(ckpt["g4_drafter"]),
            "--engine", "mlx", "--spec-method", "mtp", "--prompts", str(prompts),
            "--max-tokens", "24"]  # fmt: skip
    assert main([*args, "--threads", "3"]) == 0
    captured = capsys.readouterr()
    out = captured.out
    assert "[identical] (token ids; 24 vs 24 tokens) 'Write a short note about speculative decoding.'" in out
    # MLX has no thread-count setting: said once, in one line
    notes = [ln for ln in captured.err.splitlines() if "--threads" in ln]
    assert notes == [
        "note: --threads: the thread count (3) is ignored by Apple MLX (mlx-vlm): "
        "MLX chooses its own CPU threads"
    ]
    assert out.rstrip().endswith("2/2 prompts identical")
    assert main([*args, "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["identical"], r["compared"], r["tokens_off"]) for r in rows] == [(True, "token ids", 24)] * 2


def _independent_top(model_dir: Path, backend: str, ids: list[int], k: int) -> dict[str, object]:
    """Top-k log-probabilities after ``ids`` from a plain forward pass of the model, on a thread
    of its own (MLX is thread-affine), loaded without the engine."""

    def run() -> list[tuple[int, float]]:
        import mlx.core as mx

        try:
            x = mx.array([ids])
            if backend == "vlm":
                from mlx_vlm.utils import load_model as vlm_load

                logits = vlm_load(model_dir).language_model(x).logits[0, -1]
            else:
                from mlx_lm.utils import load_model as lm_load

                logits = lm_load(model_dir)[0](x)[0, -1]
            lp = logits.astype(mx.float32) - mx.logsumexp(logits.astype(mx.float32))
            top = mx.argsort(-lp)[:k].tolist()
            return [(int(i), float(lp[i].item())) for i in top]
        finally:
            mx.clear_streams()

    return _in_thread(run, timeout=60)


@pytest.mark.parametrize(("target", "backend"), [("g4_target", "vlm"), ("llama_target", "lm")])
def test_top_candidates_at_a_difference_come_from_the_model_logits(
    ckpt: dict[str, Path], engines: list[object], target: str, backend: str
) -> None:
    from transformers import AutoTokenizer

    from app.core.measure.bench import compare, run_once

    engine = _load(ckpt[target])
    engines.append(engine)
    off = run_once(engine, MESSAGES[0]["content"], Sampling(max_tokens=8), top_logprobs=5)  # type: ignore[arg-type]
    assert off.token_ids is not None and len(off.token_ids) == 8
    assert off.candidates is not None and len(off.candidates) == 8
    for tok, row in zip(off.token_ids, off.candidates, strict=True):
        assert len(row) == 5 and row[0][0] == tok  # greedy: the chosen token is the best candidate
        assert [c[2] for c in row] == sorted((c[2] for c in row), reverse=True)
    # Force a difference at position 5 (a spec-on run that chose another token there).
    pos = 5
    on = dataclasses.replace(off, token_ids=[*off.token_ids[:pos], off.candidates[pos][1][0]])
    res = compare(off, on)
    assert not res.identical and res.first_difference == pos and res.candidates == off.candidates[pos]
    assert res.logprob_gap == pytest.approx(off.candidates[pos][0][2] - off.candidates[pos][1][2])
    # ... and those candidates are the model's own: a plain forward pass over prompt + 5 tokens.
    prompt = AutoTokenizer.from_pretrained(str(ckpt[target])).apply_chat_template(
        MESSAGES, add_generation_prompt=True, tokenize=True, return_dict=False
    )
    ref = _independent_top(ckpt[target], backend, [*prompt, *off.token_ids[:pos]], 5)
    assert not ref["hung"] and "error" not in ref, ref.get("error")
    expected = ref["value"]
    assert [c[0] for c in res.candidates] == [i for i, _ in expected]  # type: ignore[union-attr]
    assert [c[2] for c in res.candidates] == pytest.approx([lp for _, lp in expected], abs=1e-4)  # type: ignore[union-attr]


def test_candidates_with_speculation(ckpt: dict[str, Path], engines: list[object]) -> None:
    # mlx-lm verifies with the target's logits and yields them: candidates for every token.
    classic = _load(ckpt["llama_target"], ckpt["llama_drafter"], "draft", 3)
    engines.append(classic)
    classic.adaptive_depth = FIXED_DEPTH  # type: ignore[attr-defined]
    fin = _finished(list(generate(classic, MESSAGES, Sampling(max_tokens=10), top_logprobs=3)))  # type: ignore[attr-defined]
    rows = fin.candidates
    assert fin.drafted_total > 0 and rows is not None and len(rows) == fin.completion_tokens
    assert [r[0].id for r in rows] == fin.token_ids
    # mlx-vlm's speculative rounds yield no logits: None, never invented rows.
    mtp = _load(ckpt["g4_target"], ckpt["g4_drafter"])
    engines.append(mtp)
    fin = _finished(list(generate(mtp, MESSAGES, Sampling(max_tokens=10), top_logprobs=3)))  # type: ignore[attr-defined]
    assert fin.candidates is None
    # A request that does not ask gets none (the rows travel on each request's Finished).
    assert _finished(_run(classic, 3)).candidates is None


# --- the context length is enforced ---------------------------------------------------------------


def _prompt_len(model_dir: Path) -> int:
    from transformers import AutoTokenizer

    ids = AutoTokenizer.from_pretrained(str(model_dir)).apply_chat_template(
        MESSAGES, add_generation_prompt=True, tokenize=True, return_dict=False
    )
    return len(ids)


@pytest.mark.parametrize("pair", ["vlm", "lm", "mtp", "draft"])
def test_generation_stops_at_the_context_and_a_prompt_that_does_not_fit_is_refused(
    ckpt: dict[str, Path], engines: list[object], pair: str
) -> None:
    from app.core.engines.base import ContextLengthError
    from app.core.engines.mlx.engine import MLXEngine

    target, drafter, method = {
        "vlm": (ckpt["g4_target"], None, "mtp"),
        "lm": (ckpt["llama_target"], None, "draft"),
        "mtp": (ckpt["g4_target"], ckpt["g4_drafter"], "mtp"),
        "draft": (ckpt["llama_target"], ckpt["llama_drafter"], "draft"),
    }[pair]
    n_prompt = _prompt_len(target)
    spec = SpeculationOptions.build(
        enabled=drafter is not None, method=method, draft_model_path=str(drafter) if drafter else None
    )
    engine = MLXEngine.load(LoadRequest(str(target), spec, n_ctx=n_prompt + 5))
    engines.append(engine)
    events = _run(engine, 50)
    fin = _finished(events)
    assert fin.prompt_tokens == n_prompt
    assert fin.completion_tokens == 5 and fin.reason == "length"
    if drafter is not None:
        _check_accounting(events)
    tight = MLXEngine.load(LoadRequest(str(target), spec, n_ctx=n_prompt))
    engines.append(tight)
    with pytest.raises(ContextLengthError) as err:
        _run(tight, 1)
    assert str(err.value) == (
        f"The prompt is {n_prompt} tokens but the context holds {n_prompt}: "
        "there is no room left for an answer."
    )
    assert "larger context" in err.value.user_message()
    assert _finished(_run(engine, 2)).completion_tokens == 2  # the engine still serves


# --- drafted tokens of mlx-vlm drafters without draft_lens ----------------------------------------


def _rounds(events: list[Event]) -> list[tuple[int, int, int]]:
    return [(r.drafted, r.accepted, r.emitted) for r in events if isinstance(r, Round)]


def test_vlm_drafter_without_draft_lens_reports_real_draft_counts(
    ckpt: dict[str, Path], engines: list[object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Several mlx-vlm drafters keep only ``accept_lens`` (dflash2, dspark, nemotron_h_mtp, ...);
    their drafted count is the real one, not accepted taken for drafted (a false 100% acceptance)."""
    from mlx_vlm.speculative import mtp as vlm_mtp
    from mlx_vlm.speculative.drafters.gemma4_assistant import Gemma4AssistantDraftModel

    engine = _load(ckpt["g4_target"], ckpt["g4_drafter_7"])
    engines.append(engine)
    reference = _run(engine, 60)  # this drafter keeps draft_lens
    ref = _finished(reference)
    assert ref.drafted_known and ref.acceptance_rate is not None and ref.acceptance_rate < 1.0
    assert ref.accepted_total > 0  # some drafts are accepted, so "drafted = accepted" would show 100%

    original_reset = Gemma4AssistantDraftModel.reset

    def reset_without_draft_lens(self: object, *args: object, **kwargs: object) -> object:
        out = original_reset(self, *args, **kwargs)  # type: ignore[arg-type]
        del self.draft_lens  # type: ignore[attr-defined]
        return out

    monkeypatch.setattr(Gemma4AssistantDraftModel, "reset", reset_without_draft_lens)
    events = _run(engine, 60)
    fin = _finished(events)
    assert fin.token_ids == ref.token_ids
    assert _rounds(events) == _rounds(reference)  # from mlx-vlm's lifetime counters
    assert fin.drafted_known and fin.drafted_total == ref.drafted_total
    assert fin.acceptance_rate == ref.acceptance_rate and fin.acceptance_rate < 1.0  # type: ignore[operator]
    _check_accounting(events)

    # An mlx-vlm that records accepted lengths only (no draft_lens, no lifetime totals): unknown.
    def record_accepted_only(draft_model: object, accepted: float, draft_count: int) -> None:
        draft_model.accept_lens.append(accepted)  # type: ignore[attr-defined]

    monkeypatch.setattr(vlm_mtp, "_record_speculative_round", record_accepted_only)
    events = _run(engine, 60)
    fin = _finished(events)
    assert fin.token_ids == ref.token_ids
    assert not fin.drafted_known and fin.drafted_total == 0 and fin.acceptance_rate is None
    assert fin.accepted_total == ref.accepted_total
    rounds = [r for r in events if isinstance(r, Round)]
    # the prefill token's round drafted nothing, and says so; every speculative round is unknown
    assert (rounds[0].drafted, rounds[0].drafted_known) == (0, True)
    assert len(rounds) > 1 and all(not r.drafted_known and r.drafted == 0 for r in rounds[1:])
    _check_accounting(events)


# --- repeat penalty ---------------------------------------------------------------------------------


@pytest.mark.parametrize("target", ["g4_target", "llama_target"])
def test_repeat_penalty_changes_greedy_output(
    ckpt: dict[str, Path], engines: list[object], target: str
) -> None:
    engine = _load(ckpt[target])
    engines.append(engine)
    plain = _finished(_run(engine, 40)).token_ids or []
    penalised = _finished(_run(engine, 40, repeat_penalty=3.0)).token_ids or []
    # the random-weight models repeat themselves greedily; a strong penalty breaks that
    assert len(set(plain)) < len(plain) / 2
    assert len(set(penalised)) > 2 * len(set(plain)), (plain, penalised)
    assert _finished(_run(engine, 40, repeat_penalty=1.0)).token_ids == plain


def test_repeat_penalty_with_drafters(ckpt: dict[str, Path], engines: list[object]) -> None:
    # Classic pairs: greedy parity holds with a penalty too (the prompt counts on both sides).
    off = _load(ckpt["llama_target"])
    engines.append(off)
    plain = _finished(_run(off, 40)).token_ids
    for n in (1, 3, 5):
        on = _load(ckpt["llama_target"], ckpt["llama_drafter"], "draft", n)
        engines.append(on)
        on.adaptive_depth = FIXED_DEPTH  # type: ignore[attr-defined]
        for penalty in (1.3, 3.0):
            ref = _finished(_run(off, 40, repeat_penalty=penalty))
            events = _run(on, 40, repeat_penalty=penalty)
            got = _finished(events)
            assert ref.token_ids != plain
            assert ref.token_ids == got.token_ids, (
                n,
                penalty,
                _first_difference(ref.token_ids, got.token_ids),
            )  # type: ignore[arg-type]
            assert got.drafted_total > 0
            _check_accounting(events)
    # mlx-vlm skips logits processors in its speculative rounds: refused, not silently dropped.
    mtp = _load(ckpt["g4_target"], ckpt["g4_drafter"])
    engines.append(mtp)
    with pytest.raises(GenerationError, match="does not apply a repeat penalty in its speculative rounds"):
        list(generate(mtp, MESSAGES, Sampling(repeat_penalty=1.3)))
    assert _finished(_run(mtp, 3)).completion_tokens == 3


def test_max_tokens_below_one_is_refused_by_sampling_before_any_engine() -> None:
    from app.core.engines.base import SamplingError
    from app.core.engines.mlx import engine as mlx_engine

    for bad in (0, -1):
        with pytest.raises(SamplingError, match=rf"^max tokens: must be at least 1 \(got {bad}\)$"):
            Sampling(max_tokens=bad)
    # one message path: the MLX engine has no max-tokens check of its own
    assert "max_tokens must be" not in Path(mlx_engine.__file__).read_text()


def test_structured_output_is_refused_by_the_engine_and_the_local_server(
    ckpt: dict[str, Path], engines: list[object]
) -> None:
    """MLX samples without a grammar: a response_format is refused, never answered as free text."""
    import openai

    from app.core.serving import LocalServer, ServedModel, ServerConfig

    engine = _load(ckpt["llama_target"])
    engines.append(engine)
    assert engine.supports_structured_output is False  # type: ignore[attr-defined]
    with pytest.raises(GenerationError, match="cannot constrain output"):
        list(generate(engine, MESSAGES, Sampling(max_tokens=4), response_format={"type": "json_object"}))
    server = LocalServer(ServedModel(engine, "tiny"), ServerConfig("k", port=0))  # type: ignore[arg-type]
    server.start()
    try:
        with openai.OpenAI(base_url=server.address, api_key="k", max_retries=0, timeout=120) as client:
            with pytest.raises(openai.BadRequestError) as err:
                client.chat.completions.create(
                    model="tiny",
                    messages=MESSAGES,
                    max_tokens=4,
                    response_format={"type": "json_object"},  # type: ignore[arg-type]
                )
            plain = client.chat.completions.create(model="tiny", messages=MESSAGES, max_tokens=4)  # type: ignore[arg-type]
    finally:
        server.stop()
    assert err.value.body["code"] == "unsupported" and "mlx engine" in err.value.body["message"]  # type: ignore[index]
    assert plain.usage is not None and plain.usage.completion_tokens == 4


class _StopAfter(CancelToken):
    """Stop pressed at a known moment: ``cancelled`` turns True on its ``after + 1``-th read (the
    generation loop reads it once before the prompt, then the prefill once per chunk)."""

    def __init__(self, after: int) -> None:
        super().__init__()
        self.reads, self.after = 0, after

    @property
    def cancelled(self) -> bool:
        self.reads += 1
        return self.reads > self.after or super().cancelled


@pytest.mark.parametrize("kind", ["plain", "draft", "suffix"])
def test_stop_during_a_long_prompt_ends_it_between_prefill_chunks(
    ckpt: dict[str, Path], engines: list[object], kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stop during a long prompt is heard between prefill chunks, not after the whole pass (mlx-lm
    reads a prompt in one 2,048-token pass, minutes on a CPU for a long prompt). Every loop checks
    between chunks: the request ends cancelled with no token generated, and the
    engine answers the next request."""
    from app.core.engines.mlx import modelfree
    from app.core.engines.mlx.engine import MLXEngine

    monkeypatch.setattr(modelfree, "PREFILL_CHUNK", 8)  # a long prompt in many chunks
    monkeypatch.setattr(modelfree, "CPU_PREFILL_CHUNK", 8)
    if kind == "plain":
        engine = _load(ckpt["llama_target"])
    elif kind == "draft":
        engine = _load(ckpt["llama_target"], ckpt["llama_drafter"], "draft")
    else:
        spec = SpeculationOptions.build(enabled=True, method="suffix")
        engine = MLXEngine.load(LoadRequest(str(ckpt["llama_target"]), spec))
    engines.append(engine)
    long_prompt = [{"role": "user", "content": " ".join(f"word{i}" for i in range(60))}]
    stop = _StopAfter(3)  # the loop's first read, the prefill's first two checks: then Stop
    events = list(generate(engine, long_prompt, Sampling(max_tokens=20), stop))  # type: ignore[attr-defined]
    fin = _finished(events)
    assert fin.reason == "cancelled" and fin.completion_tokens == 0, (kind, fin)
    assert fin.prompt_tokens > 8 * 4  # many chunks were left unread
    again = _finished(_run(engine, 5))
    assert again.reason in ("length", "stop") and again.completion_tokens > 0


# --- speculation per request ----------------------------------------------------------------------
def _pair(ckpt: dict[str, Path], pair: str) -> tuple[Path, Path]:
    if pair == "mtp":
        return ckpt["g4_target"], ckpt["g4_drafter"]
    return ckpt["llama_target"], ckpt["llama_drafter"]


@pytest.mark.parametrize("pair", ["mtp", "draft"])
def test_a_request_switches_speculation_on_the_loaded_weights_with_greedy_parity(
    ckpt: dict[str, Path], engines: list[object], pair: str
) -> None:
    """One MLX engine runs off, its loaded drafter and the model-free methods per request, in any
    order and without a reload: every greedy answer has the tokens of a plain engine's; "off" drafts
    nothing, the drafter drafts; a method it cannot switch to is refused naming what it can."""
    target, drafter = _pair(ckpt, pair)
    plain = _load(target)
    engines.append(plain)
    on = _load(target, drafter, pair, 4 if pair == "draft" else None)
    engines.append(on)
    # the depth stays as asked: the adaptive depth may settle on plain steps for a whole request on a
    # busy machine (it measures time), and this test is about switching, not about the depth
    on.adaptive_depth = FIXED_DEPTH  # type: ignore[attr-defined]
    assert [str(o) for o in on.offers()] == ["off", pair, "suffix", "prompt-lookup"]  # type: ignore[attr-defined]
    assert [str(o) for o in plain.offers()] == ["off", "suffix", "prompt-lookup"]  # type: ignore[attr-defined]
    ref = _finished(_run(plain, 32))

    async def read(choice: str | None, **sampling: object) -> list[Event]:
        request = GenerateRequest(
            MESSAGES,
            Sampling(max_tokens=32, **sampling),
            speculation=None if choice is None else Speculation.parse(choice),
        )  # type: ignore[arg-type]
        return [ev async for ev in on.stream(request)]  # type: ignore[attr-defined]

    for choice in ("off", "suffix", pair, "prompt-lookup", None, "off", "suffix"):
        events = asyncio.run(read(choice))
        got = _finished(events)
        assert got.token_ids == ref.token_ids, (
            choice,
            _first_difference(ref.token_ids or [], got.token_ids or []),
        )
        _check_accounting(events)
        if choice == "off":
            assert got.drafted_total == 0 and not any(isinstance(e, Round) for e in events)
        if choice in (pair, None):
            assert got.drafted_total > 0, choice
    with pytest.raises(GenerationError, match="cannot switch to 'ngram-mod' without a reload") as info:
        asyncio.run(read("ngram-mod"))
    assert "off, " + pair in str(info.value)
    # a greedy-only drafter refuses sampling; the same request on "off" samples
    on.greedy_only = True  # type: ignore[attr-defined]  # what a greedy-only drafter sets at load
    with pytest.raises(GenerationError, match="greedy decoding only"):
        asyncio.run(read(None, temperature=0.7))
    sampled = _finished(asyncio.run(read("off", temperature=0.7, seed=3)))
    assert sampled.completion_tokens > 0


def test_the_local_server_honours_a_requests_speculation_on_mlx(
    ckpt: dict[str, Path], engines: list[object]
) -> None:
    """``tandem.speculation`` on an MLX model: "off" and the model-free methods run on the loaded
    engine (the same greedy text, "off" drafting nothing), another method is a 400 naming what can
    run."""
    import httpx

    from app.core.serving import LocalServer, ServedModel, ServerConfig

    target, drafter = _pair(ckpt, "mtp")
    engine = _load(target, drafter, "mtp")
    engines.append(engine)
    server = LocalServer(ServedModel(engine, "tiny", None), ServerConfig("k", port=0))  # type: ignore[arg-type]
    server.start()
    try:
        body = {"messages": MESSAGES, "max_tokens": 16, "temperature": 0}
        replies = {
            choice: httpx.post(
                server.address + "/chat/completions",
                json={**body, "tandem": {"speculation": choice}},
                headers={"Authorization": "Bearer k"},
                timeout=120,
            )
            for choice in ("auto", "off", "suffix", "mtp", "ngram-mod")
        }
    finally:
        server.stop()
    ok = {c: r.json() for c, r in replies.items() if c != "ngram-mod"}
    assert all(replies[c].status_code == 200 for c in ok), {c: r.text for c, r in replies.items()}
    texts = {c: b["choices"][0]["message"]["content"] for c, b in ok.items()}
    assert len(set(texts.values())) == 1, texts
    figures = {c: b["tandem"]["speculative_decoding"] for c, b in ok.items()}
    assert figures["off"]["drafted"] == 0 and not figures["off"]["enabled"]
    assert figures["mtp"]["drafted"] > 0 and figures["auto"]["drafted"] > 0
    refused = replies["ngram-mod"]
    assert refused.status_code == 400 and "suffix" in refused.json()["error"]["message"]
