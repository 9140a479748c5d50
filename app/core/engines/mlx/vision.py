"""Images through the MLX engine: the target's processor, the prompt with its image
placeholders, the pixel values, and the prompt's embeddings for Tandem's own decode loop.

mlx-vlm does the model-specific parts: :func:`mlx_vlm.prompt_utils.apply_chat_template` lays out
each message's content parts the way the model's chat template expects (an image part per image,
on the message it belongs to, before the text), and :func:`mlx_vlm.utils.prepare_inputs` runs the
processor, which expands every image placeholder to the image's soft tokens and computes the
pixel values. Images of several messages (a conversation's history) keep their own places.

Image files are read here once, through :func:`app.core.images.check_image_file` (the same checks
an attached image passed, so a file replaced after it was attached is refused with one line), and
handed to the processor as decoded pictures: what was checked is what the model sees.

Everything here that touches MLX runs on the engine's thread.
"""

from __future__ import annotations

import io
import logging
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.core.engines.base import ChatMessage, GenerationError, InvalidRequestError
from app.core.images import ImageError, check_count, check_image_file

log = logging.getLogger(__name__)

#: processor outputs that are not keyword arguments of the model (they are passed by position)
_POSITIONAL = ("input_ids", "pixel_values", "attention_mask")


@dataclass
class VisionPrompt:
    """A prompt with images, ready for the target: ids (image soft tokens included), pixel values,
    the attention mask and the processor's other outputs (e.g. ``mm_token_type_ids``)."""

    ids: list[int]
    input_ids: Any
    pixel_values: Any
    mask: Any
    extra: dict[str, Any] = field(default_factory=dict)
    images: int = 0


def load_image_processor(model_path: Path, model: Any) -> tuple[Any, str | None]:
    """(the target's processor, None) when it reads images, else (None, why not in one line).

    A target reads images when mlx-vlm built it with a vision tower and its folder carries what
    the processor loader needs (``processor_config.json`` / ``preprocessor_config.json`` and a
    tokenizer declaring the image placeholder). MLX thread only (it imports mlx-vlm).
    """
    if getattr(model, "vision_tower", None) is None or not hasattr(model, "get_input_embeddings"):
        return None, None
    from mlx_vlm.utils import load_processor

    try:
        with warnings.catch_warnings():
            # Processors build audio front ends too (Gemma 4's mel filters warn about empty bins).
            warnings.simplefilter("ignore")
            processor = load_processor(model_path, add_detokenizer=False)
    except Exception as exc:  # a folder without processor files: the model still runs on text
        log.info("no image processor for %s: %s", model_path, exc, exc_info=True)
        return None, f"Images are off: mlx-vlm could not load this model's image processor ({_short(exc)})."
    if getattr(processor, "image_processor", None) is None:
        return None, "Images are off: this model's processor has no image processor."
    token = getattr(processor, "image_token", None)
    if isinstance(token, str) and not token:
        return None, "Images are off: this model's tokenizer declares no image placeholder token."
    return processor, None


def _short(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:160] or type(exc).__name__


def _parts(message: ChatMessage) -> dict[str, Any]:
    """A message in mlx-vlm's content-part form: one image part per image, then the text."""
    out: dict[str, Any] = {k: v for k, v in message.items() if k != "images"}
    images = message.get("images") or []
    if images:
        parts: list[dict[str, Any]] = [{"type": "image"} for _ in images]
        text = str(message.get("content") or "")
        if text:
            parts.append({"type": "text", "text": text})
        out["content"] = parts
    return out


def image_paths(messages: Sequence[ChatMessage]) -> list[str]:
    """Every image of the conversation, in prompt order; images only on user messages (a chat
    template renders image placeholders in user turns only)."""
    paths: list[str] = []
    for m in messages:
        images = m.get("images") or []
        if not images:
            continue
        if m.get("role") != "user":
            raise InvalidRequestError(
                f"Images can be attached to user messages only; this conversation has images on a "
                f"{m.get('role')!r} message."
            )
        try:
            check_count(len(images))
        except ImageError as exc:
            raise InvalidRequestError(str(exc)) from None
        paths.extend(str(p) for p in images)
    return paths


def read_image(path: str) -> Any:
    """The picture at ``path`` as an RGB Pillow image, checked as when it was attached (one-line
    :class:`GenerationError` when it cannot be used: missing, replaced by something else, damaged)."""
    from PIL import Image, ImageOps

    try:
        checked = check_image_file(path)
    except ImageError as exc:
        raise GenerationError(
            f"An attached image cannot be read: {exc}.",
            hint="Attach the picture again: its file changed or went away after it was attached.",
        ) from None
    with Image.open(io.BytesIO(checked.data)) as img:
        img.load()
        upright = ImageOps.exif_transpose(img)
        return upright.convert("RGB")


