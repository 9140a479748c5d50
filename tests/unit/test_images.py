"""app.core.images: what an attached image must be, how it is stored and how it is sent."""

from __future__ import annotations

import base64
import io
import os
import zlib
from pathlib import Path

import pytest
from PIL import Image

from app.core import images
from app.core.chat.store import ChatStore
from app.core.engines.base import Sampling
from app.core.engines.llamaserver import chat_body
from app.devtools.images import image_bytes


@pytest.mark.parametrize(
    ("mode", "fmt", "mime"),
    [
        ("RGB", "PNG", "image/png"),
        ("RGBA", "PNG", "image/png"),
        ("L", "PNG", "image/png"),
        ("RGB", "JPEG", "image/jpeg"),
        ("RGB", "WEBP", "image/webp"),
        ("P", "GIF", "image/gif"),
        ("RGB", "BMP", "image/bmp"),
    ],
)
def test_accepted_formats(mode: str, fmt: str, mime: str) -> None:
    data = image_bytes((40, 30), mode, fmt)
    img = images.check_image(data, "pic")
    assert (img.width, img.height, img.mime) == (40, 30, mime)
    assert img.name.startswith(img.sha256) and len(img.sha256) == 64


def _png_header(width: int, height: int) -> bytes:
    """A PNG that claims a size and carries almost nothing (a decompression bomb's shape)."""
    ihdr = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])

    def chunk(kind: bytes, body: bytes) -> bytes:
        return len(body).to_bytes(4, "big") + kind + body + zlib.crc32(kind + body).to_bytes(4, "big")

    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b"")
    )


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", "the file is empty"),
        (b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>', "SVG drawings are not supported"),
        (b"<svg width='10' height='10'></svg>", "SVG drawings are not supported"),
        (b"hello, not an image at all", "not an image Tandem can read"),
        (image_bytes((64, 64))[:100], "damaged or cut short"),
        (_png_header(20000, 20000), "megapixels"),
    ],
    ids=["empty", "svg-xml", "svg", "text", "truncated", "bomb"],
)
def test_refused_with_one_line(data: bytes, expected: str) -> None:
    with pytest.raises(images.ImageError) as info:
        images.check_image(data, "x.png")
    message = str(info.value)
    assert expected in message and "\n" not in message and message.startswith("x.png: ")


def test_tiff_is_refused_by_format() -> None:
    out = io.BytesIO()
    Image.new("RGB", (8, 8)).save(out, "TIFF")
    with pytest.raises(images.ImageError, match="TIFF images are not supported"):
        images.check_image(out.getvalue())


def test_fifty_megabyte_file_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    big = tmp_path / "big.png"
    with big.open("wb") as f:
        f.write(image_bytes((32, 32)))
        f.truncate(50 * 1024 * 1024)
    with pytest.raises(images.ImageError, match=r"big.png: the image is 52.4 MB; the limit is 20 MB"):
        images.check_image_file(big)


def test_data_urls() -> None:
    data = image_bytes((20, 10), "RGBA")
    url = "data:image/png;base64," + base64.b64encode(data).decode()
    assert images.decode_data_url(url).data == data
    with pytest.raises(images.ImageError, match="does not fetch images from the network"):
        images.decode_data_url("https://example.com/cat.png")
    with pytest.raises(images.ImageError, match="not base64"):
        images.decode_data_url("data:image/png,rawbytes")
    with pytest.raises(images.ImageError, match="malformed"):
        images.decode_data_url("data:image/png;base64,@@@@")


def test_store_is_content_addressed_and_atomic(tmp_path: Path) -> None:
    store = images.ImageStore(tmp_path / "images")
    a = images.check_image(image_bytes((30, 30)), "a")
    name = store.put(a)
    assert store.put(a) == name  # the same picture twice is one file
    path = store.path_of(name)
    assert path.read_bytes() == a.data and path.parent.name == name[:2]
    assert not list(path.parent.glob(".incoming-*"))
    with pytest.raises(images.ImageError):
        store.path_of("../../etc/passwd")
    # a partial file left by a killed process and an unreferenced image are collected
    (path.parent / ".incoming-abc").write_bytes(b"partial")
    b = store.put(images.check_image(image_bytes((31, 30)), "b"))
    assert store.collect({name}) == 2
    assert store.names() == {name} and b not in store.names()


def test_large_images_are_downscaled_for_sending(tmp_path: Path) -> None:
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(image_bytes((4000, 3000), "RGB", "JPEG"))
    data, mime = images.prepared_bytes(photo)
    with Image.open(io.BytesIO(data)) as img:
        assert max(img.size) == images.MAX_SEND_SIDE and mime == "image/jpeg"
    small = tmp_path / "small.png"
    small.write_bytes(image_bytes((50, 40), "RGBA"))
    assert images.prepared_bytes(small) == (small.read_bytes(), "image/png")


def test_chat_body_sends_images_as_content_parts(tmp_path: Path) -> None:
    pic = tmp_path / "p.png"
    pic.write_bytes(image_bytes((16, 16)))
    body = chat_body(
        [
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": "what is this?", "images": [str(pic), str(pic)]},
        ],
        Sampling(),
    )
    system, user = body["messages"]
    assert system == {"role": "system", "content": "be brief"}
    kinds = [p["type"] for p in user["content"]]
    assert kinds == ["image_url", "image_url", "text"] and "images" not in user
    url = user["content"][0]["image_url"]["url"]
    assert base64.b64decode(url.split(",", 1)[1]) == pic.read_bytes()


def test_chat_store_keeps_images_and_collects_them(tmp_path: Path) -> None:
    db = tmp_path / "data" / "chats.sqlite3"
    db.parent.mkdir()
    store = ChatStore(db)
    one = store.images.put(images.check_image(image_bytes((20, 20)), "one"))
    two = store.images.put(images.check_image(image_bytes((21, 20)), "two"))
    c1 = store.create_conversation("a")
    c2 = store.create_conversation("b")
    m = store.add_message(c1.id, "user", "look", images=[one, two])
    store.add_message(c2.id, "user", "again", images=[two])
    assert m.images == (one, two)
    assert store.messages(c1.id)[0].images == (one, two)
    with pytest.raises(FileNotFoundError):
        store.add_message(c1.id, "user", "x", images=["0" * 64 + ".png"])
    store.delete_conversation(c1.id)  # "two" is still used by c2
    assert store.images.names() == {two}
    store.delete_conversation(c2.id)
    assert store.images.names() == set()
    store.close()


def test_unreferenced_image_of_a_killed_process_goes_when_old(tmp_path: Path) -> None:
    db = tmp_path / "chats.sqlite3"
    store = ChatStore(db)
    kept = store.images.put(images.check_image(image_bytes((20, 20)), "kept"))
    store.add_message(store.create_conversation("c").id, "user", "", images=[kept])
    orphan = store.images.put(images.check_image(image_bytes((22, 20)), "orphan"))
    store.close()
    reopened = ChatStore(db)  # young orphan: maybe another window's, kept
    assert reopened.images.names() == {kept, orphan}
    reopened.close()
    old = reopened.images.path_of(orphan)
    os.utime(old, (1, 1))
    ChatStore(db).close()
    assert reopened.images.names() == {kept}
