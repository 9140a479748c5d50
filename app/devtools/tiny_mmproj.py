"""Write a tiny random-weight Gemma 4 vision projector (``mmproj`` GGUF, projector ``gemma4v``).

    python -m app.devtools.tiny_mmproj --out DIR [--projection-dim N] [--seed N]

produces ``DIR/gemma4-tiny-mmproj.gguf`` (architecture ``clip``, ``general.type`` ``mmproj``, 0.4 MB)
in well under a second with nothing but ``gguf`` and ``numpy``. It gives the tiny Gemma 4 target of
:mod:`~app.devtools.tiny_gemma4` (hidden 128) eyes: llama.cpp's ``mtmd`` loads it as the target's projector,
encodes an image into ``n`` embeddings 128 wide and feeds them to the target between ``<|image>`` and
``<image|>``.

Where the layout comes from (read, not copied):

- metadata: what llama.cpp's converter writes for an mmproj (``MmprojModel.set_gguf_parameters``:
  ``clip.has_vision_encoder``, ``clip.vision.projection_dim`` = the text model's hidden size,
  ``image_size``, ``patch_size``, ``embedding_length``, ``feed_forward_length``, ``block_count``,
  ``attention.head_count``, ``image_mean`` / ``image_std``) plus its Gemma 4 part
  (``Gemma4VisionAudioModel``: ``clip.vision.projector_type`` = ``gemma4v``,
  ``clip.vision.attention.layer_norm_epsilon``; ``image_size`` is fixed at 224, "unused");
- tensors: the names gguf-py maps Gemma 4's vision tower to (``v.patch_embd`` as a conv kernel
  ``[n_embd, 3, patch, patch]``, ``v.position_embd`` as two lookup tables (x, y), per block ``ln1``,
  ``attn_q/k/v/out``, ``attn_q_norm`` / ``attn_k_norm`` (per head), ``attn_post_norm``, ``ln2``,
  ``ffn_gate/up/down``, ``ffn_post_norm``, ``out_scale``; ``v.std_bias`` / ``v.std_scale``;
  ``mm.input_projection`` from the vision width to the text width) and that the clip loader of
  llama.cpp's ``tools/mtmd`` reads for ``PROJECTOR_TYPE_GEMMA4V`` (``models/gemma4v.cpp``: patches,
  2-D position tables, a ViT with RMS norms and 2-D RoPE, a 3x3 average pool, standardisation, an
  RMS norm and the input projection). Checked by loading the file with the installed xllamacpp.

Dimensions: vision hidden 32, FFN 64, 1 block, 2 heads (head_dim 16), patch 16, position tables of
:data:`POSITIONS` rows. llama.cpp resizes every image to a bounded number of output tokens (3x3
patches each; with xllamacpp 2026.10.11549 a 64x48 picture became ~90 tokens and a 4000x3000 one
~505, llama-server capping the projector's 1120 at its batch size of 512), so any picture works.
``--projection-dim`` writes a projector for another text width (the wrong-width test file).
Weights are seeded: the same arguments give byte-identical files.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from app.devtools.assets import builder_main, write_whole

#: bump when the file changes, so cached copies are rebuilt
BUILDER_VERSION = 1
MMPROJ_FILE = "gemma4-tiny-mmproj.gguf"

#: the tiny Gemma 4 target's hidden size (tiny_gemma4.TARGET.hidden)
TEXT_HIDDEN = 128
HIDDEN = 32
FFN = 64
BLOCKS = 1
HEADS = 2
HEAD_DIM = HIDDEN // HEADS
PATCH = 16
#: rows of each position table (x and y): the most patches one image side can have after resizing
POSITIONS = 1024
IMAGE_SIZE = 224
EPS = 1e-6
INIT_STD = 0.02


def _tensors(projection_dim: int, seed: int) -> list[tuple[str, Any]]:
    """(name, array) in gguf-py's order; numpy shapes are the GGUF dims reversed."""
    import numpy as np

    rng = np.random.default_rng(seed)

    def normal(*shape: int, std: float = INIT_STD) -> Any:
        return rng.normal(0.0, std, size=shape).astype(np.float32)

    def ones(*shape: int) -> Any:
        return np.ones(shape, dtype=np.float32)

    out: list[tuple[str, Any]] = [
        ("v.patch_embd.weight", normal(HIDDEN, 3, PATCH, PATCH)),
        ("v.position_embd.weight", normal(2, POSITIONS, HIDDEN)),
    ]
    for i in range(BLOCKS):
        p = f"v.blk.{i}."
        out += [
            (p + "ln1.weight", ones(HIDDEN)),
            (p + "attn_q.weight", normal(HIDDEN, HIDDEN)),
            (p + "attn_q_norm.weight", ones(HEAD_DIM)),
            (p + "attn_k.weight", normal(HIDDEN, HIDDEN)),
            (p + "attn_k_norm.weight", ones(HEAD_DIM)),
            (p + "attn_v.weight", normal(HIDDEN, HIDDEN)),
            (p + "attn_out.weight", normal(HIDDEN, HIDDEN)),
            (p + "attn_post_norm.weight", ones(HIDDEN)),
            (p + "ln2.weight", ones(HIDDEN)),
            (p + "ffn_gate.weight", normal(FFN, HIDDEN)),
            (p + "ffn_up.weight", normal(FFN, HIDDEN)),
            (p + "ffn_down.weight", normal(HIDDEN, FFN)),
            (p + "ffn_post_norm.weight", ones(HIDDEN)),
            (p + "out_scale.weight", ones(1)),
        ]
    out += [
        ("v.std_bias", np.zeros(HIDDEN, dtype=np.float32)),
        ("v.std_scale", ones(HIDDEN)),
        # the text model reads these rows as token embeddings: a larger spread makes the image matter
        ("mm.input_projection.weight", normal(projection_dim, HIDDEN, std=0.5)),
    ]
    return out


