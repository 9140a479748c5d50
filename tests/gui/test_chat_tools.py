"""The tool loop in the window: the real embedded model (SmolLM2 135M on llama.cpp),
the real calc MCP server (tests/integration/mcp_servers/calc.py, a stdio subprocess) configured
in Tandem's stored mcp.json, and the real chat widgets.

A forced tool choice, chosen in the composer for the message, makes the model call the tool
(SmolLM2's template renders no tools: the choice becomes a grammar). The call shows as a block
with Approve / Deny / Always allow; an approved call runs on the server, its result shows
collapsed under it, and a text answer follows;
the conversation reopens in a new window on the same home with the tool turns in place. Deny,
a server that crashes mid-call and Stop at the approval each end with one line and an intact
conversation; "Always allow" stores the tool's rule. The servers run with the window: the
message's loop leaves them running, and closing the window ends them.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.engines.base import Sampling
from app.core.tools.config import ToolsConfig, config_path, load_config, save_config
from app.gui.views.chat import MessageBubble
from app.gui.views.chat.tool_call import ToolCallBlock
from tests.integration.mcp_servers import calc_server, memory_keyring, server_children
from tests.integration.mcp_servers.calc import MOTTO

pytestmark = pytest.mark.usefixtures("smollm2_q4")


@pytest.fixture(autouse=True)
def servers(tmp_path: Path) -> Iterator[Path]:
    """The calc server stored as Tandem's only MCP server (its env value in a memory keyring);
    the file each call it runs is logged to. No server process may outlive the test."""
    log = tmp_path / "calls.log"
    with memory_keyring():
        save_config(ToolsConfig((calc_server(env={"CALC_LOG": str(log)}),)))
        yield log
    assert not server_children(), "an MCP server process outlived the test"


def ran(log: Path) -> list[str]:
    return log.read_text("utf-8").split() if log.exists() else []


def ready_window(make_window: Any, qtbot: Any, tool_choice: str) -> Any:
    w = make_window()
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000):
        w.load_default_model()
    tools = w.chat.tools
    qtbot.waitUntil(lambda: tools.config is not None, timeout=10_000)
    assert tools.enabled and tools.config.names == ["calc"]
    w.chat.sampling = Sampling(temperature=0.0, max_tokens=64)
    # the calc server starts with the window; its tools reach the composer's tool choice
    box = w.chat_view.composer.tool_choice_box
    qtbot.waitUntil(lambda: box.findData(tool_choice) >= 0, timeout=60_000)
    w.forced = tool_choice
    return w


def on_loop(w: Any, signal: Any, action: Callable[[], object], timeout: float = 120.0) -> tuple[Any, ...]:
    """Do ``action`` and run the window's qasync loop until ``signal`` fires (its arguments).

    The loop runs as the app runs it (``run_until_complete``), so the MCP SDK (anyio) finds it
    running; pytest-qt's own waits spin Qt's loop without making it the running asyncio loop."""
    loop = w.ops.loop
    fired: asyncio.Future[tuple[Any, ...]] = loop.create_future()

    def got(*args: Any) -> None:
        if not fired.done():
            fired.set_result(args)

    signal.connect(got)
    try:
        action()
        return loop.run_until_complete(asyncio.wait_for(fired, timeout))  # type: ignore[no-any-return]
    finally:
        signal.disconnect(got)


def send_until_asked(w: Any, text: str) -> tuple[ToolCallBlock, asyncio.Task[Any]]:
    """Send ``text``; the call block that then waits for the user, and the message's task."""
    tasks: list[asyncio.Task[Any]] = []

    def send() -> None:
        composer = w.chat_view.composer
        composer.tool_choice_box.setCurrentIndex(composer.tool_choice_box.findData(w.forced))
        composer.input.setPlainText(text)
        composer.button.click()
        assert composer.tool_choice() == "auto"  # the choice was the message's
        tasks.append(w.chat.answer_task(w.chat.conversation_id))

    (pending,) = on_loop(w, w.chat.approvalRequested, send)
    (block,) = [blk for b in w.chat_view.bubbles for blk in b.calls if blk.state == "asking"]
    assert block.call_id == pending.call.id
    assert block.buttons.isVisible() and block.approve_btn.isVisible()
    assert block.deny_btn.isVisible() and block.always_btn.isVisible()
    return block, tasks[0]


