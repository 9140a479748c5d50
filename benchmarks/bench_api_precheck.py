"""What the local server's work before an answer costs: shaping the request and measuring the prompt.

    python benchmarks/bench_api_precheck.py [--model-path GGUF] [--rounds 5] [--max-tokens 64]

One real llama.cpp engine (the embedded SmolLM2-135M-Instruct Q4_1 by default, its trained context),
served twice in one process and driven alternately, round after round: the server as it is, and
the same server with the pre-answer measurement skipped (a server that does not refuse an
overflowing prompt up front). Two prompts: a short chat question, and Claude Code 2.1's recorded
first request (tests/integration/data/clients; 22 tools in Tandem's compact tool prompt, ~4,500
tokens). Per request: time to the first streamed text (TTFT) and decode tokens/s of the streamed
answer, plus the prompt measurement alone (``count_prompt_tokens``, what the check adds). Medians;
ratios are taken side by side in the same run. Markdown on stdout for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import httpx

from app.core import assets
from app.core.engines.base import LoadRequest
from app.core.engines.llamacpp.engine import LlamaCppEngine
from app.core.requests.request import ChatRequest
from app.core.requests.shaping import shape
from app.core.serving import LocalServer, ServedModel, ServerConfig
from app.core.serving import messages_api as M
from app.core.serving.protocol import Limits

ROOT = Path(__file__).resolve().parents[1]
RECORDED = ROOT / "tests" / "integration" / "data" / "clients" / "claude-code-2.1.332-messages.json"
KEY = "bench"


class Unchecked(LocalServer):
    """The server without the pre-answer prompt measurement (everything else the same)."""

    async def _check_context(self, engine: Any, req: ChatRequest) -> None:
        return None


def _stream(root: str, body: dict[str, Any]) -> tuple[float, float]:
    """(seconds to the first text delta, decode tokens/s) of one streamed Messages request."""
    start = time.perf_counter()
    first = None
    last = start
    with httpx.stream("POST", f"{root}/v1/messages", json=body, headers={"x-api-key": KEY}, timeout=600) as r:
        r.raise_for_status()
        tps = 0.0
        for line in r.iter_lines():
            if not line.startswith("data:"):
                continue
            data = json.loads(line[5:])
            if data.get("type") == "content_block_delta" and first is None:
                first = time.perf_counter()
            if data.get("type") == "message_delta":
                tps = data["tandem"]["timings"]["decode_tokens_per_second"] or 0.0
            last = time.perf_counter()
    return ((first or last) - start), tps


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model-path", default=None)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--max-tokens", type=int, default=64)
    args = ap.parse_args()
    path = args.model_path or str(assets.smollm2_q4_path())
    engine = LlamaCppEngine.load(LoadRequest(path, n_ctx=0))
    recorded = json.loads(RECORDED.read_text("utf-8"))["body"]
    prompts = {
        "short question": {"messages": [{"role": "user", "content": "Name three primary colours."}]},
        "Claude Code's first request": recorded,
    }
    model = ServedModel(engine, "m", None)
    servers = {
        "checked": LocalServer(model, ServerConfig(KEY, port=0)),
        "unchecked": Unchecked(model, ServerConfig(KEY, port=0)),
    }
    for s in servers.values():
        s.start()
    rows = []
    try:
        for name, prompt in prompts.items():
            body = {**prompt, "max_tokens": args.max_tokens, "stream": True, "temperature": 0}
            ttft: dict[str, list[float]] = {k: [] for k in servers}
            tps: dict[str, list[float]] = {k: [] for k in servers}
            for s in servers.values():  # warm-up: the prompt's prefix lands in the slot's cache
                _stream(f"http://127.0.0.1:{s.port}", body)
            for _ in range(args.rounds):
                for key, s in servers.items():
                    t, rate = _stream(f"http://127.0.0.1:{s.port}", body)
                    ttft[key].append(t)
                    tps[key].append(rate)
            shaped = httpx.post(
                f"http://127.0.0.1:{servers['checked'].port}/v1/messages/count_tokens",
                json=prompt,
                headers={"x-api-key": KEY},
                timeout=60,
            ).json()["input_tokens"]
            req = M.parse_request({**prompt, "max_tokens": 1}, Limits())
            shape(req, engine.template_caps(), None, True)  # as the server shapes it
            count_ms = []
            for _ in range(args.rounds):
                t0 = time.perf_counter()
                engine.count_prompt_tokens(req.messages, req.tools)
                count_ms.append((time.perf_counter() - t0) * 1000)
            med = {k: (statistics.median(ttft[k]), statistics.median(tps[k])) for k in servers}
            rows.append((name, shaped, med, statistics.median(count_ms)))
    finally:
        for s in servers.values():
            s.stop()
        engine.close()
    print(
        "| prompt | prompt tokens | TTFT checked s | TTFT unchecked s | TTFT ratio | tok/s checked |"
        " tok/s unchecked | tok/s ratio | measurement alone ms |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name, n, med, count in rows:
        (tc, rc), (tu, ru) = med["checked"], med["unchecked"]
        print(f"| {name} | {n} | {tc:.3f} | {tu:.3f} | {tc / tu:.2f}x | {rc:.1f} | {ru:.1f} | "
              f"{rc / ru:.2f}x | {count:.1f} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
