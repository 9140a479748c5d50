"""How often the model browser's detail card repaints while the selection walks.

    python benchmarks/bench_browser_paints.py [--families 30] [--gap-ms 5] [--runs 3] [--json]

The real main window (offscreen unless ``QT_QPA_PLATFORM`` says otherwise, a temporary
``TANDEM_HOME``) opens the model browser; the selection then walks ``--families`` families of the
built-in registry one every ``--gap-ms`` ms (a held arrow key), and every Paint event of the detail
card is counted until the card shows the last family and has been still for three frames. Each
run is done twice: with the card's repaint gate (``FRAME_MS``: the first selection holds the
card's updates for a frame) and without it (the gate's ``setUpdatesEnabled`` made a no-op), and
reports the paints, the frames the walk spanned (elapsed / ``FRAME_MS``, rounded up, from the first
selection to the last paint) and paints per frame.

A figure for docs/benchmarks.md, not a test: on a loaded machine the walk stretches over more
frames and fewer paints fit in each, so no fixed count can be asserted. What the tests check is the
gating itself (tests/gui/test_browser.py): updates held while the selection moves, the family
selected last shown when they resume.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _spin_for(seconds: float) -> None:
    """Run the real event loop (it blocks while idle, like ``app.exec()``) for ``seconds``."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(max(0, round(seconds * 1000)), loop.quit)
    loop.exec()


def _spin_until(cond: Any, timeout: float) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise TimeoutError("the walk did not settle in time")
        _spin_for(0.005)


def walk(window: Any, names: list[str], gap_ms: float, gated: bool) -> dict[str, Any]:
    from PySide6.QtCore import QEvent, QObject

    from app.gui.views.browser import FRAME_MS

    page = window.browser
    card = page.detail
    if not gated:
        card.setUpdatesEnabled = lambda _on: None  # the gate cannot hold the card
    paints: list[float] = []

    class CountPaints(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                paints.append(time.perf_counter())
            return False

    counter = CountPaints()
    page.select_family(names[-1])  # start away from the first family of the walk
    _spin_until(lambda: card.updatesEnabled() and window.ops.pending() == 0, 30)
    _spin_for(3 * FRAME_MS / 1000)
    card.installEventFilter(counter)
    started = time.perf_counter()
    for name in names:
        page.select_family(name)
        _spin_for(gap_ms / 1000)
    _spin_until(lambda: card.updatesEnabled() and page.name.text() == names[-1], 30)
    _spin_until(lambda: window.ops.pending() == 0, 30)
    _spin_for(3 * FRAME_MS / 1000)
    card.removeEventFilter(counter)
    if not gated:
        del card.setUpdatesEnabled
    last = paints[-1] if paints else started
    frames = int((last - started) * 1000 // FRAME_MS) + 1
    return {
        "gate": "on" if gated else "off",
        "selections": len(names),
        "paints": len(paints),
        "frames": frames,
        "paints_per_frame": round(len(paints) / frames, 2),
        "walk_ms": round((last - started) * 1000),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--families", type=int, default=30, help="families walked (default 30)")
    parser.add_argument("--gap-ms", type=float, default=5.0, help="between two selections (default 5)")
    parser.add_argument("--runs", type=int, default=3, help="walks per setting (default 3)")
    parser.add_argument("--json", action="store_true", help="one JSON object per walk")
    args = parser.parse_args(argv)

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    home = Path(tempfile.mkdtemp(prefix="tandem-bench-browser-"))
    os.environ["TANDEM_HOME"] = str(home / "tandem")
    os.environ["HOME"] = str(home)
    try:
        from app.core.registry import Registry
        from app.core.settings import Settings
        from app.gui.app import create_application
        from app.gui.errors import ErrorBridge
        from app.gui.i18n import I18n
        from app.gui.main_window import MainWindow
        from app.gui.ops import event_loop

        app = create_application([])
        event_loop()
        registry = Registry.load()
        window = MainWindow(Settings(), I18n(app), ErrorBridge(), save_settings=False, registry=registry)
        window.resize(1200, 780)
        window.show()
        window.nav.setCurrentRow(1)
        _spin_until(lambda: window.ops.pending() == 0, 60)
        names = sorted(registry.families)[: args.families]
        rows: list[dict[str, Any]] = []
        for _ in range(args.runs):
            for gated in (True, False):
                row = walk(window, names, args.gap_ms, gated)
                rows.append(row)
                if args.json:
                    print(json.dumps(row))
        if not args.json:
            load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
            print(f"{len(names)} families, one every {args.gap_ms:g} ms, load average {load:.2f}")
            print("gate | paints (runs) | frames (runs) | median paints per frame")
            for gate in ("on", "off"):
                mine = [r for r in rows if r["gate"] == gate]
                print(
                    f"{gate:4} | {', '.join(str(r['paints']) for r in mine)} | "
                    f"{', '.join(str(r['frames']) for r in mine)} | "
                    f"{statistics.median(r['paints_per_frame'] for r in mine):.2f}"
                )
        window.close()
        window.shutdown()
        window.store.close()
        _spin_for(0.2)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
