"""Tiny random-weight MLX checkpoints, generated offline with the libraries' own model classes.

Nothing is downloaded and nothing is committed: every generator writes a complete checkpoint
(``config.json`` + ``model.safetensors`` + a byte-level tokenizer with a chat template) into a
directory the caller chooses, normally a session temp dir.

Two pairs:

* Gemma 4: an mlx-vlm ``gemma4`` target (with a tiny vision tower, as real checkpoints have) and a
  ``gemma4_assistant`` MTP drafter whose head dims, KV heads and layer types match the target's.
  The target also gets what mlx-vlm's processor loader reads (``processor_config.json`` and the
  tokenizer's image markers), so images go through the real processor and vision tower.
* llama: an mlx-lm llama target and a smaller llama drafter with the same tokenizer.

``forced=True`` zeroes the final norm of target and drafter: every logit is then 0, both models
pick token 0 every step, so every draft is accepted. That makes round stats exactly predictable
(see ENGINES.md).

Used by ``tests/integration/test_mlx_engine.py`` and ``benchmarks/bench_mlx.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: Byte tokens take ids 0..255 (token 0 is the byte "\x00" shown as "Ā"), specials follow.
SPECIAL_TOKENS = (
    "<pad>",
    "<bos>",
    "<eos>",
    "<|user|>",
    "<|assistant|>",
    "<|system|>",
    "<|end|>",
    "<image>",
    "<audio>",
    "<boi>",
    "<eoi>",
    "<boa>",
    "<eoa>",
)
VOCAB_SIZE = 256 + len(SPECIAL_TOKENS)
#: A message's content is a string, or (multimodal chats, as mlx-vlm formats them) a list of parts
#: where an image part becomes the ``<image>`` placeholder the processor expands; a string renders
#: exactly as it always did.
CHAT_TEMPLATE = (
    "{{ bos_token }}{% for m in messages %}<|{{ m['role'] }}|>"
    "{% if m['content'] is string or m['content'] is none %}{{ m['content'] }}"
    "{% else %}{% for part in m['content'] %}{% if part['type'] == 'image' %}<image>"
    "{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}{% endfor %}{% endif %}"
    "<|end|>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
#: The multimodal markers a vision processor reads from the tokenizer (``tokenizer.image_token``
#: etc.), as a real Gemma 4 tokenizer declares them.
VISION_TOKENS = {
    "image_token": "<image>",
    "boi_token": "<boi>",
    "eoi_token": "<eoi>",
    "audio_token": "<audio>",
    "boa_token": "<boa>",
    "eoa_token": "<eoa>",
}
#: soft tokens per image (the Gemma 4 image processor's default budget, as real checkpoints ship it)
IMAGE_SOFT_TOKENS = 280


def special_id(token: str) -> int:
    return 256 + SPECIAL_TOKENS.index(token)


def _bytes_to_unicode() -> dict[int, str]:
    """The GPT-2 byte -> printable character table, so every byte is one token."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1))
    printable += list(range(ord("®"), ord("ÿ") + 1))
    chars = printable[:]
    extra = 0
    for b in range(256):
        if b not in printable:
            printable.append(b)
            chars.append(256 + extra)
            extra += 1
    return dict(zip(printable, (chr(c) for c in chars), strict=True))


def write_tokenizer(out: Path, *, extra_tokens: int = 0, vision: bool = False) -> None:
    """A byte-level BPE with no merges: ids 0..255 are bytes, then :data:`SPECIAL_TOKENS`.

    ``extra_tokens`` appends plain tokens, to make a vocabulary that differs from the others.
    ``vision`` declares :data:`VISION_TOKENS` (what a vision processor looks up on the tokenizer).
    """
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    table = _bytes_to_unicode()
    vocab = {table[b]: b for b in range(256)}
    tok = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens(list(SPECIAL_TOKENS))
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token="<bos>",
        eos_token="<eos>",
        pad_token="<pad>",
        chat_template=CHAT_TEMPLATE,
        **({"extra_special_tokens": dict(VISION_TOKENS)} if vision else {}),
    )
    if extra_tokens:
        fast.add_tokens([f"<extra_{i}>" for i in range(extra_tokens)])
    fast.save_pretrained(str(out))
    ids = [fast.convert_tokens_to_ids(t) for t in SPECIAL_TOKENS]
    assert ids == [special_id(t) for t in SPECIAL_TOKENS], ids


def _save(model: Any, out: Path, config: dict[str, Any], *, forced: bool, norm_keys: tuple[str, ...]) -> None:
    import mlx.core as mx
    from mlx.utils import tree_flatten

    weights = dict(tree_flatten(model.parameters()))
    if forced:
        for key in norm_keys:
            weights[key] = mx.zeros_like(weights[key])
    out.mkdir(parents=True, exist_ok=True)
    mx.save_safetensors(str(out / "model.safetensors"), weights, metadata={"format": "mlx"})
    (out / "config.json").write_text(json.dumps(config, indent=1, sort_keys=True))


# --- Gemma 4 target + gemma4_assistant drafter (mlx-vlm) ----------------------------------------

