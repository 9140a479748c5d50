"""``tandem serve --models-dir DIR | --all | --models-preset FILE``: many models behind one server,
loaded on request, unloaded when idle, evicted for room (:mod:`app.core.modelset`).

Each model loads as ``tandem serve`` would load it alone (its own pool, drafter and Auto routes):
its entry becomes the model arguments of a one-model serve, with the command line's settings
where the entry (a presets section) says nothing.
"""

from __future__ import annotations

import argparse
import copy
import logging
import sys
from pathlib import Path
from typing import Any

from app.cli import serve as one
from app.cli import stopping
from app.cli.common import progress_printer
from app.core.cancel import CancelToken
from app.core.catalog import fit
from app.core.engines.worker import LoadProgress
from app.core.launch.plan import LaunchError, memory_of
from app.core.modelset import Loaded, ModelEntry, ModelSet, ModelSetError, SetConfig
from app.core.modelset.entries import entries_from_dir, read_presets
from app.core.serving.served import ServedModel
from app.core.units import human_bytes

GIB = 1024**3

log = logging.getLogger(__name__)


def add_subcommands(sub: Any) -> None:
    """``tandem serve`` with the model-set options; one model unless one of them is given."""
    p = one.add_subcommands(sub)
    add_args(p.add_argument_group("many models (loaded on request)"))
    p.set_defaults(func=cmd_serve_any)


def cmd_serve_any(args: argparse.Namespace) -> int:
    if args.models_dir is not None or args.all or args.models_preset is not None:
        from app.core.serving import is_loopback

        if not is_loopback(args.host) and not args.allow_remote:
            raise LaunchError(
                f"--host {args.host} would let other machines use the models; add --allow-remote to do that"
            )
        return cmd_serve_set(args)
    for flag in ("models_max", "models_memory", "models_ttl"):
        if getattr(args, flag) is not None:
            name = "--" + flag.replace("_", "-")
            raise LaunchError(f"{name} goes with --models-dir, --all or --models-preset")
    return one.cmd_serve(args)


def add_args(g: Any) -> None:
    g.add_argument("--models-dir", type=Path, help="serve every GGUF model in this folder, loaded on request")
    g.add_argument("--all", action="store_true",
                   help="serve every downloaded model Tandem knows and the embedded default")  # fmt: skip
    g.add_argument("--models-preset", type=Path,
                   help="INI file: a [*] section, then one section per model id (model, model-draft, spec, "
                   "ctx-size, parallel, threads, ttl, load-on-startup, pinned, alias)")  # fmt: skip
    g.add_argument("--models-max", type=_positive_int("--models-max"), default=None,
                   help="models loaded at once (default: as many as the memory budget holds)")  # fmt: skip
    g.add_argument("--models-memory", type=_positive_float("--models-memory"), default=None,
                   help="GiB loaded models may take together (default: memory free at start)")  # fmt: skip
    g.add_argument("--models-ttl", type=_positive_float("--models-ttl"), default=None,
                   help="seconds an idle model stays loaded (default: until its room is needed)")  # fmt: skip
    g.add_argument("--models-wait", type=_positive_float("--models-wait"), default=300.0,
                   help="seconds a request waits for busy models to make room (default 300)")  # fmt: skip


def _positive_int(flag: str) -> Any:
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{flag}: expected a whole number, got {text!r}") from None
        if n < 1:
            raise argparse.ArgumentTypeError(f"{flag}: must be at least 1")
        return n

    return parse


def _positive_float(flag: str) -> Any:
    def parse(text: str) -> float:
        try:
            x = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{flag}: expected a number, got {text!r}") from None
        if not x > 0:
            raise argparse.ArgumentTypeError(f"{flag}: must be more than 0")
        return x

    return parse


def entries_of(args: argparse.Namespace) -> list[ModelEntry]:
    """The set's models from ``--models-dir``, ``--all`` and ``--models-preset`` (its sections
    change those models or add their own), with the command line's settings where they say nothing."""
    if args.model_path or args.name:
        raise LaunchError("give NAME or --model-path for one model, or --models-dir/--all/--models-preset")
    entries: list[ModelEntry] = []
    try:
        if args.models_dir is not None:
            entries += entries_from_dir(args.models_dir)
        if args.all:
            from app.core.launch.known_models import known_entries
            from app.core.registry import Registry

            taken = {e.id for e in entries}
            entries += [e for e in known_entries(Registry.load()) if e.id not in taken]
        if args.models_preset is not None:
            entries = read_presets(args.models_preset, entries)
    except ModelSetError as exc:
        raise LaunchError(str(exc)) from None
    if not entries:
        raise LaunchError("no model to serve")
    return entries


