"""The curated registry and the file-pattern rules it relies on."""

from __future__ import annotations

import pytest

from app.core.cache import SpecResolutionError, make_plan
from app.core.cache.listing import is_pattern, resolve_files, resolve_pattern
from app.core.registry import GGUFSpec, Registry


def test_at_least_12_families_8_with_drafters_both_formats() -> None:
    reg = Registry.load()
    fams = list(reg.families.values())
    assert len(fams) >= 12
    with_drafter = [f.name for f in fams if any(s.declares_drafter() for s in f.specs)]
    assert len(with_drafter) >= 8, with_drafter
    for name in ("qwen3", "qwen2.5-instruct", "qwen2.5-coder-instruct", "llama-3",
                 "deepseek-r1-distill-qwen", "gemma-3-it", "smollm2", "gemma-4"):  # fmt: skip
        assert name in with_drafter
    # families without a drafter are there too (model-free methods)
    assert {"mistral-7b-instruct", "phi-4-mini-instruct", "gpt-oss"} <= set(reg.families)
    assert any(s.format == "mlx" for f in fams for s in f.specs)
    # the three original families are unchanged in name
    assert {"smollm2-135m-instruct", "gemma-3-270m", "gemma-4"} <= reg.builtin_names


def test_every_curated_repo_id_carries_its_page() -> None:
    reg = Registry.load()
    for fam in reg.families.values():
        for spec in fam.specs:
            for hub in spec.sources.hubs():
                src = spec.source(hub)
                base = "https://huggingface.co/" if hub == "huggingface" else "https://modelscope.cn/models/"
                assert src.page and src.page.startswith(base), (fam.name, hub, src.model_id)
                repo = src.model_id.split("{", 1)[0]
                assert repo in src.page
                if src.draft_model_id:
                    assert src.draft_page and src.draft_model_id.split("{", 1)[0] in src.draft_page


def test_moe_targets_are_marked() -> None:
    reg = Registry.load()
    qwen_moe = [s for s in reg.get("qwen3").specs if s.size_label == "30B-A3B"]
    assert qwen_moe and qwen_moe[0].activated_size_in_billions == 3
    assert reg.get("gpt-oss").specs[0].activated_size_in_billions == 3.6


def test_curated_gguf_specs_use_patterns_and_plans_resolve() -> None:
    reg = Registry.load()
    for name in ("qwen3", "llama-3", "gemma-3-it"):
        fam = reg.get(name)
        for spec in fam.specs:
            for hub in spec.sources.hubs():
                plan = make_plan(fam, spec, "target", spec.quantizations[0], hub)
                if isinstance(spec, GGUFSpec):
                    assert all(is_pattern(f) for f in plan.files)
                if spec.declares_drafter(hub):
                    make_plan(fam, spec, "drafter", spec.quantizations[0], hub)


LISTING = [
    "README.md",
    "Qwen3-8B-Q4_K_M.gguf",
    "Qwen3-8B-UD-Q4_K_XL.gguf",
    "mmproj-F16.gguf",
    "model-F16.gguf",
    "Q8_0/big-Q8_0-00001-of-00003.gguf",
    "Q8_0/big-Q8_0-00002-of-00003.gguf",
    "Q8_0/big-Q8_0-00003-of-00003.gguf",
    "Q6_K/big-Q6_K-00001-of-00002.gguf",
    "qwen2.5-7b-instruct-q5_k_m.gguf",
]


def test_pattern_rules() -> None:
    assert resolve_pattern("*-Q4_K_M.gguf", LISTING, "r") == ["Qwen3-8B-Q4_K_M.gguf"]
    # case-insensitive (Qwen's own repos name files in lower case)
    assert resolve_pattern("*-Q5_K_M.gguf", LISTING, "r") == ["qwen2.5-7b-instruct-q5_k_m.gguf"]
    # a projector never matches, so the model file is the one match
    assert resolve_pattern("*-F16.gguf", LISTING, "r") == ["model-F16.gguf"]
    # split parts are one file: all parts, in order
    assert resolve_pattern("*-Q8_0.gguf", LISTING, "r") == [
        "Q8_0/big-Q8_0-00001-of-00003.gguf",
        "Q8_0/big-Q8_0-00002-of-00003.gguf",
        "Q8_0/big-Q8_0-00003-of-00003.gguf",
    ]
    with pytest.raises(SpecResolutionError, match=r"split into 2 parts but the repository lists parts \[1\]"):
        resolve_pattern("*-Q6_K.gguf", LISTING, "r")
    with pytest.raises(SpecResolutionError, match="2 files match"):
        resolve_pattern("Qwen3-8B-*.gguf", LISTING, "r")
    with pytest.raises(SpecResolutionError, match="no file in the repository matches"):
        resolve_pattern("*-IQ2_M.gguf", LISTING, "r")
    # plain names pass through untouched (no listing needed for them)
    assert resolve_files(["exact.gguf", "*-Q4_K_M.gguf"], LISTING, "r") == (
        "exact.gguf",
        "Qwen3-8B-Q4_K_M.gguf",
    )


def test_verify_registry_offline_passes() -> None:
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "scripts" / "verify_registry.py"
    spec = importlib.util.spec_from_file_location("verify_registry", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["verify_registry"] = module  # dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        report = module.verify(online=False)
    finally:
        sys.modules.pop("verify_registry", None)
    assert report.checked > 500
    assert report.failures == []


def test_a_renamed_drafter_is_found_by_its_shape_and_quantization() -> None:
    from app.core.cache.listing import NoMatchError, repo_quantizations, resolve_for

    listing = [
        "gemma-4-E4B-it-Q4_K_M.gguf",
        "gemma-4-E4B-it-UD-Q4_K_M.gguf",
        "gemma-4-E4B-it-Q8_0-MTP.gguf",  # a drafter in the repo root, Unsloth's first naming
        "mmproj-F16.gguf",
        "mtp-gemma-4-E4B-it-BF16.gguf",
    ]
    files, note = resolve_for(["MTP/*gemma-4-E4B-it-Q8_0*.gguf"], listing, "r", "drafter", "Q8_0")
    assert files == ("gemma-4-E4B-it-Q8_0-MTP.gguf",) and "using it" in note
    assert repo_quantizations(listing, "drafter") == ["Q8_0", "BF16"]
    # the target pattern: exactly Q4_K_M (not UD-Q4_K_M), never a drafter-shaped file
    assert resolve_for(["*-{q}.gguf".format(q="Q4_K_M")], listing, "r", "target", "Q4_K_M") == (
        ("gemma-4-E4B-it-Q4_K_M.gguf",),
        "",
    )
    with pytest.raises(NoMatchError, match="no model file for BF16"):
        resolve_for(["gemma-4-E4B-it-BF16.gguf"], listing, "r", "target", "BF16")
    # a target that carries its own MTP heads is still a target
    own = ["Qwen3.6-27B-Q5_K_M-mtp.gguf", "mmproj-Qwen3.6-27B-f16.gguf"]
    assert resolve_for(["*[-.]Q5_K_M*.gguf"], own, "r", "target", "Q5_K_M") == (
        ("Qwen3.6-27B-Q5_K_M-mtp.gguf",),
        "",
    )


def test_declared_split_parts_resolve_to_themselves_without_a_note() -> None:
    from app.core.cache.listing import resolve_for

    parts = ["F16/tiny-F16-00001-of-00002.gguf", "F16/tiny-F16-00002-of-00002.gguf"]
    assert resolve_for(parts, [*parts, "tiny-Q4_0.gguf"], "r", "target", "F16") == (tuple(parts), "")
