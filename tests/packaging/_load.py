"""Load a module from ``packaging/`` by file path.

``packaging/`` is deliberately not a Python package: ``import packaging`` must keep meaning the PyPI
library (PyInstaller, pip and setuptools import it).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

PACKAGING_DIR = Path(__file__).resolve().parents[2] / "packaging"


def load(name: str) -> ModuleType:
    qualified = f"tandem_packaging_{name}"
    if qualified in sys.modules:
        return sys.modules[qualified]
    spec = importlib.util.spec_from_file_location(qualified, PACKAGING_DIR / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[qualified] = module  # dataclasses resolve their module through sys.modules
    spec.loader.exec_module(module)
    return module
