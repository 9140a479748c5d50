"""Small GGUF utilities on gguf-py: metadata probes, vocabulary comparison, dequantization."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GGUF_MAGIC = b"GGUF"


class GGUFFormatError(ValueError):
    """Not a GGUF file, or a truncated / corrupt one."""


def check_magic(path: Path) -> None:
    try:
        with path.open("rb") as fh:
            head = fh.read(4)
    except OSError as exc:
        raise GGUFFormatError(f"{path.name}: cannot read the file ({exc.strerror})") from exc
    if head != GGUF_MAGIC:
        raise GGUFFormatError(f"{path.name} is not a GGUF model file (it does not start with the GGUF header)")


def _reader(path: Path) -> Any:
    import gguf

    check_magic(path)
    try:
        return gguf.GGUFReader(str(path), "r")
    except Exception as exc:  # gguf-py raises many types on truncated files
        raise GGUFFormatError(f"{path.name} is a damaged or incomplete GGUF file ({exc})") from exc


def _field_value(reader: Any, key: str) -> Any:
    field = reader.fields.get(key)
    if field is None:
        return None
    return field.contents()


@dataclass(frozen=True)
class VocabInfo:
    model: str | None
    size: int
    digest: str
    architecture: str | None
    bos: int | None
    eos: int | None


def vocab_info(path: Path) -> VocabInfo:
    """Fingerprint the tokenizer metadata, to compare a drafter with its target."""
    reader = _reader(path)
    tokens = _field_value(reader, "tokenizer.ggml.tokens") or []
    h = hashlib.sha256()
    for tok in tokens:
        h.update(str(tok).encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return VocabInfo(
        model=_field_value(reader, "tokenizer.ggml.model"),
        size=len(tokens),
        digest=h.hexdigest(),
        architecture=_field_value(reader, "general.architecture"),
        bos=_field_value(reader, "tokenizer.ggml.bos_token_id"),
        eos=_field_value(reader, "tokenizer.ggml.eos_token_id"),
    )


def compare_vocab(target: VocabInfo, drafter: VocabInfo) -> str | None:
    """None when the drafter can propose tokens for the target, else what differs."""
    if target.model != drafter.model:
        return f"tokenizer type differs (target {target.model}, drafter {drafter.model})"
    if target.size != drafter.size:
        return f"vocabulary size differs (target {target.size} tokens, drafter {drafter.size})"
    if target.digest != drafter.digest:
        return "vocabulary differs (same size, different tokens)"
    return None


def dequantize(src: Path, dst: Path, ftype: str = "F32") -> None:
    """Write ``src`` with every quantized tensor widened to F32 (or F16), metadata kept."""
    import gguf
    import numpy as np
    from gguf.quants import dequantize as deq

    reader = _reader(src)
    arch = _field_value(reader, "general.architecture") or "llama"
    writer = gguf.GGUFWriter(str(dst), arch)
    file_type = gguf.LlamaFileType.ALL_F32 if ftype == "F32" else gguf.LlamaFileType.MOSTLY_F16
    for key, field in reader.fields.items():
        if key.startswith("GGUF.") or key == "general.architecture":
            continue
        if key == "general.file_type":
            writer.add_uint32(key, int(file_type))
            continue
        vtype = field.types[0]
        value = field.contents()
        if vtype == gguf.GGUFValueType.ARRAY:
            writer.add_key_value(key, value, vtype, sub_type=field.types[-1])
        else:
            writer.add_key_value(key, value, vtype)
    for t in reader.tensors:
        data = deq(t.data, t.tensor_type).reshape([int(d) for d in reversed(t.shape)])
        if ftype == "F16" and data.ndim > 1:
            data = data.astype(np.float16)
        else:
            data = data.astype(np.float32)
        writer.add_tensor(t.name, data)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
