"""``tandem`` / ``python -m app``: the GUI by default, headless subcommands otherwise."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("gui", "--gui"):
        try:
            from app.gui.app import run_gui
        except ImportError as exc:
            print(
                f"tandem: the desktop app is not available ({exc}); try `tandem generate --prompt ...`",
                file=sys.stderr,
            )
            return 2
        return run_gui(args[1:] if args else [])
    from app.cli import main as cli_main

    return cli_main(args)


if __name__ == "__main__":
    sys.exit(main())
