"""GGUF (llama architecture, float tensors) -> MLX checkpoint, so an MLX model can be made offline.

Used by the tests (SmolLM2 on the MLX engine from the SmolLM2 GGUF fixture) and the benchmarks;
needs only the ``mlx`` extra (mlx, mlx-lm, which brings ``transformers`` and ``tokenizers``) and
``gguf`` (a Tandem dependency): no torch. MLX is used on the calling thread: a caller that ends
its thread afterwards calls ``mx.clear_streams()`` there (see :mod:`app.core.engines.mlx.engine`).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

#: Cache folder names of the converted SmolLM2 checkpoints.
SMOLLM2_F32 = "smollm2-135m-mlx-f32"
SMOLLM2_Q4 = "smollm2-135m-mlx-q4"
SMOLLM2_BF16 = "smollm2-135m-mlx-bf16"


class ConversionError(ValueError):
    """The GGUF cannot be converted; the message says why."""


def _unpermute(w: Any, n_head: int) -> Any:
    """Undo llama.cpp's rotary permutation of the Q/K rows (its convert script applies it)."""
    rows = w.shape[0]
    return w.reshape(n_head, rows // n_head // 2, 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def gguf_llama_to_mlx(gguf_path: Path, out: Path, dtype: str = "float32") -> Path:
    """A llama-architecture GGUF with float tensors -> an mlx-lm checkpoint (weights, config, tokenizer)."""
    import mlx.core as mx
    import numpy as np
    from gguf import GGUFReader
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    reader = GGUFReader(str(gguf_path))
    meta = {f.name: f.contents() for f in reader.fields.values()}
    if meta.get("general.architecture") != "llama":
        raise ConversionError(f"{gguf_path} is not a llama GGUF")
    n_head, n_kv = int(meta["llama.attention.head_count"]), int(meta["llama.attention.head_count_kv"])
    names = {
        "token_embd": "model.embed_tokens",
        "output_norm": "model.norm",
        "output": "lm_head",
        "attn_norm": "input_layernorm",
        "ffn_norm": "post_attention_layernorm",
        "attn_q": "self_attn.q_proj",
        "attn_k": "self_attn.k_proj",
        "attn_v": "self_attn.v_proj",
        "attn_output": "self_attn.o_proj",
        "ffn_gate": "mlp.gate_proj",
        "ffn_up": "mlp.up_proj",
        "ffn_down": "mlp.down_proj",
    }
    weights = {}
    for t in reader.tensors:
        if t.tensor_type.name not in ("F32", "F16"):
            raise ConversionError(f"{t.name} is {t.tensor_type.name}; dequantize the GGUF to F32 first")
        parts = t.name.split(".")
        data = np.asarray(t.data, dtype=np.float32).reshape([int(x) for x in reversed(t.shape.tolist())])
        if parts[0] == "blk":
            kind = parts[2]
            if kind == "attn_q":
                data = _unpermute(data, n_head)
            elif kind == "attn_k":
                data = _unpermute(data, n_kv)
            key = f"model.layers.{parts[1]}.{names[kind]}.{parts[-1]}"
        else:
            key = f"{names[parts[0]]}.{parts[-1]}"
        weights[key] = mx.array(data).astype(getattr(mx, dtype))
    out.mkdir(parents=True, exist_ok=True)
    mx.save_safetensors(str(out / "model.safetensors"), weights, metadata={"format": "mlx"})
    tokens = [str(t) for t in meta["tokenizer.ggml.tokens"]]
    bos_id = int(meta["tokenizer.ggml.bos_token_id"])
    eos_id = int(meta["tokenizer.ggml.eos_token_id"])
    config = {
        "model_type": "llama",
        "architectures": ["LlamaForCausalLM"],
        "hidden_size": int(meta["llama.embedding_length"]),
        "num_hidden_layers": int(meta["llama.block_count"]),
        "intermediate_size": int(meta["llama.feed_forward_length"]),
        "num_attention_heads": n_head,
        "num_key_value_heads": n_kv,
        "rms_norm_eps": float(meta["llama.attention.layer_norm_rms_epsilon"]),
        "vocab_size": len(tokens),
        "max_position_embeddings": int(meta["llama.context_length"]),
        "rope_theta": float(meta["llama.rope.freq_base"]),
        "tie_word_embeddings": "lm_head.weight" not in weights,
        "bos_token_id": bos_id,
        "eos_token_id": eos_id,
    }
    (out / "config.json").write_text(json.dumps(config, indent=1))
    merges = [tuple(m.split(" ", 1)) for m in meta["tokenizer.ggml.merges"]]
    bpe = Tokenizer(models.BPE(vocab={t: i for i, t in enumerate(tokens)}, merges=merges))
    bpe.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel(add_prefix_space=False)]
    )
    bpe.decoder = decoders.ByteLevel()
    types = list(meta["tokenizer.ggml.token_type"])
    bpe.add_special_tokens([t for t, ty in zip(tokens, types, strict=True) if ty == 3])
    # tokenizer.json + tokenizer_config.json is what AutoTokenizer (a fast tokenizer) reads: written
    # with ``tokenizers`` alone, so the conversion needs no transformers.
    bpe.save(str(out / "tokenizer.json"))
    tok_config: dict[str, Any] = {
        "tokenizer_class": "PreTrainedTokenizerFast",
        "bos_token": tokens[bos_id],
        "eos_token": tokens[eos_id],
        "clean_up_tokenization_spaces": False,
        "model_max_length": config["max_position_embeddings"],
    }
    template = meta.get("tokenizer.chat_template")
    if template:
        tok_config["chat_template"] = str(template)
    (out / "tokenizer_config.json").write_text(json.dumps(tok_config, indent=1))
    return out


