"""Hub search and one-click add.

- :func:`search_page` asks one hub for one page of models matching a query, most downloaded
  first, optionally only GGUF or MLX repositories. Hugging Face: ``GET /api/models`` with the
  parameters ``HfApi.list_models`` sends (``search``, ``filter``, ``sort``, ``direction``,
  ``limit``, ``expand``) and its ``Link: <...>; rel="next"`` pagination, each item parsed by
  huggingface_hub's ``ModelInfo``; one plain request per page, no retry loop (``http_backoff``
  sleeps ~23 s on a refused connection: an unreachable hub must fail at once, in one line).
  ModelScope: the ``modelscope_hub`` SDK's ``HubApi.list_repos`` (its OpenAPI ``GET /models``),
  with a client that makes one attempt.
- :func:`search` follows pages until ``limit`` results (the CLI).
- :func:`quant_groups` lists a repository's files grouped by quantization, split GGUF parts
  summed (the listing comes from :mod:`app.core.cache.listing`, and is cached there).
- :func:`family_from_repo` writes a user family in the registry schema for a result, with the
  file template checked against the listing; :func:`add_to_registry` registers it (the same file
  ``tandem register`` writes).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from app.core import paths
from app.core.cache import listing
from app.core.cache.errors import HubError, SpecResolutionError
from app.core.cache.hubs import err_code, hf_endpoint, modelscope_endpoint, translate_error
from app.core.cache.remote_files import RemoteFile
from app.core.registry import Family, Registry, RegistryError

HUBS = ("huggingface", "modelscope")
FORMATS = ("gguf", "mlx")
#: what the user sees when a hub cannot be reached (the GUI shows its own translated line)
OFFLINE = "search needs the network; your registry still works"
TIMEOUT = 15.0


@dataclass
class SearchResult:
    id: str
    hub: str
    downloads: int = 0
    likes: int = 0
    last_modified: str | None = None  # ISO 8601
    formats: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class SearchPage:
    results: list[SearchResult]
    #: where the next page is (an opaque cursor for :func:`search_page`), None on the last page
    next: str | None = None


class SearchError(HubError):
    """The hub could not be searched; the message is one line for the user."""


def _iso(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, dt.datetime):
        when: dt.datetime = value if value.tzinfo else value.replace(tzinfo=dt.UTC)
        return when.isoformat().replace("+00:00", "Z")
    if isinstance(value, (int, float)):  # ModelScope answers epoch seconds in places
        return dt.datetime.fromtimestamp(float(value), dt.UTC).isoformat().replace("+00:00", "Z")
    return str(value)


def formats_of(tags: list[str] | None, library: str | None = None, repo_id: str = "") -> list[str]:
    """``gguf`` / ``mlx`` from a repository's tags, library and (last resort) its name."""
    words = {t.lower() for t in (tags or [])} | ({library.lower()} if library else set())
    name = repo_id.lower()
    out = [f for f in FORMATS if f in words or re.search(rf"(^|[-_./]){f}($|[-_./])", name)]
    return out


def _check(hub: str, fmt: str | None, limit: int) -> None:
    if hub not in HUBS:
        raise SearchError(f"unknown hub {hub!r}; use one of {', '.join(HUBS)}", code="bad_input")
    if fmt is not None and fmt not in FORMATS:
        raise SearchError(f"unknown format {fmt!r}; use gguf or mlx", code="bad_input")
    if limit <= 0:
        raise SearchError("--limit must be a positive number of results", code="bad_input")


def _unreachable(hub: str, exc: BaseException, where: str, token: str | None) -> SearchError:
    err = translate_error(exc, where, token, paths.cache_dir())
    code = err.code if isinstance(err, HubError) else err_code(err)
    if code == "network":
        return SearchError(f"{hub} is unreachable: {OFFLINE}", code="network")
    return SearchError(f"{hub} search failed: {err}", code=code)


# --- Hugging Face ------------------------------------------------------------------------------