def build_prompt(
    processor: Any,
    config: dict[str, Any],
    messages: Sequence[ChatMessage],
    tools: list[dict[str, Any]] | None = None,
    chat_template: str | None = None,
) -> VisionPrompt:
    """The prompt of a conversation with images, through mlx-vlm's chat layout and the processor."""
    from mlx_vlm.prompt_utils import apply_chat_template
    from mlx_vlm.utils import prepare_inputs, should_add_special_tokens

    paths = image_paths(messages)
    pictures = [read_image(p) for p in paths]
    kwargs: dict[str, Any] = {}
    if tools:
        kwargs["tools"] = tools
    if chat_template:
        kwargs["chat_template"] = chat_template
    try:
        prompt = apply_chat_template(
            processor,
            config,
            [_parts(m) for m in messages],
            add_generation_prompt=True,
            num_images=len(pictures),
            **kwargs,
        )
    except Exception as exc:
        raise GenerationError(f"The chat template failed on these messages: {_short(exc)}") from exc
    if not isinstance(prompt, str):
        raise GenerationError("mlx-vlm's chat layout did not give a text prompt for this model.")
    token = getattr(processor, "image_token", None)
    if isinstance(token, str) and token and prompt.count(token) != len(pictures):
        # e.g. a model mlx-vlm lays out as text only: the pictures would be silently left out
        raise GenerationError(
            f"mlx-vlm placed {prompt.count(token)} of {len(pictures)} images in this model's prompt."
        )
    model_type = str(config.get("model_type") or "")
    try:
        inputs = prepare_inputs(  # type: ignore[no-untyped-call]  # mlx-vlm is untyped
            processor,
            images=pictures,
            prompts=prompt,
            add_special_tokens=should_add_special_tokens(model_type, processor),
        )
    except Exception as exc:
        raise GenerationError(f"The model's processor failed on the attached images: {_short(exc)}") from exc
    input_ids = inputs["input_ids"]
    ids = [int(i) for i in input_ids[0].tolist()]
    extra = {k: v for k, v in inputs.items() if k not in _POSITIONAL and v is not None}
    return VisionPrompt(
        ids=ids,
        input_ids=input_ids,
        pixel_values=inputs.get("pixel_values"),
        mask=inputs.get("attention_mask"),
        extra=extra,
        images=len(pictures),
    )


def prefill_with_images(model: Any, vision: VisionPrompt, cache: Any, chunk: int) -> None:
    """Feed every prompt position but the last into ``cache`` with the images' embeddings (the
    vision tower runs here), as mlx-vlm's own prefill does: the model's embedding step, then the
    language model on the embeddings with the step's other outputs (per-layer inputs, token types).

    Passes of ``chunk`` positions where the model allows it (mlx-vlm's own prefill policy); one
    pass where it does not: a model that lets an image's tokens attend to each other (Gemma 4's
    bidirectional vision attention) must see each image whole, in a pass of its own with no cached
    prefix. The last position (a text token of the generation prompt) is the caller's first
    verified step."""
    import mlx.core as mx

    length = len(vision.ids)
    n = length - 1
    emb = model.get_input_embeddings(vision.input_ids, vision.pixel_values, mask=vision.mask, **vision.extra)
    kwargs: dict[str, Any] = dict(vision.extra)
    kwargs.update({k: v for k, v in emb.to_dict().items() if k != "inputs_embeds" and v is not None})
    if n <= 0:
        return
    step = chunk if _may_chunk(model, vision, emb.inputs_embeds, cache, kwargs) else n

    def part(value: Any, start: int, end: int) -> Any:
        shape = getattr(value, "shape", None)
        if shape is not None and len(shape) >= 2 and shape[1] == length:
            return value[:, start:end]
        return value

    for start in range(0, n, step):
        end = min(start + step, n)
        model.language_model(
            vision.input_ids[:, start:end],
            inputs_embeds=emb.inputs_embeds[:, start:end],
            cache=cache,
            logits_to_keep=1,
            **{k: part(v, start, end) for k, v in kwargs.items()},
        )
        mx.eval([c.state for c in cache])


def _may_chunk(model: Any, vision: VisionPrompt, embeds: Any, cache: Any, kwargs: dict[str, Any]) -> bool:
    """mlx-vlm's own answer to "may this prompt be prefilled in chunks?" (False when unknown: one
    pass is always exact)."""
    try:
        from mlx_vlm.generate.common import _chunked_prefill_enabled
    except ImportError:
        return False
    try:
        return bool(
            _chunked_prefill_enabled(
                model,
                input_ids=vision.input_ids,
                inputs_embeds=embeds,
                prompt_cache=cache,
                prefill_kwargs=kwargs,
            )
        )
    except Exception:  # a policy that cannot judge this prompt: one pass
        log.debug("mlx-vlm's prefill policy failed; prefilling in one pass", exc_info=True)
        return False
