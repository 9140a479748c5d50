"""The "My models" scope lists only what is on this computer: on a fresh home with one imported
model, exactly that model; the catalog (every family) is the other scope."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.core.registry import Registry
from app.core.registry.models import reads_images
from app.core.units import human_bytes
from app.gui.views.browser import COL_DISK
from app.gui.views.hub_search import SCOPE_MINE, SCOPE_REGISTRY
from tests.gui.test_import import _drop


def _names(page: Any) -> list[str]:
    proxy = page.proxy
    return [proxy.index(r, 0).data() for r in range(proxy.rowCount())]


def test_my_models_on_a_fresh_home_lists_the_one_imported_model(
    make_window: Any, qtbot: Any, smollm2_f32: Path
) -> None:
    w = make_window(registry=Registry.load())
    with qtbot.waitSignal(w.importer.dialogOpened, timeout=10000) as opened:
        _drop(w, smollm2_f32)
    dlg = opened.args[0]
    name = dlg.family.name
    qtbot.waitUntil(lambda: not dlg.finding(), timeout=30000)
    dlg.reject()
    page = w.browser
    w.nav.setCurrentRow(1)  # the Models page
    scope = page.hub_search.scope
    scope.setCurrentIndex(scope.findData(SCOPE_MINE))
    assert page.split.isVisible()  # a local scope: the family table, not the hub search
    # statuses arrive from background probes; the scope settles on the imported model alone
    qtbot.waitUntil(lambda: _names(page) == [name], timeout=10000)
    # its disk use: the imported file, measured by the core cache on a worker
    disk = page.proxy.index(0, COL_DISK)
    assert not page.table.isColumnHidden(COL_DISK) and page.disk_total.isVisible()
    size = human_bytes(smollm2_f32.stat().st_size)
    qtbot.waitUntil(lambda: disk.data() == size, timeout=10000)
    assert page.disk_total.text() == f"Together: {size} on disk"
    scope.setCurrentIndex(scope.findData(SCOPE_REGISTRY))
    catalog = _names(page)
    assert name in catalog and len(catalog) > 20
    assert page.table.isColumnHidden(COL_DISK) and not page.disk_total.isVisible()


def test_ability_filters_read_images_and_call_tools(make_window: Any, qtbot: Any) -> None:
    reg = Registry.load()
    w = make_window(registry=reg)
    page = w.browser
    w.nav.setCurrentRow(1)

    def reads(fam: Any) -> bool:
        return any(reads_images(fam, s) for s in fam.specs)

    page.vision_only.setChecked(True)
    shown = set(_names(page))
    assert shown == {f.name for f in reg.families.values() if reads(f)}
    assert "gemma-4-ggml" in shown and "smollm2-135m-instruct" not in shown
    page.tools_only.setChecked(True)
    both = set(_names(page))
    assert both and both <= shown
    assert all("tools" in reg.families[n].abilities or reg.families[n].tool_parser for n in both)
    page.vision_only.setChecked(False)
    page.tools_only.setChecked(False)
    assert len(_names(page)) == len(reg.families) + len(reg.invalid)


def test_the_selected_model_shows_its_abilities_as_badges(make_window: Any, qtbot: Any) -> None:
    reg = Registry.load()
    w = make_window(registry=reg)
    w.nav.setCurrentRow(1)
    page = w.browser
    page.select_family("gemma-4-ggml")
    text = page.badges.text()
    fam = reg.families["gemma-4-ggml"]
    assert "Reads images" in text and "Calls tools" in text
    assert f"{fam.context_length:,} tokens of context" in text
    page.select_family("smollm2-135m-instruct")
    assert "Reads images" not in page.badges.text() and "Chat" in page.badges.text()


def test_the_search_field_keeps_its_room_beside_the_filters(make_window: Any, qtbot: Any) -> None:
    """At 1280 and 1366 px wide, in every language, the ability filters leave the search field
    room to read its placeholder (they squeezed it to "Se…" at 1280 px)."""
    w = make_window()
    w.nav.setCurrentRow(1)
    w.show()
    qtbot.waitExposed(w)
    page = w.browser
    try:
        for lang in ("en", "zh_CN", "ja", "ko"):
            w.set_language(lang)
            for width, height in ((1280, 720), (1366, 768)):
                w.resize(width, height)
                qtbot.waitUntil(lambda width=width: w.width() == width, timeout=2000)
                qtbot.wait(20)  # one layout pass
                field = page.search
                text = field.fontMetrics().horizontalAdvance(field.placeholderText())
                assert field.width() >= max(220, text + 40), (lang, width, field.width())
                for box in (page.drafter_only, page.vision_only, page.tools_only, page.downloaded_only):
                    assert box.width() >= box.sizeHint().width(), (lang, width, box.text())
    finally:
        w.set_language("en")
