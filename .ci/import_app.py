"""Import every module of app/ that a plain install must be able to run (the newcomer tier of .ci/run).

Run in a venv that holds only the base dependencies: a module importing a package that only an
extra (or nothing) declares fails here, the way it would fail a user. The test tooling
(app.devtools, the test extra) and the MLX engine (the mlx extra) are left out.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import app

EXTRA_ONLY = ("app.devtools", "app.core.engines.mlx")


def main() -> int:
    names = sorted(
        m.name
        for m in pkgutil.walk_packages(app.__path__, "app.")
        if not m.name.startswith(EXTRA_ONLY) and not m.name.endswith("__main__")
    )
    failed = []
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as exc:
            failed.append(f"{name}: {type(exc).__name__}: {exc}")
    for line in failed:
        print(f"import failed: {line}", file=sys.stderr)
    print(f"imported {len(names) - len(failed)} of {len(names)} app modules with the base dependencies")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
