"""Hugging Face downloads resume from their partial bytes (Range requests into the hub cache).

The hub is olah on loopback behind :class:`RangeHub`, a Hugging Face-compatible front that
answers ``Range`` with 206 and logs the byte range of every file body it served, so "the retry
fetched only the rest" is read from the server's log, not from the client's progress numbers.
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

import pytest

from app.core.cache import CacheManager, CancelToken, DownloadCancelled, ProgressEvent, hf_cache_root
from app.devtools.hubs.huggingface import OlahHub, RangeHub
from app.devtools.hubs.repos import big_repo_files
from tests.integration.hub_servers import olah_hub
from tests.integration.test_download_hf import _big_family

__all__ = ["olah_hub"]  # fixture

SIZE = 6_000_000  # big-Q4_0.gguf
REPO_DIR = "models--tandem-test--big-GGUF"
FILE = "big-Q4_0.gguf"


def _sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def _manager(endpoint: str) -> CacheManager:
    fam = _big_family()
    return CacheManager(fam, fam.specs[0], "target", "Q4_0", "huggingface", endpoint=endpoint)


def _cancel_at_half(olah: OlahHub) -> list[tuple[str, int, int]]:
    """Start a throttled download, cancel it at half; return the ranges the hub served."""
    with RangeHub(olah.endpoint, rate=2_000_000) as hub:
        token = CancelToken()

        def progress(ev: ProgressEvent) -> None:
            if ev.phase == "downloading" and ev.bytes_done >= SIZE // 2:
                token.cancel()

        with pytest.raises(DownloadCancelled):
            _manager(hub.endpoint).download(progress=progress, cancel=token)
    return hub.served


def _partial() -> Path:
    parts = list((hf_cache_root() / REPO_DIR / "blobs").glob("*.incomplete"))
    assert len(parts) == 1, parts
    return parts[0]


def test_retry_after_cancel_fetches_only_the_rest(olah_hub: OlahHub) -> None:
    first = _cancel_at_half(olah_hub)
    kept = _partial().stat().st_size
    assert SIZE * 0.4 < kept < SIZE * 0.8
    # the offline status counts the partial bytes
    status = _manager(olah_hub.endpoint).status()
    assert status.state == "partial"

    with RangeHub(olah_hub.endpoint) as hub:
        path = _manager(hub.endpoint).download()
    retry = [r for r in hub.served if r[0].endswith(FILE)]
    assert retry == [(retry[0][0], kept, SIZE)]  # one request, from the first missing byte
    assert _sha(path) == hashlib.sha256(big_repo_files()[FILE]).hexdigest()
    assert not list((hf_cache_root() / REPO_DIR / "blobs").glob("*.incomplete"))
    before = sum(e - s for p, s, e in first if p.endswith(FILE))
    print(f"\ncancelled at {kept} of {SIZE} bytes; served {before} before the cancel, {SIZE - kept} on retry")


def test_a_damaged_partial_is_discarded_and_fetched_again(
    olah_hub: OlahHub, caplog: pytest.LogCaptureFixture
) -> None:
    _cancel_at_half(olah_hub)
    part = _partial()
    kept = part.stat().st_size
    with part.open("r+b") as fh:  # the bytes on disk no longer match the hub's file
        fh.seek(kept // 2)
        fh.write(b"\xff" * 4096)
    with caplog.at_level(logging.WARNING), RangeHub(olah_hub.endpoint) as hub:
        path = _manager(hub.endpoint).download()
    ranges = [(s, e) for p, s, e in hub.served if p.endswith(FILE)]
    assert ranges == [(kept, SIZE), (0, SIZE)]  # the rest, then (checksum wrong) the whole file
    assert "checksum mismatch" in caplog.text and "discarded" in caplog.text
    assert _sha(path) == hashlib.sha256(big_repo_files()[FILE]).hexdigest()
