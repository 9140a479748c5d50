from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from app.core.cache import CacheManager, DownloadCancelled, ProgressEvent
from app.core.cache.queue import DownloadItem, ItemState
from app.core.registry import Registry
from app.gui.cache_bridge import CacheBridge
from app.gui.controllers.downloads import DownloadRequest, DownloadService
from app.gui.models.downloads_model import DownloadsModel, ProgressRole
from app.gui.views.downloads_page import DownloadsPage, ProgressDelegate


class FakeTransfer:
    """Stands in for the hub transfer: reports progress, then waits to be finished or cancelled."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.finish = threading.Event()
        self.calls = 0

    def __call__(self, manager: CacheManager, progress: Any = None, cancel: Any = None) -> Path:
        self.calls += 1
        for done in (100, 400, 700):
            progress(ProgressEvent("downloading", done, 1000, 2048.0, 3.0, "model.gguf"))
        while not self.finish.wait(0.02):
            if cancel is not None and cancel.cancelled:
                raise DownloadCancelled("cancelled")
        out = self.tmp / f"model-{self.calls}.gguf"
        out.write_bytes(b"x" * 1000)
        return out


@pytest.fixture
def transfer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeTransfer:
    fake = FakeTransfer(tmp_path)
    monkeypatch.setattr(
        CacheManager, "download", lambda self, progress=None, cancel=None: fake(self, progress, cancel)
    )
    return fake


def _item(
    item_id: str, quant: str, state: ItemState = "queued", done: int = 0, total: int = 0, **kw: Any
) -> Any:
    """A core queue item: the one download item type, which the GUI model wraps."""
    return DownloadItem(
        item_id, "tiny", "gguf", "1", quant, state=state, bytes_done=done, bytes_total=total, **kw
    )


def test_downloads_model_passes_modeltester(qtmodeltester: Any) -> None:
    model = DownloadsModel()
    model.upsert(_item("a", "Q4_K_M", "active", 10, 100, rate=5.0, eta=3.0))
    model.upsert(_item("b", "Q8_0"))
    qtmodeltester.check(model)
    assert model.data(model.index(0, 2), ProgressRole) == pytest.approx(0.1)
    model.stop()


def test_progress_cancel_retry_and_restart(qtbot: Any, transfer: FakeTransfer, tmp_path: Path) -> None:
    registry = Registry.load()
    fam, spec, quant = registry.match("gemma-4", "gguf", "2", "Q4_K_M")
    model = DownloadsModel()
    store = tmp_path / "downloads.json"
    service = DownloadService(registry, CacheBridge(), model, store=store)
    page = DownloadsPage(model)
    page.cancelRequested.connect(service.cancel)
    page.retryRequested.connect(service.retry)
    qtbot.addWidget(page)
    page.show()
    try:
        # progress arrives throttled: one dataChanged carries the latest byte counts
        with qtbot.waitSignal(
            model.dataChanged, timeout=5000, check_params_cb=lambda *_: _bytes(model) == 700
        ):
            item_id = service.enqueue(DownloadRequest(fam, spec, "target", quant))
        row = model.row_of(item_id)
        assert model.item(row).state == "active"
        # the row names the size as the browser does (the spec's label), not the raw number
        assert spec.size_label == "E2B"
        assert model.data(model.index(row, 0)) == "gemma-4 GGUF E2B Q4_K_M"
        assert service.queue.get(item_id).label == "gemma-4 GGUF E2B Q4_K_M"
        assert "KB" in model.data(model.index(row, 3)) and model.data(model.index(row, 4)) == "3s"
        page.table.selectRow(row)
        assert page.cancel_btn.isEnabled() and not page.retry_btn.isEnabled()
        with qtbot.waitSignal(service.completed, timeout=5000) as blocker:
            page.cancel_btn.click()
        assert blocker.args == [item_id, False]
        assert model.item(model.row_of(item_id)).state == "cancelled"
        assert page.retry_btn.isEnabled()
        transfer.finish.set()
        with qtbot.waitSignal(service.completed, timeout=5000) as blocker:
            page.retry_btn.click()
        assert blocker.args == [item_id, True]
        assert model.item(model.row_of(item_id)).state == "finished"
        assert page.folder_btn.isEnabled() and service.folder(item_id) == str(tmp_path)
        page.grab()  # the progress delegate paints every state
    finally:
        service.shutdown()
        model.stop()
    # the queue persisted itself: a new service shows the same item after a "restart"
    model2 = DownloadsModel()
    service2 = DownloadService(registry, CacheBridge(), model2, store=store)
    try:
        assert [model2.item(r).id for r in range(model2.rowCount())] == [item_id]
        assert model2.item(0).state == "finished"
    finally:
        service2.shutdown()
        model2.stop()


def _bytes(model: DownloadsModel) -> int:
    return model.item(0).bytes_done if model.rowCount() else -1


def test_invalid_download_request_reports_instead_of_crashing(make_window: Any, qtbot: Any) -> None:
    w = make_window()
    fam, spec, _quant = w.registry.match("gemma-4", "gguf", "2", "Q4_K_M")
    with qtbot.waitSignal(w.errors.raised, timeout=5000) as blocker:
        w._on_download_requested(fam, spec, "target", "NOPE", None)
    assert "NOPE" in blocker.args[0].message


def _render(delegate: QStyledItemDelegate, view: Any, index: Any) -> QImage:
    option = QStyleOptionViewItem()
    option.initFrom(view)
    option.rect = QRect(0, 0, 220, 30)
    option.index = index
    option.state |= QStyle.StateFlag.State_Enabled
    image = QImage(220, 30, QImage.Format.Format_ARGB32)
    image.fill(0xFFFFFFFF)
    painter = QPainter(image)
    delegate.paint(painter, option, index)
    painter.end()
    return image


def test_failed_rows_show_the_progress_reached_and_the_error(qtbot: Any) -> None:
    """No busy bar for a failed row; the error is on the row itself."""
    model = DownloadsModel()
    error = "tandem-test/tiny-GGUF: HubError: 404 Not Found; check the repo id\nsecond line"
    model.upsert(_item("none", "Q4_0", "failed", 0, 0, error=error))
    model.upsert(_item("half", "Q8_0", "failed", 400, 1000, error="disk full"))
    model.upsert(_item("busy", "F16", "active", 0, 0))
    model.upsert(_item("wait", "Q2_K", "queued"))
    page = DownloadsPage(model)
    qtbot.addWidget(page)
    page.show()
    try:
        delegate = page.table.itemDelegateForColumn(2)
        assert isinstance(delegate, ProgressDelegate)
        cell = {i: model.index(model.row_of(i), 2) for i in ("none", "half", "busy", "wait")}

        # failed before any byte: the cell draws exactly what a plain text cell draws (no bar)
        plain = QStyledItemDelegate()
        assert model.data(cell["none"]) == ""
        assert _render(delegate, page.table, cell["none"]) == _render(plain, page.table, cell["none"])
        assert _render(delegate, page.table, cell["wait"]) == _render(plain, page.table, cell["wait"])
        # the busy bar is kept for a running download that has no byte count yet
        assert _render(delegate, page.table, cell["busy"]) != _render(plain, page.table, cell["busy"])

        option = QStyleOptionViewItem()
        option.rect = QRect(0, 0, 220, 30)
        assert delegate.bar_for(option, cell["none"]) is None
        assert delegate.bar_for(option, cell["wait"]) is None
        busy = delegate.bar_for(option, cell["busy"])
        assert busy is not None and busy.maximum == 0
        half = delegate.bar_for(option, cell["half"])
        assert half is not None and (half.maximum, half.progress) == (1000, 400)
        assert not half.state & QStyle.StateFlag.State_Enabled  # greyed: it is not running
        # a running bar fills from the left in proportion (not from the bottom up, a thin line at
        # 20%): at 40% the left third of the middle row is the chunk's colour,
        # the right third is not
        model.upsert(_item("run", "Q5_0", "active", 400, 1000))
        image = _render(delegate, page.table, model.index(model.row_of("run"), 2))

        def filled(x: int, y: int) -> bool:  # the chunk's blue, not the grey-white groove
            c = image.pixelColor(x, y)
            return c.blueF() - c.redF() > 0.3

        assert filled(20, 15) and filled(60, 15)
        assert not filled(150, 15) and not filled(200, 15)
        assert filled(20, 9)  # the chunk is as tall as the bar, not a line at its bottom
        assert model.data(cell["half"]) == "40% · 400 B / 1000 B"

        # the error's first line is on the row, under the name; the tooltip has all of it
        name = model.data(model.index(model.row_of("none"), 0))
        assert name == "tiny GGUF 1 Q4_0\ntandem-test/tiny-GGUF: HubError: 404 Not Found; check the repo id"
        assert model.data(model.index(0, 0), Qt.ItemDataRole.ToolTipRole) == error
        assert model.data(model.index(model.row_of("half"), 0)).endswith("\ndisk full")
        assert model.data(model.index(model.row_of("busy"), 0)) == "tiny GGUF 1 F16"
        row_h = page.table.rowHeight(model.row_of("none"))
        assert row_h > page.table.rowHeight(model.row_of("busy"))  # two lines fit
    finally:
        model.stop()


def test_one_item_type_named_once_however_the_size_was_asked(
    qtbot: Any, transfer: FakeTransfer, tmp_path: Path
) -> None:
    """The model's rows are the queue's own items (no second item type, no converter),
    and an item queued by number (as the CLI does) carries the spec's size label in the core."""
    import json

    registry = Registry.load()
    store = tmp_path / "downloads.json"
    # a queue file written before sizes were normalized: the item was queued as "2"
    old = DownloadItem("old1", "gemma-4", "gguf", "2", "Q8_0", state="failed", error="x")
    from dataclasses import asdict

    store.write_text(json.dumps({"version": 1, "items": [asdict(old)]}), "utf-8")
    model = DownloadsModel()
    service = DownloadService(registry, CacheBridge(), model, store=store)
    try:
        added = service.queue.add("gemma-4", "gguf", "2", "Q4_K_M")  # by number, like the CLI
        assert added.size == "E2B" and added.label == "gemma-4 GGUF E2B Q4_K_M"
        qtbot.waitUntil(lambda: model.row_of(added.id) >= 0, timeout=5000)
        row = model.item(model.row_of(added.id))
        assert isinstance(row, DownloadItem) and row.id == added.id
        assert model.data(model.index(model.row_of(added.id), 0)) == added.label
        reloaded = model.item(model.row_of("old1"))
        assert reloaded.label == "gemma-4 GGUF E2B Q8_0"
        assert model.data(model.index(model.row_of("old1"), 0)).startswith("gemma-4 GGUF E2B Q8_0")
        transfer.finish.set()
        qtbot.waitUntil(lambda: service.state(added.id) == "finished", timeout=5000)
    finally:
        service.shutdown()
        model.stop()
