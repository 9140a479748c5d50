"""Quantization lists refreshed from the repositories' own listings.

A registry entry lists the quantizations that were published when it was written; quantizers add
and drop files afterwards. :func:`refresh` reads the listing of a GGUF spec's target repository
and of its drafter repository (from the hub, or the copy cached by an earlier listing) and
returns the spec with the quantizations the repositories hold added to the declared ones,
plus a :class:`Refresh` report of what was added and what the repository lacks. Declared
quantizations are never dropped (a file may come back, and a download of one the repository
lacks says so in one line). Only GGUF specs whose file templates carry ``{quantization}`` /
``{draft_quantization}`` are extended: a new quantization must resolve to its own file.

:func:`apply_cached` does the same for a whole registry from cached listings only (no network),
so what a refresh found survives a restart: the GUI and the CLI load the registry through it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from app.core import secrets
from app.core.cache import listing, remote_files
from app.core.cache.errors import SpecResolutionError
from app.core.cache.plan import make_plan
from app.core.cache.remote_files import RemoteFile
from app.core.registry import Family, GGUFSpec, Registry, RegistryError, parse_family
from app.core.registry.checks import placeholders
from app.core.registry.store import size_matches

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Refresh:
    """What the listings of one spec's repositories showed."""

    hub: str
    repo: str
    #: the repository's target quantizations, in listing order (empty: the listing has none)
    listed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    draft_repo: str = ""
    draft_listed: list[str] = field(default_factory=list)
    draft_added: list[str] = field(default_factory=list)
    draft_missing: list[str] = field(default_factory=list)

    def line(self, label: str) -> str:
        """One line for the CLI and the browser's notice (English; the GUI builds its own)."""
        parts = [f"{label} on {self.hub}: {self.repo} holds {len(self.listed)} quantizations"]
        if self.added:
            parts.append(f"added {', '.join(self.added)}")
        if self.missing:
            parts.append(f"not in the repository: {', '.join(self.missing)}")
        if self.draft_repo:
            held = ", ".join(self.draft_listed) or "none"
            parts.append(f"drafter quantizations in {self.draft_repo}: {held}")
            if self.draft_missing:
                parts.append(f"drafter not in the repository: {', '.join(self.draft_missing)}")
        return "; ".join(parts)


def _extendable(template: str, name: str) -> bool:
    try:
        return name in placeholders(template, "template")
    except ValueError:
        return False


def _merge(declared: list[str], listed: list[str]) -> tuple[list[str], list[str], list[str]]:
    """(merged, added, missing): declared order first, then what the listing adds."""
    upper = {q.upper() for q in declared}
    added = [q for q in listed if q.upper() not in upper]
    have = {q.upper() for q in listed}
    missing = [q for q in declared if q.upper() not in have]
    return [*declared, *added], added, missing


def _listing(
    hub: str, repo: str, revision: str, fetch: bool, endpoint: str | None, token: str | None
) -> list[RemoteFile] | None:
    if fetch:
        if token is None:
            token = secrets.get_token(hub)  # the keyring's, as downloads use
        return listing.fetch_listing(hub, repo, revision, endpoint, token)
    return remote_files.cached_listing(hub, repo, revision)


def refresh_spec(
    family: Family,
    spec: GGUFSpec,
    hub: str,
    *,
    fetch: bool = True,
    endpoint: str | None = None,
    token: str | None = None,
) -> tuple[GGUFSpec, Refresh | None]:
    """``(spec with the listed quantizations, report)``; ``(spec, None)`` when no listing is known
    (``fetch`` False and nothing cached) or the spec cannot be extended. Raises
    :class:`app.core.cache.HubError` when fetching a listing fails."""
    if hub not in spec.sources.hubs() or spec.quantization_parts:
        return spec, None
    src = spec.source(hub)
    target_plan = make_plan(family, spec, "target", spec.quantizations[0], hub)
    files = _listing(hub, target_plan.repo_id, target_plan.revision, fetch, endpoint, token)
    if files is None:
        return spec, None
    names = [f.path for f in files]
    template, _field = spec.file_template(hub, spec.quantizations[0])
    listed = listing.repo_quantizations(names, "target")
    quants, added, missing = _merge(spec.quantizations, listed)
    if not _extendable(template, "quantization"):  # a fixed file name: nothing can be added
        quants, added = spec.quantizations, []
    report = Refresh(hub, target_plan.repo_id, listed, added, missing)
    data = spec.model_dump(mode="json", exclude_none=True)
    data["quantizations"] = quants
    if spec.declares_drafter(hub) and src.draft_model_file_name_template:
        first: str | None = next(iter(spec.draft_quantizations(hub)), None)
        dplan = make_plan(family, spec, "drafter", spec.quantizations[0], hub, first)
        dfiles = (
            files
            if (dplan.repo_id, dplan.revision) == (target_plan.repo_id, target_plan.revision)
            else _listing(hub, dplan.repo_id, dplan.revision, fetch, endpoint, token)
        )
        if dfiles is not None:
            dlisted = listing.repo_quantizations([f.path for f in dfiles], "drafter")
            declared = list(src.draft_quantizations or [])
            dquants, dadded, dmissing = _merge(declared, dlisted)
            if declared and _extendable(src.draft_model_file_name_template, "draft_quantization"):
                data["sources"][hub]["draft_quantizations"] = dquants
            else:
                dadded = []
            report = Refresh(
                hub, target_plan.repo_id, listed, added, missing, dplan.repo_id, dlisted, dadded, dmissing
            )
    if not report.added and not report.draft_added:
        return spec, report
    new = GGUFSpec.model_validate(data)
    return new, report


