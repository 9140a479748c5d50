"""Many models behind one ``tandem serve --models-dir``: what loading costs a request, what two
loaded models take against the memory budget, and two models answering at once.

    python benchmarks/bench_model_set.py [--rounds 5] [--max-tokens 128] [--memory 1.6] [--rest 40]
        [--part first,memory,two]

One ``tandem serve --models-dir DIR --models-memory 1.6`` process (speculation off, its defaults
otherwise) over a temporary folder of links to three GGUFs: the embedded SmolLM2-135M-Instruct
Q4_1, the same model in F32, and gemma-3-270m Q4_K_M. Its estimates (``tandem.memory_bytes`` in
``GET /v1/models``) are about 0.5, 0.95 and 0.6 GiB: any two fit in 1.6 GiB, the three do not. A
temporary ``TANDEM_HOME`` of its own (thread leases, logs); the files are read from the page cache
after the first load, so a "cold" request pays the load, not the disk.

1. **first**: the time to the first content chunk of a streamed chat completion (greedy, 8 tokens),
   for each model, cold (nothing loaded: ``POST /models/unload {"all": true}`` first, so the request
   loads its model and evicts nothing) against warm (the same request again, the model loaded).
   Even rounds ask cold then warm; odd rounds load the model and ask once untimed, then warm, unload,
   cold; the models' order alternates too. Medians, and the median of each pair's difference (what
   the load adds) and ratio.
2. **memory**: each pair of models loaded (``POST /models/load``, then one short answer each so
   their buffers are touched, then until the children stay the same for 3 s); each model's
   estimate, ``tandem.memory_loaded_bytes`` and ``tandem.memory_budget_bytes`` against the resident
   memory (RSS) of its llama.cpp child: the server's child processes (recursively, by psutil), each
   one the model's whose GGUF it maps; with the part of the RSS that is the mapped file (pages of
   the OS's file cache). Then the third model is asked for: one of the two makes room.
3. **two**: SmolLM2 Q4_1 (A) and gemma-3-270m (B), both loaded; the same prompt (one per round)
   answered by A then B ("sequential") and by A and B at the same time from two threads
   ("concurrent"); greedy, ``--max-tokens``, not streamed. Aggregate completion tokens per second
   of wall time; the order alternates round by round; medians and each round's ratio. Measured
   twice: right after both loads (once the children stay the same for 3 s: a load makes the other
   model at rest take its share of the cores), and after the server rested ``--rest`` seconds (a
   model's pool chooses its children's threads again once it has rested about 30 s). The threads
   each child computes with (``tandem.threads`` of ``GET /v1/models``) are read before and after
   every measurement. Each model's own tokens/s (its tokens over its own answer's time) too.

Parts 1 and 3 also say how many cores other programs kept busy meanwhile (the machine's busy CPU
time less this benchmark's and its server's): this 2-core machine is shared. Markdown on stdout for
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serving import start_serve

from app.core import assets
from app.devtools.assets import ASSET_DIR

KEY = "bench-model-set"
HEADERS = {"Authorization": f"Bearer {KEY}"}
Q4, F32, GEMMA = "SmolLM2-135M-Instruct.Q4_1", "SmolLM2-135M-Instruct.F32", "gemma-3-270m-Q4_K_M"
SHORT = {Q4: "SmolLM2 Q4_1", F32: "SmolLM2 F32", GEMMA: "gemma-3-270m Q4_K_M"}
FIRST_PROMPT = "Name three colours of the rainbow."
PROMPTS = [
    "Write a short story about a lighthouse keeper who finds a message in a bottle.",
    "Explain how rainbows form, for a curious ten-year-old.",
    "List five everyday uses of copper and say why copper suits each one.",
    "Describe a spring morning in a small mountain village.",
]
GIB = 1024**3


def model_files() -> list[Path]:
    """The three GGUFs: the embedded Q4_1, and the F32 and gemma files the tests keep."""
    files = [
        assets.smollm2_q4_path(),
        ASSET_DIR / "SmolLM2-135M-Instruct.F32.gguf",
        ASSET_DIR / "gemma-3-270m-Q4_K_M.gguf",
    ]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise SystemExit(
            f"missing {', '.join(missing)}: the integration tests fetch them (pytest tests/integration)"
        )
    return files


class Server:
    """The ``tandem serve --models-dir`` process and its HTTP API."""

    def __init__(self, proc: subprocess.Popen[str], chat_url: str, files: dict[str, str]) -> None:
        self.proc = proc
        #: each model's GGUF, as its children map it
        self.files = files
        self.v1 = chat_url.removesuffix("/chat/completions")
        self.root = self.v1.removesuffix("/v1")
        self.http = httpx.Client(timeout=600, headers=HEADERS)

    def listing(self) -> dict[str, Any]:
        r = self.http.get(f"{self.v1}/models")
        r.raise_for_status()
        return dict(r.json())

    def statuses(self) -> dict[str, str]:
        return {m["id"]: m["status"]["value"] for m in self.listing()["data"]}

    def threads(self) -> str:
        """Each loaded model's threads by configuration, as ``GET /v1/models`` says them."""
        out = []
        for m in self.listing()["data"]:
            if m["status"]["value"] == "loaded":
                counts = m["tandem"].get("threads") or {}
                out.append(f"{SHORT[m['id']]} " + ",".join(f"{k}:{n}" for k, n in counts.items()))
        return "; ".join(out)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        r = self.http.post(f"{self.root}{path}", json=body)
        if r.status_code != 200:
            raise SystemExit(f"POST {path} {body}: {r.status_code} {r.text}")
        return dict(r.json())

    def load(self, model: str) -> None:
        self.post("/models/load", {"model": model})

    def unload_all(self) -> None:
        self.post("/models/unload", {"all": True})
        deadline = time.monotonic() + 60  # the children have exited
        while self.children() and time.monotonic() < deadline:
            time.sleep(0.2)

    def children(self) -> list[psutil.Process]:
        """The server's child processes (its llama.cpp hosts), recursively."""
        try:
            return [p for p in psutil.Process(self.proc.pid).children(recursive=True) if p.is_running()]
        except psutil.NoSuchProcess:
            return []

    def settle(self, quiet_s: float = 3.0) -> None:
        """Wait until the children and their threads stay the same for ``quiet_s`` (after a load
        or an unload the other models at rest start their children again with the threads the
        free cores give them)."""
        deadline = time.monotonic() + 60
        last: object = None
        since = time.monotonic()
        while time.monotonic() < deadline:
            now = (frozenset(p.pid for p in self.children()), self.threads())
            if now != last:
                last, since = now, time.monotonic()
            elif time.monotonic() - since >= quiet_s:
                return
            time.sleep(0.3)

    def resident(self) -> dict[str, tuple[int, int, int]]:
        """Each model's ``(RSS, RSS of its mapped GGUF, processes)``: the children that map the
        model's file are its own."""
        out: dict[str, tuple[int, int, int]] = {}
        for p in self.children():
            with contextlib.suppress(psutil.Error):
                maps = {m.path: m.rss for m in p.memory_maps(grouped=True)}
                for model, path in self.files.items():
                    if path in maps:
                        rss, mapped, n = out.get(model, (0, 0, 0))
                        out[model] = (rss + p.memory_info().rss, mapped + maps[path], n + 1)
        return out

    def cpu_mark(self) -> tuple[float, float, float]:
        """``(wall, busy, ours)`` seconds now: the machine's busy CPU time, and the part of it that
        is this benchmark's and its server's (the server's exited children included)."""
        t = psutil.cpu_times()
        ours = sum(psutil.Process().cpu_times()[:2])
        try:
            server = psutil.Process(self.proc.pid).cpu_times()
            ours += server.user + server.system + server.children_user + server.children_system
        except psutil.NoSuchProcess:
            pass
        for p in self.children():
            with contextlib.suppress(psutil.NoSuchProcess):
                ours += sum(p.cpu_times()[:2])
        return time.monotonic(), t.user + t.nice + t.system + t.irq + t.softirq + t.steal, ours

    def others_since(self, mark: tuple[float, float, float]) -> float:
        """The cores other programs kept busy on average since ``mark``."""
        now = self.cpu_mark()
        return max(0.0, ((now[1] - mark[1]) - (now[2] - mark[2])) / max(1e-9, now[0] - mark[0]))

    def answer(self, model: str, prompt: str, max_tokens: int) -> tuple[int, str]:
        body = {
            "model": model,
            "messages": [{"role": "user", "content": prompt}],
            "max_tokens": max_tokens,
            "temperature": 0,
        }
        r = self.http.post(f"{self.v1}/chat/completions", json=body)
        if r.status_code != 200:
            raise SystemExit(f"{model}: {r.status_code} {r.text}")
        data = r.json()
        return int(data["usage"]["completion_tokens"]), str(data["choices"][0]["message"]["content"])

    def first_token(self, model: str, prompt: str, max_tokens: int = 8) -> float:
        """Seconds from sending a streamed request to its first content chunk."""
        body = {
            "model": model,
            "stream": True,
            "messages": [{"role": "user", "content": prompt}],
            "max_tokens": max_tokens,
            "temperature": 0,
        }
        first = None
        t = time.perf_counter()
        with self.http.stream("POST", f"{self.v1}/chat/completions", json=body) as r:
            if r.status_code != 200:
                raise SystemExit(f"{model}: {r.status_code} {r.read().decode()}")
            for line in r.iter_lines():
                if not line.startswith("data: ") or line == "data: [DONE]":
                    continue
                chunk = json.loads(line[6:])
                if "error" in chunk:
                    raise SystemExit(f"{model}: {chunk['error']}")
                content = "".join(
                    (c.get("delta") or {}).get("content") or "" for c in chunk.get("choices", [])
                )
                if content and first is None:
                    first = time.perf_counter() - t
        if first is None:
            raise SystemExit(f"{model}: the stream had no content")
        return first


