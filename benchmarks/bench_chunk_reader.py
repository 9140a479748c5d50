"""CPU cost of turning llama-server's streamed chunks into engine events, per chunk.

The local llama.cpp engine spends this on its owner thread for every token it streams; on 2 cores
that CPU comes out of llama.cpp's. Measured as thread CPU time (``time.thread_time``), so other
work on the machine changes it far less than it changes tokens/s. Chunks are llama-server's shape
with ``timings_per_token`` (a draft round every third chunk, two tokens accepted), with and
without logprobs.

    python benchmarks/bench_chunk_reader.py                      # this checkout
    python benchmarks/bench_chunk_reader.py --tree ../other      # another checkout, same figures

``--tree`` runs the measurement in a child process with that checkout first on ``PYTHONPATH``;
a checkout without the shared llama-server client (``ChunkReader``) is measured through the
engine's own ``_StreamState`` instead, so the two can be compared side by side in one run:

    python benchmarks/bench_chunk_reader.py --tree OLD --tree .
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

N_CHUNKS = 20_000
REPEATS = 7


def chunks(with_logprobs: bool) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    predicted = drafted = accepted = 0
    for i in range(N_CHUNKS):
        step = 3 if i % 3 == 2 else 1  # every third chunk closes a round: 2 drafts + the target's
        if step == 3:
            drafted += 3
            accepted += 2
        predicted += step
        choice: dict[str, Any] = {"delta": {"content": " word" * step}, "index": 0}
        if with_logprobs:
            choice["logprobs"] = {
                "content": [
                    {"id": 100 + j, "top_logprobs": [{"id": 100 + j, "token": " word", "logprob": -0.1}]}
                    for j in range(step)
                ]
            }
        out.append(
            {
                "choices": [choice],
                "timings": {
                    "predicted_n": predicted,
                    "draft_n": drafted,
                    "draft_n_accepted": accepted,
                    "prompt_n": 20,
                    "predicted_ms": predicted * 10.0,
                },
            }
        )
    return out


def measure_here(with_logprobs: bool) -> float:
    """Median microseconds of thread CPU per chunk in the ``app`` this process imports."""
    data = chunks(with_logprobs)
    try:
        from app.core.engines.llamaserver import ChunkReader

        def run() -> None:
            reader = ChunkReader("llama.cpp", with_logprobs)
            sink: list[object] = []
            for c in data:
                sink.extend(reader.feed(c))
            sink.extend(reader.closing_rounds())

    except ImportError:  # a checkout without the shared client: the engine's own translator
        from app.core.engines.llamacpp import _StreamState

        class Job:
            def __init__(self) -> None:
                self.events: list[object] = []

            def emit(self, event: object) -> None:
                self.events.append(event)

            def stopped(self) -> bool:
                return False

        def run() -> None:
            state = _StreamState(Job(), with_logprobs)
            for c in data:
                state.on_chunk(c)
            state.finish()

    times = []
    for _ in range(REPEATS):
        t0 = time.thread_time()
        run()
        times.append((time.thread_time() - t0) / N_CHUNKS * 1e6)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", action="append", default=[], help="a checkout to measure (repeatable)")
    ap.add_argument("--here", action="store_true", help=argparse.SUPPRESS)  # the child's mode
    args = ap.parse_args()
    if args.here:
        print(json.dumps({"plain": measure_here(False), "logprobs": measure_here(True)}))
        return
    trees: list[str | None] = list(args.tree) if args.tree else [None]  # None: the installed package
    print(f"<!-- {time.strftime('%Y-%m-%d %H:%M')} {N_CHUNKS} chunks, median of {REPEATS} -->")
    print("| checkout | commit | µs CPU per chunk | with logprobs |")
    print("|---|---|---|---|")
    for _round in range(2):  # alternate, so drift hits every checkout
        for tree in trees:
            env = dict(os.environ)
            if tree is None:
                root = Path(__file__).resolve().parents[1]
            else:
                root = Path(tree).resolve()
                env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), env.get("PYTHONPATH")) if p)
            commit = subprocess.run(
                ["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
            ).stdout.strip()
            here = str(Path(__file__).resolve())
            code = f"import sys; sys.argv = ['x', '--here']; exec(open({here!r}).read())"
            out = subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
            )
            got = json.loads(out.stdout.strip().splitlines()[-1])
            print(f"| {root.name} | {commit} | {got['plain']:.1f} | {got['logprobs']:.1f} |", flush=True)


if __name__ == "__main__":
    main()
