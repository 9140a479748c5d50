"""`tandem serve` against the bare llama.cpp server it runs on: what Tandem's serving layers cost.

    python benchmarks/bench_serve_vs_bare.py [--rounds 5] [--max-tokens 128] [--two-servers]
        [--serve-threads same|auto]

One llama.cpp child (xllamacpp's llama-server, the build Tandem ships) loaded with the embedded
pair as ``tandem serve --spec on`` loads it: SmolLM2-135M-Instruct F32 target, its Q4_1 as the
classic drafter at 8 per round, 4 slots. The same child is asked in turn

* **bare**: on its own loopback listener (``/v1/chat/completions`` with the child's key), the way
  a client of a plain llama-server asks it;
* **serve**: through an in-process ``LocalServer`` over the pool whose base is that child (the
  schema check, shaping, admission, the pool, the pump, Tandem's figures), as `tandem serve`
  answers.

Same child, same slots, same weights and cache: only the path in front of it differs.

``--two-servers``: two servers instead, as a user would compare them. **bare** is a llama.cpp child
of its own (the same build, the same pair and settings, the machine's math cores), and **serve** a
real ``tandem serve`` process (``--model-path``, ``--draft-model-path``, draft 8, 4 at once) with
its own child at the same thread count (``--serve-threads auto``: its own choice, which sees the
bare server's turns as a busy core and may take fewer threads). Both are loaded for the whole run
and asked in turn. The bodies are the same OpenAI chat completions (greedy, ``max_tokens``), not
streamed; one client at a time, then four at once (four different prose prompts); the two paths
alternate round by round and which goes first alternates too. Aggregate completion tokens per
second of wall time (sum of the answers' tokens over the time until the last one came); medians,
and each round's ratio.

Markdown on stdout for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from dataclasses import replace

import httpx

from app.core import assets
from app.core.engines.base import LoadRequest
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.pool.pool import EnginePool
from app.core.pool.pool_types import PoolConfig, standard_configurations
from app.core.serving import LocalServer, ServerConfig
from app.core.serving.model import served_model
from app.core.speculative import SpeculationOptions

KEY = "bench-serve"
PROMPTS = [
    "Write a short story about a lighthouse keeper who finds a message in a bottle.",
    "Explain how rainbows form, for a curious ten-year-old.",
    "List five everyday uses of copper and say why copper suits each one.",
    "Describe a spring morning in a small mountain village.",
]


async def ask(client: httpx.AsyncClient, url: str, key: str, prompt: str, n: int) -> tuple[int, str]:
    body = {"messages": [{"role": "user", "content": prompt}], "max_tokens": n, "temperature": 0}
    r = await client.post(url, json=body, headers={"Authorization": f"Bearer {key}"})
    r.raise_for_status()
    data = r.json()
    return int(data["usage"]["completion_tokens"]), str(data["choices"][0]["message"]["content"])


#: this process's CPU seconds per path (the client's share is the same on both paths)
CPU: dict[str, list[float]] = {}


async def batch(
    client: httpx.AsyncClient, url: str, key: str, prompts: list[str], n: int
) -> tuple[float, int, list[str]]:
    t, c = time.perf_counter(), time.process_time()
    got = await asyncio.gather(*[ask(client, url, key, p, n) for p in prompts])
    tokens = sum(g[0] for g in got)
    CPU.setdefault(url, []).append((time.process_time() - c) / max(1, tokens) * 1000)
    return time.perf_counter() - t, tokens, [g[1] for g in got]


async def run(args: argparse.Namespace, paths: dict[str, tuple[str, str]]) -> None:
    async with httpx.AsyncClient(timeout=600) as client:
        for url, key in paths.values():  # both paths warm (the child's cache, the server's imports)
            await batch(client, url, key, PROMPTS, 16)
        print("| clients | bare tok/s | serve tok/s | serve / bare (median) | per round |")
        print("|---|---:|---:|---:|---|")
        for clients in (1, 4):
            speeds: dict[str, list[float]] = {name: [] for name in paths}
            texts: dict[str, list[str]] = {}
            for r in range(args.rounds):
                order = list(paths) if r % 2 == 0 else list(reversed(paths))
                for name in order:
                    url, key = paths[name]
                    if clients == 1:
                        dt, tokens = 0.0, 0
                        out: list[str] = []
                        for p in PROMPTS:
                            d, t, o = await batch(client, url, key, [p], args.max_tokens)
                            dt, tokens = dt + d, tokens + t
                            out += o
                    else:
                        dt, tokens, out = await batch(client, url, key, PROMPTS, args.max_tokens)
                    speeds[name].append(tokens / dt)
                    texts.setdefault(name, out)
            ratios = [s / b for s, b in zip(speeds["serve"], speeds["bare"], strict=True)]
            same = "same text" if texts["serve"] == texts["bare"] else "TEXT DIFFERS"
            print(
                f"| {clients} | {statistics.median(speeds['bare']):.1f} | "
                f"{statistics.median(speeds['serve']):.1f} | {statistics.median(ratios):.2f} | "
                f"{', '.join(f'{x:.2f}' for x in ratios)} ({same}) |"
            )
        print("\nThis process's CPU time per answer token (ms; the client is the same on both paths):")
        for name, (url, _) in paths.items():
            print(f"- {name}: {statistics.median(CPU[url]):.2f} ms")


def two_servers(args: argparse.Namespace, target: str, drafter: str, request: LoadRequest) -> None:
    """Bare: a llama.cpp child of its own; serve: a real ``tandem serve`` process beside it."""
    import os
    import socket
    import subprocess
    import sys

    from app.core.engines.threads import machine_layout, math_cores

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "TANDEM_API_KEY": KEY}
    n_threads = math_cores(machine_layout())
    cmd = [sys.executable, "-m", "app", "serve", "--model-path", target, "--draft-model-path", drafter,
           "--draft-tokens", "8", "--ctx", "4096", "--parallel", "4", "--port", str(port)]  # fmt: skip
    if args.serve_threads == "same":
        cmd += ["--threads", str(n_threads)]
    serve = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    bare = LlamaCppEngine.load(replace(request, n_threads=n_threads))
    try:
        url = f"http://127.0.0.1:{port}/v1"
        deadline = time.monotonic() + 300
        while True:
            try:
                if httpx.get(f"{url}/models", headers={"Authorization": f"Bearer {KEY}"}).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if serve.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"tandem serve did not start: {serve.stderr.read() if serve.stderr else ''}")
            time.sleep(0.5)
        choice = f"{n_threads} threads" if args.serve_threads == "same" else "its own thread choice"
        print(f"two servers; bare child {bare.n_threads} threads; tandem serve {choice}\n")
        paths = {
            "bare": (bare.listening_address + "/v1/chat/completions", bare._api_key),
            "serve": (f"{url}/chat/completions", KEY),
        }
        asyncio.run(run(args, paths))
        listed = httpx.get(f"{url}/models", headers={"Authorization": f"Bearer {KEY}"}).json()
        threads = [m.get("tandem", {}).get("threads") for m in listed.get("data", [])]
        print(f"- tandem serve's children at the end, threads by configuration: {threads}")
    finally:
        serve.terminate()
        try:
            serve.wait(30)
        except subprocess.TimeoutExpired:
            serve.kill()
        bare.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--max-tokens", type=int, default=128)
    ap.add_argument("--two-servers", action="store_true", help="a real tandem serve beside a bare child")
    ap.add_argument(
        "--serve-threads",
        choices=("same", "auto"),
        default="same",
        help="with --two-servers: tandem serve at the bare child's thread count, or its own choice "
        "(which counts the bare child's work as a busy core)",
    )
    args = ap.parse_args()
    drafter = str(assets.smollm2_q4_path())
    target = str(assets.resolve("embedded://smollm2/SmolLM2-135M-Instruct.F32.gguf"))
    spec = SpeculationOptions(
        enabled=True, method="draft", draft_model_path=drafter, num_speculative_tokens=8
    )
    request = LoadRequest(target, spec, n_ctx=4096, n_parallel=4)
    if args.two_servers:
        two_servers(args, target, drafter, request)
        return
    engine = LlamaCppEngine.load(request)
    pool = EnginePool(engine, request, LlamaCppEngine.load, standard_configurations(("draft", drafter)),
                      PoolConfig(slots=4))  # fmt: skip
    model = replace(served_model(engine, target), pool=pool)
    server = LocalServer(model, ServerConfig(KEY, port=0, parallel=4, max_waiting=16))
    server.start()
    try:
        paths = {
            "bare": (engine.listening_address + "/v1/chat/completions", engine._api_key),
            "serve": (f"{server.address}/chat/completions", KEY),
        }
        asyncio.run(run(args, paths))
    finally:
        server.stop()
        pool.close()
        engine.close()


if __name__ == "__main__":
    main()
