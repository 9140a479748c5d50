"""The GUI's local API server: serves the loaded model, follows loads and unloads (issue 13).

Signals: ``stateChanged(bool running)``, ``requestServed(object ServedRequest)`` (emitted from the
server's threads, delivered on the GUI thread), ``failed(str message)``.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QObject, Signal

from app.core.registry import Registry
from app.core.serving import LocalServer, ServedModel, ServerConfig, api_key, is_loopback
from app.core.serving.model import served_model

log = logging.getLogger(__name__)

DEFAULT_PORT = 8080


class ServerController(QObject):
    stateChanged = Signal(bool)
    requestServed = Signal(object)
    failed = Signal(str)

    def __init__(self, host: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.host = host  # the EngineHost
        self.server: LocalServer | None = None
        self.bind_host = "127.0.0.1"
        self.port = DEFAULT_PORT
        host.loaded.connect(self._on_loaded)
        host.unloaded.connect(self._on_unloaded)

    @property
    def running(self) -> bool:
        return self.server is not None and self.server.running

    @property
    def address(self) -> str:
        return self.server.address if self.server is not None else ""

    @property
    def key(self) -> str:
        return api_key()

    @property
    def exposed(self) -> bool:
        """True when the server listens on an address other machines can reach."""
        return not is_loopback(self.bind_host)

    def _model(self) -> ServedModel | None:
        engine = self.host.current_engine
        info = self.host.info or {}
        if engine is None:
            return None
        family = Registry.load().families.get(str(info.get("family", "")))
        try:
            return served_model(
                engine,
                engine.model_path,
                family.name if family else None,
                family.tool_parser if family else None,
                family.chat_template if family else None,
            )
        except ValueError as exc:  # an unknown tool_parser: serve without tool-call parsing
            log.warning("tool calls stay text: %s", exc)
            return ServedModel(engine, family.name if family else "tandem", None, engine.spec_kind)

    def start(self, bind_host: str | None = None) -> bool:
        """Start serving (port 8080, else a free port); False with ``failed`` emitted on error."""
        if bind_host is not None:
            self.bind_host = bind_host
        self.stop()
        for port in (self.port, 0):
            config = ServerConfig(api_key(), self.bind_host, port)
            server = LocalServer(self._model(), config, on_request=self.requestServed.emit)
            try:
                server.start()
            except OSError as exc:
                if port == 0:
                    self.failed.emit(str(exc))
                    return False
                continue
            self.server = server
            self.stateChanged.emit(True)
            return True
        return False

    def stop(self) -> None:
        if self.server is None:
            return
        server, self.server = self.server, None
        server.stop()
        self.stateChanged.emit(False)

    def _on_loaded(self, _info: object) -> None:
        if self.server is not None:
            self.server.set_model(self._model())

    def _on_unloaded(self) -> None:
        if self.server is not None:
            self.server.set_model(None)
