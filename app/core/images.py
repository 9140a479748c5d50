"""Images attached to chat messages: checked once, stored by content, sent to engines.

An image enters Tandem through :func:`check_image` (the chat's attach button, drop and paste, the
API's ``image_url`` parts): its bytes are sniffed (PNG, JPEG, WebP, GIF, BMP; never SVG or anything
else), bounded (:data:`MAX_IMAGE_BYTES`, :data:`MAX_IMAGE_PIXELS`) and decoded completely, so a
corrupt or truncated file is refused with one line before anything is stored.

:class:`ImageStore` keeps the accepted bytes under the user data dir, named by their SHA-256
(``images/ab/abcdef….png``): the same picture attached twice is one file, a message refers to it by
name, and a file is written completely (temporary file, fsync, rename) before any message row
names it, so a kill -9 at any moment leaves either no reference or a whole file. Files no message
refers to any more are removed by :meth:`ImageStore.collect` (after a conversation is deleted, and
when the store opens, for files left by a process that died before its message was saved).

Engines get image *paths* on :class:`~app.core.engines.base.ChatMessage` (``images``). Servers that
take OpenAI content parts get them as data URLs (:func:`data_url`), downscaled to
:data:`MAX_SEND_SIDE` when larger (a photo-sized image would otherwise be tens of MB of base64;
every vision encoder here resizes far below that anyway).
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from app.core import paths
from app.core.content_store import ContentStore

#: the largest image file accepted (a phone photo is 3-12 MB)
MAX_IMAGE_MB = 20
MAX_IMAGE_BYTES = MAX_IMAGE_MB * 1024 * 1024
#: the most pixels an image may decode to (guards against decompression bombs: a small file that
#: decodes to gigabytes)
MAX_IMAGE_PIXELS = 64_000_000
#: the most images one message may carry
MAX_IMAGES_PER_MESSAGE = 8
#: what one image is reckoned to cost in the prompt when an engine cannot count it exactly (context
#: trimming, ``count_tokens``): generous on purpose, since trimming too little fails the request.
#: MLX counts images exactly; llama.cpp's Gemma 4 projector gives a large picture about 505 tokens
#: (its 1120 capped at the batch size of 512), vision encoders take 64-1120 an image
TOKENS_PER_IMAGE = 512
#: images sent to a server as data URLs are downscaled to this longest side when larger
MAX_SEND_SIDE = 2048

_FORMATS: dict[str, tuple[str, str]] = {
    # Pillow format -> (MIME type, file extension)
    "PNG": ("image/png", "png"),
    "JPEG": ("image/jpeg", "jpg"),
    "WEBP": ("image/webp", "webp"),
    "GIF": ("image/gif", "gif"),
    "BMP": ("image/bmp", "bmp"),
}
#: the formats accepted, for file dialogs and messages
ACCEPTED_SUFFIXES = ("png", "jpg", "jpeg", "webp", "gif", "bmp")

_NAME = re.compile(r"^[0-9a-f]{64}\.(png|jpg|webp|gif|bmp)$")


class ImageError(ValueError):
    """An image Tandem will not take; ``str()`` is one user-safe line saying why and what to do.

    ``kind`` names the reason and ``facts`` its numbers, so the GUI can say it in the user's
    language (``source`` is the image's name): empty, too_large (mb), svg, format (fmt),
    too_many_pixels (width, height), unreadable, damaged, read_failed, save_failed.
    """

    def __init__(self, message: str, kind: str = "", source: str = "", **facts: object) -> None:
        super().__init__(message)
        self.kind = kind
        self.source = source
        self.facts = facts


@dataclass(frozen=True)
class CheckedImage:
    """An image whose bytes were read, sniffed and decoded completely."""

    data: bytes
    sha256: str
    mime: str
    ext: str
    width: int
    height: int

    @property
    def name(self) -> str:
        """The stored file name: content hash and extension."""
        return f"{self.sha256}.{self.ext}"


def _too_large(source: str, size: float, advice: str) -> ImageError:
    """The one refusal of an image over :data:`MAX_IMAGE_BYTES` (``size`` in bytes)."""
    mb = size / 1e6
    return ImageError(
        f"{_label(source)}the image is {mb:.1f} MB; the limit is {MAX_IMAGE_MB} MB ({advice})",
        "too_large",
        source,
        mb=mb,
    )


def _label(source: str) -> str:
    return f"{source}: " if source else ""


def check_image(data: bytes, source: str = "") -> CheckedImage:
    """Check an image's bytes; raise :class:`ImageError` with one line when Tandem cannot use it.

    ``source`` names the image in messages (a file name, "image 2").
    """
    from PIL import Image, UnidentifiedImageError

    where = _label(source)
    if not data:
        raise ImageError(f"{where}the file is empty", "empty", source)
    if len(data) > MAX_IMAGE_BYTES:
        raise _too_large(source, len(data), "save it smaller or as JPEG and attach it again")
    head = data[:512].lstrip().lower()
    if head.startswith((b"<svg", b"<?xml", b"<!doctype svg")) or b"<svg" in head:
        raise ImageError(
            f"{where}SVG drawings are not supported; export it as PNG or JPEG and attach that", "svg", source
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as img:
                fmt = img.format or ""
                width, height = img.size
                if fmt not in _FORMATS:
                    raise ImageError(
                        f"{where}{fmt or 'this'} images are not supported; use PNG, JPEG, WebP, GIF or BMP",
                        "format",
                        source,
                        fmt=fmt,
                    )
                if width * height > MAX_IMAGE_PIXELS:
                    raise ImageError(
                        f"{where}the image is {width}×{height} pixels; the limit is "
                        f"{MAX_IMAGE_PIXELS // 1_000_000} megapixels (scale it down and attach it again)",
                        "too_many_pixels",
                        source,
                        width=width,
                        height=height,
                    )
                img.load()  # decodes every byte: a truncated or corrupt file fails here
    except ImageError:
        raise
    except UnidentifiedImageError:
        if _known_signature(data):  # starts like a PNG/JPEG/... but Pillow cannot parse it
            raise ImageError(
                f"{where}the image is damaged or cut short (its header is unreadable)", "damaged", source
            ) from None
        raise ImageError(
            f"{where}this is not an image Tandem can read (PNG, JPEG, WebP, GIF or BMP)", "unreadable", source
        ) from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageError(
            f"{where}the image decodes to more than {MAX_IMAGE_PIXELS // 1_000_000} megapixels; "
            "scale it down and attach it again",
            "too_many_pixels",
            source,
        ) from None
    except (OSError, ValueError, SyntaxError) as exc:
        raise ImageError(
            f"{where}the image is damaged or cut short ({_short(exc)})", "damaged", source
        ) from None
    mime, ext = _FORMATS[fmt]
    return CheckedImage(data, hashlib.sha256(data).hexdigest(), mime, ext, width, height)


_SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"BM")


def _known_signature(data: bytes) -> bool:
    """The bytes start like one of the accepted formats."""
    return data.startswith(_SIGNATURES) or (data[:4] == b"RIFF" and data[8:12] == b"WEBP")


def _short(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:120] or type(exc).__name__


def check_image_file(path: str | os.PathLike[str]) -> CheckedImage:
    """:func:`check_image` on a file, reading at most one byte more than the limit."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            data = f.read(MAX_IMAGE_BYTES + 1)
            if len(data) > MAX_IMAGE_BYTES:
                raise _too_large(p.name, p.stat().st_size, "save it smaller or as JPEG and attach it again")
    except OSError as exc:
        raise ImageError(
            f"{p.name}: cannot read the file ({exc.strerror or exc})", "read_failed", p.name
        ) from None
    return check_image(data, p.name)


def check_count(n: int) -> None:
    """Refuse more images than one message may carry."""
    if n > MAX_IMAGES_PER_MESSAGE:
        raise ImageError(f"{n} images in one message; the limit is {MAX_IMAGES_PER_MESSAGE}")


def decode_data_url(url: str, source: str = "") -> CheckedImage:
    """The image of a ``data:image/...;base64,...`` URL (OpenAI ``image_url`` parts); other URLs
    are refused: Tandem never fetches from the network on a request's behalf."""
    where = _label(source)
    if not url.startswith("data:"):
        raise ImageError(
            f"{where}only data URLs (data:image/png;base64,...) are accepted; Tandem does not fetch "
            "images from the network"
        )
    header, sep, payload = url.partition(",")
    if not sep or ";base64" not in header:
        raise ImageError(f"{where}the data URL is not base64 (expected data:image/...;base64,...)")
    if len(payload) > (MAX_IMAGE_BYTES * 4) // 3 + 8:  # refused before decoding
        raise _too_large(source, len(payload) * 3 / 4, "send it smaller or as JPEG")
    try:
        data = base64.b64decode(payload, validate=True)
    except ValueError:
        raise ImageError(f"{where}the data URL's base64 is malformed") from None
    return check_image(data, source)


def encode_base64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def prepared_bytes(path: str | os.PathLike[str], max_side: int = MAX_SEND_SIDE) -> tuple[bytes, str]:
    """The bytes and MIME type to send for a stored image: unchanged when its longest side is at
    most ``max_side``, else downscaled (PNG when it has transparency, else JPEG quality 92)."""
    from PIL import Image

    p = Path(path)
    data = p.read_bytes()
    with Image.open(io.BytesIO(data)) as img:
        fmt = img.format or "PNG"
        if max(img.size) <= max_side and fmt in _FORMATS:
            return data, _FORMATS[fmt][0]
        img.thumbnail((max_side, max_side))
        out = io.BytesIO()
        if img.mode in ("RGBA", "LA", "P"):
            img.convert("RGBA").save(out, "PNG")
            return out.getvalue(), "image/png"
        img.convert("RGB").save(out, "JPEG", quality=92)
        return out.getvalue(), "image/jpeg"


def data_url(path: str | os.PathLike[str], max_side: int = MAX_SEND_SIDE) -> str:
    """A stored image as a ``data:`` URL for an OpenAI ``image_url`` content part."""
    data, mime = prepared_bytes(path, max_side)
    return f"data:{mime};base64,{encode_base64(data)}"


def content_parts(text: str, images: Iterable[str]) -> list[dict[str, object]]:
    """OpenAI chat content parts: the images (as data URLs) first, then the text."""
    parts: list[dict[str, object]] = [
        {"type": "image_url", "image_url": {"url": data_url(p)}} for p in images
    ]
    if text:
        parts.append({"type": "text", "text": text})
    return parts


def wire_message(message: Mapping[str, object]) -> dict[str, object]:
    """One :class:`ChatMessage` as an OpenAI-compatible server takes it: ``images`` become
    content parts; a message without images is sent unchanged."""
    out = dict(message)
    images = out.pop("images", None)
    if images:
        assert isinstance(images, list)
        out["content"] = content_parts(str(out.get("content") or ""), images)
    return out


def text_only(message: Mapping[str, object]) -> dict[str, object]:
    """A message without its images (for routes that only take text, such as a template check)."""
    out = dict(message)
    out.pop("images", None)
    return out


def image_count(messages: Iterable[Mapping[str, object]]) -> int:
    """How many images these messages carry."""
    count = 0
    for m in messages:
        found = m.get("images")
        if isinstance(found, list):
            count += len(found)
    return count


def estimated_tokens(messages: Iterable[Mapping[str, object]]) -> int:
    """The prompt tokens reckoned for the images of these messages (:data:`TOKENS_PER_IMAGE` each)."""
    return TOKENS_PER_IMAGE * image_count(messages)


def _store_error(message: str, code: str) -> ImageError:
    return ImageError(message, "" if code == "bad_name" else code)


class ImageStore(ContentStore):
    """Content-addressed image files under ``<data dir>/images``; :class:`ImageError` for a name
    that is not an image's and for a file that cannot be saved."""

    def __init__(self, root: Path | str | None = None) -> None:
        super().__init__(
            Path(root) if root is not None else paths.data_dir() / "images", _NAME, "image", _store_error
        )

    def put(self, image: CheckedImage) -> str:
        """Store an image (once per content) and return its name; the file is complete on disk
        (fsynced) when this returns."""
        return self.put_bytes(image.name, image.data)
