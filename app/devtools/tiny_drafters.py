"""Write a tiny random-weight ``llama`` target with an EAGLE-3 and a DFlash drafter as GGUF files.

    python -m app.devtools.tiny_drafters --out DIR [--agree] [--seed N]

produces, in well under a second and with nothing but ``gguf`` and ``numpy``:

- ``DIR/llama-tiny.gguf``: architecture ``llama``, hidden 128, FFN 256, 4 layers, 4 heads, 2 KV heads,
  head_dim 32, tied output head (the target both drafters read);
- ``DIR/llama-tiny-eagle3.gguf``: architecture ``eagle3``, one decoder layer whose attention reads
  ``[token embedding | fused target state]`` (``2 * hidden`` wide), ``fc`` fusing the inputs of three
  target layers (``eagle3.target_layers``, ``eagle3.target_hidden_size``); no ``token_embd`` and no
  ``output``: llama.cpp borrows the target's;
- ``DIR/llama-tiny-dflash.gguf``: architecture ``dflash``, two layers with Q/K norms, ``fc`` fusing the
  states of ``dflash.target_layers``, ``enc.output_norm`` after it, ``dflash.block_size`` and a mask
  token (``tokenizer.ggml.mask_token_id``).

Names, shapes and keys come from llama.cpp's own loaders (``src/models/eagle3.cpp``,
``src/models/dflash.cpp``, the key names in ``src/llama-arch.cpp``) checked against the strings of the
llama.cpp bundled in the installed xllamacpp; the vocabulary and chat template are the tiny Gemma 4
ones of :mod:`~app.devtools.tiny_gemma4` (tokenizer model ``gemma4``), so the same prompts run on both pairs.

``--agree`` writes the forced-acceptance variant (as in :mod:`~app.devtools.tiny_gemma4`): target and EAGLE-3
drafter both predict ``a`` after any context. The target's embeddings carry a large positive
dimension 0 (larger for ``a``) and its final norm reads only that dimension; the EAGLE-3 drafter
copies dimension 0 of the first fused target state through ``fc`` (attention and FFN outputs are
zero, so the state passes unchanged from step to step) and its own output head scores ``a`` by it.
"""

from __future__ import annotations

import argparse
import functools
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.devtools import tiny_gemma4
from app.devtools.assets import builder_main, write_whole

BUILDER_VERSION = 1
TARGET_FILE = "llama-tiny.gguf"
EAGLE3_FILE = "llama-tiny-eagle3.gguf"
DFLASH_FILE = "llama-tiny-dflash.gguf"
MTP_TARGET_FILE = "qwen35-tiny-mtp.gguf"

HIDDEN = 128
FFN = 256
LAYERS = 4
HEADS = 4
KV_HEADS = 2
HEAD_DIM = HIDDEN // HEADS
CONTEXT = 2048
RMS_EPS = 1e-6
ROPE_BASE = 10_000.0
INIT_STD = 0.02
#: the target's weights: larger, so its answers change with the context (at 0.02 it repeats one token)
TARGET_STD = 0.2
#: the target layers whose states the drafters read (EAGLE-3: low, middle, high; exactly three)
EAGLE3_LAYERS = (0, 2, 3)
DFLASH_LAYERS = (1, 3)
DFLASH_LAYER_COUNT = 2
DFLASH_BLOCK = 4


@dataclass(frozen=True)
class TinySet:
    target: Path
    eagle3: Path
    dflash: Path
    #: a qwen35 target with one built-in MTP block (``mtp`` with no drafter file)
    mtp_target: Path


def _rng(seed: int) -> Any:
    import numpy as np

    return np.random.default_rng(seed)


def _normal(rng: Any, *shape: int, std: float = INIT_STD) -> Any:
    import numpy as np

    return rng.normal(0.0, std, size=shape).astype(np.float32)


def _ones(n: int) -> Any:
    import numpy as np

    return np.ones(n, dtype=np.float32)


def _agree_row() -> int:
    g = tiny_gemma4
    return int(g.vocabulary()[0].index(g.AGREE_TOKEN))


