"""Compatible-drafter finder.

A drafter can draft for a target only when both tokenize text the same way: same tokenizer type,
the same token list (fingerprinted) and the same special tokens (BOS / EOS). The finder proves it
from the GGUF headers *before* anything is downloaded:

- local files (folders given with ``--search``) and Tandem's cache entries: the header is read
  from disk by :mod:`app.core.gguf_tools`' fast reader;
- hub repositories: only the header bytes are fetched, with HTTP range requests (growing windows
  until the header parses), through huggingface_hub's session for Hugging Face and the same
  client for ModelScope's file endpoint. One file per repository is read (its smallest GGUF): every
  quantization of one repository shares its tokenizer.

Incompatible or unreadable candidates are never offered; each carries the reason, for hover texts
and ``--json``. A candidate must also be smaller than the target (a drafter that is not smaller
cannot pay). MLX folders follow the same rule with ``tokenizer.json`` (vocabulary and added tokens).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from app.core import gguf_tools
from app.core.cache import listing
from app.core.cache.errors import CacheError, HubError
from app.core.cache.hubs import err_code, hf_endpoint, modelscope_endpoint, translate_error
from app.core.gguf_tools import GGUFFormatError, VocabInfo

FIRST_WINDOW = 1 << 20  # 1 MiB; a 262k-token vocabulary needs ~5 MiB
MAX_HEADER = 128 << 20


@dataclass
class Candidate:
    """One possible drafter. ``kind``: ``file`` (a local path), ``cache`` (a Tandem cache entry)
    or ``hub`` (``repo``/``file`` on ``hub``). ``reason`` says why it is compatible, or why not."""

    kind: str
    compatible: bool
    reason: str
    size_bytes: int | None = None
    path: str | None = None
    hub: str | None = None
    repo: str | None = None
    file: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}

    @property
    def label(self) -> str:
        return self.path or f"{self.hub}:{self.repo}/{self.file}"


def compare(target: VocabInfo, cand: VocabInfo) -> str | None:
    """None when ``cand`` can draft for ``target``, else what differs (first difference)."""
    why = gguf_tools.compare_vocab(target, cand)
    if why:
        return why
    if (target.bos, target.eos) != (cand.bos, cand.eos):
        return (
            f"special tokens differ (target BOS/EOS {target.bos}/{target.eos}, "
            f"candidate {cand.bos}/{cand.eos})"
        )
    return None


def _why_ok(v: VocabInfo) -> str:
    return f"identical vocabulary ({v.model}, {v.size} tokens, same BOS/EOS)"


def _judge(target: VocabInfo, target_size: int, cand: VocabInfo | str, size: int | None) -> tuple[bool, str]:
    if isinstance(cand, str):
        return False, cand
    why = compare(target, cand)
    if why:
        return False, why
    if size is not None and size >= target_size:
        return False, "not smaller than the target, so it cannot speed it up"
    return True, _why_ok(cand)


# --- local files -------------------------------------------------------------------------------


def _local_vocab(path: Path) -> VocabInfo | str:
    try:
        return gguf_tools.vocab_info(path)
    except (GGUFFormatError, OSError) as exc:
        return str(exc)


def _file_size(path: Path) -> int:
    from app.core.catalog.fit import FitError, weights_bytes

    try:
        return weights_bytes(path)
    except FitError:
        return path.stat().st_size


def _gguf_files(folder: Path) -> Iterable[Path]:
    """GGUF files under ``folder`` (two levels deep), first parts only, no projectors."""
    for depth_glob in ("*.gguf", "*/*.gguf"):
        for p in sorted(folder.glob(depth_glob)):
            _logical, part, _total = listing.logical_name(p.name)
            if part > 1 or p.name.lower().startswith("mmproj") or not p.is_file():
                continue
            yield p


def cached_gguf_paths() -> list[Path]:
    """The GGUF files of every complete Tandem cache entry (first file of each)."""
    from app.core.cache.manager import Manifest, entries_root

    out: list[Path] = []
    root = entries_root()
    if not root.is_dir():
        return out
    for entry in sorted(root.iterdir()):
        man = Manifest.read(entry)
        if man is None or not man.complete or man.kind != "files" or not man.files:
            continue
        local = man.files[0].get("local")
        if local and str(local).lower().endswith(".gguf") and Path(local).is_file():
            out.append(Path(local))
    return out


def local_candidates(target: Path, search: Iterable[Path], include_cache: bool = True) -> list[Candidate]:
    tv = _local_vocab(target)
    if isinstance(tv, str):
        raise CacheError(f"cannot read the target: {tv}")
    tsize = _file_size(target)
    seen = {target.resolve()}
    out: list[Candidate] = []
    sources: list[tuple[str, Path]] = []
    for folder in search:
        if not folder.is_dir():
            raise CacheError(f"{folder}: not a folder")
        sources += [("file", p) for p in _gguf_files(folder)]
    if include_cache:
        sources += [("cache", p) for p in cached_gguf_paths()]
    for kind, p in sources:
        real = p.resolve()
        if real in seen:
            continue
        seen.add(real)
        size = _file_size(p)
        ok, why = _judge(tv, tsize, _local_vocab(p), size)
        out.append(Candidate(kind, ok, why, size, path=str(p)))
    return out


# --- remote headers ----------------------------------------------------------------------------


def file_url(hub: str, repo: str, path: str, revision: str, endpoint: str | None = None) -> str:
    from urllib.parse import quote

    if hub == "huggingface":
        return f"{hf_endpoint(endpoint)}/{repo}/resolve/{quote(revision, safe='')}/{quote(path)}"
    if hub == "modelscope":
        return (
            f"{modelscope_endpoint(endpoint)}/api/v1/models/{repo}/repo?Revision={quote(revision)}"
            f"&FilePath={quote(path)}"
        )
    raise ValueError(f"hub: unknown hub {hub!r}")


def remote_header(
    hub: str, repo: str, path: str, revision: str, endpoint: str | None = None, token: str | None = None
) -> dict[str, Any]:
    """The header fields of a remote GGUF, reading only its first bytes (HTTP ``Range``)."""
    from huggingface_hub import get_session

    url = file_url(hub, repo, path, revision, endpoint)
    headers: dict[str, str] = {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    window = FIRST_WINDOW
    while True:
        try:
            r = get_session().get(url, headers={**headers, "Range": f"bytes=0-{window - 1}"}, timeout=30)
            if r.status_code >= 400:
                raise HubError(
                    f"{repo}/{path}: the hub answered {r.status_code}",
                    code="not_found"
                    if r.status_code == 404
                    else "auth"
                    if r.status_code in (401, 403)
                    else "",
                )
            data = r.content
        except HubError:
            raise
        except Exception as exc:
            err = translate_error(exc, f"{repo}/{path}", token, Path("."))
            raise (err if isinstance(err, HubError) else HubError(str(err), code=err_code(err))) from None
        header = gguf_tools.parse_header_bytes(data, path)  # GGUFFormatError: not a GGUF
        if header is not None:
            return header.fields
        if r.status_code != 206 or len(data) < window or window >= MAX_HEADER:
            raise GGUFFormatError(f"{path} is a damaged or incomplete GGUF file (header ends early)")
        window *= 4


def hub_candidates(
    target: VocabInfo,
    target_size: int,
    hub: str,
    repos: Iterable[str],
    revision: str | None = None,
    endpoint: str | None = None,
    token: str | None = None,
) -> list[Candidate]:
    """Every GGUF of ``repos`` judged by the header of the repository's smallest GGUF."""
    rev = revision or ("main" if hub == "huggingface" else "master")
    out: list[Candidate] = []
    for repo in dict.fromkeys(repos):
        try:
            files = listing.fetch_listing(hub, repo, rev, endpoint, token)
        except CacheError as exc:
            out.append(Candidate("hub", False, str(exc), hub=hub, repo=repo))
            continue
        groups: dict[str, list[tuple[str, int]]] = {}
        for f in files:
            logical, _part, _total = listing.logical_name(f.path)
            name = f.path.rsplit("/", 1)[-1].lower()
            if logical.lower().endswith(".gguf") and not name.startswith("mmproj"):
                groups.setdefault(logical, []).append((f.path, f.size))
        if not groups:
            continue
        models = {lg: (sorted(parts)[0][0], sum(s for _p, s in parts)) for lg, parts in groups.items()}
        probe_logical = min(models, key=lambda lg: models[lg][1])
        probe = models[probe_logical][0]
        try:
            verdict: VocabInfo | str = gguf_tools.vocab_from_fields(
                remote_header(hub, repo, probe, rev, endpoint, token)
            )
        except (GGUFFormatError, HubError) as exc:
            verdict = str(exc)
        for _logical, (first, size) in sorted(models.items()):
            ok, why = _judge(target, target_size, verdict, size)
            if ok and first != probe:
                why += f" (read from {probe}; one repository, one tokenizer)"
            out.append(Candidate("hub", ok, why, size, hub=hub, repo=repo, file=first))
    return out


