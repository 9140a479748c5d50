"""A cancelled download leaves no I/O thread behind.

The transfer runs on a ``tandem-download-io-*`` thread, which can sit in the library's read when
the cancel comes: the cancel joins it before it returns, so the thread never outlives the cancel
(the thread-leak check in tests/conftest.py counts daemon threads too).
"""

from __future__ import annotations

import threading
import time

import pytest

from app.core.cache import CacheManager, CancelToken, DownloadCancelled, ProgressEvent
from app.core.cache.queue import DownloadQueue
from app.core.registry import Registry
from app.devtools.hubs.huggingface import OlahHub
from app.devtools.hubs.modelscope import ModelScopeHub
from app.devtools.hubs.proxies import FlakyProxy
from app.devtools.hubs.repos import tiny_family
from tests.integration.hub_servers import modelscope_hub, olah_hub
from tests.integration.test_download_hf import _big_family

__all__ = ["modelscope_hub", "olah_hub"]  # fixtures

SLOW = 128_000  # bytes/s: one 256 KB Hugging Face chunk takes two seconds


def _io_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("tandem-download-io")]


def _cancel_midway(mgr: CacheManager) -> float:
    token = CancelToken()
    cancelled_at: list[float] = []

    def progress(ev: ProgressEvent) -> None:
        if ev.phase == "downloading" and ev.bytes_done > 0 and not token.cancelled:
            token.cancel()
            cancelled_at.append(time.monotonic())

    with pytest.raises(DownloadCancelled):
        mgr.download(progress=progress, cancel=token)
    assert cancelled_at, "the download never reported progress"
    return time.monotonic() - cancelled_at[0]


def test_cancel_joins_the_hf_io_thread(olah_hub: OlahHub) -> None:
    proxy = FlakyProxy(olah_hub.port, rate=SLOW)
    proxy.start()
    try:
        fam = _big_family()
        mgr = CacheManager(fam, fam.specs[0], "target", "Q4_0", "huggingface", endpoint=proxy.endpoint)
        took = _cancel_midway(mgr)
        assert _io_threads() == []  # gone when the cancel is reported, not some time later
        assert took < 5  # the next chunk boundary, not a timeout
        assert mgr.status().state in ("absent", "partial")
    finally:
        proxy.stop()


def test_cancel_joins_the_modelscope_io_thread(modelscope_hub: ModelScopeHub) -> None:
    proxy = FlakyProxy(modelscope_hub.server.server_address[1], rate=SLOW // 2)
    proxy.start()
    try:
        fam = tiny_family()
        mgr = CacheManager(fam, fam.specs[0], "target", "Q8_0", "modelscope", endpoint=proxy.endpoint)
        _cancel_midway(mgr)
        assert _io_threads() == []
    finally:
        proxy.stop()


def test_queue_cancel_leaves_no_io_thread(olah_hub: OlahHub) -> None:
    """The GUI path: DownloadQueue.cancel on an active item; once it reads cancelled, no I/O."""
    reg = Registry.load()
    reg.register(_big_family().model_dump(mode="json", exclude_none=True))
    proxy = FlakyProxy(olah_hub.port, rate=SLOW)
    proxy.start()
    q = DownloadQueue(Registry.load(), endpoints={"huggingface": proxy.endpoint})
    moving = threading.Event()
    q.subscribe(lambda item: moving.set() if item.bytes_done > 0 else None)
    try:
        q.start()
        item = q.add("big", "gguf", "1", "Q4_0")
        assert moving.wait(30), "the download never moved"
        q.cancel(item.id)
        assert q.wait_idle(30)
        assert q.get(item.id).state == "cancelled"
        assert _io_threads() == []
    finally:
        q.shutdown()
        proxy.stop()
