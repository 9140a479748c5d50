"""Auto never makes you wait: on a first start with nothing measured, the time from launch to the first
token of the first answer with Auto, against speculation Off, side by side in one run.

    python benchmarks/bench_auto_first_start.py [--repeats 3] [--xvfb] [--json]

Each start is a fresh process with a fresh temporary ``TANDEM_HOME`` (nothing calibrated, nothing
cached but the embedded model), the real window (offscreen unless ``--xvfb``) with the settings'
default speculation set to ``auto`` or ``off``, alternating off / auto so a noisy machine hurts
both sides alike. In each: ``load_default_model()`` (the embedded SmolLM2 Q4_1 on llama.cpp, as
a new user's first launch), then the first message as soon as the model is loaded; the clock
stops at the first streamed token shown by the chat (the engine's first ``eventsReady``).
Reported per side: launch -> loaded, loaded -> first token, launch -> first token (median and
every run), and for Auto whether its background measurement was still running at the first
token (it must be: the first answer never waits for it).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

PROMPT = "Write a short paragraph about lighthouses."


def child(side: str) -> dict[str, Any]:
    """One first start in this process (a fresh TANDEM_HOME set by the parent)."""
    from PySide6.QtCore import QEventLoop, QTimer

    from app.core.settings import Settings
    from app.gui.app import create_application
    from app.gui.errors import ErrorBridge
    from app.gui.i18n import I18n
    from app.gui.main_window import MainWindow

    app = create_application(sys.argv[:1])
    errors = ErrorBridge()
    errors.raised.connect(lambda e: print("error:", e.title, e.message, file=sys.stderr))
    window = MainWindow(Settings(default_speculation=side), I18n(app), errors, save_settings=False)
    window.resize(1200, 780)
    window.show()
    marks: dict[str, float] = {}
    calibrating: list[bool] = []
    done = QEventLoop()

    def first_events() -> None:
        if "first" not in marks:
            marks["first"] = time.perf_counter()
            tuner = getattr(window, "auto_tuner", None)
            calibrating.append(bool(tuner is not None and tuner.needs_measuring()))

    def loaded(_info: object) -> None:
        marks["loaded"] = time.perf_counter()
        window.chat.sampling = window.chat.sampling.__class__(temperature=0.0, max_tokens=48)
        window.chat.send(PROMPT)

    window.modelLoaded.connect(loaded)
    window.engine.eventsReady.connect(first_events)
    window.chat.answerFinished.connect(lambda _s: done.quit())
    QTimer.singleShot(300_000, done.quit)
    marks["launch"] = time.perf_counter()
    window.load_default_model()
    done.exec()
    info = window.engine.info
    out = {
        "side": side,
        "launch_to_loaded_ms": (marks["loaded"] - marks["launch"]) * 1000,
        "loaded_to_first_ms": (marks["first"] - marks["loaded"]) * 1000,
        "launch_to_first_ms": (marks["first"] - marks["launch"]) * 1000,
        "speculation": info.speculation if info is not None else "",
        "auto_measuring_at_first_token": calibrating[0] if calibrating else None,
    }
    window.shutdown()
    window.store.close()
    return out


def run_side(side: str, env: dict[str, str]) -> dict[str, Any]:
    home = tempfile.mkdtemp(prefix="tandem-first-start-")
    try:
        proc = subprocess.run(
            [sys.executable, __file__, "--child", side],
            env={**env, "TANDEM_HOME": home},
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        line = next((ln for ln in reversed(proc.stdout.splitlines()) if ln.startswith("{")), None)
        if proc.returncode != 0 or line is None:
            raise SystemExit(f"{side} start failed (rc {proc.returncode}):\n{proc.stderr[-2000:]}")
        result: dict[str, Any] = json.loads(line)
        return result
    finally:
        shutil.rmtree(home, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--xvfb", action="store_true", help="a real X server (Xvfb :98)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", choices=("off", "auto"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child)), flush=True)
        return 0
    env = dict(os.environ)
    xvfb = None
    if args.xvfb:
        xvfb = subprocess.Popen(["Xvfb", ":98", "-screen", "0", "1280x800x24", "-nolisten", "tcp"])
        time.sleep(1.5)
        env["DISPLAY"] = ":98"
        env.pop("QT_QPA_PLATFORM", None)
    else:
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
    runs: list[dict[str, Any]] = []
    try:
        for i in range(args.repeats):
            for side in ("off", "auto") if i % 2 == 0 else ("auto", "off"):
                r = run_side(side, env)
                runs.append(r)
                print(
                    f"{side:4} launch->loaded {r['launch_to_loaded_ms']:7.0f} ms  loaded->first "
                    f"{r['loaded_to_first_ms']:6.0f} ms  launch->first {r['launch_to_first_ms']:7.0f} ms"
                    f"  {r['speculation'] or 'off'}"
                    + ("  (Auto still measuring)" if r["auto_measuring_at_first_token"] else ""),
                    file=sys.stderr,
                    flush=True,
                )
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(10)
    summary: dict[str, Any] = {"runs": runs}
    for side in ("off", "auto"):
        mine = [r for r in runs if r["side"] == side]
        summary[side] = {
            k: statistics.median(r[k] for r in mine)
            for k in ("launch_to_loaded_ms", "loaded_to_first_ms", "launch_to_first_ms")
        }
    ratio = summary["auto"]["launch_to_first_ms"] / summary["off"]["launch_to_first_ms"]
    summary["auto_over_off"] = ratio
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        for side in ("off", "auto"):
            s = summary[side]
            print(
                f"{side:4} median: launch->loaded {s['launch_to_loaded_ms']:.0f} ms, loaded->first "
                f"{s['loaded_to_first_ms']:.0f} ms, launch->first {s['launch_to_first_ms']:.0f} ms"
            )
        print(f"Auto / Off, launch to first token: {ratio:.3f} (goal: at most 1.10)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