# --- MLX ---------------------------------------------------------------------------------------


def mlx_tokenizer_fingerprint(folder: Path) -> str:
    """sha256 of ``tokenizer.json``'s vocabulary and added tokens (what drafting depends on)."""
    try:
        data = json.loads((folder / "tokenizer.json").read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise CacheError(f"{folder}: no readable tokenizer.json ({exc})") from None
    model = data.get("model") or {}
    vocab = model.get("vocab")
    added = sorted((t.get("id"), t.get("content")) for t in data.get("added_tokens") or [])
    h = hashlib.sha256(json.dumps([model.get("type"), vocab, added], sort_keys=True).encode())
    return h.hexdigest()


def mlx_candidates(target: Path, search: Iterable[Path]) -> list[Candidate]:
    tfp = mlx_tokenizer_fingerprint(target)
    tsize = _dir_size(target)
    out: list[Candidate] = []
    for folder in search:
        for cand in sorted(p.parent for p in folder.glob("*/config.json")):
            if cand.resolve() == target.resolve():
                continue
            size = _dir_size(cand)
            try:
                same = mlx_tokenizer_fingerprint(cand) == tfp
                why = "identical tokenizer.json vocabulary and added tokens" if same else "tokenizer differs"
            except CacheError as exc:
                same, why = False, str(exc)
            if same and size >= tsize:
                same, why = False, "not smaller than the target, so it cannot speed it up"
            out.append(Candidate("file", same, why, size, path=str(cand)))
    return out


def _dir_size(folder: Path) -> int:
    total = 0
    for dirpath, _d, names in os.walk(folder):
        for n in names:
            with contextlib.suppress(OSError):
                total += (Path(dirpath) / n).stat().st_size
    return total


def target_vocab(path: Path) -> tuple[VocabInfo, int]:
    v = _local_vocab(path)
    if isinstance(v, str):
        raise CacheError(f"cannot read the target: {v}")
    return v, _file_size(path)
