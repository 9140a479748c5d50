"""What the CLI's commands share: one-line argument errors, typed argument parsers, the model
arguments of generate / parity / bench / serve, and their resolution to an engine and a
:class:`~app.core.engines.base.LoadRequest` through the one launch path."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from app.cli import cache as cli_cache
from app.cli import remote as cli_remote
from app.core import assets
from app.core.engines.base import LoadRequest, Sampling, check_max_tokens
from app.core.launch.plan import (
    DEFAULT_MODEL,
    LaunchChoice,
    LaunchError,
    auto_context,
    check_speculation,
    make_options,
    pick_engine,
    plan_launch,
    thread_count_notice,
)
from app.core.registry import AnySpec, Family, Registry, format_template
from app.core.speculative import parse_num_speculative_tokens
from app.core.speculative.options import drafter_part, parse_number, parse_whole_number

log = logging.getLogger("tandem")


#: llama.cpp's own limit (GGML_MAX_N_THREADS); more threads than this is a typo.
MAX_THREADS = 512


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``tandem: <why>`` and the command to get help, no usage dump."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"tandem: {message} (see `{self.prog} --help`)\n")


def arg_type(name: str, parse: Callable[[str], Any], *aliases: str) -> Callable[[str], Any]:
    """An argparse ``type`` whose refusals are one clean line naming the flag.

    argparse already says ``argument --flag:``, so the parser's own ``<field>:`` prefix is dropped.
    """

    def convert(text: str) -> Any:
        try:
            return parse(text)
        except ValueError as exc:  # SpeculationError and SamplingError are ValueErrors
            message = str(exc)
            for prefix in (name, *aliases):
                message = message.removeprefix(f"{prefix}: ")
            raise argparse.ArgumentTypeError(message) from None

    convert.__name__ = name  # argparse names the type in some messages
    return convert


def whole_number(flag: str, minimum: int, maximum: int | None = None) -> Callable[[str], Any]:
    def parse(text: str) -> int:
        number = parse_whole_number(text, flag, minimum=minimum)
        if maximum is not None and number > maximum:
            raise ValueError(f"{flag}: {number} is more than {maximum}")
        return number

    return arg_type(flag, parse)


draft_tokens_arg = arg_type(
    "--draft-tokens", lambda text: parse_num_speculative_tokens(text, "--draft-tokens")
)
max_tokens_arg = arg_type(
    "--max-tokens",
    lambda text: check_max_tokens(parse_whole_number(text, "max tokens", minimum=None)),
    "max tokens",
)


_SAMPLING_CHECKS: dict[str, Callable[[float], Sampling]] = {
    "temperature": lambda v: Sampling(temperature=v),
    "top_p": lambda v: Sampling(top_p=v),
    "repeat_penalty": lambda v: Sampling(repeat_penalty=v),
}


def sampling_float(field: str) -> Callable[[str], Any]:
    """A sampling number checked by :class:`Sampling` itself, so the CLI and engines agree."""
    flag = "--" + field.replace("_", "-")

    def parse(text: str) -> float:
        number = parse_number(text, flag)
        _SAMPLING_CHECKS[field](number)  # Sampling raises SamplingError naming the setting and range
        return number

    return arg_type(flag, parse, field.replace("_", "-"), field.replace("_", " "))


def add_model_args(p: argparse.ArgumentParser, bench_like: bool) -> None:
    p.add_argument("name", nargs="?", help=f"registry name (default: {DEFAULT_MODEL[0]})")
    p.add_argument("--format", dest="fmt", choices=["gguf", "mlx"])
    p.add_argument("--size", help="size in billions or a label such as E2B")
    p.add_argument("--quant", help="target quantization")
    p.add_argument(
        "--hub", default=None, choices=["huggingface", "modelscope", "local"], help="default: the spec's own"
    )
    p.add_argument("--model-path", help="a local model file (gguf) or folder (mlx) instead of NAME")
    p.add_argument("--draft-model-path", help="a local drafter; implies --spec on --spec-method draft")
    p.add_argument(
        "--mmproj", help="the vision projector (mmproj .gguf) of a llama.cpp --model-path, to read images"
    )
    p.add_argument("--engine", choices=["llama.cpp", "mlx", "remote"])
    cli_remote.add_remote_args(p, bench_like)
    if not bench_like:
        p.add_argument("--spec", choices=["on", "off", "auto"], default=None, help="auto: measured")
    else:
        p.add_argument("--spec", choices=["auto"], default=None, help="auto: the spec-on side is Auto's")
    p.add_argument(
        "--spec-method",
        default=None,
        help="draft, mtp, eagle3, dflash, ngram-mod, ngram-cache, ngram-simple, ngram-map-k, ngram-map-k4v "
        "(llama.cpp; a drafter's general.architecture picks draft/mtp/eagle3/dflash, mtp without a drafter "
        "runs a target's built-in MTP heads, and a drafter method chains with one n-gram method, e.g. "
        "mtp+ngram-mod); suffix, prompt-lookup (MLX: drafts from earlier answers / the prompt, no drafter)",
    )
    p.add_argument("--draft-quant", help="drafter quantization (declared drafters)")
    p.add_argument("--draft-tokens", type=draft_tokens_arg, help="tokens per round (default: the engine's)")
    p.add_argument(
        "--ctx",
        type=whole_number("--ctx", 1),
        default=None,
        help="context length in tokens (default: the model's trained length, as far as memory allows)",
    )
    p.add_argument("--threads", type=whole_number("--threads", 1, MAX_THREADS), default=None)
    p.add_argument("--max-tokens", type=max_tokens_arg, default=128 if bench_like else 256)
    p.add_argument("--json", action="store_true", help="machine-readable output")


# --- resolution ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Resolved:
    engine: str
    request: LoadRequest
    family: Family | None = None  # None for --model-path
    #: the launch's drafter as ``(method, path)`` even when the chosen speculation does not use
    #: it (Auto may choose a model-free method): a server's pool can still offer it
    drafter: tuple[str, str] | None = None

    @property
    def drafter_pair(self) -> tuple[str, str] | None:
        spec = self.request.speculation
        if self.drafter is not None:
            return self.drafter
        return (spec.method, spec.draft_model_path) if spec.enabled and spec.draft_model_path else None


def resolve(args: argparse.Namespace, spec_on: bool) -> Resolved:
    """Engine, LoadRequest and family for the model arguments, with speculation on or off."""
    mmproj = getattr(args, "mmproj", None)
    if mmproj and (args.engine not in (None, "llama.cpp") or not args.model_path):
        raise LaunchError("--mmproj goes with a llama.cpp --model-path (the GGUF model it was made for)")
    if args.engine == "remote":
        return Resolved(*cli_remote.resolve_remote(args, spec_on))
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
        builtin = drafter_part(options.method) == "mtp"  # the target's own MTP heads, checked at load
        if spec_on and options.needs_drafter and not options.draft_model_path and not builtin:
            raise LaunchError(f"--spec-method {options.method} needs --draft-model-path with --model-path")
        if mmproj and engine != "llama.cpp":
            raise LaunchError("--mmproj goes with a llama.cpp --model-path (a GGUF file, not a folder)")
        n_ctx = args.ctx
        if n_ctx is None:
            n_ctx, note = auto_context(engine, None, path, options.draft_model_path)
            if note:  # as plan_launch's notice is said for a registry model
                print(f"note: {note}", file=sys.stderr)
        request = LoadRequest(str(path), options, n_ctx=n_ctx, n_threads=args.threads, mmproj_path=mmproj)
        return Resolved(engine, request)

    registry = Registry.load()
    name = args.name or DEFAULT_MODEL[0]
    size = args.size if args.name else (args.size or DEFAULT_MODEL[2])
    fmt = args.fmt or (None if args.name else DEFAULT_MODEL[1])
    quant = args.quant or (None if args.name else DEFAULT_MODEL[3])
    family, spec, quant = registry.match(name, fmt, size, quant)
    engine = pick_engine(spec, args.engine)
    options = check_speculation(family, spec, engine, options)
    say = progress_printer(args)
    local = spec.sources.local
    if (
        say
        and local is not None
        and assets.needs_preparation(format_template(local.path, "sources.local.path", quantization=quant))
    ):
        say("preparing the embedded model once (this takes a moment)")

    def cached(fam: Family, sp: AnySpec, role: str, q: str, dq: str | None) -> Path:
        target, drafter = cli_cache.resolve_cached_model(
            registry, fam.name, sp.format, sp.size_label, q, args.hub, role == "drafter", dq
        )
        return drafter if role == "drafter" and drafter is not None else target

    # the one launch path: the GUI's make_job builds its request with plan_launch too
    choice = LaunchChoice(family, spec, quant, engine, options, args.ctx or 0, args.threads)
    plan = plan_launch(choice, cached)
    if plan.notice:  # e.g. a vision model whose projector is not downloaded: text only
        print(f"note: {plan.notice}", file=sys.stderr)
    return Resolved(engine, plan.request, family)


def note_threads(engine: str, req: LoadRequest) -> None:
    notice = thread_count_notice(engine, req.n_threads)
    if notice:
        print(f"note: --threads: {notice}", file=sys.stderr)


def progress_printer(args: argparse.Namespace) -> Any:
    quiet = getattr(args, "json", False)
    return None if quiet else (lambda msg: print(f"… {msg}", file=sys.stderr, flush=True))


def read_prompts(path: Path) -> list[str]:
    lines = [ln.strip() for ln in path.read_text("utf-8").splitlines()]
    prompts = [ln.replace("\\n", "\n") for ln in lines if ln and not ln.startswith("#")]
    if not prompts:
        raise LaunchError(f"{path} has no prompts (one per line; '#' starts a comment)")
    return prompts
