"""``tandem generate --document`` on the real embedded model: a long text's passage with the
answer reaches the model (greedy, it reads the code back), the sources are in the JSON output;
a document that cannot be read is one line and exit 2 before any model loads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from app.devtools.documents import CODE, CODE_QUESTION, text_with_code
from app.devtools.pdf import image_only_pdf_bytes


@pytest.mark.usefixtures("smollm2_q4")
def test_generate_answers_from_the_retrieved_passage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = tmp_path / "vault.txt"
    doc.write_text(text_with_code(), "utf-8")
    argv = ["generate", "--document", str(doc), "--prompt", CODE_QUESTION, "--max-tokens", "24"]
    code = main([*argv, "--temperature", "0", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert [s["filename"] for s in out["sources"]][:1] == ["vault.txt"] and CODE in out["sources"][0]["text"]
    assert out["prompt_tokens"] + 24 <= 2048
    assert CODE in out["text"], out["text"]  # the embedded model reads the code back from the passage


def test_a_document_that_cannot_be_read_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(image_only_pdf_bytes(1))
    assert main(["generate", "--document", str(scan), "--prompt", "hi"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith('tandem: --document "scan.pdf" has no text layer') and "\n" not in err
