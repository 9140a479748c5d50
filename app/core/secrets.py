"""Hub tokens in the OS keyring (service ``tandem``, one key per hub).

Tokens never go to settings files, logs or error messages: callers get them only to hand them to
the hub library, and the cache layer scrubs them from any error text it shows.

A keyring call can take long (a D-Bus round trip, a locked keychain prompting): whether a token
is stored is remembered per hub after the first call, so :func:`has_token` (the settings dialog)
answers at once once the GUI has asked it on a worker at start. Storing or deleting a
token through this module updates what is remembered.
"""

from __future__ import annotations

import logging

import keyring
from keyring.errors import KeyringError, NoKeyringError, PasswordDeleteError

log = logging.getLogger(__name__)

SERVICE = "tandem"
HUBS = ("huggingface", "modelscope")
#: (keyring backend, hub) -> whether a token is stored, as last seen by this process (keyed by
#: the backend too: one set with ``keyring.set_keyring`` starts unknown)
_present: dict[tuple[object, str], bool] = {}
#: "no keyring backend" was logged (a normal state, e.g. a headless Linux: said once, at INFO)
_said_no_keyring = False


def log_unavailable(what: str, exc: KeyringError) -> None:
    """Log a keyring failure: no backend at all is normal (once, INFO); anything else warns."""
    global _said_no_keyring
    if isinstance(exc, NoKeyringError):
        if not _said_no_keyring:
            _said_no_keyring = True
            log.info("no system keyring; hub tokens cannot be stored (public models still work)")
        return
    log.warning("keyring unavailable, %s: %s", what, type(exc).__name__)


def _slot(hub: str) -> tuple[object, str]:
    return (keyring.get_keyring(), hub)


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
        log_unavailable(f"using no {hub} token", exc)
        _present[_slot(hub)] = False
        return None
    _present[_slot(hub)] = bool(value)
    return value or None


def set_token(hub: str, token: str) -> None:
    """Store ``token``; raises KeyringError when the OS keyring cannot store secrets."""
    token = token.strip()
    if not token:
        raise ValueError("token: empty; use delete_token to remove a token")
    keyring.set_password(SERVICE, _key(hub), token)
    _present[_slot(hub)] = True


def delete_token(hub: str) -> bool:
    """Remove the token; True if one was stored."""
    try:
        keyring.delete_password(SERVICE, _key(hub))
    except PasswordDeleteError:
        _present[_slot(hub)] = False
        return False
    except KeyringError as exc:
        log_unavailable(f"cannot delete the {hub} token", exc)
        return False
    _present[_slot(hub)] = False
    return True


def has_token(hub: str) -> bool:
    """Whether a token is stored (remembered after the first keyring call for ``hub``)."""
    known = _present.get(_slot(hub))
    return known if known is not None else get_token(hub) is not None


def forget_presence() -> None:
    """Ask the keyring again next time (another program may have changed it)."""
    _present.clear()
