"""A coding-agent workload on the real local server, speculation off vs on, one run.

    python benchmarks/bench_agent.py [--model-path GGUF] [--methods off,ngram-mod] [--max-tokens 160]

Starts ``tandem serve`` (a subprocess, ``--port 0``, TANDEM_API_KEY set) once per speculation
setting and drives it through the ``openai`` client (chat completions, streamed, temperature 0):

* two agent-shaped sessions ("edit" measured, "check" kept apart): every request resends the whole
  conversation; the answers edit code that is in the context (rename, then a follow-up edit of the
  returned file), and a ``tool`` message brings a file the next turn refers to;
* per turn: time to first content chunk (TTFT), decode tok/s / drafted / accepted from the
  server's ``tandem`` figures on the final chunk;
* cold prefill: the last turn's exact request again after an unrelated prompt evicted the slot's
  prefix (and on a fresh server, first request), vs the warm turn that shared the prefix;
* (first setting only) two concurrent streamed clients, then a client that drops mid-stream and
  how fast the next request gets its first token.

Results go to stdout as Markdown (paste into docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import openai

from app.core import assets
from app.core.speculative.options import drafter_part

KEY = "bench-agent-key"

SYSTEM = (
    "You are a coding assistant working in a repository. When asked to change a file, answer with "
    "the whole changed file in one ```python block and nothing else."
)

GEOMETRY = '''"""Small geometry helpers."""

import math


def foo(points):
    """Return the length of the path through points."""
    total = 0.0
    for a, b in zip(points, points[1:]):
        dx = b[0] - a[0]
        dy = b[1] - a[1]
        total += math.sqrt(dx * dx + dy * dy)
    return total


def centroid(points):
    n = len(points)
    sx = sum(p[0] for p in points)
    sy = sum(p[1] for p in points)
    return (sx / n, sy / n)


def scale(points, k):
    return [(x * k, y * k) for x, y in points]
'''

SHAPES = '''"""Shapes built on the geometry helpers."""

from geometry import foo, centroid, scale


class Polygon:
    def __init__(self, points):
        self.points = list(points)

    def perimeter(self):
        closed = self.points + self.points[:1]
        return foo(closed)

    def center(self):
        return centroid(self.points)

    def grown(self, k):
        return Polygon(scale(self.points, k))
'''

INVENTORY = '''"""Inventory bookkeeping."""


class Inventory:
    def __init__(self):
        self.items = {}

    def add(self, name, count):
        self.items[name] = self.items.get(name, 0) + count

    def take(self, name, count):
        have = self.items.get(name, 0)
        if count > have:
            raise ValueError("not enough " + name)
        self.items[name] = have - count

    def total(self):
        return sum(self.items.values())
'''

REPORT = '''"""Reports over an inventory."""

from inventory import Inventory


def summary(inv):
    lines = []
    for name, count in sorted(inv.items.items()):
        lines.append(name + ": " + str(count))
    lines.append("total: " + str(inv.total()))
    return "\\n".join(lines)
'''


def _tool_turn(call_id: str, path: str, content: str) -> list[dict[str, Any]]:
    return [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": call_id,
                    "type": "function",
                    "function": {"name": "read_file", "arguments": json.dumps({"path": path})},
                }
            ],
        },
        {"role": "tool", "tool_call_id": call_id, "content": content},
    ]


# Each session: (user message, tool messages to append before it or None). The assistant's own
# answers are appended as they come, so each request resends the whole conversation.
SESSIONS: dict[str, list[tuple[str, list[dict[str, Any]] | None]]] = {
    "edit": [
        (
            f"Here is geometry.py:\n\n```python\n{GEOMETRY}```\n\nRename the function foo to "
            "path_length in this file and give the whole file back.",
            None,
        ),
        ("Now add a docstring to centroid saying it returns the mean point. Give the whole file back.", None),
        ("shapes.py uses the old name; read it.", _tool_turn("call_1", "shapes.py", SHAPES)),
        ("In shapes.py, replace foo with path_length (import and call). Give the whole file back.", None),
        ("In shapes.py, rename the method grown to scaled. Give the whole file back.", None),
    ],
    "check": [
        (
            f"Here is inventory.py:\n\n```python\n{INVENTORY}```\n\nRename the method take to remove "
            "in this file and give the whole file back.",
            None,
        ),
        ("Now make total return 0 when there are no items, explicitly. Give the whole file back.", None),
        ("report.py uses the inventory; read it.", _tool_turn("call_1", "report.py", REPORT)),
        ("In report.py, rename summary to render_summary. Give the whole file back.", None),
        (
            "In report.py, change the separator line to use ' = ' instead of ': '. Give the whole file back.",
            None,
        ),
    ],
}

UNRELATED = [{"role": "user", "content": "Name three rivers in Europe, one per line."}]


def serve(model: Path, spec: list[str], threads: int, ctx: int) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "TANDEM_API_KEY": KEY}
    args = ["--model-path", str(model), "--port", "0", "--threads", str(threads), "--ctx", str(ctx)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "serve", *args, *spec],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    seen = []
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        seen.append(line)
        m = re.search(r"at (http://127\.0\.0\.1:\d+/v1)", line)
        if m:
            threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
            return proc, m.group(1)
    proc.kill()
    proc.wait()
    raise SystemExit("tandem serve did not start:\n" + "".join(seen))


def stop(proc: subprocess.Popen[str]) -> str:
    t0 = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return "did NOT exit within 60 s of SIGTERM (killed)"
    return f"exit {proc.returncode} {time.monotonic() - t0:.1f} s after SIGTERM"


def stream(
    client: openai.OpenAI, messages: list[dict[str, Any]], max_tokens: int, drop_after: int | None = None
) -> dict[str, Any]:
    """One streamed request: text, TTFT, the final ``tandem`` figures and wall times."""
    t_send = time.monotonic()
    out: dict[str, Any] = {"t_send": t_send, "text": "", "ttft": None, "tandem": None, "usage": None}
    s = client.chat.completions.create(
        model="local",
        messages=messages,
        max_tokens=max_tokens,
        temperature=0,
        stream=True,
        stream_options={"include_usage": True},
    )
    chunks = 0
    for chunk in s:
        extra = chunk.model_extra or {}
        if extra.get("tandem"):
            out["tandem"] = extra["tandem"]
        if chunk.usage:
            out["usage"] = chunk.usage
        for c in chunk.choices:
            if c.delta and c.delta.content:
                if out["ttft"] is None:
                    out["ttft"] = time.monotonic() - t_send
                    out["t_first"] = time.monotonic()
                out["text"] += c.delta.content
                chunks += 1
        if drop_after is not None and chunks >= drop_after:
            s.close()
            out["dropped"] = True
            break
    out["t_end"] = time.monotonic()
    return out


def figures(r: dict[str, Any]) -> tuple[float, int, int, int]:
    t = r["tandem"] or {}
    sd = t.get("speculative_decoding") or {}
    tps = (t.get("timings") or {}).get("decode_tokens_per_second") or 0.0
    n = r["usage"].completion_tokens if r["usage"] else 0
    return float(tps), int(sd.get("drafted") or 0), int(sd.get("accepted") or 0), n


def run_session(client: openai.OpenAI, name: str, max_tokens: int) -> tuple[list, list]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM}]
    results = []
    for user, tool in SESSIONS[name]:
        messages.append({"role": "user", "content": user})
        if tool:
            messages.extend(tool)
            messages.append({"role": "user", "content": "Here it is; say OK and wait."})
        r = stream(client, messages, max_tokens)
        r["prompt_tokens"] = r["usage"].prompt_tokens if r["usage"] else 0
        results.append(r)
        messages.append({"role": "assistant", "content": r["text"]})
    return results, messages


def long_session(stem: str) -> tuple[list[dict[str, Any]], str]:
    """A ~2k-token shared prefix: three files in the first message and a tool result with a real
    module of this repository (app/core/assets.py); returns the first request and the follow-up."""
    module = Path(assets.__file__).read_text()
    msgs: list[dict[str, Any]] = [
        {"role": "system", "content": SYSTEM},
        {
            "role": "user",
            "content": f"geometry.py:\n```python\n{GEOMETRY}```\nshapes.py:\n```python\n"
            f"{SHAPES}```\ninventory.py:\n```python\n{INVENTORY}```\nAlso read app/core/assets.py.",
        },
        *_tool_turn("call_1", "app/core/assets.py", module),
        {"role": "user", "content": stem},
    ]
    return msgs, "Now rename foo to path_length in geometry.py and give the whole file back."


def concurrency(client: openai.OpenAI, max_tokens: int) -> list[str]:
    lines = []
    msgs = [
        [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": f"```python\n{GEOMETRY}```\nRename foo to path_length; whole file."},
        ],
        [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": f"```python\n{INVENTORY}```\nRename take to remove; whole file."},
        ],
    ]
    res: dict[int, Any] = {}

    def worker(i: int) -> None:
        try:
            res[i] = stream(client, msgs[i], max_tokens)
        except Exception as e:  # reported in the table
            res[i] = e

    t0 = time.monotonic()
    ths = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
    for th in ths:
        th.start()
        time.sleep(0.05)
    for th in ths:
        th.join()
    lines.append("| client | sent (s) | first token (s) | end (s) | tokens | answered |")
    lines.append("|---|---|---|---|---|---|")
    for i in range(2):
        r = res[i]
        if isinstance(r, Exception):
            lines.append(f"| {i + 1} | - | - | - | - | error: {type(r).__name__}: {r} |")
            continue
        first = r.get("t_first", float("nan")) - t0
        n = r["usage"].completion_tokens if r["usage"] else 0
        lines.append(
            f"| {i + 1} | {r['t_send'] - t0:.2f} | {first:.2f} | {r['t_end'] - t0:.2f} | {n} "
            f"| {'yes' if r['text'] else 'EMPTY'} |"
        )

    # a client that drops mid-stream, then the next request
    probe = [{"role": "user", "content": "Name three rivers in Europe, one per line."}]
    idle = [stream(client, probe, 8)["ttft"] for _ in range(2)]
    long = [{"role": "user", "content": "Count from 1 to 300, one number per line."}]
    d = stream(client, long, 400, drop_after=10)
    t_drop = time.monotonic()
    nxt = stream(client, probe, 8)
    lines.append("")
    lines.append(
        f"- Dropped client: closed its stream after {10} content chunks "
        f"({d['t_end'] - d['t_send']:.2f} s in); the next request's first token came "
        f"{nxt['t_first'] - t_drop:.3f} s after the drop (TTFT {nxt['ttft']:.3f} s; the same "
        f"request on an idle server: {min(idle):.3f} s)."
    )
    return lines


def difference(a: str, b: str) -> str:
    """Where two answers part, for the report (empty when they are the same)."""
    if a == b:
        return ""
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return f" (first difference at character {i} of {len(a)}: {a[i : i + 24]!r} vs {b[i : i + 24]!r})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model-path", default=None, help="default: the embedded SmolLM2-135M F32")
    ap.add_argument("--methods", default="off,ngram-mod", help="off, auto or an --spec-method")
    ap.add_argument("--max-tokens", type=int, default=160)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--ctx", type=int, default=4096)
    ap.add_argument(
        "--drafter",
        default=None,
        help="a drafter GGUF for auto (its candidates) and drafter methods (draft, draft+ngram-mod); "
        "'embedded' is the embedded SmolLM2 Q4_1",
    )
    a = ap.parse_args()
    # Auto stores what it measures: in a temporary home, never the user's
    os.environ.setdefault("TANDEM_HOME", tempfile.mkdtemp(prefix="tandem-bench-agent-"))
    drafter = str(assets.smollm2_q4_path()) if a.drafter == "embedded" else a.drafter
    model = (
        Path(a.model_path)
        if a.model_path
        else assets.resolve("embedded://smollm2/SmolLM2-135M-Instruct.F32.gguf")
    )
    methods = a.methods.split(",")
    with_drafter = ["--draft-model-path", drafter] if drafter else []
    spec_args = {"off": ["--spec", "off"], "auto": ["--spec", "auto", *with_drafter]}
    for m in methods:
        if drafter_part(m) is not None:
            spec_args[m] = ["--spec", "on", "--spec-method", m, *with_drafter]
    runs: dict[str, dict[str, Any]] = {}
    for i, m in enumerate(methods):
        proc, url = serve(model, spec_args.get(m, ["--spec", "on", "--spec-method", m]), a.threads, a.ctx)
        client = openai.OpenAI(base_url=url, api_key=KEY, timeout=600, max_retries=0)
        run: dict[str, Any] = {}
        try:
            for name in SESSIONS:
                # cold on a fresh server: the session's last request before anything else
                # (first session only; the later one is evicted by an unrelated prompt instead)
                turns, _ = (None, None)
                if name == "edit":
                    stream(client, UNRELATED, 4)  # warm-up: first-request one-time costs
                turns, msgs = run_session(client, name, a.max_tokens)
                last = msgs[:-1]  # the last request exactly as sent
                stream(client, UNRELATED, 16)  # evict the slot's prefix
                cold = stream(client, last, a.max_tokens)
                run[name] = {"turns": turns, "cold": cold}
            if i == 0:
                run["conc"] = concurrency(client, a.max_tokens)
        finally:
            run["stop"] = stop(proc)
        # the same last request as the very first on a fresh server
        proc, url = serve(model, spec_args.get(m, ["--spec", "on", "--spec-method", m]), a.threads, a.ctx)
        client = openai.OpenAI(base_url=url, api_key=KEY, timeout=600, max_retries=0)
        try:
            last = [{"role": "system", "content": SYSTEM}]
            for t, (user, tool) in zip(run["edit"]["turns"], SESSIONS["edit"], strict=True):
                last.append({"role": "user", "content": user})
                if tool:
                    last.extend(tool)
                    last.append({"role": "user", "content": "Here it is; say OK and wait."})
                last.append({"role": "assistant", "content": t["text"]})
            stream(client, UNRELATED, 4)  # warm-up: first-request one-time costs
            run["fresh"] = stream(client, last[:-1], a.max_tokens)
            first, follow = long_session("What does resolve() in assets.py do? Two sentences.")
            cold_b = stream(
                client,
                [
                    *first,
                    {"role": "assistant", "content": "It maps an embedded:// path to a local file."},
                    {"role": "user", "content": follow},
                ],
                a.max_tokens,
            )
            ra = stream(client, first, 48)
            rb = stream(
                client,
                [*first, {"role": "assistant", "content": ra["text"]}, {"role": "user", "content": follow}],
                a.max_tokens,
            )
            run["long"] = (ra, rb, cold_b)
        finally:
            stop(proc)
        runs[m] = run

    base = methods[0]
    print(f"model {model.name}, threads {a.threads}, ctx {a.ctx}, max_tokens {a.max_tokens}\n")
    for name in SESSIONS:
        print(f"### session `{name}`\n")
        head = "| turn | prompt tok |"
        sep = "|---|---|"
        for m in methods:
            head += f" {m} TTFT s | {m} tok/s | {m} out tok |"
            sep += "---|---|---|"
            if m != "off":
                head += f" {m} drafted/accepted | {m} vs {base} |"
                sep += "---|---|"
        print(head)
        print(sep)
        for k in range(len(SESSIONS[name])):
            row = f"| {k + 1} | {runs[base][name]['turns'][k]['prompt_tokens']} |"
            b_tps = figures(runs[base][name]["turns"][k])[0]
            for m in methods:
                r = runs[m][name]["turns"][k]
                tps, dr, ac, n = figures(r)
                row += f" {r['ttft']:.2f} | {tps:.1f} | {n} |"
                if m != "off":
                    row += f" {ac}/{dr} | {tps / b_tps:.2f}x |" if b_tps else " - | - |"
            print(row)
        for m in methods:
            t = runs[m][name]["turns"]
            same = all(t[k]["text"] == runs[base][name]["turns"][k]["text"] for k in range(len(t)))
            later = [figures(x)[0] for x in t[1:]]
            blater = [figures(x)[0] for x in runs[base][name]["turns"][1:]]
            ratio = sum(later) / sum(blater) if sum(blater) else 0
            cold = runs[m][name]["cold"]
            print(
                f"\n- {m}: turns 2+ mean decode {sum(later) / len(later):.1f} tok/s "
                f"({ratio:.2f}x {base}); text identical to {base}: {same}; "
                f"last turn warm TTFT {t[-1]['ttft']:.3f} s vs the same request replayed after an "
                f"unrelated prompt {cold['ttft']:.3f} s ({t[-1]['ttft'] / cold['ttft']:.0%})"
                + (
                    f", vs cold (fresh server, after a short warm-up) {runs[m]['fresh']['ttft']:.3f} s "
                    f"({t[-1]['ttft'] / runs[m]['fresh']['ttft']:.0%})"
                    if name == "edit"
                    else ""
                )
                + f"; cold answer identical to warm: {cold['text'] == t[-1]['text']}"
                + difference(t[-1]["text"], cold["text"])
            )
        print()
    print("### ~2k-token shared prefix: warm follow-up vs cold prefill (fresh server)\n")
    print(
        "| setting | opening prompt tok | opening TTFT s (prefix cached by the cold one) "
        "| follow-up prompt tok | warm follow-up "
        "TTFT s | cold prompt tok | cold TTFT s | warm/cold |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for m in methods:
        ra, rb, cb = runs[m]["long"]
        print(
            f"| {m} | {ra['usage'].prompt_tokens} | {ra['ttft']:.3f} | {rb['usage'].prompt_tokens} "
            f"| {rb['ttft']:.3f} | {cb['usage'].prompt_tokens} | {cb['ttft']:.3f} "
            f"| {rb['ttft'] / cb['ttft']:.0%} |"
        )
    print()
    print("### two clients, then a dropped client\n")
    print("\n".join(runs[base]["conc"]))
    print()
    for m in methods:
        print(f"- server `{m}` stop: {runs[m]['stop']}")


if __name__ == "__main__":
    main()
