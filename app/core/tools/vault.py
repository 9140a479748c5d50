"""The values of MCP servers' environment variables and headers, in the OS keyring.

Every ``env`` value of a stdio server and every header value of an HTTP server is kept here, never
in the stored configuration (``mcp.json`` holds a reference, ``{"keyring": KEY}``) nor in the
settings file: an MCP configuration's env and headers are where API keys and tokens go. Entries
live under the service of :mod:`app.core.secrets` (``tandem``), one per value, named
``mcp:<server>:<env|header>:<name>``.

A keyring that cannot keep a value (none on a headless Linux, a locked keychain, the null backend
of the tests) is found out by reading the value back; such a value is kept in this process's
memory instead, so the server still starts in this session, and the caller is told
(:func:`store` returns False) so the user can be told too. Calls block (a D-Bus round trip, a
keychain prompt): the GUI makes them on a worker.
"""

from __future__ import annotations

import logging
from typing import Literal

import keyring
from keyring.errors import KeyringError, PasswordDeleteError

from app.core.secrets import SERVICE, log_unavailable

log = logging.getLogger(__name__)

#: where a value goes: a stdio server's environment, an HTTP server's request headers
Place = Literal["env", "header"]

#: values the keyring did not keep, by key: used for this process only
_memory: dict[str, str] = {}


def key_for(server: str, place: Place, name: str) -> str:
    """The keyring entry of one value."""
    return f"mcp:{server}:{place}:{name}"


def store(key: str, value: str) -> bool:
    """Keep ``value`` under ``key``; True when the keyring holds it, False when only this process
    does (the keyring is unavailable or did not keep it)."""
    _memory.pop(key, None)
    try:
        keyring.set_password(SERVICE, key, value)
        kept = keyring.get_password(SERVICE, key) == value
    except KeyringError as exc:
        log_unavailable("an MCP server's value is kept for this session only", exc)
        kept = False
    if not kept:
        _memory[key] = value
    return kept


def keep_for_session(key: str, value: str) -> None:
    """Hold ``value`` under ``key`` in this process only, never in the keyring (a one-shot run)."""
    _memory[key] = value


def read(key: str) -> str | None:
    """The value under ``key`` (the keyring's, else this process's), or None when there is none."""
    if key in _memory:
        return _memory[key]
    try:
        value = keyring.get_password(SERVICE, key)
    except KeyringError as exc:
        log_unavailable("an MCP server's value cannot be read", exc)
        return None
    return value


def delete(key: str) -> None:
    """Forget the value under ``key`` (keyring and memory); nothing stored is not an error."""
    _memory.pop(key, None)
    try:
        keyring.delete_password(SERVICE, key)
    except PasswordDeleteError:
        pass
    except KeyringError as exc:
        log_unavailable("an MCP server's value cannot be deleted", exc)


def forget_session_values() -> None:
    """Drop every value kept in memory (tests start each from an empty session)."""
    _memory.clear()
