"""GUI entry point: ``run_gui(argv)`` builds the QApplication on a qasync loop and shows the window."""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QApplication, QWidget

from app.core import settings as settings_mod
from app.core.chat.render.math import warm_up as warm_formulas
from app.gui.errors import ErrorBridge, install_exception_hooks
from app.gui.i18n import I18n
from app.gui.icons import ACCENT, icon, register_search_path
from app.gui.theme import Theme
from app.gui.widgets import window_size_for_screen

if TYPE_CHECKING:
    from app.gui.main_window import MainWindow

log = logging.getLogger(__name__)


def create_application(argv: list[str]) -> QApplication:
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    app = QApplication(argv)
    app.setApplicationName("Tandem")
    app.setOrganizationName("Tandem")
    app.setStyle("Fusion")
    register_search_path()  # before the stylesheet: its arrows are url(icons:...)
    Theme.of(app)  # the palette and stylesheet of the system's scheme until the settings say
    app.setWindowIcon(icon("chat", ACCENT))
    return app


def freeze_startup_heap() -> None:
    """Move the objects made at start-up (the window, its widgets, the catalog) out of the garbage
    collector's sight: they live as long as the app, and a full collection walking them all stalls
    the GUI thread, e.g. in the middle of opening a long conversation."""
    gc.collect()
    gc.freeze()


def show_fitted(window: QWidget) -> None:
    """Show the main window at its size, or smaller on a small screen (at 1200 x 780 on a
    1366 x 768 laptop its status bar was below the screen's edge)."""
    window.resize(window_size_for_screen(window, window.size()))
    window.show()


@dataclass
class StartedGui:
    """The desktop app as :func:`start_gui` leaves it: the window shown, its start-up model
    loading, the qasync loop not yet running."""

    app: QApplication
    window: MainWindow
    errors: ErrorBridge
    loop: asyncio.AbstractEventLoop
    restore: Callable[[], None]

    def stop(self) -> None:
        self.window.shutdown()  # cancels the window's operations while the loop is still open
        self.loop.close()
        self.restore()


def start_gui(argv: list[str], load_model: bool | None = None) -> StartedGui:
    """Build the app as ``tandem`` starts it (settings, theme, language, error hooks, the qasync
    loop, the window and its start-up model: ``load_model`` None follows the setting);
    :func:`run_gui` and the window's self-test (:mod:`app.gui.selftest`) then run the loop."""
    from app.gui.main_window import MainWindow
    from app.gui.ops import event_loop

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_application(["tandem", *argv])  # Qt expects argv[0] to be the program
    settings = settings_mod.load()
    Theme.of(app).apply(settings.color_scheme)
    i18n = I18n(app)
    i18n.set_language(settings.language)
    errors = ErrorBridge(app)
    restore = install_exception_hooks(errors.report)
    # The qasync loop first: the window's operations (status probes, the start-up reopen, delete,
    # launch-after-download) are coroutines on it, awaiting work on threads.
    loop = event_loop()
    window = MainWindow(settings, i18n, errors)
    show_fitted(window)
    freeze_startup_heap()
    # the first formula of an answer would import matplotlib and load its fonts on the GUI thread
    window.ops.query(warm_formulas).run()
    if settings.autoload_default_model if load_model is None else load_model:
        window.load_startup_model()  # the last launch when it is still on disk, else the default
    return StartedGui(app, window, errors, loop, restore)


def run_gui(argv: list[str]) -> int:
    """Start the desktop app; ``argv`` are the arguments after the program name. Returns the exit code."""
    started = start_gui(argv)
    closed = asyncio.Event()
    started.app.aboutToQuit.connect(closed.set)
    try:
        started.loop.run_until_complete(closed.wait())
    finally:
        started.stop()
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(run_gui(sys.argv))
