"""One path from an exception to the user: a short message, the next step, details on demand.

The next step (the hint) comes from one table, :data:`HINTS`: exception type (and, where one type
covers several causes, an error code) -> hint. The most specific type of the exception's MRO that
the table names wins, so a missing embedded package (``AssetMissing``, a ``FileNotFoundError``)
gets "install the package", not the generic ``OSError`` row; a plain ``ValueError`` that no row
names is reported as unexpected, with its details, instead of being blamed on the model entry.
Engine errors name their own next step (``EngineError.hint``, per class or per instance).

:func:`install_exception_hooks` routes uncaught errors from any thread to the same path.
"""

from __future__ import annotations

import errno
import logging
import sys
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal

from app.core.assets import AssetMissing
from app.core.cache.errors import (
    CacheError,
    DiskSpaceError,
    DownloadCancelled,
    HubError,
    NotCachedError,
    SpecResolutionError,
    VerificationError,
)
from app.core.catalog.importer import ModelImportError
from app.core.engines.base import EngineError, SamplingError
from app.core.engines.remote.endpoints import EndpointError, InsecureEndpointError
from app.core.engines.remote.engine import (
    AuthenticationFailed,
    EndpointUnreachable,
    RemoteModelNotFound,
    RemoteServerError,
    RemoteTimeout,
    StreamInterrupted,
    TLSFailure,
)
from app.core.gguf_tools import GGUFFormatError
from app.core.launch.plan import LaunchError
from app.core.registry import RegistryError
from app.core.speculative import SpeculationError

log = logging.getLogger(__name__)


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name lupdate extracts
    """Marks ``text`` for translation in ``context`` (typed; PySide6's returns ``object``)."""
    return text


#: The exception's own ``hint`` attribute (engine errors): the class that raises knows the cause.
OWN_HINT = "<own hint>"

#: (exception type, error code or None for any, hint). Codes: ``CacheError.code`` (HubError:
#: network / auth / not_found) and, for ``OSError``, the errno name (ENOSPC, EACCES...).
HINTS: tuple[tuple[type[BaseException], str | None, str], ...] = (
    (
        AssetMissing,
        None,
        QT_TRANSLATE_NOOP("Errors", "Install the package named above, then restart Tandem."),
    ),
    (
        NotCachedError,
        None,
        QT_TRANSLATE_NOOP(
            "Errors", "Download the model first (Models page, or the command above), then try again."
        ),
    ),
    (
        DiskSpaceError,
        None,
        QT_TRANSLATE_NOOP("Errors", "Free some disk space or choose a smaller quantization, then retry."),
    ),
    (
        HubError,
        "network",
        QT_TRANSLATE_NOOP(
            "Errors", "Check the network connection and the hub endpoint in Settings, then press Retry."
        ),
    ),
    (
        HubError,
        "auth",
        QT_TRANSLATE_NOOP(
            "Errors",
            "The hub refused access: check the repository id, or store a token for this hub in "
            "Settings if the repository is private or gated.",
        ),
    ),
    (
        HubError,
        "not_found",
        QT_TRANSLATE_NOOP(
            "Errors",
            "The hub has no such repository or file (or it is private): check the model entry's "
            "repository and file names, or store a token for this hub in Settings.",
        ),
    ),
    (
        HubError,
        None,
        QT_TRANSLATE_NOOP("Errors", "Check the network and the hub settings, then press Retry."),
    ),
    (
        VerificationError,
        None,
        QT_TRANSLATE_NOOP("Errors", "The damaged file was removed; press Retry to download it again."),
    ),
    (DownloadCancelled, None, QT_TRANSLATE_NOOP("Errors", "Press Retry to start the download again.")),
    (
        SpecResolutionError,
        "not_found",
        QT_TRANSLATE_NOOP(
            "Errors",
            "The repository has no file for this quantization; the message names the ones it holds. "
            "Choose one of those, or press Refresh from hub on the Models page to list them.",
        ),
    ),
    (
        SpecResolutionError,
        None,
        QT_TRANSLATE_NOOP("Errors", "Check the model entry; the message names the field to fix."),
    ),
    (CacheError, None, QT_TRANSLATE_NOOP("Errors", "Check the model cache in Settings, then retry.")),
    (
        ModelImportError,
        None,
        QT_TRANSLATE_NOOP(
            "Errors",
            "Choose a complete .gguf file (a download that stopped early is incomplete: download it "
            "again) or an MLX model folder with its config.json and weights. Nothing was added.",
        ),
    ),
    (
        RegistryError,
        None,
        QT_TRANSLATE_NOOP("Errors", "Check the model entry; the message names the field to fix."),
    ),
    (
        SpeculationError,
        None,
        QT_TRANSLATE_NOOP("Errors", "Correct the speculative decoding settings and try again."),
    ),
    (
        SamplingError,
        None,
        QT_TRANSLATE_NOOP(
            "Errors",
            "Correct the sampling settings (temperature, top-p, top-k, max new tokens) and try again.",
        ),
    ),
    (LaunchError, None, QT_TRANSLATE_NOOP("Errors", "Choose another engine or model in the launch dialog.")),
    (
        GGUFFormatError,
        None,
        QT_TRANSLATE_NOOP(
            "Errors", "The file is not a complete GGUF model: delete it and download it again."
        ),
    ),
    # remote servers: the GUI's next step, where the engine's own hint names CLI flags
    (
        InsecureEndpointError,
        None,
        QT_TRANSLATE_NOOP(
            "Errors",
            "Use https:// for a server on another machine, or tick Allow plain HTTP for this endpoint "
            "if it is on a network you trust.",
        ),
    ),
    (
        EndpointError,
        None,
        QT_TRANSLATE_NOOP(
            "Errors", "Enter the server's OpenAI API address, e.g. https://gpu-box.example:8000/v1."
        ),
    ),
    (
        EndpointUnreachable,
        None,
        QT_TRANSLATE_NOOP("Errors", "Start the server, or check the host name and port of the endpoint."),
    ),
    (
        TLSFailure,
        None,
        QT_TRANSLATE_NOOP(
            "Errors",
            "The server's HTTPS certificate is not trusted here: use one from a trusted authority, or add "
            "your own CA to the system's trust store.",
        ),
    ),
    (
        AuthenticationFailed,
        None,
        QT_TRANSLATE_NOOP(
            "Errors",
            "Enter the server's API key on the launch dialog's Remote server tab; Tandem keeps it in the "
            "system keyring.",
        ),
    ),
    (
        RemoteModelNotFound,
        None,
        QT_TRANSLATE_NOOP(
            "Errors", "Press List models on the Remote server tab and pick a model the server serves."
        ),
    ),
    (RemoteTimeout, None, QT_TRANSLATE_NOOP("Errors", "The server is slow or overloaded; try again.")),
    (
        StreamInterrupted,
        None,
        QT_TRANSLATE_NOOP(
            "Errors", "The partial answer is kept. Check the server (it may have stopped), then ask again."
        ),
    ),
    (RemoteServerError, None, QT_TRANSLATE_NOOP("Errors", "See the server's log for details.")),
    (EngineError, None, OWN_HINT),
    (
        OSError,
        "ENOSPC",
        QT_TRANSLATE_NOOP("Errors", "Free some disk space or choose a smaller quantization, then retry."),
    ),
    (
        PermissionError,
        None,
        QT_TRANSLATE_NOOP("Errors", "Tandem may not write there: check the folder's permissions."),
    ),
    (
        FileNotFoundError,
        None,
        QT_TRANSLATE_NOOP("Errors", "A file Tandem needs is missing; the message names it."),
    ),
    (OSError, None, QT_TRANSLATE_NOOP("Errors", "Check free disk space and permissions, then retry.")),
)


