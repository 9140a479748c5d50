"""The interpreter of a virtual environment with arctic-inference installed (marker ``vllm``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def arctic_python() -> Path:
    value = os.environ.get("TANDEM_ARCTIC_PYTHON")
    if not value:
        pytest.skip("TANDEM_ARCTIC_PYTHON is not set (the python of a venv with arctic-inference installed)")
    return Path(value)
