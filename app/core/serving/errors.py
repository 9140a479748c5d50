"""The error every API layer raises: an HTTP status, a message for the client, and OpenAI's
fields; each API writes it in its own shape (:mod:`~app.core.serving.bodies`)."""

from __future__ import annotations

from app.core.serving.bodies import OpenAIErrorBody


class ApiError(Exception):
    """An error answered in OpenAI's shape ``{"error": {"message", "type", "param", "code"}}``
    (Anthropic's paths answer it in theirs)."""

    def __init__(
        self,
        status: int,
        message: str,
        type_: str = "invalid_request_error",
        param: str | None = None,
        code: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.type = type_
        self.param = param
        self.code = code
        self.headers = headers or {}

    def body(self) -> OpenAIErrorBody:
        return error_body(self.message, self.type, self.param, self.code)


def error_body(
    message: str, type_: str, param: str | None = None, code: str | None = None
) -> OpenAIErrorBody:
    return {"error": {"message": message, "type": type_, "param": param, "code": code}}
