"""Small GGUF utilities on gguf-py: metadata probes, vocabulary comparison, dequantization."""

from __future__ import annotations

import hashlib
import struct
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
        raise GGUFFormatError(
            f"{path.name} is not a GGUF model file (it does not start with the GGUF header)"
        )


def _reader(path: Path) -> Any:
    import gguf

    check_magic(path)
    try:
        return gguf.GGUFReader(str(path), "r")
    except Exception as exc:  # gguf-py raises many types on truncated files
        raise GGUFFormatError(f"{path.name} is a damaged or incomplete GGUF file ({exc})") from exc


def _field_value(reader: Any, key: str) -> Any:
    field = reader.fields.get(key)
    return None if field is None else field.contents()


# --- a fast header reader ----------------------------------------------------------------------
# gguf-py's reader builds a numpy view per array item: 12 s for a 262k-token vocabulary. Checking
# a pair at load time only needs the key/value section and the tensor table, read here directly.

_SCALAR = {
    0: "<B",
    1: "<b",
    2: "<H",
    3: "<h",
    4: "<I",
    5: "<i",
    6: "<f",
    7: "<?",
    10: "<Q",
    11: "<q",
    12: "<d",
}
_STRING, _ARRAY = 8, 9


class _HeaderEndsEarly(Exception):
    pass


class _Cursor:
    def __init__(self, data: bytes, name: str) -> None:
        self.data = data
        self.pos = 0
        self.name = name

    def take(self, n: int) -> bytes:
        if n < 0 or n > 1 << 40:
            raise GGUFFormatError(f"{self.name} is a damaged GGUF file (implausible length {n})")
        if self.pos + n > len(self.data):
            raise _HeaderEndsEarly
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def unpack(self, fmt: str) -> Any:
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))[0]

    def string(self) -> str:
        n = self.unpack("<Q")
        return self.take(n).decode("utf-8", "surrogateescape")

    def value(self, vtype: int, keep: bool) -> Any:
        if vtype in _SCALAR:
            return self.unpack(_SCALAR[vtype])
        if vtype == _STRING:
            return self.string()
        if vtype == _ARRAY:
            itype = self.unpack("<I")
            count = self.unpack("<Q")
            if itype in _SCALAR:
                size = struct.calcsize(_SCALAR[itype])
                raw = self.take(size * count)
                return list(struct.unpack(f"<{count}{_SCALAR[itype][1]}", raw)) if keep else count
            items = [self.value(itype, keep) for _ in range(count)]
            return items if keep else count
        raise GGUFFormatError(f"{self.name} is a damaged GGUF file (unknown value type {vtype})")


@dataclass(frozen=True)
class GGUFHeader:
    fields: dict[str, Any]
    tensor_count: int
    data_end: int  # bytes the tensor data needs; a shorter file is truncated


_KEEP_ARRAYS = ("tokenizer.ggml.tokens",)
#: small per-layer arrays the memory estimate needs (app.core.catalog.fit)
_KEEP_ARRAY_SUFFIXES = (
    ".attention.head_count_kv",
    ".attention.sliding_window_pattern",
    ".target_layers",  # EAGLE-3 / DFlash drafters (app.core.speculative.detect)
    ".extract_layers",
)


def read_header(path: Path) -> GGUFHeader:
    """Key/values (large arrays only where needed) and the extent of the tensor data."""
    check_magic(path)
    size = path.stat().st_size
    window = 16 << 20
    while True:
        with path.open("rb") as fh:
            head = fh.read(min(size, window))
        try:
            header = _parse_header(head, path.name)
            break
        except _HeaderEndsEarly:
            if window >= size:
                raise GGUFFormatError(
                    f"{path.name} is a damaged or incomplete GGUF file (header ends early)"
                ) from None
            window *= 4
    if size < header.data_end:
        raise GGUFFormatError(
            f"{path.name} is a damaged or incomplete GGUF file ({size} of {header.data_end} bytes present)"
        )
    return header


def _parse_header(data: bytes, name: str) -> GGUFHeader:
    from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType

    cur = _Cursor(data, name)
    cur.take(4)
    version = cur.unpack("<I")
    if version not in (2, 3):
        raise GGUFFormatError(f"{name}: unsupported GGUF version {version}")
    n_tensors = cur.unpack("<Q")
    n_kv = cur.unpack("<Q")
    if n_tensors > 1_000_000 or n_kv > 1_000_000:
        raise GGUFFormatError(f"{name} is a damaged GGUF file (implausible header counts)")
    fields: dict[str, Any] = {}
    for _ in range(n_kv):
        key = cur.string()
        vtype = cur.unpack("<I")
        keep = vtype != _ARRAY or key in _KEEP_ARRAYS or key.endswith(_KEEP_ARRAY_SUFFIXES)
        fields[key] = cur.value(vtype, keep=keep)
    end = 0
    for _ in range(n_tensors):
        tname = cur.string()
        n_dims = cur.unpack("<I")
        if n_dims > 8:
            raise GGUFFormatError(f"{name} is a damaged GGUF file (tensor {tname!r})")
        dims = [cur.unpack("<Q") for _ in range(n_dims)]
        ttype = cur.unpack("<I")
        offset = cur.unpack("<Q")
        try:
            block, type_size = GGML_QUANT_SIZES[GGMLQuantizationType(ttype)]
        except (ValueError, KeyError) as exc:
            raise GGUFFormatError(f"{name}: tensor {tname!r} has unknown type {ttype}") from exc
        elements = 1
        for d in dims:
            elements *= d
        end = max(end, offset + elements // block * type_size)
    align = fields.get("general.alignment", 32)
    if not isinstance(align, int) or isinstance(align, bool) or align <= 0 or align & (align - 1):
        raise GGUFFormatError(
            f"{name} is a damaged GGUF file (general.alignment {align!r} is not a power of two)"
        )
    data_start = (cur.pos + align - 1) // align * align
    return GGUFHeader(fields, n_tensors, data_start + end if n_tensors else cur.pos)


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
    return vocab_from_fields(read_header(path).fields)


def parse_header_bytes(data: bytes, name: str) -> GGUFHeader | None:
    """Parse a header from its first bytes (e.g. fetched with an HTTP range request); None when
    ``data`` ends inside the header (fetch more), GGUFFormatError when it is not a GGUF header."""
    if data[:4] != GGUF_MAGIC:
        raise GGUFFormatError(f"{name} is not a GGUF model file (it does not start with the GGUF header)")
    try:
        return _parse_header(data, name)
    except _HeaderEndsEarly:
        return None


def vocab_from_fields(fields: dict[str, Any]) -> VocabInfo:
    """:func:`vocab_info` from already parsed header fields."""
    tokens = fields.get("tokenizer.ggml.tokens") or []
    h = hashlib.sha256()
    for tok in tokens:
        h.update(str(tok).encode("utf-8", "surrogateescape"))
        h.update(b"\0")
    return VocabInfo(
        model=fields.get("tokenizer.ggml.model"),
        size=len(tokens),
        digest=h.hexdigest(),
        architecture=fields.get("general.architecture"),
        bos=fields.get("tokenizer.ggml.bos_token_id"),
        eos=fields.get("tokenizer.ggml.eos_token_id"),
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
        wide = np.float16 if ftype == "F16" and data.ndim > 1 else np.float32
        data = data.astype(wide)
        writer.add_tensor(t.name, data)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
