"""Real image files for the tests, made with Pillow (no network, nothing committed)."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageDraw


def image_bytes(size: tuple[int, int] = (64, 48), mode: str = "RGB", fmt: str = "PNG") -> bytes:
    """A picture with some structure (a gradient and a shape), so encoders see more than a flat
    colour; every mode Pillow writes in ``fmt`` works (RGB, RGBA, L, P)."""
    w, h = size
    base = Image.new("RGB", (256, 256))
    px = base.load()
    assert px is not None
    for y in range(256):
        for x in range(256):
            px[x, y] = (x, y, 128)
    img = base.resize(size) if size != (256, 256) else base
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
