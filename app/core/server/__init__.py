"""The local OpenAI-compatible API server over a loaded engine (issue 13)."""

from app.core.server.app import LocalServer, ServedModel, ServedRequest, ServerConfig, is_loopback
from app.core.server.keys import api_key
from app.core.server.protocol import Limits

__all__ = ["Limits", "LocalServer", "ServedModel", "ServedRequest", "ServerConfig", "api_key", "is_loopback"]
