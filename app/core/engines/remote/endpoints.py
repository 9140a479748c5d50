"""Remote endpoints: URL checks, the saved endpoint list, and API keys in the keyring.

Remote endpoints are for the user's own servers (vLLM, SGLang, llama-server or any
OpenAI-compatible API). HTTPS is required for every address that is not loopback, unless the user
allows plain HTTP for that one endpoint. API keys live only in the OS keyring (service
``tandem``, one entry per endpoint URL); the endpoint list file holds URLs and flags, never keys.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import os
from dataclasses import asdict, dataclass
from pathlib import Path

import httpx
import keyring
from keyring.errors import KeyringError, PasswordDeleteError

from app.core import paths
from app.core.engines.base import EngineError
from app.core.secrets import SERVICE

log = logging.getLogger(__name__)

#: Environment variable the CLI reads the API key from (never a command-line argument).
API_KEY_ENV = "TANDEM_API_KEY"


class EndpointError(EngineError):
    """A URL Tandem will not connect to; the message says why."""

    hint = "Give the server's OpenAI API address, e.g. https://gpu-box.example:8000/v1"


class InsecureEndpointError(EndpointError):
    hint = (
        "Use https:// for servers on other machines, or allow plain HTTP for this endpoint "
        "(--allow-http) if it is on a network you trust."
    )


def is_loopback(host: str) -> bool:
    """True for localhost and loopback addresses (127.0.0.0/8, ::1)."""
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def normalize_url(url: str) -> str:
    """The canonical form of an endpoint URL: scheme and host lower-cased, no trailing slash.

    A URL without a path gets ``/v1`` (the OpenAI API root every supported server uses).
    Raises :class:`EndpointError` for anything that is not an http(s) URL with a host.
    """
    text = (url or "").strip()
    if not text:
        raise EndpointError("endpoint: no URL given")
    try:
        parts = httpx.URL(text)  # raises InvalidURL on a bad port or host
    except (httpx.InvalidURL, ValueError) as exc:
        raise EndpointError(f"endpoint: {text!r} is not a valid URL ({exc})") from None
    if parts.port is not None and not 0 < parts.port < 65536:
        raise EndpointError(f"endpoint: {text!r} is not a valid URL (port {parts.port} is out of range)")
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise EndpointError(f"endpoint: {text!r} must start with https:// or http://")
    host = parts.host.lower()
    if not host:
        raise EndpointError(f"endpoint: {text!r} has no host name")
    if parts.userinfo:
        raise EndpointError("endpoint: do not put credentials in the URL; the API key is kept in the keyring")
    if parts.query or parts.fragment or text.rstrip().endswith(("?", "#")):
        raise EndpointError(f"endpoint: {text!r} must not carry a query or fragment")
    return _join(scheme, host, parts.port, parts.path.rstrip("/") or "/v1")


def _join(scheme: str, host: str, port: int | None, path: str) -> str:
    """``scheme://host[:port]path`` (an IPv6 host in brackets)."""
    netloc = f"[{host}]" if ":" in host else host
    if port is not None:
        netloc += f":{port}"
    return f"{scheme}://{netloc}{path}"


@dataclass(frozen=True)
class Endpoint:
    """One remote server: its API root URL and whether plain HTTP is allowed for it."""

    url: str
    allow_http: bool = False
    name: str = ""

    @classmethod
    def parse(cls, url: str, allow_http: bool = False, name: str = "") -> Endpoint:
        ep = cls(normalize_url(url), allow_http, name)
        ep.check()
        return ep

    @property
    def host(self) -> str:
        return httpx.URL(self.url).host

    @property
    def server_root(self) -> str:
        """The URL without the API path (where vLLM serves ``/metrics``)."""
        parts = httpx.URL(self.url)
        path = parts.path.removesuffix("/v1")
        return _join(parts.scheme, parts.host, parts.port, path)

    @property
    def label(self) -> str:
        return self.name or self.url

    def check(self) -> None:
        """Refuse plain HTTP to a non-loopback host unless allowed for this endpoint."""
        if httpx.URL(self.url).scheme == "http" and not self.allow_http and not is_loopback(self.host):
            raise InsecureEndpointError(
                f"endpoint: {self.url} is plain HTTP to another machine; the API key and your "
                "chats would cross the network unencrypted"
            )


