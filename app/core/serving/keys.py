"""The local server's API key: ``TANDEM_API_KEY``, else the keyring, else this process only.

The key is generated on first use and stored in the OS keyring (service ``tandem``, entry
``server-api-key``), so clients configured once keep working across restarts and the Settings
dialog can show it with Copy. When the keyring cannot keep it (no backend, a locked keychain, the
null backend the tests use), the generated key lives in memory for this process only, and the log
says so: a restart then gives a new key. ``TANDEM_API_KEY`` always wins and is never stored.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import threading

import keyring
from keyring.errors import KeyringError

log = logging.getLogger(__name__)

SERVICE = "tandem"
ENTRY = "server-api-key"
ENV = "TANDEM_API_KEY"

_lock = threading.Lock()
#: a generated key the keyring could not keep (per process)
_memory_key: str | None = None


def _from_keyring() -> str | None:
    try:
        return keyring.get_password(SERVICE, ENTRY) or None
    except KeyringError as exc:
        from app.core.secrets import log_unavailable

        log_unavailable("for the server key", exc)
        return None


def api_key() -> str:
    """The key every request must send as ``Authorization: Bearer <key>`` (created when missing)."""
    global _memory_key
    env = os.environ.get(ENV, "").strip()
    if env:
        return env
    with _lock:
        stored = _from_keyring()
        if stored:
            return stored
        if _memory_key:
            return _memory_key
        key = "tandem-" + secrets.token_urlsafe(24)
        try:
            keyring.set_password(SERVICE, ENTRY, key)
        except KeyringError as exc:
            log.warning("keyring cannot store the server key (%s)", type(exc).__name__)
        if _from_keyring() == key:
            return key
        log.warning("the server key is kept for this session only (no usable keyring)")
        _memory_key = key
        return key


def key_source() -> str:
    """Where :func:`api_key` takes the key from: ``env``, ``keyring`` or ``session``."""
    if os.environ.get(ENV, "").strip():
        return "env"
    if _memory_key and not _from_keyring():
        return "session"
    return "keyring"


def regenerate() -> str:
    """Replace the stored key with a new one (clients must be given the new key)."""
    global _memory_key
    with _lock:
        _memory_key = None
        with contextlib.suppress(KeyringError):
            keyring.delete_password(SERVICE, ENTRY)
    return api_key()


def matches(given: str | None, expected: str) -> bool:
    """Constant-time comparison of a presented key."""
    return given is not None and secrets.compare_digest(given.encode(), expected.encode())
