"""Image parts on the local API server through the real ``openai`` and ``anthropic``
clients: OpenAI ``image_url`` parts, Responses ``input_image`` parts and Anthropic image blocks,
bounded in size and count, refused with one clear line each, and refused by a model that cannot
see (the real text-only SmolLM2 on llama.cpp).

Where a test needs a model that sees, the engine is a recording fake (another layer): the server
layer is real and the engines' own image paths are tested on real models in their own tests."""

from __future__ import annotations

import base64
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import openai
import pytest

from app.core import paths
from app.core.engines.base import CancelToken, ChatMessage, Event, Finished, Sampling, TextDelta
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.serving import ServedModel
from app.core.serving.protocol import Limits
from app.devtools.images import image_bytes
from app.devtools.scripted import ScriptedStream
from tests.integration.served import Served, q4_engine, served_model
from tests.mlx_required import require_mlx

__all__ = ["q4_engine"]  # fixture


def _url(data: bytes, mime: str = "image/png") -> str:
    return f"data:{mime};base64," + base64.b64encode(data).decode()


class SeeingEngine(ScriptedStream):
    """Answers with the sizes of the image files it was given (read from disk, as engines do)."""

    name = "seeing"
    model_path = "seeing"
    spec_kind = None
    supports_tools = False
    supports_structured_output = False
    supports_images = True
    candidates_with_speculation = False

    def __init__(self) -> None:
        self.seen: list[list[str]] = []

    def script(
        self, messages: Sequence[ChatMessage], sampling: Sampling, cancel: CancelToken | None = None, **_: Any
    ) -> Iterator[Event]:
        files = [f for m in messages for f in m.get("images", [])]
        self.seen.append(files)
        sizes = ",".join(str(Path(f).stat().st_size) for f in files)
        yield TextDelta(f"saw {len(files)}: {sizes}", 3)
        yield Finished("stop", 5, 3, 1.0, 1.0, 0, 0)

    def close(self) -> None:
        pass


def _leftovers() -> list[Path]:
    root = paths.cache_dir() / "api-images"
    return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


def test_image_parts_in_all_three_apis_reach_the_engine_as_files() -> None:
    engine = SeeingEngine()
    rgba, gray = image_bytes((40, 30), "RGBA"), image_bytes((30, 40), "L")
    jpeg = image_bytes((64, 48), "RGB", "JPEG")
    with Served(ServedModel(engine, "seeing", None)) as s:
        chat = s.openai().chat.completions.create(
            model="seeing",
            messages=[
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "what are these?"},
                        {"type": "image_url", "image_url": {"url": _url(rgba)}},
                        {
                            "type": "image_url",
                            "image_url": {"url": _url(jpeg, "image/jpeg"), "detail": "low"},
                        },
                    ],
                }
            ],
        )
        assert chat.choices[0].message.content == f"saw 2: {len(rgba)},{len(jpeg)}"
        resp = s.openai().responses.create(
            model="seeing",
            input=[
                {
                    "role": "user",
                    "content": [
                        {"type": "input_text", "text": "and this?"},
                        {"type": "input_image", "image_url": _url(gray), "detail": "auto"},
                    ],
                }
            ],
        )
        assert resp.output_text == f"saw 1: {len(gray)}"
        msg = s.anthropic().messages.create(
            model="seeing",
            max_tokens=16,
            messages=[
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "image",
                            "source": {
                                "type": "base64",
                                "media_type": "image/png",
                                "data": base64.b64encode(rgba).decode(),
                            },
                        },
                        {"type": "text", "text": "again"},
                    ],
                }
            ],
        )
        assert msg.content[0].text == f"saw 1: {len(rgba)}"  # type: ignore[union-attr]
        # the files lived while each request ran and are gone once it ended
        assert all(not Path(f).exists() for files in engine.seen for f in files)
    assert _leftovers() == []


