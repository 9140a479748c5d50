"""The local server's key check: an ASGI middleware in front of every route."""

from __future__ import annotations

from collections.abc import Callable

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from app.core.serving import messages_api as M
from app.core.serving import protocol as P
from app.core.serving.keys import matches


def is_messages_path(path: str) -> bool:
    """Requests answered in Anthropic's shapes (errors included)."""
    return path.startswith("/v1/messages")


class Auth:
    """ASGI middleware: every HTTP request needs the key (checked before the body is read), as
    ``Authorization: Bearer <key>`` or (Anthropic's clients) ``x-api-key: <key>``."""

    def __init__(self, app: ASGIApp, key: Callable[[], str]) -> None:
        self.app = app
        self.key = key

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        public = scope.get("method") == "GET" and scope.get("path") == "/openapi.json"
        if scope["type"] != "http" or scope.get("method") == "OPTIONS" or public:
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        header = headers.get(b"authorization", b"").decode("latin-1")
        scheme, _, given = header.partition(" ")
        bearer = scheme.lower() == "bearer" and matches(given.strip(), self.key())
        x_key = headers.get(b"x-api-key")
        if not bearer and not (x_key is not None and matches(x_key.decode("latin-1").strip(), self.key())):
            shown = header or x_key is not None
            message = (
                "Invalid API key."
                if shown
                else "Missing API key: send 'Authorization: Bearer <key>' or 'x-api-key: <key>'."
            )
            body = (
                M.error_body(401, message)
                if is_messages_path(str(scope.get("path", "")))
                else P.error_body(message, "invalid_request_error", None, "invalid_api_key")
            )
            response = JSONResponse(body, status_code=401, headers={"WWW-Authenticate": "Bearer"})
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
