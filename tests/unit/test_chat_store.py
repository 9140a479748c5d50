from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from app.core.chat import AnswerBuilder, AnswerStats, ChatStore, RoundPoint, default_db_path
from app.core.engines.base import Finished, Round, TextDelta


@pytest.fixture
def store(tmp_path: Path):
    s = ChatStore(tmp_path / "chats.sqlite3")
    yield s
    s.close()


def test_default_path_is_under_user_data_dir(_isolated_home: Path) -> None:
    assert default_db_path().is_relative_to(_isolated_home)


def test_conversations_create_rename_delete(store: ChatStore) -> None:
    a = store.create_conversation("First")
    b = store.create_conversation("Second", system_prompt="Be brief.")
    assert [c.title for c in store.conversations()] == ["Second", "First"]
    store.rename(a.id, "  Renamed ")
    assert store.conversation(a.id).title == "Renamed"
    with pytest.raises(ValueError, match="empty"):
        store.rename(a.id, "   ")
    store.add_message(a.id, "user", "hi")
    store.delete_conversation(a.id)
    assert [c.id for c in store.conversations()] == [b.id]
    assert store.messages(a.id) == []  # cascaded
    assert store.conversation(b.id).system_prompt == "Be brief."


def test_messages_round_trip_with_stats_and_status(store: ChatStore, tmp_path: Path) -> None:
    conv = store.create_conversation("c")
    stats = AnswerStats(
        completion_tokens=5,
        decode_tps=12.5,
        ttft_ms=40.0,
        rounds=2,
        drafted=6,
        accepted=4,
        per_round=[RoundPoint(3, 3), RoundPoint(3, 1)],
    )
    store.add_message(conv.id, "user", "question")
    store.add_message(
        conv.id, "assistant", "partial ans", status="stopped", model="m", stats=stats, draft_spans=[(0, 4)]
    )
    store.close()
    reopened = ChatStore(tmp_path / "chats.sqlite3")
    try:
        msgs = reopened.messages(conv.id)
        assert [m.role for m in msgs] == ["user", "assistant"]
        ans = msgs[1]
        assert ans.status == "stopped"
        assert ans.stats == stats
        assert ans.draft_spans == [(0, 4)]
        assert ans.stats is not None and ans.stats.acceptance_rate == pytest.approx(4 / 6)
        assert ans.stats.mean_accepted_length == pytest.approx((4 + 2) / 2)
    finally:
        reopened.close()


def test_truncate_from_drops_message_and_later(store: ChatStore) -> None:
    conv = store.create_conversation("c")
    ids = [store.add_message(conv.id, "user" if i % 2 == 0 else "assistant", f"m{i}").id for i in range(4)]
    store.truncate_from(conv.id, ids[2])
    assert [m.content for m in store.messages(conv.id)] == ["m0", "m1"]


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.close()
    with pytest.raises(RuntimeError, match="newer Tandem"):
        ChatStore(path)


class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_answer_builder_tracks_draft_spans_rounds_and_ttft() -> None:
    clock = FakeClock()
    b = AnswerBuilder("draft Q4_1", clock=clock)
    clock.t += 0.25
    b.feed(TextDelta("Hel", from_draft=False))
    b.feed(Round(0, 3, 2, 3))
    b.feed(TextDelta("lo", from_draft=True))
    b.feed(TextDelta(" wo", from_draft=True))
    b.feed(TextDelta("rld", from_draft=False))
    assert b.text == "Hello world"
    assert b.draft_spans == [(3, 8)]
    partial = b.stats("cancelled")
    assert partial.finish_reason == "cancelled" and partial.ttft_ms == pytest.approx(250.0)
    b.feed(Finished("stop", 7, 4, 10.0, 200.0, 3, 2, rounds=1))
    s = b.stats()
    assert (s.completion_tokens, s.drafted, s.accepted, s.rounds) == (4, 3, 2, 1)
    assert s.decode_tps == pytest.approx(20.0)
    assert s.per_round == [RoundPoint(3, 2)]
    assert s.speculation == "draft Q4_1"
    assert AnswerStats.from_json(s.to_json()) == s