@dataclass(frozen=True)
class UserError:
    title: str
    message: str
    hint: str = ""
    details: str = ""


def error_code(exc: BaseException) -> str:
    """The code :data:`HINTS` is keyed by: ``exc.code`` (cache errors) or the errno name."""
    code = getattr(exc, "code", "")
    if isinstance(code, str) and code:
        return code
    if isinstance(exc, OSError) and exc.errno is not None:
        return errno.errorcode.get(exc.errno, "")
    return ""


def hint_for(exc_type: type[BaseException], code: str = "", own_hint: str = "") -> str | None:
    """The translated hint of the most specific row for ``exc_type`` and ``code``; None: no row
    names the type (an unexpected error)."""
    for cls in exc_type.__mro__:
        rows = [r for r in HINTS if r[0] is cls]
        row = next((r for r in rows if code and r[1] == code), None) or next(
            (r for r in rows if r[1] is None), None
        )
        if row is not None:
            if row[2] == OWN_HINT:
                if own_hint:  # English in the core; app.gui.engine_hints marks each for translation
                    return QCoreApplication.translate("EngineHints", own_hint)
                return QCoreApplication.translate(
                    "Errors", "Check the engine and model chosen in the launch dialog, then try again."
                )
            return QCoreApplication.translate("Errors", row[2])
    return None


def _known_types() -> dict[str, type[BaseException]]:
    """Every type the table names, with its subclasses, by class name."""
    out: dict[str, type[BaseException]] = {}
    todo: list[type[BaseException]] = [r[0] for r in HINTS]
    while todo:
        cls = todo.pop()
        if cls.__name__ not in out:
            out[cls.__name__] = cls
            todo.extend(cls.__subclasses__())
    return out


def hint_for_name(type_name: str, code: str = "") -> str:
    """The hint for an error known only by its class name (a download failure recorded by the
    queue, which outlives the exception object); a generic next step when the name is unknown."""
    cls = _known_types().get(type_name)
    hint = hint_for(cls, code) if cls is not None else None
    return hint or QCoreApplication.translate(
        "Errors", "Tandem keeps running. If this repeats, report it with the details below."
    )


def describe(exc: BaseException, context: str = "") -> UserError:
    details = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    title = context or QCoreApplication.translate("Errors", "Something went wrong")
    own = exc.hint if isinstance(exc, EngineError) else ""
    hint = hint_for(type(exc), error_code(exc), own)
    if hint is not None:
        return UserError(title, str(exc), hint, details)
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


def install_exception_hooks(reporter: Callable[[BaseException], None]) -> Callable[[], None]:
    """Route uncaught exceptions (any thread) to ``reporter``; returns a function that undoes it.

    ``reporter`` must be safe to call from any thread (:meth:`ErrorBridge.report` emits a queued
    signal).
    """
    old_sys, old_thread = sys.excepthook, threading.excepthook

    def sys_hook(etype: type[BaseException], value: BaseException, tb: Any) -> None:
        log.error("uncaught exception\n%s", "".join(traceback.format_exception(etype, value, tb)))
        reporter(value)

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_value is not None:
            log.error(
                "uncaught exception in thread %s",
                args.thread.name if args.thread else "?",
                exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
            )
            reporter(args.exc_value)

    sys.excepthook = sys_hook
    threading.excepthook = thread_hook

    def restore() -> None:
        sys.excepthook, threading.excepthook = old_sys, old_thread

    return restore