def _convert_once(out: Path, build: Any) -> Path:
    """Build ``out`` in a temporary sibling folder and move it in place: a half-written checkpoint
    (an interrupted run) is never mistaken for a finished one."""
    if (out / "model.safetensors").is_file():
        return out
    tmp = out.with_name(f"{out.name}.partial-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    build(tmp)
    if (out / "model.safetensors").is_file():  # another process finished first
        shutil.rmtree(tmp, ignore_errors=True)
        return out
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)
    return out


def smollm2_mlx(gguf_f32: Path, cache: Path, dtype: str = "float32") -> Path:
    """SmolLM2-135M (F32 llama GGUF) as an MLX checkpoint, converted once into ``cache``.

    ``dtype`` "bfloat16" is how MLX models are usually published; on mlx[cpu] its verify passes
    over several tokens cost far less than as many one-token passes (float32 costs in proportion).
    """
    name = {"float32": SMOLLM2_F32, "bfloat16": SMOLLM2_BF16}.get(dtype)
    if name is None:
        raise ConversionError(f"dtype must be float32 or bfloat16 (got {dtype!r})")
    return _convert_once(cache / name, lambda tmp: gguf_llama_to_mlx(gguf_f32, tmp, dtype))


def quantize_mlx(source: Path, out: Path, bits: int = 4, group_size: int = 64) -> Path:
    """An MLX checkpoint quantized with mlx-lm (same tokenizer files), converted once."""

    def build(tmp: Path) -> None:
        import mlx.core as mx
        from mlx.utils import tree_flatten
        from mlx_lm.utils import load_model, quantize_model

        model, config = load_model(source)
        model, config = quantize_model(model, config, group_size=group_size, bits=bits)
        tmp.mkdir(parents=True, exist_ok=True)
        mx.save_safetensors(str(tmp / "model.safetensors"), dict(tree_flatten(model.parameters())))
        (tmp / "config.json").write_text(json.dumps(config, indent=1))
        for f in source.iterdir():
            if f.name.startswith(("tokenizer", "special_tokens", "chat_template")):
                shutil.copy(f, tmp / f.name)

    return _convert_once(out, build)


def smollm2_pair(gguf_f32: Path, cache: Path) -> tuple[str, Path, Path, str]:
    """SmolLM2 F32 (MLX) as target, its own 4-bit MLX quantization as the classic drafter."""
    target = smollm2_mlx(gguf_f32, cache)
    drafter = quantize_mlx(target, cache / SMOLLM2_Q4)
    return ("SmolLM2-135M F32 + its MLX 4-bit (draft)", target, drafter, "draft")
