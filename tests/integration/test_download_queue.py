"""The persistent download queue and the CLI, against the olah hub."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from app.cli import cache as cli_cache
from app.core import paths
from app.core.cache import CacheManager, NotCachedError
from app.core.cache.queue import DownloadItem, DownloadQueue
from app.core.registry import Registry
from app.devtools.hubs.huggingface import OlahHub
from app.devtools.hubs.proxies import FlakyProxy
from app.devtools.hubs.repos import tiny_family, tiny_repo_files
from tests.integration.hub_servers import hf_endpoint, olah_hub
from tests.integration.test_download_hf import _big_family

__all__ = ["hf_endpoint", "olah_hub"]


def _registry() -> Registry:
    reg = Registry.load()
    for fam in (tiny_family(), _big_family()):
        reg.register(fam.model_dump(mode="json", exclude_none=True))
    return Registry.load()


def test_queue_runs_persists_and_notifies(hf_endpoint: str) -> None:
    reg = _registry()
    seen: list[DownloadItem] = []
    threads: set[str] = set()

    def observer(item: DownloadItem) -> None:
        seen.append(item)
        threads.add(threading.current_thread().name)

    q = DownloadQueue(reg)
    unsubscribe = q.subscribe(observer)
    a = q.add("tiny", "gguf", "0.001", "Q4_0")
    b = q.add("tiny", "gguf", "0.001", "Q4_0", drafter=True)
    assert q.add("tiny", "gguf", "0.001", "Q4_0").id == a.id  # not queued twice
    assert b.draft_quantization == "Q8_0"
    # named as the model browser writes the size (never "handtest GGUF 0.135 F32" on the Downloads
    # page); the CLI's size stays what --size takes
    assert (a.size, a.size_text) == ("0.001", "1M")
    assert a.label == "tiny GGUF 1M Q4_0" and b.label == "tiny GGUF 1M Q4_0 · drafter Q8_0"
    q.start()
    try:
        assert q.wait_idle(30)
    finally:
        q.shutdown()
    unsubscribe()
    assert [q.get(a.id).state, q.get(b.id).state] == ["finished", "finished"]
    assert Path(q.get(b.id).path).read_bytes() == tiny_repo_files()["draft/tiny-draft-Q8_0.gguf"]
    states = [i.state for i in seen if i.id == a.id]
    assert states[0] == "queued" and "active" in states and states[-1] == "finished"
    assert any(t.startswith("tandem-download-") for t in threads)
    stored = json.loads((paths.data_dir() / "downloads.json").read_text())
    assert {i["state"] for i in stored["items"]} == {"finished"}
    # an item stored before size_text existed is named from the registry when the queue reads it
    for raw in stored["items"]:
        raw.pop("size_text")
    (paths.data_dir() / "downloads.json").write_text(json.dumps(stored))
    again = DownloadQueue(reg)
    assert again.get(a.id).label == "tiny GGUF 1M Q4_0"


def test_queue_cancel_and_restart_resumes(olah_hub: OlahHub) -> None:
    reg = _registry()
    proxy = FlakyProxy(olah_hub.port, rate=1_000_000)
    proxy.start()
    try:
        q = DownloadQueue(reg, endpoints={"huggingface": proxy.endpoint})
        started = threading.Event()
        q.subscribe(lambda it: started.set() if it.bytes_done > 200_000 else None)
        item = q.add("big", "gguf", "1", "Q4_0")
        queued_cancel = q.add("tiny", "gguf", "0.001", "Q8_0")
        q.cancel(queued_cancel.id)
        assert q.get(queued_cancel.id).state == "cancelled"
        q.start()
        assert started.wait(20)
        q.shutdown()  # the app quits mid-download
        assert q.get(item.id).state == "queued"
    finally:
        proxy.stop()
    # a new app run (new queue object) picks it up from disk and finishes it
    q2 = DownloadQueue(reg, endpoints={"huggingface": olah_hub.endpoint})
    assert q2.get(item.id).state == "queued"
    q2.start()
    try:
        assert q2.wait_idle(30)
    finally:
        q2.shutdown()
    assert q2.get(item.id).state == "finished"
    assert q2.get(queued_cancel.id).state == "cancelled"


def test_queue_reports_failures_and_retries(hf_endpoint: str, olah_hub: OlahHub) -> None:
    reg = _registry()
    q = DownloadQueue(reg, endpoints={"huggingface": "http://127.0.0.1:9"})
    item = q.add("tiny", "gguf", "0.001", "Q4_0")
    q.start()
    try:
        assert q.wait_idle(60)
        failed = q.get(item.id)
        assert failed.state == "failed" and "tandem-test/tiny-GGUF" in failed.error
    finally:
        q.shutdown()
    q2 = DownloadQueue(reg, endpoints={"huggingface": olah_hub.endpoint})
    q2.retry(item.id)
    q2.start()
    try:
        assert q2.wait_idle(30)
    finally:
        q2.shutdown()
    assert q2.get(item.id).state == "finished"


def test_cli_download_models_generate_delete(hf_endpoint: str, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    reg = _registry()
    parser = argparse.ArgumentParser()
    cli_cache.add_subcommands(parser.add_subparsers())

    args = parser.parse_args(["download", "tiny", "--format", "gguf", "--size", "0.001", "--quant", "Q4_0"])
    with pytest.raises(NotCachedError, match="tandem download tiny"):
        cli_cache.resolve_cached_model(reg, "tiny", "gguf", "0.001", "Q4_0", "huggingface", False, None)
    assert args.func(args) == 0
    target, drafter = cli_cache.resolve_cached_model(reg, "tiny", "gguf", "0.001", "Q4_0", None, False, None)
    assert drafter is None and target.name == "tiny-Q4_0.gguf"
    with pytest.raises(NotCachedError, match=r"drafter is not cached.*--drafter"):
        cli_cache.resolve_cached_model(reg, "tiny", "gguf", "0.001", "Q4_0", None, True, "Q8_0")

    args = parser.parse_args(
        [
            "download",
            "tiny",
            "--format",
            "gguf",
            "--quant",
            "Q4_0",
            "--drafter",
            "--draft-quant",
            "F16",
            "--json",
        ]
    )
    capsys.readouterr()
    assert args.func(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert Path(out["drafter"]).name == "tiny-draft-F16.gguf"

    data = cli_cache.models_json(reg, "huggingface")
    tiny = next(f for f in data if f["name"] == "tiny")["specs"][0]
    assert tiny["quantizations"]["Q4_0"] == "cached"
    assert tiny["draft_quantizations"]["F16"] == "cached"
    assert "Q4_0:cached" in cli_cache.models_table(reg, "huggingface")

    # the app's Downloads list holds a finished row of it (and one of another quantization)
    q = DownloadQueue(reg)
    row = q.add("tiny", "gguf", "0.001", "Q4_0")
    other = q.add("tiny", "gguf", "0.001", "Q8_0")
    q.start()
    try:
        assert q.wait_idle(30)
    finally:
        q.shutdown()
    assert q.get(row.id).state == q.get(other.id).state == "finished"

    args = parser.parse_args(["delete", "tiny", "--format", "gguf", "--quant", "Q4_0", "--free-disk"])
    assert args.func(args) == 0
    assert "freed 0.3 MB" in capsys.readouterr().out
    fam = reg.get("tiny")
    assert CacheManager(fam, fam.specs[0], "target", "Q4_0").status().state == "absent"
    # its finished row is forgotten (its folder is gone); the other quantization's stays
    left = {i.id for i in DownloadQueue(reg).items()}
    assert row.id not in left and other.id in left

    args = parser.parse_args(["download", "nope", "--quant", "Q4_0"])
    assert args.func(args) == 2
    assert "unknown model 'nope'" in capsys.readouterr().err


def test_cancel_racing_a_worker_is_not_lost(hf_endpoint: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """cancel() checks "queued, no token" and writes "cancelled" in one step: a worker that
    starts while cancel() runs either never sees the item or gets its token cancelled."""
    reg = _registry()
    orig_update = DownloadQueue._update
    on_worker = threading.current_thread

    def slow_update(self: DownloadQueue, item_id: str, *, persist: bool = True, **changes: object) -> object:
        if changes.get("state") == "cancelled" and not on_worker().name.startswith("tandem-download"):
            time.sleep(0.5)  # widen any window between cancel()'s check and its write
        return orig_update(self, item_id, persist=persist, **changes)

    monkeypatch.setattr(DownloadQueue, "_update", slow_update)
    q = DownloadQueue(reg)
    seen: list[str] = []
    item = q.add("tiny", "gguf", "0.001", "Q4_0")
    q.subscribe(lambda it: seen.append(it.state) if it.id == item.id else None)
    canceller = threading.Thread(target=q.cancel, args=(item.id,), name="test-cancel")
    canceller.start()
    time.sleep(0.1)
    q.start()  # a worker looks for work while cancel() is (possibly) in its window
    try:
        canceller.join(10)
        assert q.wait_idle(30)
        time.sleep(0.5)
    finally:
        q.shutdown()
    assert q.get(item.id).state == "cancelled"
    assert "finished" not in seen and "active" not in seen
    fam = reg.get("tiny")
    assert CacheManager(fam, fam.specs[0], "target", "Q4_0").status().state == "absent"


def test_cancel_right_after_the_worker_took_the_item(hf_endpoint: str) -> None:
    """The worker re-checks its token after taking an item: a cancel landing then stops it
    before any download starts."""
    reg = _registry()
    q = DownloadQueue(reg)
    item = q.add("tiny", "gguf", "0.001", "Q4_0")
    q.subscribe(lambda it: q.cancel(it.id) if it.id == item.id and it.state == "active" else None)
    q.start()
    try:
        assert q.wait_idle(30)
    finally:
        q.shutdown()
    assert q.get(item.id).state == "cancelled"
    fam = reg.get("tiny")
    assert CacheManager(fam, fam.specs[0], "target", "Q4_0").status().state == "absent"


def test_remove_while_the_worker_takes_the_item_keeps_the_queue_running(
    hf_endpoint: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A remove() landing just as the single worker takes an item must not kill the worker
    (which would stop the queue for good): the next item still downloads."""
    reg = _registry()
    q = DownloadQueue(reg)
    first = q.add("tiny", "gguf", "0.001", "Q8_0")
    orig_get = DownloadQueue.get
    removed: list[str] = []

    def remove_once(item_id: str) -> None:
        if not removed:
            removed.append(item_id)
            q.remove(item_id)  # the GUI's "remove" lands right after the worker took the item

    def get(self: DownloadQueue, item_id: str) -> DownloadItem:
        if item_id == first.id and threading.current_thread().name.startswith("tandem-download"):
            remove_once(item_id)
        return orig_get(self, item_id)

    monkeypatch.setattr(DownloadQueue, "get", get)
    q.subscribe(lambda it: remove_once(it.id) if it.id == first.id and it.state == "active" else None)
    q.start()
    try:
        assert q.wait_idle(30)
        second = q.add("tiny", "gguf", "0.001", "Q4_0")
        assert q.wait_idle(30)
        assert q.get(second.id).state == "finished"
        assert [t.name for t in q._threads if t.is_alive()] == ["tandem-download-0"]
    finally:
        q.shutdown()
    assert first.id not in {i.id for i in q.items()}


def test_unexpected_worker_error_marks_the_item_failed_and_keeps_serving(
    hf_endpoint: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    reg = _registry()
    q = DownloadQueue(reg)
    bad = q.add("tiny", "gguf", "0.001", "Q8_0")
    good = q.add("tiny", "gguf", "0.001", "Q4_0")
    orig_run = DownloadQueue._run

    def run(self: DownloadQueue, item: DownloadItem, token: object) -> None:
        if item.id == bad.id:
            raise KeyError("boom")
        orig_run(self, item, token)  # type: ignore[arg-type]

    monkeypatch.setattr(DownloadQueue, "_run", run)
    q.start()
    try:
        assert q.wait_idle(30)
    finally:
        q.shutdown()
    assert q.get(bad.id).state == "failed" and "KeyError" in q.get(bad.id).error
    assert q.get(good.id).state == "finished"
    assert "download worker failed" in caplog.text
