"""The conversation list's search field and Export, on the real panel over a real store: typing
filters the list to the conversations holding the text (title or messages), a new conversation
is filtered too, clearing shows all; Export writes the chosen format through the core exporter."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from app.core.chat import ChatStore
from app.gui.models.conversations_model import ConversationsModel
from app.gui.views.conversations_panel import ConversationsPanel


@pytest.fixture
def panel(qtbot: Any, tmp_path: Path) -> Any:
    store = ChatStore(tmp_path / "chats.sqlite3")
    tides = store.create_conversation("Tides")
    store.add_message(tides.id, "user", "Why does the Moon pull the sea?")
    store.add_message(tides.id, "assistant", "Gravity: the **Moon** pulls the near side harder.")
    trip = store.create_conversation("Paris trip")
    store.add_message(trip.id, "user", "東京タワーとエッフェル塔の高さは？")
    store.create_conversation("Moon facts")
    model = ConversationsModel(store)
    p = ConversationsPanel(model)
    p.retranslate()
    qtbot.addWidget(p)
    p.resize(260, 500)
    p.show()
    yield p, store, {"tides": tides.id, "trip": trip.id}
    store.close()


def test_typing_filters_the_list_and_clearing_shows_every_conversation(qtbot: Any, panel: Any) -> None:
    p, _store, ids = panel
    everything = p.shown_ids()
    assert len(everything) == 3
    qtbot.keyClicks(p.search, "moon")
    qtbot.waitUntil(lambda: len(p.shown_ids()) == 2, timeout=3000)
    assert ids["tides"] in p.shown_ids() and ids["trip"] not in p.shown_ids()
    row = p.model.row_of(ids["tides"])
    tip = p.model.data(p.model.index(row, 0), Qt.ItemDataRole.ToolTipRole)
    assert "Moon pull the sea" in tip  # the text around the hit
    assert not p.no_match.isVisible()
    # a conversation made while the filter is on is filtered too
    p.model.create("Knitting")
    qtbot.waitUntil(lambda: len(p.shown_ids()) == 2 and p.model.rowCount() == 4, timeout=3000)
    p.search.clear()
    p.apply_search()
    assert len(p.shown_ids()) == 4
    p.search.setText("エッフェル塔")
    p.apply_search()
    assert p.shown_ids() == [ids["trip"]]
    p.search.setText("no such words anywhere")
    p.apply_search()
    assert p.shown_ids() == [] and p.no_match.isVisible()


@pytest.mark.parametrize(
    ("label", "suffix"),
    [
        ("Web page (*.html)", ".html"),
        ("JSON, OpenAI messages with speculation figures (*.json)", ".json"),
        ("Markdown with images (*.md)", ".md"),
    ],
)
def test_export_writes_the_chosen_format(
    qtbot: Any, panel: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, label: str, suffix: str
) -> None:
    p, _store, ids = panel
    target = tmp_path / "tides"  # no suffix typed: the format's own is added
    asked: list[str] = []

    def save_name(_parent: Any, _title: str, name: str, filters: str) -> tuple[str, str]:
        asked.extend([name, filters])
        return str(target), label

    # the operating system's file dialog, answered as a user would
    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_name)
    p.export_row(p.model.row_of(ids["tides"]))
    assert asked[0] == "Tides" and label in asked[1]
    out = target.with_suffix(suffix)
    text = out.read_text(encoding="utf-8")
    if suffix == ".json":
        assert [m["role"] for m in json.loads(text)["messages"]] == ["user", "assistant"]
    elif suffix == ".html":
        assert "<strong>Moon</strong>" in text and "<!DOCTYPE html>" in text
    else:
        assert "Gravity: the **Moon** pulls" in text
