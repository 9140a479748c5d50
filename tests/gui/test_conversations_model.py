from __future__ import annotations

from pathlib import Path
from typing import Any

from app.core.chat import ChatStore
from app.gui.models.conversations_model import ConversationsModel


def test_conversations_model_passes_modeltester_and_announces_removals(
    qtmodeltester: Any, qtbot: Any, tmp_path: Path
) -> None:
    store = ChatStore(tmp_path / "chats.sqlite3")
    try:
        model = ConversationsModel(store)
        model.create("first")
        model.create("second")
        qtmodeltester.check(model)
        gone = model.conversation(1).id
        with qtbot.waitSignal(model.conversationRemoved, timeout=1000) as blocker:
            model.remove(1)
        assert blocker.args == [gone]
        assert [model.conversation(r).title for r in range(model.rowCount())] == ["second"]
        qtmodeltester.check(model)
    finally:
        store.close()
