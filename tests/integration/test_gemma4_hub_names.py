"""The builtin Gemma 4 entries against repositories laid out with the names the public hub pages
show: both drafter namings Unsloth has used, the root ``mtp-*.gguf``, a renamed target
and a renamed drafter. Everything is downloaded through olah on loopback with the registry as it
ships (no edits), and the downloaded pair is loaded by llama.cpp with its drafter.

Files are the tiny real Gemma 4 + assistant pair (``scripts/make_tiny_gemma4.py``) under the real
repository names.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.cache import CacheManager, ProgressEvent, SpecResolutionError
from app.core.catalog import listed
from app.core.engines.base import Finished, LoadRequest, Sampling
from app.core.engines.blocking import generate
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.registry import Registry
from app.core.speculative import SpeculationOptions
from app.devtools.hubs.huggingface import OlahHub
from app.devtools.hubs.repos import build_hf_repo, tiny_gguf
from app.devtools.tiny_models import tiny_pair

PLAIN_OLD = "unsloth/gemma-4-E4B-it-GGUF"  # the first uploads: MTP/gemma-4-E4B-it-<Q>-MTP.gguf
PLAIN_NEW = "unsloth/gemma-4-E2B-it-GGUF"  # after the rename: MTP/mtp-gemma-4-E2B-it-<Q>.gguf
QAT = "unsloth/gemma-4-12B-it-qat-GGUF"  # QAT: one target file, MTP/mtp-... drafters
RENAMED = "unsloth/gemma-4-26B-A4B-it-GGUF"  # a target and a drafter under names of a third kind
ROOT_ONLY = "unsloth/gemma-4-31B-it-GGUF"  # only the root drafter that `llama-server -hf` picks


def repos() -> dict[str, dict[str, bytes | Path]]:
    target, assistant = tiny_pair()
    pad = tiny_gguf(4_000, 91)
    return {
        PLAIN_OLD: {
            "README.md": b"# gemma 4 E4B\n",
            "gemma-4-E4B-it-Q4_K_M.gguf": target,
            "gemma-4-E4B-it-UD-Q4_K_XL.gguf": pad,
            "gemma-4-E4B-it-UD-IQ2_XXS.gguf": target,  # published after the registry was written
            "mmproj-F16.gguf": tiny_gguf(3_000, 92),
            "mtp-gemma-4-E4B-it.gguf": assistant,
            "MTP/gemma-4-E4B-it-Q8_0-MTP.gguf": assistant,
            "MTP/gemma-4-E4B-it-BF16-MTP.gguf": tiny_gguf(5_000, 93),
        },
        PLAIN_NEW: {
            "gemma-4-E2B-it-Q8_0.gguf": target,
            "mtp-gemma-4-E2B-it.gguf": assistant,
            "MTP/mtp-gemma-4-E2B-it-Q8_0.gguf": assistant,
            "MTP/mtp-gemma-4-E2B-it-F16.gguf": tiny_gguf(5_000, 94),
        },
        QAT: {
            "gemma-4-12B-it-qat-UD-Q4_K_XL.gguf": target,
            "mmproj-F16.gguf": tiny_gguf(3_000, 95),
            "mtp-gemma-4-12B-it.gguf": assistant,
            "MTP/mtp-gemma-4-12B-it-Q4_0.gguf": tiny_gguf(5_000, 96),
            "MTP/mtp-gemma-4-12B-it-Q8_0.gguf": assistant,
        },
        RENAMED: {
            "Gemma4-26B-A4B-Instruct-UD-Q4_K_M.gguf": target,
            "MTP/gemma-4-26B-A4B-assistant-Q8_0.gguf": assistant,
        },
        ROOT_ONLY: {
            "gemma-4-31B-it-Q4_K_M.gguf": target,
            "mtp-gemma-4-31B-it.gguf": assistant,
        },
    }


@pytest.fixture(scope="module")
def gemma_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OlahHub]:
    hub = OlahHub(tmp_path_factory.mktemp("olah-gemma4"))
    for repo, files in repos().items():
        build_hf_repo(hub.mirrors, repo, files)
    hub.start(PLAIN_OLD)
    try:
        yield hub
    finally:
        hub.stop()


@pytest.fixture()
def hf(gemma_hub: OlahHub, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("HF_ENDPOINT", gemma_hub.endpoint)
    return gemma_hub.endpoint


class Notes:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, ev: ProgressEvent) -> None:
        if ev.note:
            self.lines.append(ev.note)


def download(family: str, size: str, quant: str, dq: str | None = None) -> tuple[Path, list[str]]:
    fam, spec, q = Registry.load().match(family, "gguf", size, quant)
    role = "drafter" if dq else "target"
    notes = Notes()
    path = CacheManager(fam, spec, role, q, "huggingface", draft_quantization=dq).download(progress=notes)
    return path, notes.lines


@pytest.mark.parametrize(
    ("family", "size", "quant", "dq", "drafter_file"),
    [
        ("gemma-4", "E4B", "Q4_K_M", "Q8_0", "gemma-4-E4B-it-Q8_0-MTP.gguf"),
        ("gemma-4", "E2B", "Q8_0", "Q8_0", "mtp-gemma-4-E2B-it-Q8_0.gguf"),
        ("gemma-4-qat", "12", "UD-Q4_K_XL", "Q8_0", "mtp-gemma-4-12B-it-Q8_0.gguf"),
    ],
)
def test_both_drafter_namings_download_as_the_registry_ships(
    hf: str, family: str, size: str, quant: str, dq: str, drafter_file: str
) -> None:
    target, t_notes = download(family, size, quant)
    drafter, d_notes = download(family, size, quant, dq)
    assert drafter.name == drafter_file
    assert drafter.read_bytes() == tiny_pair()[1].read_bytes()
    assert target.read_bytes() == tiny_pair()[0].read_bytes()
    assert t_notes == [] and d_notes == []  # the declared names and patterns matched: nothing to say


def test_renamed_files_are_found_and_said(hf: str) -> None:
    target, t_notes = download("gemma-4", "26B-A4B", "UD-Q4_K_M")
    assert target.name == "Gemma4-26B-A4B-Instruct-UD-Q4_K_M.gguf"
    assert t_notes == [
        "the registry names gemma-4-26B-A4B-it-UD-Q4_K_M.gguf, the repository has "
        "Gemma4-26B-A4B-Instruct-UD-Q4_K_M.gguf: using it"
    ]
    drafter, d_notes = download("gemma-4", "26B-A4B", "UD-Q4_K_M", "Q8_0")
    assert drafter.name == "gemma-4-26B-A4B-assistant-Q8_0.gguf"
    assert d_notes == [
        "the registry names MTP/*gemma-4-26B-A4B-it-Q8_0*.gguf, the repository has "
        "MTP/gemma-4-26B-A4B-assistant-Q8_0.gguf: using it"
    ]
    # the one drafter of a repository that holds only the root file (no quantization in its name)
    drafter, d_notes = download("gemma-4", "31", "Q4_K_M", "Q8_0")
    assert drafter.name == "mtp-gemma-4-31B-it.gguf"
    assert d_notes and "the repository has mtp-gemma-4-31B-it.gguf: using it" in d_notes[0]


def test_what_the_repository_lacks_is_one_line_naming_what_it_holds(hf: str) -> None:
    fam, spec, _q = Registry.load().match("gemma-4", "gguf", "E4B", "Q3_K_S")
    with pytest.raises(SpecResolutionError) as target:
        CacheManager(fam, spec, "target", "Q3_K_S", "huggingface").download()
    assert str(target.value) == (
        f"{PLAIN_OLD}@main: no model file for Q3_K_S (the registry names gemma-4-E4B-it-Q3_K_S.gguf); "
        "it holds model quantizations Q4_K_M, UD-IQ2_XXS, UD-Q4_K_XL"
    )
    mgr = CacheManager(fam, spec, "target", "Q3_K_S", "huggingface")
    assert mgr.status().state == "absent"
    # a drafter quantization with no file: the drafter quantizations and files the repo holds
    with pytest.raises(SpecResolutionError) as drafter:
        CacheManager(fam, spec, "drafter", "Q4_K_M", "huggingface", draft_quantization="F16").download()
    assert str(drafter.value) == (
        f"{PLAIN_OLD}@main: no drafter file for F16 (the registry names MTP/*gemma-4-E4B-it-F16*.gguf); "
        "it holds drafter quantizations BF16, Q8_0 (MTP/gemma-4-E4B-it-BF16-MTP.gguf, "
        "MTP/gemma-4-E4B-it-Q8_0-MTP.gguf, mtp-gemma-4-E4B-it.gguf)"
    )
    assert CacheManager(
        fam, spec, "drafter", "Q4_K_M", "huggingface", draft_quantization="F16"
    ).status().state == ("absent")


def test_refresh_adds_what_the_listing_holds_and_downloads_it(hf: str) -> None:
    registry = Registry.load()
    assert "UD-IQ2_XXS" not in registry.get("gemma-4").specs[1].quantizations
    ((spec, report),) = listed.refresh(registry, "gemma-4", size="E4B", hub="huggingface")
    assert report.repo == PLAIN_OLD and report.listed == ["Q4_K_M", "UD-IQ2_XXS", "UD-Q4_K_XL"]
    assert report.added == ["UD-IQ2_XXS"]
    assert "Q3_K_S" in report.missing and "Q4_K_M" not in report.missing
    assert report.draft_listed == ["BF16", "Q8_0"] and report.draft_missing == ["F16"]
    assert registry.get("gemma-4").specs[1] is spec and spec.quantizations[-1] == "UD-IQ2_XXS"
    # a new start: the cached listing extends the registry offline, so the added quantization is
    # offered and downloads by name
    later = listed.load_registry()
    fam, later_spec, q = later.match("gemma-4", "gguf", "E4B", "UD-IQ2_XXS")
    assert later_spec.quantizations == spec.quantizations
    path = CacheManager(fam, later_spec, "target", q, "huggingface").download()
    assert path.name == "gemma-4-E4B-it-UD-IQ2_XXS.gguf"
    assert CacheManager(fam, later_spec, "target", q, "huggingface").status().state == "cached"


@pytest.mark.usefixtures("real_models")
def test_the_downloaded_pair_runs_with_its_drafter(hf: str) -> None:
    target, _ = download("gemma-4", "E4B", "Q4_K_M")
    drafter, _ = download("gemma-4", "E4B", "Q4_K_M", "Q8_0")
    engine = LlamaCppEngine.load(
        LoadRequest(
            str(target),
            SpeculationOptions.build(enabled=True, method="mtp", draft_model_path=str(drafter)),
            n_ctx=512,
            n_threads=2,
            family_name="gemma-4",
            size_in_billions=4,
        )
    )
    try:
        assert engine.spec_kind == "mtp"
        events = list(
            generate(engine, [{"role": "user", "content": "Count to five."}], Sampling(0.0, max_tokens=16))
        )
        fin = events[-1]
        assert isinstance(fin, Finished) and fin.completion_tokens == 16
        assert fin.drafted_total > 0  # the downloaded assistant drafted for the downloaded target
    finally:
        engine.close()
