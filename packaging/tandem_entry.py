"""Entry script of the frozen executables (PyInstaller needs a script, not an entry point).

Both executables run this file. ``tandem`` (``Tandem.app`` on macOS) behaves like the installed
``tandem`` command: the GUI without arguments, CLI subcommands otherwise. ``tandem-cli`` is the
console companion needed on Windows (a windowed .exe has no stdout); without arguments it prints
the CLI help instead of opening a window. With ``--tandem-llamacpp-host`` either one runs the
llama.cpp engine's child process (``app.core.engines.llamacpp.host.FROZEN_FLAG``).
"""

from __future__ import annotations

import sys
from pathlib import Path


def _run() -> int:
    args = sys.argv[1:]
    from app.core.engines.llamacpp.host import FROZEN_FLAG

    if args[:1] == [FROZEN_FLAG]:  # the llama.cpp engine's child process
        from app.core.engines.llamacpp.host import main as host_main

        return host_main()
    if args[:1] == ["--self-test"]:  # both executables: the release workflow runs it on each OS
        from app.selftest import main as self_test

        return self_test(args[1:])
    if Path(sys.executable).stem.lower() == "tandem-cli":
        from app.cli.commands import main as cli_main

        return cli_main(args or ["--help"])
    from app.__main__ import main

    return main(args)


if __name__ == "__main__":
    sys.exit(_run())
