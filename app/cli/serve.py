"""``tandem serve``: the loaded model as a local OpenAI- and Anthropic-compatible API server (headless).

The key comes from ``TANDEM_API_KEY``, else the keyring entry the GUI shows (generated on first
use). The server binds 127.0.0.1 unless ``--host`` names another address, which needs
``--allow-remote`` too and prints a warning.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, replace
from typing import Any

from app.cli import auto as cli_auto
from app.cli import stopping
from app.cli.common import add_model_args, max_tokens_arg, progress_printer, resolve, whole_number
from app.core.engines.base import Engine, LoadRequest
from app.core.launch.plan import LaunchError, load_engine
from app.core.pool.pool import EnginePool
from app.core.pool.pool_types import PoolConfig, standard_configurations
from app.core.serving.served import ServedModel


def add_subcommands(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "serve", help="serve the model over OpenAI- and Anthropic-compatible APIs on this machine"
    )
    add_model_args(p, bench_like=False)
    g = p.add_argument_group("server")
    g.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)"
    )
    g.add_argument(
        "--allow-remote", action="store_true", help="needed to bind an address other than loopback"
    )
    g.add_argument("--port", type=whole_number("--port", 0, 65535), default=8080, help="0 picks a free port")
    g.add_argument("--max-waiting", type=whole_number("--max-waiting", 0, 1000), default=16,
                   help="requests that may wait their turn; one more gets 429 (default 16)")  # fmt: skip
    g.add_argument("--parallel", type=whole_number("--parallel", 1, 64), default=4,
                   help="requests a llama.cpp model answers at once, one a slot (default 4)")  # fmt: skip
    g.add_argument("--pool-idle", type=whole_number("--pool-idle", 1, 86400), default=300,
                   help="seconds before a configuration started for a request (tandem.speculation) "
                   "stops when unused (default 300)")  # fmt: skip
    g.add_argument("--max-body", type=whole_number("--max-body", 1024), default=1_000_000,
                   help="largest request body in bytes")  # fmt: skip
    g.add_argument("--cors-origin", action="append", default=[], help="allow browser calls from this origin")
    g.add_argument(
        "--tool-parser", help="tool-call format: gemma4, hermes, qwen, llama3 (default: the family's)"
    )
    g.add_argument(
        "--max-tokens-limit",
        type=max_tokens_arg,
        default=8192,
        help="the most tokens one answer may take (default 8192); Anthropic requests asking more are "
        "held to it, OpenAI requests refused",
    )
    # a request that names no max_tokens runs until the answer ends or the context is full,
    # unless --max-tokens says otherwise
    p.set_defaults(func=cmd_serve, max_tokens=None)
    return p


@dataclass
class _Model:
    """One loaded model of ``tandem serve``: what the server serves, and what to close."""

    model: ServedModel
    engine: Engine
    pool: EnginePool | None
    request: LoadRequest
    router: Any = None

    def close(self) -> None:
        if self.pool is not None:
            self.pool.stop_loading()  # a request waiting for a configuration's load ends now
            self.pool.close()
        self.engine.close()


def _load(args: argparse.Namespace, progress: Any) -> _Model:
    """Load the model the arguments name, with its pool (llama.cpp), as the server serves it."""
    from app.core.serving.model import served_model

    spec_on = args.spec == "on" or (args.spec is None and bool(args.draft_model_path or args.spec_method))
    # --spec auto serves Auto's stored choice, measuring first when there is none (as generate does)
    resolved = (
        cli_auto.resolve_auto(args, measure_now=False) if args.spec == "auto" else resolve(args, spec_on)
    )
    if resolved.engine == "remote":
        raise LaunchError("tandem serve runs a local engine; --engine remote is not served")
    family = resolved.family
    pooled = resolved.engine == "llama.cpp"
    parallel = args.parallel if pooled else 1
    request = replace(resolved.request, n_parallel=parallel)
    engine = load_engine(resolved.engine, request, progress)
    pool: EnginePool | None = None
    try:
        model = served_model(
            engine,
            request.model_path,
            family.name if family else None,
            family.tool_parser if family else None,
            request.chat_template,
            args.tool_parser,
        )
        router = None
        if pooled:
            configurations = standard_configurations(resolved.drafter_pair)
            router = cli_auto.request_router(args) if args.spec == "auto" else None
            if router is not None:
                configurations.update(router.configurations())
            pool = EnginePool(
                engine,
                request,
                lambda r, progress: load_engine(resolved.engine, r, progress),
                configurations,
                PoolConfig(slots=parallel, idle_s=args.pool_idle),
                route=router,
            )
            model = replace(model, pool=pool)
    except BaseException:
        if pool is not None:
            pool.close()
        engine.close()
        raise
    return _Model(model, engine, pool, request, router)


def _server_config(args: argparse.Namespace, parallel: int) -> Any:
    from app.core.serving import ServerConfig, api_key
    from app.core.serving.protocol import Limits

    limit = args.max_tokens_limit
    if args.max_tokens is not None and args.max_tokens > limit:
        raise LaunchError(f"--max-tokens {args.max_tokens} is more than --max-tokens-limit {limit}")
    limits = Limits(max_body_bytes=args.max_body, max_tokens=limit, default_max_tokens=args.max_tokens)
    return ServerConfig(
        api_key(),
        args.host,
        args.port,
        args.max_waiting,
        limits=limits,
        cors_origins=tuple(args.cors_origin),
        parallel=parallel,
    )


def cmd_serve(args: argparse.Namespace) -> int:
    from app.core.serving import LocalServer, is_loopback

    if not is_loopback(args.host) and not args.allow_remote:
        raise LaunchError(
            f"--host {args.host} would let other machines use the model; add --allow-remote to do that"
        )
    config = _server_config(args, 1)
    loaded = _load(args, progress_printer(args))
    model, pool = loaded.model, loaded.pool
    parallel = loaded.request.n_parallel
    config = replace(config, parallel=parallel)
    try:
        router = loaded.router
        if router is not None and not args.json:
            how = "measured here" if router.measured else "Auto's first guess until `tandem calibrate`"
            print(f"… auto per request ({how}): {router.describe()}", file=sys.stderr, flush=True)
        server = LocalServer(model, config, on_request=lambda r: log_request(r, args.json))
        server.start()
    except BaseException:
        loaded.close()
        raise
    signals = stopping.current()
    try:
        # From here Ctrl-C and SIGTERM stop the server (app.cli.stopping): the first ends the wait
        # below and the server stops in `finally`; a second one while it stops exits at once.
        with signals.handled():
            say_listening(args, server)
            method = model.running
            print(
                f"tandem: serving {model.model_id} at {server.address} (speculation {method}; context "
                f"{loaded.request.n_ctx} tokens; {parallel} at once; key from {key_source_text()})",
                file=sys.stderr,
                flush=True,
            )
            say_clients(server)
            if pool is not None:
                others = ", ".join(o.name for o in pool.offers() if not o.is_auto and o != method)
                print(
                    f"tandem: per request (tandem.speculation): auto, {method} (loaded), or {others} "
                    "(started on first use beside it, sharing the model's memory)",
                    file=sys.stderr,
                    flush=True,
                )
            say_key(server)
            signals.wait()
    finally:
        if pool is not None:
            pool.stop_loading()  # a request waiting for a configuration's load ends now
        server.stop()
        if pool is not None:
            print_pool(pool)
        loaded.close()
    print("tandem: server stopped", file=sys.stderr)
    return 0


def say_listening(args: argparse.Namespace, server: Any) -> None:
    from app.core.serving import is_loopback

    if not is_loopback(args.host):
        print(f"warning: listening on {args.host}: other machines can reach this server "
              "(every request still needs the key)", file=sys.stderr)  # fmt: skip


def say_clients(server: Any) -> None:
    root = server.address.removesuffix("/v1")
    print(
        f"tandem: OpenAI clients: OPENAI_BASE_URL={server.address} (chat/completions, responses); "
        f"Claude Code: ANTHROPIC_BASE_URL={root} (messages)",
        file=sys.stderr,
        flush=True,
    )


def key_source_text() -> str:
    from app.core.serving.keys import key_source

    return {"env": "TANDEM_API_KEY", "keyring": "the keyring", "session": "this session only"}[key_source()]


def say_key(server: Any) -> None:
    from app.core.serving.keys import key_source

    if key_source() != "env":
        print(f"tandem: API key: {server.config.api_key}", file=sys.stderr, flush=True)
    print("tandem: press Ctrl-C to stop", file=sys.stderr, flush=True)


def print_pool(pool: EnginePool) -> None:
    """What each configuration served, and its speed against plain decoding when both served."""
    status = pool.status()
    for label, stats in status.stats.items():
        tps = "-" if stats.decode_tps is None else f"{stats.decode_tps:.1f}"
        speedup = status.speedup(label)
        vs = "" if speedup is None or label == "off" else f", {speedup:.2f}x of off"
        print(f"tandem: {label}: {stats.requests} requests, {tps} tok/s{vs}", file=sys.stderr, flush=True)


def log_request(r: Any, as_json: bool, with_model: bool = False) -> None:
    import json
    from dataclasses import asdict

    if as_json:
        print(json.dumps(asdict(r)), flush=True)
        return
    if r.context_tokens:
        print(
            f"{r.client} refused: the prompt ({r.prompt_tokens} tokens) does not fit the context "
            f"({r.context_tokens} tokens); restart with a larger --ctx",
            flush=True,
        )
        return
    acc = "-" if r.acceptance_rate is None else f"{r.acceptance_rate:.0%}"
    mal = "-" if r.mean_accepted_length is None else f"{r.mean_accepted_length:.2f}"
    tps = "-" if r.decode_tps is None else f"{r.decode_tps:.1f}"
    kind = ("stream" if r.stream else "single") + (f" [{r.configuration}]" if r.configuration else "")
    if r.model and with_model:
        kind = f"{r.model} {kind}"
    calls = f", {r.tool_calls} tool calls" if r.tool_calls else ""
    print(
        f"{r.client} {r.status} {kind}: {r.prompt_tokens}+{r.completion_tokens} tokens, {tps} tok/s, "
        f"drafted {r.drafted} accepted {r.accepted} ({acc}), {r.rounds} rounds, {mal} tok/round{calls}",
        flush=True,
    )
