"""Headless subcommands: models, register, unregister, download, delete, generate, parity, bench.

The contract is in ARCHITECTURE.md ("CLI contract"); tests and benchmarks drive Tandem through it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from pathlib import Path
from typing import Any

from app.cli import auto as cli_auto
from app.cli import cache as cli_cache
from app.cli import catalog as cli_catalog
from app.cli import remote as cli_remote
from app.cli import serve_set as cli_serve
from app.cli import stopping
from app.cli import tools as cli_tools
from app.cli.common import (
    Parser,
    add_model_args,
    note_threads,
    progress_printer,
    read_prompts,
    resolve,
    sampling_float,
    whole_number,
)
from app.core import images, limits
from app.core.answer import Answer, AnswerCollector
from app.core.cache.errors import CacheError
from app.core.catalog import listed
from app.core.documents.extract import Document, DocumentError, read_document_file
from app.core.documents.grounding import Source, ground_to_fit
from app.core.engines.base import ChatMessage, EngineError, GenerateRequest, Sampling, TokenCounter
from app.core.engines.threads import ThreadChoice
from app.core.launch.plan import (
    LaunchError,
    load_engine,
)
from app.core.registry import Family, Registry, RegistryError
from app.core.speculative import SpeculationError, json_rate

log = logging.getLogger("tandem")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="tandem", description="Local LLM chat, faster through speculative decoding")
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
    add_model_args(p, bench_like=False)
    p.add_argument("--prompt", required=True)
    p.add_argument("--system", default=None)
    p.add_argument(
        "--image",
        type=Path,
        action="append",
        default=[],
        metavar="FILE",
        help="an image the prompt is about (PNG, JPEG, WebP, GIF or BMP; repeat for several); "
        "needs a vision model (mlx-vlm, or a GGUF with its --mmproj)",
    )
    p.add_argument(
        "--document",
        type=Path,
        action="append",
        default=[],
        metavar="FILE",
        help="a document the prompt is about (text, Markdown, code, CSV, HTML, PDF with a text layer or "
        "DOCX; repeat for several): whole when it fits the context, else the passages that answer",
    )
    default = "default: the family's recommended value, else"
    p.add_argument("--temperature", type=sampling_float("temperature"), help=f"{default} 0 (greedy)")
    p.add_argument("--top-p", type=sampling_float("top_p"), help=f"{default} 1 (off)")
    p.add_argument(
        "--top-k", type=whole_number("--top-k", 0, int(limits.TOP_K.maximum)), help=f"{default} 0 (off)"
    )
    p.add_argument("--repeat-penalty", type=sampling_float("repeat_penalty"), help=f"{default} 1 (off)")
    cli_tools.add_arguments(p)
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser("parity", help="spec-off vs spec-on greedy output, token by token")
    add_model_args(p, bench_like=True)
    p.add_argument("--prompts", type=Path, required=True, help="text file, one prompt per line")
    p.set_defaults(func=cmd_parity)

    p = sub.add_parser("bench", help="spec-off vs spec-on decode speed in one run")
    add_model_args(p, bench_like=True)
    p.add_argument("--prompts", type=Path, required=True, help="text file, one prompt per line")
    p.add_argument(
        "--repeats", type=whole_number("--repeats", 1), default=1, help="runs per side (best kept)"
    )
    p.set_defaults(func=cmd_bench)

    cli_cache.add_subcommands(sub)
    cli_remote.add_subcommands(sub)
    cli_catalog.add_subcommands(sub)
    cli_serve.add_subcommands(sub)
    cli_auto.add_subcommands(sub)
    return parser


# --- commands ----------------------------------------------------------------------------------------
def cmd_models(args: argparse.Namespace) -> int:
    registry = listed.load_registry()  # with what `tandem quants` / Refresh from hub added
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


def _rate(tps: float | None, pattern: str = "{:.1f}") -> str:
    """A decode speed, or '-' when there was nothing to measure (never a rate from zero time)."""
    return "-" if tps is None else pattern.format(tps)


def _stats_line(answer: Answer) -> str:
    parts = [f"{answer.completion_tokens} tokens", f"{_rate(answer.decode_tps)} tok/s"]
    rate = answer.acceptance_rate
    if rate is not None:
        parts.append(f"acceptance {rate:.0%} ({answer.accepted_total}/{answer.drafted_total})")
    mal = answer.mean_accepted_length
    if mal is not None:
        parts.append(f"{mal:.2f} tokens per drafting round")
    parts.append(f"{answer.round_count} rounds")
    return ", ".join(parts)


def sampling_for(args: argparse.Namespace, family: Family | None) -> tuple[Sampling, str]:
    """The request's sampling: each flag the user gave, else the family's recommended value, else
    Tandem's default (greedy, filters off). Also says where the values came from."""
    rec = family.sampling if family is not None else None
    values: dict[str, Any] = {}
    from_family = []
    for name in ("temperature", "top_p", "top_k", "repeat_penalty"):
        given = getattr(args, name, None)
        recommended = getattr(rec, name, None) if rec is not None else None
        if given is not None:
            values[name] = given
        elif recommended is not None:
            values[name] = recommended
            from_family.append(name.replace("_", "-"))
    sampling = Sampling(max_tokens=args.max_tokens, **values)
    source = f"{family.name} recommended: {', '.join(from_family)}" if family and from_family else ""
    return sampling, source


