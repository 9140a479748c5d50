"""Documents on the local API server through the real ``openai`` and ``anthropic`` clients, on the
real SmolLM2 and llama.cpp: OpenAI ``file`` parts, Responses ``input_file`` parts and Anthropic
``document`` blocks; a long text is retrieved from (the passage with the answer reaches the
engine and the prompt fits the context), a short one goes in whole, and every answer lists its
``tandem.sources``; a broken PDF, a PDF without a text layer and a file id are a 400 each, in the
API's own error shape."""

from __future__ import annotations

import base64
from typing import Any

import anthropic
import openai
import pytest

from app.core.documents.extract import read_document
from app.core.documents.grounding import ground_to_fit
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.devtools.documents import CODE, CODE_QUESTION, CODE_SENTENCE, text_with_code
from app.devtools.pdf import image_only_pdf_bytes, pdf_bytes
from tests.integration.served import Served, q4_engine, served_model

__all__ = ["q4_engine"]  # fixture

PAGES = [
    "Tandem drafts tokens with a small model and verifies them in one pass of the target.",
    "The harbour opens at seven; the ferry to the island leaves at nine from pier four.",
]


def _url(data: bytes, mime: str) -> str:
    return f"data:{mime};base64," + base64.b64encode(data).decode()


def _tandem(body: Any) -> dict[str, Any]:
    extra = body.model_extra or {}
    found: dict[str, Any] = extra["tandem"]
    return found


def test_a_long_text_is_retrieved_from_and_the_prompt_fits(q4_engine: LlamaCppEngine) -> None:
    text = text_with_code()
    with Served(served_model(q4_engine)) as s:
        reply = s.openai().chat.completions.create(
            model="smollm2",
            max_tokens=8,
            messages=[
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "file",
                            "file": {"file_data": _url(text.encode(), "text/plain"), "filename": "vault.txt"},
                        },
                        {"type": "text", "text": CODE_QUESTION},
                    ],
                }
            ],
        )
    sources = _tandem(reply)["sources"]
    assert sources and sources[0]["filename"] == "vault.txt" and CODE in sources[0]["text"], sources
    assert sources[0]["page"] is None and not sources[0].get("whole")
    assert reply.usage is not None and reply.usage.prompt_tokens + 8 <= q4_engine.n_ctx
    # the prompt the engine read is the grounded one: the same messages measure the same
    document = read_document("vault.txt", text.encode())
    mine = ground_to_fit(
        [{"role": "user", "content": CODE_QUESTION, "documents": [document.name]}],
        {document.name: document},
        q4_engine.n_ctx,
        8,
        lambda m: q4_engine.count_prompt_tokens(m),
    )
    assert CODE_SENTENCE in mine.messages[0]["content"]
    assert q4_engine.count_prompt_tokens(mine.messages) == reply.usage.prompt_tokens


def test_a_short_pdf_goes_in_whole_in_the_responses_api(q4_engine: LlamaCppEngine) -> None:
    pdf = pdf_bytes(PAGES, title="Harbour")
    with Served(served_model(q4_engine)) as s:
        reply = s.openai().responses.create(
            model="smollm2",
            max_output_tokens=16,
            input=[
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "input_file",
                            "file_data": _url(pdf, "application/pdf"),
                            "filename": "harbour.pdf",
                        },
                        {"type": "input_text", "text": "When does the ferry leave?"},
                    ],
                }
            ],
        )
        streamed = list(
            s.openai().chat.completions.create(
                model="smollm2",
                max_tokens=4,
                stream=True,
                messages=[
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "file",
                                "file": {"file_data": _url(pdf, "application/pdf"), "filename": "h.pdf"},
                            },
                            {"type": "text", "text": "When does the ferry leave?"},
                        ],
                    }
                ],
            )
        )
    sources = _tandem(reply)["sources"]
    assert [(x["filename"], x["page"], x.get("whole")) for x in sources] == [("harbour.pdf", None, True)]
    assert "Tandem drafts tokens" in sources[0]["text"]
    assert reply.usage is not None and reply.usage.input_tokens > 40  # both pages went in
    final = [c for c in streamed if (c.model_extra or {}).get("tandem")]
    assert final and final[-1].model_extra is not None
    assert final[-1].model_extra["tandem"]["sources"][0]["filename"] == "h.pdf"


def test_anthropic_document_blocks_base64_pdf_and_text(q4_engine: LlamaCppEngine) -> None:
    pdf = pdf_bytes(PAGES)
    with Served(served_model(q4_engine)) as s:
        reply = s.anthropic().messages.create(
            model="smollm2",
            max_tokens=8,
            messages=[
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "document",
                            "title": "harbour.pdf",
                            "source": {
                                "type": "base64",
                                "media_type": "application/pdf",
                                "data": base64.b64encode(pdf).decode(),
                            },
                        },
                        {
                            "type": "document",
                            "source": {"type": "text", "media_type": "text/plain", "data": "Pier four."},
                        },
                        {"type": "text", "text": "Where does the ferry leave from?"},
                    ],
                }
            ],
        )
    sources = _tandem(reply)["sources"]
    assert [x["filename"] for x in sources] == ["harbour.pdf", "document-2.txt"]


BROKEN = pdf_bytes(PAGES)[:300]


@pytest.mark.parametrize(
    ("data", "said"),
    [(BROKEN, "not a readable PDF"), (image_only_pdf_bytes(2), "no text layer")],
    ids=["broken", "no-text"],
)
def test_unreadable_pdfs_are_a_400_in_each_api(q4_engine: LlamaCppEngine, data: bytes, said: str) -> None:
    url = _url(data, "application/pdf")
    with Served(served_model(q4_engine)) as s:
        with pytest.raises(openai.BadRequestError) as chat:
            s.openai().chat.completions.create(
                model="smollm2",
                max_tokens=4,
                messages=[
                    {
                        "role": "user",
                        "content": [{"type": "file", "file": {"file_data": url, "filename": "a.pdf"}}],
                    }
                ],
            )
        with pytest.raises(openai.BadRequestError) as responses:
            s.openai().responses.create(
                model="smollm2",
                input=[
                    {
                        "role": "user",
                        "content": [{"type": "input_file", "file_data": url, "filename": "a.pdf"}],
                    }
                ],
            )
        with pytest.raises(anthropic.BadRequestError) as messages:
            s.anthropic().messages.create(
                model="smollm2",
                max_tokens=4,
                messages=[
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "document",
                                "title": "a.pdf",
                                "source": {
                                    "type": "base64",
                                    "media_type": "application/pdf",
                                    "data": base64.b64encode(data).decode(),
                                },
                            }
                        ],
                    }
                ],
            )
    for error in (chat.value, responses.value):
        body = error.response.json()["error"]
        assert said in body["message"] and body["code"] == "invalid_document", body
        assert "\n" not in body["message"]
    body = messages.value.response.json()
    assert body["type"] == "error" and said in body["error"]["message"], body


def test_a_file_id_is_refused_with_what_to_send(q4_engine: LlamaCppEngine) -> None:
    with Served(served_model(q4_engine)) as s, pytest.raises(openai.BadRequestError) as found:
        s.openai().chat.completions.create(
            model="smollm2",
            max_tokens=4,
            messages=[{"role": "user", "content": [{"type": "file", "file": {"file_id": "file-abc"}}]}],
        )
    assert "file_data" in found.value.response.json()["error"]["message"]
