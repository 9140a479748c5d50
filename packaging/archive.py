"""Pack a built bundle into the file a release ships for this OS.

    python packaging/archive.py [--dist DIR] [--out DIR]

- Linux:   ``tandem-<version>-linux-<arch>.tar.gz`` of ``DIST/tandem/`` (permissions kept)
- Windows: ``tandem-<version>-windows-<arch>.zip`` of ``DIST\\tandem\\``
- macOS:   ``tandem-<version>-macos-<arch>.dmg`` holding ``Tandem.app`` (``hdiutil``)

Prints the path of the file it wrote (the release workflow uploads it) and its size. See
packaging/README.md ("Release").
"""

from __future__ import annotations

import argparse
import platform
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

_ARCH = {"x86_64": "x86_64", "amd64": "x86_64", "arm64": "arm64", "aarch64": "arm64"}


def version() -> str:
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"])


def target_name(system: str = sys.platform, machine: str = platform.machine()) -> str:
    """``linux-x86_64``, ``windows-x86_64``, ``macos-arm64``, ..."""
    os_name = "macos" if system == "darwin" else "windows" if system == "win32" else "linux"
    return f"{os_name}-{_ARCH.get(machine.lower(), machine.lower())}"


def archive(dist: Path, out: Path, system: str = sys.platform) -> Path:
    """Write the distributable of the bundle in ``dist`` into ``out``; return its path."""
    out.mkdir(parents=True, exist_ok=True)
    stem = f"tandem-{version()}-{target_name(system)}"
    if system == "darwin":
        app = dist / "Tandem.app"
        if not app.is_dir():
            raise SystemExit(f"{app} is missing; build first: python {HERE / 'build.py'} --dist {dist}")
        dmg = out / f"{stem}.dmg"
        dmg.unlink(missing_ok=True)
        subprocess.run(
            ["hdiutil", "create", "-volname", "Tandem", "-srcfolder", str(app), "-format", "UDZO",
             "-ov", str(dmg)],
            check=True,
        )  # fmt: skip
        return dmg
    folder = dist / "tandem"
    if not folder.is_dir():
        raise SystemExit(f"{folder} is missing; build first: python {HERE / 'build.py'} --dist {dist}")
    kind = "zip" if system == "win32" else "gztar"
    return Path(shutil.make_archive(str(out / stem), kind, root_dir=dist, base_dir="tandem"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Pack the built Tandem bundle for release.")
    parser.add_argument("--dist", type=Path, default=HERE / "dist", help="build.py's --dist folder")
    parser.add_argument("--out", type=Path, default=None, help="where to write it (default: --dist)")
    args = parser.parse_args(argv)
    start = time.monotonic()
    path = archive(args.dist, args.out or args.dist)
    print(f"archive: {path}")
    print(f"size:    {path.stat().st_size / 1e6:.0f} MB")
    print(f"time:    {time.monotonic() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
