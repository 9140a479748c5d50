"""File patterns resolved against real repository listings (olah for Hugging Face, the loopback
ModelScope server), sizes cached for offline use."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.cache import CacheManager, SpecResolutionError, listing
from app.core.catalog.sizes import annotate
from app.core.registry import Family, Registry, parse_family
from app.devtools.hubs.huggingface import OlahHub
from app.devtools.hubs.modelscope import ModelScopeHub
from app.devtools.hubs.repos import build_hf_repo, tiny_gguf

PATTERN_REPO = "tandem-test/pattern-GGUF"


def pattern_repo_files() -> dict[str, bytes]:
    return {
        "README.md": b"# pattern test\n",
        "Model-X-Q4_K_M.gguf": tiny_gguf(120_000, 31),
        "mmproj-Q4_K_M.gguf": tiny_gguf(5_000, 32),  # a vision projector: never the model
        "Q8_0/Model-X-Q8_0-00001-of-00002.gguf": tiny_gguf(70_000, 33),
        "Q8_0/Model-X-Q8_0-00002-of-00002.gguf": tiny_gguf(60_000, 34),
        "Model-X-Q5_K_M.gguf": tiny_gguf(9_000, 35),
        "Model-X-UD-Q5_K_M.gguf": tiny_gguf(9_500, 36),  # *-Q5_K_M.gguf matches it too (UD-Q5_K_M)
        "Model-Y-Q6_K.gguf": tiny_gguf(9_700, 38),
        "Model-Z-Q6_K.gguf": tiny_gguf(9_800, 39),  # makes *-Q6_K.gguf ambiguous
        "draft/Small.q8_0.gguf": tiny_gguf(30_000, 37),  # lower case: matching ignores case
    }


@pytest.fixture(scope="module")
def pattern_olah(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OlahHub]:
    hub = OlahHub(tmp_path_factory.mktemp("olah-pattern"))
    build_hf_repo(hub.mirrors, PATTERN_REPO, dict(pattern_repo_files()))
    hub.start(PATTERN_REPO)
    try:
        yield hub
    finally:
        hub.stop()


@pytest.fixture()
def pattern_ms(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModelScopeHub]:
    hub = ModelScopeHub({PATTERN_REPO: pattern_repo_files()})
    hub.start()
    monkeypatch.setenv("MODELSCOPE_ENDPOINT", hub.endpoint)
    try:
        yield hub
    finally:
        hub.stop()


def pattern_family() -> Family:
    src = {
        "model_id": PATTERN_REPO,
        "page": f"https://huggingface.co/{PATTERN_REPO}",
        "draft_model_file_name_template": "*Small.{draft_quantization}.gguf",
        "draft_quantizations": ["Q8_0"],
    }
    return parse_family(
        {
            "name": "pattern-test",
            "specs": [
                {
                    "format": "gguf",
                    "size_in_billions": 0.001,
                    "quantizations": ["Q4_K_M", "Q8_0", "Q5_K_M", "Q6_K", "Q2_K"],
                    "model_file_name_template": "*-{quantization}.gguf",
                    "sources": {"huggingface": src, "modelscope": src},
                }
            ],
        }
    )


@pytest.mark.parametrize("hub", ["huggingface", "modelscope"])
def test_patterns_resolve_against_the_listing(
    hub: str, pattern_olah: OlahHub, pattern_ms: ModelScopeHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_ENDPOINT", pattern_olah.endpoint)
    fam = pattern_family()
    spec = fam.specs[0]
    files = pattern_repo_files()

    # a single file; the mmproj file next to it is not taken
    path = CacheManager(fam, spec, "target", "Q4_K_M", hub).download()
    assert path.name == "Model-X-Q4_K_M.gguf"
    assert path.read_bytes() == files["Model-X-Q4_K_M.gguf"]

    # a split series in a folder: both parts, the engine gets the first
    mgr = CacheManager(fam, spec, "target", "Q8_0", hub)
    first = mgr.download()
    assert first.name == "Model-X-Q8_0-00001-of-00002.gguf"
    assert (first.parent / "Model-X-Q8_0-00002-of-00002.gguf").read_bytes() == files[
        "Q8_0/Model-X-Q8_0-00002-of-00002.gguf"
    ]
    assert mgr.status().state == "cached"

    # the drafter's pattern, case-insensitively
    d = CacheManager(fam, spec, "drafter", "Q4_K_M", hub, draft_quantization="Q8_0").download()
    assert d.read_bytes() == files["draft/Small.q8_0.gguf"]

    # the pattern matches a UD-Q5_K_M file too: the one whose quantization is Q5_K_M is taken
    path = CacheManager(fam, spec, "target", "Q5_K_M", hub).download()
    assert path.name == "Model-X-Q5_K_M.gguf" and path.read_bytes() == files["Model-X-Q5_K_M.gguf"]
    # several models of that very quantization match: a clear error naming them, nothing downloaded
    with pytest.raises(SpecResolutionError) as several:
        CacheManager(fam, spec, "target", "Q6_K", hub).download()
    msg = str(several.value)
    assert "2 files match '*-Q6_K.gguf'" in msg
    assert "Model-Y-Q6_K.gguf" in msg and "Model-Z-Q6_K.gguf" in msg
    # none matches: says so and shows what the repo has
    with pytest.raises(SpecResolutionError) as none:
        CacheManager(fam, spec, "target", "Q2_K", hub).download()
    assert "no model file for Q2_K (the registry names *-Q2_K.gguf)" in str(none.value)
    assert "it holds model quantizations Q4_K_M, Q5_K_M, UD-Q5_K_M, Q6_K, Q8_0" in str(none.value)


def test_sizes_are_cached_for_offline_use(
    pattern_olah: OlahHub, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HF_ENDPOINT", pattern_olah.endpoint)
    fam = pattern_family()
    spec = fam.specs[0]
    reg = Registry(families={fam.name: fam})

    def sizes() -> dict[str, int | None]:
        from app.core.cache import registry_status

        out = annotate(reg, registry_status(reg, "huggingface"))
        entry = out[0]["specs"][0]
        assert entry["hubs"] == ["huggingface", "modelscope"]
        return dict(entry["size_bytes"])

    assert sizes() == {"Q4_K_M": None, "Q8_0": None, "Q5_K_M": None, "Q6_K": None, "Q2_K": None}
    listing.fetch_listing("huggingface", PATTERN_REPO, "main")
    # then offline: the hub is not asked again (a dead endpoint changes nothing)
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    got = sizes()
    assert got["Q4_K_M"] == 120_000
    assert got["Q8_0"] == 130_000  # split parts summed
    assert got["Q5_K_M"] == 9_000  # the file whose quantization is exactly Q5_K_M
    assert got["Q6_K"] is None and got["Q2_K"] is None  # ambiguous / absent: unknown
    # a pattern resolved through the cached listing: the status probe finds hub-cache files
    mgr = CacheManager(fam, spec, "target", "Q4_K_M", "huggingface")
    assert mgr.plan.files == ("Model-X-Q4_K_M.gguf",)


def test_unreachable_hub_listing_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.core.cache import HubError

    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    fam = pattern_family()
    with pytest.raises(HubError) as err:
        CacheManager(fam, fam.specs[0], "target", "Q4_K_M", "huggingface").download()
    assert err.value.code == "network"
    assert PATTERN_REPO in str(err.value)


def test_models_json_gains_hubs_and_size_bytes(capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli import main

    assert main(["models", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    by_name = {f["name"]: f for f in data}
    q4 = by_name["smollm2-135m-instruct"]["specs"][0]
    assert q4["hubs"] == ["local"]
    assert q4["size_bytes"]["Q4_1"] == 98362432  # the embedded file
    qwen = by_name["qwen3"]["specs"][0]
    assert qwen["hubs"] == ["huggingface", "modelscope"]
    assert set(qwen["size_bytes"]) == set(qwen["quantizations"])
    assert all(v is None for v in qwen["size_bytes"].values())  # nothing listed yet: unknown
    moe = next(s for s in by_name["qwen3"]["specs"] if s["size"] == "30B-A3B")
    assert moe["moe"] is True and moe["activated_size_in_billions"] == 3
