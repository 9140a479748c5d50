"""The pair by default: a spec that declares a drafter downloads it with its target unless the
user unticks "with its drafter", and the choice is kept in the settings.

Real widgets, the real download queue and olah on loopback serving the tiny test repository.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.core.cache import CacheManager
from app.core.registry import Registry
from app.core.settings import Settings
from app.devtools.hubs.repos import tiny_family
from app.gui.views.launch_dialog import ordered_draft_quants
from tests.gui.test_cache_actions import _select_quant
from tests.integration.hub_servers import hf_endpoint, olah_hub

__all__ = ["hf_endpoint", "olah_hub"]  # fixtures


@pytest.fixture
def registry() -> Registry:
    reg = Registry.load()
    reg.register(tiny_family().model_dump(mode="json", exclude_none=True))
    return reg


def test_download_takes_the_drafter_by_default(
    make_window: Any, qtbot: Any, registry: Registry, hf_endpoint: str
) -> None:
    w = make_window(registry=registry)
    _select_quant(w, "Q4_0")
    page = w.browser
    qtbot.waitUntil(page.download_btn.isEnabled, timeout=5000)
    assert page.with_drafter.isVisible() and page.with_drafter.isChecked()
    page.download_btn.click()
    model = w.downloads_model
    qtbot.waitUntil(
        lambda: len(model.items()) == 2 and all(i.state == "finished" for i in model.items()), timeout=60_000
    )
    fam = registry.get("tiny")
    spec = fam.specs[0]
    draft = ordered_draft_quants(spec.draft_quantizations())[0]  # the one the browser offers
    target = CacheManager(fam, spec, "target", "Q4_0", "huggingface")
    drafter = CacheManager(fam, spec, "drafter", "Q4_0", "huggingface", draft_quantization=draft)
    assert target.status().state == "cached"
    assert drafter.status().state == "cached"


def test_unticking_is_remembered(make_window: Any, qtbot: Any, registry: Registry) -> None:
    w = make_window(registry=registry)
    _select_quant(w, "Q4_0")
    page = w.browser
    qtbot.waitUntil(page.with_drafter.isVisible, timeout=5000)
    page.with_drafter.setChecked(False)
    assert w.settings.download_drafter_with_target is False
    again = make_window(registry=registry, settings=Settings(download_drafter_with_target=False))
    assert not again.browser.with_drafter.isChecked()
