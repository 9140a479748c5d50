"""``tandem download``, ``tandem delete`` and the cache side of ``tandem models`` / ``generate``.

Wired into the dispatcher (:mod:`app.cli.commands`) by ``add_subcommands``; see ARCHITECTURE.md
("CLI contract").
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from app.cli import stopping
from app.core.cache import (
    CacheError,
    CacheManager,
    CancelToken,
    DiskSpaceError,
    DownloadCancelled,
    NotCachedError,
    ProgressEvent,
    registry_status,
)
from app.core.cache.plan import Role
from app.core.cache.queue import DownloadQueue
from app.core.cache.status import choose_hub
from app.core.catalog import listed
from app.core.registry import Registry, RegistryError

HUB_CHOICES = ["huggingface", "modelscope", "local"]


def add_subcommands(subparsers: Any) -> None:
    """Add ``download`` and ``delete`` to the ``tandem`` sub-command parser."""
    p = subparsers.add_parser("download", help="download a target (and its drafter) into the cache")
    _model_args(p)
    p.add_argument("--drafter", action="store_true", help="also download the paired drafter")
    p.add_argument("--draft-quant", help="drafter quantization (default: the first declared)")
    p.add_argument("--endpoint", help="hub endpoint / mirror (default: HF_ENDPOINT or MODELSCOPE_ENDPOINT)")
    p.add_argument("--json", action="store_true", help="print the resulting paths as JSON")
    p.set_defaults(func=cmd_download)

    p = subparsers.add_parser(
        "quants", help="the quantizations a model's repositories hold, refreshed from their listings"
    )
    p.add_argument("name", help="registry name (see `tandem models`)")
    p.add_argument("--size", help="one spec: size in billions or a label such as E4B")
    p.add_argument("--hub", choices=HUB_CHOICES[:2], default=None, help="default: each spec's first hub")
    p.add_argument("--endpoint", help="hub endpoint / mirror (default: HF_ENDPOINT or MODELSCOPE_ENDPOINT)")
    p.add_argument("--offline", action="store_true", help="use the listings fetched earlier, no network")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_quants)

    p = subparsers.add_parser("delete", help="remove a target (and its drafters) from the cache")
    _model_args(p)
    p.add_argument(
        "--free-disk",
        action="store_true",
        help="also delete the hub-cache files no other Tandem entry uses (other tools lose them too)",
    )
    p.set_defaults(func=cmd_delete)


def _model_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", help="registry name (see `tandem models`)")
    p.add_argument("--format", dest="fmt", choices=["gguf", "mlx"])
    p.add_argument("--size", help="size in billions or a label such as E2B")
    p.add_argument("--quant", help="target quantization (default: the spec's first)")
    p.add_argument("--hub", choices=HUB_CHOICES, default=None, help="default: the spec's first hub")


# --- models ----------------------------------------------------------------------------------------
#: Status of an embedded model that Tandem builds the first time it is used (SmolLM2 F32 is
#: dequantized from the shipped Q4_1): on disk it does not exist yet, but nothing is downloaded.
EMBEDDED = "embedded"
EMBEDDED_NOTE = "embedded, prepared on first use"


def models_json(registry: Registry, hub: str | None) -> list[dict[str, Any]]:
    """The machine-readable status list (shape documented in ``app.core.cache.status``), where an
    embedded model that is built on first use is ``embedded`` with a ``note`` in its details."""
    from app.core.catalog.sizes import annotate  # hubs and size_bytes per quantization

    data = annotate(registry, _mark_embedded(registry, registry_status(registry, hub)))
    return _add_descriptions(registry, _add_abilities(registry, data))


def _add_descriptions(registry: Registry, data: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each family says what it is: ``description`` (English) and, when the family has them,
    ``description_i18n`` (the same in zh_CN, ja, ko), after its name."""
    out = []
    for fam_data in data:
        fam = registry.families.get(fam_data.get("name", ""))
        if fam is None:
            out.append(fam_data)
            continue
        head: dict[str, Any] = {"name": fam.name, "description": fam.description}
        if fam.description_i18n:
            head["description_i18n"] = dict(fam.description_i18n)
        out.append({**head, **fam_data})
    return out


