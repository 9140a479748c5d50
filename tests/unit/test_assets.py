"""Which embedded paths are built on first use (the CLI says so only then)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core import assets


def test_needs_preparation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TANDEM_EMBEDDED_DIR", str(tmp_path))
    f32 = "embedded://smollm2/SmolLM2-135M-Instruct.F32.gguf"
    assert assets.needs_preparation(f32)
    assert assets.embedded_status(f32) == (True, "embedded (derived on first use)")
    assert not assets.needs_preparation(f"embedded://smollm2/{assets.SMOLLM2_FILE}")
    assert not assets.needs_preparation("/models/plain.gguf")
    (tmp_path / "SmolLM2-135M-Instruct.F32.gguf").write_bytes(b"GGUF")
    assert not assets.needs_preparation(f32)
    assert assets.embedded_status(f32) == (True, "embedded")
