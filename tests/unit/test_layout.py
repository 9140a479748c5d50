"""The product card's top-level layout: resources/ and translations/ beside app/."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_resources_and_translations_live_at_the_top_level() -> None:
    for name in ("pyproject.toml", "README.md", "app", "resources", "translations", "tests", "packaging"):
        assert (ROOT / name).exists(), name
    assert (ROOT / "resources" / "builtin_families.json").is_file()
    assert any((ROOT / "resources" / "icons").glob("*.svg"))
    for locale in ("en", "zh_CN", "ja", "ko"):
        assert (ROOT / "translations" / f"tandem_{locale}.ts").is_file(), locale
    # nothing left behind inside the package folder
    assert not (ROOT / "app" / "resources").exists()
    assert not (ROOT / "app" / "translations").exists()


def test_the_package_reads_them_through_the_mapping() -> None:
    from importlib import resources

    assert resources.files("app.resources").joinpath("builtin_families.json").is_file()
    assert resources.files("app.translations").joinpath("tandem_en.ts").is_file()
