"""Package data for the frozen app, read from the single declaration in ``pyproject.toml``.

``[tool.setuptools.package-data]`` is the one list of data files (it feeds the wheel); the
PyInstaller spec calls :func:`package_data` instead of repeating it, so a new icon or translation
added there ships in both the wheel and the bundle.

This module is loaded by file path (``importlib.util.spec_from_file_location``), never imported
by name: the ``packaging/`` folder must not shadow the PyPI ``packaging`` library PyInstaller uses.
"""

from __future__ import annotations

import tomllib
from pathlib import Path


def declared_patterns(pyproject: Path) -> dict[str, list[str]]:
    """``{"app.resources": ["*.json", "icons/*", ...], ...}`` as written in pyproject.toml."""
    data = tomllib.loads(pyproject.read_text("utf-8"))
    try:
        table = data["tool"]["setuptools"]["package-data"]
    except KeyError as exc:
        raise SystemExit(f"{pyproject} has no [tool.setuptools.package-data] table") from exc
    return {str(pkg): [str(p) for p in patterns] for pkg, patterns in table.items()}


def package_dirs(pyproject: Path) -> dict[str, str]:
    """``{"app.resources": "resources", ...}``: packages whose source folder is mapped elsewhere."""
    data = tomllib.loads(pyproject.read_text("utf-8"))
    table = data.get("tool", {}).get("setuptools", {}).get("package-dir", {})
    return {str(pkg): str(folder) for pkg, folder in table.items()}


def package_data(root: Path) -> list[tuple[str, str]]:
    """PyInstaller ``datas`` entries ``(source file, destination folder)`` for the declared files.

    Sources come from the package's folder (``resources/`` for ``app.resources``, as mapped in
    ``[tool.setuptools.package-dir]``); destinations mirror the package layout
    (``app/resources/icons``), which is where ``importlib.resources.files("app.resources")`` looks
    inside a frozen app.
    """
    datas: list[tuple[str, str]] = []
    mapped = package_dirs(root / "pyproject.toml")
    for pkg, patterns in declared_patterns(root / "pyproject.toml").items():
        pkg_dir = root / mapped[pkg] if pkg in mapped else root.joinpath(*pkg.split("."))
        if not pkg_dir.is_dir():
            raise SystemExit(f"package-data names {pkg!r} but {pkg_dir} does not exist")
        for pattern in patterns:
            for src in sorted(pkg_dir.glob(pattern)):
                if src.is_file():
                    dest = Path(*pkg.split("."), src.relative_to(pkg_dir).parent)
                    datas.append((str(src), dest.as_posix()))
    return datas
