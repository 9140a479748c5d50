"""`tandem fit` on the embedded SmolLM2 F32 before it is prepared.

The F32 file is derived from the shipped Q4_1 on first use; until then its KV cache comes from the
Q4_1 header (same layers, KV heads and head dims): 30 x 3 x 64 x 2 (K and V) x 2 bytes x ctx.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main


def test_fit_reports_the_header_kv_cache_before_the_f32_file_exists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TANDEM_EMBEDDED_DIR", str(tmp_path / "not-prepared"))  # no derived F32 here
    assert main(["fit", "smollm2-135m-instruct", "--quant", "F32", "--ctx", "4096", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["kv_bytes"] == 30 * 3 * 64 * 2 * 2 * 4096
    assert out["verdict"] in ("fits", "tight", "too-large")
    assert any("another quantization" in n for n in out["notes"])
    assert not (tmp_path / "not-prepared").exists() or not any((tmp_path / "not-prepared").iterdir())
