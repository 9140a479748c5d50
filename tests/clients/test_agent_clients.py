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

import fnmatch
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import httpx
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


def _drain(stream: IO[str], lines: list[str]) -> None:
    for line in stream:
        lines.append(line)


@contextmanager
def _serving(args: list[str]) -> Iterator[tuple[str, list[str]]]:
    """``tandem serve ARGS`` with the key on a free loopback port: its API root, and its stdout's
    lines (the request log, one line per request as it ends), complete once the block has left
    and the server has stopped."""
    env = {**os.environ, "TANDEM_API_KEY": KEY}
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "serve", "--port", "0", *args],
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
    log: list[str] = []
    readers = [
        threading.Thread(target=_drain, args=(proc.stdout, log), daemon=True),
        threading.Thread(target=_drain, args=(proc.stderr, seen), daemon=True),
    ]
    for reader in readers:
        reader.start()
    try:
        yield root, log
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for reader in readers:
            reader.join(30)
        proc.stdout.close()
        proc.stderr.close()


@pytest.fixture
def served(smollm2_q4: Path) -> Iterator[str]:
    """``tandem serve`` (the embedded default model, ``smollm2_q4``) on a free loopback port: its
    API root."""
    with _serving(["--ctx", "5632"]) as (root, _log):
        yield root


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


#: the model set's ids, and the names Claude Code sends that each answers to
MAIN_ID, SMALL_ID = "smollm2-135m-instruct", "gemma-3-270m"
MAIN_ALIASES, SMALL_ALIASES = ("claude-opus-*", "claude-sonnet-*"), ("claude-haiku-*",)
#: the small/fast model's name Claude Code is given
SMALL_NAME = "claude-haiku-4-5"
#: headers of one connection, not passed on by the relay
_HOP = {"host", "connection", "keep-alive", "content-length", "transfer-encoding"}


@dataclass(frozen=True)
class _Sent:
    """One request a client sent through :func:`_relay`, and how it was answered."""

    method: str
    path: str
    #: the ``model`` its JSON body names (None: no such body)
    model: str | None
    status: int
    #: the answer's body when it failed
    error: str


@contextmanager
def _relay(upstream: str) -> Iterator[tuple[str, list[_Sent]]]:
    """A loopback relay to ``upstream``: its root, and each request sent through it (the server
    logs only the requests a model answered or refused for their size, not one it could not serve).
    Answers pass through unchanged as they arrive, streams included."""
    sent: list[_Sent] = []
    client = httpx.Client(timeout=None)

    class Relay(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def relay(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                model = json.loads(body).get("model") if body else None
            except (ValueError, AttributeError):
                model = None
            headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP}
            try:
                with client.stream(self.command, upstream + self.path, content=body, headers=headers) as r:
                    failed = b"".join(r.iter_raw()) if r.status_code >= 400 else b""
                    sent.append(
                        _Sent(
                            self.command, self.path, model, r.status_code, failed.decode("utf-8", "replace")
                        )
                    )
                    self.send_response(r.status_code)
                    for k, v in r.headers.items():
                        if k.lower() not in _HOP:
                            self.send_header(k, v)
                    if self.command == "HEAD":
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                        return
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    for chunk in [failed] if failed else r.iter_raw():
                        if chunk:
                            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                            self.wfile.flush()
                    self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
            except httpx.HTTPError as exc:
                sent.append(_Sent(self.command, self.path, model, 502, repr(exc)))
                self.send_error(502)

        do_GET = do_POST = do_HEAD = relay

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Relay)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", sent
    finally:
        server.shutdown()
        server.server_close()
        client.close()


def _served_id(name: str) -> str | None:
    """The id of the set's model a request naming ``name`` is answered by (None: no model)."""
    for model_id, aliases in ((MAIN_ID, MAIN_ALIASES), (SMALL_ID, SMALL_ALIASES)):
        if name == model_id or any(fnmatch.fnmatchcase(name, a) for a in aliases):
            return model_id
    return None


