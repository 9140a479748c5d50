"""Registers the ``packaging`` marker until it is listed in pyproject.toml's pytest markers."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "packaging: builds the PyInstaller bundle (slow, ~0.5 GB on disk)")
