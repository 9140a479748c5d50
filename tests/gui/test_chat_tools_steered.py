"""Tools the user steers, in the window: the real embedded model (SmolLM2 135M on llama.cpp), the
real calc MCP server (a stdio subprocess written with the SDK) stored in mcp.json with one tool
turned off, and the real chat widgets.

The composer shows the tools offered and the server's state, and takes each message's tool
choice (auto, none, any tool, a named tool), passed to the loop as an API request's
``tool_choice``. A forced call waits for approval: approved, it runs and the answer follows;
denied, nothing runs. The tool turned off is in no request the model gets, even when any tool is
required. One server process serves every message, and closing the window ends it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.engines.base import Event, GenerateRequest, Sampling
from app.core.tools.client import ServerState
from app.core.tools.config import ToolsConfig, save_config
from app.gui.views.chat.tool_call import ToolCallBlock
from tests.integration.mcp_servers import calc_server, memory_keyring, server_children
from tests.integration.mcp_servers.calc import MOTTO

pytestmark = pytest.mark.usefixtures("smollm2_q4")

#: the calc server's tools but "broken", which the user turned off
OFFERED = ["add", "motto", "env", "header", "crash", "hang"]


@pytest.fixture(autouse=True)
def servers(tmp_path: Path) -> Iterator[Path]:
    log = tmp_path / "calls.log"
    with memory_keyring():
        save_config(ToolsConfig((calc_server(env={"CALC_LOG": str(log)}, rules={"broken": "off"}),)))
        yield log
    assert not server_children(), "an MCP server process outlived the test"


def ran(log: Path) -> list[str]:
    return log.read_text("utf-8").split() if log.exists() else []


def run_loop_until(
    w: Any, signal: Any, action: Callable[[], object], timeout: float = 120.0
) -> tuple[Any, ...]:
    """Do ``action`` and run the window's qasync loop (as the app runs it) until ``signal`` fires."""
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


def send(w: Any, text: str, choice: str, until: Any) -> tuple[Any, ...]:
    """Send ``text`` with the tool choice ``choice`` chosen in the composer; ``until``'s arguments."""
    composer = w.chat_view.composer
    box = composer.tool_choice_box

    def go() -> None:
        box.setCurrentIndex(box.findData(choice))
        assert composer.tool_choice() == choice
        composer.input.setPlainText(text)
        composer.button.click()

    return run_loop_until(w, until, go)


def asking(w: Any) -> ToolCallBlock:
    (block,) = [blk for b in w.chat_view.bubbles for blk in b.calls if blk.state == "asking"]
    assert block.buttons.isVisible() and block.approve_btn.isVisible() and block.deny_btn.isVisible()
    return block


def finish(w: Any) -> None:
    """Run the loop until the message's task has ended."""
    task = w.chat.answer_task(w.chat.conversation_id)
    if task is not None:
        w.ops.loop.run_until_complete(asyncio.wait({task}, timeout=60))
    assert not w.chat.generating


def test_the_user_steers_the_tools_and_one_server_serves_every_message(
    make_window: Any, qtbot: Any, servers: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = make_window()
    with qtbot.waitSignal(w.modelLoaded, timeout=120_000):
        w.load_default_model()
    w.chat.sampling = Sampling(temperature=0.0, max_tokens=64)
    composer = w.chat_view.composer
    box = composer.tool_choice_box
    # the server starts with the window; the composer offers its tools, "broken" not among them
    qtbot.waitUntil(lambda: box.findData("motto") >= 0, timeout=60_000)
    assert composer.tools_row.isVisible()
    assert [box.itemData(i) for i in range(box.count())] == ["auto", "none", "required", *OFFERED]
    assert composer.tools_btn.text() == "6 tools"
    tip = composer.tools_btn.toolTip()
    assert "calc: running" in tip and "motto" in tip and "broken" not in tip
    assert w.chat.tools.statuses()["calc"].state is ServerState.RUNNING
    (pid,) = [p.pid for p in server_children()]

    # every request the model gets, as the engine gets it
    requests: list[GenerateRequest] = []
    real_stream = w.engine.stream

    async def recording(label: str, request: GenerateRequest, loop: Any) -> AsyncIterator[Event]:
        requests.append(request)
        async for event in real_stream(label, request, loop):
            yield event

    monkeypatch.setattr(w.engine, "stream", recording)

    # a named tool: the approval shows; approved, it runs and the answer follows
    (pending,) = send(w, "What is Tandem's motto?", "motto", w.chat.approvalRequested)
    assert pending.call.name == "motto" and ran(servers) == []
    assert box.currentData() == "auto"  # the choice was this message's
    block = asking(w)
    (stats,) = run_loop_until(w, w.chat.answerFinished, block.approve_btn.click)
    finish(w)
    assert ran(servers) == ["motto"] and block.state == "ok"
    bubbles = w.chat_view.bubbles
    assert [b.role for b in bubbles] == ["user", "assistant", "tool", "assistant"]
    assert bubbles[2].text == MOTTO and bubbles[3].text.strip() and stats.completion_tokens > 0
    assert [p.pid for p in server_children()] == [pid]

    # the same again, denied: nothing runs; the same process served it
    send(w, "And the motto once more?", "motto", w.chat.approvalRequested)
    block = asking(w)
    run_loop_until(w, w.chat.answerFinished, block.deny_btn.click)
    finish(w)
    assert ran(servers) == ["motto"] and block.state == "denied"
    assert w.chat_view.bubbles[-2].tool_note.text() == "motto was denied; it did not run."
    assert [p.pid for p in server_children()] == [pid]

    # any tool required: the model calls one of the offered ones, never the one turned off
    (pending,) = send(w, "Use a tool.", "required", w.chat.approvalRequested)
    assert pending.call.name in OFFERED
    run_loop_until(w, w.chat.answerFinished, asking(w).deny_btn.click)
    finish(w)
    assert ran(servers) == ["motto"]

    # none: a plain answer, no tools in the request
    before = len(requests)
    send(w, "Say hello.", "none", w.chat.answerFinished)
    finish(w)
    (plain,) = requests[before:]
    assert plain.tools is None and plain.response_format is None
    assert "Add two whole numbers" not in json.dumps(plain.messages)  # no tool prompt either

    # the tool turned off was in no request: not in its tools, its prompt, nor its grammar
    assert len(requests) >= 5
    offered = [r for r in requests if "Add two whole numbers" in json.dumps(r.messages)]
    assert len(offered) >= 3  # the tool prompt of the first turn of each message that offered tools
    for request in requests:
        sent = json.dumps([request.messages, request.tools, request.response_format], default=str)
        assert "broken(" not in sent and '"broken"' not in sent  # the prompt's line, the grammar's name
        assert "Always fails with a message" not in sent  # its description
    forced = [r for r in requests if r.response_format is not None]
    assert forced and all("motto" in json.dumps(r.response_format, default=str) for r in forced)
    assert [p.pid for p in server_children()] == [pid]

    w.close()
    assert not server_children()  # the window's close ended the server
