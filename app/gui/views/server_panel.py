"""The "Local server" switch of the status bar and its panel: address, key (Copy), settings for a
coding agent (Copy), request log."""

from __future__ import annotations

import sys
import time
from math import ceil
from typing import Protocol

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QPoint, QSize, Qt, QTimer, SignalInstance
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut, QTextLayout
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core.pool.pool_types import PoolStatus
from app.core.serving import ServedRequest
from app.core.units import human_bytes
from app.gui.views.stats import configuration_text
from app.gui.widgets import SCREEN_MARGIN, ScrollBody, fit_dialog_height, fitted_height, screen_height_cap

LOG_LIMIT = 200
#: the panel opens about this many average characters wide (its texts wrap at that width)
PANEL_CHARS = 90
#: the request log shows at least this many lines
LOG_LINES = 4
#: the request log opens this many lines tall (more requests scroll inside it)
LOG_OPEN_LINES = 6


class RequestLog(QListWidget):
    """The served requests, newest first; it opens a few lines tall and scrolls within itself
    (its default height made the panel taller than a laptop's screen in Japanese)."""

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(hint.width(), self.fontMetrics().lineSpacing() * LOG_OPEN_LINES + 2 * self.frameWidth())


class ServerLike(Protocol):
    """What the panel needs of the GUI's server controller (:class:`app.gui.controllers.server.
    ServerLike`): views sit below controllers and do not import them."""

    stateChanged: SignalInstance  # (bool running)
    requestServed: SignalInstance  # (ServedRequest)
    failed: SignalInstance  # (str message)
    bind_host: str

    @property
    def running(self) -> bool: ...

    @property
    def address(self) -> str: ...

    @property
    def key(self) -> str: ...

    @property
    def exposed(self) -> bool: ...

    @property
    def pending(self) -> bool: ...

    @property
    def context_length(self) -> int: ...

    def pool_status(self) -> PoolStatus | None: ...

    def start(self, bind_host: str | None = None) -> None: ...

    def stop(self) -> None: ...


