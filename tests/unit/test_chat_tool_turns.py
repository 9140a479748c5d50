"""Tool turns kept in a conversation: an assistant message's calls and each call's
``tool`` result are stored, reopened, sent again in OpenAI's messages shape, trimmed like other
messages, regenerated from any turn and exported (JSON, Markdown, HTML), against a real store."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from app.core.chat import ChatStore
from app.core.chat.context import fit_history
from app.core.chat.export import export_conversation
from app.core.engines.base import ChatMessage
from app.core.engines.calls import ToolCall, WireToolCall

CALL: WireToolCall = ToolCall("call_1", "motto", {"topic": "tea"}).wire()
MOTTO = "Slow is smooth, smooth is fast."


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ChatStore]:
    (tmp_path / "data").mkdir()
    s = ChatStore(tmp_path / "data" / "chats.sqlite3")
    yield s
    s.close()


def _tool_conversation(store: ChatStore) -> int:
    conv = store.create_conversation("Motto", system_prompt="Use tools.")
    store.add_message(conv.id, "user", "What is the motto?")
    store.add_message(conv.id, "assistant", "", model="m", tool_calls=[CALL])
    store.add_message(conv.id, "tool", MOTTO, tool_call_id="call_1", tool_name="motto")
    store.add_message(conv.id, "assistant", f"The motto is: {MOTTO}", model="m")
    return conv.id


def test_tool_calls_and_results_survive_a_reopen_in_openai_shape(store: ChatStore) -> None:
    cid = _tool_conversation(store)
    path = store.path
    store.close()
    reopened = ChatStore(path)
    try:
        msgs = reopened.messages(cid)
        assert [m.role for m in msgs] == ["user", "assistant", "tool", "assistant"]
        assert msgs[1].tool_calls == (CALL,)
        assert (msgs[2].tool_call_id, msgs[2].tool_name, msgs[2].content) == ("call_1", "motto", MOTTO)
        assert [m.chat_message() for m in msgs] == [
            {"role": "user", "content": "What is the motto?"},
            {"role": "assistant", "content": "", "tool_calls": [CALL]},
            {"role": "tool", "content": MOTTO, "tool_call_id": "call_1", "name": "motto"},
            {"role": "assistant", "content": f"The motto is: {MOTTO}"},
        ]
        assert json.loads(msgs[1].tool_calls[0]["function"]["arguments"]) == {"topic": "tea"}
    finally:
        reopened.close()


def test_calls_saved_on_an_answer_that_streamed_first(store: ChatStore) -> None:
    conv = store.create_conversation("c")
    row = store.add_message(conv.id, "assistant", "", status="streaming")
    assert store.update_message(row.id, "Let me look.", status="complete", tool_calls=[CALL])
    (m,) = store.messages(conv.id)
    assert (m.content, m.status, m.tool_calls) == ("Let me look.", "complete", (CALL,))


def test_a_tool_message_must_name_its_call(store: ChatStore) -> None:
    conv = store.create_conversation("c")
    with pytest.raises(ValueError, match="tool_call_id"):
        store.add_message(conv.id, "tool", "result")
    assert store.messages(conv.id) == []


def test_a_store_written_before_tool_turns_opens_and_takes_them(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE conversations (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL,
            system_prompt TEXT NOT NULL DEFAULT '', created REAL NOT NULL, updated REAL NOT NULL,
            speculation TEXT NOT NULL DEFAULT 'auto');
        CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT,
            conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
            role TEXT NOT NULL, content TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'complete',
            model TEXT NOT NULL DEFAULT '', stats TEXT, draft_spans TEXT, created REAL NOT NULL,
            images TEXT);
        INSERT INTO conversations(title, created, updated) VALUES ('old', 1, 1);
        INSERT INTO messages(conversation_id, role, content, created) VALUES (1, 'user', 'hi', 1);
        PRAGMA user_version = 1;
        """
    )
    db.close()
    store = ChatStore(path)
    try:
        (old,) = store.messages(1)
        assert (old.content, old.tool_calls, old.tool_call_id, old.tool_name) == ("hi", (), "", "")
        store.add_message(1, "assistant", "", tool_calls=[CALL])
        store.add_message(1, "tool", MOTTO, tool_call_id="call_1", tool_name="motto")
        assert [m.role for m in store.messages(1)] == ["user", "assistant", "tool"]
    finally:
        store.close()


def test_a_malformed_stored_call_is_left_out_not_fatal(store: ChatStore) -> None:
    conv = store.create_conversation("c")
    row = store.add_message(conv.id, "assistant", "text", tool_calls=[CALL])
    store._db.execute(
        "UPDATE messages SET tool_calls = ? WHERE id = ?", (json.dumps([{"function": 3}, CALL]), row.id)
    )
    (m,) = store.messages(conv.id)
    assert m.tool_calls == (CALL,)


