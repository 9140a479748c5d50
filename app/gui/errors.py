"""One path from an exception to the user: a short message, the next step, details on demand.

Typed domain errors carry a user-safe message (and engines a hint); anything else is shown as an
unexpected error with its traceback under "Details".
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QObject, Signal

from app.core.assets import AssetMissing
from app.core.engines.base import EngineError
from app.core.registry import RegistryError
from app.core.speculative import SpeculationError


@dataclass(frozen=True)
class UserError:
    title: str
    message: str
    hint: str = ""
    details: str = ""


def describe(exc: BaseException, context: str = "") -> UserError:
    details = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    title = context or QCoreApplication.translate("Errors", "Something went wrong")
    if isinstance(exc, EngineError):
        return UserError(title, str(exc), exc.hint, details)
    if isinstance(exc, SpeculationError):
        return UserError(
            title,
            str(exc),
            QCoreApplication.translate("Errors", "Correct the speculative decoding settings and try again."),
            details,
        )
    if isinstance(exc, AssetMissing):
        return UserError(
            title,
            str(exc),
            QCoreApplication.translate("Errors", "Install the package named above, then restart Tandem."),
            details,
        )
    if isinstance(exc, RegistryError | ValueError):
        return UserError(
            title,
            str(exc),
            QCoreApplication.translate(
                "Errors", "Check the model entry; the message names the field to fix."
            ),
            details,
        )
    if isinstance(exc, OSError):
        return UserError(
            title,
            str(exc),
            QCoreApplication.translate("Errors", "Check free disk space and permissions, then retry."),
            details,
        )
    return UserError(
        QCoreApplication.translate("Errors", "Unexpected error"),
        f"{type(exc).__name__}: {exc}",
        QCoreApplication.translate(
            "Errors", "Tandem keeps running. If this repeats, report it with the details below."
        ),
        details,
    )


class ErrorBridge(QObject):
    """Thread-safe: ``report`` may be called from any thread; ``raised`` fires on the GUI thread."""

    raised = Signal(object)  # UserError

    def report(self, exc: BaseException, context: str = "") -> None:
        self.raised.emit(describe(exc, context))
