"""``TANDEM_API_KEY=k tandem serve --model-path F --port P`` answers openai clients."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import anthropic
import openai
import pytest


def _serve(
    args: list[str], env: dict[str, str], ignore_sigint: bool = False
) -> tuple[subprocess.Popen[str], str]:
    def inherit_ignored_sigint() -> None:  # what a shell's background job starts with
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "serve", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=inherit_ignored_sigint if ignore_sigint else None,
    )
    assert proc.stderr is not None
    deadline = time.monotonic() + 120
    seen = []
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        seen.append(line)
        m = re.search(r"at (http://127\.0\.0\.1:\d+/v1)", line)
        if m:
            return proc, m.group(1)
    proc.kill()
    proc.wait()
    raise AssertionError("tandem serve did not start:\n" + "".join(seen))


def _stop(proc: subprocess.Popen[str], sig: int) -> tuple[str, str]:
    """Stop the server with ``sig``; one that does not stop is killed (never left running) and
    the test fails."""
    proc.send_signal(sig)
    try:
        return proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError(f"tandem serve did not stop on {signal.Signals(sig).name}") from None


def test_tandem_serve_answers_with_speculation_stats_and_needs_the_key(
    smollm2_f32: Path, smollm2_q4: Path
) -> None:
    env = {**os.environ, "TANDEM_API_KEY": "k"}
    args = ["--model-path", str(smollm2_f32), "--draft-model-path", str(smollm2_q4), "--port", "0"]
    proc, url = _serve(args, env)
    assert proc.stderr is not None
    settings = proc.stderr.readline()  # the line after "serving ... at": settings for agents
    try:
        with openai.OpenAI(base_url=url, api_key="k", max_retries=0, timeout=120) as client:
            r = client.chat.completions.create(
                model="any",
                messages=[{"role": "user", "content": "Count from 1 to 20."}],
                max_tokens=16,
            )
        root = url.removesuffix("/v1")
        with anthropic.Anthropic(base_url=root, api_key="k", max_retries=0, timeout=120) as claude:
            message = claude.messages.create(
                model="any", max_tokens=4, messages=[{"role": "user", "content": "Count from 1 to 20."}]
            )
        wrong = openai.OpenAI(base_url=url, api_key="not-k", max_retries=0, timeout=60)
        with wrong, pytest.raises(openai.AuthenticationError):
            wrong.models.list()
    finally:
        out, err = _stop(proc, signal.SIGINT)
    spec = (r.model_extra or {})["tandem"]["speculative_decoding"]
    assert r.usage is not None and r.usage.completion_tokens == 16
    assert spec["method"] == "draft" and spec["drafted"] > 0 and spec["rounds"] > 0
    assert proc.returncode == 0, err
    assert "server stopped" in err
    assert f"ANTHROPIC_BASE_URL={root}" in settings and f"OPENAI_BASE_URL={url}" in settings
    assert (
        message.usage.output_tokens == 4
        and (message.model_extra or {})["tandem"]["speculative_decoding"]["drafted"]
    )
    assert "k" not in re.findall(r"API key: (\S+)", err)  # a key from the environment is not printed
    assert "ok single [draft]: " in out and "drafted" in out  # the log line names the configuration


def test_serve_refuses_another_address_without_allow_remote(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "app", "serve", "--model-path", str(tmp_path / "m.gguf"), "--host", "0.0.0.0"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 2
    assert "--allow-remote" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_serve_stops_on_ctrl_c_and_sigterm_even_with_sigint_ignored_at_start(
    smollm2_q4: Path, sig: int
) -> None:
    proc, _url = _serve(
        ["--model-path", str(smollm2_q4), "--port", "0"], dict(os.environ), ignore_sigint=True
    )
    _out, err = _stop(proc, sig)
    assert proc.returncode == 0, err
    assert "server stopped" in err


def test_serve_spec_auto_serves_autos_stored_choice(smollm2_q4: Path) -> None:
    """`tandem serve --spec auto` takes Auto's choice as generate does, never speculation off
    without a word (benchmarks/bench_agent.py relies on it)."""
    from app.core.engines.base import LoadRequest
    from app.core.launch import auto

    key = auto.CalibrationKey.for_launch("llama.cpp", LoadRequest(str(smollm2_q4), n_threads=2), None)
    measurements = [
        auto.Measurement(auto.OFF, dict.fromkeys(auto.WORKLOADS, 1.0)),
        auto.Measurement(auto.Candidate("ngram-mod", 64), {"prose": 1.01, "code": 1.2, "repeat": 3.6}),
    ]
    stored = auto.store_result(auto.CalibrationResult(key, measurements, 4.0))
    env = {**os.environ, "TANDEM_API_KEY": "k"}
    args = ["--model-path", str(smollm2_q4), "--port", "0", "--threads", "2", "--spec", "auto"]
    proc, url = _serve(args, env)
    try:
        with openai.OpenAI(base_url=url, api_key="k", max_retries=0, timeout=120) as client:
            r = client.chat.completions.create(
                model="any", messages=[{"role": "user", "content": "Say hi."}], max_tokens=8
            )
    finally:
        _out, err = _stop(proc, signal.SIGTERM)
    spec = (r.model_extra or {})["tandem"]["speculative_decoding"]
    assert spec["method"] == "ngram-mod"  # the stored choice (a measurement would not be this one)
    assert proc.returncode == 0, err
    assert len(list(stored.parent.glob("*.json"))) == 1  # read, not measured again
