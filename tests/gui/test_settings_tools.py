"""Settings → Tools (issue 50) with real MCP servers: the calc server (a stdio subprocess written
with the SDK) runs and lists its tools, a server whose command does not exist shows failed with
its reason; a tool's rule, a server's switch, an import of a Claude-Desktop-style file, an export
and a removal are saved to mcp.json at once; closing the dialog ends the page's servers."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.tools.client import ServerState
from app.core.tools.config import ToolsConfig, load_config, make_server, save_config
from tests.integration.mcp_servers import CALC, calc_server, memory_keyring, server_children


@pytest.fixture(autouse=True)
def servers() -> Iterator[None]:
    with memory_keyring():
        missing, _ = make_server("nowhere", command="tandem-no-such-command-50")
        save_config(ToolsConfig((calc_server(), missing)))
        yield
    assert not server_children(), "an MCP server process outlived the test"


def run_until(
    w: Any, signal: Any, done: Callable[[], bool], action: Callable[[], object] | None = None
) -> None:
    """Do ``action``, then run the window's qasync loop (as the app runs it) until ``done()``,
    checked each time ``signal`` fires."""
    loop = w.ops.loop

    async def wait() -> None:
        while not done():
            fired: asyncio.Future[None] = loop.create_future()

            def got(*_args: Any, fired: asyncio.Future[None] = fired) -> None:
                if not fired.done():
                    fired.set_result(None)

            signal.connect(got)
            try:
                await asyncio.wait_for(fired, 60)
            finally:
                signal.disconnect(got)

    if action is not None:
        action()
    loop.run_until_complete(wait())


def state(page: Any, name: str) -> str:
    item = page.server_item(name)
    return "" if item is None else str(item.text(1))


def tools_of(page: Any, name: str) -> list[str]:
    item = page.server_item(name)
    return [item.child(i).text(0) for i in range(item.childCount())] if item is not None else []


def test_servers_states_rules_switches_import_export_and_remove(
    make_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    w = make_window()
    qtbot.waitUntil(lambda: w.chat.tools.config is not None, timeout=10_000)
    dlg = w.open_settings()
    page = dlg.tools_page
    assert dlg.tabs is not None and dlg.tabs.tabText(1) == "Tools"
    dlg.tabs.setCurrentWidget(page)
    statuses = page._statuses

    def settled() -> bool:
        return all(
            n in statuses and statuses[n].state in (ServerState.RUNNING, ServerState.FAILED)
            for n in ("calc", "nowhere")
        )

    run_until(w, page.statusChanged, settled)
    assert state(page, "calc") == "running"
    assert {"add", "motto", "crash"} <= set(tools_of(page, "calc"))
    assert state(page, "nowhere").startswith("failed: ") and "tandem-no-such-command-50" in state(
        page, "nowhere"
    )
    assert tools_of(page, "nowhere") == []

    # a tool's rule: saved at once
    box = page.rule_box("calc", "motto")
    assert box is not None and box.currentData() == "ask"
    run_until(
        w,
        page.actionDone,
        lambda: load_config().get("calc").approval("motto") == "always",
        lambda: box.setCurrentIndex(box.findData("always")),
    )
    assert load_config().get("calc").approval("motto") == "always"

    # a switch: off is stored and the server stops
    item = page.server_item("nowhere")
    run_until(
        w,
        page.actionDone,
        lambda: not load_config().get("nowhere").enabled,
        lambda: item.setCheckState(0, item.checkState(0).__class__.Unchecked),
    )
    assert not load_config().get("nowhere").enabled

    # an import of a Claude Desktop file adds its server, which starts
    source = tmp_path / "claude_desktop_config.json"
    source.write_text(json.dumps({"mcpServers": {"calc2": {"command": sys.executable, "args": [str(CALC)]}}}))
    run_until(
        w, page.statusChanged, lambda: state(page, "calc2") == "running", lambda: page.import_file(source)
    )
    assert load_config().names == ["calc", "nowhere", "calc2"]
    # a file that cannot be read is refused whole, naming the field
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"mcpServers": {"x": {"command": "a", "args": ["b", 3]}}}))
    run_until(w, page.actionDone, lambda: page.message.isVisible(), lambda: page.import_file(bad))
    assert "args[1]" in page.message.text() and load_config().names == ["calc", "nowhere", "calc2"]

    # an export writes the mcpServers shape
    out = tmp_path / "export.json"
    run_until(w, page.actionDone, lambda: "export.json" in page.message.text(), lambda: page.export_file(out))
    exported = json.loads(out.read_text("utf-8"))["mcpServers"]
    assert set(exported) == {"calc", "nowhere", "calc2"} and exported["calc2"]["args"] == [str(CALC)]

    # removing a server stops it and forgets it
    run_until(w, page.actionDone, lambda: page.server_item("calc2") is None, lambda: page.remove("calc2"))
    assert "calc2" not in load_config().names

    # closing the dialog ends the page's servers
    dlg.reject()
    qtbot.waitUntil(lambda: page.hub is None, timeout=5_000)
    w.ops.loop.run_until_complete(w.ops.idle(30))
    assert not server_children()
