"""Memory fit on the real embedded models' GGUF headers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from app.core.catalog import fit

KEYS = {
    "weights_bytes",
    "kv_bytes",
    "drafter_bytes",
    "overhead_bytes",
    "total_bytes",
    "available_bytes",
    "verdict",
}


def test_smollm2_f32_kv_cache_is_what_the_header_implies(
    smollm2_f32: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fit", "--model-path", str(smollm2_f32), "--ctx", "4096", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= KEYS
    # 30 layers x 3 KV heads x 64 dims x 2 (K and V) x 2 bytes (f16) x 4096 tokens
    assert out["kv_bytes"] == 30 * 3 * 64 * 2 * 2 * 4096 == 94_371_840
    assert out["weights_bytes"] == smollm2_f32.stat().st_size
    assert out["drafter_bytes"] == 0
    assert out["total_bytes"] == sum(out[k] for k in ("weights_bytes", "kv_bytes", "overhead_bytes"))
    assert out["overhead_bytes"] == fit.OVERHEAD_FIXED + int(0.05 * out["weights_bytes"])
    assert out["verdict"] in {"fits", "tight", "too-large"}
    assert out["available_bytes"] > 0


def test_cache_type_and_context_scale_the_kv_cache(smollm2_f32: Path, smollm2_q4: Path) -> None:
    shape = fit.file_kv_shape(smollm2_f32)
    assert shape.layers == 30 and set(shape.kv_heads) == {3} and shape.key_length == 64
    assert shape.bytes(8192) == 2 * shape.bytes(4096)
    assert shape.bytes(4096, "q8_0") == int(30 * 3 * 128 * 4096 * 34 / 32)
    # with the Q4_1 drafter: its file plus its own KV cache at the same context
    est = fit.estimate_files(smollm2_f32, ctx=4096, drafter=smollm2_q4, available=10**12)
    assert est.drafter_bytes == smollm2_q4.stat().st_size + 94_371_840


def test_sliding_window_layers_count_as_the_window(gemma3_q4: Path) -> None:
    shape = fit.file_kv_shape(gemma3_q4)
    assert shape.architecture == "gemma3" and shape.window == 512 and shape.layers == 18
    assert sum(shape.swa) == 15  # every 6th layer is global
    per_token_layer = 1 * (256 + 256) * 2
    assert shape.bytes(4096) == 3 * per_token_layer * 4096 + 15 * per_token_layer * 512
    # below the window every layer keeps the whole context
    assert shape.bytes(256) == 18 * per_token_layer * 256


def test_verdicts() -> None:
    gib = 1 << 30
    assert fit.estimate(2 * gib, gib // 2, ctx=4096, available=8 * gib).verdict == "fits"
    assert fit.estimate(6 * gib, gib, ctx=4096, available=8 * gib).verdict == "tight"
    assert fit.estimate(9 * gib, 0, ctx=4096, available=8 * gib).verdict == "too-large"
    unknown = fit.estimate(None, None, ctx=4096, available=8 * gib)
    assert unknown.verdict == "unknown" and unknown.total_bytes is None
    estimates = {
        "Q4_K_M": fit.estimate(4 * gib, 0, ctx=1, available=16 * gib),
        "Q8_0": fit.estimate(8 * gib, 0, ctx=1, available=16 * gib),
        "F16": fit.estimate(15 * gib, 0, ctx=1, available=16 * gib),
    }
    assert fit.largest_that_fits(estimates) == "Q8_0"


def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"not a model at all")
    assert main(["fit", "--model-path", str(junk), "--json"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "tandem: junk.gguf is not a GGUF model file (it does not start with the GGUF header)"
    assert main(["fit", "--model-path", str(junk), "--cache-type", "q3"]) == 2
    assert "unknown KV cache type 'q3'" in capsys.readouterr().err
    assert main(["fit"]) == 2
    assert "give either a registry NAME or --model-path" in capsys.readouterr().err


def test_registry_name_uses_the_cached_file_or_an_estimate(
    smollm2_q4: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fit", "smollm2-135m-instruct", "--quant", "Q4_1", "--drafter", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["weights_bytes"] == smollm2_q4.stat().st_size
    assert out["kv_bytes"] == 94_371_840
    assert out["drafter_bytes"] == smollm2_q4.stat().st_size + 94_371_840
    assert main(["fit", "qwen3", "--size", "8", "--quant", "Q4_K_M", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["weights_bytes"] == int(8e9 * 4.85 / 8)  # estimated: nothing listed or downloaded
    assert out["kv_bytes"] is None and any("estimated" in n for n in out["notes"])
