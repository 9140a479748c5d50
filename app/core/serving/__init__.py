"""Serving is HTTP only: the local OpenAI / Anthropic server (routes, key check, admission, each
API's parser, answer and stream encoder and error shape) over a served model and its engine pool
(:mod:`app.core.pool`), on the request layer (:mod:`app.core.requests`); and the serve commands
that start vLLM, SGLang or llama-server with the registry's drafter."""

from app.core.serving.api import LocalServer, ServedModel, ServedRequest, ServerConfig, is_loopback
from app.core.serving.keys import api_key
from app.core.serving.protocol import Limits

__all__ = ["Limits", "LocalServer", "ServedModel", "ServedRequest", "ServerConfig", "api_key", "is_loopback"]
