"""Build the PyInstaller bundle into a temp dir and smoke-test it in a clean environment.

Needs PyInstaller in the test environment (skipped otherwise). Building takes a while and writes
hundreds of MB, removed afterwards; see packaging/README.md.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.packaging._load import load

pytest.importorskip("PyInstaller", reason="pip install pyinstaller to build and smoke-test the bundle")

build = load("build")
smoke = load("smoke_test")

pytestmark = [pytest.mark.packaging, pytest.mark.timeout(900)]


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    base = tmp_path_factory.mktemp("bundle")
    result = build.build(base / "dist", base / "work", quiet=True)
    print(f"\nbuilt {result.bundle} in {result.seconds:.1f} s, {result.size_bytes / 1e6:.0f} MB")
    yield base / "dist"
    shutil.rmtree(base, ignore_errors=True)  # hundreds of MB; do not keep three of them around


@pytest.fixture
def exes(dist: Path) -> Any:
    return smoke.find_executables(dist)


def test_generate_answers_offline_from_the_embedded_model(exes: Any, tmp_path: Path) -> None:
    print(smoke.check_generate(exes, tmp_path))


def test_models_lists_the_registry(exes: Any, tmp_path: Path) -> None:
    print(smoke.check_models(exes, tmp_path))


def test_gui_starts_and_stays_up(exes: Any, tmp_path: Path) -> None:
    print(smoke.check_gui(exes, tmp_path))


def test_self_test_answers_with_speculation(exes: Any, tmp_path: Path) -> None:
    print(smoke.check_selftest(exes, tmp_path))