def test_regenerate_from_any_turn_keeps_a_sendable_history(store: ChatStore) -> None:
    cid = _tool_conversation(store)
    msgs = store.messages(cid)
    # regenerate the final answer: the history ends with the tool's result, every call answered
    store.truncate_from(cid, msgs[3].id)
    assert [m.chat_message()["role"] for m in store.messages(cid)] == ["user", "assistant", "tool"]
    # regenerate the calling turn: its result goes with it
    store.truncate_from(cid, msgs[1].id)
    assert [m.role for m in store.messages(cid)] == ["user"]


def _count(messages: Sequence[ChatMessage]) -> int:
    """Tokens as one per word of every field a template renders (content, calls, names)."""
    words = 0
    for m in messages:
        words += len(m["content"].split()) + 1
        for call in m.get("tool_calls", []):
            words += len(call["function"]["arguments"].split()) + 1
        words += 1 if m.get("name") else 0
    return words


def test_tool_turns_count_toward_trimming_and_go_whole_with_their_question(store: ChatStore) -> None:
    cid = _tool_conversation(store)
    store.add_message(cid, "user", "And again?")
    history: list[ChatMessage] = [{"role": "system", "content": "Use tools."}]
    history += [m.chat_message() for m in store.messages(cid)]
    whole = fit_history(history, _count, n_ctx=1000, max_tokens=10)
    assert whole.dropped == 0 and whole.prompt_tokens == _count(history)
    # too small for both turns: the first question leaves with its call, result and answer
    budget = _count([history[0], history[-1]]) + 3
    fitted = fit_history(history, _count, n_ctx=budget + 10, max_tokens=10)
    assert fitted.dropped == 4
    assert [m["role"] for m in fitted.messages] == ["system", "user"]
    # the tool result's size counts: a larger result drops a turn that fitted before
    roomy = fit_history(history, _count, n_ctx=_count(history) + 10, max_tokens=10)
    assert roomy.dropped == 0
    result: ChatMessage = {**history[3], "content": MOTTO * 10}
    longer = [*history[:3], result, *history[4:]]
    assert fit_history(longer, _count, n_ctx=_count(history) + 10, max_tokens=10).dropped == 4


def test_json_export_has_tool_calls_and_tool_messages(store: ChatStore, tmp_path: Path) -> None:
    cid = _tool_conversation(store)
    out = tmp_path / "c.json"
    export_conversation(store, cid, out, "json")
    data = json.loads(out.read_text(encoding="utf-8"))
    msgs = data["messages"]
    assert [m["role"] for m in msgs] == ["system", "user", "assistant", "tool", "assistant"]
    assert msgs[2] == {"role": "assistant", "content": "", "tool_calls": [CALL]}
    assert msgs[3] == {"role": "tool", "content": MOTTO, "tool_call_id": "call_1", "name": "motto"}
    assert msgs[4]["content"] == f"The motto is: {MOTTO}"


def test_markdown_and_html_exports_show_each_call_and_its_result(store: ChatStore, tmp_path: Path) -> None:
    cid = _tool_conversation(store)
    md = tmp_path / "c.md"
    export_conversation(store, cid, md, "markdown")
    text = md.read_text(encoding="utf-8")
    call_at = text.index("**Tool call:** `motto`")
    args_at = text.index('"topic": "tea"')
    result_at = text.index("**Tool result** (`motto`):")
    motto_at = text.index(f"```\n{MOTTO}\n```")
    answer_at = text.index(f"The motto is: {MOTTO}")
    assert call_at < args_at < result_at < motto_at < answer_at
    page = tmp_path / "c.html"
    export_conversation(store, cid, page, "html")
    html = page.read_text(encoding="utf-8")
    assert "<strong>Tool call:</strong> <code>motto</code>" in html and '"topic"' in html
    assert '<div class="message tool">' in html and MOTTO in html


def test_a_result_holding_backticks_stays_inside_its_fence(store: ChatStore, tmp_path: Path) -> None:
    conv = store.create_conversation("c")
    store.add_message(conv.id, "user", "q")
    store.add_message(conv.id, "assistant", "", tool_calls=[CALL])
    store.add_message(conv.id, "tool", "```\nnot the end\n```", tool_call_id="call_1", tool_name="motto")
    md = tmp_path / "c.md"
    export_conversation(store, conv.id, md, "markdown")
    assert "````\n```\nnot the end\n```\n````" in md.read_text(encoding="utf-8")
