"""Images through the MLX engine on the tiny generated Gemma 4 (a real vision tower and
mlx-vlm's real Gemma 4 processor) and on an mlx-lm text model that cannot see images.

Image files are made with Pillow in a temp dir: RGB, RGBA, grayscale (mode L) and a 4000x3000
photo-sized JPEG. Greedy parity: spec-on must give the token ids of spec-off with the image in the
prompt, for the Gemma 4 assistant (mtp) and the model-free methods.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.engines.base import (
    CancelToken,
    ChatMessage,
    Event,
    Finished,
    GenerationError,
    ImagesUnsupportedError,
    InvalidRequestError,
    LoadRequest,
    Round,
    Sampling,
    TextDelta,
)
from app.core.engines.blocking import generate
from app.core.engines.mlx import modelfree as mlx_modelfree
from app.core.images import TOKENS_PER_IMAGE, check_image_file
from app.core.speculative import SpeculationOptions
from app.devtools import mlx_models as fx
from tests.mlx_required import require_mlx

pytestmark = pytest.mark.mlx

QUESTION = "What is in the picture?"
MODEL_FREE = ("suffix", "prompt-lookup")


@pytest.fixture(scope="session")
def ckpt(real_models: None, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    require_mlx()
    root = tmp_path_factory.mktemp("mlx-vision-checkpoints")
    return {
        "g4_target": fx.write_gemma4_target(root / "g4-target"),
        "g4_drafter": fx.write_gemma4_assistant(root / "g4-assistant"),
        "g4_target_forced": fx.write_gemma4_target(root / "g4-target-forced", forced=True),
        "g4_drafter_forced": fx.write_gemma4_assistant(root / "g4-assistant-forced", forced=True),
        "llama_target": fx.write_llama_target(root / "llama-target"),
        "g4_target_bidirectional": _bidirectional(root / "g4-target", root / "g4-target-bidirectional"),
    }


def _bidirectional(source: Path, out: Path) -> Path:
    """The target with ``use_bidirectional_attention: "vision"`` (an image's tokens attend to each
    other, as in larger Gemma 4 models): a prefill may not cut an image in two."""
    import json
    import shutil

    shutil.copytree(source, out)
    cfg = json.loads((out / "config.json").read_text())
    cfg["text_config"]["use_bidirectional_attention"] = "vision"
    (out / "config.json").write_text(json.dumps(cfg))
    return out


@pytest.fixture(scope="session")
def images(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Real image files, deterministic pixels (no random state shared with other tests)."""
    import numpy as np
    from PIL import Image

    root = tmp_path_factory.mktemp("images")
    rng = np.random.default_rng(26)
    y, x = np.mgrid[0:480, 0:640]
    rgb = np.stack([(x * 255 // 639), (y * 255 // 479), ((x + y) % 256)], axis=-1).astype(np.uint8)
    rgba = np.concatenate([rgb[:300, :300], (rgb[:300, :300, :1] // 2 + 64)], axis=-1)
    gray = ((x[:200, :300] * 3 + y[:200, :300] * 5) % 256).astype(np.uint8)
    py, px = np.mgrid[0:3000, 0:4000]
    photo = np.stack([(px // 16) % 256, (py // 12) % 256, (px * py // 4096) % 256], axis=-1)
    photo = (photo + rng.integers(0, 24, photo.shape)).clip(0, 255).astype(np.uint8)
    out = {
        "rgb": root / "rgb.png",
        "rgba": root / "rgba.png",
        "gray": root / "gray.png",
        "photo": root / "photo.jpg",
        "red": root / "red.png",
        "tiny": root / "tiny.png",
        "wide": root / "wide.webp",
    }
    Image.fromarray(rgb, "RGB").save(out["rgb"])
    Image.fromarray(rgba, "RGBA").save(out["rgba"])
    Image.fromarray(gray, "L").save(out["gray"])
    Image.fromarray(photo, "RGB").save(out["photo"], quality=90)
    Image.new("RGB", (320, 240), (200, 30, 30)).save(out["red"])
    Image.new("RGB", (1, 1), (10, 200, 90)).save(out["tiny"])
    Image.fromarray(photo[:50, :], "RGB").save(out["wide"])  # 4000x50: an extreme aspect ratio
    return out


@pytest.fixture
def engines() -> Iterator[list[Any]]:
    """Engines opened by a test; closed (threads joined) at teardown even when the test fails."""
    opened: list[Any] = []
    yield opened
    for e in opened:
        e.close()


def _load(engines: list[Any], target: Path, method: str | None = None, drafter: Path | None = None) -> Any:
    from app.core.engines.mlx.engine import MLXEngine

    spec = SpeculationOptions.build(
        enabled=method is not None,
        method=method,
        draft_model_path=str(drafter) if drafter else None,
    )
    engine = MLXEngine.load(LoadRequest(str(target), spec))
    engine.cost_gate = False  # model-free: every proposal verified, so acceptance shows
    engines.append(engine)
    return engine


def _ask(*pictures: Path, text: str = QUESTION) -> list[ChatMessage]:
    return [{"role": "user", "content": text, "images": [str(p) for p in pictures]}]


def _run(
    engine: Any, messages: list[ChatMessage], max_tokens: int = 32, top_logprobs: int = 0
) -> list[Event]:
    return list(generate(engine, messages, Sampling(max_tokens=max_tokens), top_logprobs=top_logprobs))


_finished = fx.finished
_check_accounting = fx.check_accounting


def _first_difference(a: list[int], b: list[int]) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"first difference at position {i}: spec-off {x}, spec-on {y}"
    return f"lengths differ: spec-off {len(a)}, spec-on {len(b)}"


def _soft_tokens(ids: list[int]) -> int:
    return ids.count(fx.special_id("<image>"))


# --- what reads images -----------------------------------------------------------------------------


def test_a_gemma4_target_reads_images_with_every_method_and_a_text_model_does_not(
    ckpt: dict[str, Path], engines: list[Any]
) -> None:
    assert _load(engines, ckpt["g4_target"]).supports_images
    assert _load(engines, ckpt["g4_target"], "mtp", ckpt["g4_drafter"]).supports_images
    for method in MODEL_FREE:
        assert _load(engines, ckpt["g4_target"], method).supports_images
    assert not _load(engines, ckpt["llama_target"]).supports_images
    assert not _load(engines, ckpt["llama_target"], "suffix").supports_images


def test_an_image_sent_to_a_text_model_is_refused_in_one_line(
    ckpt: dict[str, Path], engines: list[Any], images: dict[str, Path]
) -> None:
    engine = _load(engines, ckpt["llama_target"])
    with pytest.raises(ImagesUnsupportedError) as info:
        _run(engine, _ask(images["rgb"]))
    message = str(info.value)
    assert "\n" not in message and "cannot read images" in message, message
    assert info.value.hint and "\n" not in info.value.hint
    # the engine still answers text; an image counts as the reckoned size for context trimming
    assert _finished(_run(engine, [{"role": "user", "content": QUESTION}], 4)).completion_tokens == 4
    text_only = engine.count_prompt_tokens([{"role": "user", "content": QUESTION}])
    assert engine.count_prompt_tokens(_ask(images["rgb"], images["gray"])) == text_only + 2 * TOKENS_PER_IMAGE


def test_a_vision_model_without_its_image_markers_runs_text_and_refuses_images(
    ckpt: dict[str, Path], engines: list[Any], images: dict[str, Path], tmp_path: Path
) -> None:
    import json
    import shutil

    target = tmp_path / "no-image-markers"
    shutil.copytree(ckpt["g4_target"], target)
    cfg = json.loads((target / "tokenizer_config.json").read_text())
    for key in ("extra_special_tokens", *fx.VISION_TOKENS):
        cfg.pop(key, None)
    (target / "tokenizer_config.json").write_text(json.dumps(cfg))
    engine = _load(engines, target)
    assert not engine.supports_images
    assert any("Images are off" in note for note in engine.notes), engine.notes
    with pytest.raises(ImagesUnsupportedError):
        _run(engine, _ask(images["rgb"]))
    assert _finished(_run(engine, [{"role": "user", "content": QUESTION}], 4)).completion_tokens == 4


# --- the whole path ----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["rgb", "rgba", "gray", "photo", "tiny", "wide"])
def test_every_image_mode_goes_through_the_whole_path(
    ckpt: dict[str, Path], engines: list[Any], images: dict[str, Path], kind: str
) -> None:
    check_image_file(images[kind])  # what the chat does when the image is attached
    engine = _load(engines, ckpt["g4_target"])
    messages = _ask(images[kind])
    counted = engine.count_prompt_tokens(messages)
    events = _run(engine, messages, 16, top_logprobs=2)
    fin = _finished(events)
    _check_accounting(events)
    text_prompt = engine.count_prompt_tokens([{"role": "user", "content": QUESTION}])
    # the image's soft tokens (at most the processor's budget) + its begin / end markers
    assert fin.prompt_tokens == counted
    assert text_prompt + 3 <= fin.prompt_tokens <= text_prompt + fx.IMAGE_SOFT_TOKENS + 2
    assert fin.completion_tokens == 16 and len(fin.token_ids or []) == 16
    assert fin.candidates is not None and len(fin.candidates) == 16
    assert fin.prompt_ms > 0


def test_the_picture_changes_the_answer(
    ckpt: dict[str, Path], engines: list[Any], images: dict[str, Path]
) -> None:
    engine = _load(engines, ckpt["g4_target"])
    first = {}
    for kind in ("rgb", "red"):
        fin = _finished(_run(engine, _ask(images[kind]), 1, top_logprobs=5))
        assert fin.candidates is not None
        first[kind] = [(c.id, round(c.logprob, 4)) for c in fin.candidates[0]]
    plain = _finished(_run(engine, [{"role": "user", "content": QUESTION}], 1, top_logprobs=5))
    assert plain.candidates is not None
    first["none"] = [(c.id, round(c.logprob, 4)) for c in plain.candidates[0]]
    assert first["rgb"] != first["red"] != first["none"] != first["rgb"], first


# --- greedy parity with an image -------------------------------------------------------------------


@pytest.mark.parametrize("attention", ["causal", "bidirectional"])
@pytest.mark.parametrize("method", ["mtp", *MODEL_FREE])
def test_greedy_parity_with_an_image(
    ckpt: dict[str, Path], engines: list[Any], images: dict[str, Path], method: str, attention: str
) -> None:
    target = ckpt["g4_target"] if attention == "causal" else ckpt["g4_target_bidirectional"]
    off = _load(engines, target)
    on = _load(engines, target, method, ckpt["g4_drafter"] if method == "mtp" else None)
    messages = _ask(images["rgb"])
    ref = _finished(_run(off, messages, 40))
    for _ in range(2):  # suffix: the repeated request comes from the tree
        events = _run(on, messages, 40)
        got = _finished(events)
        assert got.token_ids == ref.token_ids, _first_difference(ref.token_ids or [], got.token_ids or [])
        assert got.prompt_tokens == ref.prompt_tokens
        _check_accounting(events)
        assert got.drafted_total > 0
    if method in MODEL_FREE:
        assert got.accepted_total > 0, got  # the answer repeats itself: drafts are accepted


def test_forced_acceptance_with_an_image_keeps_exact_mtp_rounds(
    ckpt: dict[str, Path], engines: list[Any], images: dict[str, Path]
) -> None:
    """The forced pair (ENGINES.md) accepts every draft: the image's prefill must leave the target's
    cache and the drafter in step, round for round as with text."""
    off = _load(engines, ckpt["g4_target_forced"])
    on = _load(engines, ckpt["g4_target_forced"], "mtp", ckpt["g4_drafter_forced"])
    messages = _ask(images["photo"], images["gray"])
    ref = _finished(_run(off, messages, 10))
    events = _run(on, messages, 10)
    fin = _finished(events)
    assert fin.token_ids == ref.token_ids == [0] * 10
    rounds = [(r.drafted, r.accepted, r.emitted) for r in events if isinstance(r, Round)]
    assert rounds == [(0, 0, 1), (3, 3, 4), (3, 3, 4), (1, 1, 1)]
    assert fin.drafted_total == fin.accepted_total == 7
    _check_accounting(events)


# --- several images, history ------------------------------------------------------------------------


def _history(images: dict[str, Path], order: tuple[str, str] = ("rgb", "gray")) -> list[ChatMessage]:
    return [
        {"role": "system", "content": "Answer briefly."},
        {"role": "user", "content": "Compare these two.", "images": [str(images[k]) for k in order]},
        {"role": "assistant", "content": "The first is brighter."},
        {"role": "user", "content": "And this one?", "images": [str(images["rgba"])]},
    ]


@pytest.mark.parametrize(
    ("method", "attention"),
    [
        (None, "causal"),
        ("mtp", "causal"),
        ("suffix", "causal"),
        ("mtp", "bidirectional"),
        ("suffix", "bidirectional"),
    ],
)
def test_several_images_in_one_message_and_in_the_history(
    ckpt: dict[str, Path],
    engines: list[Any],
    images: dict[str, Path],
    method: str | None,
    attention: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three images in two user messages (~800 prompt tokens). Tandem's own prefill (suffix) runs
    in chunks where the model allows it (causal attention) and in one pass where an image must be
    seen whole (bidirectional vision attention)."""
    from app.core.engines.mlx import vision as mlx_vision

    policy: list[bool] = []
    real_may_chunk = mlx_vision._may_chunk

    def may_chunk(*args: Any) -> bool:
        policy.append(real_may_chunk(*args))
        return policy[-1]

    monkeypatch.setattr(mlx_vision, "_may_chunk", may_chunk)
    target = ckpt["g4_target"] if attention == "causal" else ckpt["g4_target_bidirectional"]
    one_each = [
        _finished(_run(_load(engines, target), _ask(images[k]), 1)).prompt_tokens
        for k in ("rgb", "gray", "rgba")
    ]
    text_prompt = _load(engines, target).count_prompt_tokens([{"role": "user", "content": QUESTION}])
    off = _load(engines, target)
    drafter = ckpt["g4_drafter"] if method == "mtp" else None
    on = off if method is None else _load(engines, target, method, drafter)
    messages = _history(images)
    ref = _finished(_run(off, messages, 24))
    events = _run(on, messages, 24)
    fin = _finished(events)
    _check_accounting(events)
    assert fin.token_ids == ref.token_ids, _first_difference(ref.token_ids or [], fin.token_ids or [])
    assert fin.prompt_tokens == on.count_prompt_tokens(messages)
    assert fin.prompt_tokens > mlx_modelfree.PREFILL_CHUNK
    # every image keeps its own soft tokens, wherever it is in the conversation
    soft = sum(n - text_prompt - 2 for n in one_each)
    vision = on._worker.call(lambda: on._vision_prompt(on._state, messages))
    assert _soft_tokens(vision.ids) == soft and vision.images == 3
    assert vision.ids.count(fx.special_id("<boi>")) == 3
    if method == "suffix":
        assert policy == [attention == "causal"]
    # the order of the images is the order the model sees them in
    if method is None:
        swapped = _finished(_run(off, _history(images, ("gray", "rgb")), 1, top_logprobs=3))
        same = _finished(_run(off, messages, 1, top_logprobs=3))
        assert swapped.candidates != same.candidates


def test_time_to_first_token_includes_the_image_encoding(
    ckpt: dict[str, Path], engines: list[Any], images: dict[str, Path]
) -> None:
    """The vision tower runs inside the prefill; a slowed embedding step must show in prompt_ms."""
    delay = 0.4
    for method in (None, "mtp", "suffix"):
        engine = _load(engines, ckpt["g4_target"], method, ckpt["g4_drafter"] if method == "mtp" else None)
        model = engine._state.target
        calls: list[str] = []

        def slow(
            *args: Any, _original: Any = model.get_input_embeddings, _calls: list[str] = calls, **kw: Any
        ) -> Any:
            _calls.append(threading.current_thread().name)
            time.sleep(delay)
            return _original(*args, **kw)

        model.get_input_embeddings = slow
        fin = _finished(_run(engine, _ask(images["rgb"]), 4))
        assert calls and all(name.startswith("tandem-mlx-") for name in calls), calls
        assert fin.prompt_ms >= delay * 1000, (method, fin.prompt_ms)
        assert fin.decode_ms < fin.prompt_ms


# --- a broken image ----------------------------------------------------------------------------------


@pytest.mark.parametrize("method", [None, "suffix"])
@pytest.mark.parametrize("damage", ["garbage", "truncated", "deleted"])
def test_an_image_damaged_after_it_was_checked_fails_in_one_line_and_the_engine_goes_on(
    ckpt: dict[str, Path],
    engines: list[Any],
    images: dict[str, Path],
    tmp_path: Path,
    damage: str,
    method: str | None,
) -> None:
    path = tmp_path / "attached.png"
    data = images["rgb"].read_bytes()
    path.write_bytes(data)
    check_image_file(path)  # accepted when attached
    if damage == "garbage":
        path.write_bytes(b"not an image at all" * 100)
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    else:
        path.unlink()
    engine = _load(engines, ckpt["g4_target"], method)
    with pytest.raises(GenerationError) as info:
        _run(engine, _ask(path))
    message = str(info.value)
    assert "\n" not in message and "attached.png" in message, message
    assert "\n" not in info.value.hint and info.value.hint.startswith("Attach the picture again")
    # the engine is still usable, with and without images
    assert _finished(_run(engine, _ask(images["gray"]), 4)).completion_tokens == 4
    assert _finished(_run(engine, [{"role": "user", "content": QUESTION}], 4)).completion_tokens == 4
    if method == "suffix":
        assert engine._state.suffix.active_requests == frozenset()


def test_images_on_a_non_user_message_are_refused_in_one_line(
    ckpt: dict[str, Path], engines: list[Any], images: dict[str, Path]
) -> None:
    engine = _load(engines, ckpt["g4_target"])
    messages: list[ChatMessage] = [
        {"role": "assistant", "content": "Here.", "images": [str(images["rgb"])]},
        {"role": "user", "content": QUESTION},
    ]
    with pytest.raises(
        InvalidRequestError, match=r"^Images can be attached to user messages only; .* 'assistant' message\.$"
    ):
        _run(engine, messages)


@pytest.mark.parametrize("method", [None, "mtp", "suffix"])
def test_a_cancelled_answer_about_an_image_then_the_next_one(
    ckpt: dict[str, Path], engines: list[Any], images: dict[str, Path], method: str | None
) -> None:
    engine = _load(engines, ckpt["g4_target"], method, ckpt["g4_drafter"] if method == "mtp" else None)
    cancel = CancelToken()
    taken = 0
    fin: Finished | None = None
    for ev in generate(engine, _ask(images["photo"]), Sampling(max_tokens=200), cancel):
        if isinstance(ev, TextDelta):
            taken += ev.token_count
            if taken >= 3:
                cancel.cancel()
        elif isinstance(ev, Finished):
            fin = ev
    assert fin is not None and fin.reason == "cancelled" and 3 <= fin.completion_tokens < 200
    again = _finished(_run(engine, _ask(images["photo"]), 8))
    assert again.reason == "length" and again.completion_tokens == 8
    assert (again.token_ids or [])[: len(fin.token_ids or [])] == fin.token_ids
    if method == "suffix":
        assert engine._state.suffix.active_requests == frozenset()


def test_tools_and_a_tool_call_history_with_an_image(
    ckpt: dict[str, Path], engines: list[Any], images: dict[str, Path]
) -> None:
    tools = [
        {
            "type": "function",
            "function": {
                "name": "look_closer",
                "description": "Zoom into the picture.",
                "parameters": {"type": "object", "properties": {"where": {"type": "string"}}},
            },
        }
    ]
    messages: list[ChatMessage] = [
        {"role": "user", "content": "What is here?", "images": [str(images["rgb"])]},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "look_closer", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "a gradient"},
        {"role": "user", "content": "So?"},
    ]
    engine = _load(engines, ckpt["g4_target"], "suffix")
    events = list(generate(engine, messages, Sampling(max_tokens=6), tools=tools))
    fin = _finished(events)
    _check_accounting(events)
    assert fin.completion_tokens == 6
    assert fin.prompt_tokens == engine.count_prompt_tokens(messages)
