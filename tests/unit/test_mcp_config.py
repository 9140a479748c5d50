"""MCP server configuration: a Claude-Desktop-style ``mcpServers`` file imported, stored and exported
(secrets in the keyring, never in Tandem's file), and malformed files refused naming the field,
changing nothing."""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.tools import vault
from app.core.tools.config import (
    HttpTransport,
    SecretRef,
    StdioTransport,
    ToolsConfig,
    config_path,
    export_mcp_servers,
    import_mcp_servers,
    load_config,
    make_server,
    read_mcp_servers,
    remove_server,
    save_config,
    write_mcp_servers,
)
from app.core.tools.errors import ToolConfigError
from tests.integration.mcp_servers import MemoryKeyring, memory_keyring

GITHUB_TOKEN = "ghp_exampleSecretToken0123456789"
SEARCH_KEY = "Bearer sk-search-secret-42"

#: a Claude Desktop config (claude_desktop_config.json) with what other clients add: a remote
#: server (Cursor, LM Studio), Cline's disabled / alwaysAllow / timeout, and a key no one knows
CLAUDE_DESKTOP: dict[str, Any] = {
    "mcpServers": {
        "filesystem": {
            "command": "npx",
            "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"],
        },
        "github": {
            "command": "docker",
            "args": [
                "run",
                "-i",
                "--rm",
                "-e",
                "GITHUB_PERSONAL_ACCESS_TOKEN",
                "ghcr.io/github/github-mcp-server",
            ],
            "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": GITHUB_TOKEN, "GITHUB_HOST": "github.com"},
            "cwd": "/tmp",
        },
        "search": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": SEARCH_KEY}},
        "legacy": {"type": "sse", "url": "http://127.0.0.1:9000/sse"},
        "weather": {
            "command": "uvx",
            "args": ["weather-mcp"],
            "disabled": True,
            "alwaysAllow": ["forecast"],
            "timeout": 30,
            "description": "kept as it was",
        },
    }
}
SECRETS = (GITHUB_TOKEN, "github.com", SEARCH_KEY)


@pytest.fixture
def ring() -> Iterator[MemoryKeyring]:
    with memory_keyring() as r:
        yield r


