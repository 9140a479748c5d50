"""Real image files for the tests, made with Pillow (no network, nothing committed)."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageDraw


def image_bytes(size: tuple[int, int] = (64, 48), mode: str = "RGB", fmt: str = "PNG") -> bytes:
    """A picture with some structure (a gradient and a shape), so encoders see more than a flat
    colour; every mode Pillow writes in ``fmt`` works (RGB, RGBA, L, P)."""
    w, h = size
    img = Image.new("RGB", size)
    px = img.load()
    assert px is not None
    step_x, step_y = max(1, w // 256), max(1, h // 256)
    for y in range(0, h, step_y):
        for x in range(0, w, step_x):
            px[x, y] = (x * 255 // max(1, w - 1), y * 255 // max(1, h - 1), 128)
    ImageDraw.Draw(img).ellipse((w // 4, h // 4, 3 * w // 4, 3 * h // 4), fill=(250, 200, 0))
    if mode == "RGBA":
        img = img.convert("RGBA")
        img.putalpha(180)
    elif mode != "RGB":
        img = img.convert(mode)
    out = io.BytesIO()
    img.save(out, fmt, **({"quality": 90} if fmt == "JPEG" else {}))
    return out.getvalue()


def write_image(path: Path, size: tuple[int, int] = (64, 48), mode: str = "RGB", fmt: str = "PNG") -> Path:
    path.write_bytes(image_bytes(size, mode, fmt))
    return path
