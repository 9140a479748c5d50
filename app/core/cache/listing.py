"""Repository listings: file patterns resolved against them, sizes per quantization, a cache.

Hand-typed file names in a registry go stale (a quantizer renames, splits a file into parts, moves
it into a folder), and the hubs are not reachable everywhere the registry is written. So a file
template may be a *pattern*: a template containing ``*``, ``?`` or ``[`` is matched, case-
insensitively, against the repository's listing when the file is about to be downloaded:

- split GGUF parts (``name-00001-of-00003.gguf``) count as one file ``name.gguf``; every part of the
  series must be listed;
- ``mmproj*`` files (vision projectors) never match: they are never the language model;
- matches naming more than one model are an error naming the pattern and what was found, so the
  registry entry can be fixed.

Repositories get renamed (Unsloth's Gemma 4 drafters exist as ``MTP/mtp-gemma-4-X-it-Q8_0.gguf``
in some repos and ``MTP/gemma-4-X-it-Q8_0-MTP.gguf`` in others), so when the registry's name or
pattern matches nothing, :func:`resolve_for` looks in the listing for the file of that role and
quantization (drafter-shaped names for a drafter: an ``MTP/`` folder, ``mtp-*``, ``*-MTP.gguf``,
``*assistant*``...; every other model file for a target). Exactly one: it is used, and the plan
carries a note saying so. None or several: one line naming the quantizations and files the
repository holds; nothing is downloaded.

Listings fetched from a hub are cached (``cache_dir()/catalog/listings``) so sizes and resolved
names stay known offline: ``tandem models --json`` reports ``size_bytes`` from them, and the cache
status probe resolves patterns through them without the network.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import re
from collections.abc import Iterable
from typing import Any

from app.core import paths
from app.core.cache.errors import HubError, SpecResolutionError
from app.core.cache.hubs import err_code, hf_endpoint, modelscope_endpoint, translate_error
from app.core.cache.plan import Plan
from app.core.cache.remote_files import RemoteFile, cached_listing, store_listing

_SPLIT = re.compile(r"^(?P<stem>.+)-(?P<n>\d{5})-of-(?P<total>\d{5})(?P<ext>\.gguf)$", re.IGNORECASE)
_PATTERN_CHARS = ("*", "?", "[")


def is_pattern(name: str) -> bool:
    return any(c in name for c in _PATTERN_CHARS)


def logical_name(path: str) -> tuple[str, int, int]:
    """``(name, part, total)``: split parts map to the whole file's name (part/total 0 otherwise)."""
    m = _SPLIT.match(path)
    if m is None:
        return path, 0, 0
    return m["stem"] + m["ext"], int(m["n"]), int(m["total"])


def _is_projector(path: str) -> bool:
    return path.rsplit("/", 1)[-1].lower().startswith("mmproj")


class NoMatchError(SpecResolutionError):
    """No file in the repository listing matches the registry's name or pattern (``code``
    ``not_found``: the repository was listed and lacks it)."""

    code = "not_found"


#: a quantization token inside a file name: ``Q4_K_M``, ``UD-Q4_K_XL``, ``IQ4_XS``, ``BF16``,
#: ``MXFP4_MOE``... delimited by anything but a letter or digit (``-``, ``.``, ``_``, ``/``)
_QUANT = re.compile(
    r"(?<![A-Za-z0-9])(?:UD-)?(?:I?Q[1-8](?:_[0-9A-Z]{1,4})*|BF16|F16|F32|FP16|FP8|MXFP4(?:_MOE)?|TQ[12]_0)"
    r"(?![A-Za-z0-9])",
    re.IGNORECASE,
)
#: names of drafter files: an ``MTP/`` folder, an ``mtp-`` / ``dflash-`` / ``eagle3-`` / ``dspark-``
#: prefix (ggml-org's sidecars), an assistant, a ``draft/`` folder: never a target.
_DRAFTER_SHAPE = re.compile(
    r"(^|/)mtp/|(^|/)(mtp|dflash|eagle3?|dspark)[-_.]|assistant|(^|/)draft(er)?[-_./]",
    re.IGNORECASE,
)
#: a ``-MTP.gguf`` suffix: a drafter when a drafter is looked for (Unsloth's first uploads named
#: theirs ``gemma-4-X-it-Q8_0-MTP.gguf``), but still a possible target: models that carry their own
#: MTP heads are named so too (``Qwen3.6-27B-Q5_K_M-mtp.gguf``)
_MTP_SUFFIX = re.compile(r"[-_.]mtp\.gguf$", re.IGNORECASE)


