"""``tandem generate --mcp-config FILE --allow-tools NAME --tool-choice NAME`` against a real stdio MCP
server (tests/integration/mcp_servers/calc.py) and the real embedded model on llama.cpp, run as a
script runs it: the call and the server's exact result are printed, then the answer; a tool that is
not allowed is refused with one line and never runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.mcp_servers import CALC
from tests.integration.mcp_servers.calc import MOTTO

ROOT = Path(__file__).resolve().parents[2]
PROMPT = "What is Tandem's motto? Use the motto tool."


@pytest.fixture
def config(tmp_path: Path) -> Path:
    """A Claude-Desktop-style file naming the calc server, which logs every call it runs."""
    path = tmp_path / "claude_desktop_config.json"
    server = {"command": sys.executable, "args": [str(CALC)], "env": {"CALC_LOG": str(tmp_path / "ran.log")}}
    path.write_text(json.dumps({"mcpServers": {"calc": server}}), "utf-8")
    return path


def _generate(config: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "app", "generate", "--mcp-config", str(config), "--prompt", PROMPT]
    return subprocess.run(
        [*command, "--temperature", "0", "--max-tokens", "64", *extra],
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )


def _ran(config: Path) -> list[str]:
    log = config.with_name("ran.log")
    return log.read_text("utf-8").split() if log.exists() else []


def test_the_call_its_exact_result_and_then_the_answer_are_printed(config: Path) -> None:
    proc = _generate(config, "--allow-tools", "motto", "--tool-choice", "motto")
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert lines[0] == "tool call: motto {} (on calc)"
    assert lines[1] == f"tool result: {MOTTO}"
    answer = "\n".join(lines[2:]).strip()
    assert answer and not answer.startswith("tool ")
    assert _ran(config) == ["motto"]
    assert "turn 1: " in proc.stderr and "turn 2: " in proc.stderr  # each model turn's figures


def test_json_gives_the_calls_turns_and_conversation(config: Path) -> None:
    proc = _generate(config, "--allow-tools", "motto", "--tool-choice", "motto", "--json")
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout)
    assert out["outcome"] == "answered" and out["text"].strip()
    (call,) = out["calls"]
    assert (call["name"], call["server"], call["status"], call["result"]) == ("motto", "calc", "ok", MOTTO)
    assert [t["turn"] for t in out["turns"]] == [1, 2]
    assert all(t["completion_tokens"] > 0 for t in out["turns"])
    roles = [m["role"] for m in out["messages"]]
    assert roles == ["user", "assistant", "tool", "assistant"]
    assert out["messages"][2]["content"] == MOTTO


def test_a_tool_that_is_not_allowed_is_refused_with_one_line_and_never_runs(config: Path) -> None:
    proc = _generate(config, "--allow-tools", "add", "--tool-choice", "motto")
    assert proc.returncode == 1, proc.stdout + proc.stderr[-3000:]
    assert proc.stderr.strip().splitlines()[-1] == "tandem: motto is not allowed here; it did not run."
    assert _ran(config) == []
    assert "tool result" not in proc.stdout


def test_the_flags_are_checked_before_any_model_loads(config: Path, tmp_path: Path) -> None:
    proc = _generate(config)  # no --allow-tools
    assert proc.returncode == 2
    assert "--mcp-config needs --allow-tools" in proc.stderr
    broken = tmp_path / "broken.json"
    broken.write_text('{"mcpServers": {"calc": {"command": 3}}}', "utf-8")
    proc = _generate(broken, "--allow-tools", "motto")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith("tandem: broken.json: mcpServers.calc.command")


def test_the_turn_cap_default_is_the_loops() -> None:
    from app.cli import tools as cli_tools
    from app.core.tools import loop

    assert cli_tools.DEFAULT_MAX_TURNS == loop.DEFAULT_MAX_TURNS
