"""The Models page shows a family's description in the window's language and follows a switch
at runtime: a builtin family in its translation, a family registered without translations in
English."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from app.core.registry import Registry

MINE = "My own model, described only in English."
BUILTIN = "gemma-4"


def _registry(tmp_path: Path) -> Registry:
    user_dir = tmp_path / "families"
    user_dir.mkdir()
    reg = Registry.load(user_dir)
    reg.register(
        {
            "name": "mine-untranslated",
            "description": MINE,
            "specs": [
                {
                    "format": "gguf",
                    "size_in_billions": 1,
                    "quantizations": ["Q4_K_M"],
                    "model_file_name_template": "mine-{quantization}.gguf",
                    "sources": {"huggingface": {"model_id": "me/mine-GGUF"}},
                }
            ],
        },
        user_dir,
    )
    return reg


def test_descriptions_follow_the_window_language(make_window: Any, qtbot: Any, tmp_path: Path) -> None:
    reg = _registry(tmp_path)
    gemma = reg.get(BUILTIN)
    assert gemma.description_i18n is not None
    w = make_window(registry=reg)
    w.resize(1366, 768)
    w.nav.setCurrentRow(1)
    page = w.browser
    model = page.families

    def tooltip(name: str) -> str:
        return str(model.data(model.index(model.row_of(name), 0), Qt.ItemDataRole.ToolTipRole))

    page.select_family(BUILTIN)
    qtbot.waitUntil(lambda: page.name.text() == BUILTIN, timeout=5_000)
    assert page.description.text() == gemma.description

    for code in ("ja", "zh_CN", "ko", "en"):
        w.set_language(code)
        expected = gemma.description_i18n.get(code, gemma.description)

        def shows(text: str = expected) -> bool:
            return page.description.text() == text

        # the selected family's description switches in place, without selecting it again
        qtbot.waitUntil(shows, timeout=5_000)
        assert tooltip(BUILTIN) == expected  # the table's name cell says the same on hover
        assert tooltip("mine-untranslated") == MINE
        page.select_family("mine-untranslated")
        qtbot.waitUntil(lambda: page.name.text() == "mine-untranslated", timeout=5_000)
        assert page.description.text() == MINE  # no translation: English in every language
        page.select_family(BUILTIN)
        qtbot.waitUntil(shows, timeout=5_000)
    assert page.description.text() == gemma.description


def test_the_search_finds_a_family_by_its_shown_description(make_window: Any, qtbot: Any) -> None:
    w = make_window()
    page = w.browser
    proxy = page.proxy
    gemma = w.registry.get(BUILTIN)
    assert gemma.description_i18n is not None
    word = "指示チューニング済み"  # in the Japanese description only
    assert word in gemma.description_i18n["ja"]

    def listed() -> set[str]:
        return {proxy.index(r, 0).data() for r in range(proxy.rowCount())}

    try:
        w.set_language("ja")
        page.search.setText(word)
        qtbot.waitUntil(lambda: BUILTIN in listed(), timeout=5_000)
        page.search.setText("instruction-tuned")  # the English words find it still
        qtbot.waitUntil(lambda: BUILTIN in listed(), timeout=5_000)
    finally:
        page.search.setText("")
        w.set_language("en")
