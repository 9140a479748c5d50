"""The launch dialog's Threads field says what Automatic chooses on this machine (its tooltip: why), and
that a typed count wins (the count itself: app/core/engines/threads.py)."""

from __future__ import annotations

from typing import Any

from app.core.engines import threads
from app.core.registry import Registry
from app.core.settings import Settings
from app.gui.cache_bridge import CacheBridge
from app.gui.views.launch_dialog import LaunchDialog


def test_the_threads_note_says_what_automatic_chooses_and_a_typed_count_wins(
    qtbot: Any, tmp_path: Any
) -> None:
    fam, spec, quant = Registry.load().match("smollm2-135m-instruct", "gguf", None)
    dlg = LaunchDialog(fam, spec, quant, CacheBridge(), Settings())
    qtbot.addWidget(dlg)
    dlg.resize(900, 700)
    dlg.show()
    n_math = threads.math_cores(threads.machine_layout())
    assert dlg.threads.value() == 0  # Automatic: the field says the count it starts with
    assert dlg.threads.text() == f"Automatic: {n_math} threads"
    assert f"Automatic: {n_math} threads, one per" in dlg.threads.toolTip()
    assert "other programs keep cores busy" in dlg.threads.toolTip()
    dlg.threads.setValue(n_math + 3)
    qtbot.waitUntil(lambda: "as typed" in dlg.threads.toolTip())
    assert f"{n_math + 3} threads, as typed" in dlg.threads.toolTip()
    assert dlg.choice().threads == n_math + 3
