"""The typed errors of tools: one per way a configuration, a server or a call can fail.

Each is an :class:`~app.core.engines.base.EngineError`: ``str()`` is one user-safe line (it names
the server and the tool, never a secret), ``hint`` the next step, and the GUI's error bridge
shows them like any engine error. The tool loop turns a call's error into the one line that ends
the loop, and writes the same line into the conversation's ``tool`` message.
"""

from __future__ import annotations

from app.core.engines.base import EngineError


class ToolError(EngineError):
    """Base of the tool errors; ``server`` and ``tool`` name where it happened ("" when none)."""

    hint = "Check the server in Settings → Tools; the conversation is kept as it was."

    def __init__(self, message: str, hint: str = "", *, server: str = "", tool: str = "") -> None:
        super().__init__(message, hint)
        self.server = server
        self.tool = tool


class ToolConfigError(ToolError):
    """A configuration that cannot be read: an ``mcpServers`` file being imported, or the stored
    one. The message names the file and the field (``mcpServers.github.args[1]``); nothing was
    changed (the stored configuration and the keyring are as they were)."""

    hint = "Fix the field named above, then try again; nothing was changed."


class ServerStartError(ToolError):
    """A server that did not start: its program is missing, it exited, it did not answer the
    handshake in time, or a secret it needs is not in the keyring."""

    hint = (
        "Check the server's command (or address) and its settings in Settings → Tools, then start it again."
    )


class ServerNotRunning(ToolError):
    """A call to a server that is not running (stopped, failed, switched off)."""

    hint = "Start the server in Settings → Tools, then send the message again."


class ToolTimeout(ToolError):
    """A call that got no answer within its time limit (the server may still be working on it)."""

    hint = "The server may be busy or stuck: try again, or raise its time limit in Settings → Tools."

    def __init__(self, server: str, tool: str, seconds: float) -> None:
        super().__init__(f"{server}: {tool} did not answer within {seconds:g} s", server=server, tool=tool)
        self.seconds = seconds


class ServerCrashed(ToolError):
    """The server's process ended, or its connection dropped, during a call."""

    hint = "Start the server again in Settings → Tools; its log may say why it stopped."


class ToolCallFailed(ToolError):
    """The server answered the call with an error: the tool failed (``is_error``), or the server
    refused the request (an unknown tool, arguments that do not fit its schema)."""

    hint = "The tool reported the error above; change the request or the tool's settings and try again."


class ToolLoopError(ToolError):
    """A tool loop that cannot start as asked (a forced tool nobody offers, an engine that cannot
    force a call); nothing was sent to the model."""

    hint = "Choose a tool that a running server offers, or let the model choose (tool choice auto)."
