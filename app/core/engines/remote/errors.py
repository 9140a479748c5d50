"""The remote engine's failures: one typed :class:`EngineError` per way a server can fail, each
with a hint, and the mapping from what ``httpx`` saw (a transport error, an HTTP status) to them."""

from __future__ import annotations

import json
import ssl
from collections.abc import Iterator
from typing import Any

import httpx

from app.core.engines.base import EngineError, GenerationError, error_message_of
from app.core.engines.remote.endpoints import Endpoint


# --- errors ------------------------------------------------------------------------------------------
class RemoteError(EngineError):
    hint = "Check that the server is running and the endpoint URL is right."


class EndpointUnreachable(RemoteError):
    hint = "Start the server, or check the host name and port of the endpoint."


class TLSFailure(RemoteError):
    hint = (
        "The server's HTTPS certificate is not trusted here. Use a certificate from a trusted "
        "authority, or add your own CA to the system's trust store."
    )


class AuthenticationFailed(RemoteError):
    hint = "Set the key in TANDEM_API_KEY or store it for this endpoint (tandem endpoint-key)."


class RemoteModelNotFound(RemoteError):
    hint = "Pick one of the models the server lists (tandem remote-models --endpoint URL)."


class RemoteTimeout(RemoteError):
    hint = "The server is slow or overloaded; try again, or raise the timeout."


class RemoteServerError(RemoteError):
    hint = "See the server's log for details."


class StreamInterrupted(GenerationError):
    """The stream ended before the answer did; ``partial_text`` is what had arrived."""

    hint = "The partial answer is kept. Check the server (it may have stopped) and try again."

    def __init__(self, message: str, partial_text: str = "") -> None:
        super().__init__(message)
        self.partial_text = partial_text


# --- mapping ---------------------------------------------------------------------------------------------
def _causes(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        yield cur
        cur = cur.__cause__ or cur.__context__


def transport_error(exc: httpx.TransportError, endpoint: Endpoint) -> RemoteError:
    where = endpoint.url
    if isinstance(exc, httpx.TimeoutException):
        return RemoteTimeout(f"{where}: the server did not answer in time ({type(exc).__name__})")
    for cause in _causes(exc):
        if isinstance(cause, ssl.SSLCertVerificationError):
            return TLSFailure(f"{where}: TLS certificate check failed ({cause.verify_message})")
        if isinstance(cause, ssl.SSLError):
            return TLSFailure(f"{where}: TLS handshake failed ({cause.reason or cause})")
        if isinstance(cause, ConnectionRefusedError):
            return EndpointUnreachable(f"{where}: connection refused (nothing listens on that port)")
    text = str(exc) or type(exc).__name__
    if "Name or service not known" in text or "nodename nor servname" in text or "getaddrinfo" in text:
        return EndpointUnreachable(f"{where}: cannot resolve the host name {endpoint.host!r}")
    if isinstance(exc, httpx.ConnectError):
        return EndpointUnreachable(f"{where}: cannot connect ({text})")
    return RemoteError(f"{where}: network error ({text})")


def _error_message(response: httpx.Response) -> str:
    try:
        body: Any = json.loads(response.read() or b"null")
    except (ValueError, httpx.HTTPError):
        body = None
    msg = error_message_of(body)
    if msg:
        return msg
    try:
        text = response.text
    except httpx.HTTPError:
        text = ""
    return " ".join(text.split())[:300] or response.reason_phrase


def status_error(response: httpx.Response, endpoint: Endpoint, model: str = "") -> RemoteError:
    code = response.status_code
    msg = _error_message(response)
    if code in (401, 403):
        what = "the API key was refused" if code == 401 else "this key may not use this server"
        return AuthenticationFailed(f"{endpoint.url}: {code} {what} ({msg})")
    if code == 404:
        if model:
            return RemoteModelNotFound(f"{endpoint.url}: model {model!r} not found ({msg})")
        return RemoteError(
            f"{endpoint.url}: 404, no OpenAI API here ({msg})",
            "Check the path: most servers answer under /v1, e.g. http://host:8000/v1",
        )
    return RemoteServerError(f"{endpoint.url}: server error {code} ({msg})")
