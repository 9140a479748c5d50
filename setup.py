"""Package list for setuptools: ``app*`` plus the top-level folders mapped into the package.

Everything else lives in pyproject.toml; pyproject cannot combine package discovery with the
``package-dir`` mapping of ``resources/`` and ``translations/``, so the list is made here.
"""

import tomllib
from pathlib import Path

from setuptools import find_packages, setup

_MAPPED = tomllib.loads((Path(__file__).parent / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"][
    "package-dir"
]

setup(packages=sorted(set(find_packages(include=["app", "app.*"])) | set(_MAPPED)))