def _writer(path: Path, arch: str, name: str, kv: list[tuple[str, Any, Any]]) -> Any:
    import gguf

    g = tiny_gemma4
    vocab, types, merges = g.vocabulary()
    w = gguf.GGUFWriter(str(path), arch)
    s, u32 = gguf.GGUFValueType.STRING, gguf.GGUFValueType.UINT32
    w.add_key_value("general.type", "model", s)
    w.add_key_value("general.name", name, s)
    for key, value, vtype in kv:
        if vtype == gguf.GGUFValueType.ARRAY:
            w.add_key_value(f"{arch}.{key}", value, vtype, sub_type=u32)
        else:
            w.add_key_value(f"{arch}.{key}", value, vtype)
    w.add_key_value("general.file_type", int(gguf.LlamaFileType.ALL_F32), u32)
    w.add_key_value("general.quantization_version", gguf.GGML_QUANT_VERSION, u32)
    w.add_tokenizer_model("gemma4")
    w.add_token_list(vocab)
    w.add_token_scores([-1000.0] * len(vocab))
    w.add_token_types(types)
    w.add_token_merges(merges)
    w.add_bos_token_id(g.BOS)
    w.add_eos_token_id(g.EOS)
    w.add_unk_token_id(g.UNK)
    w.add_pad_token_id(g.PAD)
    w.add_add_bos_token(True)
    w.add_add_eos_token(False)
    w.add_chat_template(g.CHAT_TEMPLATE)
    w.add_add_space_prefix(False)
    return w


def _finish(w: Any, tensors: list[tuple[str, Any]]) -> None:
    for tname, array in tensors:
        w.add_tensor(tname, array)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def _common_kv(layers: int, ffn: int) -> list[tuple[str, Any, Any]]:
    import gguf

    u32, f32 = gguf.GGUFValueType.UINT32, gguf.GGUFValueType.FLOAT32
    return [
        ("block_count", layers, u32),
        ("context_length", CONTEXT, u32),
        ("embedding_length", HIDDEN, u32),
        ("feed_forward_length", ffn, u32),
        ("attention.head_count", HEADS, u32),
        ("attention.head_count_kv", KV_HEADS, u32),
        ("attention.key_length", HEAD_DIM, u32),
        ("attention.value_length", HEAD_DIM, u32),
        ("rope.freq_base", ROPE_BASE, f32),
        ("rope.dimension_count", HEAD_DIM, u32),
        ("attention.layer_norm_rms_epsilon", RMS_EPS, f32),
    ]


def write_target(path: Path, *, seed: int = 0, agree: bool = False) -> Path:
    rng = _rng(seed)
    g = tiny_gemma4
    embd = _normal(rng, g.VOCAB_SIZE, HIDDEN)
    embd[: len(g.SPECIAL_TOKENS) + 256] = 0.0  # never predicted: every answer runs to max_tokens
    final_norm = _ones(HIDDEN)
    tensors: list[tuple[str, Any]] = [("token_embd.weight", embd)]
    for i in range(LAYERS):
        p = f"blk.{i}."
        tensors += [
            (p + "attn_norm.weight", _ones(HIDDEN)),
            (p + "attn_q.weight", _normal(rng, HEADS * HEAD_DIM, HIDDEN, std=TARGET_STD)),
            (p + "attn_k.weight", _normal(rng, KV_HEADS * HEAD_DIM, HIDDEN, std=TARGET_STD)),
            (p + "attn_v.weight", _normal(rng, KV_HEADS * HEAD_DIM, HIDDEN, std=TARGET_STD)),
            (p + "attn_output.weight", _normal(rng, HIDDEN, HEADS * HEAD_DIM, std=TARGET_STD)),
            (p + "ffn_norm.weight", _ones(HIDDEN)),
            (p + "ffn_gate.weight", _normal(rng, FFN, HIDDEN, std=TARGET_STD)),
            (p + "ffn_up.weight", _normal(rng, FFN, HIDDEN, std=TARGET_STD)),
            (p + "ffn_down.weight", _normal(rng, HIDDEN, FFN, std=TARGET_STD)),
        ]
    tensors.append(("output_norm.weight", final_norm))
    if agree:
        embd[:, 0] = 4.0
        embd[_agree_row(), 0] = 8.0
        final_norm[:] = 0.0
        final_norm[0] = 1.0
    w = _writer(path, "llama", "llama-tiny", _common_kv(LAYERS, FFN))
    _finish(w, tensors)
    return path


