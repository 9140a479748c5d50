"""The bundle's data files come from the one declaration in pyproject.toml (fast, no PyInstaller)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from tests.packaging._load import PACKAGING_DIR, load

ROOT = PACKAGING_DIR.parent


def test_every_runtime_resource_is_declared_and_lands_in_its_package_folder() -> None:
    datas = load("tandem_datafiles").package_data(ROOT)
    shipped = {(Path(src).name, dest) for src, dest in datas}

    expected = {("builtin_families.json", "app/resources")}
    icons = resources.files("app.resources").joinpath("icons")
    expected |= {(p.name, "app/resources/icons") for p in icons.iterdir() if p.name.endswith(".svg")}
    translations = resources.files("app.translations")
    expected |= {(p.name, "app/translations") for p in translations.iterdir() if p.name.endswith(".qm")}

    assert len(expected) > 5
    assert expected <= shipped, f"not shipped: {sorted(expected - shipped)}"
    assert all(Path(src).is_file() for src, _ in datas)


def test_the_spec_reads_the_declaration_instead_of_repeating_it() -> None:
    spec = (PACKAGING_DIR / "tandem.spec").read_text("utf-8")
    assert "package_data(ROOT)" in spec
    assert "builtin_families.json" not in spec and "*.qm" not in spec