def _write(tmp_path: Path, data: object, name: str = "claude_desktop_config.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, "utf-8")
    return path


def test_a_claude_desktop_file_imports_stores_only_references_and_exports_as_it_was(
    tmp_path: Path, ring: MemoryKeyring
) -> None:
    report = import_mcp_servers(_write(tmp_path, CLAUDE_DESKTOP), ToolsConfig())
    assert report.added == ["filesystem", "github", "search", "legacy", "weather"]
    assert report.renamed == {} and report.session_only == []
    config = report.config

    github = config.get("github")
    assert github is not None and isinstance(github.transport, StdioTransport)
    assert github.transport.command == "docker" and github.transport.cwd == "/tmp"
    assert github.transport.env["GITHUB_PERSONAL_ACCESS_TOKEN"] == SecretRef(
        "mcp:github:env:GITHUB_PERSONAL_ACCESS_TOKEN"
    )
    search = config.get("search")
    assert search is not None and isinstance(search.transport, HttpTransport)
    assert search.transport.kind == "http" and search.approval("anything") == "ask"
    legacy = config.get("legacy")
    assert (
        legacy is not None and isinstance(legacy.transport, HttpTransport) and legacy.transport.kind == "sse"
    )
    weather = config.get("weather")
    assert weather is not None and not weather.enabled and weather.timeout == 30
    assert weather.approval("forecast") == "always" and weather.approval("alerts") == "ask"
    assert [s.name for s in config.enabled] == ["filesystem", "github", "search", "legacy"]

    # the values are in the keyring, under Tandem's service
    assert ring.values[("tandem", "mcp:github:env:GITHUB_PERSONAL_ACCESS_TOKEN")] == GITHUB_TOKEN
    assert ring.values[("tandem", "mcp:search:header:Authorization")] == SEARCH_KEY

    # Tandem's stored file holds references, never the values
    save_config(config)
    stored = config_path().read_text("utf-8")
    for secret in SECRETS:
        assert secret not in stored
    assert json.loads(stored)["mcpServers"]["github"]["env"]["GITHUB_PERSONAL_ACCESS_TOKEN"] == {
        "keyring": "mcp:github:env:GITHUB_PERSONAL_ACCESS_TOKEN"
    }
    assert load_config() == config

    # exported with the secrets: the same document the user imported
    assert export_mcp_servers(load_config(), include_secrets=True).data == CLAUDE_DESKTOP
    out = tmp_path / "exported.json"
    assert write_mcp_servers(config, out, include_secrets=True) == []
    assert json.loads(out.read_text("utf-8")) == CLAUDE_DESKTOP
    assert stat.S_IMODE(out.stat().st_mode) == 0o600  # a file with secrets is its owner's only
    # and without: every value empty, each one named
    bare = export_mcp_servers(config, include_secrets=False)
    github_entry = json.loads(json.dumps(bare.data))["mcpServers"]["github"]
    assert github_entry["env"] == {"GITHUB_PERSONAL_ACCESS_TOKEN": "", "GITHUB_HOST": ""}
    assert bare.left_out == [
        "github: env GITHUB_PERSONAL_ACCESS_TOKEN",
        "github: env GITHUB_HOST",
        "search: header Authorization",
    ]
    assert not any(secret in json.dumps(bare.data) for secret in SECRETS)


def test_importing_again_adds_renamed_servers_or_replaces_them(tmp_path: Path, ring: MemoryKeyring) -> None:
    path = _write(tmp_path, CLAUDE_DESKTOP)
    first = import_mcp_servers(path, ToolsConfig()).config
    again = import_mcp_servers(path, first)
    assert again.renamed["github"] == "github-2"
    assert again.config.names[5:] == ["filesystem-2", "github-2", "search-2", "legacy-2", "weather-2"]
    assert ring.values[("tandem", "mcp:github-2:env:GITHUB_PERSONAL_ACCESS_TOKEN")] == GITHUB_TOKEN

    changed = {"mcpServers": {"github": {"command": "gh-mcp", "env": {"TOKEN": "new"}}}}
    replaced = import_mcp_servers(_write(tmp_path, changed, "other.json"), first, replace_existing=True)
    assert replaced.config.names == first.names
    github = replaced.config.get("github")
    assert github is not None and isinstance(github.transport, StdioTransport)
    assert github.transport.command == "gh-mcp"
    # the replaced server's old value is gone from the keyring
    assert ("tandem", "mcp:github:env:GITHUB_PERSONAL_ACCESS_TOKEN") not in ring.values
    assert ring.values[("tandem", "mcp:github:env:TOKEN")] == "new"
    removed = remove_server(replaced.config, "github")
    assert "github" not in removed.names and ("tandem", "mcp:github:env:TOKEN") not in ring.values


BAD = [
    ("{not json", "claude_desktop_config.json: not JSON: Expecting property name enclosed in double quotes"),
    ([], 'expected a JSON object with "mcpServers", got a list'),
    ({"servers_": {}}, 'mcpServers: missing: the file has no "mcpServers" object'),
    ({"mcpServers": []}, "mcpServers: expected an object of server names and settings, got a list"),
    (
        {"mcpServers": {"a": {"command": "x", "args": ["ok", 3]}}},
        "mcpServers.a.args[1]: expected a string, got 3",
    ),
    ({"mcpServers": {"a": {"command": 5}}}, "mcpServers.a.command: expected a string, got 5 (a number)"),
    ({"mcpServers": {"a": {"command": ""}}}, "mcpServers.a.command: must not be empty"),
    (
        {"mcpServers": {"a": {"command": "x", "env": {"PORT": 8080}}}},
        "mcpServers.a.env.PORT: expected a string",
    ),
    ({"mcpServers": {"a": {"args": ["x"]}}}, 'mcpServers.a: needs "command" (a program to start) or "url"'),
    ({"mcpServers": {"a": {"command": "x", "url": "http://h/mcp"}}}, 'has both "command" and "url"'),
    ({"mcpServers": {"a": {"type": "websocket", "url": "ws://h"}}}, "mcpServers.a.type: unknown transport"),
    (
        {"mcpServers": {"a": {"url": "ftp://h/mcp"}}},
        "mcpServers.a.url: expected an http:// or https:// address",
    ),
    ({"mcpServers": {"a": {"url": "https://me:pw@h/mcp"}}}, "mcpServers.a.url: put credentials in headers"),
    (
        {"mcpServers": {"a": {"url": "https://h/mcp", "env": {}}}},
        "a remote server takes 'headers', not 'env'",
    ),
    ({"mcpServers": {"a": {"command": "x", "timeout": -1}}}, "mcpServers.a.timeout: must be more than 0"),
    (
        {"mcpServers": {"a": {"command": "x", "disabled": "yes"}}},
        "mcpServers.a.disabled: expected true or false",
    ),
    (
        {"mcpServers": {"a": {"command": "x", "tools": {"t": "never"}}}},
        'mcpServers.a.tools.t: expected "off", "ask" or "always"',
    ),
    (
        {"mcpServers": {"my server": {"command": "x", "args": "run"}}},
        'mcpServers["my server"].args: expected a list',
    ),
]


@pytest.mark.parametrize(("data", "message"), BAD, ids=[m.split(":")[0].strip()[:40] for _, m in BAD])
def test_a_malformed_file_names_the_field_and_changes_nothing(
    tmp_path: Path, ring: MemoryKeyring, data: object, message: str
) -> None:
    existing = import_mcp_servers(_write(tmp_path, CLAUDE_DESKTOP), ToolsConfig()).config
    save_config(existing)
    stored = config_path().read_bytes()
    keys = dict(ring.values)
    # the bad entry comes after a good one with a secret: nothing of the file may be kept
    if isinstance(data, dict) and isinstance(data.get("mcpServers"), dict):
        data = {"mcpServers": {"first": {"command": "ok", "env": {"K": "v"}}, **data["mcpServers"]}}
    with pytest.raises(ToolConfigError) as caught:
        import_mcp_servers(_write(tmp_path, data, "claude_desktop_config.json"), existing)
    assert message in str(caught.value)
    assert str(caught.value).startswith("claude_desktop_config.json: ")
    assert caught.value.hint  # the next step
    assert ring.values == keys and config_path().read_bytes() == stored
    assert load_config() == existing


def test_a_damaged_stored_file_is_reported_and_left_as_it_is(ring: MemoryKeyring) -> None:
    path = config_path()
    path.write_text('{"version": 1, "mcpServers": {"calc": {"command": "python", "args": [1]}}}', "utf-8")
    before = path.read_bytes()
    with pytest.raises(
        ToolConfigError, match=r"^mcp.json: mcpServers.calc.args\[0\]: expected a string, got 1"
    ):
        load_config()
    assert path.read_bytes() == before
    assert load_config(path.with_name("absent.json")) == ToolsConfig()


def test_a_value_written_into_the_stored_file_moves_to_the_keyring(ring: MemoryKeyring) -> None:
    path = config_path()
    path.write_text(json.dumps({"mcpServers": {"calc": {"command": "python", "env": {"KEY": "hand-typed"}}}}))
    config = load_config()
    assert ring.values[("tandem", "mcp:calc:env:KEY")] == "hand-typed"
    assert "hand-typed" not in path.read_text("utf-8")
    assert load_config() == config


def test_without_a_keyring_the_values_work_for_this_session_and_stay_out_of_the_file(tmp_path: Path) -> None:
    """The suite's keyring is the null backend: it keeps nothing, as on a Linux box without one."""
    vault.forget_session_values()
    try:
        report = import_mcp_servers(_write(tmp_path, CLAUDE_DESKTOP), ToolsConfig())
        assert report.session_only == [
            "github: env GITHUB_PERSONAL_ACCESS_TOKEN",
            "github: env GITHUB_HOST",
            "search: header Authorization",
        ]
        github = report.config.get("github")
        assert github is not None and isinstance(github.transport, StdioTransport)
        assert github.transport.env["GITHUB_PERSONAL_ACCESS_TOKEN"].value() == GITHUB_TOKEN
        save_config(report.config)
        assert not any(secret in config_path().read_text("utf-8") for secret in SECRETS)
    finally:
        vault.forget_session_values()


def test_a_server_made_in_a_form_is_checked_like_a_file(ring: MemoryKeyring) -> None:
    server, session_only = make_server("notes", url="https://notes.example/mcp", headers={"X-Key": "k1"})
    assert session_only == [] and ring.values[("tandem", "mcp:notes:header:X-Key")] == "k1"
    assert isinstance(server.transport, HttpTransport)
    with pytest.raises(ToolConfigError, match=r"^server notes: url: expected an http:// or https:// address"):
        make_server("notes", url="notes.example")
    with pytest.raises(ToolConfigError, match=r"^server x: needs \"command\""):
        make_server("x")


def test_a_file_read_for_one_run_leaves_the_keyring_and_the_stored_file_alone(
    tmp_path: Path, ring: MemoryKeyring
) -> None:
    """``tandem generate --mcp-config FILE``: the file's values are used by this process only."""
    config = read_mcp_servers(_write(tmp_path, CLAUDE_DESKTOP))
    assert config.names == ["filesystem", "github", "search", "legacy", "weather"]
    github = config.get("github")
    assert github is not None and isinstance(github.transport, StdioTransport)
    assert github.transport.env["GITHUB_PERSONAL_ACCESS_TOKEN"].value() == GITHUB_TOKEN
    assert ring.values == {} and not config_path().exists()
    with pytest.raises(ToolConfigError, match=r"^bad.json: mcpServers.x: needs"):
        read_mcp_servers(_write(tmp_path, {"mcpServers": {"x": {}}}, "bad.json"))


def test_a_tool_turned_off_is_stored_read_from_gemini_cli_and_exported(
    tmp_path: Path, ring: MemoryKeyring
) -> None:
    """A tool's rule may be off: Tandem's file keeps it under ``tools``, Gemini CLI's
    ``excludeTools`` reads as off, and an export writes it back as ``excludeTools`` beside Cline's
    ``alwaysAllow``; a version-1 file (ask / always only) reads as it was and is written back as
    the current version."""
    source = {
        "mcpServers": {
            "calc": {"command": "python", "excludeTools": ["wipe_disk"], "alwaysAllow": ["add"]},
        }
    }
    config = import_mcp_servers(_write(tmp_path, source), ToolsConfig()).config
    calc = config.get("calc")
    assert calc is not None
    assert (calc.approval("wipe_disk"), calc.approval("add"), calc.approval("motto")) == (
        "off",
        "always",
        "ask",
    )
    assert not calc.offers("wipe_disk") and calc.offers("motto")
    config = config.with_server(calc.with_rule("motto", "off"))
    save_config(config)
    stored = json.loads(config_path().read_text("utf-8"))
    assert stored["version"] == 2
    assert stored["mcpServers"]["calc"]["tools"] == {"wipe_disk": "off", "add": "always", "motto": "off"}
    assert load_config() == config
    exported = export_mcp_servers(config, include_secrets=False).data["mcpServers"]
    assert isinstance(exported, dict)
    assert exported["calc"] == {
        "command": "python",
        "args": [],
        "alwaysAllow": ["add"],
        "excludeTools": ["motto", "wipe_disk"],
    }

    old = {"version": 1, "mcpServers": {"calc": {"command": "python", "tools": {"add": "always"}}}}
    config_path().write_text(json.dumps(old), "utf-8")
    read = load_config()
    assert read.get("calc") is not None and read.get("calc").rules == {"add": "always"}  # type: ignore[union-attr]
    save_config(read)
    assert json.loads(config_path().read_text("utf-8"))["version"] == 2