def part_first(server: Server, rounds: int) -> None:
    models = [Q4, F32, GEMMA]
    cold: dict[str, list[float]] = {m: [] for m in models}
    warm: dict[str, list[float]] = {m: [] for m in models}
    mark = server.cpu_mark()
    for r in range(rounds):
        for model in models if r % 2 == 0 else list(reversed(models)):
            server.unload_all()
            if r % 2 == 0:
                cold[model].append(server.first_token(model, FIRST_PROMPT))
                warm[model].append(server.first_token(model, FIRST_PROMPT))
            else:
                server.load(model)
                server.first_token(model, FIRST_PROMPT)  # the request the warm one repeats
                warm[model].append(server.first_token(model, FIRST_PROMPT))
                server.unload_all()
                cold[model].append(server.first_token(model, FIRST_PROMPT))
    others = server.others_since(mark)
    print("## First token: a request that loads its model, against one whose model is loaded\n")
    print("| model | cold (loads it) s | warm ms | cold - warm s (median of pairs) | cold / warm |", end="")
    print(" cold, per round s |")
    print("|---|---:|---:|---:|---:|---|")
    for m in models:
        diffs = [c - w for c, w in zip(cold[m], warm[m], strict=True)]
        ratios = [c / w for c, w in zip(cold[m], warm[m], strict=True)]
        print(
            f"| {SHORT[m]} | {statistics.median(cold[m]):.2f} | {statistics.median(warm[m]) * 1000:.0f} | "
            f"{statistics.median(diffs):.2f} | {statistics.median(ratios):.0f}x | "
            f"{', '.join(f'{c:.2f}' for c in cold[m])} |"
        )
    print(f"\n- other programs kept {others:.2f} cores busy on average meanwhile\n")


