"""``tandem models``: embedded models built on first use are not "cached", and the table has a
header and columns that fit a terminal, with the full detail in ``--json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import cache as cli_cache
from app.cli import main
from app.core import assets


@pytest.fixture
def fresh_embedded_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An embedded-models folder where nothing has been prepared yet (as on a clean install)."""
    folder = tmp_path / "embedded"
    folder.mkdir()
    monkeypatch.setenv("TANDEM_EMBEDDED_DIR", str(folder))
    return folder


def _smollm2(data: list[dict[str, Any]]) -> dict[str, Any]:
    return next(f for f in data if f["name"] == "smollm2-135m-instruct")["specs"][0]


def test_derived_f32_is_embedded_until_prepared(
    fresh_embedded_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f32 = "embedded://smollm2/SmolLM2-135M-Instruct.F32.gguf"
    assert assets.needs_preparation(f32)
    assert main(["models", "--json"]) == 0
    spec = _smollm2(json.loads(capsys.readouterr().out))
    assert spec["quantizations"] == {"Q4_1": "cached", "F32": "embedded"}
    assert spec["details"]["quantizations"]["F32"]["note"] == "embedded, prepared on first use"
    assert spec["draft_quantizations"] == {"Q4_1": "cached"}  # shipped in the wheel: really there

    assert main(["models"]) == 0
    table = capsys.readouterr().out
    assert "F32:embedded, prepared on first use" in " ".join(table.split())
    assert "F32:cached" not in table

    (fresh_embedded_dir / "SmolLM2-135M-Instruct.F32.gguf").write_bytes(b"GGUF")  # prepared now
    assert not assets.needs_preparation(f32)
    assert main(["models", "--json"]) == 0
    assert _smollm2(json.loads(capsys.readouterr().out))["quantizations"]["F32"] == "cached"


def test_table_has_a_header_and_fits_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["MODEL", "FORMAT", "SIZE", "HUB", "DRAFTER", "QUANTIZATIONS"]
    assert max(len(line) for line in lines) <= cli_cache.TABLE_WIDTH
    e2b = next(line for line in lines if line.startswith("gemma-4 ") and " E2B " in line)
    assert e2b.split() == ["gemma-4", "gguf", "E2B", "huggingface", "0/3", "cached", "0/21", "cached"]
    assert "IQ4_NL" not in "\n".join(lines)  # 21 quantizations are summarised, not listed


def test_summary_names_what_is_on_disk() -> None:
    statuses = {f"Q{i}": "absent" for i in range(20)} | {"Q4_K_M": "cached", "Q8_0": "partial"}
    details = {"Q8_0": {"bytes": 50, "total": 200}}
    assert cli_cache._summary(statuses, details) == "1/22 cached: Q4_K_M; Q8_0:partial 25%"
    assert cli_cache._summary({"F16": "cached"}, {"F16": {"source": "hub-cache"}}) == "F16:cached(hub)"
