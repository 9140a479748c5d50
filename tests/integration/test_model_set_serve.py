"""``tandem serve --models-dir DIR``: three real GGUFs (the embedded SmolLM2 Q4_1, the same model in
F32, gemma-3-270m) behind one server with room for two, by count and by memory. A request loads its
model and is answered by it; a model that streams is never unloaded for another, the idle one is;
an unknown id is a 404 listing the served ids; idle models unload after their ttl and leave no
llama.cpp child; twelve clients over three models all get their answers."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest

from tests.integration.test_cli_serve import _serve, _stop

KEY = "k"
HEADERS = {"Authorization": f"Bearer {KEY}"}
Q4, F32, GEMMA = "SmolLM2-135M-Instruct.Q4_1", "SmolLM2-135M-Instruct.F32", "gemma-3-270m-Q4_K_M"


@pytest.fixture
def folder(tmp_path: Path, smollm2_q4: Path, smollm2_f32: Path, gemma3_q4: Path) -> Path:
    out = tmp_path / "models"
    out.mkdir()
    for path in (smollm2_q4, smollm2_f32, gemma3_q4):
        (out / path.name).symlink_to(path)
    return out


def _statuses(url: str) -> dict[str, str]:
    data = httpx.get(f"{url}/models", headers=HEADERS, timeout=60).json()["data"]
    return {m["id"]: m["status"]["value"] for m in data}


def _ask(url: str, model: str, max_tokens: int = 8) -> httpx.Response:
    body = {"model": model, "messages": [{"role": "user", "content": "Say hello."}], "max_tokens": max_tokens}
    return httpx.post(f"{url}/chat/completions", json=body, headers=HEADERS, timeout=300)


def _engine_children(pid: int) -> list[psutil.Process]:
    """The llama.cpp children of the server (any process under it but uvicorn's own threads)."""
    return [p for p in psutil.Process(pid).children(recursive=True) if p.is_running()]


def _stream_long(
    url: str, model: str, out: dict[str, Any], started: threading.Event, max_tokens: int = 160
) -> None:
    body = {
        "model": model,
        "stream": True,
        "stream_options": {"include_usage": True},
        "max_tokens": max_tokens,
        "messages": [
            {"role": "user", "content": "Write a long story about a lighthouse keeper and a storm."}
        ],
    }
    pieces: list[str] = []
    finish = None
    done = False
    with httpx.stream("POST", f"{url}/chat/completions", json=body, headers=HEADERS, timeout=300) as r:
        out["status"] = r.status_code
        for line in r.iter_lines():
            if not line.startswith("data: "):
                continue
            if line == "data: [DONE]":
                done = True
                break
            chunk = json.loads(line[6:])
            out.setdefault("model", chunk.get("model"))
            for choice in chunk.get("choices", []):
                pieces.append(choice.get("delta", {}).get("content") or "")
                finish = choice.get("finish_reason") or finish
                if len(pieces) == 3:
                    started.set()
            if chunk.get("usage"):
                out["usage"] = chunk["usage"]
    started.set()
    out.update(text="".join(pieces), finish=finish, done=done)


def _scenario(url: str, pid: int, ttl_s: float) -> None:
    assert _statuses(url) == {Q4: "unloaded", F32: "unloaded", GEMMA: "unloaded"}
    for model in (Q4, GEMMA):
        r = _ask(url, model)
        assert r.status_code == 200, r.text
        assert r.json()["model"] == model
    assert _statuses(url) == {Q4: "loaded", F32: "unloaded", GEMMA: "loaded"}
    assert len(_engine_children(pid)) >= 2  # each loaded model computes in its own child

    # Q4 streams a long answer; F32's request unloads the idle gemma, never Q4
    streamed: dict[str, Any] = {}
    started = threading.Event()
    streamer = threading.Thread(target=_stream_long, args=(url, Q4, streamed, started))
    streamer.start()
    try:
        assert started.wait(120)
        r = _ask(url, F32)
        assert r.status_code == 200 and r.json()["model"] == F32, r.text
        during = _statuses(url)
    finally:
        streamer.join(300)
    assert during == {Q4: "loaded", F32: "loaded", GEMMA: "unloaded"}
    assert streamed["status"] == 200 and streamed["done"] and streamed["model"] == Q4
    assert streamed["finish"] in ("stop", "length") and streamed["usage"]["completion_tokens"] > 3

    missing = _ask(url, "gpt-4o")
    assert missing.status_code == 404
    error = missing.json()["error"]
    assert error["code"] == "model_not_found" and Q4 in error["message"] and GEMMA in error["message"]

    # after the idle time nothing is loaded and no llama.cpp child is left
    deadline = time.monotonic() + ttl_s + 60
    while time.monotonic() < deadline and set(_statuses(url).values()) != {"unloaded"}:
        time.sleep(0.5)
    assert set(_statuses(url).values()) == {"unloaded"}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and _engine_children(pid):
        time.sleep(0.5)
    assert _engine_children(pid) == []

    # the next request loads its model again; a stream starts at once and its answer follows the load
    again: dict[str, Any] = {}
    _stream_long(url, GEMMA, again, threading.Event(), max_tokens=12)
    assert again["status"] == 200 and again["done"] and again["model"] == GEMMA
    assert again["usage"]["completion_tokens"] > 0


def test_three_models_with_room_for_two_by_count(folder: Path) -> None:
    env = {**os.environ, "TANDEM_API_KEY": KEY}
    args = ["--models-dir", str(folder), "--models-max", "2", "--models-ttl", "20", "--port", "0"]
    proc, url = _serve(args, env)
    try:
        _scenario(url, proc.pid, 20)

        # twelve clients at once over three models, room for two: loads queue, all are answered
        with ThreadPoolExecutor(12) as pool:
            answers = list(pool.map(lambda i: _ask(url, (Q4, F32, GEMMA)[i % 3], 6), range(12)))
        assert [a.status_code for a in answers] == [200] * 12, [
            a.text for a in answers if a.status_code != 200
        ]
        assert [a.json()["model"] for a in answers] == [(Q4, F32, GEMMA)[i % 3] for i in range(12)]
    finally:
        _out, err = _stop(proc, signal.SIGINT)
    assert proc.returncode == 0, err
    assert f"{GEMMA}: unloaded (room for {F32})" in err and "unloaded (idle)" in err


def test_three_models_with_a_memory_budget_that_holds_two(folder: Path) -> None:
    env = {**os.environ, "TANDEM_API_KEY": KEY}
    # the estimates: about 0.5 GiB (Q4_1), 0.6 GiB (gemma), 0.9 GiB (F32): any two fit in 1.6 GiB
    args = ["--models-dir", str(folder), "--models-memory", "1.6", "--models-ttl", "20", "--port", "0"]
    proc, url = _serve(args, env)
    try:
        listing = httpx.get(f"{url}/models", headers=HEADERS, timeout=60).json()
        sizes = {m["id"]: m["tandem"]["memory_bytes"] for m in listing["data"]}
        budget = listing["tandem"]["memory_budget_bytes"]
        assert sum(sizes.values()) > budget >= sum(sorted(sizes.values())[-2:]), (sizes, budget)
        _scenario(url, proc.pid, 20)
    finally:
        _out, err = _stop(proc, signal.SIGINT)
    assert proc.returncode == 0, err


def test_a_model_that_fails_to_load_is_said_and_the_others_still_answer(
    tmp_path: Path, smollm2_q4: Path
) -> None:
    folder = tmp_path / "models"
    folder.mkdir()
    (folder / smollm2_q4.name).symlink_to(smollm2_q4)
    (folder / "broken.gguf").write_bytes(b"GGUF" + b"\x00" * 64)
    env = {**os.environ, "TANDEM_API_KEY": KEY}
    proc, url = _serve(["--models-dir", str(folder), "--port", "0"], env)
    try:
        r = _ask(url, "broken")
        assert r.status_code == 503, r.text
        error = r.json()["error"]
        assert error["code"] == "model_unavailable" and "'broken' could not be loaded" in error["message"]
        body = {"model": "broken", "stream": True, "messages": [{"role": "user", "content": "hi"}]}
        with httpx.stream("POST", f"{url}/chat/completions", json=body, headers=HEADERS, timeout=120) as s:
            events = [json.loads(x[6:]) for x in s.iter_lines() if x.startswith("data: ")]
        assert s.status_code == 200 and "could not be loaded" in events[-1]["error"]["message"]
        listing = httpx.get(f"{url}/models", headers=HEADERS, timeout=60).json()["data"]
        broken = next(m for m in listing if m["id"] == "broken")
        assert broken["status"]["value"] == "unloaded" and broken["tandem"]["error"]
        ok = _ask(url, Q4)
        assert ok.status_code == 200 and ok.json()["model"] == Q4
    finally:
        _out, err = _stop(proc, signal.SIGINT)
    assert proc.returncode == 0, err


def test_a_presets_file_pins_loads_on_startup_and_answers_to_aliases(
    tmp_path: Path, smollm2_q4: Path, gemma3_q4: Path
) -> None:
    presets = tmp_path / "models.ini"
    presets.write_text(
        "[*]\nctx-size = 2048\n\n"
        f"[small]\nmodel = {smollm2_q4}\nalias = claude-haiku-*\npinned = true\nload-on-startup = true\n\n"
        f"[main]\nmodel = {gemma3_q4}\nalias = claude-sonnet-*\n",
        encoding="utf-8",
    )
    env = {**os.environ, "TANDEM_API_KEY": KEY}
    proc, url = _serve(["--models-preset", str(presets), "--models-max", "1", "--port", "0"], env)
    try:
        listing = httpx.get(f"{url}/models", headers=HEADERS, timeout=60).json()["data"]
        by_id = {m["id"]: m for m in listing}
        assert by_id["small"]["status"]["value"] == "loaded" and by_id["small"]["tandem"]["pinned"]
        assert by_id["main"]["status"]["value"] == "unloaded"
        assert by_id["small"]["context_length"] == 2048  # the [*] section's context

        r = _ask(url, "claude-haiku-4-5-20251001")  # an alias with a wildcard
        assert r.status_code == 200 and r.json()["model"] == "small"
        # the pinned model holds the one place: the other is refused at once, saying why
        refused = _ask(url, "claude-sonnet-4-5")
        assert refused.status_code == 503
        assert "pinned models (small)" in refused.json()["error"]["message"]
        bad = httpx.post(
            f"{url}/chat/completions",
            json={"model": "small", "messages": [{"role": "user", "content": "hi"}], "ttl": -5},
            headers=HEADERS,
            timeout=60,
        )
        assert bad.status_code == 400 and bad.json()["error"]["param"] == "ttl"
        # an explicit unload frees even a pinned model; then the other one loads
        gone = httpx.post(f"{url}/models/unload", json={"all": True}, headers=HEADERS, timeout=60).json()
        assert gone["unloaded"] == ["small"] and gone["pending"] == []
        r = _ask(url, "claude-sonnet-4-5")
        assert r.status_code == 200 and r.json()["model"] == "main"
    finally:
        _out, err = _stop(proc, signal.SIGINT)
    assert proc.returncode == 0, err


def test_serve_all_serves_the_models_tandem_knows_on_disk(smollm2_q4: Path, smollm2_f32: Path) -> None:
    env = {**os.environ, "TANDEM_API_KEY": KEY}
    proc, url = _serve(["--all", "--port", "0"], env)
    try:
        listing = httpx.get(f"{url}/models", headers=HEADERS, timeout=60).json()["data"]
        ids = {m["id"] for m in listing}
        q4, f32 = "smollm2-135m-instruct:135M-Q4_1", "smollm2-135m-instruct:135M-F32"
        assert {q4, f32} <= ids, ids
        r = _ask(url, "smollm2-135m-instruct")  # the family's name answers for its first model
        assert r.status_code == 200 and r.json()["model"] == q4
    finally:
        _out, err = _stop(proc, signal.SIGINT)
    assert proc.returncode == 0, err
