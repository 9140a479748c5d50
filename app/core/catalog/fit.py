"""Will it fit? A memory estimate for a target (+ drafter) at a context length.

total = weights + KV cache + drafter + overhead, compared with the memory this machine has
available now (``psutil.virtual_memory().available``; on Apple silicon that is the unified memory
the GPU uses too).

- weights: the model file sizes (split parts summed); llama.cpp maps them whole.
- KV cache, from the GGUF header: for each layer, KV heads x (key dim + value dim) x bytes per
  element of the cache type x the tokens it keeps: the context, or the window for sliding-window
  layers. For SmolLM2 135M at 4096 tokens in f16: 30 x 3 x (64 + 64) x 2 x 4096 = 94,371,840 bytes.
- drafter: its file plus its own KV cache at the same context.
- overhead (stated, not measured): :data:`OVERHEAD_FIXED` for compute buffers and the runtime plus
  :data:`OVERHEAD_FRACTION` of the weights.

Verdict: ``fits`` when the total is at most :data:`TIGHT_FRACTION` of the available memory,
``tight`` up to all of it, ``too-large`` beyond; ``unknown`` when the weights are unknown.
"""

from __future__ import annotations

import functools
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from app.core import gguf_tools
from app.core.units import human_bytes

Verdict = Literal["fits", "tight", "too-large", "unknown"]

#: bytes per cached element for llama.cpp's KV cache types (block formats: block bytes / 32)
CACHE_TYPE_BYTES: dict[str, float] = {
    "f32": 4.0,
    "f16": 2.0,
    "bf16": 2.0,
    "q8_0": 34 / 32,
    "q5_1": 24 / 32,
    "q5_0": 22 / 32,
    "q4_1": 20 / 32,
    "q4_0": 18 / 32,
}
OVERHEAD_FIXED = 256 * 1024 * 1024
OVERHEAD_FRACTION = 0.05
TIGHT_FRACTION = 0.85
OVERHEAD_RULE = "256 MiB (compute buffers, runtime) + 5% of the weights"

#: architectures whose GGUF carries a sliding window but no per-layer pattern: every n-th layer
#: is global, the others slide (as llama.cpp hard-codes them)
_SWA_EVERY = {"gemma3": 6, "gemma2": 2, "cohere2": 4}
_SPLIT = re.compile(r"^(?P<stem>.+)-(?P<n>\d{5})-of-(?P<total>\d{5})\.gguf$", re.IGNORECASE)


class FitError(ValueError):
    """The estimate cannot be made (no file, not a GGUF...); the message is for the user."""


@dataclass(frozen=True)
class KVShape:
    """What the KV cache needs per token, per layer."""

    architecture: str
    kv_heads: tuple[int, ...]  # per layer
    key_length: int
    value_length: int
    window: int | None = None
    swa: tuple[bool, ...] = ()  # per layer: True = sliding-window layer
    swa_key_length: int | None = None
    swa_value_length: int | None = None

    @property
    def layers(self) -> int:
        return len(self.kv_heads)

    def bytes(self, ctx: int, cache_type: str = "f16") -> int:
        per = cache_bytes(cache_type)
        total = 0.0
        for i, heads in enumerate(self.kv_heads):
            sliding = bool(self.swa and i < len(self.swa) and self.swa[i] and self.window)
            tokens = min(ctx, self.window) if sliding and self.window else ctx
            k = self.swa_key_length if sliding and self.swa_key_length else self.key_length
            v = self.swa_value_length if sliding and self.swa_value_length else self.value_length
            total += heads * (k + v) * per * tokens
        return int(total)


