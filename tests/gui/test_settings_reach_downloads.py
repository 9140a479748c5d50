"""A hub endpoint or token changed in Settings reaches the next download, no restart.

The window starts with the Hugging Face endpoint pointing at a port that drops every connection;
the endpoint is changed through the real SettingsDialog to a recording proxy in front of the olah
hub, a token is typed in, and a download queued afterwards must arrive at the proxy, carrying the
token, and finish.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import keyring
import pytest
from keyring.backend import KeyringBackend
from PySide6.QtWidgets import QDialogButtonBox

from app.core.cache import CacheManager
from app.core.registry import Registry
from app.core.settings import Settings
from app.devtools.hubs.huggingface import OlahHub
from app.devtools.hubs.proxies import CountingProxy, SilentHub
from app.devtools.hubs.repos import tiny_family
from tests.integration.hub_servers import olah_hub

__all__ = ["olah_hub"]  # fixture

TOKEN = "hf_tandemTestToken1234"


class MemoryKeyring(KeyringBackend):
    """An in-memory OS keyring (the keyring is another layer; the test suite has none)."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.values.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.values[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.values.pop((service, username), None)


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    ring = MemoryKeyring()
    keyring.set_keyring(ring)
    try:
        yield ring
    finally:
        keyring.set_keyring(previous)


@pytest.fixture
def registry() -> Registry:
    reg = Registry.load()
    reg.register(tiny_family().model_dump(mode="json", exclude_none=True))
    return reg


def test_endpoint_and_token_changed_in_settings_reach_the_queue(
    make_window: Any,
    qtbot: Any,
    registry: Registry,
    olah_hub: OlahHub,
    memory_keyring: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("HF_ENDPOINT", raising=False)
    with SilentHub() as old_hub:
        proxy = CountingProxy(olah_hub.port)
        proxy.start()
        try:
            w = make_window(registry=registry, settings=Settings(hf_endpoint=old_hub.endpoint))
            fam = registry.get("tiny")

            dlg = w.open_settings()
            qtbot.waitExposed(dlg)
            dlg.hf_endpoint.setText(proxy.endpoint)
            dlg.hf_token.setText(TOKEN)
            with qtbot.waitSignal(dlg.accepted, timeout=5000):
                dlg.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
            assert w.settings.hf_endpoint == proxy.endpoint

            with qtbot.waitSignal(w.downloads.completed, timeout=60_000) as done:
                w._on_download_requested(fam, fam.specs[0], "target", "Q4_0", None)
            item = w.downloads.queue.items()[0]
            assert done.args[1] is True, item.error
        finally:
            proxy.stop()
    assert old_hub.connections == 0
    assert proxy.connections > 0
    sent = bytes(proxy.sent).lower()
    assert b"/tandem-test/tiny-gguf/resolve/main/tiny-q4_0.gguf" in sent
    assert f"authorization: bearer {TOKEN}".lower().encode() in sent
    mgr = CacheManager(fam, fam.specs[0], "target", "Q4_0", "huggingface")
    assert mgr.status().state == "cached"


def test_launch_after_download_links_cached_files_with_the_hub_down(
    make_window: Any, qtbot: Any, registry: Registry, olah_hub: OlahHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GUI path: a launch whose files are queued for download (the browser's
    status was stale, or the entry was removed) loads from the hub cache with the hub down."""
    import shutil

    from app.core.cache import entries_root
    from app.core.engines.base import Sampling
    from app.core.speculative import SpeculationOptions
    from app.gui.views.launch_dialog import LaunchChoice
    from tests.gui.conftest import ScriptedEngine, scripted_loader

    monkeypatch.delenv("HF_ENDPOINT", raising=False)
    fam = registry.get("tiny")
    spec = fam.specs[0]
    CacheManager(fam, spec, "target", "Q8_0", "huggingface", endpoint=olah_hub.endpoint).download()
    CacheManager(fam, spec, "drafter", "Q8_0", "huggingface", endpoint=olah_hub.endpoint).download()
    for entry in entries_root().iterdir():
        shutil.rmtree(entry)
    with SilentHub() as dead:
        engine = ScriptedEngine()
        w = make_window(
            registry=registry, settings=Settings(hf_endpoint=dead.endpoint), loader=scripted_loader(engine)
        )
        choice = LaunchChoice(
            fam,
            spec,
            "Q8_0",
            "llama.cpp",
            SpeculationOptions(enabled=True, method="draft", draft_quantization="Q8_0"),
            512,
            None,
            Sampling(),
            downloads=[("target", None), ("drafter", "Q8_0")],
        )
        with qtbot.waitSignal(w.modelLoaded, timeout=60_000) as loaded:
            w.launch(choice)
        assert loaded.args[0].family == "tiny"
        states = {i.role: i.state for i in w.downloads.queue.items()}
        assert states == {"target": "finished", "drafter": "finished"}
    assert dead.connections == 0
    assert CacheManager(fam, spec, "target", "Q8_0", "huggingface").status().source == "entry"