def part_memory(server: Server) -> None:
    pairs = [(Q4, GEMMA), (Q4, F32), (F32, GEMMA)]
    print("## Two loaded models against the memory budget\n")
    print("| loaded | model (context) | estimate MiB | RSS MiB | of it the mapped GGUF | RSS / estimate |")
    print("|---|---|---:|---:|---:|---:|")
    totals = []
    processes: set[int] = set()
    for pair in pairs:
        server.unload_all()
        for model in pair:
            server.load(model)
            server.answer(model, FIRST_PROMPT, 8)  # its buffers are touched
        server.settle()
        listing = server.listing()
        estimate = {m["id"]: int(m["tandem"]["memory_bytes"] or 0) for m in listing["data"]}
        context = {m["id"]: m.get("context_length") for m in listing["data"]}
        resident = server.resident()
        label = " + ".join(SHORT[m] for m in pair)
        for model in pair:
            rss, mapped, n = resident.get(model, (0, 0, 0))
            processes.add(n)
            print(
                f"| {label} | {SHORT[model]} ({context[model]}) | {estimate[model] / 2**20:.0f} | "
                f"{rss / 2**20:.0f} | {mapped / 2**20:.0f} | {rss / max(1, estimate[model]):.2f} |"
            )
        rss_all = sum(p.memory_info().rss for p in server.children() if p.is_running())
        loaded = int(listing["tandem"]["memory_loaded_bytes"])
        budget = int(listing["tandem"]["memory_budget_bytes"])
        totals.append((label, loaded, budget, rss_all))
    print("\n| loaded | memory_loaded_bytes MiB | budget MiB | the children's RSS MiB | RSS / loaded |")
    print("|---|---:|---:|---:|---:|")
    for label, loaded, budget, rss in totals:
        mib = [f"{x / 2**20:.0f}" for x in (loaded, budget, rss)]
        print(f"| {label} | {' | '.join(mib)} | {rss / max(1, loaded):.2f} |")
    # the third model: one of the two loaded makes room
    pair = pairs[-1]
    third = next(m for m in (Q4, F32, GEMMA) if m not in pair)
    server.answer(third, FIRST_PROMPT, 8)
    after = server.statuses()
    gone = [SHORT[m] for m in pair if after[m] == "unloaded"]
    now = ", ".join(SHORT[m] for m, s in after.items() if s == "loaded")
    print(
        f"\n- asking {SHORT[third]} with {' and '.join(SHORT[m] for m in pair)} loaded: unloaded "
        f"{', '.join(gone) or 'nothing'}; loaded now: {now}"
    )
    print(f"- llama.cpp processes per loaded model: {sorted(processes)}")
    own_rss = psutil.Process(server.proc.pid).memory_info().rss
    print(f"- the server process itself (Python): RSS {own_rss / 2**20:.0f} MiB")
    print()