def test_answer_builder_without_drafts_has_no_acceptance() -> None:
    b = AnswerBuilder()
    b.feed(TextDelta("x"))
    b.feed(Finished("length", 1, 1, 1.0, 10.0, 0, 0))
    s = b.stats()
    assert s.acceptance_rate is None and s.mean_accepted_length is None


def test_title_from_message_cuts_at_a_word_with_ellipsis() -> None:
    from app.core.chat.store import title_from_message

    assert title_from_message("  Hello\n there  ") == "Hello there"
    long = "Write a Python function that checks whether a number is prime, with a short explanation."
    title = title_from_message(long)
    assert title == "Write a Python function that checks whether a…"
    assert len(title) <= 48
    assert title_from_message("x" * 100).endswith("…") and len(title_from_message("x" * 100)) == 48


def test_a_streaming_answer_is_saved_as_it_grows_and_finished_in_place(store: ChatStore) -> None:
    conv = store.create_conversation("c")
    store.add_message(conv.id, "user", "q")
    row = store.add_message(conv.id, "assistant", "", status="streaming")
    assert store.update_message(row.id, "partial", draft_spans=[(0, 3)])
    saved = store.messages(conv.id)[-1]
    assert (saved.content, saved.status, saved.draft_spans) == ("partial", "streaming", [(0, 3)])
    before = store.conversation(conv.id).updated
    stats = AnswerStats(completion_tokens=2, decode_tps=5.0)
    assert store.update_message(row.id, "partial answer", status="complete", stats=stats, touch=True)
    done = store.messages(conv.id)[-1]
    assert (done.id, done.content, done.status, done.stats) == (row.id, "partial answer", "complete", stats)
    assert store.conversation(conv.id).updated >= before
    store.delete_message(row.id)
    assert [m.role for m in store.messages(conv.id)] == ["user"]


def test_saving_into_a_deleted_conversation_writes_nothing(store: ChatStore) -> None:
    conv = store.create_conversation("gone")
    row = store.add_message(conv.id, "assistant", "", status="streaming")
    store.delete_conversation(conv.id)
    assert store.update_message(row.id, "late text", status="stopped", touch=True) is False
    assert store.conversations() == [] and store.messages(conv.id) == []


def test_answers_left_streaming_reopen_as_interrupted(tmp_path: Path) -> None:
    first = ChatStore(tmp_path / "c.sqlite3")
    conv = first.create_conversation("c")
    first.add_message(conv.id, "assistant", "cut off here", status="streaming")
    first.add_message(conv.id, "assistant", "finished", status="complete")
    first.close()
    second = ChatStore(tmp_path / "c.sqlite3")
    try:
        assert second.recovered == 1
        assert [(m.content, m.status) for m in second.messages(conv.id)] == [
            ("cut off here", "interrupted"),
            ("finished", "complete"),
        ]
    finally:
        second.close()


def test_the_speculation_choice_is_stored_and_old_conversations_load_as_auto(tmp_path: Path) -> None:
    """A conversation keeps its speculation choice; a file written before the choice
    existed (no column) opens with every conversation at Auto, and stays readable by older code."""
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE conversations (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL,"
        " system_prompt TEXT NOT NULL DEFAULT '', created REAL NOT NULL, updated REAL NOT NULL);"
        "INSERT INTO conversations(title, created, updated) VALUES ('old', 1.0, 1.0);"
        "PRAGMA user_version = 1;"
    )
    db.commit()
    db.close()
    store = ChatStore(path)
    try:
        (old,) = store.conversations()
        assert old.title == "old" and old.speculation == "auto"
        new = store.create_conversation("new")
        assert new.speculation == "auto"
        store.set_speculation(new.id, " Off ")
        with pytest.raises(ValueError, match="empty"):
            store.set_speculation(new.id, "  ")
    finally:
        store.close()
    store = ChatStore(path)  # reopened: the choice survived, the old one is still Auto
    try:
        assert {c.title: c.speculation for c in store.conversations()} == {"new": "off", "old": "auto"}
    finally:
        store.close()
