"""Where cache entries go: TANDEM_HOME default, the "Model cache" setting, an explicit pin."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core import paths
from app.core import settings as st
from app.core.cache import CacheManager, entries_root
from app.core.registry import Family, parse_family


@pytest.fixture(autouse=True)
def _unpinned() -> Iterator[None]:
    paths.set_models_root(None)
    yield
    paths.set_models_root(None)


def _local_family(model: Path) -> Family:
    return parse_family(
        {
            "name": "loc",
            "specs": [
                {
                    "format": "gguf",
                    "size_in_billions": 1,
                    "quantizations": ["Q4_0"],
                    "model_file_name_template": "m-{quantization}.gguf",
                    "sources": {
                        "huggingface": {"model_id": "org/loc-GGUF"},
                        "local": {"path": str(model)},
                    },
                }
            ],
        }
    )


def test_default_is_under_tandem_home(_isolated_home: Path) -> None:
    assert paths.models_root() == _isolated_home / "cache" / "models"
    assert entries_root() == paths.models_root() and entries_root().is_dir()


def test_setting_in_the_settings_file_moves_the_entries(_isolated_home: Path, tmp_path: Path) -> None:
    chosen = tmp_path / "elsewhere" / "tandem-models"
    s = st.Settings(cache_dir=str(chosen))
    st.save(s)
    assert entries_root() == chosen and chosen.is_dir()
    assert s.model_cache_dir() == chosen  # the schema and the cache layer agree
    fam = _local_family(tmp_path / "m.gguf")
    mgr = CacheManager(fam, fam.specs[0], "target", "Q4_0", "huggingface")
    assert mgr.entry_dir.parent == chosen
    st.save(st.Settings())  # cleared again: back to the default, no restart needed
    assert entries_root() == _isolated_home / "cache" / "models"


def test_a_pin_wins_over_the_file_and_none_unpins(_isolated_home: Path, tmp_path: Path) -> None:
    st.save(st.Settings(cache_dir=str(tmp_path / "from-file")))
    paths.set_models_root(tmp_path / "pinned")
    assert entries_root() == tmp_path / "pinned"
    paths.set_models_root(None)
    assert entries_root() == tmp_path / "from-file"


def test_unreadable_settings_file_falls_back_to_the_default(_isolated_home: Path) -> None:
    st.settings_path().write_text("{not json", "utf-8")
    assert paths.models_root() == paths.default_models_root()


def test_delete_acts_on_entries_in_the_chosen_root(_isolated_home: Path, tmp_path: Path) -> None:
    """A manifest-only entry under the chosen root is the one the delete cascade sees."""
    fam = _local_family(tmp_path / "m.gguf")
    paths.set_models_root(tmp_path / "chosen")
    spec = fam.specs[0]
    target = CacheManager(fam, spec, "target", "Q4_0", "huggingface")
    target.entry_dir.mkdir(parents=True)
    orphan_drafter = target.entry_dir.parent / (target.entry_name + "-draft")
    orphan_drafter.mkdir()
    assert target.delete() == 0
    assert not target.entry_dir.exists() and not orphan_drafter.exists()
    assert not (paths.default_models_root() / target.entry_name).exists()
