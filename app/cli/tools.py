"""``tandem generate --mcp-config FILE --allow-tools NAME[,NAME...] [--tool-choice C]``: the chat's
tool loop without a window, for scripts and tests.

The servers of an ``mcpServers`` file (Claude Desktop's shape) run for this one command; their
values stay in this process (nothing is stored). ``--allow-tools`` is the user's approval: a call of
a listed tool runs, a call of any other is refused with one line and never runs. Each call, the
server's exact result and the final answer are printed as they happen (``--json``: one object at
the end with every turn's figures, every call and the conversation in OpenAI's messages shape).
Exit 0 when the model answered, 1 when the loop ended without an answer (denied, refused, a server
that failed, the turn limit), 130 when stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.core.engines.base import ChatMessage, Engine, Sampling

if TYPE_CHECKING:  # the MCP SDK is slow to import: only a run with --mcp-config pays it
    from app.core.answer import Answer
    from app.core.tools import LoopEvent, LoopResult, ToolsConfig

#: model turns per message unless --max-tool-turns says (app.core.tools.loop.DEFAULT_MAX_TURNS)
DEFAULT_MAX_TURNS = 8


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The tool flags of ``generate``."""
    p.add_argument(
        "--mcp-config",
        type=Path,
        metavar="FILE",
        help="run the tool loop with the MCP servers of this mcpServers JSON file (Claude Desktop's shape)",
    )
    p.add_argument(
        "--allow-tools",
        default="",
        metavar="NAME[,NAME...]",
        help="the tools that may run (your approval); a call of any other is refused and never runs",
    )
    p.add_argument(
        "--tool-choice",
        default=None,
        metavar="auto|required|NAME",
        help="the first turn's tool choice: auto (default), required (some tool), or a tool's name",
    )
    p.add_argument(
        "--max-tool-turns",
        type=int,
        default=DEFAULT_MAX_TURNS,
        metavar="N",
        help=f"model turns per message at most (default {DEFAULT_MAX_TURNS})",
    )


def prepare(args: argparse.Namespace) -> ToolsConfig | None:
    """The servers of ``--mcp-config`` (None without it), read and checked before any model is
    loaded; a wrong flag or a file that cannot be read is a :class:`ValueError` naming it."""
    if args.mcp_config is None:
        if args.allow_tools or args.tool_choice:
            raise ValueError("--allow-tools and --tool-choice need --mcp-config FILE")
        return None
    if not args.allow_tools:
        raise ValueError("--mcp-config needs --allow-tools NAME[,NAME...]: the tools that may run")
    if args.max_tool_turns < 1:
        raise ValueError("--max-tool-turns must be at least 1")
    from app.core.tools import ToolConfigError, read_mcp_servers

    try:
        return read_mcp_servers(args.mcp_config)
    except ToolConfigError as exc:
        raise ValueError(str(exc)) from None


def allowed(args: argparse.Namespace) -> set[str]:
    return {name.strip() for name in args.allow_tools.split(",") if name.strip()}


def _figures(answer: Answer) -> dict[str, Any]:
    tps = answer.decode_tps
    return {
        "completion_tokens": answer.completion_tokens,
        "decode_tokens_per_second": round(tps, 2) if tps is not None else None,
        "rounds": answer.round_count,
        "drafted_total": answer.drafted_total,
        "accepted_total": answer.accepted_total,
    }


