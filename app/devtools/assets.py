"""Where the test and benchmark assets are kept: downloaded and generated model files, built once.

``TANDEM_TEST_ASSETS`` names the folder, else ``~/.cache/tandem-test-assets`` of the real home (the
tests point ``HOME`` at a temporary one, so the home is read from the password database).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path


def _real_home() -> Path:
    try:
        import pwd
    except ImportError:  # Windows: HOME is not redirected there
        return Path.home()
    try:
        return Path(pwd.getpwuid(os.getuid()).pw_dir)
    except KeyError:
        return Path.home()


#: the user's home, whatever ``HOME`` says
REAL_HOME = _real_home()
ASSET_DIR = Path(os.environ.get("TANDEM_TEST_ASSETS", REAL_HOME / ".cache" / "tandem-test-assets"))


def write_whole(path: Path, write: Callable[[Path], object]) -> Path:
    """``write(partial)`` beside ``path``, then move it into place: the file appears only when
    complete (a builder stopped midway leaves no file a later run would take as built)."""
    partial = path.with_name(path.name + ".partial")
    write(partial)
    partial.replace(path)
    return path


def builder_main(
    prog: str,
    parser: argparse.ArgumentParser,
    argv: list[str] | None,
    build: Callable[[argparse.Namespace], Sequence[Path]],
) -> int:
    """A tiny-model builder's command line: parse ``argv``, ``build`` the files, print each with
    its size; an error is one line on stderr and exit code 1."""
    args = parser.parse_args(argv)
    try:
        made = build(args)
    except (OSError, ValueError) as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 1
    for path in made:
        print(f"{path} ({path.stat().st_size / 1e6:.2f} MB)")
    return 0