def _describe(sampling: Sampling) -> dict[str, float | int]:
    return {
        "temperature": sampling.temperature,
        "top_p": sampling.top_p,
        "top_k": sampling.top_k,
        "repeat_penalty": sampling.repeat_penalty,
        "max_tokens": sampling.max_tokens,
    }


def cmd_generate(args: argparse.Namespace) -> int:
    attached = _checked_images(args.image)  # a bad image fails before any model is loaded
    documents = _read_documents(args.document)  # so does a document that cannot be read
    tools = cli_tools.prepare(args)  # so do wrong tool flags and an MCP file that cannot be read
    spec_on = args.spec == "on" or (args.spec is None and bool(args.draft_model_path or args.spec_method))
    resolved = (
        cli_auto.resolve_auto(args, measure_now=False) if args.spec == "auto" else resolve(args, spec_on)
    )
    spec_on = spec_on or resolved.request.speculation.enabled
    engine_name, req = resolved.engine, resolved.request
    note_threads(engine_name, req)
    sampling, sampling_source = sampling_for(args, resolved.family)
    say = progress_printer(args)
    if say:
        shown = ", ".join(f"{k.replace('_', '-')} {v:g}" for k, v in _describe(sampling).items())
        say(f"sampling: {shown}" + (f" ({sampling_source})" if sampling_source else ""))
    engine = load_engine(engine_name, req, say)
    threads_used = thread_fields(engine)
    if say and threads_used:
        say(f"threads: {threads_used['threads_reason']}")
    messages: list[ChatMessage] = []
    if args.system:
        messages.append({"role": "system", "content": args.system})
    question: ChatMessage = {"role": "user", "content": args.prompt}
    if attached:
        question["images"] = attached
    if documents:
        question["documents"] = list(documents)
    messages.append(question)
    sources: tuple[Source, ...] = ()
    if documents:
        try:
            grounded = ground_to_fit(
                messages,
                documents,
                engine.n_ctx if isinstance(engine, TokenCounter) else 0,
                sampling.max_tokens,
                engine.count_prompt_tokens if isinstance(engine, TokenCounter) else None,
            )
        except DocumentError as exc:
            engine.close()
            raise ValueError(f"--document: {exc}") from None
        messages, sources = grounded.messages, grounded.sources
        if say:
            say("documents: " + ", ".join(_source_text(s) for s in sources))
    if tools is not None:  # the tool loop: each call, its result, then the answer (app.cli.tools)
        signals = stopping.current()
        tool_style = resolved.family.tool_parser if resolved.family is not None else None
        try:
            return cli_tools.run(
                args,
                tools,
                engine,
                messages,
                sampling,
                tool_style,
                lambda task: signals.handled(lambda: task.get_loop().call_soon_threadsafe(task.cancel)),
            )
        finally:
            engine.close()
    collector = AnswerCollector()
    interrupted = False
    failed: EngineError | None = None
    # Token ids come with log-probabilities on llama.cpp; ask for them when they can be complete.
    want_ids = 1 if args.json and not spec_on else 0

    signals = stopping.current()

    async def read_answer() -> None:
        # the same async stream the local server reads (llama.cpp: no thread between the child
        # and this loop); Ctrl-C or SIGTERM cancels it, which ends the request in the engine (a
        # second one exits at once: app.cli.stopping)
        loop, task = asyncio.get_running_loop(), asyncio.current_task()
        assert task is not None
        with signals.handled(lambda: loop.call_soon_threadsafe(task.cancel)):
            request = GenerateRequest(messages, sampling, top_logprobs=want_ids)
            async for ev in engine.stream(request):
                text = collector.feed(ev)
                if text and not args.json:
                    sys.stdout.write(text)
                    sys.stdout.flush()

    try:
        asyncio.run(read_answer())
    except (KeyboardInterrupt, asyncio.CancelledError):  # stopped: keep what was produced
        interrupted = True  # (cancelled unless it had finished)
    except EngineError as exc:  # failed after its Finished (a remote stream cut): keep the partial answer
        if collector.answer.finished is None:
            raise
        failed = exc
    finally:
        engine.close()
    answer = collector.end()
    if args.json:
        print(
            json.dumps(
                {
                    "engine": engine_name,
                    "model": req.model_path,
                    "drafter": req.speculation.draft_model_path,
                    "speculation": spec_on,
                    # the method the engine runs (a recognised Gemma 4 assistant runs as mtp)
                    "method": (engine.spec_kind or req.speculation.method) if spec_on else None,
                    "sampling": _describe(sampling),
                    **threads_used,
                    "images": len(attached),
                    "sources": [source.to_json() for source in sources],
                    "text": answer.text,
                    "finish_reason": answer.reason,
                    "completion_token_ids": answer.token_ids,
                    "prompt_tokens": answer.prompt_tokens,
                    "completion_tokens": answer.completion_tokens,
                    "decode_tokens_per_second": json_rate(answer.decode_tps),
                    "drafted_total": answer.drafted_total,
                    "accepted_total": answer.accepted_total,
                    "mean_accepted_length": answer.mean_accepted_length,
                    "rounds": answer.round_count,
                    "round_details": [
                        {"drafted": r.drafted, "accepted": r.accepted, "emitted": r.emitted}
                        for r in answer.rounds
                    ],
                    **cli_remote.json_fields(answer.finished),
                }
            )
        )
    else:
        print()
        print(_stats_line(answer) + (" (interrupted)" if interrupted else ""), file=sys.stderr)
    if failed is not None:
        print(f"tandem: {failed.user_message()}", file=sys.stderr)
        return 3
    return signals.exit_code() if interrupted else 0


