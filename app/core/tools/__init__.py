"""Tools in the chat: MCP servers (the official ``mcp`` SDK) and the tool loop.

* :mod:`~app.core.tools.config`: the servers as configured (the ``mcpServers`` shape), Tandem's
  stored file, import and export; secrets in the keyring (:mod:`~app.core.tools.vault`).
* :mod:`~app.core.tools.client`: one server connected (stdio, streamable HTTP, SSE): its state,
  its tools, calls with a time limit, typed errors (:mod:`~app.core.tools.errors`).
* :mod:`~app.core.tools.hub`: the enabled servers running together, their tools under one set
  of names; :mod:`~app.core.tools.host` keeps a hub running for the window, on a thread of its own.
* :mod:`~app.core.tools.loop`: one user message's loop of model turns and approved calls, driven
  the same way by the window and ``tandem generate``.

No Qt here: the window shows the states, the approvals and the results; the CLI prints them.
"""

from app.core.tools.client import McpConnection, ServerState, ServerStatus, ToolInfo, ToolResult
from app.core.tools.config import (
    ServerConfig,
    ToolsConfig,
    export_mcp_servers,
    import_mcp_servers,
    load_config,
    read_mcp_servers,
    save_config,
    write_mcp_servers,
)
from app.core.tools.errors import (
    ServerCrashed,
    ServerNotRunning,
    ServerStartError,
    ToolCallFailed,
    ToolConfigError,
    ToolError,
    ToolLoopError,
    ToolTimeout,
)
from app.core.tools.host import ToolHost
from app.core.tools.hub import HubTool, ToolHub, ToolSource
from app.core.tools.loop import (
    CallEnded,
    CallRecord,
    CallStarted,
    LoopEvent,
    LoopOptions,
    LoopResult,
    ModelEvent,
    PendingCall,
    TurnEnded,
    TurnRecord,
    TurnStarted,
    run_tool_loop,
)

__all__ = [
    "CallEnded",
    "CallRecord",
    "CallStarted",
    "HubTool",
    "LoopEvent",
    "LoopOptions",
    "LoopResult",
    "McpConnection",
    "ModelEvent",
    "PendingCall",
    "ServerConfig",
    "ServerCrashed",
    "ServerNotRunning",
    "ServerStartError",
    "ServerState",
    "ServerStatus",
    "ToolCallFailed",
    "ToolConfigError",
    "ToolError",
    "ToolHost",
    "ToolHub",
    "ToolInfo",
    "ToolLoopError",
    "ToolResult",
    "ToolSource",
    "ToolTimeout",
    "ToolsConfig",
    "TurnEnded",
    "TurnRecord",
    "TurnStarted",
    "export_mcp_servers",
    "import_mcp_servers",
    "load_config",
    "read_mcp_servers",
    "run_tool_loop",
    "save_config",
    "write_mcp_servers",
]
