"""Where Tandem keeps its files. Everything goes through here so tests can redirect it.

``TANDEM_HOME`` (used by the test suite and by portable installs) puts config, data and cache
under one directory; otherwise platformdirs picks the OS conventions.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "Tandem"


def _home() -> Path | None:
    value = os.environ.get("TANDEM_HOME")
    return Path(value) if value else None


def config_dir() -> Path:
    home = _home()
    path = home / "config" if home else Path(platformdirs.user_config_dir(APP, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def data_dir() -> Path:
    home = _home()
    path = home / "data" if home else Path(platformdirs.user_data_dir(APP, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def cache_dir() -> Path:
    home = _home()
    path = home / "cache" if home else Path(platformdirs.user_cache_dir(APP, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def user_families_dir() -> Path:
    path = data_dir() / "families"
    path.mkdir(parents=True, exist_ok=True)
    return path


def embedded_models_dir() -> Path:
    """Models derived from the embedded ones (e.g. SmolLM2 F32 dequantized from Q4_1)."""
    override = os.environ.get("TANDEM_EMBEDDED_DIR")
    path = Path(override) if override else cache_dir() / "embedded"
    path.mkdir(parents=True, exist_ok=True)
    return path