def cache_bytes(cache_type: str) -> float:
    try:
        return CACHE_TYPE_BYTES[cache_type.lower()]
    except KeyError:
        raise FitError(
            f"unknown KV cache type {cache_type!r}; use one of {', '.join(CACHE_TYPE_BYTES)}"
        ) from None


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def kv_shape(fields: dict[str, Any], name: str = "model") -> KVShape:
    """The KV geometry a GGUF header declares."""
    arch = fields.get("general.architecture")
    if not isinstance(arch, str):
        raise FitError(f"{name}: the GGUF header names no architecture")
    p = f"{arch}."
    layers = _int(fields.get(p + "block_count"))
    heads = fields.get(p + "attention.head_count")
    kv = fields.get(p + "attention.head_count_kv", heads)
    emb = _int(fields.get(p + "embedding_length"))
    if not layers:
        raise FitError(f"{name}: the GGUF header has no {p}block_count")
    head_list = _per_layer(heads, layers)
    kv_list = _per_layer(kv, layers) or head_list
    if not kv_list:
        raise FitError(f"{name}: the GGUF header has no attention head counts")
    key = _int(fields.get(p + "attention.key_length"))
    if key is None:
        first = next((h for h in head_list if h), 0)
        if not emb or not first:
            raise FitError(f"{name}: the GGUF header gives no head dimension")
        key = emb // first
    value = _int(fields.get(p + "attention.value_length")) or key
    window = _int(fields.get(p + "attention.sliding_window"))
    swa: tuple[bool, ...] = ()
    if window:
        pattern = fields.get(p + "attention.sliding_window_pattern")
        if isinstance(pattern, list) and pattern:
            swa = tuple(bool(x) for x in pattern[:layers])
        elif (n := _int(pattern) or _SWA_EVERY.get(arch)) is not None:
            swa = tuple((i + 1) % n != 0 for i in range(layers))
        else:  # a window with no pattern: every layer slides (e.g. Mistral 7B v0.1)
            swa = (True,) * layers
    return KVShape(
        architecture=arch,
        kv_heads=tuple(kv_list),
        key_length=key,
        value_length=value,
        window=window,
        swa=swa,
        swa_key_length=_int(fields.get(p + "attention.key_length_swa")),
        swa_value_length=_int(fields.get(p + "attention.value_length_swa")),
    )


def _per_layer(v: Any, layers: int) -> list[int]:
    if isinstance(v, list):
        return [int(x) for x in v[:layers]]
    if _int(v) is not None:
        return [int(v)] * layers
    return []


@functools.lru_cache(maxsize=64)
def _shape_of(path: str, _mtime: float, _size: int) -> KVShape:
    header = gguf_tools.read_header(Path(path))
    return kv_shape(header.fields, Path(path).name)


def file_kv_shape(path: Path) -> KVShape:
    """The KV shape of a local GGUF (memoized per path, mtime and size)."""
    try:
        st = path.stat()
    except OSError as exc:
        raise FitError(f"{path}: {exc.strerror or exc}") from None
    try:
        return _shape_of(str(path), st.st_mtime, st.st_size)
    except gguf_tools.GGUFFormatError as exc:
        raise FitError(str(exc)) from None


def weights_bytes(path: Path) -> int:
    """The file's size, or the sum of every part of a split GGUF named by its first part."""
    m = _SPLIT.match(path.name)
    try:
        if m is None:
            return path.stat().st_size
        total = int(m["total"])
        return sum(
            (path.parent / f"{m['stem']}-{k:05d}-of-{total:05d}.gguf").stat().st_size
            for k in range(1, total + 1)
        )
    except OSError as exc:
        raise FitError(f"{path}: {exc.strerror or exc}") from None


def folder_weights_bytes(folder: Path) -> int | None:
    """The weights of a model folder (MLX): its ``*.safetensors`` files; None when it has none."""
    try:
        sizes = [p.stat().st_size for p in folder.glob("*.safetensors") if p.is_file()]
    except OSError as exc:
        raise FitError(f"{folder}: {exc.strerror or exc}") from None
    return sum(sizes) if sizes else None


def available_memory() -> int:
    import psutil

    return int(psutil.virtual_memory().available)


@dataclass
class FitEstimate:
    weights_bytes: int | None
    kv_bytes: int | None
    drafter_bytes: int
    overhead_bytes: int
    total_bytes: int | None
    available_bytes: int
    verdict: Verdict
    ctx: int
    cache_type: str = "f16"
    overhead_rule: str = OVERHEAD_RULE
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def tooltip(self) -> str:
        """One line per component, for hover texts (numbers only; the GUI translates labels)."""
        return "\n".join(
            f"{k}: {human_bytes(v) if isinstance(v, int) else '?'}"
            for k, v in (
                ("weights", self.weights_bytes),
                ("KV cache", self.kv_bytes),
                ("drafter", self.drafter_bytes),
                ("overhead", self.overhead_bytes),
                ("total", self.total_bytes),
                ("available", self.available_bytes),
            )
        )


def estimate(
    weights: int | None,
    kv: int | None,
    *,
    ctx: int,
    drafter: int = 0,
    available: int | None = None,
    cache_type: str = "f16",
    notes: list[str] | None = None,
) -> FitEstimate:
    """Add the parts up and compare with the available memory."""
    avail = available_memory() if available is None else available
    overhead = OVERHEAD_FIXED + int(OVERHEAD_FRACTION * (weights or 0))
    notes = list(notes or [])
    if weights is None:
        return FitEstimate(None, kv, drafter, overhead, None, avail, "unknown", ctx, cache_type, notes=notes)
    if kv is None:
        notes.append("KV cache unknown (no GGUF header at hand); counted as 0")
    total = weights + (kv or 0) + drafter + overhead
    verdict: Verdict = (
        "fits" if total <= TIGHT_FRACTION * avail else "tight" if total <= avail else "too-large"
    )
    return FitEstimate(weights, kv, drafter, overhead, total, avail, verdict, ctx, cache_type, notes=notes)