def thread_fields(engine: object) -> dict[str, object]:
    """The CPU threads a llama.cpp engine computes with and why (``{}`` for other engines)."""
    choice = getattr(engine, "thread_choice", None)
    if not isinstance(choice, ThreadChoice):
        return {}
    return {"threads": getattr(engine, "n_threads", choice.threads), "threads_reason": choice.describe()}


def _checked_images(files: list[Path]) -> list[str]:
    """The ``--image`` files, each checked (one line and exit 2 for a bad one), as absolute paths."""
    try:
        images.check_count(len(files))
        for f in files:
            images.check_image_file(f)
    except images.ImageError as exc:
        raise images.ImageError(f"--image {exc}", exc.kind, exc.source, **exc.facts) from None
    return [str(f.resolve()) for f in files]


def _read_documents(files: list[Path]) -> dict[str, Document]:
    """The ``--document`` files, each read (one line and exit 2 for one that cannot be), by stored
    name."""
    out: dict[str, Document] = {}
    for f in files:
        try:
            document = read_document_file(f)
        except DocumentError as exc:
            raise ValueError(f"--document {exc}") from None
        out[document.name] = document
    return out


def _source_text(source: Source) -> str:
    if source.whole:
        return f"{source.filename} (whole)"
    return source.filename + (f" p.{source.page}" if source.page is not None else "")


def _loader(args: argparse.Namespace) -> Any:
    # resolve both sides up front, so a bad pair fails before any model is loaded
    auto_on = getattr(args, "spec", None) == "auto"
    on = cli_auto.resolve_auto(args) if auto_on else resolve(args, True)
    resolved = {False: resolve(args, False), True: on}
    note_threads(resolved[False].engine, resolved[False].request)

    def load(spec_on: bool) -> Any:
        side = resolved[spec_on]
        return load_engine(side.engine, side.request, progress_printer(args))

    return load