def write_eagle3(path: Path, *, seed: int = 0, agree: bool = False) -> Path:
    import gguf
    import numpy as np

    rng = _rng(seed + 2)
    fc = _normal(rng, HIDDEN, len(EAGLE3_LAYERS) * HIDDEN)
    wo = _normal(rng, HIDDEN, HEADS * HEAD_DIM)
    down = _normal(rng, HIDDEN, FFN)
    final_norm = _ones(HIDDEN)
    p = "blk.0."
    tensors: list[tuple[str, Any]] = [
        ("fc.weight", fc),
        (p + "attn_norm.weight", _ones(HIDDEN)),
        (p + "attn_norm_2.weight", _ones(HIDDEN)),
        (p + "attn_q.weight", _normal(rng, HEADS * HEAD_DIM, 2 * HIDDEN)),
        (p + "attn_k.weight", _normal(rng, KV_HEADS * HEAD_DIM, 2 * HIDDEN)),
        (p + "attn_v.weight", _normal(rng, KV_HEADS * HEAD_DIM, 2 * HIDDEN)),
        (p + "attn_output.weight", wo),
        (p + "ffn_norm.weight", _ones(HIDDEN)),
        (p + "ffn_gate.weight", _normal(rng, FFN, HIDDEN)),
        (p + "ffn_up.weight", _normal(rng, FFN, HIDDEN)),
        (p + "ffn_down.weight", down),
        ("output_norm.weight", final_norm),
    ]
    if agree:
        # the fused state's dim 0 is the first extracted target state's dim 0 (positive), carried
        # unchanged from step to step; the drafter's own head scores only "a", by that dimension
        fc[:] = 0.0
        fc[0, 0] = 1.0
        wo[:] = 0.0
        down[:] = 0.0
        final_norm[:] = 0.0
        final_norm[0] = 1.0
        g = tiny_gemma4
        head = np.zeros((g.VOCAB_SIZE, HIDDEN), dtype=np.float32)
        head[_agree_row(), 0] = 1.0
        tensors.append(("output.weight", head))
    kv = [
        *_common_kv(1, FFN),
        ("target_layers", list(EAGLE3_LAYERS), gguf.GGUFValueType.ARRAY),
        ("target_hidden_size", HIDDEN, gguf.GGUFValueType.UINT32),
    ]
    _finish(_writer(path, "eagle3", "llama-tiny-eagle3", kv), tensors)
    return path


def write_dflash(path: Path, *, seed: int = 0, agree: bool = False) -> Path:
    import gguf

    del agree  # no forced-acceptance DFlash drafter (yet)
    rng = _rng(seed + 3)
    tensors: list[tuple[str, Any]] = [
        ("fc.weight", _normal(rng, HIDDEN, len(DFLASH_LAYERS) * HIDDEN)),
        ("enc.output_norm.weight", _ones(HIDDEN)),
    ]
    for i in range(DFLASH_LAYER_COUNT):
        p = f"blk.{i}."
        tensors += [
            (p + "attn_norm.weight", _ones(HIDDEN)),
            (p + "attn_q.weight", _normal(rng, HEADS * HEAD_DIM, HIDDEN)),
            (p + "attn_k.weight", _normal(rng, KV_HEADS * HEAD_DIM, HIDDEN)),
            (p + "attn_v.weight", _normal(rng, KV_HEADS * HEAD_DIM, HIDDEN)),
            (p + "attn_output.weight", _normal(rng, HIDDEN, HEADS * HEAD_DIM)),
            (p + "attn_q_norm.weight", _ones(HEAD_DIM)),
            (p + "attn_k_norm.weight", _ones(HEAD_DIM)),
            (p + "ffn_norm.weight", _ones(HIDDEN)),
            (p + "ffn_gate.weight", _normal(rng, FFN, HIDDEN)),
            (p + "ffn_up.weight", _normal(rng, FFN, HIDDEN)),
            (p + "ffn_down.weight", _normal(rng, HIDDEN, FFN)),
        ]
    tensors.append(("output_norm.weight", _ones(HIDDEN)))
    kv = [
        *_common_kv(DFLASH_LAYER_COUNT, FFN),
        ("target_layers", list(DFLASH_LAYERS), gguf.GGUFValueType.ARRAY),
        ("block_size", DFLASH_BLOCK, gguf.GGUFValueType.UINT32),
    ]
    w = _writer(path, "dflash", "llama-tiny-dflash", kv)
    w.add_key_value("tokenizer.ggml.mask_token_id", tiny_gemma4.PAD, gguf.GGUFValueType.UINT32)
    _finish(w, tensors)
    return path


