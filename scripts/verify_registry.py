"""Check the builtin registry against the real hubs (for maintainers with a network).

    python scripts/verify_registry.py            # offline: every spec plans, has a page, and has
                                                 # evidence or is marked unverified
    python scripts/verify_registry.py --online   # + every repo and file pattern (drafters and
                                                 # vision projectors too) on the real hubs

Offline, every hub source of a builtin spec must either list ``evidence`` (the public pages that
showed its repo and files, each with the day it was read) or say ``"unverified": true``, and no
drafter may be declared without a source page for it; ``--stale-days N`` also fails evidence
older than N days. Online, each repository's listing is fetched once (Hugging Face and ModelScope, through
huggingface_hub and the ModelScope SDK, honouring HF_ENDPOINT / MODELSCOPE_ENDPOINT), every
quantization's file pattern must resolve to exactly one model file (split parts complete), every
MLX repo must hold config.json, and the sizes found are cached, so ``tandem models --json`` knows
them afterwards. Exit status 0 only when every check passed; each failure is one line.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
from dataclasses import dataclass, field

from app.core.cache import listing, make_plan
from app.core.cache.errors import CacheError
from app.core.cache.plan import Role
from app.core.registry import GGUFSpec, HubSource, Registry


@dataclass
class Report:
    checked: int = 0
    failures: list[str] = field(default_factory=list)

    def fail(self, line: str) -> None:
        self.failures.append(line)


def check_evidence(where: str, src: HubSource, rep: Report, stale_days: int | None, today: dt.date) -> None:
    """Every hub source says where it was confirmed, or that nothing confirmed it."""
    if not src.evidence and not src.unverified:
        rep.fail(f"{where}: {src.model_id} has no evidence and is not marked unverified")
        return
    for ev in src.evidence or []:
        try:
            day = dt.date.fromisoformat(ev.checked)
        except ValueError:
            rep.fail(f"{where}: evidence {ev.url} has no full date ({ev.checked!r})")
            continue
        if day > today:
            rep.fail(f"{where}: evidence {ev.url} is dated in the future ({ev.checked})")
        elif stale_days is not None and (today - day).days > stale_days:
            rep.fail(f"{where}: evidence {ev.url} is {(today - day).days} days old; check it again")


def verify(
    online: bool,
    only: list[str] | None = None,
    stale_days: int | None = None,
    today: dt.date | None = None,
    registry: Registry | None = None,
) -> Report:
    reg = registry or Registry.load()
    rep = Report()
    day = today or dt.date.today()
    listings: dict[tuple[str, str, str], list[str] | str] = {}

    def files_of(hub: str, repo: str, rev: str) -> list[str] | str:
        key = (hub, repo, rev)
        if key not in listings:
            try:
                listings[key] = [f.path for f in listing.fetch_listing(hub, repo, rev)]
            except CacheError as exc:
                listings[key] = str(exc)
        return listings[key]

    for fam in reg.families.values():
        if only and fam.name not in only:
            continue
        for spec in fam.specs:
            for hub in spec.sources.hubs():
                src = spec.source(hub)
                where = f"{fam.name} {spec.format}/{spec.size_label} on {hub}"
                if not src.page:
                    rep.fail(f"{where}: {src.model_id} carries no page URL")
                if src.draft_model_id and not src.draft_page:
                    rep.fail(f"{where}: drafter {src.draft_model_id} carries no page URL")
                if fam.name in reg.builtin_names:
                    rep.checked += 1
                    check_evidence(where, src, rep, stale_days, day)
                roles: list[tuple[Role, str | None]] = [("target", None)]
                if spec.declares_drafter(hub):
                    dqs: list[str | None] = [*spec.draft_quantizations(hub)] or [None]
                    roles += [("drafter", dq) for dq in dqs]
                if spec.declares_projector(hub):  # the vision projector
                    pqs: list[str | None] = [*spec.mmproj_quantizations(hub)] or [None]
                    roles += [("projector", pq) for pq in pqs]
                for q in spec.quantizations:
                    for role, dq in roles:
                        if role != "target" and q != spec.quantizations[0]:
                            continue  # one drafter / projector check per quantization of its own
                        rep.checked += 1
                        try:
                            if role == "projector":
                                plan = make_plan(fam, spec, "projector", q, hub, mmproj_quantization=dq)
                            else:
                                plan = make_plan(fam, spec, role, q, hub, dq)
                        except ValueError as exc:
                            rep.fail(f"{where} {role} {dq or q}: {exc}")
                            continue
                        if not online:
                            continue
                        names = files_of(hub, plan.repo_id, plan.revision)
                        if isinstance(names, str):
                            rep.fail(f"{where} {role} {dq or q}: {names}")
                            continue
                        if isinstance(spec, GGUFSpec):
                            try:
                                _files, note = listing.resolve_for(
                                    plan.files, names, plan.repo_id, plan.role, plan.quantization
                                )
                            except CacheError as exc:
                                rep.fail(f"{where} {role} {dq or q}: {exc}")
                                continue
                            if note:  # downloads would still work; the entry should say the real name
                                rep.fail(f"{where} {role} {dq or q}: {note}")
                        elif "config.json" not in names:
                            rep.fail(f"{where} {role} {dq or q}: {plan.repo_id} has no config.json")
    return rep


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--online", action="store_true", help="check every repo and file on the real hubs")
    ap.add_argument("--family", action="append", help="check only this family (repeatable)")
    ap.add_argument("--stale-days", type=int, help="fail evidence older than this many days")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rep = verify(args.online, args.family, args.stale_days)
    if args.json:
        print(json.dumps({"online": args.online, "checked": rep.checked, "failures": rep.failures}, indent=1))
    else:
        for line in rep.failures:
            print(f"FAIL {line}")
        mode = "online" if args.online else "offline (add --online to ask the hubs)"
        print(f"{rep.checked} checks, {len(rep.failures)} failures, {mode}")
    return 1 if rep.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
