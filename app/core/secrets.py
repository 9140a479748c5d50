"""Hub tokens in the OS keyring (service ``tandem``, one key per hub).

Tokens never go to settings files, logs or error messages: callers get them only to hand them to
the hub library, and the cache layer scrubs them from any error text it shows.
"""

from __future__ import annotations

import logging

import keyring
from keyring.errors import KeyringError, PasswordDeleteError

log = logging.getLogger(__name__)

SERVICE = "tandem"
HUBS = ("huggingface", "modelscope")


def _key(hub: str) -> str:
    if hub not in HUBS:
        raise ValueError(f"hub: unknown hub {hub!r}; use one of {', '.join(HUBS)}")
    return f"{hub}-token"


def get_token(hub: str) -> str | None:
    """The stored token, or None (no token, no usable keyring: public repos still work)."""
    key = _key(hub)
    try:
        value = keyring.get_password(SERVICE, key)
    except KeyringError as exc:
        log.warning("keyring unavailable, using no %s token: %s", hub, type(exc).__name__)
        return None
    return value or None


def set_token(hub: str, token: str) -> None:
    """Store ``token``; raises KeyringError when the OS keyring cannot store secrets."""
    token = token.strip()
    if not token:
        raise ValueError("token: empty; use delete_token to remove a token")
    keyring.set_password(SERVICE, _key(hub), token)


def delete_token(hub: str) -> bool:
    """Remove the token; True if one was stored."""
    try:
        keyring.delete_password(SERVICE, _key(hub))
    except PasswordDeleteError:
        return False
    except KeyringError as exc:
        log.warning("keyring unavailable, cannot delete the %s token: %s", hub, type(exc).__name__)
        return False
    return True


def has_token(hub: str) -> bool:
    return get_token(hub) is not None