def write_mmproj(path: Path, *, projection_dim: int = TEXT_HIDDEN, seed: int = 0) -> Path:
    import gguf

    w = gguf.GGUFWriter(str(path), "clip")
    u32, f32, s = gguf.GGUFValueType.UINT32, gguf.GGUFValueType.FLOAT32, gguf.GGUFValueType.STRING
    w.add_key_value("general.type", "mmproj", s)
    w.add_key_value("general.name", "gemma4-tiny-mmproj", s)
    w.add_key_value("general.file_type", int(gguf.LlamaFileType.ALL_F32), u32)
    w.add_key_value("clip.has_vision_encoder", True, gguf.GGUFValueType.BOOL)
    kv: list[tuple[str, Any, Any]] = [
        ("projection_dim", projection_dim, u32),
        ("image_size", IMAGE_SIZE, u32),
        ("patch_size", PATCH, u32),
        ("embedding_length", HIDDEN, u32),
        ("feed_forward_length", FFN, u32),
        ("block_count", BLOCKS, u32),
        ("attention.head_count", HEADS, u32),
    ]
    for key, value, vtype in kv:
        w.add_key_value(f"clip.vision.{key}", value, vtype)
    arr = gguf.GGUFValueType.ARRAY
    w.add_key_value("clip.vision.image_mean", [0.0, 0.0, 0.0], arr, sub_type=f32)
    w.add_key_value("clip.vision.image_std", [1.0, 1.0, 1.0], arr, sub_type=f32)
    w.add_key_value("clip.vision.projector_type", "gemma4v", s)
    w.add_key_value("clip.vision.attention.layer_norm_epsilon", EPS, f32)
    w.add_key_value("general.quantization_version", gguf.GGML_QUANT_VERSION, u32)
    for name, array in _tensors(projection_dim, seed):
        w.add_tensor(name, array)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


def build(out: Path, *, projection_dim: int = TEXT_HIDDEN, seed: int = 0, name: str = MMPROJ_FILE) -> Path:
    """Write the projector into ``out`` (created if needed); the file appears only when complete."""
    out.mkdir(parents=True, exist_ok=True)
    return write_whole(
        out / name, lambda partial: write_mmproj(partial, projection_dim=projection_dim, seed=seed)
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--out", type=Path, required=True, help="output folder")
    ap.add_argument("--projection-dim", type=int, default=TEXT_HIDDEN, help="the text model's hidden size")
    ap.add_argument("--seed", type=int, default=0)
    return builder_main(
        "tiny_mmproj",
        ap,
        argv,
        lambda args: [build(args.out, projection_dim=args.projection_dim, seed=args.seed)],
    )


if __name__ == "__main__":
    sys.exit(main())