def _hf_page(
    query: str, fmt: str | None, page_size: int, cursor: str | None, endpoint: str | None, token: str | None
) -> SearchPage:
    from huggingface_hub.hf_api import ModelInfo

    base = hf_endpoint(endpoint)
    if cursor:
        url, params = cursor, None  # the next link carries the query
    else:
        url = f"{base}/api/models"
        params = {
            "search": query,
            "sort": "downloads",
            "direction": -1,
            "limit": page_size,
            "expand": ["downloads", "likes", "lastModified", "tags", "library_name"],
        }
        if fmt:
            params["filter"] = fmt
    try:
        r = listing.hf_get(url, token, params, timeout=TIMEOUT)
        items = r.json()
    except Exception as exc:
        raise _unreachable("huggingface", exc, f"search {query!r}", token) from None
    if not isinstance(items, list):
        raise SearchError("huggingface search answered something that is not a list of models")
    results = []
    for item in items:
        if not isinstance(item, dict) or "id" not in item:
            continue
        item.setdefault("siblings", None)
        info = ModelInfo(**item)  # type: ignore[no-untyped-call]  # huggingface_hub leaves it untyped
        results.append(
            SearchResult(
                id=info.id,
                hub="huggingface",
                downloads=int(info.downloads or 0),
                likes=int(info.likes or 0),
                last_modified=_iso(info.last_modified),
                formats=formats_of(info.tags, info.library_name, info.id),
            )
        )
    return SearchPage(results, r.links.get("next", {}).get("url"))


# --- ModelScope --------------------------------------------------------------------------------


def _ms_api(endpoint: str | None, token: str | None) -> Any:
    from modelscope_hub import HubApi
    from modelscope_hub._openapi import OpenAPIClient

    api = HubApi(endpoint=modelscope_endpoint(endpoint), token=token or None)
    # one attempt, bounded: the SDK's default client retries five times with back-off
    api._openapi = OpenAPIClient(api._config, max_retries=1, timeout=TIMEOUT)
    return api


def _ms_page(
    query: str, fmt: str | None, page_size: int, cursor: str | None, endpoint: str | None, token: str | None
) -> SearchPage:
    page_number = int(cursor) if cursor else 1
    filters = {"library": fmt} if fmt else {}
    try:
        page = _ms_api(endpoint, token).list_repos(
            "model", search=query, sort="downloads", page_number=page_number, page_size=page_size, **filters
        )
    except Exception as exc:
        raise _unreachable("modelscope", exc, f"search {query!r}", token) from None
    results = [
        SearchResult(
            id=str(info.repo_id if getattr(info, "repo_id", None) else f"{info.owner}/{info.name}"),
            hub="modelscope",
            downloads=int(info.downloads or 0),
            likes=int(info.likes or 0),
            last_modified=_iso(info.last_modified),
            formats=formats_of(info.tags, None, f"{info.owner}/{info.name}"),
        )
        for info in page.items
    ]
    return SearchPage(results, str(page_number + 1) if page.has_next and results else None)


# --- entry points --------------------------------------------------------------------------------


def search_page(
    hub: str,
    query: str,
    fmt: str | None = None,
    page_size: int = 20,
    cursor: str | None = None,
    endpoint: str | None = None,
    token: str | None = None,
) -> SearchPage:
    """One page of results, most downloaded first; ``cursor`` is a previous page's ``next``."""
    _check(hub, fmt, page_size)
    fetch = _hf_page if hub == "huggingface" else _ms_page
    return fetch(query.strip(), fmt, page_size, cursor, endpoint, token)


def search(
    hub: str,
    query: str,
    fmt: str | None = None,
    limit: int = 20,
    endpoint: str | None = None,
    token: str | None = None,
) -> list[SearchResult]:
    """Up to ``limit`` results, following the hub's pages."""
    _check(hub, fmt, limit)
    out: list[SearchResult] = []
    cursor: str | None = None
    while len(out) < limit:
        page = search_page(hub, query, fmt, limit - len(out) if hub == "huggingface" else min(limit, 100),
                           cursor, endpoint, token)  # fmt: skip
        out += page.results
        cursor = page.next
        if not cursor or not page.results:
            break
    return out[:limit]