def quantizations_in(name: str) -> list[str]:
    """The quantization tokens in a file name, upper-cased (``Small.q8_0.gguf`` -> ``['Q8_0']``)."""
    base = name.rsplit("/", 1)[-1]
    return [m.group(0).upper() for m in _QUANT.finditer(base)]


def is_drafter_file(path: str) -> bool:
    return bool(_DRAFTER_SHAPE.search(path))


def _model_files(listing: Iterable[str], role: str) -> dict[str, list[str]]:
    """Logical GGUF model files of ``role`` (split parts grouped) -> their listed paths.

    A target's are the model files that are not drafter-shaped; a drafter's are the
    drafter-shaped ones and those ending in ``-MTP.gguf``, or every model file of a repository
    that holds none (a small sibling model published on its own, such as Qwen3-0.6B)."""
    models: dict[str, list[str]] = {}
    drafters: dict[str, list[str]] = {}
    for path in sorted(set(listing)):
        if not path.lower().endswith(".gguf") or _is_projector(path):
            continue
        logical = logical_name(path)[0]
        if not is_drafter_file(path):
            models.setdefault(logical, []).append(path)
        if is_drafter_file(path) or _MTP_SUFFIX.search(logical):
            drafters.setdefault(logical, []).append(path)
    if role == "drafter":
        return drafters or models
    return models


def repo_quantizations(listing: Iterable[str], role: str = "target") -> list[str]:
    """The quantizations the repository holds for ``role``, in listing order, each once."""
    out: dict[str, None] = {}
    for logical in _model_files(listing, role):
        for q in quantizations_in(logical):
            out.setdefault(q, None)
    return list(out)


def resolve_pattern(pattern: str, listing: Iterable[str], where: str) -> list[str]:
    """The repository files ``pattern`` names (several only for the parts of one split file)."""
    pat = pattern.lower()
    groups: dict[str, list[tuple[int, int, str]]] = {}
    names = sorted(set(listing))
    for path in names:
        if _is_projector(path):
            continue
        logical, part, total = logical_name(path)
        if fnmatch.fnmatchcase(logical.lower(), pat):
            groups.setdefault(logical, []).append((part, total, path))
    if not groups:
        ggufs = [n for n in names if n.lower().endswith(".gguf")]
        shown = ", ".join(ggufs[:6]) + (", ..." if len(ggufs) > 6 else "") if ggufs else "no .gguf files"
        raise NoMatchError(
            f"{where}: no file in the repository matches {pattern!r} (it has {shown}); "
            "this quantization may not be published there, or the pattern needs fixing"
        )
    if len(groups) > 1:
        found = ", ".join(sorted(groups))
        raise SpecResolutionError(
            f"{where}: {len(groups)} files match {pattern!r} ({found}); the pattern must name one "
            "model file, make it more specific"
        )
    ((logical, parts),) = groups.items()
    parts.sort()
    totals = {t for _p, t, _n in parts}
    if parts[0][1]:  # a split series: every part, one total
        total = parts[0][1]
        have = {p for p, _t, _n in parts}
        if len(totals) != 1 or have != set(range(1, total + 1)):
            raise SpecResolutionError(
                f"{where}: {logical} is split into {total} parts but the repository lists parts "
                f"{sorted(have)}; the upload may be incomplete"
            )
    elif len(parts) > 1:  # the whole file and parts of it side by side
        raise SpecResolutionError(
            f"{where}: {pattern!r} matches both {logical} and split parts of it; make the pattern specific"
        )
    return [n for _p, _t, n in parts]


def resolve_files(files: Iterable[str], listing: Iterable[str], where: str) -> tuple[str, ...]:
    names = list(listing)
    out: list[str] = []
    for f in files:
        out += resolve_pattern(f, names, where) if is_pattern(f) else [f]
    return tuple(out)


def _short(items: list[str], n: int = 8) -> str:
    return ", ".join(items[:n]) + (f", ... ({len(items)} in all)" if len(items) > n else "")


