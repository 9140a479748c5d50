"""The tiny GGUF models of the tests and benchmarks, built on first use and kept in the assets folder.

:mod:`~app.devtools.tiny_gemma4` writes the files directly with gguf-py (no torch, no converter);
they are kept in :data:`~app.devtools.assets.ASSET_DIR` like the SmolLM2 F32 file, in a folder
named after the builder version so a changed builder never serves stale files. Two Gemma 4 pairs:
random weights (the drafter is almost never right) and ``agree`` (both models always predict
``a``: every draft is accepted, so round numbers are known in advance); the tiny llama target with
its EAGLE-3 and DFlash drafters (:mod:`~app.devtools.tiny_drafters`); the Gemma 4 vision projector
(:mod:`~app.devtools.tiny_mmproj`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.devtools import tiny_drafters as drafters
from app.devtools import tiny_gemma4 as gemma4
from app.devtools import tiny_mmproj as mmproj
from app.devtools.assets import ASSET_DIR, write_whole


def tiny_drafters(agree: bool = False) -> drafters.TinySet:
    """The tiny llama target with its EAGLE-3 and DFlash drafters (a ``TinySet``), built on first use."""
    b, g = drafters, gemma4
    folder = ASSET_DIR / f"llama-tiny{'-agree' if agree else ''}-v{b.BUILDER_VERSION}.{g.BUILDER_VERSION}"
    made = b.TinySet(
        folder / b.TARGET_FILE, folder / b.EAGLE3_FILE, folder / b.DFLASH_FILE, folder / b.MTP_TARGET_FILE
    )
    if not all(p.is_file() for p in (made.target, made.eagle3, made.dflash, made.mtp_target)):
        made = b.build(folder, agree=agree)
    return made


def tiny_pair(agree: bool = False) -> tuple[Path, Path]:
    """(target, assistant) paths, built on first use."""
    b = gemma4
    folder = ASSET_DIR / f"gemma4-tiny{'-agree' if agree else ''}-v{b.BUILDER_VERSION}"
    target, assistant = folder / b.TARGET_FILE, folder / b.ASSISTANT_FILE
    if not (target.is_file() and assistant.is_file()):
        b.build(folder, agree=agree)
    return target, assistant


def tiny_mmproj(projection_dim: int | None = None) -> Path:
    """The tiny ``gemma4v`` vision projector for the tiny Gemma 4 target (and the tiny llama target:
    both are 128 wide), built on first use; ``projection_dim`` writes one for another width."""
    b = mmproj
    width = projection_dim or b.TEXT_HIDDEN
    folder = ASSET_DIR / f"gemma4-mmproj-v{b.BUILDER_VERSION}"
    name = b.MMPROJ_FILE if width == b.TEXT_HIDDEN else f"gemma4-tiny-mmproj-{width}.gguf"
    path = folder / name
    if not path.is_file():
        b.build(folder, projection_dim=width, name=name)
    return path


def plain_drafter() -> Path:
    """A second tiny Gemma 4 (other seed) to draft for the tiny target as an ordinary draft model
    (``DRAFT_SIMPLE``): same vocabulary, its own weights."""
    b = gemma4
    folder = ASSET_DIR / f"gemma4-tiny-plain-drafter-v{b.BUILDER_VERSION}"  # apart from the pair
    path = folder / "gemma4-tiny-plain-drafter.gguf"
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        write_whole(path, lambda partial: b.write_target(partial, seed=7))
    return path


def tiny_vision_family(name: str, agree: bool = False) -> dict[str, Any]:
    """A user family whose local files are the tiny Gemma 4 target, its assistant and its gemma4v
    projector: what the GUI tests and the screenshots register."""
    target, assistant = tiny_pair(agree=agree)
    return {
        "name": name,
        "description": "tiny random-weight Gemma 4 with its assistant and projector (test asset)",
        "context_length": 2048,
        "abilities": ["chat", "vision"],
        "architectures": ["Gemma4ForConditionalGeneration"],
        "specs": [
            {
                "format": "gguf",
                "size_in_billions": 0.001,
                "quantizations": ["F32"],
                "model_file_name_template": target.name,
                "sources": {
                    "local": {
                        "path": str(target),
                        "draft_path": str(assistant),
                        "mmproj_path": str(tiny_mmproj()),
                    }
                },
            }
        ],
    }