# --- API keys (keyring only) --------------------------------------------------------------------
def _key_name(url: str) -> str:
    return f"endpoint:{normalize_url(url)}"


def get_api_key(url: str) -> str | None:
    """The key stored for this endpoint, or None (no key, or no usable keyring)."""
    try:
        value = keyring.get_password(SERVICE, _key_name(url))
    except KeyringError as exc:
        log.warning("keyring unavailable, using no API key for the endpoint: %s", type(exc).__name__)
        return None
    return value or None


def set_api_key(url: str, key: str) -> None:
    """Store ``key`` for this endpoint; raises KeyringError when the keyring cannot store secrets."""
    key = key.strip()
    if not key:
        raise ValueError("API key: empty; use delete_api_key to remove a key")
    keyring.set_password(SERVICE, _key_name(url), key)


def delete_api_key(url: str) -> bool:
    """Remove the stored key; True if one was stored."""
    try:
        keyring.delete_password(SERVICE, _key_name(url))
    except PasswordDeleteError:
        return False
    except KeyringError as exc:
        log.warning("keyring unavailable, cannot delete the endpoint key: %s", type(exc).__name__)
        return False
    return True


def resolve_api_key(url: str, environ: dict[str, str] | None = None) -> str | None:
    """The key for a CLI run: ``TANDEM_API_KEY`` when set, else the keyring entry of ``url``."""
    env = os.environ if environ is None else environ
    value = (env.get(API_KEY_ENV) or "").strip()
    return value or get_api_key(url)


# --- the saved endpoint list (no secrets) ---------------------------------------------------------
def endpoints_file() -> Path:
    return paths.config_dir() / "endpoints.json"


def load_endpoints(path: Path | None = None) -> list[Endpoint]:
    """Saved endpoints; a damaged file is logged and read as empty (never crashes a listing)."""
    file = path or endpoints_file()
    if not file.is_file():
        return []
    try:
        data = json.loads(file.read_text("utf-8"))
        out = []
        for item in data.get("endpoints", []):
            out.append(
                Endpoint(
                    normalize_url(str(item["url"])),
                    bool(item.get("allow_http", False)),
                    str(item.get("name", "")),
                )
            )
        return out
    except (OSError, ValueError, KeyError, TypeError, AttributeError, EndpointError) as exc:
        log.warning("cannot read %s: %s", file, exc)
        return []


def save_endpoints(endpoints: list[Endpoint], path: Path | None = None) -> None:
    file = path or endpoints_file()
    file.parent.mkdir(parents=True, exist_ok=True)
    tmp = file.with_suffix(".json.tmp")
    tmp.write_text(json.dumps({"endpoints": [asdict(e) for e in endpoints]}, indent=1), "utf-8")
    tmp.replace(file)


def remember_endpoint(endpoint: Endpoint, path: Path | None = None) -> list[Endpoint]:
    """Add or replace (same URL) an endpoint in the saved list; returns the new list."""
    endpoint.check()
    current = [e for e in load_endpoints(path) if e.url != endpoint.url]
    current.append(endpoint)
    save_endpoints(current, path)
    return current


def forget_endpoint(url: str, path: Path | None = None) -> bool:
    """Remove an endpoint and its stored key; True if it was saved."""
    norm = normalize_url(url)
    current = load_endpoints(path)
    kept = [e for e in current if e.url != norm]
    delete_api_key(norm)
    if len(kept) == len(current):
        return False
    save_endpoints(kept, path)
    return True