@pytest.mark.parametrize(
    ("part", "expected"),
    [
        ({"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}}, "does not fetch images"),
        (
            {
                "type": "image_url",
                "image_url": {"url": _url(b"<svg xmlns='http://www.w3.org/2000/svg'/>", "image/svg+xml")},
            },
            "SVG drawings are not supported",
        ),
        (
            {"type": "image_url", "image_url": {"url": _url(image_bytes((64, 64))[:150])}},
            "damaged or cut short",
        ),
        ({"type": "image_url", "image_url": {"url": "data:image/png;base64,@@@"}}, "base64 is malformed"),
        (
            {"type": "input_audio", "input_audio": {"data": "", "format": "wav"}},
            "only text, image_url and file parts",
        ),
    ],
    ids=["http-url", "svg", "corrupt", "bad-base64", "audio"],
)
def test_bad_image_parts_get_one_line(part: dict[str, Any], expected: str) -> None:
    engine = SeeingEngine()
    with (
        Served(ServedModel(engine, "seeing", None)) as s,
        pytest.raises(openai.BadRequestError) as info,
    ):
        s.openai().chat.completions.create(
            model="seeing",
            messages=[{"role": "user", "content": [{"type": "text", "text": "hi"}, part]}],  # type: ignore[list-item]
        )
    body: Any = info.value.body
    assert expected in body["message"] and "\n" not in body["message"]
    assert body["message"].startswith("messages[0].content[1]")
    assert engine.seen == [] and s.log == [] and _leftovers() == []


def test_bounds_on_size_and_count() -> None:
    engine = SeeingEngine()
    small = _url(image_bytes((8, 8)))
    with Served(ServedModel(engine, "seeing", None), limits=Limits(max_images=3)) as s:
        client = s.openai()
        over = [{"type": "image_url", "image_url": {"url": small}}] * 4
        with pytest.raises(openai.BadRequestError) as count:
            client.chat.completions.create(model="seeing", messages=[{"role": "user", "content": over}])  # type: ignore[misc,list-item]
        with pytest.raises(openai.BadRequestError) as role:
            client.chat.completions.create(
                model="seeing",
                messages=[
                    {"role": "assistant", "content": [{"type": "image_url", "image_url": {"url": small}}]}
                ],  # type: ignore[list-item,misc]
            )
    assert count.value.body["code"] == "too_many_images"  # type: ignore[index]
    assert "more than 3 images in one request" in count.value.body["message"]  # type: ignore[index]
    assert "only taken in user messages" in role.value.body["message"]  # type: ignore[index]
    huge = image_bytes((16, 16)) + b"\0" * (21 * 1024 * 1024)  # a valid PNG padded past 20 MB
    with (
        Served(ServedModel(engine, "seeing", None)) as s,
        pytest.raises(openai.BadRequestError) as size,
    ):
        s.openai().chat.completions.create(
            model="seeing",
            messages=[{"role": "user", "content": [{"type": "image_url", "image_url": {"url": _url(huge)}}]}],  # type: ignore[list-item,misc]
        )
    assert "the image is 22.0 MB; the limit is 20 MB" in size.value.body["message"]  # type: ignore[index]
    # a 50 MB photo does not fit the request body at all: refused while it is read, still one line
    photo = _url(image_bytes((16, 16)) + b"\0" * (50 * 1024 * 1024))
    with (
        Served(ServedModel(engine, "seeing", None)) as s,
        pytest.raises(openai.BadRequestError) as body,
    ):
        s.openai().chat.completions.create(
            model="seeing",
            messages=[{"role": "user", "content": [{"type": "image_url", "image_url": {"url": photo}}]}],  # type: ignore[list-item,misc]
        )
    assert body.value.body["code"] == "request_too_large"  # type: ignore[index]
    assert "an image may be at most 20 MB" in body.value.body["message"]  # type: ignore[index]
    assert engine.seen == [] and _leftovers() == []


def test_a_text_only_model_refuses_images(q4_engine: LlamaCppEngine) -> None:
    with Served(served_model(q4_engine)) as s:
        with pytest.raises(openai.BadRequestError) as info:
            s.openai().chat.completions.create(
                model="smollm2",
                messages=[
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "describe"},
                            {"type": "image_url", "image_url": {"url": _url(image_bytes())}},
                        ],
                    }
                ],
            )
        # the same server still answers text
        ok = s.openai().chat.completions.create(
            model="smollm2", messages=[{"role": "user", "content": "Say hi."}], max_tokens=4
        )
    body: Any = info.value.body
    assert body["code"] == "model_cannot_see" and "cannot read images" in body["message"]
    assert ok.choices[0].message.content
    assert _leftovers() == []


@pytest.mark.mlx
@pytest.mark.usefixtures("real_models")
def test_openai_client_image_to_a_real_mlx_vision_model_with_its_drafter(tmp_path: Path) -> None:
    """The tiny Gemma 4 (a real mlx-vlm vision tower) with its assistant drafter, served: an
    ``image_url`` part reaches the vision tower, the answer carries the speculation figures and is
    token-identical to the same server's answer with speculation off (``tandem.speculation``)."""
    require_mlx("mlx_vlm")
    from app.core.engines.base import LoadRequest
    from app.core.engines.mlx.engine import MLXEngine
    from app.core.speculative import SpeculationOptions
    from app.devtools import mlx_models as fx

    target = fx.write_gemma4_target(tmp_path / "g4-target", forced=True)
    drafter = fx.write_gemma4_assistant(tmp_path / "g4-assistant", forced=True)
    picture = _url(image_bytes((320, 240), "RGBA"))
    content = [
        {"type": "text", "text": "What is in the picture?"},
        {"type": "image_url", "image_url": {"url": picture}},
    ]
    answers = {}
    text_only = None
    for side, options in (
        ("on", SpeculationOptions.build(enabled=True, method="mtp", draft_model_path=str(drafter))),
        ("off", SpeculationOptions()),
    ):
        engine = MLXEngine.load(LoadRequest(str(target), options))
        try:
            with Served(ServedModel(engine, "gemma-4-tiny", None)) as s:
                client = s.openai()
                answers[side] = client.chat.completions.create(
                    model="gemma-4-tiny",
                    messages=[{"role": "user", "content": content}],  # type: ignore[misc,list-item]
                    max_tokens=12,
                    temperature=0,
                )
                if side == "off":
                    text_only = client.chat.completions.create(
                        model="gemma-4-tiny",
                        messages=[{"role": "user", "content": "What is in the picture?"}],
                        max_tokens=12,
                        temperature=0,
                    )
        finally:
            engine.close()
    on, off = answers["on"], answers["off"]
    figures = on.model_extra["tandem"]["speculative_decoding"]  # type: ignore[index]
    assert figures["method"] == "mtp" and figures["accepted"] > 0
    assert off.model_extra["tandem"]["speculative_decoding"]["enabled"] is False  # type: ignore[index]
    assert on.choices[0].message.content == off.choices[0].message.content
    # the picture is in the prompt: its soft tokens make the prompt much longer than the text alone
    assert on.usage is not None and text_only is not None and text_only.usage is not None
    assert on.usage.prompt_tokens > text_only.usage.prompt_tokens + 10
    assert _leftovers() == []
