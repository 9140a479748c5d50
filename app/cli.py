"""Headless subcommands: models, register, unregister, download, delete, generate, parity, bench.

The contract is in ARCHITECTURE.md ("CLI contract"); tests and benchmarks drive Tandem through it.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

from app import cli_cache, cli_catalog, cli_remote
from app.core import assets
from app.core.cache.errors import CacheError
from app.core.engines.base import CancelToken, EngineError, Finished, LoadRequest, Round, Sampling, TextDelta
from app.core.launch import (
    DEFAULT_MODEL,
    LaunchError,
    check_speculation,
    load_engine,
    make_options,
    pick_engine,
    thread_count_notice,
)
from app.core.registry import Registry, RegistryError, format_template
from app.core.speculative import SpeculationError

log = logging.getLogger("tandem")


def _add_model_args(p: argparse.ArgumentParser, bench_like: bool) -> None:
    p.add_argument("name", nargs="?", help=f"registry name (default: {DEFAULT_MODEL[0]})")
    p.add_argument("--format", dest="fmt", choices=["gguf", "mlx"])
    p.add_argument("--size", help="size in billions or a label such as E2B")
    p.add_argument("--quant", help="target quantization")
    p.add_argument(
        "--hub", default=None, choices=["huggingface", "modelscope", "local"], help="default: the spec's own"
    )
    p.add_argument("--model-path", help="a local model file (gguf) or folder (mlx) instead of NAME")
    p.add_argument("--draft-model-path", help="a local drafter; implies --spec on --spec-method draft")
    p.add_argument("--engine", choices=["llama.cpp", "mlx", "remote"])
    cli_remote.add_remote_args(p, bench_like)
    if not bench_like:
        p.add_argument("--spec", choices=["on", "off"], default=None, help="speculative decoding")
    p.add_argument(
        "--spec-method",
        default=None,
        help="draft, mtp, ngram-mod, ngram-cache, ngram-simple, ngram-map-k, ngram-map-k4v",
    )
    p.add_argument("--draft-quant", help="drafter quantization (declared drafters)")
    p.add_argument("--draft-tokens", help="tokens per round (default: the engine's)")
    p.add_argument("--ctx", type=int, default=4096, help="context length")
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--max-tokens", type=int, default=128 if bench_like else 256)
    p.add_argument("--json", action="store_true", help="machine-readable output")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tandem", description="Local LLM chat, faster through speculative decoding"
    )
    parser.add_argument("-v", "--verbose", action="store_true")
    sub = parser.add_subparsers(dest="command")

    p = sub.add_parser("models", help="list the registry with cache status")
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--hub", default=None, choices=["huggingface", "modelscope", "local"], help="default: each spec's own"
    )
    p.set_defaults(func=cmd_models)

    p = sub.add_parser("register", help="register a user family from a JSON file")
    p.add_argument("file", type=Path)
    p.add_argument("--replace", action="store_true", help="replace an existing registration")
    p.set_defaults(func=cmd_register)

    p = sub.add_parser("unregister", help="remove a user family")
    p.add_argument("name")
    p.set_defaults(func=cmd_unregister)

    p = sub.add_parser("generate", help="answer one prompt")
    _add_model_args(p, bench_like=False)
    p.add_argument("--prompt", required=True)
    p.add_argument("--system", default=None)
    p.add_argument("--temperature", type=float, default=0.0)
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser("parity", help="spec-off vs spec-on greedy output, token by token")
    _add_model_args(p, bench_like=True)
    p.add_argument("--prompts", type=Path, required=True, help="text file, one prompt per line")
    p.set_defaults(func=cmd_parity)

    p = sub.add_parser("bench", help="spec-off vs spec-on decode speed in one run")
    _add_model_args(p, bench_like=True)
    p.add_argument("--prompts", type=Path, required=True, help="text file, one prompt per line")
    p.add_argument("--repeats", type=int, default=1)
    p.set_defaults(func=cmd_bench)

    cli_cache.add_subcommands(sub)
    cli_remote.add_subcommands(sub)
    cli_catalog.add_subcommands(sub)
    return parser


# --- resolution ------------------------------------------------------------------------------------
def resolve(args: argparse.Namespace, spec_on: bool) -> tuple[str, LoadRequest]:
    """(engine, LoadRequest) for the model arguments, with speculation on or off."""
    if args.engine == "remote":
        return cli_remote.resolve_remote(args, spec_on)
    method = args.spec_method
    options = make_options(
        enabled=spec_on,
        method=method,
        draft_quantization=args.draft_quant,
        num_speculative_tokens=args.draft_tokens,
        draft_model_path=args.draft_model_path if spec_on else None,
    )
    if args.model_path:
        if args.name:
            raise LaunchError("give either NAME or --model-path, not both")
        path = Path(args.model_path)
        engine = args.engine or ("mlx" if path.is_dir() else "llama.cpp")
        if spec_on and options.needs_drafter and not options.draft_model_path:
            raise LaunchError(f"--spec-method {options.method} needs --draft-model-path with --model-path")
        return engine, LoadRequest(str(path), options, n_ctx=args.ctx, n_threads=args.threads)

    registry = Registry.load()
    name = args.name or DEFAULT_MODEL[0]
    size = args.size if args.name else (args.size or DEFAULT_MODEL[2])
    fmt = args.fmt or (None if args.name else DEFAULT_MODEL[1])
    quant = args.quant or (None if args.name else DEFAULT_MODEL[3])
    family, spec, quant = registry.match(name, fmt, size, quant)
    engine = pick_engine(spec, args.engine)
    options = check_speculation(family, spec, engine, options)
    want_drafter = options.needs_drafter and not options.draft_model_path
    say = _progress(args)
    local = spec.sources.local
    if (
        say
        and local is not None
        and assets.needs_preparation(format_template(local.path, "sources.local.path", quantization=quant))
    ):
        say("preparing the embedded model once (this takes a moment)")
    target, drafter = cli_cache.resolve_cached_model(
        registry, name, spec.format, spec.size_label, quant, args.hub, want_drafter, args.draft_quant
    )
    if drafter is not None:
        options = options.with_drafter(str(drafter))
    req = LoadRequest(
        str(target),
        options,
        n_ctx=min(args.ctx, family.context_length),
        n_threads=args.threads,
        chat_template=family.chat_template,
        family_name=family.name,
        size_in_billions=spec.size_in_billions,
    )
    return engine, req


def _note_threads(engine: str, req: LoadRequest) -> None:
    notice = thread_count_notice(engine, req.n_threads)
    if notice:
        print(f"note: --threads: {notice}", file=sys.stderr)


def _progress(args: argparse.Namespace) -> Any:
    quiet = getattr(args, "json", False)
    return None if quiet else (lambda msg: print(f"… {msg}", file=sys.stderr, flush=True))


def _prompts(path: Path) -> list[str]:
    lines = [ln.strip() for ln in path.read_text("utf-8").splitlines()]
    prompts = [ln.replace("\\n", "\n") for ln in lines if ln and not ln.startswith("#")]
    if not prompts:
        raise LaunchError(f"{path} has no prompts (one per line; '#' starts a comment)")
    return prompts


# --- commands ----------------------------------------------------------------------------------------
def cmd_models(args: argparse.Namespace) -> int:
    registry = Registry.load()
    if args.json:
        print(json.dumps(cli_cache.models_json(registry, args.hub), indent=1))
        return 0
    print(cli_cache.models_table(registry, args.hub))
    for bad in registry.invalid:
        print(f"invalid user family {bad.name} ({bad.source}): {bad.reason}", file=sys.stderr)
    return 0


def cmd_register(args: argparse.Namespace) -> int:
    try:
        data = json.loads(args.file.read_text("utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise RegistryError(f"{args.file}: cannot read JSON ({exc})") from exc
    registry = Registry.load()
    fam = registry.register(data, replace=args.replace)
    print(f"registered {fam.name} ({len(fam.specs)} spec{'s' if len(fam.specs) != 1 else ''})")
    return 0


def cmd_unregister(args: argparse.Namespace) -> int:
    Registry.load().unregister(args.name)
    print(f"unregistered {args.name}")
    return 0


def _stats_line(fin: Finished) -> str:
    parts = [f"{fin.completion_tokens} tokens", f"{fin.decode_tps:.1f} tok/s"]
    if fin.drafted_total:
        rate = fin.accepted_total / fin.drafted_total
        parts.append(f"acceptance {rate:.0%} ({fin.accepted_total}/{fin.drafted_total})")
    parts.append(f"{fin.rounds} rounds")
    return ", ".join(parts)


def cmd_generate(args: argparse.Namespace) -> int:
    spec_on = args.spec == "on" or (args.spec is None and bool(args.draft_model_path or args.spec_method))
    engine_name, req = resolve(args, spec_on)
    _note_threads(engine_name, req)
    engine = load_engine(engine_name, req, _progress(args))
    messages = []
    if args.system:
        messages.append({"role": "system", "content": args.system})
    messages.append({"role": "user", "content": args.prompt})
    sampling = Sampling(temperature=args.temperature, max_tokens=args.max_tokens)
    cancel = CancelToken()
    pieces: list[str] = []
    rounds: list[dict[str, int]] = []
    fin: Finished | None = None
    interrupted = False
    failed: EngineError | None = None
    try:
        for ev in engine.generate(messages, sampling, cancel):  # type: ignore[arg-type]
            if isinstance(ev, TextDelta):
                pieces.append(ev.text)
                if not args.json:
                    sys.stdout.write(ev.text)
                    sys.stdout.flush()
            elif isinstance(ev, Round):
                rounds.append({"drafted": ev.drafted, "accepted": ev.accepted, "emitted": ev.emitted})
            elif isinstance(ev, Finished):
                fin = ev
    except KeyboardInterrupt:  # Ctrl-C: keep what was produced, say it was cancelled
        cancel.cancel()
        interrupted = True
    except EngineError as exc:  # failed after its Finished (a remote stream cut): keep the partial answer
        if fin is None:
            raise
        failed = exc
    finally:
        engine.close()
    if fin is None:
        tokens = sum(r["emitted"] for r in rounds)
        fin = Finished("cancelled", 0, tokens, 0.0, 0.0, sum(r["drafted"] for r in rounds),
                       sum(r["accepted"] for r in rounds), len(rounds))  # fmt: skip
    if args.json:
        print(
            json.dumps(
                {
                    "engine": engine_name,
                    "model": req.model_path,
                    "drafter": req.speculation.draft_model_path,
                    "speculation": spec_on,
                    # the method the engine runs (a recognised Gemma 4 assistant runs as mtp)
                    "method": (getattr(engine, "spec_kind", None) or req.speculation.method)
                    if spec_on
                    else None,
                    "text": "".join(pieces),
                    "finish_reason": fin.reason,
                    "completion_token_ids": fin.token_ids,
                    "prompt_tokens": fin.prompt_tokens,
                    "completion_tokens": fin.completion_tokens,
                    "decode_tokens_per_second": round(fin.decode_tps, 2),
                    "drafted_total": fin.drafted_total,
                    "accepted_total": fin.accepted_total,
                    "rounds": fin.rounds,
                    "round_details": rounds,
                    **cli_remote.json_fields(fin),
                }
            )
        )
    else:
        print()
        print(_stats_line(fin) + (" (interrupted)" if interrupted else ""), file=sys.stderr)
    if failed is not None:
        print(f"tandem: {failed.user_message()}", file=sys.stderr)
        return 3
    return 130 if interrupted else 0


def _loader(args: argparse.Namespace) -> Any:
    # resolve both sides up front, so a bad pair fails before any model is loaded
    resolved = {False: resolve(args, False), True: resolve(args, True)}
    _note_threads(*resolved[False])

    def load(spec_on: bool) -> Any:
        engine_name, req = resolved[spec_on]
        return load_engine(engine_name, req, _progress(args))

    return load


def cmd_parity(args: argparse.Namespace) -> int:
    from app.core.bench import parity

    results = parity(_loader(args), _prompts(args.prompts), args.max_tokens)
    bad = [r for r in results if not r.identical]
    if args.json:
        for r in results:
            print(json.dumps(r.to_json()))
    else:
        for r in results:
            status = "identical" if r.identical else f"DIVERGES at token {r.first_difference}"
            print(f"[{status}] ({r.compared}; {r.tokens_off} vs {r.tokens_on} tokens) {r.prompt[:60]!r}")
            if not r.identical:
                print(f"    spec-off token: {r.off_token!r}   spec-on text there: {r.on_text!r}")
                if r.candidates:
                    cands = ", ".join(f"{t!r} {lp:.3f}" for _i, t, lp in r.candidates[:3])
                    kind = "near-tie: numerics of batched verification" if r.near_tie else "not a near-tie"
                    print(f"    spec-off top candidates: {cands}; gap {r.logprob_gap:.4f} ({kind})")
        print(f"{len(results) - len(bad)}/{len(results)} prompts identical")
    return 1 if bad else 0


def cmd_bench(args: argparse.Namespace) -> int:
    from app.core.bench import bench

    rows = bench(_loader(args), _prompts(args.prompts), args.max_tokens, args.repeats)
    if args.json:
        for row in rows:
            print(json.dumps(row.to_json()))
        return 0
    print(f"{'prompt':40} {'off tok/s':>9} {'on tok/s':>9} {'ratio':>6} {'accept':>7} {'acc/round':>9}")
    for row in rows:
        acc = row.on.acceptance_rate
        mal = row.on.mean_accepted_per_round
        print(
            f"{row.prompt[:40]:40} {row.off.decode_tps:9.1f} {row.on.decode_tps:9.1f} {row.ratio:6.2f} "
            f"{'-' if acc is None else f'{acc:.0%}':>7} {'-' if mal is None else f'{mal:.2f}':>9}"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(message)s"
    )
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code: int = args.func(args)
        return code
    except (RegistryError, LaunchError, SpeculationError, CacheError, FileNotFoundError, ValueError) as exc:
        print(f"tandem: {exc}", file=sys.stderr)
        return 2
    except EngineError as exc:
        print(f"tandem: {exc.user_message()}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        print("tandem: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `tandem models | head`: the reader left; not an error
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
