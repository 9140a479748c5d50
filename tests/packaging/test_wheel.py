"""The wheel carries the top-level resources/ and translations/ as app.resources / app.translations.

The product card keeps ``resources/`` and ``translations/`` beside ``app/``; setuptools maps them into
the package (``[tool.setuptools.package-dir]`` + setup.py). This builds the real wheel, installs it
into an empty folder and reads every kind of data file from a process that cannot see the checkout.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.packaging, pytest.mark.timeout(600)]


def test_wheel_installs_resources_and_translations_where_the_app_reads_them(tmp_path: Path) -> None:
    out = tmp_path / "wheel"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = out.glob("tandem-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "app/resources/builtin_families.json" in names
    assert any(n.startswith("app/resources/icons/") and n.endswith(".svg") for n in names)
    for locale in ("en", "zh_CN", "ja", "ko"):
        assert f"app/translations/tandem_{locale}.qm" in names
    assert not any(
        n.startswith(("resources/", "translations/")) for n in names
    )  # no stray top-level packages

    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
    )
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import json, sys\n"
        "import app\n"
        "from importlib import resources\n"
        "assert app.__file__.startswith(sys.argv[1]), app.__file__\n"
        "res = resources.files('app.resources')\n"
        "fams = json.loads(res.joinpath('builtin_families.json').read_text('utf-8'))\n"
        "icons = [p.name for p in res.joinpath('icons').iterdir()]\n"
        "qm = resources.files('app.translations').joinpath('tandem_ja.qm').read_bytes()\n"
        "print(len(fams), len(icons), len(qm))\n",
        "utf-8",
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(target)
    # -s: no user site; the editable install's finder is in site-packages, so the wheel copy on
    # PYTHONPATH comes first and the assertion above checks it is the one imported
    done = subprocess.run(
        [sys.executable, "-s", str(probe), str(target)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    n_families, n_icons, qm_size = map(int, done.stdout.split())
    assert n_families >= 3 and n_icons >= 5 and qm_size > 1000
