"""The Models page searches Hugging Face against a loopback search hub (files from olah behind
it): results with downloads, likes and last update, paging through the hub's Link header, a
result's files grouped by quantization with split parts summed, "Add to my models" writing a
user family that the family table then shows; cancel and the offline message."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.core import paths
from app.core.registry import Registry
from app.devtools.hubs.huggingface import HFSearchHub, OlahHub, _HFSearchHandler
from app.devtools.hubs.repos import TINY_REPO, search_catalogue
from tests.integration.hub_servers import olah_hub as olah_hub  # a fixture


@pytest.fixture()
def hf_search(olah_hub: OlahHub, monkeypatch: pytest.MonkeyPatch) -> Iterator[HFSearchHub]:
    with HFSearchHub(search_catalogue(), upstream=olah_hub.endpoint, page_size=2) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.endpoint)
        yield hub


def _hub_page(make_window: Any, hub: str = "huggingface") -> tuple[Any, Any, Any]:
    w = make_window(registry=Registry.load())
    w.nav.setCurrentRow(1)
    page = w.browser
    panel = page.hub_search
    panel.scope.setCurrentIndex(panel.scope.findData(hub))
    return w, page, panel


def _ids(panel: Any) -> list[str]:
    return [panel.results.item(r, 0).text() for r in range(panel.results.rowCount())]


def test_search_pages_opens_files_and_adds_a_family(
    make_window: Any, qtbot: Any, hf_search: HFSearchHub
) -> None:
    w, page, panel = _hub_page(make_window)
    assert panel.isVisible() and not page.split.isVisible()  # the hub's results replace the table
    page.format.setCurrentIndex(page.format.findData("gguf"))
    page.search.setText("tandem-test")
    with qtbot.waitSignal(panel.searchFinished, timeout=15000):
        qtbot.keyClick(page.search, Qt.Key.Key_Return)
    assert _ids(panel) == ["tandem-test/tiny-instruct-GGUF", TINY_REPO]  # most downloaded first, 2 a page
    assert [panel.results.item(0, c).text() for c in range(1, 5)] == ["5,000", "40", "2025-06-02", "GGUF"]
    assert panel.more_btn.isEnabled()
    with qtbot.waitSignal(panel.searchFinished, timeout=15000):
        panel.more_btn.click()
    assert _ids(panel)[2] == "tandem-test/tiny-Q8-GGUF"
    assert not panel.more_btn.isEnabled()  # the hub sent no next link
    assert any("cursor=2" in r for r in hf_search.server.requests)

    with qtbot.waitSignal(panel.filesListed, timeout=30000):
        panel.results.selectRow(1)
    groups = {}
    for i in range(panel.files.topLevelItemCount()):
        top = panel.files.topLevelItem(i)
        groups[top.text(0)] = (top.text(1), [top.child(k).text(0) for k in range(top.childCount())])
    assert set(groups) == {"Q4_0", "Q8_0", "F16"}
    # two parts of 150 000 bytes summed into one file; the drafter with that quantization after it
    assert groups["F16"] == ("293.0 KB", ["F16/tiny-F16.gguf", "draft/tiny-draft-F16.gguf"])
    assert groups["Q8_0"][1] == ["tiny-Q8_0.gguf", "draft/tiny-draft-Q8_0.gguf"]
    f16 = next(panel.files.topLevelItem(i) for i in range(3) if panel.files.topLevelItem(i).text(0) == "F16")
    assert f16.child(0).toolTip(0).startswith("2 parts: F16/tiny-F16-00001-of-00002.gguf")

    assert panel.add_btn.isEnabled()
    panel.add_btn.click()
    name = "tiny-gguf"
    written = json.loads((paths.user_families_dir() / f"{name}.json").read_text("utf-8"))
    assert written["specs"][0]["sources"]["huggingface"]["model_id"] == TINY_REPO
    assert "Added tiny-gguf" in panel.message.text()
    # back to the catalog: the family table shows it, selected
    panel.scope.setCurrentIndex(panel.scope.findData(""))
    assert page.split.isVisible() and not panel.isVisible()
    entry = page.current_entry()
    assert entry is not None and entry.name == name
    assert name in w.registry.families


def test_offline_search_says_the_registry_still_works(
    make_window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    _w, page, panel = _hub_page(make_window)
    page.search.setText("qwen")
    with qtbot.waitSignal(panel.searchFinished, timeout=10000):
        qtbot.keyClick(page.search, Qt.Key.Key_Return)
    assert panel.message.text() == "Search needs the network; your registry still works."
    assert panel.results.rowCount() == 0
    panel.scope.setCurrentIndex(panel.scope.findData(""))
    assert page.proxy.rowCount() > 0  # the registry is there


class _SlowHandler(_HFSearchHandler):
    release = threading.Event()

    def do_GET(self) -> None:
        self.release.wait(10)
        super().do_GET()


def test_cancel_stops_waiting_and_drops_the_late_answer(
    make_window: Any, qtbot: Any, hf_search: HFSearchHub
) -> None:
    hf_search.server.RequestHandlerClass = _SlowHandler
    _SlowHandler.release.clear()
    _w, page, panel = _hub_page(make_window)
    page.search.setText("tandem-test")
    qtbot.keyClick(page.search, Qt.Key.Key_Return)
    assert panel.cancel_btn.isVisible()
    with qtbot.waitSignal(panel.searchFinished, timeout=2000):
        panel.cancel_btn.click()
    assert panel.message.text() == "Search cancelled."
    assert not panel.cancel_btn.isVisible()
    _SlowHandler.release.set()  # the hub answers now; nobody listens
    qtbot.waitUntil(lambda: not panel.in_flight(), timeout=10000)
    assert panel.results.rowCount() == 0


def test_closing_the_window_never_waits_for_a_search_in_flight(
    make_window: Any, qtbot: Any, hf_search: HFSearchHub
) -> None:
    """The hub has not answered when the window closes: no thread the interpreter joins at exit
    (the operations pool is not daemon) stays blocked on it; the request ends on its own."""
    hf_search.server.RequestHandlerClass = _SlowHandler
    _SlowHandler.release.clear()
    w, page, panel = _hub_page(make_window)
    page.search.setText("tandem-test")
    qtbot.keyClick(page.search, Qt.Key.Key_Return)
    qtbot.waitUntil(panel.in_flight, timeout=5000)
    w.close()  # closeEvent: shutdown

    def joined_at_exit() -> list[str]:
        return [
            t.name
            for t in threading.enumerate()
            if t.name.startswith("tandem") and not t.name.startswith("tandem-test") and not t.daemon
        ]

    try:
        qtbot.waitUntil(lambda: not joined_at_exit(), timeout=3000)
        assert panel.in_flight()  # the hub still holds the request: only the wait was dropped
        assert panel.results.rowCount() == 0
    finally:
        _SlowHandler.release.set()  # the hub answers now; nobody listens
    qtbot.waitUntil(lambda: not panel.in_flight(), timeout=10000)
    assert panel.results.rowCount() == 0
