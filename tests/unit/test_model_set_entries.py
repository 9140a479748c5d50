"""What a model set serves: a folder's GGUF files (drafters and projectors are not models), and a
presets file (INI: ``[*]`` then one section per id) with clear errors (app/core/modelset/entries.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.modelset.entries import (
    EntryIndex,
    ModelSetError,
    entries_from_dir,
    read_presets,
)


def _touch(folder: Path, *names: str) -> None:
    for name in names:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"GGUF")


def test_a_folder_serves_its_models_not_their_drafters_projectors_or_later_split_parts(
    tmp_path: Path,
) -> None:
    _touch(
        tmp_path,
        "SmolLM2-135M-Instruct.Q4_1.gguf",
        "gemma-4-E2B-it-Q4_K_M.gguf",
        "gemma-4-E2B-it-assistant-Q4_K_M.gguf",
        "mmproj-gemma-4-E2B-it-F16.gguf",
        "big/Qwen3-32B-Q4_K_M-00001-of-00002.gguf",
        "big/Qwen3-32B-Q4_K_M-00002-of-00002.gguf",
        "notes.txt",
    )
    entries = {e.id: e for e in entries_from_dir(tmp_path)}
    assert set(entries) == {"SmolLM2-135M-Instruct.Q4_1", "gemma-4-E2B-it-Q4_K_M", "Qwen3-32B-Q4_K_M"}
    gemma = entries["gemma-4-E2B-it-Q4_K_M"]
    assert (
        gemma.draft_path is not None and Path(gemma.draft_path).name == "gemma-4-E2B-it-assistant-Q4_K_M.gguf"
    )
    assert entries["SmolLM2-135M-Instruct.Q4_1"].draft_path is None
    assert Path(entries["Qwen3-32B-Q4_K_M"].path).name == "Qwen3-32B-Q4_K_M-00001-of-00002.gguf"


def test_a_missing_or_empty_folder_is_said_so(tmp_path: Path) -> None:
    with pytest.raises(ModelSetError, match="no such folder"):
        entries_from_dir(tmp_path / "nope")
    _touch(tmp_path, "mmproj-x.gguf")
    with pytest.raises(ModelSetError, match="no GGUF model in it"):
        entries_from_dir(tmp_path)


def test_presets_change_known_models_add_their_own_and_inherit_the_star_section(tmp_path: Path) -> None:
    _touch(tmp_path, "small.gguf", "large.gguf", "other/extra.gguf")
    presets = tmp_path / "models.ini"
    presets.write_text(
        "[*]\nttl = 120\nctx-size = 8192\n\n"
        "[small]\nalias = claude-haiku-*, fast\npinned = true\nspec = ngram-mod\n\n"
        "[large]\nctx-size = 4096\nload-on-startup = yes\nparallel = 2\n\n"
        "[extra]\nmodel = other/extra.gguf\nmodel-draft = small.gguf\n",
        encoding="utf-8",
    )
    entries = {e.id: e for e in read_presets(presets, entries_from_dir(tmp_path))}
    small, large, extra = entries["small"], entries["large"], entries["extra"]
    assert small.pinned and small.speculation == "ngram-mod" and small.ttl_s == 120 and small.ctx == 8192
    assert large.ctx == 4096 and large.load_on_startup and large.slots == 2
    assert extra.path == str(tmp_path / "other/extra.gguf") and extra.draft_path == str(
        tmp_path / "small.gguf"
    )
    index = EntryIndex(tuple(entries.values()))
    found = index.find("claude-haiku-4-5-20251001")
    assert found is not None and found.id == "small"
    assert (
        index.find("fast") is small
        and index.find("large.gguf") is large
        and index.find("claude-opus") is None
    )


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[small]\nctx-size = many\n", "ctx-size: expected a whole number"),
        ("[small]\nparallel = 0\n", "parallel: must be at least 1"),
        ("[small]\npinned = perhaps\n", "pinned: expected true or false"),
        ("[small]\nspec = ???\n", "spec: not a speculation"),
        ("[small]\ncolour = blue\n", "colour: not a setting Tandem reads"),
        ("[ghost]\nctx-size = 4096\n", "[ghost]: no model of that id is served"),
        ("[*]\nmodel = a.gguf\n", "[*]: model and alias belong to one model's section"),
        ("[small]\nalias = large\n", "alias 'large' is another model's id"),
        ("no section here\n", "not an INI file"),
        ("[small]\nctx-size = 1\n[small]\nctx-size = 2\n", "not an INI file"),
    ],
)
def test_a_bad_presets_file_names_the_section_and_the_key(tmp_path: Path, text: str, said: str) -> None:
    _touch(tmp_path, "small.gguf", "large.gguf")
    presets = tmp_path / "models.ini"
    presets.write_text(text, encoding="utf-8")
    with pytest.raises(ModelSetError) as caught:
        read_presets(presets, entries_from_dir(tmp_path))
    assert said in str(caught.value) and str(presets) in str(caught.value)
