"""MCP servers as the user configured them: a typed model, the stored file, import and export.

The shape is the ``mcpServers`` JSON object that Claude Desktop, Cursor and LM Studio share (VS
Code's ``servers`` is read too)::

    {"mcpServers": {
        "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
                  "env": {"API_KEY": "..."}, "cwd": "/tmp"},
        "search": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer ..."}},
        "legacy": {"type": "sse", "url": "https://old.example.com/sse"}}}

A stdio server has ``command`` (with ``args``, ``env``, ``cwd``); an HTTP server has ``url`` (with
``headers``), streamable HTTP unless ``"type": "sse"``. Tandem adds per server ``enabled`` and, per
tool, a rule under ``tools``: ``"off"`` (never offered to the model), ``"ask"`` before every call,
or ``"always"`` allowed. Cline's ``disabled``, ``alwaysAllow`` / ``autoApprove`` and ``timeout``
(seconds per call) and Gemini CLI's ``excludeTools`` (tools turned off) are read as the same things
and written back on export, and any other key of an entry is kept as it was.

Stored file versions: version 1 knew only ``"ask"`` and ``"always"``; it reads unchanged (a tool
it does not name is asked about) and is written back as the current version on the next change.

Secrets: every ``env`` and ``headers`` value goes to the OS keyring (:mod:`app.core.tools.vault`)
when a server is imported or created. Tandem's own file (``mcp.json`` in the config directory;
never the settings file) holds only ``{"keyring": "<entry>"}`` references in their place.

Errors: a file that cannot be read raises :class:`~app.core.tools.errors.ToolConfigError` naming
the file and the field (``mcp.json: mcpServers.files.args[1]: expected a string, got 3``); the
whole file is checked before anything is written, so a malformed file changes nothing: not the
stored configuration, not the keyring.

Functions that touch the keyring (:func:`import_mcp_servers`, :func:`make_server`,
:func:`remove_server`, :func:`export_mcp_servers` with secrets, :func:`load_config` when it moves
hand-written values) block: the GUI calls them on a worker.
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal, cast
from urllib.parse import urlsplit

from pydantic import JsonValue

from app.core import paths
from app.core.tools import vault
from app.core.tools.errors import ToolConfigError
from app.core.tools.vault import Place

log = logging.getLogger(__name__)

#: the rule of a tool: off (never offered to the model), ask before every call, or always allow it
Approval = Literal["off", "ask", "always"]
APPROVALS: tuple[Approval, ...] = ("off", "ask", "always")
#: a call's time limit when the entry names none (Cline's default too), and the largest allowed
DEFAULT_TIMEOUT_S = 60.0
MAX_TIMEOUT_S = 3600.0
#: the version of Tandem's stored file (2: a tool's rule may be "off")
FILE_VERSION = 2

#: the keys of an entry Tandem reads; any other key is kept in :attr:`ServerConfig.extra`
_KNOWN_KEYS = frozenset(
    {"type", "command", "args", "env", "cwd", "url", "headers", "enabled", "disabled", "tools"}
    | {"alwaysAllow", "autoApprove", "excludeTools", "timeout"}
)
#: ``type`` values of the clients that write one, by transport
_TYPES = {
    "stdio": "stdio",
    "http": "http",
    "streamable-http": "http",
    "streamable_http": "http",
    "streamableHttp": "http",
    "sse": "sse",
}


@dataclass(frozen=True)
class SecretRef:
    """A value in the keyring: ``key`` names its entry (the value never lives in the config)."""

    key: str

    def value(self) -> str | None:
        """The value (blocking: a keyring read), or None when the keyring has none."""
        return vault.read(self.key)


@dataclass(frozen=True)
class StdioTransport:
    """A server Tandem starts as a subprocess and talks to over its stdin/stdout."""

    command: str
    args: tuple[str, ...] = ()
    #: environment variables set for the process (over a minimal inherited environment)
    env: Mapping[str, SecretRef] = field(default_factory=dict)
    cwd: str | None = None

    @property
    def kind(self) -> Literal["stdio"]:
        return "stdio"


@dataclass(frozen=True)
class HttpTransport:
    """A server Tandem connects to: streamable HTTP (``http``), or the older SSE transport."""

    url: str
    headers: Mapping[str, SecretRef] = field(default_factory=dict)
    kind: Literal["http", "sse"] = "http"


Transport = StdioTransport | HttpTransport


@dataclass(frozen=True)
class ServerConfig:
    """One configured MCP server."""

    name: str
    transport: Transport
    enabled: bool = True
    #: the rule per tool name; a tool not named is asked about
    rules: Mapping[str, Approval] = field(default_factory=dict)
    #: a call's time limit in seconds
    timeout: float = DEFAULT_TIMEOUT_S
    #: the entry's keys that Tandem does not use, kept for export as they were
    extra: Mapping[str, JsonValue] = field(default_factory=dict)

    def approval(self, tool: str) -> Approval:
        return self.rules.get(tool, "ask")

    def offers(self, tool: str) -> bool:
        """The tool may be offered to the model (its rule is not off)."""
        return self.approval(tool) != "off"

    def with_rule(self, tool: str, rule: Approval) -> ServerConfig:
        return replace(self, rules={**self.rules, tool: rule})

    def with_enabled(self, enabled: bool) -> ServerConfig:
        return replace(self, enabled=enabled)

    def secret_refs(self) -> dict[str, SecretRef]:
        """The values this server keeps in the keyring, by what they are (``env API_KEY``)."""
        t = self.transport
        if isinstance(t, StdioTransport):
            return {f"env {k}": ref for k, ref in t.env.items()}
        return {f"header {k}": ref for k, ref in t.headers.items()}


@dataclass(frozen=True)
class ToolsConfig:
    """Every configured server, in the order the user sees them."""

    servers: tuple[ServerConfig, ...] = ()

    def get(self, name: str) -> ServerConfig | None:
        return next((s for s in self.servers if s.name == name), None)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.servers]

    @property
    def enabled(self) -> tuple[ServerConfig, ...]:
        return tuple(s for s in self.servers if s.enabled)

    def with_server(self, server: ServerConfig) -> ToolsConfig:
        """This configuration with ``server`` added, or put in place of the one of its name."""
        if self.get(server.name) is None:
            return ToolsConfig((*self.servers, server))
        return ToolsConfig(tuple(server if s.name == server.name else s for s in self.servers))

    def without(self, name: str) -> ToolsConfig:
        return ToolsConfig(tuple(s for s in self.servers if s.name != name))


# --- reading an mcpServers object ---------------------------------------------------------------
def _describe(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{str(value).lower()} (true/false)"
    if isinstance(value, int | float):
        return f"{value!r} (a number)"
    if isinstance(value, str):
        return f"{value!r}" if len(value) <= 60 else f"{value[:57]!r}... (text)"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _child(path: str, key: str | int) -> str:
    if not path:
        return str(key)
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if re.fullmatch(r"[A-Za-z0-9_-]+", key) else f"{path}[{json.dumps(key)}]"


class _Reader:
    """Reads one entry, raising :class:`ToolConfigError` that names ``source`` and the field."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, problem: str) -> ToolConfigError:
        return ToolConfigError(f"{self.source}: {path}: {problem}" if path else f"{self.source}: {problem}")

    def text(self, value: object, path: str, *, empty: bool = False) -> str:
        if not isinstance(value, str):
            raise self.fail(path, f"expected a string, got {_describe(value)}")
        if not empty and not value.strip():
            raise self.fail(path, "must not be empty")
        return value

    def texts(self, value: object, path: str) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise self.fail(path, f"expected a list of strings, got {_describe(value)}")
        return tuple(self.text(v, _child(path, i), empty=True) for i, v in enumerate(value))

    def values(self, value: object, path: str) -> dict[str, str | SecretRef]:
        """An ``env`` / ``headers`` object: plain strings, or keyring references."""
        if not isinstance(value, dict):
            raise self.fail(path, f"expected an object of names and strings, got {_describe(value)}")
        out: dict[str, str | SecretRef] = {}
        for name, v in value.items():
            where = _child(path, name)
            if not name.strip():
                raise self.fail(where, "a name must not be empty")
            if isinstance(v, dict) and set(v) == {"keyring"}:
                out[name] = SecretRef(self.text(v["keyring"], _child(where, "keyring")))
            else:
                out[name] = self.text(v, where, empty=True)
        return out

    def flag(self, value: object, path: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(path, f"expected true or false, got {_describe(value)}")
        return value


@dataclass(frozen=True)
class _Entry:
    """One server as a file has it: values still plain where the file had them plain."""

    name: str
    kind: Literal["stdio", "http", "sse"]
    command: str = ""
    args: tuple[str, ...] = ()
    cwd: str | None = None
    url: str = ""
    values: Mapping[str, str | SecretRef] = field(default_factory=dict)
    enabled: bool = True
    rules: Mapping[str, Approval] = field(default_factory=dict)
    timeout: float = DEFAULT_TIMEOUT_S
    extra: Mapping[str, JsonValue] = field(default_factory=dict)


def _check_url(url: str, r: _Reader, path: str) -> str:
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise r.fail(path, f"expected an http:// or https:// address, got {_describe(url)}")
    if parts.username or parts.password:
        raise r.fail(path, "put credentials in headers (kept in the keyring), not in the address")
    return url.strip()


def _read_entry(name: str, raw: object, path: str, r: _Reader) -> _Entry:
    if not name.strip():
        raise r.fail(path, "a server's name must not be empty")
    if not isinstance(raw, dict):
        raise r.fail(path, f"expected an object (command and args, or url), got {_describe(raw)}")
    declared = raw.get("type")
    if declared is not None:
        declared = _TYPES.get(r.text(declared, _child(path, "type")))
        if declared is None:
            known = ", ".join(sorted(set(_TYPES)))
            raise r.fail(_child(path, "type"), f"unknown transport {_describe(raw['type'])}; known: {known}")
    if "command" in raw and "url" in raw:
        raise r.fail(path, 'has both "command" and "url"; a server is one or the other')
    if "command" in raw:
        kind: Literal["stdio", "http", "sse"] = "stdio"
        if declared not in (None, "stdio"):
            raise r.fail(_child(path, "type"), f'"{raw["type"]}" needs a "url", not a "command"')
    elif "url" in raw:
        kind = "sse" if declared == "sse" else "http"
        if declared == "stdio":
            raise r.fail(_child(path, "type"), '"stdio" needs a "command", not a "url"')
    else:
        raise r.fail(path, 'needs "command" (a program to start) or "url" (a server\'s address)')

    values_key = "env" if kind == "stdio" else "headers"
    wrong_key = "headers" if kind == "stdio" else "env"
    if wrong_key in raw:
        raise r.fail(
            _child(path, wrong_key),
            f"a {'stdio' if kind == 'stdio' else 'remote'} server takes {values_key!r}, not {wrong_key!r}",
        )
    values = r.values(raw[values_key], _child(path, values_key)) if values_key in raw else {}

    enabled = True
    if "enabled" in raw:
        enabled = r.flag(raw["enabled"], _child(path, "enabled"))
    if "disabled" in raw:
        enabled = enabled and not r.flag(raw["disabled"], _child(path, "disabled"))

    rules: dict[str, Approval] = {}
    for key in ("alwaysAllow", "autoApprove"):
        if key in raw:
            for tool in r.texts(raw[key], _child(path, key)):
                rules[tool] = "always"
    if "excludeTools" in raw:
        for tool in r.texts(raw["excludeTools"], _child(path, "excludeTools")):
            rules[tool] = "off"
    if "tools" in raw:
        tools = raw["tools"]
        where = _child(path, "tools")
        if not isinstance(tools, dict):
            raise r.fail(
                where,
                f'expected an object of tool names and "off", "ask" or "always", got {_describe(tools)}',
            )
        for tool, rule in tools.items():
            if rule not in APPROVALS:
                raise r.fail(_child(where, tool), f'expected "off", "ask" or "always", got {_describe(rule)}')
            rules[tool] = cast(Approval, rule)

    timeout = DEFAULT_TIMEOUT_S
    if "timeout" in raw:
        t = raw["timeout"]
        if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t):
            raise r.fail(_child(path, "timeout"), f"expected a number of seconds, got {_describe(t)}")
        if not 0 < t <= MAX_TIMEOUT_S:
            raise r.fail(
                _child(path, "timeout"), f"must be more than 0 and at most {MAX_TIMEOUT_S:g} seconds"
            )
        timeout = float(t)

    extra = {k: cast(JsonValue, v) for k, v in raw.items() if k not in _KNOWN_KEYS}
    entry = _Entry(name, kind, values=values, enabled=enabled, rules=rules, timeout=timeout, extra=extra)
    if kind != "stdio":
        url = _check_url(r.text(raw["url"], _child(path, "url")), r, _child(path, "url"))
        return replace(entry, url=url)
    command = r.text(raw["command"], _child(path, "command"))
    args = r.texts(raw["args"], _child(path, "args")) if "args" in raw else ()
    cwd = r.text(raw["cwd"], _child(path, "cwd")) if raw.get("cwd") is not None else None
    return replace(entry, command=command, args=args, cwd=cwd)


