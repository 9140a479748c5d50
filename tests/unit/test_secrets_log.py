"""No keyring backend is a normal state: said once at INFO, never a WARNING (the packaged GUI
printed a warning at every start, which the packaging smoke test treats as a failure)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import keyring
import pytest
from keyring.backends import fail

from app.core import secrets
from app.core.serving import keys


@pytest.fixture
def no_keyring(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    before = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    monkeypatch.setattr(secrets, "_said_no_keyring", False)
    monkeypatch.delenv(keys.ENV, raising=False)
    try:
        yield
    finally:
        keyring.set_keyring(before)
        secrets.forget_presence()


def test_no_keyring_is_one_info_line(no_keyring: None, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    for hub in secrets.HUBS:
        assert secrets.get_token(hub) is None
        assert secrets.has_token(hub) is False
        assert secrets.delete_token(hub) is False
    assert keys._from_keyring() is None
    mine = [r for r in caplog.records if r.name in ("app.core.secrets", "app.core.serving.keys")]
    assert [r.levelno for r in mine] == [logging.INFO]
    assert "no system keyring" in mine[0].getMessage()


def test_a_failing_keyring_still_warns(caplog: pytest.LogCaptureFixture) -> None:
    from keyring.backend import KeyringBackend
    from keyring.errors import KeyringLocked

    class Locked(KeyringBackend):
        priority = 1

        def get_password(self, service: str, username: str) -> str | None:
            raise KeyringLocked("locked")

        def set_password(self, service: str, username: str, password: str) -> None:
            raise KeyringLocked("locked")

        def delete_password(self, service: str, username: str) -> None:
            raise KeyringLocked("locked")

    before = keyring.get_keyring()
    keyring.set_keyring(Locked())
    try:
        caplog.set_level(logging.INFO)
        assert secrets.get_token("huggingface") is None
    finally:
        keyring.set_keyring(before)
        secrets.forget_presence()
    assert [r.levelno for r in caplog.records if r.name == "app.core.secrets"] == [logging.WARNING]