# --- a repository's files by quantization ------------------------------------------------------

_QUANT = re.compile(
    r"(?<![A-Za-z0-9])((?:UD-)?(?:I?Q\d_[A-Z0-9]+(?:_[A-Z0-9]+)*|Q\d_K|Q\d|BF16|F16|F32|MXFP4(?:_MOE)?))"
    r"(?=$|[-_.])",
    re.IGNORECASE,
)
_BITS = re.compile(r"(?<![A-Za-z0-9])(\d{1,2})[-_]?bits?(?![A-Za-z0-9])", re.IGNORECASE)


def quant_of(name: str) -> str | None:
    """The quantization a GGUF file name carries (``Q4_K_M``, ``F16``, ``UD-Q4_K_XL``...)."""
    stem = name.rsplit("/", 1)[-1]
    stem = stem[: -len(".gguf")] if stem.lower().endswith(".gguf") else stem
    found = _QUANT.findall(stem)
    return found[-1].upper() if found else None


@dataclass
class QuantFile:
    name: str  # the logical name (split parts as one file)
    parts: list[str]
    size_bytes: int


@dataclass
class QuantGroup:
    quant: str
    files: list[QuantFile]

    @property
    def size_bytes(self) -> int:
        """The size of the model file of this quantization (the first listed file)."""
        return self.files[0].size_bytes if self.files else 0


def gguf_groups(files: list[RemoteFile]) -> list[QuantGroup]:
    """GGUF files grouped by quantization, split parts summed, projectors left out; within a
    group the most likely model file first (fewest folders, then largest)."""
    logical: dict[str, QuantFile] = {}
    for f in files:
        if not f.path.lower().endswith(".gguf") or f.path.rsplit("/", 1)[-1].lower().startswith("mmproj"):
            continue
        name, _part, _total = listing.logical_name(f.path)
        qf = logical.setdefault(name, QuantFile(name, [], 0))
        qf.parts.append(f.path)
        qf.size_bytes += f.size
    groups: dict[str, list[QuantFile]] = {}
    for qf in logical.values():
        qf.parts.sort()
        groups.setdefault(quant_of(qf.name) or "other", []).append(qf)
    out = []
    for quant, qfs in groups.items():
        qfs.sort(key=lambda q: (q.name.count("/"), -q.size_bytes, q.name))
        out.append(QuantGroup(quant, qfs))
    out.sort(key=lambda g: (g.quant == "other", -g.size_bytes))
    return out


def mlx_quant(repo_id: str) -> str:
    m = _BITS.search(repo_id)
    return f"{m.group(1)}bit" if m else "default"


def repo_listing(
    hub: str, repo_id: str, endpoint: str | None = None, token: str | None = None
) -> list[RemoteFile]:
    revision = "main" if hub == "huggingface" else "master"
    return listing.fetch_listing(hub, repo_id, revision, endpoint, token)


# --- writing a family ----------------------------------------------------------------------------

_SIZE_B = re.compile(r"(?<![A-Za-z0-9.])(\d+(?:\.\d+)?)\s*([BM])(?![A-Za-z])", re.IGNORECASE)


def size_from_name(repo_id: str) -> float | None:
    """Parameters in billions from a name like ``Qwen3-0.6B`` or ``SmolLM2-135M`` (None if absent)."""
    found = _SIZE_B.findall(repo_id.rsplit("/", 1)[-1].replace("_", "-"))
    if not found:
        return None
    num, unit = found[0]
    value = float(num) / (1000 if unit.upper() == "M" else 1)
    return value if value > 0 else None


def family_name(repo_id: str, registry: Registry) -> str:
    base = re.sub(r"[^A-Za-z0-9._-]+", "-", repo_id.rsplit("/", 1)[-1]).strip("-._").lower() or "model"
    base = base[:120]
    name, n = base, 2
    while name in registry.families or any(e.name == name for e in registry.invalid):
        name, n = f"{base}-{n}", n + 1
    return name


