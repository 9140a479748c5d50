"""The "My models" scope lists only what is on this computer: on a fresh home with one imported
model, exactly that model; the catalog (every family) is the other scope."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.core.registry import Registry
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
    scope.setCurrentIndex(scope.findData(SCOPE_REGISTRY))
    catalog = _names(page)
    assert name in catalog and len(catalog) > 20