def _read_servers(data: object, source: str) -> list[_Entry]:
    """Every entry of an ``mcpServers`` document, checked; raises on the first problem."""
    r = _Reader(source)
    if not isinstance(data, dict):
        raise r.fail("the file", f'expected a JSON object with "mcpServers", got {_describe(data)}')
    key = "mcpServers" if "mcpServers" in data else "servers" if "servers" in data else None
    if key is None:
        raise r.fail(
            "mcpServers",
            'missing: the file has no "mcpServers" object '
            "(the shape Claude Desktop, Cursor and LM Studio use)",
        )
    servers = data[key]
    if not isinstance(servers, dict):
        raise r.fail(key, f"expected an object of server names and settings, got {_describe(servers)}")
    return [_read_entry(name, raw, _child(key, name), r) for name, raw in servers.items()]


def _parse_json(text: str, source: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ToolConfigError(
            f"{source}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None


def _read_file(path: Path) -> str:
    try:
        return path.read_text("utf-8")
    except UnicodeDecodeError:
        raise ToolConfigError(f"{path.name}: not a UTF-8 text file") from None
    except OSError as exc:
        raise ToolConfigError(f"{path}: cannot be read ({exc.strerror or exc})") from None


# --- making servers (the values go to the keyring) ----------------------------------------------
def make_server(
    name: str,
    *,
    command: str | None = None,
    args: Iterable[str] = (),
    env: Mapping[str, str | SecretRef] | None = None,
    cwd: str | None = None,
    url: str | None = None,
    headers: Mapping[str, str | SecretRef] | None = None,
    kind: Literal["http", "sse"] = "http",
    enabled: bool = True,
    rules: Mapping[str, Approval] | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
) -> tuple[ServerConfig, list[str]]:
    """A server from plain values (a form, an import): each env / header value that is not already
    a reference is stored in the keyring. Returns the server and what the keyring did not keep
    (``"env API_KEY"``: kept for this session only). :class:`ToolConfigError` for bad fields."""
    raw: dict[str, object] = {}
    if command is not None:
        raw.update(command=command, args=list(args), env=_plain(env or {}))
        if cwd is not None:
            raw["cwd"] = cwd
    if url is not None:
        raw.update(url=url, headers=_plain(headers or {}), type=kind)
    raw.update(enabled=enabled, tools=dict(rules or {}), timeout=timeout)
    return _store(_read_entry(name, raw, "", _Reader(f"server {name}")))


def _plain(values: Mapping[str, str | SecretRef]) -> dict[str, object]:
    return {k: {"keyring": v.key} if isinstance(v, SecretRef) else v for k, v in values.items()}


def _store(entry: _Entry, *, keyring: bool = True) -> tuple[ServerConfig, list[str]]:
    """The server of ``entry``, its plain values moved to the keyring (or, without ``keyring``,
    held by this process only, under keys of their own)."""
    place: Place = "env" if entry.kind == "stdio" else "header"
    refs: dict[str, SecretRef] = {}
    session_only: list[str] = []
    for name, value in entry.values.items():
        if isinstance(value, SecretRef):
            refs[name] = value
            continue
        key = vault.key_for(entry.name, place, name)
        if not keyring:
            key = f"run:{key}"
            vault.keep_for_session(key, value)
        elif not vault.store(key, value):
            session_only.append(f"{place} {name}")
        refs[name] = SecretRef(key)
    transport: Transport
    if entry.kind == "stdio":
        transport = StdioTransport(entry.command, entry.args, refs, entry.cwd)
    else:
        transport = HttpTransport(entry.url, refs, entry.kind)
    server = ServerConfig(
        entry.name, transport, entry.enabled, dict(entry.rules), entry.timeout, dict(entry.extra)
    )
    return server, session_only


def remove_server(config: ToolsConfig, name: str) -> ToolsConfig:
    """``config`` without the server ``name``; its keyring values are deleted."""
    server = config.get(name)
    if server is not None:
        _forget_values(server)
    return config.without(name)


def _forget_values(server: ServerConfig) -> None:
    for ref in server.secret_refs().values():
        vault.delete(ref.key)


# --- import ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ImportReport:
    """What an import did."""

    #: the configuration with the imported servers added (not yet saved: :func:`save_config`)
    config: ToolsConfig
    #: the imported servers' names, as they are now called
    added: list[str]
    #: servers renamed because a server of that name existed: file name -> new name
    renamed: dict[str, str]
    #: values the keyring did not keep (``"files: env API_KEY"``): they work in this session only
    session_only: list[str]


def import_mcp_servers(
    source: Path | str,
    config: ToolsConfig,
    *,
    replace_existing: bool = False,
    text: str | None = None,
) -> ImportReport:
    """Add the servers of an ``mcpServers`` file (``source``: its path; or ``text`` with ``source``
    naming it in errors). The whole file is checked first: a :class:`ToolConfigError` names the
    field and nothing changes. A server whose name exists replaces it when ``replace_existing``
    (its old keyring values are deleted), else is added as ``name-2``."""
    label = Path(source).name if text is None else str(source)
    raw = _read_file(Path(source)) if text is None else text
    entries = _read_servers(_parse_json(raw, label), label)
    taken = set(config.names)
    renamed: dict[str, str] = {}
    out = config
    added: list[str] = []
    session_only: list[str] = []
    for entry in entries:
        name = entry.name
        old = out.get(name)
        if old is not None and replace_existing:
            _forget_values(old)  # the new entry takes its place (and its position)
        elif name in taken:
            n = 2
            while f"{name}-{n}" in taken:
                n += 1
            renamed[name] = f"{name}-{n}"
            entry = replace(entry, name=f"{name}-{n}")
        taken.add(entry.name)
        server, lost = _store(entry)
        session_only += [f"{entry.name}: {what}" for what in lost]
        out = out.with_server(server)
        added.append(entry.name)
    return ImportReport(out, added, renamed, session_only)


def read_mcp_servers(path: Path) -> ToolsConfig:
    """The servers of an ``mcpServers`` file for one run (``tandem generate --mcp-config``): its
    values stay in this process, nothing goes to the keyring or to Tandem's stored file.
    :class:`ToolConfigError` names the field of a file that cannot be read."""
    entries = _read_servers(_parse_json(_read_file(path), path.name), path.name)
    return ToolsConfig(tuple(_store(entry, keyring=False)[0] for entry in entries))


# --- export -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class ExportResult:
    #: the ``mcpServers`` document
    data: dict[str, JsonValue]
    #: values written empty (``"files: env API_KEY"``): secrets left out, or none in the keyring
    left_out: list[str]


def _entry_json(server: ServerConfig, values: Mapping[str, JsonValue], *, own: bool) -> dict[str, JsonValue]:
    t = server.transport
    out: dict[str, JsonValue] = {}
    if isinstance(t, StdioTransport):
        out["command"] = t.command
        out["args"] = list(t.args)
        if values:
            out["env"] = dict(values)
        if t.cwd is not None:
            out["cwd"] = t.cwd
    else:
        if t.kind == "sse":
            out["type"] = "sse"
        out["url"] = t.url
        if values:
            out["headers"] = dict(values)
    if own:
        out["enabled"] = server.enabled
        if server.rules:
            out["tools"] = dict(server.rules)
    else:
        if not server.enabled:
            out["disabled"] = True
        always = sorted(t for t, rule in server.rules.items() if rule == "always")
        if always:
            out["alwaysAllow"] = list(always)
        off = sorted(t for t, rule in server.rules.items() if rule == "off")
        if off:
            out["excludeTools"] = list(off)
    if server.timeout != DEFAULT_TIMEOUT_S:
        out["timeout"] = server.timeout
    for k, v in server.extra.items():
        out.setdefault(k, v)
    return out


def export_mcp_servers(config: ToolsConfig, *, include_secrets: bool) -> ExportResult:
    """The servers as an ``mcpServers`` document other clients read. With ``include_secrets`` the
    env and header values are read from the keyring and written in the clear (the file is then a
    secret itself); without, they are written empty. ``left_out`` lists every value written empty."""
    servers: dict[str, JsonValue] = {}
    left_out: list[str] = []
    for server in config.servers:
        values: dict[str, JsonValue] = {}
        for what, ref in server.secret_refs().items():
            name = what.split(" ", 1)[1]
            value = ref.value() if include_secrets else None
            if value is None:
                left_out.append(f"{server.name}: {what}")
            values[name] = value or ""
        servers[server.name] = _entry_json(server, values, own=False)
    return ExportResult({"mcpServers": servers}, left_out)


def write_mcp_servers(config: ToolsConfig, path: Path, *, include_secrets: bool) -> list[str]:
    """Write :func:`export_mcp_servers` to ``path`` (readable by its owner only when it holds
    secrets); returns the values written empty."""
    result = export_mcp_servers(config, include_secrets=include_secrets)
    secret = include_secrets and any(s.secret_refs() for s in config.servers)
    _write_atomic(path, json.dumps(result.data, indent=2, ensure_ascii=False) + "\n", private=secret)
    return result.left_out


# --- Tandem's stored file -----------------------------------------------------------------------
def config_path() -> Path:
    """Where Tandem keeps its MCP servers (references only; values are in the keyring)."""
    return paths.config_dir() / "mcp.json"


def load_config(path: Path | None = None) -> ToolsConfig:
    """The stored servers; none when the file does not exist. A file that cannot be read raises
    :class:`ToolConfigError` naming the field, and is left as it is (nothing is lost: fix it, or
    import the servers again). Values written into it by hand are moved to the keyring and the
    file rewritten with references, when the keyring keeps them all."""
    file = path or config_path()
    if not file.is_file():
        return ToolsConfig()
    data = _parse_json(_read_file(file), file.name)
    if isinstance(data, dict) and isinstance(data.get("version"), int) and data["version"] > FILE_VERSION:
        log.warning(
            "%s is from a newer Tandem (version %s); reading what this one knows", file, data["version"]
        )
    entries = _read_servers(data, file.name)
    plain = any(not isinstance(v, SecretRef) for e in entries for v in e.values.values())
    servers: list[ServerConfig] = []
    kept_all = True
    for entry in entries:
        server, lost = _store(entry)
        kept_all = kept_all and not lost
        servers.append(server)
    config = ToolsConfig(tuple(servers))
    if plain and kept_all:
        log.warning("moved values written into %s to the keyring; the file now holds references", file)
        save_config(config, file)
    elif plain:
        log.warning("%s holds values the keyring cannot keep; left as it is", file)
    return config


def save_config(config: ToolsConfig, path: Path | None = None) -> None:
    """Store ``config`` (write-then-move: a crash leaves the old file or the new one, whole)."""
    servers: dict[str, JsonValue] = {}
    for server in config.servers:
        refs = server.secret_refs()
        values: dict[str, JsonValue] = {
            what.split(" ", 1)[1]: {"keyring": ref.key} for what, ref in refs.items()
        }
        servers[server.name] = _entry_json(server, values, own=True)
    doc: dict[str, JsonValue] = {"version": FILE_VERSION, "mcpServers": servers}
    _write_atomic(path or config_path(), json.dumps(doc, indent=1, ensure_ascii=False) + "\n", private=False)


def _write_atomic(path: Path, text: str, *, private: bool) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    if private:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        tmp.write_text(text, "utf-8")
    os.replace(tmp, path)
