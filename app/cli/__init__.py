"""The headless command line (``tandem <command>``): shared arguments in :mod:`app.cli.common`,
one module per group of commands, the dispatcher in :mod:`app.cli.commands`."""

from app.cli.commands import main

__all__ = ["main"]