class _Printer:
    """Prints the loop as it happens (text mode) and keeps what ``--json`` reports."""

    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json
        self._turn_text: list[str] = []

    def __call__(self, event: LoopEvent) -> None:
        from app.core.engines.base import TextDelta
        from app.core.tools import CallEnded, CallStarted, ModelEvent, TurnEnded, TurnStarted

        if self.as_json:
            return
        if isinstance(event, TurnStarted):
            self._turn_text = []
        elif isinstance(event, ModelEvent) and isinstance(event.event, TextDelta):
            self._turn_text.append(event.event.text)
        elif isinstance(event, TurnEnded):
            record = event.record
            if not record.calls:  # the answer: shown once the turn has been read for calls
                sys.stdout.write(record.text)
                if not record.text.endswith("\n"):
                    sys.stdout.write("\n")
                sys.stdout.flush()
            f = _figures(record.answer)
            tps = f["decode_tokens_per_second"]
            print(
                f"turn {record.turn}: {f['completion_tokens']} tokens"
                + (f", {tps:.1f} tok/s" if tps is not None else "")
                + (
                    f", {f['accepted_total']}/{f['drafted_total']} drafted accepted"
                    if f["drafted_total"]
                    else ""
                ),
                file=sys.stderr,
                flush=True,
            )
        elif isinstance(event, CallStarted):
            arguments = json.dumps(event.call.arguments, ensure_ascii=False)
            print(f"tool call: {event.call.name} {arguments} (on {event.tool.server})", flush=True)
        elif isinstance(event, CallEnded):
            call = event.record
            if call.status == "ok":
                print(f"tool result: {call.content}", flush=True)
            elif call.line:
                print(f"tool {call.status}: {call.line}", file=sys.stderr, flush=True)


def _as_json(result: LoopResult | None, hub_failures: list[str], stopped: bool) -> dict[str, Any]:
    if result is None:
        return {"outcome": "stopped" if stopped else "failed", "line": "; ".join(hub_failures), "calls": []}
    return {
        "outcome": result.outcome,
        "line": result.line,
        "text": result.text,
        "turns": [{"turn": t.turn, "text": t.text, **_figures(t.answer)} for t in result.turns],
        "calls": [
            {
                "turn": c.turn,
                "name": c.call.name,
                "arguments": c.call.arguments,
                "server": c.server,
                "status": c.status,
                "result": c.content,
                "line": c.line,
                "ms": round(c.ms, 1),
            }
            for c in result.calls
        ],
        "servers_failed": hub_failures,
        "messages": result.messages,
    }


def run(
    args: argparse.Namespace,
    config: ToolsConfig,
    engine: Engine,
    messages: list[ChatMessage],
    sampling: Sampling,
    tool_style: str | None,
    on_task: Any,
) -> int:
    """Run the loop for ``messages`` on ``engine`` (already loaded); ``on_task(task)`` lets the
    caller cancel it (Ctrl-C)."""
    from app.core.tools import LoopOptions, PendingCall, ServerState, ToolHub, run_tool_loop

    may_run = allowed(args)
    printer = _Printer(args.json)
    failures: list[str] = []
    outcome: dict[str, LoopResult | None] = {"result": None}

    async def approve(pending: PendingCall) -> bool:
        return pending.tool.name in may_run  # the loop refuses the others before asking

    async def main() -> None:
        task = asyncio.current_task()
        assert task is not None
        with on_task(task):
            async with ToolHub(config) as hub:
                for status in hub.statuses().values():
                    if status.state == ServerState.FAILED:
                        failures.append(f"{status.name}: {status.reason}")
                        print(f"tandem: MCP server {status.name} failed: {status.reason}", file=sys.stderr)
                offered = {t.name for t in hub.tools()}
                for name in sorted(may_run - offered):
                    print(f"tandem: no running MCP server offers a tool named {name!r}", file=sys.stderr)
                outcome["result"] = await run_tool_loop(
                    engine,
                    hub,
                    messages,
                    sampling,
                    approve,
                    LoopOptions(
                        max_turns=args.max_tool_turns,
                        tool_choice=args.tool_choice,
                        allowed=may_run,
                        tool_style=tool_style,
                    ),
                    on_event=printer,
                )

    stopped = False
    try:
        asyncio.run(main())
    except (KeyboardInterrupt, asyncio.CancelledError):
        stopped = True
    result = outcome["result"]
    if args.json:
        print(json.dumps(_as_json(result, failures, stopped), ensure_ascii=False, indent=1))
    elif result is not None and not result.answered:
        print(f"tandem: {result.line}", file=sys.stderr)
    if stopped:
        return 130
    return 0 if result is not None and result.answered else 1