def cmd_parity(args: argparse.Namespace) -> int:
    from app.core.measure import parity

    results = parity(_loader(args), read_prompts(args.prompts), args.max_tokens)
    # EXACT, or a first difference that is a mutual top-k match (TOP_K_MATCH); anything else FAILs
    bad = [r for r in results if r.verdict == "FAIL"]
    if args.json:
        for r in results:
            print(json.dumps(r.to_json()))
    else:
        for r in results:
            status = "identical" if r.identical else f"{r.verdict}: diverges at token {r.first_difference}"
            print(f"[{status}] ({r.compared}; {r.tokens_off} vs {r.tokens_on} tokens) {r.prompt[:60]!r}")
            if not r.identical:
                shown_on = r.on_token if r.on_token is not None else r.on_text
                print(
                    f"    spec-off token: {r.off_token!r}{_token_note(r.off_id, r.off_logprob)}   "
                    f"spec-on there: {shown_on!r}{_token_note(r.on_id, r.on_logprob, r.on_own_logprob)}"
                )
                if r.candidates:
                    cands = ", ".join(f"{t!r} {lp:.3f}" for _i, t, lp in r.candidates[:3])
                    kind = "near-tie: numerics of batched verification" if r.near_tie else "not a near-tie"
                    gap = "-" if r.logprob_gap is None else f"{r.logprob_gap:.4f}"
                    print(f"    spec-off top candidates: {cands}; logprob gap {gap} ({kind})")
                if r.on_candidates:
                    cands = ", ".join(f"{t!r} {lp:.3f}" for _i, t, lp in r.on_candidates[:3])
                    print(f"    spec-on top candidates: {cands}")
        counts = {v: sum(r.verdict == v for r in results) for v in ("EXACT", "TOP_K_MATCH", "FAIL")}
        print(", ".join(f"{v} {n}" for v, n in counts.items()))
        print(f"{counts['EXACT']}/{len(results)} prompts identical")
    return 1 if bad else 0


def _token_note(token_id: int | None, logprob: float | None, own: float | None = None) -> str:
    """ " (id 42, logprob -0.12)": what a parity report knows about a token at the divergence."""
    parts = [] if token_id is None else [f"id {token_id}"]
    if logprob is not None:
        parts.append(f"logprob {logprob:.4f}" + (" under spec-off" if own is not None else ""))
    elif own is not None or token_id is not None:
        parts.append("not in spec-off's top candidates")
    if own is not None:
        parts.append(f"{own:.4f} under spec-on")
    return f" ({', '.join(parts)})" if parts else ""


def cmd_bench(args: argparse.Namespace) -> int:
    from app.core.measure import bench

    rows = bench(_loader(args), read_prompts(args.prompts), args.max_tokens, args.repeats)
    choice = getattr(args, "auto_choice", None)
    if args.json:
        for row in rows:
            print(json.dumps(row.to_json() | ({"auto": choice.to_json()} if choice else {})))
        return 0
    if choice is not None:
        print(f"spec-on side: Auto's choice, {choice.candidate.label} ({choice.why})")
    print(f"{'prompt':40} {'off tok/s':>9} {'on tok/s':>9} {'ratio':>6} {'accept':>7} {'tok/round':>9}")
    for row in rows:
        acc = row.on.acceptance_rate
        mal = row.on.mean_accepted_length
        print(
            f"{row.prompt[:40]:40} {_rate(row.off.decode_tps):>9} {_rate(row.on.decode_tps):>9} "
            f"{_rate(row.ratio, '{:.2f}'):>6} "
            f"{'-' if acc is None else f'{acc:.0%}':>7} {'-' if mal is None else f'{mal:.2f}':>9}"
        )
    print("tok/round: mean tokens per drafting round (accepted drafts plus the model's own token)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or a refused argument (2, one line already printed)
        return exc.code if isinstance(exc.code, int) else 2
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(message)s"
    )
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    # Ctrl-C / SIGTERM: the first stops the command, a second exits at once (app.cli.stopping)
    with stopping.installed() as signals:
        return _run(args, signals)


def _run(args: argparse.Namespace, signals: stopping.StopSignals) -> int:
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
        return signals.exit_code()
    except BrokenPipeError:  # `tandem models | head`: the reader left; not an error
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
