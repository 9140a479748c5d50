"""Settings and the keyring: token writes and the server key read run on an ops worker, never on
the GUI thread (a keyring call can be a D-Bus round trip or a keychain prompt), and the local
server's key is shown with Copy."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import keyring
import pytest
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialogButtonBox

from app.core import secrets
from app.core.serving import keys
from tests.gui.test_settings_reach_downloads import MemoryKeyring


class RecordingKeyring(MemoryKeyring):
    """An in-memory keyring that notes which thread each call came from."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, str, str]] = []

    def _note(self, op: str, username: str) -> None:
        self.calls.append((op, username, threading.current_thread().name))

    def get_password(self, service: str, username: str) -> str | None:
        self._note("get", username)
        return super().get_password(service, username)

    def set_password(self, service: str, username: str, password: str) -> None:
        self._note("set", username)
        super().set_password(service, username, password)

    def delete_password(self, service: str, username: str) -> None:
        self._note("delete", username)
        super().delete_password(service, username)


@pytest.fixture
def ring(monkeypatch: pytest.MonkeyPatch) -> Iterator[RecordingKeyring]:
    monkeypatch.delenv(keys.ENV, raising=False)
    previous = keyring.get_keyring()
    r = RecordingKeyring()
    keyring.set_keyring(r)
    secrets.forget_presence()
    try:
        yield r
    finally:
        keyring.set_keyring(previous)
        secrets.forget_presence()


def test_tokens_are_written_off_the_gui_thread_and_the_server_key_is_shown(
    make_window: Any, qtbot: Any, ring: RecordingKeyring
) -> None:
    w = make_window()
    dlg = w.open_settings()
    qtbot.waitExposed(dlg)
    # the server key: read (created on first use) on a worker, shown with Copy
    qtbot.waitUntil(lambda: dlg.copy_key.isEnabled(), timeout=5000)
    key = dlg.server_key.text()
    assert key.startswith("tandem-") and ring.values[("tandem", keys.ENTRY)] == key
    assert "system keyring" in dlg.key_note.text()
    dlg.copy_key.click()
    assert QGuiApplication.clipboard().text() == key

    ring.calls.clear()
    dlg.hf_token.setText("hf_secret")
    with qtbot.waitSignal(dlg.accepted, timeout=5000):
        dlg.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert ring.values[("tandem", "huggingface-token")] == "hf_secret"
    assert secrets.has_token("huggingface")
    writes = [c for c in ring.calls if c[0] == "set"]
    assert writes and all(name.startswith("tandem-op") for _op, _u, name in writes), ring.calls

    # Remove: the delete also runs on a worker
    dlg = w.open_settings()
    qtbot.waitExposed(dlg)
    assert dlg.hf_remove.isEnabled()
    ring.calls.clear()
    dlg.hf_remove.click()
    with qtbot.waitSignal(dlg.accepted, timeout=5000):
        dlg.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert ("tandem", "huggingface-token") not in ring.values
    deletes = [c for c in ring.calls if c[0] == "delete"]
    assert deletes and all(name.startswith("tandem-op") for _op, _u, name in deletes), ring.calls
    assert not secrets.has_token("huggingface")
    qtbot.waitUntil(lambda: w.ops.pending() == 0, timeout=5000)
