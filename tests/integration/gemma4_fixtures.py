"""The tiny Gemma 4 + assistant GGUF pair for llama.cpp tests, built once and cached.

``scripts/make_tiny_gemma4.py`` writes the files directly with gguf-py (no torch, no converter);
they are kept in ``TANDEM_TEST_ASSETS`` like the SmolLM2 F32 file, in a folder named after the
builder version so a changed builder never serves stale files. Two pairs: random weights (the
drafter is almost never right) and ``agree`` (both models always predict ``a``: every draft is
accepted, so round numbers are known in advance).

Used by ``tests/integration/test_gemma4_llamacpp.py``, ``tests/gui/test_gemma4_pair.py`` and
``benchmarks/bench_gemma4_tiny.py``.
"""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


@cache
def builder() -> ModuleType:
    """``scripts/make_tiny_gemma4.py`` as a module (scripts/ is not a package)."""
    name = "make_tiny_gemma4"
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "make_tiny_gemma4.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the file executes
    spec.loader.exec_module(module)
    return module


@cache
def drafter_builder() -> ModuleType:
    """``scripts/make_tiny_drafters.py`` as a module (it imports ``make_tiny_gemma4``)."""
    builder()
    name = "make_tiny_drafters"
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "make_tiny_drafters.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def tiny_drafters(agree: bool = False) -> Any:
    """The tiny llama target with its EAGLE-3 and DFlash drafters (a ``TinySet``), built on first use."""
    b = drafter_builder()
    g = builder()
    folder = asset_dir() / f"llama-tiny{'-agree' if agree else ''}-v{b.BUILDER_VERSION}.{g.BUILDER_VERSION}"
    made = b.TinySet(
        folder / b.TARGET_FILE, folder / b.EAGLE3_FILE, folder / b.DFLASH_FILE, folder / b.MTP_TARGET_FILE
    )
    if not all(p.is_file() for p in (made.target, made.eagle3, made.dflash, made.mtp_target)):
        made = b.build(folder, agree=agree)
    return made


def asset_dir() -> Path:
    from tests.conftest import ASSET_DIR

    return ASSET_DIR


def tiny_pair(agree: bool = False) -> tuple[Path, Path]:
    """(target, assistant) paths, built on first use."""
    b = builder()
    folder = asset_dir() / f"gemma4-tiny{'-agree' if agree else ''}-v{b.BUILDER_VERSION}"
    target, assistant = folder / b.TARGET_FILE, folder / b.ASSISTANT_FILE
    if not (target.is_file() and assistant.is_file()):
        b.build(folder, agree=agree)
    return target, assistant


@cache
def mmproj_builder() -> ModuleType:
    """``scripts/make_tiny_mmproj.py`` as a module."""
    name = "make_tiny_mmproj"
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "make_tiny_mmproj.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def tiny_mmproj(projection_dim: int | None = None) -> Path:
    """The tiny ``gemma4v`` vision projector for the tiny Gemma 4 target (and the tiny llama target:
    both are 128 wide), built on first use; ``projection_dim`` writes one for another width."""
    b = mmproj_builder()
    width = projection_dim or b.TEXT_HIDDEN
    folder = asset_dir() / f"gemma4-mmproj-v{b.BUILDER_VERSION}"
    name = b.MMPROJ_FILE if width == b.TEXT_HIDDEN else f"gemma4-tiny-mmproj-{width}.gguf"
    path = folder / name
    if not path.is_file():
        b.build(folder, projection_dim=width, name=name)
    return path


def plain_drafter() -> Path:
    """A second tiny Gemma 4 (other seed) to draft for the tiny target as an ordinary draft model
    (``DRAFT_SIMPLE``): same vocabulary, its own weights."""
    b = builder()
    folder = asset_dir() / f"gemma4-tiny-plain-drafter-v{b.BUILDER_VERSION}"  # apart from the pair
    path = folder / "gemma4-tiny-plain-drafter.gguf"
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        b.write_target(partial, seed=7)
        partial.replace(path)
    return path


def tiny_vision_family(name: str, agree: bool = False) -> dict[str, Any]:
    """A user family whose local files are the tiny Gemma 4 target, its assistant and its gemma4v
    projector (issue 26): what the GUI tests and the screenshots register."""
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