@pytest.mark.timeout(1500)
def test_claude_code_with_its_main_and_small_models_on_two_models(
    smollm2_q4: Path, gemma3_q4: Path, tmp_path: Path
) -> None:
    """Claude Code against ``tandem serve --models-preset``: its main model's names
    (``claude-opus-*``, ``claude-sonnet-*``, its default without ``ANTHROPIC_MODEL``) answered by
    the embedded SmolLM2, its small/fast model (``ANTHROPIC_SMALL_FAST_MODEL`` and
    ``ANTHROPIC_DEFAULT_HAIKU_MODEL``, ``claude-haiku-*``) by gemma-3-270m, with the context of
    ``test_claude_code_says_hi`` for both and its acceptance. Every request that names a model is
    served by the model its name maps to: answered, or refused only as a prompt too long for the
    context, never a name the set does not serve (the server logs no line for such a request, so a
    relay records what Claude Code sends). In ``-p`` mode the pinned Claude Code sends every request
    under its main model's name, none under its small/fast one, so a request under the small name,
    sent once Claude Code has ended, shows that name answered by the small model beside the main one."""
    claude = _client("claude")
    preset = tmp_path / "models.ini"
    preset.write_text(
        "[*]\nctx-size = 5632\n\n"
        f"[{MAIN_ID}]\nmodel = {smollm2_q4}\nalias = {', '.join(MAIN_ALIASES)}\n\n"
        f"[{SMALL_ID}]\nmodel = {gemma3_q4}\nalias = {', '.join(SMALL_ALIASES)}\n",
        "utf-8",
    )
    work = tmp_path / "work"
    work.mkdir()
    chosen = ("ANTHROPIC_MODEL", "ANTHROPIC_SMALL_FAST_MODEL", "CLAUDE_CODE_SUBAGENT_MODEL")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in chosen and not re.fullmatch(r"ANTHROPIC_DEFAULT_\w+_MODEL", k)
    }
    env.update(
        ANTHROPIC_API_KEY=KEY, ANTHROPIC_SMALL_FAST_MODEL=SMALL_NAME, ANTHROPIC_DEFAULT_HAIKU_MODEL=SMALL_NAME
    )
    with _serving(["--models-preset", str(preset)]) as (root, log), _relay(root) as (relayed, sent):
        env["ANTHROPIC_BASE_URL"] = relayed
        done = _run([str(claude), "-p", "say hi", "--output-format", "json"], env, work)
        small = httpx.post(
            f"{root}/v1/messages",
            json={"model": SMALL_NAME, "max_tokens": 8, "messages": [{"role": "user", "content": "say hi"}]},
            headers={"x-api-key": KEY},
            timeout=300,
        )
    result = json.loads(done.stdout)
    assert result["usage"]["input_tokens"] > 3000, result  # the first answer and its usage arrived
    if result["is_error"]:
        assert result["terminal_reason"] == "prompt_too_long" and result["num_turns"] >= 2, result
        assert result["api_error_status"] == 400
    else:
        assert done.returncode == 0 and result.get("api_error_status") is None, result
    assert small.status_code == 200 and small.json()["model"] == SMALL_ID, small.text

    named = [s for s in sent if s.model is not None]
    assert named, sent
    for s in named:  # each name maps to a model of the set, which answered or found it too long
        assert _served_id(s.model or "") is not None, s
        assert s.status == 200 or (s.status == 400 and "prompt is too long" in s.error), s
    # the server's log, one line per request: refused for its size, or answered (by the model named)
    refused = [ln for ln in log if re.match(r"\S+ refused: ", ln)]
    lines = [ln.split() for ln in log if ln.strip() and ln not in refused]
    assert all(words[1] == "ok" for words in lines), log
    answered = Counter(words[2] for words in lines)
    generated = [s for s in named if s.method == "POST" and s.path.split("?")[0] == "/v1/messages"]
    expected = Counter(_served_id(s.model or "") for s in generated if s.status == 200)
    assert answered == expected + Counter({SMALL_ID: 1}), (log, sent)
    assert len(refused) == sum(s.status == 400 for s in generated), (log, sent)
    assert answered[MAIN_ID] >= 1, log


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
