"""``TANDEM_REQUIRE_MLX=1`` turns an MLX library that cannot be imported into a failure, not a skip."""

from __future__ import annotations

import pytest

from tests.mlx_required import REQUIRED, require_mlx

MISSING = "tandem_no_such_mlx_module"


def test_a_missing_library_skips_where_mlx_is_not_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(REQUIRED, raising=False)
    with pytest.raises(pytest.skip.Exception, match=f"{MISSING} cannot be imported"):
        require_mlx(MISSING)


def test_a_missing_library_fails_where_mlx_is_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(REQUIRED, "1")
    with pytest.raises(pytest.fail.Exception, match=rf"MLX required \({REQUIRED}=1\): {MISSING} cannot"):
        require_mlx(MISSING)


def test_importable_libraries_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(REQUIRED, "1")
    require_mlx("json", "importlib")  # importable: nothing raised
