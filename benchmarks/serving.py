"""What the serving benchmarks share: the pair a benchmark runs, and a ``tandem serve`` child.

Imported by the scripts beside it (``python benchmarks/<script>.py`` puts this folder first on the
path)."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping, Sequence

from app.core import assets


def pair(kind: str) -> tuple[str, str]:
    """``(target, drafter)`` paths: ``embedded``, the F32 SmolLM2 (dequantized from the embedded
    Q4_1) with the Q4_1 file as its classic drafter; ``deep``, the realistic-cost target
    (:mod:`app.devtools.deep_target`) with the same drafter."""
    drafter = str(assets.smollm2_q4_path())
    if kind == "deep":
        from app.devtools.deep_target import deep_pair

        return str(deep_pair()[0]), drafter
    return str(assets.resolve("embedded://smollm2/SmolLM2-135M-Instruct.F32.gguf")), drafter


def start_serve(
    args: Sequence[str], env: Mapping[str, str], on_line: Callable[[str], None] | None = None
) -> tuple[subprocess.Popen[str], str]:
    """``tandem serve`` with ``args`` (on port 0), its chat completions URL once it serves; each
    line of its start-up log goes to ``on_line``. SystemExit when it does not start."""
    server = subprocess.Popen(
        [sys.executable, "-m", "app", "serve", *args, "--port", "0"],
        env=dict(env),
        stdout=subprocess.DEVNULL,  # its request log: the benchmark's own output stays Markdown
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.stderr is not None
    for line in server.stderr:
        if on_line is not None:
            on_line(line)
        found = re.search(r"serving .* at (http://\S+/v1)", line)
        if found:
            # its per-request log keeps coming: read it so the pipe never fills
            threading.Thread(target=server.stderr.read, daemon=True).start()
            return server, found.group(1) + "/chat/completions"
    server.wait(30)
    raise SystemExit(f"tandem serve {' '.join(args)} did not start (exit {server.poll()})")
