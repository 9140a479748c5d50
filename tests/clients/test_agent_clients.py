"""The client tier: the real Claude Code and Codex CLI (pinned in .ci/clients/package.json), and
LangChain's structured output on both providers, against ``tandem serve`` on loopback serving the
embedded default model, with only the endpoint and the key configured.

Run with ``npm ci --prefix .ci/clients`` once, then ``python -m pytest -m clients``; CI sets
``TANDEM_REQUIRE_CLIENTS=1`` so a missing client fails instead of skipping.

The server runs with a 5,632-token context: agents' first requests take 4,500 to 5,100 tokens with
their tools in Tandem's compact format, and the small context bounds how long the 135M model may
write before its answer ends (it rarely ends one by itself after an agent's instructions). Every
request must be answered and every stream parsed by the real client; what the tiny model writes
decides the rest: an answer cut by the context is a stop the client accepts, and when Claude Code
takes a long answer's text for a tool call and sends a second turn, that turn may no longer fit
(a 400 "prompt is too long" before any stream, which Claude Code reports as such).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.clients

ROOT = Path(__file__).parents[2]
BIN = ROOT / ".ci" / "clients" / "node_modules" / ".bin"
KEY = "client-tier-key"


def _client(name: str) -> Path:
    path = BIN / name
    if not path.exists():
        if os.environ.get("TANDEM_REQUIRE_CLIENTS") == "1":
            pytest.fail(f"{path} is missing: run npm ci --prefix .ci/clients")
        pytest.skip(f"{name} is not installed (npm ci --prefix .ci/clients)")
    return path


@pytest.fixture
def served(smollm2_q4: Path) -> Iterator[str]:
    """``tandem serve`` (the embedded default model, ``smollm2_q4``) on a free loopback port: its
    API root."""
    env = {**os.environ, "TANDEM_API_KEY": KEY}
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "serve", "--port", "0", "--ctx", "5632"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None and proc.stdout is not None
    seen: list[str] = []
    root = ""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        seen.append(line)
        if m := re.search(r"at (http://127\.0\.0\.1:\d+)/v1", line):
            root = m.group(1)
            break
    if not root:
        proc.kill()
        proc.communicate()
        raise AssertionError("tandem serve did not start:\n" + "".join(seen))
    try:
        yield root
    finally:
        proc.terminate()
        try:
            proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()


def _run(cmd: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=1200, check=False)


@pytest.mark.timeout(1200)
def test_claude_code_says_hi(served: str, tmp_path: Path) -> None:
    claude = _client("claude")
    root = served
    env = {**os.environ, "ANTHROPIC_BASE_URL": root, "ANTHROPIC_API_KEY": KEY}
    done = _run([str(claude), "-p", "say hi", "--output-format", "json"], env, tmp_path)
    result = json.loads(done.stdout)
    assert result["usage"]["input_tokens"] > 3000, result  # the first answer and its usage arrived
    if result["is_error"]:
        # only a later turn that outgrew the context, refused before streaming: never a failed
        # request, a cut stream or a response Claude Code could not read
        assert result["terminal_reason"] == "prompt_too_long" and result["num_turns"] >= 2, result
        assert result["api_error_status"] == 400
    else:
        assert done.returncode == 0 and result.get("api_error_status") is None, result


@pytest.mark.timeout(1200)
def test_codex_exec_says_hi(served: str, tmp_path: Path) -> None:
    codex = _client("codex")
    root = served
    home = Path(os.environ["HOME"])
    (home / ".codex").mkdir(parents=True, exist_ok=True)
    (home / ".codex" / "config.toml").write_text(
        'model = "smollm2-135m-instruct"\nmodel_provider = "tandem"\n\n'
        "[model_providers.tandem]\n"
        'name = "Tandem"\n'
        f'base_url = "{root}/v1"\n'
        'env_key = "TANDEM_KEY"\n'
        'wire_api = "responses"\n',
        "utf-8",
    )
    env = {**os.environ, "TANDEM_KEY": KEY}
    done = _run([str(codex), "exec", "--skip-git-repo-check", "say hi"], env, tmp_path)
    output = done.stdout + done.stderr
    # every request Codex sent was answered; no HTTP error, no cut stream
    for marker in ('{"error"', "unexpected status", "stream disconnected", "invalid_request_error"):
        assert marker not in output, output[-3000:]
    if done.returncode != 0:
        # the 135M model may not end its answer before the context is full: Codex then reports the
        # response as incomplete (it is: the API said so, and why), which is the model's limit
        errors = [ln for ln in output.splitlines() if ln.startswith("ERROR")]
        assert errors and all(
            "Incomplete response returned, reason: max_output_tokens" in e for e in errors
        ), output[-3000:]


@pytest.mark.timeout(600)
def test_langchain_structured_output_on_both_providers(served: str) -> None:
    langchain_openai = pytest.importorskip("langchain_openai")
    langchain_anthropic = pytest.importorskip("langchain_anthropic")
    from pydantic import BaseModel

    class Person(BaseModel):
        name: str
        age: int

    root = served
    openai_chat = langchain_openai.ChatOpenAI(
        base_url=f"{root}/v1", api_key=KEY, model="m", max_tokens=80, max_retries=0
    )
    anthropic_chat = langchain_anthropic.ChatAnthropic(
        base_url=root, api_key=KEY, model="m", max_tokens=80, max_retries=0
    )
    for chat in (openai_chat, anthropic_chat):
        for method in ("json_schema", "function_calling"):
            person = chat.with_structured_output(Person, method=method).invoke("Invent a person.")
            assert isinstance(person, Person) and person.name, (type(chat).__name__, method)


def test_the_clients_are_the_pinned_versions() -> None:
    pins = json.loads((ROOT / ".ci" / "clients" / "package.json").read_text("utf-8"))["dependencies"]
    claude, codex = _client("claude"), _client("codex")
    assert (
        pins["@anthropic-ai/claude-code"] in _run([str(claude), "--version"], dict(os.environ), ROOT).stdout
    )
    assert pins["@openai/codex"] in _run([str(codex), "--version"], dict(os.environ), ROOT).stdout
    assert shutil.which("node")
