"""What a server serves: its models (``GET /v1/models``) and the kind of server each says it is,
which decides where Tandem reads the speculation figures from."""

from __future__ import annotations

from dataclasses import dataclass

import httpx

from app.core.engines.loop import engine_loop
from app.core.engines.remote.endpoints import Endpoint
from app.core.engines.remote.errors import RemoteServerError, status_error, transport_error

#: ``owned_by`` of GET /v1/models -> the server kind Tandem knows how to read stats from.
_KINDS = {"llamacpp": "llama.cpp", "vllm": "vllm", "sglang": "sglang"}
#: server kinds that constrain output to a ``response_format``
STRUCTURED_KINDS = frozenset(_KINDS.values())


@dataclass(frozen=True)
class RemoteModel:
    id: str
    owned_by: str = ""


def server_kind(owned_by: str) -> str:
    return _KINDS.get(owned_by.strip().lower(), "openai")


async def models_of(client: httpx.AsyncClient, endpoint: Endpoint) -> list[RemoteModel]:
    """``GET /models`` with ``client`` (on the event loop that uses it)."""
    try:
        r = await client.get("/models")
    except httpx.TransportError as exc:
        raise transport_error(exc, endpoint) from exc
    if r.status_code != 200:
        raise status_error(r, endpoint)
    try:
        data = r.json()
        items = data["data"]
        return [RemoteModel(str(m["id"]), str(m.get("owned_by") or "")) for m in items]
    except (ValueError, KeyError, TypeError) as exc:
        raise RemoteServerError(f"{endpoint.url}: GET /models did not return an OpenAI model list") from exc


def list_models(endpoint: Endpoint, api_key: str | None, timeout_s: float = 30.0) -> list[RemoteModel]:
    """The models an endpoint serves (GET /v1/models), asked from a plain thread on the engine loop."""
    endpoint.check()
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}

    async def ask() -> list[RemoteModel]:
        async with httpx.AsyncClient(
            base_url=endpoint.url, headers=headers, timeout=timeout_s, follow_redirects=False, trust_env=False
        ) as client:
            return await models_of(client, endpoint)

    return engine_loop().run(ask(), timeout=timeout_s + 15.0)
