"""Serving: the local API server over a loaded engine, and serve commands for vLLM / SGLang / llama-server."""

from app.core.serving.api import LocalServer, ServedModel, ServedRequest, ServerConfig, is_loopback
from app.core.serving.keys import api_key
from app.core.serving.protocol import Limits

__all__ = ["Limits", "LocalServer", "ServedModel", "ServedRequest", "ServerConfig", "api_key", "is_loopback"]
