"""A tool call in an answer is shown as a compact block (name and arguments), not raw markup,
parsed with the loaded family's ``tool_parser`` (tagged styles also by their tags)."""

from __future__ import annotations

from typing import Any

from app.core.chat.markdown import render_markdown
from app.gui.views.chat import ChatView

GEMMA = (
    'Let me check.<|tool_call>call:get_weather{location:<|"|>Shanghai<|"|>,'
    'reason:<|"|>The user said "你好" (Hello)<|"|>}<tool_call|>'
)
HERMES = 'Sure.\n<tool_call>{"name": "search", "arguments": {"q": "tandem", "n": 3}}</tool_call>'
LLAMA3 = '{"name": "lookup", "parameters": {"id": 7}}'


def test_tool_calls_render_as_blocks_not_markup() -> None:
    out = render_markdown(GEMMA, tool_label="Tool call")
    assert "&lt;|tool_call&gt;" not in out and "<|tool_call>" not in out and "call:get_weather" not in out
    assert "Let me check." in out and "Tool call: <b>get_weather</b>" in out
    assert 'location: "Shanghai"' in out and "你好" in out
    out = render_markdown(HERMES)
    assert "tool_call" not in out and "<b>search</b>" in out and 'q: "tandem"' in out and "n: 3" in out
    # bare Llama 3 JSON needs the family's parser; without it the text stays as written
    assert "<b>lookup</b>" in render_markdown(LLAMA3, tool_style="llama3")
    assert "<b>lookup</b>" not in render_markdown(LLAMA3)
    # a broken block stays text
    broken = '<|tool_call>call:f{a:<|"|>unterminated}<tool_call|>'
    assert "<b>f</b>" not in render_markdown(broken)


def test_the_chat_bubble_shows_the_block(qtbot: Any) -> None:
    view = ChatView()
    qtbot.addWidget(view)
    view.tool_style = "gemma4"
    b = view.add_bubble("assistant", 1)
    b.set_content(GEMMA)
    html = b.body.text()
    assert "<b>get_weather</b>" in html and "call:get_weather" not in html
    assert "Tool call" in html