def timed(server: Server, model: str, prompt: str, n: int, t0: float) -> tuple[int, str, float]:
    """``(tokens, text, seconds)``: the model's answer and how long it took from ``t0``."""
    tokens, text = server.answer(model, prompt, n)
    return tokens, text, time.perf_counter() - t0


def sequential(server: Server, prompt: str, n: int) -> tuple[float, list[tuple[int, str, float]]]:
    t = time.perf_counter()
    a = timed(server, Q4, prompt, n, t)
    b = timed(server, GEMMA, prompt, n, time.perf_counter())
    return time.perf_counter() - t, [a, b]


def concurrent(server: Server, prompt: str, n: int) -> tuple[float, list[tuple[int, str, float]]]:
    with ThreadPoolExecutor(2) as pool:
        t = time.perf_counter()
        futures = [pool.submit(timed, server, m, prompt, n, t) for m in (Q4, GEMMA)]
        got = [f.result() for f in futures]
        return time.perf_counter() - t, got


def part_two(server: Server, rounds: int, max_tokens: int, rest: float) -> None:
    server.unload_all()
    server.load(Q4)
    server.load(GEMMA)
    ways = ("sequential", "concurrent")
    print("## Two models answering at once against the same answers one after another\n")
    print(
        "| when | sequential tok/s | concurrent tok/s | concurrent / sequential (median) | per round |",
        end="",
    )
    print(" threads (GET /v1/models) |")
    print("|---|---:|---:|---:|---|---|")
    notes = []
    for phase in ("right after both loads", f"after a {rest:.0f} s rest"):
        if phase.startswith("after"):
            time.sleep(rest)
        server.settle()  # a load restarts the other model's child with its share of the cores
        seen = {server.threads()}
        for m in (Q4, GEMMA):  # both warm (not a measured request)
            server.answer(m, "Say hello.", 8)
        speeds: dict[str, list[float]] = {w: [] for w in ways}
        own: dict[tuple[str, str], list[float]] = {(w, m): [] for w in ways for m in (Q4, GEMMA)}
        texts: dict[str, list[str]] = {w: [] for w in ways}
        mark = server.cpu_mark()
        for r in range(rounds):
            prompt = PROMPTS[r % len(PROMPTS)]
            for way in ways if r % 2 == 0 else tuple(reversed(ways)):
                seen.add(server.threads())
                wall, got = (sequential if way == "sequential" else concurrent)(server, prompt, max_tokens)
                seen.add(server.threads())
                speeds[way].append(sum(g[0] for g in got) / wall)
                for m, (tokens, text, seconds) in zip((Q4, GEMMA), got, strict=True):
                    own[way, m].append(tokens / seconds)
                    texts[way].append(text)
        others = server.others_since(mark)
        ratios = [c / s for c, s in zip(speeds["concurrent"], speeds["sequential"], strict=True)]
        same = "same text" if texts["sequential"] == texts["concurrent"] else "TEXT DIFFERS"
        print(
            f"| {phase} | {statistics.median(speeds['sequential']):.1f} | "
            f"{statistics.median(speeds['concurrent']):.1f} | **{statistics.median(ratios):.2f}x** | "
            f"{', '.join(f'{x:.2f}' for x in ratios)} ({same}) | {' / '.join(sorted(seen))} |"
        )
        each = "; ".join(
            f"{SHORT[m]} {statistics.median(own['sequential', m]):.1f} alone, "
            f"{statistics.median(own['concurrent', m]):.1f} beside the other"
            for m in (Q4, GEMMA)
        )
        notes.append(
            f"- {phase}: each model's own tok/s: {each}; other programs kept {others:.2f} cores busy"
        )
    print("\n" + "\n".join(notes) + "\n")


