"""Nothing lost across a crash.

A real process runs the chat pieces (ChatStore, EngineHost, ChatController over a ChatView, Qt
offscreen) with a scripted engine that stalls mid-answer; it is killed with SIGKILL, then the store
is reopened as the next start would: the partial answer is there, marked interrupted.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WORDS = [f"word{i}" for i in range(40)]

CHILD = """
import sys, threading
from PySide6.QtWidgets import QApplication
from app.core.chat import ChatStore
from app.core.engines.base import Sampling
from app.gui.controllers.chat import ChatContext, ChatController
from app.gui.errors import ErrorBridge
from app.gui.models.conversations_model import ConversationsModel
from app.gui.views.chat import ChatView
from app.gui.ops import Ops
from app.gui.engine import EngineHost, LoadJob
from tests.gui.conftest import ScriptedEngine

app = QApplication([])
store = ChatStore(sys.argv[1])
never = threading.Event()

def gate(i):
    if i >= 12:  # the answer stalls after 12 words, as if the model were still thinking
        never.wait()

engine = ScriptedEngine(sys.argv[2], gate=gate, plain=True)
errors = ErrorBridge()
host = EngineHost(Ops(errors))
view = ChatView()
chat = ChatController(ChatContext(store, host, view, ConversationsModel(store), errors, Sampling()))
host.loaded.connect(lambda _info: chat.send("tell me a long story"))
host.load(LoadJob("scripted", lambda _progress: engine))
app.exec()
"""


def _partial_row(db: Path) -> tuple[str, str] | None:
    if not db.exists():
        return None
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        row = con.execute("SELECT content, status FROM messages WHERE role = 'assistant'").fetchone()
    except sqlite3.OperationalError:  # the schema is not written yet
        return None
    finally:
        con.close()
    return (str(row[0]), str(row[1])) if row else None


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_answer_streaming_when_killed_is_kept_and_marked_interrupted(tmp_path: Path) -> None:
    from app.core.chat import ChatStore

    db = tmp_path / "chats.sqlite3"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db), " ".join(WORDS)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        # another process writes the file: polling it is the only way to watch (no signals to wait on)
        deadline = time.monotonic() + 60
        row = None
        while time.monotonic() < deadline and proc.poll() is None:
            row = _partial_row(db)
            if row and row[0]:
                break
            time.sleep(0.1)
        assert row and row[0], (
            f"no partial answer was saved; child: {proc.stderr.read() if proc.poll() else ''}"
        )
        assert row[1] == "streaming"
        os.kill(proc.pid, signal.SIGKILL)
        assert proc.wait(30) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
        if proc.stderr is not None:
            proc.stderr.close()

    store = ChatStore(db)  # the next start
    try:
        assert store.recovered == 1
        (conv,) = store.conversations()
        user, answer = store.messages(conv.id)
        assert (user.role, user.content) == ("user", "tell me a long story")
        assert answer.role == "assistant" and answer.status == "interrupted"
        assert answer.content == " ".join(WORDS[:12]) + " "  # everything written before the stall
    finally:
        store.close()
    reopened = ChatStore(db)  # an interrupted answer stays interrupted, counted once
    try:
        assert reopened.recovered == 0
        assert reopened.messages(conv.id)[1].status == "interrupted"
    finally:
        reopened.close()
