"""``tandem fit``, ``tandem drafters`` and ``tandem search``, wired into :mod:`app.cli.commands`.

Errors are one line on stderr with a non-zero exit (the caller's ``main`` prints typed errors).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from app.core.cache import CacheError, CacheManager, make_plan
from app.core.catalog import drafters as finder
from app.core.catalog import fit as fitting
from app.core.catalog import sizes, spec_fit
from app.core.engines import capability
from app.core.registry import GGUFSpec, Registry, RegistryError

HUBS = ["huggingface", "modelscope"]


def add_subcommands(subparsers: Any) -> None:
    p = subparsers.add_parser("fit", help="will a model (and its drafter) fit in this machine's memory?")
    p.add_argument("name", nargs="?", help="registry name (or give --model-path)")
    p.add_argument("--model-path", type=Path, help="a local GGUF file")
    p.add_argument("--format", dest="fmt", choices=["gguf", "mlx"])
    p.add_argument("--size", help="size in billions or a label such as E2B")
    p.add_argument("--quant", help="target quantization (default: the spec's first)")
    p.add_argument("--hub", choices=[*HUBS, "local"], default=None)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--draft-model-path", type=Path, help="a local drafter GGUF")
    g.add_argument("--drafter", action="store_true", help="add the spec's paired drafter")
    p.add_argument("--draft-quant", help="drafter quantization (default: the first declared)")
    p.add_argument("--ctx", type=int, default=4096, help="context length (default 4096)")
    p.add_argument("--cache-type", default="f16", help="KV cache type: f16 (default), q8_0, q4_0, f32")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_fit)

    p = subparsers.add_parser("drafters", help="drafters with the same vocabulary as a model")
    p.add_argument("name", nargs="?", help="registry name (or give --model-path)")
    p.add_argument("--model-path", type=Path, help="a local GGUF file or MLX folder")
    p.add_argument("--format", dest="fmt", choices=["gguf", "mlx"])
    p.add_argument("--size", help="size in billions or a label")
    p.add_argument("--quant", help="target quantization")
    p.add_argument("--search", type=Path, action="append", default=[], help="folder to look in (repeatable)")
    p.add_argument("--hub", choices=HUBS, help="also check repositories on this hub (headers only)")
    p.add_argument("--repo", action="append", default=[], help="hub repository to check (repeatable)")
    p.add_argument("--endpoint", help="hub endpoint / mirror")
    p.add_argument("--all", action="store_true", help="also list incompatible candidates with the reason")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_drafters)

    p = subparsers.add_parser("search", help="search a hub for models (most downloaded first)")
    p.add_argument("query", help="words to look for in model names")
    p.add_argument("--hub", choices=HUBS, default="huggingface")
    p.add_argument("--format", dest="fmt", choices=["gguf", "mlx"], help="only GGUF or MLX repositories")
    p.add_argument("--limit", type=int, default=20, help="at most this many results (default 20)")
    p.add_argument("--endpoint", help="hub endpoint / mirror")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_search)


def _need_target(args: argparse.Namespace) -> None:
    if bool(args.name) == bool(args.model_path):
        raise RegistryError("give either a registry NAME or --model-path FILE (one of them)")


# --- fit -------------------------------------------------------------------------------------------
def fit_for(
    registry: Registry, args: argparse.Namespace
) -> fitting.FitEstimate:  # also used by the GUI through the same rules
    ctx, ct = args.ctx, args.cache_type
    fitting.cache_bytes(ct)  # an unknown type is one clear line
    if ctx <= 0:
        raise ValueError("--ctx must be a positive number of tokens")
    if args.model_path:
        drafter = args.draft_model_path
        return fitting.estimate_files(args.model_path, ctx=ctx, drafter=drafter, cache_type=ct)
    fam, spec, quant = registry.match(args.name, args.fmt, args.size, args.quant)
    hub = args.hub or (sizes.spec_hubs(spec) or ["local"])[0]
    if not isinstance(spec, GGUFSpec):
        raise RegistryError(
            f"{fam.name}: fit estimates GGUF models (the KV cache comes from the GGUF header)"
        )
    mgr = CacheManager(fam, spec, "target", quant, hub)
    path = spec_fit.file_on_disk(mgr)
    notes: list[str] = []
    if path is not None:
        weights: int | None = fitting.weights_bytes(path)
        kv: int | None = fitting.file_kv_shape(path).bytes(ctx, ct)
    else:
        weights = sizes.plan_bytes(make_plan(fam, spec, "target", quant, hub))
        kv = spec_fit.shared_kv_bytes(fam, spec, hub, ctx, ct)
        if kv is not None:
            notes.append("KV cache from the header of another quantization of this model on disk")
        if weights is None:
            weights = fitting.estimated_weights(spec.size_in_billions, quant)
            notes.append(f"{quant} is not downloaded and its size is not known yet: weights estimated "
                         "from the parameter count and the quantization")  # fmt: skip
        else:
            notes.append(f"{quant} is not downloaded: weights from the hub listing")
    dbytes = 0
    if args.draft_model_path:
        dpath: Path | None = args.draft_model_path
        assert dpath is not None
        dbytes = fitting.weights_bytes(dpath) + fitting.file_kv_shape(dpath).bytes(ctx, ct)
    elif args.drafter:
        dmgr = CacheManager(fam, spec, "drafter", quant, hub, draft_quantization=args.draft_quant)
        dp = spec_fit.file_on_disk(dmgr)
        if dp is not None:
            dbytes = fitting.weights_bytes(dp) + fitting.file_kv_shape(dp).bytes(ctx, ct)
        else:
            known = sizes.plan_bytes(dmgr.plan)
            dbytes = known or 0
            notes.append("drafter not downloaded: its size from the hub listing when known")
    return fitting.estimate(weights, kv, ctx=ctx, drafter=dbytes, cache_type=ct, notes=notes)


def cmd_fit(args: argparse.Namespace) -> int:
    _need_target(args)
    est = fit_for(Registry.load(), args)
    if args.json:
        print(json.dumps(est.to_json(), indent=1))
    else:
        print(est.tooltip())
        print(f"verdict: {est.verdict}")
        for n in est.notes:
            print(f"note: {n}")
    return 0


# --- drafters --------------------------------------------------------------------------------------
def _family_repos(registry: Registry, name: str, hub: str, size: float) -> list[str]:
    """Repositories of the family on ``hub`` that may hold smaller siblings and declared drafters."""
    fam = registry.get(name)
    repos: list[str] = []
    for spec in fam.specs:
        if spec.format != "gguf" or hub not in spec.sources.hubs():
            continue
        src = spec.source(hub)
        if spec.size_in_billions < size and "{" not in src.model_id:
            repos.append(src.model_id)
        if src.draft_model_id and "{" not in src.draft_model_id:
            repos.append(src.draft_model_id)
    return list(dict.fromkeys(repos))


def cmd_drafters(args: argparse.Namespace) -> int:
    _need_target(args)
    repos: list[str] = list(args.repo)
    if args.model_path:
        target: Path = args.model_path
        if not target.exists():
            raise FileNotFoundError(f"{target}: no such file or folder")
        size_b = None
    else:
        registry = Registry.load()  # only a registry name needs it
        fam, spec, quant = registry.match(args.name, args.fmt, args.size, args.quant)
        mgr = CacheManager(fam, spec, "target", quant, args.hub)
        found = spec_fit.file_on_disk(mgr) if isinstance(spec, GGUFSpec) else None
        if found is None:
            raise CacheError(
                f"{fam.name} {spec.size_label} {quant} is not on this machine; download it first "
                f"({mgr.download_command()}) or give --model-path"
            )
        target = found
        size_b = spec.size_in_billions
        if args.hub:
            repos += _family_repos(registry, fam.name, args.hub, size_b)
    if target.is_dir():
        cands = finder.mlx_candidates(target, args.search)
    else:
        cands = finder.local_candidates(target, args.search)
        if args.hub:
            if not repos:
                raise RegistryError("--hub needs --repo ID (which repositories to check) with --model-path")
            vocab, tsize = finder.target_vocab(target)
            cands += finder.hub_candidates(vocab, tsize, args.hub, repos, endpoint=args.endpoint)
    shown = [c for c in cands if c.compatible or args.all]
    # llama.cpp targets: which methods still run once the target reads images
    vision = None if target.is_dir() else capability.vision_summary()
    if args.json:
        print(json.dumps([c.to_json() for c in shown], indent=1))
        if vision:
            print(vision, file=sys.stderr)  # stdout stays one JSON document
    else:
        if not shown:
            print("no compatible drafter found", file=sys.stderr)
        for c in shown:
            mark = "ok " if c.compatible else "no "
            print(f"{mark}{c.label}  ({c.reason})")
        if vision:
            print(vision)
    return 0


# --- search ----------------------------------------------------------------------------------------
def cmd_search(args: argparse.Namespace) -> int:
    from app.core.catalog import search as hub_search

    results = hub_search.search(args.hub, args.query, args.fmt, args.limit, endpoint=args.endpoint)
    if args.json:
        print(json.dumps([r.to_json() for r in results], indent=1))
        return 0
    if not results:
        print(
            f"no {args.fmt or ''} models match {args.query!r} on {args.hub}".replace("  ", " "),
            file=sys.stderr,
        )
    for r in results:
        when = (r.last_modified or "")[:10]
        print(f"{r.id}  downloads {r.downloads}  likes {r.likes}  {when}  {','.join(r.formats)}")
    return 0