def _resolve_one(pattern: str, names: list[str], where: str, quantization: str) -> list[str]:
    """:func:`resolve_pattern`, where several matches are narrowed to the files whose name
    carries exactly ``quantization`` (``*-Q4_K_M.gguf`` matches ``X-UD-Q4_K_M.gguf`` too, whose
    quantization is ``UD-Q4_K_M``); still several: the error stands."""
    try:
        return resolve_pattern(pattern, names, where)
    except NoMatchError:
        raise
    except SpecResolutionError:
        want = quantization.upper()
        if not want:
            raise
        exact = [n for n in names if want in quantizations_in(logical_name(n)[0])]
        if not exact or len(exact) == len(names):
            raise
        return resolve_pattern(pattern, exact, where)


def resolve_for(
    files: Iterable[str], listing: Iterable[str], where: str, role: str, quantization: str
) -> tuple[tuple[str, ...], str]:
    """``(files, note)``: the registry's names or patterns resolved against the listing.

    Names and patterns found in the listing are used as they are (``note`` empty). When one of
    them matches nothing, the listing is searched for the ``role``'s file of ``quantization``:
    one match is used and ``note`` says which file replaced which; none or several raise
    :class:`NoMatchError` naming the quantizations and files the repository holds.
    """
    names = list(listing)
    declared = list(files)
    if role == "projector":  # named exactly by the registry: never guessed from the listing
        missing = [f for f in declared if f not in names]
        if missing:
            projectors = [n for n in names if _is_projector(n)]
            has = f"it has {_short(projectors)}" if projectors else "it has no mmproj files"
            raise NoMatchError(f"{where}: no projector file {', '.join(missing)}; {has}")
        return tuple(declared), ""
    groups = _model_files(names, role)
    # a target never resolves to a drafter-shaped file (``*-Q4_0.gguf`` must not take the
    # ``mtp-Model-Q4_0.gguf`` sidecar beside it); a literal name is matched like a pattern, so
    # the parts of a split file are found under the whole file's name
    candidates = names if role == "drafter" else [n for n in names if not is_drafter_file(n)]
    if all(f in candidates for f in declared):  # the very names (the parts of a split file too)
        return tuple(declared), ""
    try:
        return tuple(p for f in declared for p in _resolve_one(f, candidates, where, quantization)), ""
    except NoMatchError:
        pass
    asked = ", ".join(declared)
    want = quantization.upper()
    hits = [logical for logical in groups if want and want in quantizations_in(logical)]
    if not want or not hits:
        # a drafter repo may carry one drafter whose name states no quantization (Unsloth's
        # root ``mtp-gemma-4-X-it.gguf``): when it is the only drafter there, it is the one
        unquantized = [g for g in groups if not quantizations_in(g)]
        if role == "drafter" and len(groups) == 1 and unquantized:
            hits = unquantized
    if len(hits) == 1:
        (logical,) = hits
        parts = groups[logical]
        found = parts[0] if len(parts) == 1 else f"{logical} ({len(parts)} parts)"
        return tuple(parts), f"the registry names {asked}, the repository has {found}: using it"
    what = "drafter" if role == "drafter" else "model"
    quants = repo_quantizations(names, role)
    if hits:
        raise NoMatchError(
            f"{where}: {len(hits)} {what} files are for {quantization} ({_short(hits)}) and none is "
            f"named {asked}; the registry entry needs a more specific name"
        )
    held = f"it holds {what} quantizations {_short(quants)}" if quants else f"it holds no {what} files"
    listed = f" ({_short(list(groups))})" if role == "drafter" and groups else ""
    raise NoMatchError(
        f"{where}: no {what} file for {quantization or 'this entry'} (the registry names {asked}); "
        f"{held}{listed}"
    )


# --- fetching a listing ------------------------------------------------------------------------


