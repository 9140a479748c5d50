"""The fast GGUF header reader against gguf-py's own reader, on the real embedded files."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.gguf_tools import GGUFFormatError, compare_vocab, read_header, vocab_info


def test_header_matches_gguf_py(smollm2_q4: Path) -> None:
    import gguf

    ours = read_header(smollm2_q4).fields
    ref = gguf.GGUFReader(str(smollm2_q4), "r")
    for key in (
        "general.architecture",
        "tokenizer.ggml.model",
        "llama.context_length",
        "tokenizer.ggml.bos_token_id",
    ):
        assert ours[key] == ref.fields[key].contents()
    assert ours["tokenizer.ggml.tokens"] == ref.fields["tokenizer.ggml.tokens"].contents()
    assert read_header(smollm2_q4).tensor_count == len(ref.tensors)


def test_vocab_comparison(smollm2_q4: Path, smollm2_f32: Path, gemma3_q4: Path) -> None:
    assert compare_vocab(vocab_info(smollm2_f32), vocab_info(smollm2_q4)) is None
    diff = compare_vocab(vocab_info(smollm2_q4), vocab_info(gemma3_q4))
    assert diff is not None and "differs" in diff


def test_truncation_is_detected_anywhere(tmp_path: Path, smollm2_q4: Path) -> None:
    data = smollm2_q4.read_bytes()
    for cut in (3, 100, 2_000_000, len(data) - 1):
        bad = tmp_path / f"cut{cut}.gguf"
        bad.write_bytes(data[:cut])
        with pytest.raises(GGUFFormatError):
            read_header(bad)


def _minimal_gguf(path: Path, alignment: object, vtype: int) -> Path:
    import struct

    key = b"general.alignment"
    body = struct.pack("<Q", len(key)) + key + struct.pack("<I", vtype)
    if vtype == 8:  # string
        raw = str(alignment).encode()
        body += struct.pack("<Q", len(raw)) + raw
    else:
        body += struct.pack("<I", int(alignment))  # type: ignore[call-overload]
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + body)
    return path


def test_bad_alignment_is_a_format_error(tmp_path: Path) -> None:
    for i, (value, vtype) in enumerate([(0, 4), (24, 4), ("32", 8)]):
        with pytest.raises(GGUFFormatError, match=r"general\.alignment"):
            read_header(_minimal_gguf(tmp_path / f"a{i}.gguf", value, vtype))
    assert read_header(_minimal_gguf(tmp_path / "ok.gguf", 32, 4)).tensor_count == 0
