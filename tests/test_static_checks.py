"""ruff, mypy and the import-linter contract (no Qt in app/core) as configured in pyproject.toml.

They run in the README's test command, so a landing cannot break them unnoticed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False, timeout=600)


def test_ruff_check_and_format() -> None:
    done = _run(sys.executable, "-m", "ruff", "check", "app", "tests", "scripts", "benchmarks", "packaging")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    done = _run(sys.executable, "-m", "ruff", "format", "--check", "app", "tests", "scripts", "benchmarks")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


@pytest.mark.timeout(900)
def test_mypy() -> None:
    done = _run(sys.executable, "-m", "mypy", "app")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_core_has_no_qt() -> None:
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or "lint-imports"
    done = _run(exe)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
