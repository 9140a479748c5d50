"""A cancelled download looks cancelled: its row says so, its bar keeps the fraction reached but
is drawn greyed (no running colour), and Retry is offered, not Cancel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.gui.models.downloads_model import DownloadsModel
from app.gui.views.downloads_page import DownloadsPage
from tests.gui.test_downloads import _item, _render


def _blue_pixels(image: Any) -> int:
    """Pixels in the running chunk's blue (a greyed bar has none)."""
    return sum(
        1
        for x in range(0, image.width(), 2)
        for y in range(0, image.height(), 2)
        if image.pixelColor(x, y).blueF() - image.pixelColor(x, y).redF() > 0.3
    )


def test_a_cancelled_row_is_greyed_says_cancelled_and_offers_retry(qtbot: Any, tmp_path: Path) -> None:
    model = DownloadsModel()
    model.upsert(_item("run", "Q4_0", "active", 500, 1000))
    model.upsert(_item("stop", "Q8_0", "cancelled", 500, 1000))
    page = DownloadsPage(model)
    qtbot.addWidget(page)
    page.resize(900, 300)
    page.show()
    try:
        run, stop = model.row_of("run"), model.row_of("stop")
        delegate = page.table.itemDelegateForColumn(2)
        running = _render(delegate, page.table, model.index(run, 2))
        cancelled = _render(delegate, page.table, model.index(stop, 2))
        assert _blue_pixels(running) > 100  # the same fraction, drawn in the running colour
        assert _blue_pixels(cancelled) == 0  # ... and greyed once cancelled
        assert model.data(model.index(stop, 1)) == "Cancelled"
        assert model.data(model.index(stop, 2)) == "50% · 500 B / 1000 B"
        assert model.data(model.index(stop, 3)) == "" and model.data(model.index(stop, 4)) == ""
        page.table.selectRow(stop)
        assert page.retry_btn.isEnabled() and not page.cancel_btn.isEnabled()
        page.table.selectRow(run)
        assert page.cancel_btn.isEnabled() and not page.retry_btn.isEnabled()
        page.grab().save(str(tmp_path / "downloads.png"))
    finally:
        model.stop()