def entry_args(args: argparse.Namespace, entry: ModelEntry) -> argparse.Namespace:
    """The arguments of a one-model ``tandem serve`` of ``entry``."""
    a = copy.copy(args)
    if entry.registry is not None:
        a.name, a.fmt, a.size, a.quant = entry.registry
        a.model_path = a.draft_model_path = None
    else:
        a.name = a.fmt = a.size = a.quant = None
        a.model_path = entry.path
        a.draft_model_path = entry.draft_path
    speculation = entry.speculation or args.spec
    a.spec_method = args.spec_method
    if speculation in ("on", "off", "auto", None):
        a.spec = speculation
    else:  # a method
        a.spec, a.spec_method = "on", speculation
    if a.spec == "off":
        a.draft_model_path = None
    a.ctx = entry.ctx or args.ctx
    a.threads = entry.threads or args.threads
    a.parallel = entry.slots or args.parallel
    a.tool_parser = entry.tool_parser or args.tool_parser
    a.mmproj = entry.mmproj or getattr(args, "mmproj", None)
    return a


def _files(args: argparse.Namespace, entry: ModelEntry) -> tuple[Path, Path | None]:
    if entry.registry is None:
        return Path(entry.path), Path(entry.draft_path) if entry.draft_path else None
    from app.cli.cache import resolve_cached_model
    from app.core.registry import Registry

    name, fmt, size, quant = entry.registry
    target, _ = resolve_cached_model(Registry.load(), name, fmt, size, quant, args.hub, False, None)
    return target, None


def estimate(args: argparse.Namespace, entry: ModelEntry) -> int:
    """The memory ``entry`` takes loaded (the launch dialog's estimate at the context it gets);
    0 when it cannot be told before the load (e.g. the embedded model not prepared yet)."""
    try:
        target, drafter = _files(args, entry)
        ctx = entry.ctx or args.ctx or fit.fitted_context(target, drafter)[0]
        return fit.estimate_files(target, ctx=ctx, drafter=drafter).total_bytes or 0
    except (OSError, ValueError, LookupError):
        return 0


def loader(args: argparse.Namespace) -> Any:
    """``(entry, cancel) -> Loaded``: each model loaded as ``tandem serve`` loads one."""
    say = progress_printer(args)

    def load(entry: ModelEntry, cancel: CancelToken) -> Loaded[ServedModel]:
        report = (lambda msg: say(f"{entry.id}: {msg}")) if say else None
        try:
            model = one._load(entry_args(args, entry), LoadProgress(report, cancel))
        except LaunchError as exc:
            raise ModelSetError(str(exc)) from None
        base = memory_of(model.request) or estimate(args, entry)
        served = model.model
        served = ServedModel(served.engine, entry.id, served.tool_style, served.pool)
        pool = model.pool

        def memory() -> int:
            if pool is None:
                return base
            return base + sum(c.cost_bytes for c in pool.status().children if not c.base)

        if say:
            say(f"{entry.id}: loaded (about {human_bytes(base)})")
        return Loaded(served, model.close, memory)

    return load


async def share_cores(loaded: list[ServedModel]) -> None:
    """Once a model loaded or unloaded, the others at rest take the thread count the free cores
    give them now (their threads add up to the cores; one that answers keeps its own until it
    rests)."""
    for model in loaded:
        if model.pool is not None:
            changed = await model.pool.retune()
            for label, before, after in changed:
                log.info("%s (%s): %d threads, was %d", model.model_id, label, after, before)


def cmd_serve_set(args: argparse.Namespace) -> int:
    from app.core.serving import LocalServer

    entries = entries_of(args)
    memory = int(args.models_memory * GIB) if args.models_memory else None
    config = SetConfig(args.models_max, memory, args.models_ttl, args.models_wait)
    server_config = one._server_config(args, args.parallel)
    models: ModelSet[ServedModel] = ModelSet(entries, loader(args), lambda e: estimate(args, e), config)
    models.on_loaded = share_cores
    if not args.json:
        models.on_unload = lambda model_id, why: print(
            f"… {model_id}: unloaded ({why})", file=sys.stderr, flush=True
        )
    server = LocalServer(None, server_config, lambda r: one.log_request(r, args.json, True), models=models)
    try:
        server.start()
        if any(e.load_on_startup for e in entries):
            from app.core.engines.loop import engine_loop

            engine_loop().submit(models.start()).result()
    except BaseException:
        server.stop()
        models.close()
        raise
    signals = stopping.current()
    try:
        with signals.handled():
            one.say_listening(args, server)
            cap = f"at most {config.max_loaded} at once, " if config.max_loaded else ""
            ttl = f"unloaded after {config.ttl_s:.0f} s idle" if config.ttl_s else "kept until room is needed"
            print(
                f"tandem: serving {len(entries)} models at {server.address} ({cap}within "
                f"{human_bytes(models.budget)}; {ttl}; key from {one.key_source_text()})",
                file=sys.stderr,
                flush=True,
            )
            for entry in entries:
                extra = f" (drafter {Path(entry.draft_path).name})" if entry.draft_path else ""
                names = f" also {', '.join(entry.aliases)}" if entry.aliases else ""
                pin = " pinned" if entry.pinned else ""
                print(f"tandem:   {entry.id}{extra}{names}{pin}", file=sys.stderr, flush=True)
            one.say_clients(server)
            one.say_key(server)
            signals.wait()
    finally:
        server.stop()
        models.close()
    print("tandem: server stopped", file=sys.stderr)
    return 0