def estimate_files(
    target: Path,
    *,
    ctx: int,
    drafter: Path | None = None,
    cache_type: str = "f16",
    available: int | None = None,
) -> FitEstimate:
    """The estimate for local GGUF files (the target's header gives the KV cache)."""
    if not target.is_file():
        raise FitError(f"{target}: no such file")
    weights = weights_bytes(target)
    kv = file_kv_shape(target).bytes(ctx, cache_type)
    dbytes = 0
    if drafter is not None:
        if not drafter.is_file():
            raise FitError(f"{drafter}: no such file")
        dbytes = weights_bytes(drafter) + file_kv_shape(drafter).bytes(ctx, cache_type)
    return estimate(weights, kv, ctx=ctx, drafter=dbytes, available=available, cache_type=cache_type)


#: typical bits per weight of llama.cpp / MLX quantizations, for an estimate before any listing
#: is known (llama.cpp's quantize table; an ``UD-`` dynamic quant counts as its base type)
BITS_PER_WEIGHT = {
    "F32": 32.0, "F16": 16.0, "BF16": 16.0, "Q8_0": 8.5, "Q6_K": 6.56, "Q5_K_M": 5.69,
    "Q5_K_S": 5.54, "Q5_1": 6.0, "Q5_0": 5.5, "Q4_K_M": 4.85, "Q4_K_S": 4.58, "Q4_1": 5.0,
    "Q4_0": 4.55, "IQ4_NL": 4.5, "IQ4_XS": 4.25, "MXFP4": 4.25, "Q3_K_L": 4.27, "Q3_K_M": 3.91,
    "Q3_K_S": 3.5, "IQ3_XXS": 3.06, "Q2_K": 2.96, "IQ2_M": 2.7, "8BIT": 8.5, "6BIT": 6.5,
    "5BIT": 5.5, "4BIT": 4.5, "3BIT": 3.5,
}  # fmt: skip


def estimated_weights(size_in_billions: float, quantization: str) -> int | None:
    """Weights bytes from the parameter count and the quantization's typical bits per weight."""
    q = quantization.upper().removeprefix("UD-").replace("_XL", "_M")
    bpw = BITS_PER_WEIGHT.get(q)
    return int(size_in_billions * 1e9 * bpw / 8) if bpw else None


def largest_that_fits(estimates: dict[str, FitEstimate]) -> str | None:
    """The quantization with the largest weights whose verdict is ``fits`` (None if none does)."""
    ok = [(e.weights_bytes or 0, q) for q, e in estimates.items() if e.verdict == "fits"]
    return max(ok)[1] if ok else None


#: the smallest context an automatic choice goes down to, and the one used when a model says none
MIN_AUTO_CONTEXT = 4096


def trained_context(path: Path) -> int:
    """The context length a GGUF model was trained for (``<arch>.context_length``), 0 if unsaid."""
    try:
        fields = gguf_tools.read_header(path).fields
    except (OSError, gguf_tools.GGUFFormatError):
        return 0
    arch = fields.get("general.architecture")
    return (_int(fields.get(f"{arch}.context_length")) or 0) if isinstance(arch, str) else 0


def fitted_context(
    target: Path, drafter: Path | None = None, available: int | None = None
) -> tuple[int, str]:
    """The context a launch gets when none was asked: the model's trained length when the memory
    estimate says it ``fits``, else the largest power-of-two fraction of it that does (not below
    :data:`MIN_AUTO_CONTEXT`), with one line saying so ("" when the trained length fits)."""
    trained = trained_context(target)
    if trained <= 0:
        return MIN_AUTO_CONTEXT, ""
    ctx = trained
    while True:
        try:
            verdict = estimate_files(target, ctx=ctx, drafter=drafter, available=available).verdict
        except FitError:
            return min(trained, MIN_AUTO_CONTEXT), ""
        if verdict in ("fits", "unknown") or ctx // 2 < MIN_AUTO_CONTEXT:
            break
        ctx //= 2
    if ctx == trained:
        return ctx, ""
    return ctx, (
        f"context: {ctx} tokens (the model was trained for {trained}; more does not fit in the memory "
        "available now; ask for another with --ctx or the launch dialog)"
    )
