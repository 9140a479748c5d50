"""A process killed (SIGKILL) while it stores messages with images loses none of the stored ones:
every row that names an image finds the whole file, and partial files are cleaned up."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from app.core.chat.store import ChatStore

WRITER = r"""
import sys
from app.core import images
from app.core.chat.store import ChatStore
from app.devtools.images import image_bytes

store = ChatStore(sys.argv[1])
cid = store.create_conversation("kill").id
i = 0
while True:
    # a new picture each time, large enough that a kill often lands inside a write
    pic = images.check_image(image_bytes((600 + i % 400, 500), "RGB", "BMP"), f"p{i}")
    name = store.images.put(pic)
    store.add_message(cid, "user", f"message {i}", images=[name])
    i += 1
    if i == 3:
        print("ready", flush=True)
"""


def test_kill_9_while_storing_images_loses_none(tmp_path: Path) -> None:
    db = tmp_path / "data" / "chats.sqlite3"
    db.parent.mkdir()
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    for delay in (0.05, 0.4, 1.1):
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(db)], stdout=subprocess.PIPE, env=env, text=True
        )
        try:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
            time.sleep(delay)
            os.kill(proc.pid, signal.SIGKILL)
        finally:
            proc.kill()
            proc.wait(10)
            if proc.stdout is not None:
                proc.stdout.close()
        store = ChatStore(db, collect_images=False)
        try:
            rows = [m for c in store.conversations() for m in store.messages(c.id)]
            assert rows and all(m.images for m in rows)
            for m in rows:
                (name,) = m.images
                data = store.image_path(name).read_bytes()
                assert hashlib.sha256(data).hexdigest() == name.split(".")[0]  # whole, not cut
            # files of a message that never got its row, and partial ones, go at the next cleanup
            referenced = store.referenced_images()
            store.collect_images()
            assert store.images.names() == referenced
            assert not list(store.images.root.glob("??/.incoming-*"))
        finally:
            store.close()
