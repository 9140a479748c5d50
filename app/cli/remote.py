"""Remote-server subcommands and the ``--engine remote --endpoint URL`` path of generate/parity/bench.

- ``tandem serve-command NAME --engine vllm|sglang|llama-server`` prints a server command line
  with the speculative config translated from the registry's drafter declaration.
- ``tandem remote-models --endpoint URL`` lists what a server serves (GET /v1/models).
- ``tandem endpoint-key set|delete --endpoint URL`` stores the endpoint's API key in the keyring
  (read from standard input, never from a command-line argument).

The API key of a run comes from ``TANDEM_API_KEY`` or the keyring entry of the endpoint.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from typing import Any

from app.core.engines.base import Finished
from app.core.launch.plan import LaunchError
from app.core.registry import Registry

ENGINE = "remote"


def add_remote_args(p: argparse.ArgumentParser, bench_like: bool) -> None:
    g = p.add_argument_group("remote server (--engine remote)")
    g.add_argument(
        "--endpoint",
        help="OpenAI API root of your server, e.g. https://gpu-box:8000/v1 "
        "(key from TANDEM_API_KEY or `tandem endpoint-key set`)",
    )
    g.add_argument(
        "--allow-http", action="store_true", help="allow plain HTTP to an endpoint that is not this machine"
    )
    g.add_argument(
        "--model", dest="remote_model", help="the server's model id (default: NAME, else its only model)"
    )
    if bench_like:
        g.add_argument(
            "--baseline-endpoint",
            help="a server of the same model without speculation, measured as the spec-off side",
        )


def _endpoint(url: str | None, allow_http: bool, flag: str = "--endpoint") -> Any:
    from app.core.engines.remote.endpoints import Endpoint

    if not url:
        raise LaunchError(
            f"--engine remote needs {flag} URL (the server's OpenAI API root, e.g. http://127.0.0.1:8080/v1)"
        )
    return Endpoint.parse(url, allow_http=allow_http)


#: model flags that choose local files or local speculation: the server's own config decides there
_LOCAL_ONLY = {
    "model_path": "--model-path",
    "draft_model_path": "--draft-model-path",
    "spec_method": "--spec-method",
    "draft_tokens": "--draft-tokens",
    "draft_quant": "--draft-quant",
    "fmt": "--format",
    "size": "--size",
    "quant": "--quant",
    "hub": "--hub",
    "spec": "--spec",
    "threads": "--threads",
}


def resolve_remote(args: argparse.Namespace, spec_on: bool) -> tuple[str, Any]:
    """("remote", RemoteLoadRequest) for generate/parity/bench; spec-off uses --baseline-endpoint."""
    from app.core.engines.remote.endpoints import resolve_api_key
    from app.core.engines.remote.engine import RemoteLoadRequest

    given = [flag for attr, flag in _LOCAL_ONLY.items() if getattr(args, attr, None) not in (None, False)]
    if given:
        raise LaunchError(
            f"{', '.join(given)} do not apply to --engine remote: the server's own launch settings decide "
            "(see `tandem serve-command`)"
        )
    url = args.endpoint
    flag = "--endpoint"
    if hasattr(args, "baseline_endpoint") and not spec_on:
        url, flag = args.baseline_endpoint, "--baseline-endpoint"
        if not url:
            raise LaunchError(
                "a remote server's speculative config is fixed when it starts, so the spec-off side needs a "
                "second server of the same model without a drafter: give it with --baseline-endpoint URL"
            )
    endpoint = _endpoint(url, args.allow_http, flag)
    model = args.remote_model or args.name or ""
    return ENGINE, RemoteLoadRequest(model, endpoint=endpoint, api_key=resolve_api_key(endpoint.url))


def json_fields(fin: Finished | None) -> dict[str, Any]:
    """Extra/overriding JSON fields of a remote answer: acceptance as reported, None when not."""
    from app.core.engines.remote.engine import RemoteFinished

    if not isinstance(fin, RemoteFinished):
        return {}
    return {
        "model": fin.model,
        "method": fin.method,
        "method_source": fin.method_source,
        "draft_depth": fin.draft_depth,
        "speculation": None
        if fin.drafted is None and fin.accepted is None
        else bool(fin.drafted or fin.accepted),
        "drafted_total": fin.drafted,
        "accepted_total": fin.accepted,
        "acceptance_source": fin.acceptance_source,
        "acceptance_note": fin.acceptance_note or None,
        "server_kind": fin.server_kind,
        "interrupted": fin.interrupted,
    }


# --- subcommands ------------------------------------------------------------------------------------
def add_subcommands(sub: Any) -> None:
    from app.core.serving.serve_command import REFUSED_ENGINES, SERVER_ENGINES

    p = sub.add_parser("serve-command", help="print a vLLM / SGLang / llama-server command with the drafter")
    p.add_argument("name", help="registry name, e.g. gemma-4")
    p.add_argument("--engine", required=True, choices=[*SERVER_ENGINES, *REFUSED_ENGINES])
    p.add_argument("--size", help="size in billions or a label such as E4B")
    p.add_argument("--quant", help="GGUF quantization (llama-server)")
    p.add_argument("--format", dest="fmt", choices=["gguf", "mlx"])
    p.add_argument(
        "--hub",
        choices=["huggingface", "modelscope", "local"],
        help="llama-server: where the files come from",
    )
    p.add_argument("--draft-quant", help="drafter quantization (llama-server)")
    p.add_argument("--draft-tokens", help="tokens per round (default: Gemma 4 size table, else the server's)")
    p.add_argument("--native", help="engine-native options as JSON; an explicit speculative config wins")
    p.add_argument("--model-id", help="vllm/sglang: Hugging Face checkpoint of the target")
    p.add_argument("--draft-model-id", help="vllm/sglang: Hugging Face checkpoint of a classic draft model")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_serve_command)

    p = sub.add_parser("remote-models", help="list the models an OpenAI-compatible server serves")
    p.add_argument("--endpoint", required=True)
    p.add_argument("--allow-http", action="store_true")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_remote_models)

    p = sub.add_parser(
        "endpoint-key", help="store or delete a server's API key in the keyring (key read from stdin)"
    )
    p.add_argument("action", choices=["set", "delete"])
    p.add_argument("--endpoint", required=True)
    p.set_defaults(func=cmd_endpoint_key)


def cmd_serve_command(args: argparse.Namespace) -> int:
    from app.core.serving.serve_command import ServeCommandError, build

    try:
        cmd = build(
            Registry.load(),
            args.name,
            args.engine,
            size=args.size,
            quant=args.quant,
            fmt=args.fmt,
            draft_quant=args.draft_quant,
            draft_tokens=args.draft_tokens,
            native=args.native,
            model_id=args.model_id,
            draft_model_id=args.draft_model_id,
            hub=args.hub,
        )
    except ServeCommandError as exc:
        raise LaunchError(f"serve-command: {exc}") from None
    if args.json:
        print(json.dumps({"engine": cmd.engine, "argv": cmd.argv, "comments": cmd.comments,
                          "speculative": cmd.speculative, "native": cmd.native}))  # fmt: skip
    else:
        print(cmd.shell())
    return 0


def cmd_remote_models(args: argparse.Namespace) -> int:
    from app.core.engines.remote.endpoints import resolve_api_key
    from app.core.engines.remote.engine import list_models, server_kind

    endpoint = _endpoint(args.endpoint, args.allow_http)
    models = list_models(endpoint, resolve_api_key(endpoint.url))
    if args.json:
        print(
            json.dumps(
                [{"id": m.id, "owned_by": m.owned_by, "server": server_kind(m.owned_by)} for m in models]
            )
        )
    else:
        for m in models:
            print(f"{m.id}\t{server_kind(m.owned_by)}")
    return 0


def cmd_endpoint_key(args: argparse.Namespace) -> int:
    from app.core.engines.remote.endpoints import delete_api_key, normalize_url, set_api_key

    url = normalize_url(args.endpoint)
    if args.action == "delete":
        print("deleted" if delete_api_key(url) else "no key was stored", file=sys.stderr)
        return 0
    from keyring.errors import KeyringError

    key = getpass.getpass(f"API key for {url}: ") if sys.stdin.isatty() else sys.stdin.readline()
    try:
        set_api_key(url, key)
    except KeyringError as exc:
        raise LaunchError(
            f"the OS keyring cannot store the key ({type(exc).__name__}); use TANDEM_API_KEY"
        ) from None
    print(f"stored the key for {url} in the keyring", file=sys.stderr)
    return 0