def _add_abilities(registry: Registry, data: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each listed spec says what it can do (abilities, context length, drafter kind, projector)."""
    from app.core.registry.abilities import spec_abilities

    for fam_data in data:
        fam = registry.families.get(fam_data.get("name", ""))
        if fam is None:
            continue
        for spec_data in fam_data.get("specs", []):
            spec = next(
                (
                    sp
                    for sp in fam.specs
                    if sp.format == spec_data.get("format") and sp.size_label == spec_data.get("size")
                ),
                None,
            )
            if spec is not None:
                spec_data.update(spec_abilities(fam, spec))
    return data


def _mark_embedded(registry: Registry, data: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Report embedded models that do not exist yet as ``embedded``, not ``cached``.

    The cache layer counts them as available (they are: no download is needed), but the file is
    built on first use, which takes a moment; the listing says so instead of claiming a cached file.
    """
    from app.core import assets
    from app.core.registry import format_template

    for fam_data in data:
        fam = registry.families.get(fam_data.get("name", ""))
        if fam is None:
            continue
        for spec_data in fam_data.get("specs", []):
            if spec_data.get("hub") != "local":
                continue
            spec = next(
                (
                    sp
                    for sp in fam.specs
                    if sp.format == spec_data["format"] and sp.size_label == spec_data["size"]
                ),
                None,
            )
            local = spec.sources.local if spec is not None else None
            if local is None:
                continue
            todo = [("quantizations", local.path, "quantization", "sources.local.path")]
            if local.draft_path:
                todo.append(
                    (
                        "draft_quantizations",
                        local.draft_path,
                        "draft_quantization",
                        "sources.local.draft_path",
                    )
                )
            for key, template, placeholder, field in todo:
                statuses = spec_data.get(key) or {}
                details = spec_data.setdefault("details", {}).setdefault(key, {})
                for q, state in statuses.items():
                    try:
                        path = format_template(template, field, **{placeholder: q})
                    except ValueError:
                        continue
                    if state == "cached" and assets.needs_preparation(path):
                        statuses[q] = EMBEDDED
                        details.setdefault(q, {})["note"] = EMBEDDED_NOTE
    return data


def _cell(q: str, status: str, detail: dict[str, Any]) -> str:
    if status == "partial" and detail.get("total"):
        return f"{q}:partial {100 * detail['bytes'] // max(detail['total'], 1)}%"
    if status == "cached" and detail.get("source") == "hub-cache":
        return f"{q}:cached(hub)"
    if status == EMBEDDED:
        return f"{q}:{EMBEDDED_NOTE}"
    return f"{q}:{status}"


#: Up to this many quantizations are listed one by one; more are summarised ("2/21 cached: ...").
_LIST_ALL = 3
_COLUMNS = (("MODEL", 24), ("FORMAT", 6), ("SIZE", 10), ("HUB", 11), ("DRAFTER", 13))
TABLE_WIDTH = 100


def _summary(statuses: dict[str, str], details: dict[str, Any]) -> str:
    """Every quantization when there are few; else counts, naming the ones on disk (or partly)."""
    if len(statuses) <= _LIST_ALL:
        return " ".join(_cell(q, st, details.get(q, {})) for q, st in statuses.items())
    ready = [q for q, st in statuses.items() if st in ("cached", EMBEDDED)]
    parts = [f"{len(ready)}/{len(statuses)} cached" + (f": {', '.join(ready)}" if ready else "")]
    partial = [_cell(q, st, details.get(q, {})) for q, st in statuses.items() if st == "partial"]
    if partial:
        parts.append(" ".join(partial))
    invalid = sum(st == "invalid" for st in statuses.values())
    if invalid:
        parts.append(f"{invalid} invalid")
    return "; ".join(parts)


def _drafter_cell(statuses: dict[str, str] | None) -> str:
    if statuses is None:
        return "-"
    if len(statuses) == 1:
        ((q, st),) = statuses.items()
        return st if q == "default" else f"{q}:{st}"
    ready = sum(st in ("cached", EMBEDDED) for st in statuses.values())
    return f"{ready}/{len(statuses)} cached"


def models_table(registry: Registry, hub: str | None) -> str:
    """Human-readable listing under a header, fitting ``TABLE_WIDTH`` columns: one row per spec
    (drafter summarised); long cells wrap under their column. ``--json`` has the full detail."""
    import textwrap

    lead = sum(w + 1 for _h, w in _COLUMNS)
    rest = TABLE_WIDTH - lead

    def row(cells: list[str], last: str) -> list[str]:
        head = " ".join(f"{c[:w]:{w}}" for c, (_h, w) in zip(cells, _COLUMNS, strict=True))
        wrapped = textwrap.wrap(last, rest, break_on_hyphens=False) or [""]
        return [f"{head} {wrapped[0]}".rstrip()] + [f"{'':{lead}}{more}" for more in wrapped[1:]]

    lines = row([h for h, _w in _COLUMNS], "QUANTIZATIONS")
    for fam in _mark_embedded(registry, registry_status(registry, hub)):
        if fam.get("status") == "invalid":
            lines += row([fam["name"], "", "", "", ""], f"invalid: {fam.get('reason', '')}")
            continue
        for spec in fam["specs"]:
            details = spec.get("details", {})
            summary = _summary(spec["quantizations"], details.get("quantizations", {}))
            if spec.get("mmproj_quantizations"):  # a vision target's projector
                summary += f"; projector {_drafter_cell(spec['mmproj_quantizations'])}"
            if spec.get("reason"):
                summary += f"; invalid: {spec['reason']}"
            cells = [
                fam["name"],
                spec["format"],
                spec.get("size_text") or spec["size"],
                spec["hub"],
                _drafter_cell(spec.get("draft_quantizations")),
            ]
            lines += row(cells, summary)
    return "\n".join(lines)


# --- generate --------------------------------------------------------------------------------------
def resolve_cached_model(
    registry: Registry,
    name: str,
    fmt: str | None,
    size: str | float | None,
    quant: str | None,
    hub: str | None,
    drafter: bool,
    draft_quant: str | None,
) -> tuple[Path, Path | None]:
    """(target path, drafter path or None) of a cached spec; nothing is downloaded.

    Raises :class:`NotCachedError` (a FileNotFoundError) naming the ``tandem download`` command
    when the target or the requested drafter is not fully cached, RegistryError for an unknown
    model, SpecResolutionError for a spec that cannot be resolved.
    """
    fam, spec, q = registry.match(name, fmt, size, quant)
    chosen = choose_hub(spec, hub)
    target = CacheManager(fam, spec, "target", q, chosen).resolve_path()
    if not drafter:
        return target, None
    d = CacheManager(fam, spec, "drafter", q, chosen, draft_quantization=draft_quant)
    try:
        return target, d.resolve_path()
    except NotCachedError as exc:
        raise NotCachedError(f"the drafter is not cached: {exc}") from None


# --- download / delete -----------------------------------------------------------------------------
class _Printer:
    """Progress on stderr: one rewritten line on a terminal, a line every few seconds otherwise."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.tty = sys.stderr.isatty()
        self.last = 0.0

    def __call__(self, ev: ProgressEvent) -> None:
        if ev.note:
            print(f"{self.label}: {ev.note}", file=sys.stderr, flush=True)
            return
        now = time.monotonic()
        if ev.phase == "downloading" and now - self.last < (0.2 if self.tty else 5.0):
            return
        self.last = now
        if ev.phase == "downloading" and ev.bytes_total:
            pct = 100 * ev.bytes_done / ev.bytes_total
            eta = f" ETA {ev.eta:.0f}s" if ev.eta is not None else ""
            msg = (
                f"{self.label}: {pct:5.1f}% {_mb(ev.bytes_done)}/{_mb(ev.bytes_total)} {_mb(ev.rate)}/s{eta}"
            )
        else:
            msg = f"{self.label}: {ev.phase}"
        if self.tty:
            print(
                "\r\033[K" + msg, end="" if ev.phase == "downloading" else "\n", file=sys.stderr, flush=True
            )
        else:
            print(msg, file=sys.stderr, flush=True)


def _mb(n: float) -> str:
    return f"{n / 1e6:.1f} MB"


def cmd_quants(args: argparse.Namespace) -> int:
    """Refresh a family's GGUF quantization lists from the repositories (cached for later runs:
    the download command and the app then offer what the listing added), with cached markers."""
    registry = listed.load_registry()
    try:
        reports = listed.refresh(
            registry, args.name, size=args.size, hub=args.hub, fetch=not args.offline, endpoint=args.endpoint
        )
    except (RegistryError, CacheError, ValueError) as exc:
        print(f"tandem: {exc}", file=sys.stderr)
        return 2
    fam = registry.get(args.name)
    out: list[dict[str, Any]] = []
    for spec, rep in reports:

        def marker(role: Role, q: str, dq: str | None = None, spec: Any = spec, hub: str = rep.hub) -> str:
            try:
                return CacheManager(fam, spec, role, q, hub, draft_quantization=dq).status().state
            except (CacheError, ValueError):
                return "absent"

        targets = {q: marker("target", q) for q in spec.quantizations}
        drafters = {
            dq: marker("drafter", spec.quantizations[0], dq) for dq in spec.draft_quantizations(rep.hub)
        }
        label = f"{fam.name} GGUF {spec.size_text}"
        out.append(
            {
                "spec": label,
                "hub": rep.hub,
                "repo": rep.repo,
                "quantizations": targets,
                "added": rep.added,
                "not_in_repo": rep.missing,
                "drafter_repo": rep.draft_repo or None,
                "drafter_quantizations": drafters,
                "drafter_added": rep.draft_added,
                "drafter_not_in_repo": rep.draft_missing,
            }
        )
        if not args.json:
            print(rep.line(label))
            dots = {"cached": "●", "partial": "◐"}
            print("  " + "  ".join(f"{dots.get(st, '○')} {q}" for q, st in targets.items()))
            if drafters:
                print("  drafter: " + "  ".join(f"{dots.get(st, '○')} {q}" for q, st in drafters.items()))
    if not reports:
        print(f"tandem: {args.name}: no listing known; run without --offline to ask the hub", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(out, indent=1))
    return 0


def cmd_download(args: argparse.Namespace) -> int:
    registry = listed.load_registry()  # with the quantizations a `tandem quants` refresh added
    try:
        fam, spec, q = registry.match(args.name, args.fmt, args.size, args.quant)
    except RegistryError as exc:
        print(f"tandem: {exc}", file=sys.stderr)
        return 2
    hub = args.hub or choose_hub(spec, None)
    managers = [CacheManager(fam, spec, "target", q, hub, endpoint=args.endpoint)]
    if args.drafter or args.draft_quant:
        managers.append(
            CacheManager(
                fam, spec, "drafter", q, hub, draft_quantization=args.draft_quant, endpoint=args.endpoint
            )
        )
    cancel = CancelToken()
    result: dict[str, str] = {}
    for mgr in managers:
        try:
            path = mgr.download(progress=_Printer(mgr.entry_name), cancel=cancel)
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM (a second one exits at once: app.cli.stopping)
            cancel.cancel()
            print(f"tandem: {mgr.entry_name}: cancelled", file=sys.stderr)
            return stopping.current().exit_code()
        except DownloadCancelled as exc:
            print(f"tandem: {exc}", file=sys.stderr)
            return stopping.current().exit_code()
        except DiskSpaceError as exc:
            print(f"tandem: {exc}", file=sys.stderr)
            return 4
        except (CacheError, ValueError) as exc:
            print(f"tandem: {exc}", file=sys.stderr)
            return 2
        result[mgr.role] = str(path)
        if not args.json:
            print(f"{mgr.role}: {path}")
    if args.json:
        print(json.dumps(result))
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    registry = listed.load_registry()
    try:
        fam, spec, q = registry.match(args.name, args.fmt, args.size, args.quant)
        mgr = CacheManager(fam, spec, "target", q, args.hub or choose_hub(spec, None))
        existed = mgr.entry_dir.exists()
        freed = mgr.delete(free_disk=args.free_disk)
        # the Downloads list forgets its finished rows of this model, as the app's delete does
        DownloadQueue(registry).forget_finished_of(fam.name, spec.format, spec.size_label, q)
    except (RegistryError, CacheError, ValueError) as exc:
        print(f"tandem: {exc}", file=sys.stderr)
        return 2
    if args.free_disk:
        print(
            f"deleted {mgr.entry_name} and its drafters; freed {_mb(freed)} from the hub cache "
            "(other tools sharing that cache no longer have these files)"
        )
    elif existed:
        print(
            f"deleted {mgr.entry_name} and its drafters from Tandem's cache; the files stay in the hub "
            "cache (use --free-disk to delete them too)"
        )
    else:
        print(f"{mgr.entry_name} was not in Tandem's cache")
    return 0
