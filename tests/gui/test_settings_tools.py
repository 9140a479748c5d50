"""Settings → Tools with real MCP servers: the calc server (a stdio subprocess written
with the SDK) runs and lists its tools, a server whose command does not exist shows failed with
its reason; a tool's rule, a server's switch, an import of a Claude-Desktop-style file, an export
and a removal are saved to mcp.json at once. The servers are the chat's: closing the dialog leaves
them running (and logs nothing), closing the window ends them."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.tools.client import ServerState
from app.core.tools.config import ToolsConfig, load_config, make_server, save_config
from app.core.tools.errors import ServerCrashed
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

    # a running server switched off stops; switched on again, it starts
    item = page.server_item("calc")
    run_until(
        w,
        page.actionDone,
        lambda: not server_children(),
        lambda: item.setCheckState(0, item.checkState(0).__class__.Unchecked),
    )
    assert not load_config().get("calc").enabled and state(page, "calc") == "off"
    item = page.server_item("calc")
    run_until(
        w,
        page.statusChanged,
        lambda: state(page, "calc") == "running",
        lambda: item.setCheckState(0, item.checkState(0).__class__.Checked),
    )

    # closing the dialog leaves the chat's servers running; closing the window ends them
    pids = [p.pid for p in server_children()]
    assert len(pids) == 1  # calc ("nowhere" is off, calc2 removed)
    dlg.reject()
    w.ops.loop.run_until_complete(w.ops.idle(30))
    assert [p.pid for p in server_children()] == pids
    w.close()
    assert not server_children()


def test_closing_settings_after_the_tools_tab_logs_nothing_and_a_tool_turned_off_is_not_offered(
    make_window: Any, qtbot: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The page listened to the servers' states; once the dialog is closed (and deleted), a
    state change reaches no deleted widget: nothing is logged at error level. A tool turned Off
    in the page is saved and leaves the chat's offered tools and the composer's tool choice."""
    from PySide6.QtCore import QCoreApplication, QEvent

    caplog.set_level(logging.ERROR)
    w = make_window()
    qtbot.waitUntil(lambda: w.chat.tools.config is not None, timeout=10_000)
    dlg = w.open_settings()
    page = dlg.tools_page
    dlg.tabs.setCurrentWidget(page)
    run_until(w, page.statusChanged, lambda: state(page, "calc") == "running")
    # the columns: the state under State, the rule in Use, the tool's description under Description
    header = page.tree.headerItem()
    assert [header.text(i) for i in range(4)] == ["Server / tool", "State", "Use", "Description"]
    calc_item = page.server_item("calc")
    motto = next(c for c in map(calc_item.child, range(calc_item.childCount())) if c.text(0) == "motto")
    assert motto.text(1) == "" and motto.text(3) == "Return Tandem's motto."
    box = page.rule_box("calc", "broken")
    assert box is not None and [box.itemData(i) for i in range(box.count())] == ["off", "ask", "always"]
    composer = w.chat_view.composer
    assert "broken" in [t.name for t in w.chat.tools.offered()]
    assert composer.tool_choice_box.findData("broken") >= 0
    run_until(
        w,
        page.actionDone,
        lambda: load_config().get("calc").approval("broken") == "off",
        lambda: box.setCurrentIndex(box.findData("off")),
    )
    assert "broken" not in [t.name for t in w.chat.tools.offered()]
    assert (
        composer.tool_choice_box.findData("broken") == -1 and composer.tool_choice_box.findData("motto") >= 0
    )
    assert "motto" in composer.tools_btn.toolTip() and "broken" not in composer.tools_btn.toolTip()
    # the indicator's menu lists the server and its tools; a tool picked there is the message's choice
    items = {a.text().strip(): a for a in composer.tools_menu.actions()}
    assert "calc: running" in items and "motto" in items and "broken" not in items
    items["motto"].trigger()
    assert composer.tool_choice() == "motto"

    dlg.reject()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # the dialog is deleted
    # a state change after the page is gone: the calc server crashes, the next message's start
    with pytest.raises(ServerCrashed):
        w.ops.loop.run_until_complete(w.chat.tools.host.call("crash", {"code": 3}))
    w.ops.loop.run_until_complete(w.chat.tools.ensure_running(restart_failed=True))
    assert w.chat.tools.statuses()["calc"].state is ServerState.RUNNING
    w.close()
    assert not server_children()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]
