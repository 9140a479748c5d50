"""The server key: TANDEM_API_KEY wins; without a usable keyring a generated key lasts the process."""

from __future__ import annotations

import pytest

from app.core.serving import keys


def test_env_key_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TANDEM_API_KEY", " from-env ")
    assert keys.api_key() == "from-env" and keys.key_source() == "env"


def test_null_keyring_keeps_a_generated_key_for_the_session(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TANDEM_API_KEY", raising=False)
    monkeypatch.setattr(keys, "_memory_key", None)
    first = keys.api_key()  # the tests' null keyring stores nothing
    assert first.startswith("tandem-") and len(first) > 20
    assert keys.api_key() == first and keys.key_source() == "session"
    assert keys.regenerate() != first


def test_key_comparison() -> None:
    assert keys.matches("abc", "abc") and not keys.matches("abd", "abc") and not keys.matches(None, "abc")