def _estimate_size(groups: list[QuantGroup]) -> float:
    from app.core.catalog.fit import estimated_weights

    for g in groups:
        per_billion = estimated_weights(1.0, g.quant)
        if per_billion:
            return max(round(g.size_bytes / per_billion, 3), 0.001)
    return max(round((groups[0].size_bytes if groups else 0) / 2e9, 3), 0.001)


def gguf_template(groups: list[QuantGroup]) -> tuple[str, list[str]]:
    """One file template for the quantizations whose model files share one shape, and those
    quantizations. A file in a folder or split into parts makes the template a pattern (resolved
    against the listing at download time), e.g. ``*Qwen3-4B-{quantization}.gguf``."""
    shapes: dict[tuple[str, str], list[tuple[str, QuantFile]]] = {}
    for g in groups:
        if g.quant == "other":
            continue
        qf = g.files[0]
        base = qf.name.rsplit("/", 1)[-1]
        i = base.upper().rfind(g.quant.upper())
        if i < 0:
            continue
        shapes.setdefault((base[:i], base[i + len(g.quant) :]), []).append((g.quant, qf))
    if not shapes:
        raise SpecResolutionError("no GGUF file in this repository names its quantization")
    (pre, post), members = max(shapes.items(), key=lambda kv: (len(kv[1]), -len(kv[0][0])))
    pattern = any("/" in qf.name or len(qf.parts) > 1 for _q, qf in members)
    template = ("*" if pattern else "") + pre + "{quantization}" + post
    return template, [q for q, _qf in members]


def family_from_repo(
    hub: str,
    repo_id: str,
    files: list[RemoteFile],
    registry: Registry,
    *,
    fmt: str | None = None,
    name: str | None = None,
) -> dict[str, Any]:
    """A user family (registry schema) for ``repo_id`` on ``hub``, from its file listing."""
    page = (
        f"https://huggingface.co/{repo_id}"
        if hub == "huggingface"
        else f"https://modelscope.cn/models/{repo_id}"
    )
    groups = gguf_groups(files)
    if fmt is None:
        fmt = "gguf" if groups else "mlx"
    size = size_from_name(repo_id)
    description = f"Added from {hub} search: {repo_id}"
    if fmt == "gguf":
        if not groups:
            raise SpecResolutionError(f"{repo_id}: the repository has no GGUF file")
        template, quants = gguf_template(groups)
        listed = [f.path for f in files]
        if listing.is_pattern(template):
            # every quantization must resolve to exactly its file: checked now, not at download time
            for q in quants:
                listing.resolve_pattern(template.format(quantization=q), listed, repo_id)
        chosen = [g for g in groups if g.quant in quants]
        spec: dict[str, Any] = {
            "format": "gguf",
            "size_in_billions": size or _estimate_size(chosen),
            "quantizations": quants,
            "model_file_name_template": template,
            "sources": {hub: {"model_id": repo_id, "page": page}},
        }
    else:
        if not any(f.path.endswith(".safetensors") for f in files):
            raise SpecResolutionError(
                f"{repo_id}: the repository has no safetensors weights (not an MLX model)"
            )
        weights = sum(f.size for f in files if f.path.endswith(".safetensors"))
        spec = {
            "format": "mlx",
            "size_in_billions": size or max(round(weights / 0.5625e9, 3), 0.001),
            "quantizations": [mlx_quant(repo_id)],
            "sources": {hub: {"model_id": repo_id, "page": page}},
        }
    return {
        "name": name or family_name(repo_id, registry),
        "description": description,
        "context_length": 4096,
        "abilities": ["chat"],
        "specs": [spec],
    }


def add_to_registry(registry: Registry, data: dict[str, Any]) -> Family:
    """Register ``data`` as a user family (the file ``tandem register`` writes)."""
    try:
        return registry.register(data)
    except RegistryError:
        raise
    except OSError as exc:
        raise RegistryError(f"could not write the user family: {exc}") from None
