"""``tandem`` / ``python -m app``: the GUI by default, headless subcommands otherwise."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

#: Qt platform plugins that draw without a display server.
_HEADLESS_PLATFORMS = frozenset(
    {"offscreen", "minimal", "minimalegl", "vnc", "eglfs", "linuxfb", "vkkhrdisplay"}
)


def display_problem(env: Mapping[str, str], platform: str) -> str | None:
    """Why the desktop app cannot open a window here, or None when it can (or we cannot tell).

    Checked before Qt is imported: without a display Qt aborts the process with a message about
    ``xcb-cursor0`` that sends people installing system packages instead.
    """
    if not platform.startswith("linux"):
        return None
    qpa = env.get("QT_QPA_PLATFORM", "").split(":", 1)[0].strip().lower()
    if qpa in _HEADLESS_PLATFORMS:
        return None
    has_x, has_wayland = bool(env.get("DISPLAY")), bool(env.get("WAYLAND_DISPLAY"))
    if qpa == "xcb" and not has_x:
        missing = "QT_QPA_PLATFORM=xcb but DISPLAY is not set"
    elif qpa.startswith("wayland") and not has_wayland:
        missing = f"QT_QPA_PLATFORM={qpa} but WAYLAND_DISPLAY is not set"
    elif not qpa and not (has_x or has_wayland):
        missing = "neither DISPLAY nor WAYLAND_DISPLAY is set"
    else:
        return None
    return (
        f"tandem: no display to open the desktop app ({missing}); use the headless commands, e.g. "
        '`tandem generate --prompt "..."` (see `tandem --help`), or run the window offscreen with '
        "QT_QPA_PLATFORM=offscreen"
    )


def starting_line() -> str:
    """One line for people who started the GUI from a terminal: what it is about to load."""
    try:
        from app.core import settings as settings_mod
        from app.core.launch.plan import DEFAULT_MODEL

        s = settings_mod.load()
        last = s.last_model
        if last is not None:
            return (
                f"Tandem is starting, loading {last.family} {last.size} {last.quantization} ({last.engine})"
            )
        if s.autoload_default_model:
            name, fmt, _size, quant = DEFAULT_MODEL
            return f"Tandem is starting, loading {name} {quant} ({fmt})"
    except Exception:  # the window reports settings problems itself; this line is only a courtesy
        pass
    return "Tandem is starting"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--self-test"] and "--window" in args[1:]:  # the window's first minute
        from app.xcb_libs import xcb_problem

        if display_problem(os.environ, sys.platform) or xcb_problem(os.environ, sys.platform):
            os.environ["QT_QPA_PLATFORM"] = "offscreen"  # no screen here: the same window, unseen
        from app.gui.selftest import run as window_self_test

        return window_self_test()
    if args[:1] == ["--self-test"]:  # headless: no Qt, works in the frozen bundle too
        from app.selftest import main as self_test

        return self_test(args[1:])
    if not args or args[0] in ("gui", "--gui"):
        from app.xcb_libs import xcb_problem

        problem = display_problem(os.environ, sys.platform) or xcb_problem(os.environ, sys.platform)
        if problem:
            print(problem, file=sys.stderr)
            return 2
        try:
            from app.gui.app import run_gui
        except ImportError as exc:
            print(
                f"tandem: the desktop app is not available ({exc}); try `tandem generate --prompt ...`",
                file=sys.stderr,
            )
            return 2
        if sys.stderr.isatty():
            print(starting_line(), file=sys.stderr, flush=True)
        return run_gui(args[1:] if args else [])
    from app.cli.commands import main as cli_main

    return cli_main(args)


if __name__ == "__main__":
    sys.exit(main())
