"""The MLX suites need mlx, mlx-lm and mlx-vlm: where they cannot be imported (Windows, a machine
without the ``mlx`` extra) the tests that need them are skipped with the reason, unless
``TANDEM_REQUIRE_MLX=1`` (set where the suite runs on macOS in CI), which makes it a failure: a
broken MLX install cannot pass CI as a row of skips. Same pattern as ``TANDEM_REQUIRE_VLLM``.
"""

from __future__ import annotations

import importlib
import os

import pytest

REQUIRED = "TANDEM_REQUIRE_MLX"
#: what the MLX engine imports: mlx itself, mlx-lm (text models) and mlx-vlm (Gemma 4, vision)
ALL = ("mlx.core", "mlx_lm", "mlx_vlm")


def require_mlx(*modules: str) -> None:
    """Import ``modules`` (default: all of :data:`ALL`); one that cannot be imported skips the
    test, or fails it with ``TANDEM_REQUIRE_MLX=1``."""
    for name in modules or ALL:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            if os.environ.get(REQUIRED) == "1":
                pytest.fail(f"MLX required ({REQUIRED}=1): {name} cannot be imported: {exc}", pytrace=False)
            pytest.skip(f"{name} cannot be imported: {exc}")
