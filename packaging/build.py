"""Build the Tandem bundle with PyInstaller in one command.

    python packaging/build.py [--dist DIR] [--work DIR]

Installs nothing: run it with the Python that has Tandem and its dependencies installed (the
bundle is made from that environment), plus ``pyinstaller``. Prints where the bundle is, its size
and how long the build took. See packaging/README.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SPEC = HERE / "tandem.spec"
INSTALL_HINT = "python -m pip install 'pyinstaller>=6.10'"


@dataclass(frozen=True)
class BuildResult:
    bundle: Path  # the onedir folder (dist/tandem), or dist/Tandem.app on macOS
    seconds: float
    size_bytes: int


def dir_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def require_pyinstaller() -> None:
    if importlib.util.find_spec("PyInstaller") is None:
        raise SystemExit(
            f"PyInstaller is not installed in {sys.executable}.\n"
            f"Install it into the same environment as Tandem, then run this again:\n    {INSTALL_HINT}"
        )


def build(dist: Path, work: Path, *, quiet: bool = False) -> BuildResult:
    """Run ``tandem.spec`` into ``dist``; raise CalledProcessError (with PyInstaller's log) on failure."""
    require_pyinstaller()
    dist, work = dist.resolve(), work.resolve()
    cmd = [
        sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean",
        "--distpath", str(dist), "--workpath", str(work), str(SPEC),
    ]  # fmt: skip
    start = time.monotonic()
    subprocess.run(
        cmd,
        cwd=ROOT,
        check=True,
        capture_output=quiet,
        text=True,
        env={**os.environ, "PYTHONNOUSERSITE": "1"},
    )
    seconds = time.monotonic() - start
    bundle = dist / "Tandem.app" if sys.platform == "darwin" else dist / "tandem"
    if not bundle.is_dir():
        raise RuntimeError(f"PyInstaller finished but {bundle} is missing")
    return BuildResult(bundle, seconds, dir_size(bundle))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the Tandem bundle with PyInstaller.")
    parser.add_argument(
        "--dist", type=Path, default=HERE / "dist", help="output folder (default: packaging/dist)"
    )
    parser.add_argument(
        "--work",
        type=Path,
        default=None,
        help="PyInstaller work folder (default: <dist>/../build)",
    )
    args = parser.parse_args(argv)
    work = args.work or args.dist.resolve().parent / "build"
    try:
        result = build(args.dist, work)
    except subprocess.CalledProcessError as exc:
        print(f"build failed (exit {exc.returncode}); see PyInstaller's output above", file=sys.stderr)
        return 1
    print(f"bundle: {result.bundle}")
    print(f"size:   {result.size_bytes / 1e6:.0f} MB")
    print(f"time:   {result.seconds:.1f} s")
    print(f"check:  {sys.executable} {HERE / 'smoke_test.py'} --dist {args.dist}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