# --- a target with built-in MTP heads ------------------------------------------------------------
#: Qwen 3.5's layout (src/models/qwen35.cpp): gated-delta-net layers and full-attention layers
#: (every ``full_attention_interval``-th), then ``nextn_predict_layers`` MTP blocks appended as extra
#: decoder blocks (``block_count`` counts them) with ``nextn.eh_proj`` / ``enorm`` / ``hnorm``.
MTP_TRUNK_LAYERS = 4
MTP_FULL_ATTENTION_INTERVAL = 2
SSM_CONV_KERNEL = 4
SSM_STATE = 32  # head dim of the linear-attention keys and values
SSM_K_HEADS = 2  # ssm.group_count
SSM_V_HEADS = 4  # ssm.time_step_rank


def write_mtp_target(path: Path, *, seed: int = 0, agree: bool = False) -> Path:
    import gguf
    import numpy as np

    rng = _rng(seed + 4)
    g = tiny_gemma4
    std = TARGET_STD
    embd = _normal(rng, g.VOCAB_SIZE, HIDDEN)
    embd[: len(g.SPECIAL_TOKENS) + 256] = 0.0
    key_dim, value_dim = SSM_STATE * SSM_K_HEADS, SSM_STATE * SSM_V_HEADS
    conv_dim = 2 * key_dim + value_dim
    final_norm, head_norm = _ones(HIDDEN), _ones(HIDDEN)
    tensors: list[tuple[str, Any]] = [("token_embd.weight", embd), ("output_norm.weight", final_norm)]

    def attention(p: str) -> list[tuple[str, Any]]:
        return [
            (p + "attn_q.weight", _normal(rng, 2 * HEADS * HEAD_DIM, HIDDEN, std=std)),  # query and gate
            (p + "attn_k.weight", _normal(rng, KV_HEADS * HEAD_DIM, HIDDEN, std=std)),
            (p + "attn_v.weight", _normal(rng, KV_HEADS * HEAD_DIM, HIDDEN, std=std)),
            (p + "attn_output.weight", _normal(rng, HIDDEN, HEADS * HEAD_DIM, std=std)),
            (p + "attn_q_norm.weight", _ones(HEAD_DIM)),
            (p + "attn_k_norm.weight", _ones(HEAD_DIM)),
        ]

    def ffn(p: str) -> list[tuple[str, Any]]:
        return [
            (p + "ffn_gate.weight", _normal(rng, FFN, HIDDEN, std=std)),
            (p + "ffn_up.weight", _normal(rng, FFN, HIDDEN, std=std)),
            (p + "ffn_down.weight", _normal(rng, HIDDEN, FFN, std=std)),
        ]

    for i in range(MTP_TRUNK_LAYERS):
        p = f"blk.{i}."
        tensors += [
            (p + "attn_norm.weight", _ones(HIDDEN)),
            (p + "post_attention_norm.weight", _ones(HIDDEN)),
        ]
        if (i + 1) % MTP_FULL_ATTENTION_INTERVAL == 0:
            tensors += attention(p)
        else:
            tensors += [
                (p + "attn_qkv.weight", _normal(rng, conv_dim, HIDDEN, std=std)),
                (p + "attn_gate.weight", _normal(rng, value_dim, HIDDEN, std=std)),
                (p + "ssm_conv1d.weight", _normal(rng, conv_dim, SSM_CONV_KERNEL, std=std)),
                (p + "ssm_dt.bias", _ones(SSM_V_HEADS)),
                (p + "ssm_a", -np.ones(SSM_V_HEADS, dtype=np.float32)),
                (p + "ssm_beta.weight", _normal(rng, SSM_V_HEADS, HIDDEN, std=std)),
                (p + "ssm_alpha.weight", _normal(rng, SSM_V_HEADS, HIDDEN, std=std)),
                (p + "ssm_norm.weight", _ones(SSM_STATE)),
                (p + "ssm_out.weight", _normal(rng, HIDDEN, value_dim, std=std)),
            ]
        tensors += ffn(p)
    p = f"blk.{MTP_TRUNK_LAYERS}."
    block = attention(p) + ffn(p)
    eh_proj = _normal(rng, HIDDEN, 2 * HIDDEN, std=std)
    tensors += [(p + "attn_norm.weight", _ones(HIDDEN)), (p + "post_attention_norm.weight", _ones(HIDDEN))]
    tensors += block
    tensors += [
        (p + "nextn.eh_proj.weight", eh_proj),
        (p + "nextn.enorm.weight", _ones(HIDDEN)),
        (p + "nextn.hnorm.weight", _ones(HIDDEN)),
        (p + "nextn.shared_head_norm.weight", head_norm),
    ]
    if agree:
        # as write_target: dim 0 says "a"; the MTP block passes dim 0 of the token embedding through
        # (its attention and FFN outputs are zero) and its head norm reads only that dimension
        embd[:, 0] = 4.0
        embd[_agree_row(), 0] = 8.0
        for norm in (final_norm, head_norm):
            norm[:] = 0.0
            norm[0] = 1.0
        eh_proj[:] = 0.0
        eh_proj[0, 0] = 1.0
        for name, array in block:
            if name.endswith(("attn_output.weight", "ffn_down.weight")):
                array[:] = 0.0
    u32 = gguf.GGUFValueType.UINT32
    kv = [
        *_common_kv(MTP_TRUNK_LAYERS + 1, FFN),
        ("nextn_predict_layers", 1, u32),
        ("full_attention_interval", MTP_FULL_ATTENTION_INTERVAL, u32),
        ("rope.dimension_sections", [HEAD_DIM // 2, 0, 0, 0], gguf.GGUFValueType.ARRAY),
        ("ssm.conv_kernel", SSM_CONV_KERNEL, u32),
        ("ssm.inner_size", value_dim, u32),
        ("ssm.state_size", SSM_STATE, u32),
        ("ssm.time_step_rank", SSM_V_HEADS, u32),
        ("ssm.group_count", SSM_K_HEADS, u32),
    ]
    _finish(_writer(path, "qwen35", "qwen35-tiny-mtp", kv), tensors)
    return path


def build(out: Path, *, seed: int = 0, agree: bool = False) -> TinySet:
    """Write the four files into ``out`` (created if needed); files appear only when complete."""
    out.mkdir(parents=True, exist_ok=True)
    made = TinySet(out / TARGET_FILE, out / EAGLE3_FILE, out / DFLASH_FILE, out / MTP_TARGET_FILE)
    for final, writer in (
        (made.target, write_target),
        (made.eagle3, write_eagle3),
        (made.dflash, write_dflash),
        (made.mtp_target, write_mtp_target),
    ):
        write_whole(final, functools.partial(writer, seed=seed, agree=agree))
    return made


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--out", type=Path, required=True, help="output folder")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--agree", action="store_true", help="forced-acceptance variant (EAGLE-3 always right)")

    def made(args: argparse.Namespace) -> list[Path]:
        files = build(args.out, seed=args.seed, agree=args.agree)
        return [files.target, files.eagle3, files.dflash, files.mtp_target]

    return builder_main("tiny_drafters", ap, argv, made)


if __name__ == "__main__":
    sys.exit(main())
