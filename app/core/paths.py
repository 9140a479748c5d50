"""Where Tandem keeps its files. Everything goes through here so tests can redirect it.

``TANDEM_HOME`` (used by the test suite and by portable installs) puts config, data and cache
under one directory; otherwise platformdirs picks the OS conventions.

The model cache entries (:func:`models_root`) may live elsewhere: the "Model cache" setting
(``Settings.cache_dir``) moves them, and :func:`set_models_root` pins them for this process (the
GUI does so when it starts and whenever the setting changes).
"""

from __future__ import annotations

import json
import os
import threading
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


_models_root: Path | None = None
_settings_memo: tuple[tuple[str, int, int], Path | None] | None = None
_lock = threading.Lock()


def set_models_root(path: str | Path | None) -> None:
    """Pin where Tandem's cache entries live for this process; ``None`` goes back to the setting
    in the settings file (or the default)."""
    global _models_root
    with _lock:
        _models_root = Path(path).expanduser() if path else None


def _models_root_from_settings() -> Path | None:
    """``cache_dir`` from the settings file, re-read only when the file changes (one stat a call).

    Read here as plain JSON, not through :mod:`app.core.settings`, which imports this module; an
    unreadable file means "not set" (``settings.load`` is the one that reports it).
    """
    global _settings_memo
    path = config_dir() / "settings.json"
    try:
        st = path.stat()
    except OSError:
        return None
    key = (str(path), st.st_mtime_ns, st.st_size)
    with _lock:
        if _settings_memo is not None and _settings_memo[0] == key:
            return _settings_memo[1]
    try:
        value = json.loads(path.read_text("utf-8")).get("cache_dir") or ""
    except (OSError, ValueError, AttributeError):
        value = ""
    found = Path(value).expanduser() if isinstance(value, str) and value.strip() else None
    with _lock:
        _settings_memo = (key, found)
    return found


def default_models_root() -> Path:
    return cache_dir() / "models"


def models_root() -> Path:
    """Where Tandem's cache entries go: the pinned root, else the "Model cache" setting, else
    ``cache_dir()/models``. The entries hold manifests and links; the model bytes stay in the
    hub's own cache, shared with other tools."""
    with _lock:
        pinned = _models_root
    path = pinned or _models_root_from_settings() or default_models_root()
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