GEMMA4_TARGET_HIDDEN = 64


def gemma4_target_config(*, hidden: int = GEMMA4_TARGET_HIDDEN, layers: int = 4) -> dict[str, Any]:
    text = {
        "model_type": "gemma4_text",
        "hidden_size": hidden,
        "num_hidden_layers": layers,
        "intermediate_size": 2 * hidden,
        "num_attention_heads": 2,
        "head_dim": 16,
        "global_head_dim": 32,
        "num_key_value_heads": 1,
        "num_global_key_value_heads": 1,
        "num_kv_shared_layers": layers // 2,
        "vocab_size": VOCAB_SIZE,
        "vocab_size_per_layer_input": VOCAB_SIZE,
        "hidden_size_per_layer_input": 8,
        "sliding_window": 64,
        "sliding_window_pattern": 2,
        "layer_types": ["sliding_attention", "full_attention"] * (layers // 2),
        "max_position_embeddings": 4096,
        "use_double_wide_mlp": False,
    }
    vision = {
        "model_type": "gemma4_vision",
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "num_key_value_heads": 2,
        "head_dim": 16,
        "global_head_dim": 16,
        "patch_size": 16,
        "position_embedding_size": 64,
        "pooling_kernel_size": 3,
    }
    return {
        "model_type": "gemma4",
        "architectures": ["Gemma4ForConditionalGeneration"],
        "text_config": text,
        "vision_config": vision,
        "audio_config": None,
        "vocab_size": VOCAB_SIZE,
        "hidden_size": hidden,
        "pad_token_id": special_id("<pad>"),
        "eos_token_id": [special_id("<eos>"), special_id("<|end|>")],
        "image_token_id": special_id("<image>"),
        "audio_token_id": special_id("<audio>"),
        "boi_token_id": special_id("<boi>"),
        "eoi_token_id": special_id("<eoi>"),
        "boa_token_id": special_id("<boa>"),
        "eoa_token_id": special_id("<eoa>"),
    }


def gemma4_assistant_config(
    *,
    backbone_hidden: int = GEMMA4_TARGET_HIDDEN,
    head_dim: int = 16,
    global_head_dim: int = 32,
    kv_heads: int = 1,
    layer_types: tuple[str, ...] = ("sliding_attention", "full_attention"),
    vocab_size: int = VOCAB_SIZE,
    block_size: int = 4,
    model_type: str = "gemma4_assistant",
) -> dict[str, Any]:
    text = {
        "model_type": "gemma4_text",
        "hidden_size": 32,
        "num_hidden_layers": len(layer_types),
        "intermediate_size": 64,
        "num_attention_heads": 2,
        "head_dim": head_dim,
        "global_head_dim": global_head_dim,
        "num_key_value_heads": kv_heads,
        "num_global_key_value_heads": kv_heads,
        "vocab_size": vocab_size,
        "vocab_size_per_layer_input": vocab_size,
        "hidden_size_per_layer_input": 0,
        "sliding_window": 64,
        "layer_types": list(layer_types),
        "max_position_embeddings": 4096,
        "use_double_wide_mlp": False,
    }
    return {
        "model_type": model_type,
        "architectures": ["Gemma4AssistantForCausalLM"],
        "backbone_hidden_size": backbone_hidden,
        "block_size": block_size,
        "tie_word_embeddings": True,
        "text_config": text,
    }


def write_gemma4_target(out: Path, *, seed: int = 0, forced: bool = False) -> Path:
    import mlx.core as mx
    from mlx_vlm.utils import get_model_and_args, update_module_configs

    config = gemma4_target_config()
    model_class, _ = get_model_and_args(config=dict(config))
    cfg = dict(config)
    model_config = update_module_configs(
        model_class.ModelConfig.from_dict(cfg), model_class, cfg, ["text", "vision", "audio"]
    )
    mx.random.seed(seed)
    model = model_class.Model(model_config)
    _save(model, out, config, forced=forced, norm_keys=("language_model.model.norm.weight",))
    write_tokenizer(out, vision=True)
    write_gemma4_processor_config(out, config)
    return out


def write_gemma4_processor_config(out: Path, config: dict[str, Any]) -> None:
    """``processor_config.json`` as Gemma 4 checkpoints ship it: what mlx-vlm's processor loader reads
    to build the image processor (patch size and pooling must match the vision tower)."""
    vision = config["vision_config"]
    processor = {
        "processor_class": "Gemma4Processor",
        "image_seq_length": IMAGE_SOFT_TOKENS,
        "image_processor": {
            "image_processor_type": "Gemma4ImageProcessor",
            "do_convert_rgb": True,
            "do_resize": True,
            "do_rescale": True,
            "rescale_factor": 1 / 255,
            "do_normalize": False,
            "patch_size": vision["patch_size"],
            "pooling_kernel_size": vision["pooling_kernel_size"],
            "max_soft_tokens": IMAGE_SOFT_TOKENS,
        },
    }
    (out / "processor_config.json").write_text(json.dumps(processor, indent=1, sort_keys=True))


def write_gemma4_assistant(out: Path, *, seed: int = 1, forced: bool = False, **overrides: Any) -> Path:
    import mlx.core as mx
    from mlx_vlm.speculative.drafters.gemma4_assistant import Gemma4AssistantDraftModel
    from mlx_vlm.speculative.drafters.gemma4_assistant.config import Gemma4AssistantConfig

    config = gemma4_assistant_config(**overrides)
    mx.random.seed(seed)
    model = Gemma4AssistantDraftModel(Gemma4AssistantConfig.from_dict(config))
    _save(model, out, config, forced=forced, norm_keys=("model.norm.weight",))
    return out


# --- llama target + smaller same-vocabulary drafter (mlx-lm) ------------------------------------


def llama_config(
    *, hidden: int, layers: int, heads: int, kv_heads: int, vocab_size: int = VOCAB_SIZE
) -> dict[str, Any]:
    return {
        "model_type": "llama",
        "architectures": ["LlamaForCausalLM"],
        "hidden_size": hidden,
        "num_hidden_layers": layers,
        "intermediate_size": 2 * hidden,
        "num_attention_heads": heads,
        "num_key_value_heads": kv_heads,
        "rms_norm_eps": 1e-5,
        "vocab_size": vocab_size,
        "max_position_embeddings": 4096,
        "rope_theta": 10000.0,
        "tie_word_embeddings": True,
        "bos_token_id": special_id("<bos>"),
        "eos_token_id": [special_id("<eos>"), special_id("<|end|>")],
    }


def write_llama(
    out: Path,
    *,
    hidden: int,
    layers: int,
    heads: int = 4,
    kv_heads: int = 2,
    seed: int = 0,
    forced: bool = False,
    extra_tokens: int = 0,
) -> Path:
    import mlx.core as mx
    from mlx_lm.models import llama

    config = llama_config(
        hidden=hidden, layers=layers, heads=heads, kv_heads=kv_heads, vocab_size=VOCAB_SIZE + extra_tokens
    )
    mx.random.seed(seed)
    model = llama.Model(llama.ModelArgs.from_dict(config))
    _save(model, out, config, forced=forced, norm_keys=("model.norm.weight",))
    write_tokenizer(out, extra_tokens=extra_tokens)
    return out


def write_llama_target(
    out: Path, *, seed: int = 0, forced: bool = False, hidden: int = 128, layers: int = 4
) -> Path:
    return write_llama(out, hidden=hidden, layers=layers, seed=seed, forced=forced)


def write_llama_drafter(
    out: Path,
    *,
    seed: int = 1,
    forced: bool = False,
    extra_tokens: int = 0,
    hidden: int = 64,
    layers: int = 1,
) -> Path:
    return write_llama(
        out,
        hidden=hidden,
        layers=layers,
        heads=2,
        kv_heads=1,
        seed=seed,
        forced=forced,
        extra_tokens=extra_tokens,
    )


def write_mamba_drafter(out: Path, *, seed: int = 2) -> Path:
    """A tiny Mamba model with the llama fixtures' tokenizer: a drafter whose state cannot be
    rolled back (no KV cache to trim)."""
    import mlx.core as mx
    from mlx_lm.models import mamba

    config: dict[str, Any] = {
        "model_type": "mamba",
        "vocab_size": VOCAB_SIZE,
        "hidden_size": 32,
        "intermediate_size": 64,
        "state_size": 8,
        "num_hidden_layers": 1,
        "conv_kernel": 4,
        "use_bias": False,
        "use_conv_bias": True,
        "time_step_rank": 4,
        "tie_word_embeddings": True,
    }
    mx.random.seed(seed)
    model = mamba.Model(mamba.ModelArgs(**config))
    _save(model, out, config, forced=False, norm_keys=())
    write_tokenizer(out)
    return out


def finished(events: list[Any]) -> Any:
    """The one ``Finished`` of a stream, last."""
    from app.core.engines.base import Finished

    assert isinstance(events[-1], Finished)
    assert not any(isinstance(e, Finished) for e in events[:-1])
    return events[-1]


def check_accounting(events: list[Any]) -> None:
    """The invariants every stream keeps, speculative or not (a plain one has no rounds)."""
    from app.core.engines.base import Round, TextDelta

    fin = finished(events)
    deltas = [e for e in events if isinstance(e, TextDelta)]
    rounds = [e for e in events if isinstance(e, Round)]
    assert sum(d.token_count for d in deltas) == fin.completion_tokens
    # An end-of-generation token is counted but not part of token_ids.
    assert len(fin.token_ids or []) in (fin.completion_tokens, fin.completion_tokens - 1)
    assert sum(d.token_count for d in deltas if d.from_draft) == fin.accepted_total
    assert not rounds or sum(r.emitted for r in rounds) == fin.completion_tokens
    assert sum(r.drafted for r in rounds) == fin.drafted_total
    assert sum(r.accepted for r in rounds) == fin.accepted_total
    assert [r.index for r in rounds] == list(range(len(rounds))) and fin.rounds == len(rounds)