def refresh(
    registry: Registry,
    name: str,
    *,
    fmt: str | None = None,
    size: str | None = None,
    hub: str | None = None,
    fetch: bool = True,
    endpoint: str | None = None,
    token: str | None = None,
) -> list[tuple[GGUFSpec, Refresh]]:
    """Refresh every GGUF spec of family ``name`` (or the one ``fmt``/``size`` select) from its
    repositories' listings, put the extended family into ``registry`` and return the reports.
    ``hub``: the hub to list (default: each spec's first)."""
    family = registry.get(name)
    if fmt not in (None, "gguf"):
        raise RegistryError(f"{name}: only GGUF specs list files to refresh quantizations from")
    specs = [
        s
        for s in family.specs
        if isinstance(s, GGUFSpec) and s.sources.hubs() and (size is None or size_matches(s, size))
    ]
    if not specs:
        raise RegistryError(f"{name}: no GGUF spec from a hub to refresh")
    found: list[tuple[int, Refresh]] = []
    replaced: dict[int, GGUFSpec] = {}
    for spec in specs:
        chosen_hub = hub or spec.sources.hubs()[0]
        if chosen_hub not in spec.sources.hubs():
            raise RegistryError(
                f"{name} {spec.size_label}: no source on {chosen_hub}; it has {spec.sources.hubs()}"
            )
        new, report = refresh_spec(family, spec, chosen_hub, fetch=fetch, endpoint=endpoint, token=token)
        if report is not None:
            found.append((family.specs.index(spec), report))
        if new is not spec:
            replaced[id(spec)] = new
    if replaced:
        family = registry.families[name] = _with_specs(family, replaced)
    out: list[tuple[GGUFSpec, Refresh]] = []
    for index, report in found:
        after = family.specs[index]
        assert isinstance(after, GGUFSpec)  # the same spec, maybe with more quantizations
        out.append((after, report))
    return out


def _with_specs(family: Family, replaced: dict[int, GGUFSpec]) -> Family:
    data = family.model_dump(mode="json", exclude_none=True)
    data["specs"] = [
        (replaced.get(id(s)) or s).model_dump(mode="json", exclude_none=True) for s in family.specs
    ]
    return parse_family(data)


def apply_cached(registry: Registry) -> Registry:
    """Extend every GGUF spec from the listings cached earlier (file reads only, no network);
    a listing that cannot be applied is skipped (logged), never an error."""
    for name, family in list(registry.families.items()):
        replaced: dict[int, GGUFSpec] = {}
        for spec in family.specs:
            if not isinstance(spec, GGUFSpec) or not spec.sources.hubs():
                continue
            try:
                new, _report = refresh_spec(family, spec, spec.sources.hubs()[0], fetch=False)
            except (ValueError, SpecResolutionError) as exc:
                log.info("cached listing of %s %s not applied: %s", name, spec.size_label, exc)
                continue
            if new is not spec:
                replaced[id(spec)] = new
        if replaced:
            try:
                registry.families[name] = _with_specs(family, replaced)
            except ValueError as exc:
                log.info("cached listings of %s not applied: %s", name, exc)
    return registry


def load_registry() -> Registry:
    """The registry as the app uses it: builtin and user families, extended by cached listings."""
    return apply_cached(Registry.load())
