"""A realistic-cost test pair from the embedded model: the SmolLM2 target made deeper at no change to
its answers.

The embedded pair (the SmolLM2-135M F32 target and its own Q4_1 as the drafter) costs nearly the
same per token on both sides, so drafting gains 0-30% on a small CPU, inside the noise: it cannot
tell a good speculation route from a bad one. Real pairs are 10-20x apart in cost (a 0.5B drafter
for a 7B target). :func:`write_deep_target` gives the F32 target ``extra_layers`` more transformer
blocks, appended after its own, whose attention-output and FFN-down projections are zero: each
block's attention and MLP are computed in full (the cost), and each adds exactly zero to the
residual stream, so every logit, and with it every greedy answer, is the original model's. The
added blocks copy the last block's other weights (norms, Q/K/V, gate and up projections), stored
in F16 (the original blocks keep their F32 weights, so nothing of the original is rounded).

With 150 added blocks (the default: 180 in all) the target costs several times the Q4_1 drafter
per token, and drafting with it pays clearly (the figures: docs/benchmarks.md); the file is about
1.6 GB (the original F32 blocks included).
:func:`deep_pair` builds it once into the test assets folder
(:data:`~app.devtools.assets.ASSET_DIR`); the tests check its greedy parity with the original on
llama.cpp.

    python -m app.devtools.deep_target [--layers 150]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from app.devtools.assets import ASSET_DIR, builder_main, write_whole

#: bump when the written file changes (its folder is named after it)
BUILDER_VERSION = 1
#: blocks appended by default (the issue's measured configuration)
DEFAULT_LAYERS = 150
#: the tensors of an added block that would write into the residual stream: zero
SILENT = ("attn_output.weight", "ffn_down.weight")


def write_deep_target(src: Path, dst: Path, extra_layers: int = DEFAULT_LAYERS) -> None:
    """Write ``src`` (a llama-architecture GGUF with unquantized tensors) with ``extra_layers``
    silent blocks appended (see the module docstring); metadata kept, the block count raised."""
    import gguf
    import numpy as np

    if extra_layers < 0:
        raise ValueError(f"extra layers must be 0 or more (got {extra_layers})")
    reader = gguf.GGUFReader(str(src))
    arch_field = reader.fields.get("general.architecture")
    arch = str(arch_field.contents()) if arch_field is not None else "llama"
    count_key = f"{arch}.block_count"
    if count_key not in reader.fields:
        raise ValueError(f"{src.name} has no {count_key}: not a transformer GGUF Tandem can deepen")
    blocks = int(reader.fields[count_key].contents())
    last = f"blk.{blocks - 1}."
    writer = gguf.GGUFWriter(str(dst), arch)
    for key, field in reader.fields.items():
        if key.startswith("GGUF.") or key == "general.architecture":
            continue
        if key == count_key:
            writer.add_uint32(key, blocks + extra_layers)
            continue
        vtype = field.types[0]
        if vtype == gguf.GGUFValueType.ARRAY:
            writer.add_key_value(key, field.contents(), vtype, sub_type=field.types[-1])
        else:
            writer.add_key_value(key, field.contents(), vtype)
    template: dict[str, np.ndarray] = {}
    for t in reader.tensors:
        if t.tensor_type not in (gguf.GGMLQuantizationType.F32, gguf.GGMLQuantizationType.F16):
            raise ValueError(f"{src.name}: tensor {t.name} is {t.tensor_type.name}; give an F32 or F16 file")
        data = np.asarray(t.data).reshape([int(d) for d in reversed(t.shape)])
        writer.add_tensor(t.name, data)
        if t.name.startswith(last):
            suffix = t.name[len(last) :]
            if suffix in SILENT:
                template[suffix] = np.zeros(data.shape, dtype=np.float16)
            elif data.ndim > 1:
                template[suffix] = data.astype(np.float16)
            else:
                template[suffix] = data.astype(np.float32)  # norms stay F32, as llama.cpp wants
    if not all(name in template for name in SILENT):
        raise ValueError(f"{src.name}: the last block has no {' / '.join(SILENT)}; not a llama block")
    for i in range(blocks, blocks + extra_layers):
        for suffix, data in template.items():  # the same arrays each time: memory stays one block
            writer.add_tensor(f"blk.{i}.{suffix}", data)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def deep_pair(extra_layers: int = DEFAULT_LAYERS) -> tuple[Path, Path]:
    """(the deep target, the Q4_1 drafter): the realistic-cost pair, the target built on first use
    from the embedded model's F32 file (itself derived from the embedded Q4_1, as the tests'
    ``smollm2_f32`` fixture does)."""
    from app.core import assets, gguf_tools

    folder = ASSET_DIR / f"smollm2-deep{extra_layers}-v{BUILDER_VERSION}"
    target = folder / f"SmolLM2-135M-Instruct.deep{extra_layers}.gguf"
    drafter = assets.smollm2_q4_path()
    if not target.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        f32 = ASSET_DIR / "SmolLM2-135M-Instruct.F32.gguf"
        if not f32.is_file():
            write_whole(f32, lambda partial: gguf_tools.dequantize(drafter, partial, "F32"))
        write_whole(target, lambda partial: write_deep_target(f32, partial, extra_layers))
    return target, drafter


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.devtools.deep_target", description=__doc__)
    parser.add_argument("--layers", type=int, default=DEFAULT_LAYERS, help="silent blocks to append")
    return builder_main(parser.prog, parser, argv, lambda args: list(deep_pair(args.layers)))


if __name__ == "__main__":
    raise SystemExit(main())