def stop(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--max-tokens", type=int, default=128)
    ap.add_argument("--memory", type=float, default=1.6, help="--models-memory (GiB): two fit, not three")
    ap.add_argument(
        "--rest", type=float, default=40.0, help="seconds the server rests before part two's second half"
    )
    ap.add_argument("--part", default="first,memory,two")
    args = ap.parse_args()
    parts = set(args.part.split(","))
    with tempfile.TemporaryDirectory(prefix="bench-model-set-") as tmp:
        folder = Path(tmp) / "models"
        folder.mkdir()
        for path in model_files():
            (folder / path.name).symlink_to(path)
        home = Path(tmp) / "home"
        home.mkdir()
        env = {**os.environ, "TANDEM_HOME": str(home), "TANDEM_API_KEY": KEY}
        proc, url = start_serve(["--models-dir", str(folder), "--models-memory", str(args.memory)], env)
        server = Server(proc, url, {p.name.removesuffix(".gguf"): str(p.resolve()) for p in model_files()})
        try:
            when = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
            commit = subprocess.run(
                ["git", "rev-parse", "--short", "HEAD"],
                capture_output=True,
                text=True,
                cwd=Path(__file__).parent,
            ).stdout.strip()
            print(
                f"{when} at {commit or '?'}; CPUs: {os.cpu_count()} logical; rounds {args.rounds}; ", end=""
            )
            print(f"{args.max_tokens} tokens\n")
            listing = server.listing()
            estimates = ", ".join(
                f"{SHORT[m['id']]} {m['tandem']['memory_bytes'] / GIB:.2f} GiB" for m in listing["data"]
            )
            print(
                f"Estimates: {estimates}; budget {listing['tandem']['memory_budget_bytes'] / GIB:.2f} GiB\n"
            )
            if "first" in parts:
                part_first(server, args.rounds)
            if "memory" in parts:
                part_memory(server)
            if "two" in parts:
                part_two(server, args.rounds, args.max_tokens, args.rest)
        finally:
            server.http.close()
            stop(proc)


if __name__ == "__main__":
    main()