def finish(w: Any, task: asyncio.Task[Any]) -> None:
    """Run the loop until the message's task has ended."""
    w.ops.loop.run_until_complete(asyncio.wait({task}, timeout=60))
    assert task.done() and not w.chat.generating


def roles(w: Any) -> list[str]:
    return [m.role for m in w.store.messages(w.chat.conversation_id)]


def test_an_approved_call_shows_its_result_and_the_answer_and_reopens_after_a_restart(
    make_window: Any, qtbot: Any, servers: Path
) -> None:
    w = ready_window(make_window, qtbot, "motto")
    block, task = send_until_asked(w, "What is Tandem's motto? Use the motto tool.")
    assert block.name == "motto" and "motto" in block.title.text()
    assert ran(servers) == []  # nothing runs before the user says so
    calling: MessageBubble = w.chat_view.bubbles[-1]
    assert calling.role == "assistant" and calling.calls == [block]
    assert calling.stats_strip.isVisible()  # the calling turn's own figures
    (stats,) = on_loop(w, w.chat.answerFinished, block.approve_btn.click)
    finish(w, task)
    assert ran(servers) == ["motto"]
    assert block.state == "ok"
    bubbles = w.chat_view.bubbles
    assert [b.role for b in bubbles] == ["user", "assistant", "tool", "assistant"]
    result, answer = bubbles[2], bubbles[3]
    # the result: collapsed under the call, shown on a click
    assert result.tool_name == "motto" and result.text == MOTTO
    assert result.result_btn.isVisible() and "motto" in result.result_btn.text()
    assert not result.body.isVisible()
    result.result_btn.click()
    assert result.body.isVisible() and MOTTO in result.body.text()
    # the text answer, with its turn's speculation figures in the strip
    assert "two models, one answer" in answer.text.lower()
    assert stats.completion_tokens > 0 and answer.stats_strip.isVisible()
    assert answer.stats_strip.stats == stats
    assert not calling.tool_note.isVisible() and not answer.tool_note.isVisible()

    cid = w.chat.conversation_id
    stored = w.store.messages(cid)
    assert [m.role for m in stored] == ["user", "assistant", "tool", "assistant"]
    (call,) = stored[1].tool_calls
    assert call["function"]["name"] == "motto" and stored[1].stats is not None
    assert (stored[2].tool_call_id, stored[2].tool_name, stored[2].content) == (call["id"], "motto", MOTTO)
    assert stored[3].content == answer.text and stored[3].stats is not None
    assert len(server_children()) == 1  # the server runs on after the message

    # a restart: a new window on the same home shows the tool turns as they were
    w2 = make_window()
    w2.chat.open_conversation(cid)
    again = w2.chat_view.bubbles
    assert [b.role for b in again] == ["user", "assistant", "tool", "assistant"]
    assert [blk.name for blk in again[1].calls] == ["motto"]
    assert not again[1].calls[0].buttons.isVisible()
    assert again[2].text == MOTTO and not again[2].body.isVisible()
    assert again[3].text == answer.text