class ServerPanel(QFrame):
    """Address and key of the running server, a switch for other machines, and the served requests."""

    def __init__(self, controller: ServerLike, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("serverPanel")
        self.setWindowFlags(Qt.WindowType.Window)
        self.controller = controller
        self.address = QLabel()
        self.address.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.key = QLineEdit()
        self.key.setReadOnly(True)
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.copy_key = QPushButton()
        self.copy_key.clicked.connect(self._copy_key)
        self.copy_address = QPushButton()
        self.copy_address.clicked.connect(
            lambda: QGuiApplication.clipboard().setText(self.controller.address)
        )
        self.remote = QCheckBox()
        self.remote.toggled.connect(self._on_remote_toggled)
        self.warning = QLabel()
        self.warning.setObjectName("serverWarning")
        self.warning.setWordWrap(True)
        self.agent_label = QLabel()
        self.agent_hint = QLabel()
        self.agent_hint.setWordWrap(True)
        #: the served context, and what to do when an agent's request did not fit in it
        self.context_note = QLabel()
        self.context_note.setObjectName("serverContext")
        self.context_note.setWordWrap(True)
        #: (prompt tokens, context) of the last request refused because it did not fit
        self._overflow: tuple[int, int] | None = None
        #: the configurations running for per-request speculation, and what each served
        self.pool_note = QLabel()
        self.pool_note.setObjectName("serverPool")
        self.pool_note.setWordWrap(True)
        self.agent_settings = QPlainTextEdit()
        self.agent_settings.setObjectName("agentSettings")
        self.agent_settings.setReadOnly(True)
        self.agent_settings.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.agent_settings.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.copy_agent = QPushButton()
        self.copy_agent.clicked.connect(self._copy_agent_settings)
        self.log = RequestLog()
        self.log.setObjectName("serverLog")
        # A request line (time, client, route, model, tokens, acceptance) is wider than the panel:
        # it wraps rather than hiding its end behind a horizontal scrollbar.
        self.log.setWordWrap(True)
        self.log.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.log.setResizeMode(QListWidget.ResizeMode.Adjust)
        row1 = QHBoxLayout()
        row1.addWidget(self.address, 1)
        row1.addWidget(self.copy_address)
        row2 = QHBoxLayout()
        row2.addWidget(self.key, 1)
        row2.addWidget(self.copy_key)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.key_label = QLabel()
        self.key_label.setWordWrap(True)  # a long line in Japanese set the panel's least width
        self.log_label = QLabel()
        #: stops serving (the status bar's switch opens this panel while the server runs)
        self.stop = QPushButton()
        self.stop.setObjectName("stopServer")
        self.stop.clicked.connect(controller.stop)
        title_row = QHBoxLayout()
        title_row.addWidget(self.title, 1)
        title_row.addWidget(self.stop, 0, Qt.AlignmentFlag.AlignTop)
        # The rows sit in a body that scrolls when the panel is shorter than they are (a short
        # screen, or the user made it so): squeezed, the fixed-height settings box was drawn over
        # the context line below it (at 1366 x 768, where the panel opened at two thirds of the
        # screen's height). The panel opens at the height its rows need (show_panel) and
        # grows when a row does (_grow_to_fit).
        self.content = QWidget()
        lay = QVBoxLayout(self.content)
        lay.setContentsMargins(0, 0, 0, 0)
        self.body = ScrollBody(self.content)
        outer = QVBoxLayout(self)
        outer.addWidget(self.body)
        # Close under the rows, always in view (the window manager's title bar may be off screen
        # or missing); Escape closes too. The server goes on serving: Stop server stops it.
        self.close_btn = QPushButton()
        self.close_btn.setObjectName("closePanel")
        self.close_btn.clicked.connect(self.hide)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.close_btn)
        outer.addLayout(buttons)
        self._escape = QShortcut(QKeySequence(QKeySequence.StandardKey.Cancel), self, self.hide)
        lay.addLayout(title_row)
        lay.addLayout(row1)
        lay.addWidget(self.key_label)
        lay.addLayout(row2)
        lay.addWidget(self.remote)
        lay.addWidget(self.warning)
        agent_row = QHBoxLayout()
        agent_row.addWidget(self.agent_label, 1)
        agent_row.addWidget(self.copy_agent)
        lay.addLayout(agent_row)
        lay.addWidget(self.agent_hint)
        lay.addWidget(self.agent_settings)
        lay.addWidget(self.context_note)
        lay.addWidget(self.pool_note)
        lay.addWidget(self.log_label)
        lay.addWidget(self.log, 1)
        lines = self.log.fontMetrics().lineSpacing() * LOG_LINES
        self.log.setMinimumHeight(lines + 2 * self.log.frameWidth())
        # a row that changed is laid out first, then the panel grows if it must
        self._grow = QTimer(self)
        self._grow.setSingleShot(True)
        self._grow.setInterval(0)
        self._grow.timeout.connect(self._grow_to_fit)
        self.content.installEventFilter(self)
        controller.stateChanged.connect(self._refresh)
        controller.requestServed.connect(self._on_request_served)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Local server"))
        self.title.setText(self.tr("OpenAI- and Anthropic-compatible API of the loaded model"))
        self.key_label.setText(
            self.tr("API key (send as 'Authorization: Bearer <key>' or 'x-api-key: <key>'):")
        )
        self.copy_key.setText(self.tr("Copy"))
        self.copy_address.setText(self.tr("Copy"))
        self.remote.setText(self.tr("Allow other machines to connect"))
        self.log_label.setText(self.tr("Served requests"))
        self.agent_label.setText(self.tr("Use with an agent"))
        self.agent_hint.setText(
            self.tr(
                "Paste these settings into the terminal that starts the agent: Claude Code uses the "
                "Anthropic lines, OpenAI clients the OpenAI lines. Copy fills in the key."
            )
        )
        self.copy_agent.setText(self.tr("Copy settings"))
        self.stop.setText(self.tr("Stop server"))
        self.stop.setToolTip(self.tr("Stop serving the loaded model; the model stays loaded for the chat"))
        self.close_btn.setText(self.tr("Close"))
        self.close_btn.setToolTip(self.tr("Close this panel; the server goes on serving"))
        for row in range(self.log.count()):
            item = self.log.item(row)
            served = item.data(Qt.ItemDataRole.UserRole)
            if isinstance(served, ServedRequest):
                item.setText(log_line(served))
        self._refresh()

    def _refresh(self, *_args: object) -> None:
        c = self.controller
        self.address.setText(c.address if c.running else self.tr("Not running"))
        self.key.setText(c.key if c.running else "")
        self.copy_key.setEnabled(c.running)
        self.copy_address.setEnabled(c.running)
        self.copy_agent.setEnabled(c.running)
        self.stop.setEnabled(c.running)
        self.agent_settings.setPlainText(self._agent_settings("********") if c.running else "")
        self._fit_agent_settings()
        self.warning.setText(
            self.tr(
                "Warning: the server listens on all network addresses; anyone who has the key can use it."
            )
            if c.running and c.exposed
            else ""
        )
        self.warning.setVisible(bool(self.warning.text()))
        self._show_context()
        self._show_pool()

    def _show_pool(self) -> None:
        status = self.controller.pool_status() if self.controller.running else None
        if status is None:
            self.pool_note.setText("")
            self.pool_note.setVisible(False)
            return
        running = ", ".join(
            configuration_text(c.label) + (f" (+{human_bytes(c.cost_bytes)})" if c.cost_bytes else "")
            for c in status.children
        )
        busy = sum(c.active for c in status.children)
        slots = sum(c.slots for c in status.children)
        lines = [
            self.tr("Speculation per request: %1 running; %2 of %3 slots busy.")
            .replace("%1", running)
            .replace("%2", str(busy))
            .replace("%3", str(slots))
        ]
        for label, stats in status.stats.items():
            tps = "-" if stats.decode_tps is None else f"{stats.decode_tps:.1f}"
            line = (
                self.tr("%1: %2 requests, %3 tok/s")
                .replace("%1", configuration_text(label))
                .replace("%2", str(stats.requests))
                .replace("%3", tps)
            )
            speedup = status.speedup(label)
            if speedup is not None and label != "off":
                line += " " + self.tr("(%1x of off)").replace("%1", f"{speedup:.2f}")
            lines.append(line)
        self.pool_note.setText("\n".join(lines))
        self.pool_note.setToolTip(
            self.tr(
                "A request may ask for another speculation (tandem.speculation: off, a method or auto); "
                "it then runs in a second copy of llama.cpp on the same model file, started on first use "
                "and stopped when idle. The model's weights are shared; each copy adds its own cache."
            )
        )
        self.pool_note.setVisible(True)

    def _show_context(self) -> None:
        c = self.controller
        if not c.running:
            self._overflow = None
            self.context_note.setText("")
        elif self._overflow is not None:
            prompt, ctx = self._overflow
            self.context_note.setText(
                self.tr(
                    "A request did not fit in the context: its prompt has %1 tokens, the context "
                    "holds %2. Load the model again with a larger context length (Launch… → "
                    "Context length); agents need 8,192 tokens or more."
                )
                .replace("%1", str(prompt))
                .replace("%2", str(ctx))
            )
        elif c.context_length:
            self.context_note.setText(
                self.tr(
                    "Context: %1 tokens. Claude Code and Codex send 5,000 tokens or more with each "
                    "request; a request that does not fit is refused and shown here."
                ).replace("%1", str(c.context_length))
            )
        else:
            self.context_note.setText("")
        self.context_note.setStyleSheet("font-weight: bold" if self._overflow is not None else "")
        self.context_note.setVisible(bool(self.context_note.text()))

    def _fit_agent_settings(self) -> None:
        """Show every line of the settings (the panel squeezed the box to its first line), and
        every line whole: the panel is never narrower than the longest (a sideways scrollbar
        would cover the last line). Each line is measured as the box lays it out: a line in
        Japanese, Korean or Chinese is taller than the box's font says (its glyphs come from
        another font), and the box cut the last line in those languages."""
        box = self.agent_settings
        box.ensurePolished()  # the stylesheet's font, which the box draws with
        height = width = 0.0
        for line in box.toPlainText().split("\n"):
            layout = QTextLayout(line, box.font())
            layout.beginLayout()
            layout.createLine()
            layout.endLayout()
            rect = layout.boundingRect()
            height += rect.height()
            width = max(width, layout.lineAt(0).naturalTextWidth())
        margins = box.contentsMargins()
        spare = 2 * box.document().documentMargin() + 2
        box.setFixedHeight(ceil(height + spare) + margins.top() + margins.bottom())
        box.setMinimumWidth(ceil(width + spare) + margins.left() + margins.right())
        self._grow_to_fit()

    def fit_to_screen(self) -> None:
        """Size the panel for opening: about :data:`PANEL_CHARS` characters wide and as tall as
        its rows need at that width, both within the screen (``adjustSize`` stops a window at
        two thirds of the screen's height: 512 px on a 1366 x 768 laptop, too short for the rows
        in English and in Japanese)."""
        self.ensurePolished()
        # rows changed while the panel was hidden (a language switch): their layouts, nested ones
        # included, are laid out afresh (a hidden window's layouts keep what they measured last)
        rows = self.content.layout()
        if rows is not None:
            rows.invalidate()
            rows.activate()
        self.body.updateGeometry()
        width = max(self.minimumSizeHint().width(), self.fontMetrics().averageCharWidth() * PANEL_CHARS)
        screen = self.screen()
        if screen is not None:
            width = min(width, screen.availableGeometry().width() - SCREEN_MARGIN // 2)
        self.resize(max(width, self.minimumSizeHint().width()), self.height())
        layout = self.layout()
        if layout is not None:
            layout.invalidate()
            layout.activate()
        cap = screen_height_cap(self)
        if cap is not None:  # never taller than the screen, however much a row grows: the rows scroll
            self.setMaximumHeight(cap)
        height = fitted_height(self)
        self.resize(self.width(), height if height is not None else self.sizeHint().height())

    def _grow_to_fit(self) -> None:
        """A row that grew (a longer note, the settings of a started server, another language)
        makes the open panel taller, within the screen; it never shrinks what the user sized."""
        if not self.isVisible():
            return
        height = fitted_height(self)
        if height is not None and height > self.height():
            fit_dialog_height(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.content and event.type() == QEvent.Type.LayoutRequest and self.isVisible():
            self._grow.start()
        return super().eventFilter(watched, event)

    def _copy_key(self) -> None:
        QGuiApplication.clipboard().setText(self.controller.key)

    def _agent_settings(self, key: str) -> str:
        return agent_settings(
            self.controller.address,
            key,
            self.tr("OpenAI clients (chat completions, Responses)"),
            windows=sys.platform == "win32",
        )

    def _copy_agent_settings(self) -> None:
        QGuiApplication.clipboard().setText(self._agent_settings(self.controller.key))

    def _on_remote_toggled(self, on: bool) -> None:
        host = "0.0.0.0" if on else "127.0.0.1"
        if self.controller.running:
            self.controller.start(host)
        else:
            self.controller.bind_host = host
        self._refresh()

    def _on_request_served(self, r: ServedRequest) -> None:
        if r.context_tokens:
            self._overflow = (r.prompt_tokens, r.context_tokens)
            self._show_context()
        self._show_pool()
        self.log.insertItem(0, log_line(r))
        self.log.item(0).setData(Qt.ItemDataRole.UserRole, r)  # written again in another language
        while self.log.count() > LOG_LIMIT:
            self.log.takeItem(self.log.count() - 1)


class ServerSwitch(QToolButton):
    """The status bar's "Local server" switch: on serves the loaded model and opens the panel."""

    def __init__(self, controller: ServerLike, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("serverSwitch")
        self.setCheckable(True)
        self.setAutoRaise(True)
        self.controller = controller
        self.panel = ServerPanel(controller, self)
        # checked shows that the server runs; a click starts it, or opens the panel of the running
        # server (which has Stop): a click on a running switch used to stop the server, so a closed
        # panel could not be reopened without restarting the server and changing nothing else
        self.clicked.connect(self._on_clicked)
        #: the switch asked for a start: show the panel once it listens
        self._show_panel = False
        controller.stateChanged.connect(self._on_state)
        controller.failed.connect(self._on_failed)
        self.retranslate()

    def retranslate(self) -> None:
        c = self.controller
        # host and port: the status bar is short of room; the whole address is in the tooltip
        where = c.address.split("://", 1)[-1].removesuffix("/v1")
        self.setText(self.tr("Server: %1").replace("%1", where) if c.running else self.tr("Local server"))
        self.setToolTip(
            c.address + "\n" + self.tr("Show the address, the key and the requests of the running server")
            if c.running
            else self.tr(
                "Serve the loaded model to other programs over OpenAI- and Anthropic-compatible APIs"
            )
        )
        self.panel.retranslate()

    def nextCheckState(self) -> None:
        """A click does not toggle: the checked state follows the server (see :meth:`_on_state`)."""

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _on_clicked(self) -> None:
        if self.controller.running:
            self.show_panel()
        elif not self.controller.pending:
            self._show_panel = True
            self.setText(self.tr("Starting…"))
            self.controller.start()

    def _on_state(self, running: bool) -> None:
        self.blockSignals(True)
        self.setChecked(running)
        self.blockSignals(False)
        self.retranslate()
        if running and self._show_panel:
            self.show_panel()
        self._show_panel = False

    def show_panel(self) -> None:
        """Open the panel beside the switch: above it, right edges aligned, inside the screen (a
        window opened without a position lands where the window manager likes, e.g. the screen's
        top-left corner, far from the status bar that opened it)."""
        panel = self.panel
        if panel.isVisible():  # open behind the main window, maybe moved by the user: bring it forward
            panel.raise_()
            panel.activateWindow()
            return
        panel.fit_to_screen()
        anchor = self.mapToGlobal(QPoint(self.width(), 0))
        size = panel.frameGeometry().size().expandedTo(panel.size())
        x, y = anchor.x() - size.width(), anchor.y() - size.height() - 4
        screen = self.screen()
        if screen is not None:
            avail = screen.availableGeometry()
            x = min(max(x, avail.left()), avail.right() - size.width() + 1)
            y = min(max(y, avail.top()), avail.bottom() - size.height() + 1)
        panel.move(x, y)
        panel.show()

    def _on_failed(self, message: str) -> None:
        self._show_panel = False
        self._on_state(False)
        self.setToolTip(self.tr("The server could not start: %1").replace("%1", message))


def agent_settings(address: str, key: str, openai_title: str, windows: bool = False) -> str:
    """Environment settings that point Claude Code (Anthropic Messages, at the server's root) and
    OpenAI clients (at ``/v1``) to the server ``address`` (``http://host:port/v1``)."""
    root = address.removesuffix("/v1")
    pairs = [
        ("# Claude Code", None),
        ("ANTHROPIC_BASE_URL", root),
        ("ANTHROPIC_API_KEY", key),
        (f"# {openai_title}", None),
        ("OPENAI_BASE_URL", address),
        ("OPENAI_API_KEY", key),
    ]
    lines = []
    for name, value in pairs:
        if value is None:
            lines.append(name)
        elif windows:
            lines.append(f'$env:{name}="{value}"')
        else:
            lines.append(f"export {name}={value}")
    return "\n".join(lines)


def log_line(r: ServedRequest) -> str:
    """The request log's line: when, from where, and :func:`describe`."""
    stamp = time.strftime("%H:%M:%S", time.localtime(r.when))
    return f"{stamp} {r.client} {describe(r)}"


def describe(r: ServedRequest) -> str:
    """One log line, in the user's language: tokens, speed and speculation figures of a served
    request (the configuration's name as the status bar gives it)."""
    if r.context_tokens:
        return QCoreApplication.translate(
            "ServerLog", "refused: prompt {prompt} tok > context {context} tok"
        ).format(prompt=r.prompt_tokens, context=r.context_tokens)
    acc = "-" if r.acceptance_rate is None else f"{r.acceptance_rate:.0%}"
    mal = "-" if r.mean_accepted_length is None else f"{r.mean_accepted_length:.2f}"
    tps = "-" if r.decode_tps is None else f"{r.decode_tps:.1f}"
    statuses = {
        "ok": QCoreApplication.translate("ServerLog", "ok"),
        "cancelled": QCoreApplication.translate("ServerLog", "cancelled"),
        "error": QCoreApplication.translate("ServerLog", "error"),
    }
    kind = (
        QCoreApplication.translate("ServerLog", "stream")
        if r.stream
        else QCoreApplication.translate("ServerLog", "single")
    )
    if r.configuration:
        kind += f" [{configuration_text(r.configuration)}]"
    line = QCoreApplication.translate(
        "ServerLog",
        "{status} {kind}: {prompt}+{completion} tok, {tps} tok/s, drafted {drafted} accepted {accepted} "
        "({rate}), {rounds} rounds, {mean} tok/round",
    ).format(
        status=statuses.get(str(r.status), str(r.status)),
        kind=kind,
        prompt=r.prompt_tokens,
        completion=r.completion_tokens,
        tps=tps,
        drafted=r.drafted,
        accepted=r.accepted,
        rate=acc,
        rounds=r.rounds,
        mean=mal,
    )
    if r.tool_calls:
        line += QCoreApplication.translate("ServerLog", ", {n} tool calls").format(n=r.tool_calls)
    return line
