"""Property-based fuzzing of the local server from its own ``/openapi.json`` (schemathesis): bodies
generated from the three APIs' request schemas, valid and not, reach the real server (a scripted
engine answers, to keep it fast); no answer is a 5xx, and every answer fits the documented schema
of its status. Also: the published document itself."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from app.core.serving import ServedModel
from app.core.serving.schemas import openapi
from tests.integration.scripted_engine import Script
from tests.integration.served import KEY, Served

schema = schemathesis.openapi.from_dict(openapi())


@pytest.fixture(scope="module")
def server() -> Iterator[Served]:
    with Served(ServedModel(Script("A short answer."), "m", None), keepalive_s=60) as s:
        yield s


def test_the_document_describes_the_three_apis(server: Served) -> None:
    doc = httpx.get(f"{server.root}/openapi.json", timeout=30).json()  # public: no key needed
    assert doc["openapi"].startswith("3.1")
    for path, body in (
        ("/v1/chat/completions", "ChatCompletionRequest"),
        ("/v1/responses", "ResponsesRequest"),
        ("/v1/messages", "MessagesRequest"),
    ):
        post = doc["paths"][path]["post"]
        assert post["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(body)
        assert {"200", "400", "401", "503"} <= set(post["responses"])
    assert "messages" in doc["components"]["schemas"]["MessagesRequest"]["required"]


# No health check is suppressed (all of them passed here, also beside a CPU hog). deadline=None:
# each example is an HTTP round trip to the real server, and how long that takes on a shared machine
# says nothing about the answer.
@schema.parametrize()
@settings(max_examples=40, deadline=None)
def test_no_server_error_and_no_answer_outside_the_schema(case: Any, server: Served) -> None:
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {KEY}"}
    case.call_and_validate(
        base_url=server.root, checks=[not_a_server_error, response_schema_conformance], timeout=60
    )
