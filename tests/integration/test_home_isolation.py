"""Nothing a test does lands outside its temporary home.

modelscope writes ``~/.modelscope/credentials/session`` on every download, huggingface_hub keeps
its token under ``~/.cache/huggingface``, keyring and Qt read XDG directories. The isolation
fixture in tests/conftest.py points all of them into the test's tmp_path; this test runs the
representative download code (both hubs, the settings file, the keyring) and checks that the
files landed in the temporary home and that the real home gained nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

from app.core import secrets
from app.core import settings as settings_mod
from app.core.cache import CacheManager
from app.devtools.assets import ASSET_DIR, REAL_HOME
from app.devtools.hubs.modelscope import ModelScopeHub
from app.devtools.hubs.repos import tiny_family
from tests.integration.hub_servers import hf_endpoint, modelscope_hub, olah_hub

__all__ = ["hf_endpoint", "modelscope_hub", "olah_hub"]  # fixtures

# Trees of the real home that other programs on this machine write to while the test runs
# (toolchains, the agent that runs the suite); Tandem's tests never should, and never do.
_FOREIGN = {".pyenv", ".rustup", ".cargo", ".npm", ".m2", ".claude", ".bash_history"}


def _listing(root: Path, depth: int = 5) -> set[str]:
    """Relative paths under ``root`` (a few levels deep), foreign trees and the test assets skipped."""
    out: set[str] = set()
    for dirpath, dirs, files in os.walk(root):
        here = Path(dirpath)
        rel = here.relative_to(root)
        if rel.parts and rel.parts[0] in _FOREIGN:
            dirs[:] = []
            continue
        if here == ASSET_DIR or len(rel.parts) >= depth:
            dirs[:] = []
        for name in dirs + files:
            if not rel.parts and name in _FOREIGN:
                continue
            out.add((rel / name).as_posix())
    return out


def test_downloads_settings_and_tokens_stay_in_the_temporary_home(
    hf_endpoint: str, modelscope_hub: ModelScopeHub, tmp_path: Path
) -> None:
    before = _listing(REAL_HOME)
    fam = tiny_family()
    spec = fam.specs[0]
    assert CacheManager(fam, spec, "target", "Q4_0", "huggingface").download().is_file()
    assert CacheManager(fam, spec, "target", "Q4_0", "modelscope").download().is_file()
    assert CacheManager(fam, spec, "drafter", "Q4_0", "modelscope").download().is_file()
    settings_mod.save(settings_mod.Settings())
    assert secrets.get_token("huggingface") is None  # keyring reads its config under XDG dirs

    # modelscope did write its session id: into the temporary home, not the real one
    session = tmp_path / "home" / ".modelscope" / "credentials" / "session"
    assert session.is_file() and len(session.read_text().strip()) == 32
    assert sorted(_listing(REAL_HOME) - before) == []
    assert Path.home() == tmp_path / "home" != REAL_HOME