def fetch_listing(
    hub: str, repo_id: str, revision: str, endpoint: str | None = None, token: str | None = None
) -> list[RemoteFile]:
    """Every file of the repository with its size, from the hub (and cached for offline use)."""
    what = f"{repo_id}@{revision}"
    try:
        if hub == "huggingface":
            files = _hf_tree(hf_endpoint(endpoint), repo_id, revision, token)
        elif hub == "modelscope":
            from modelscope_hub import HubApi

            ms = HubApi(endpoint=modelscope_endpoint(endpoint), token=token or None)
            listing = ms.list_repo_files(repo_id, "model", revision=revision, recursive=True)
            files = [RemoteFile(f.path, int(f.size or 0)) for f in listing if not f.is_dir]
        else:
            raise SpecResolutionError(f"hub: {hub!r} has no repository listing")
    except SpecResolutionError:
        raise
    except Exception as exc:
        err = translate_error(exc, what, token, paths.cache_dir())
        raise (err if isinstance(err, HubError) else HubError(str(err), code=err_code(err))) from None
    store_listing(hub, repo_id, revision, files)
    return files


def hf_get(url: str, token: str | None, params: dict[str, Any] | None = None, timeout: float = 15.0) -> Any:
    """One GET on a Hugging Face API through huggingface_hub's session, without its retry loop
    (``http_backoff`` sleeps 23 s on a refused connection before giving up: an unreachable hub
    must fail at once, in one line)."""
    from huggingface_hub import get_session
    from huggingface_hub.utils._headers import build_hf_headers
    from huggingface_hub.utils._http import hf_raise_for_status

    r = get_session().get(url, params=params, headers=build_hf_headers(token=token or None), timeout=timeout)
    hf_raise_for_status(r)
    return r


def _hf_tree(endpoint: str, repo_id: str, revision: str, token: str | None) -> list[RemoteFile]:
    """``GET /api/models/{repo}/tree/{revision}?recursive=true``, following the ``Link`` pages."""
    from urllib.parse import quote

    url: str | None = f"{endpoint}/api/models/{repo_id}/tree/{quote(revision, safe='')}"
    params: dict[str, Any] | None = {"recursive": "true"}
    files: list[RemoteFile] = []
    while url:
        r = hf_get(url, token, params)
        for item in r.json():
            if item.get("type") == "file":
                lfs = item.get("lfs") or {}
                files.append(RemoteFile(str(item["path"]), int(lfs.get("size") or item.get("size") or 0)))
        url = r.links.get("next", {}).get("url")
        params = None  # the next link carries the query
    return files


# --- plans -------------------------------------------------------------------------------------


def _resolved(plan: Plan, listing: list[RemoteFile]) -> Plan:
    files, note = resolve_for(
        plan.declared or plan.files,
        [f.path for f in listing],
        f"{plan.repo_id}@{plan.revision}",
        plan.role,
        plan.quantization,
    )
    return dataclasses.replace(plan, files=files, note=note)


def resolve_plan(plan: Plan, backend: Any) -> Plan:
    """``plan`` with the registry's names replaced by the repository's own (online).

    Called by the cache layer right before a download asks the hub for file metadata. Every
    file plan is checked against the listing, literal names too: a renamed file is found (and
    said) instead of failing on the hub's 401/404; a snapshot plan is returned unchanged.
    """
    if plan.kind != "files":
        return plan
    listing = fetch_listing(
        plan.hub,
        plan.repo_id,
        plan.revision,
        getattr(backend, "endpoint", None),
        getattr(backend, "token", None),
    )
    return _resolved(plan, listing)


def resolve_plan_offline(plan: Plan) -> Plan:
    """``plan`` resolved through a cached listing when one exists; unchanged otherwise."""
    if plan.kind != "files":
        return plan
    listing = cached_listing(plan.hub, plan.repo_id, plan.revision)
    if listing is None:
        return plan
    try:
        return _resolved(plan, listing)
    except SpecResolutionError:
        return plan  # reported when the download resolves it online


def plan_size(plan: Plan) -> int | None:
    """Bytes of the plan's files from a cached listing (split parts summed), None when unknown."""
    if plan.kind != "files":
        listing = cached_listing(plan.hub, plan.repo_id, plan.revision)
        return sum(f.size for f in listing) if listing else None
    listing = cached_listing(plan.hub, plan.repo_id, plan.revision)
    if listing is None:
        return None
    sizes = {f.path: f.size for f in listing}
    try:
        files, _note = resolve_for(
            plan.declared or plan.files, sizes, plan.repo_id, plan.role, plan.quantization
        )
    except SpecResolutionError:
        return None
    if any(f not in sizes for f in files):
        return None
    return sum(sizes[f] for f in files)