def test_deny_ends_with_one_line_and_nothing_runs(make_window: Any, qtbot: Any, servers: Path) -> None:
    w = ready_window(make_window, qtbot, "motto")
    block, task = send_until_asked(w, "What is Tandem's motto? Use the motto tool.")
    on_loop(w, w.chat.answerFinished, block.deny_btn.click)
    finish(w, task)
    assert ran(servers) == []
    calling = w.chat_view.bubbles[1]
    assert calling.tool_note.isVisible() and calling.tool_note.text() == "motto was denied; it did not run."
    assert [b.role for b in w.chat_view.bubbles] == ["user", "assistant", "tool"]
    stored = w.store.messages(w.chat.conversation_id)
    assert [m.role for m in stored] == ["user", "assistant", "tool"]
    assert stored[2].content == "Not run: the user denied this call."
    assert stored[2].tool_call_id == stored[1].tool_calls[0]["id"]
    assert not w.chat.generating and w.chat_view.composer.button.isEnabled()


def test_a_server_crash_ends_with_one_line_and_always_allow_is_stored(
    make_window: Any, qtbot: Any, servers: Path
) -> None:
    w = ready_window(make_window, qtbot, "crash")
    block, task = send_until_asked(w, "Crash the server with code 3.")
    on_loop(w, w.chat.answerFinished, block.always_btn.click)
    finish(w, task)
    assert ran(servers) == ["crash"]
    line = "calc: the server's process ended during crash (it said: calc: crashing on purpose)"
    calling = w.chat_view.bubbles[1]
    assert calling.tool_note.text() == line and calling.tool_note.isVisible()
    stored = w.store.messages(w.chat.conversation_id)
    assert [m.role for m in stored] == ["user", "assistant", "tool"]
    assert stored[2].content == f"Error: {line}"
    # "Always allow" set the tool's rule and saved it
    assert w.chat.tools.config.get("calc").approval("crash") == "always"
    assert json.loads(config_path().read_text("utf-8"))["mcpServers"]["calc"]["tools"] == {"crash": "always"}
    assert load_config().get("calc").approval("crash") == "always"


def test_stop_at_the_approval_keeps_an_intact_conversation(
    make_window: Any, qtbot: Any, servers: Path
) -> None:
    w = ready_window(make_window, qtbot, "motto")
    _block, task = send_until_asked(w, "What is Tandem's motto? Use the motto tool.")
    w.chat_view.composer.button.click()  # the send button is Stop while the message runs
    finish(w, task)
    assert task.cancelled()
    assert ran(servers) == []
    stored = w.store.messages(w.chat.conversation_id)
    assert [m.role for m in stored] == ["user", "assistant", "tool"]
    assert stored[2].content == "Not run: the message was stopped."
    w.close()
    assert not server_children()  # closing the window ends the servers


def test_auto_runs_each_tool_turn_on_the_agent_route(make_window: Any, qtbot: Any, servers: Path) -> None:
    """On the window's engine pool, a conversation on Auto sends each model turn of its tool loop
    (tools offered, then a tool result to read) to the configuration Auto's router gives agent
    turns, and the answer's header and stats name it."""
    from app.core.launch.auto import RequestKind
    from app.core.launch.auto.router import RequestRouter, label_of

    w = ready_window(make_window, qtbot, "motto")
    pool = w.engine.pool
    assert pool is not None and isinstance(pool.route, RequestRouter)
    agent = label_of(pool.route.routes[RequestKind.AGENT])
    control = w.chat_page.speculation
    item = control.entry("auto")
    assert item is not None and item.isEnabled()
    control.combo.setCurrentIndex(item.row())
    block, task = send_until_asked(w, "What is Tandem's motto? Use the motto tool.")
    (stats,) = on_loop(w, w.chat.answerFinished, block.approve_btn.click)
    finish(w, task)
    assert ran(servers) == ["motto"]
    assert w.store.conversation(w.chat.conversation_id).speculation == "auto"
    shown = "Off" if agent == "off" else agent
    assert control.answered.text().endswith(shown), (control.answered.text(), agent)
    if agent == pool.launched.name:
        assert stats.speculation == w.engine.info.speculation
    else:
        assert stats.speculation == ("" if agent == "off" else agent)
    served = pool.status().stats
    assert served.get(agent) is not None and served[agent].requests >= 2  # both model turns
